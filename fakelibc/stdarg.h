/* accsat fake libc: <stdarg.h>.  The builtins it names are declared, and
   __builtin_va_arg made parsable, by _accsat_prelude.h. */
#ifndef _ACCSAT_STDARG_H
#define _ACCSAT_STDARG_H 1

#ifndef __accsat_va_list_defined
#define __accsat_va_list_defined 1
typedef __builtin_va_list va_list;
#endif
typedef __builtin_va_list __gnuc_va_list;

#define va_start(ap, last) __builtin_va_start(ap, last)
#define va_arg(ap, type) __builtin_va_arg(ap, type)
#define va_end(ap) __builtin_va_end(ap)
#define va_copy(dest, src) __builtin_va_copy(dest, src)
#define __va_copy(dest, src) __builtin_va_copy(dest, src)

#endif /* _ACCSAT_STDARG_H */
