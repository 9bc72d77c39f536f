/* accsat fake libc: <stdalign.h> (C11). */
#ifndef _ACCSAT_STDALIGN_H
#define _ACCSAT_STDALIGN_H 1

#define alignas _Alignas
#define alignof _Alignof
#define __alignas_is_defined 1
#define __alignof_is_defined 1

#endif /* _ACCSAT_STDALIGN_H */
