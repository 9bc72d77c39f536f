/* accsat fake libc: <iso646.h>. */
#ifndef _ACCSAT_ISO646_H
#define _ACCSAT_ISO646_H 1

#define and &&
#define and_eq &=
#define bitand &
#define bitor |
#define compl ~
#define not !
#define not_eq !=
#define or ||
#define or_eq |=
#define xor ^
#define xor_eq ^=

#endif /* _ACCSAT_ISO646_H */
