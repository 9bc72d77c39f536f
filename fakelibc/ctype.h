/* accsat fake libc: <ctype.h>.  Functions only (glibc's macro versions read
   its locale tables; a call has the same type). */
#ifndef _ACCSAT_CTYPE_H
#define _ACCSAT_CTYPE_H 1

int isalnum(int);
int isalpha(int);
int isblank(int);
int iscntrl(int);
int isdigit(int);
int isgraph(int);
int islower(int);
int isprint(int);
int ispunct(int);
int isspace(int);
int isupper(int);
int isxdigit(int);
int tolower(int);
int toupper(int);
int isascii(int);
int toascii(int);

#endif /* _ACCSAT_CTYPE_H */
