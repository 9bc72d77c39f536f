/* accsat fake libc: <stddef.h> (x86-64 LP64 types, as gcc's own header). */
#ifndef _ACCSAT_STDDEF_H
#define _ACCSAT_STDDEF_H 1

#ifndef __accsat_size_t_defined
#define __accsat_size_t_defined 1
typedef unsigned long size_t;
#endif
#ifndef __accsat_ptrdiff_t_defined
#define __accsat_ptrdiff_t_defined 1
typedef long ptrdiff_t;
#endif
#ifndef __accsat_wchar_t_defined
#define __accsat_wchar_t_defined 1
typedef int wchar_t;
#endif
/* C11 max_align_t: 16-byte aligned on x86-64 (long double). */
typedef struct {
    long long __max_align_ll;
    long double __max_align_ld;
} max_align_t;

#ifndef NULL
#define NULL ((void *)0)
#endif

/* The null-pointer form: pycparser parses it and its type is size_t. */
#define offsetof(type, member) ((size_t)&(((type *)0)->member))

#endif /* _ACCSAT_STDDEF_H */
