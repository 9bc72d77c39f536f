/* accsat fake libc: <libgen.h> (glibc: the POSIX basename, which may modify
   its argument, is __xpg_basename). */
#ifndef _ACCSAT_LIBGEN_H
#define _ACCSAT_LIBGEN_H 1

char *dirname(char *);
char *__xpg_basename(char *);
#define basename __xpg_basename

#endif /* _ACCSAT_LIBGEN_H */
