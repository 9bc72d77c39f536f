/* accsat fake libc: <sys/times.h> (glibc, x86-64). */
#ifndef _ACCSAT_SYS_TIMES_H
#define _ACCSAT_SYS_TIMES_H 1

#ifndef __accsat_clock_t_defined
#define __accsat_clock_t_defined 1
typedef long clock_t;
#endif

struct tms {
    clock_t tms_utime;
    clock_t tms_stime;
    clock_t tms_cutime;
    clock_t tms_cstime;
};

clock_t times(struct tms *);

#endif /* _ACCSAT_SYS_TIMES_H */
