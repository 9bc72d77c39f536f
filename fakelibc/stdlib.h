/* accsat fake libc: <stdlib.h> (glibc, x86-64).  Like glibc's (by default,
   i.e. without strict ISO flags), it also declares alloca and includes
   <sys/types.h>, which programs rely on for int64_t, off_t, struct timeval... */
#ifndef _ACCSAT_STDLIB_H
#define _ACCSAT_STDLIB_H 1

#include <sys/types.h>

#ifndef __accsat_size_t_defined
#define __accsat_size_t_defined 1
typedef unsigned long size_t;
#endif
#ifndef __accsat_wchar_t_defined
#define __accsat_wchar_t_defined 1
typedef int wchar_t;
#endif

typedef struct {
    int quot;
    int rem;
} div_t;
typedef struct {
    long quot;
    long rem;
} ldiv_t;
typedef struct {
    long long quot;
    long long rem;
} lldiv_t;

#ifndef NULL
#define NULL ((void *)0)
#endif
#define EXIT_FAILURE 1
#define EXIT_SUCCESS 0
#define RAND_MAX 2147483647
size_t __ctype_get_mb_cur_max(void);
#define MB_CUR_MAX (__ctype_get_mb_cur_max())

double atof(const char *);
int atoi(const char *);
long atol(const char *);
long long atoll(const char *);
double strtod(const char *restrict, char **restrict);
float strtof(const char *restrict, char **restrict);
long double strtold(const char *restrict, char **restrict);
long strtol(const char *restrict, char **restrict, int);
long long strtoll(const char *restrict, char **restrict, int);
unsigned long strtoul(const char *restrict, char **restrict, int);
unsigned long long strtoull(const char *restrict, char **restrict, int);

int rand(void);
void srand(unsigned int);
int rand_r(unsigned int *);
long random(void);
void srandom(unsigned int);
double drand48(void);
double erand48(unsigned short *);
long lrand48(void);
long nrand48(unsigned short *);
long mrand48(void);
long jrand48(unsigned short *);
void srand48(long);
unsigned short *seed48(unsigned short *);

void *malloc(size_t);
void *calloc(size_t, size_t);
void *realloc(void *, size_t);
void free(void *);
void *aligned_alloc(size_t, size_t);
int posix_memalign(void **, size_t, size_t);
void *valloc(size_t);
void *alloca(size_t);

_Noreturn void abort(void);
int atexit(void (*)(void));
int at_quick_exit(void (*)(void));
_Noreturn void exit(int);
_Noreturn void _Exit(int);
_Noreturn void quick_exit(int);

char *getenv(const char *);
int setenv(const char *, const char *, int);
int unsetenv(const char *);
int putenv(char *);
int system(const char *);
char *realpath(const char *restrict, char *restrict);
int mkstemp(char *);
char *mkdtemp(char *);

void *bsearch(const void *, const void *, size_t, size_t,
              int (*)(const void *, const void *));
void qsort(void *, size_t, size_t, int (*)(const void *, const void *));

int abs(int);
long labs(long);
long long llabs(long long);
div_t div(int, int);
ldiv_t ldiv(long, long);
lldiv_t lldiv(long long, long long);

int mblen(const char *, size_t);
int mbtowc(wchar_t *restrict, const char *restrict, size_t);
int wctomb(char *, wchar_t);
size_t mbstowcs(wchar_t *restrict, const char *restrict, size_t);
size_t wcstombs(char *restrict, const wchar_t *restrict, size_t);

#endif /* _ACCSAT_STDLIB_H */
