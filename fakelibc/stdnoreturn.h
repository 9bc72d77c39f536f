/* accsat fake libc: <stdnoreturn.h> (C11). */
#ifndef _ACCSAT_STDNORETURN_H
#define _ACCSAT_STDNORETURN_H 1

#define noreturn _Noreturn

#endif /* _ACCSAT_STDNORETURN_H */
