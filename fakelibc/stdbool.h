/* accsat fake libc: <stdbool.h>. */
#ifndef _ACCSAT_STDBOOL_H
#define _ACCSAT_STDBOOL_H 1

#define bool _Bool
#define true 1
#define false 0
#define __bool_true_false_are_defined 1

#endif /* _ACCSAT_STDBOOL_H */
