/* accsat fake libc: <strings.h> (glibc). */
#ifndef _ACCSAT_STRINGS_H
#define _ACCSAT_STRINGS_H 1

#ifndef __accsat_size_t_defined
#define __accsat_size_t_defined 1
typedef unsigned long size_t;
#endif

int bcmp(const void *, const void *, size_t);
void bcopy(const void *, void *, size_t);
void bzero(void *, size_t);
char *index(const char *, int);
char *rindex(const char *, int);
int ffs(int);
int ffsl(long);
int ffsll(long long);
int strcasecmp(const char *, const char *);
int strncasecmp(const char *, const char *, size_t);

#endif /* _ACCSAT_STRINGS_H */
