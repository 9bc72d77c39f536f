/* accsat fake libc: <alloca.h>. */
#ifndef _ACCSAT_ALLOCA_H
#define _ACCSAT_ALLOCA_H 1

#ifndef __accsat_size_t_defined
#define __accsat_size_t_defined 1
typedef unsigned long size_t;
#endif

void *alloca(size_t);

#endif /* _ACCSAT_ALLOCA_H */
