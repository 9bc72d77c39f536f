/* accsat fake libc: <malloc.h> (glibc; the allocation functions HPC code
   takes from it). */
#ifndef _ACCSAT_MALLOC_H
#define _ACCSAT_MALLOC_H 1

#ifndef __accsat_size_t_defined
#define __accsat_size_t_defined 1
typedef unsigned long size_t;
#endif

void *malloc(size_t);
void *calloc(size_t, size_t);
void *realloc(void *, size_t);
void free(void *);
void *memalign(size_t, size_t);
void *valloc(size_t);
void *pvalloc(size_t);
size_t malloc_usable_size(void *);

#endif /* _ACCSAT_MALLOC_H */
