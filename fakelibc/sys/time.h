/* accsat fake libc: <sys/time.h> (glibc, x86-64). */
#ifndef _ACCSAT_SYS_TIME_H
#define _ACCSAT_SYS_TIME_H 1

#ifndef __accsat_time_t_defined
#define __accsat_time_t_defined 1
typedef long time_t;
#endif
#ifndef __accsat_suseconds_t_defined
#define __accsat_suseconds_t_defined 1
typedef long suseconds_t;
#endif
#ifndef __accsat_struct_timeval_defined
#define __accsat_struct_timeval_defined 1
struct timeval {
    time_t tv_sec;
    suseconds_t tv_usec;
};
#endif
#ifndef __accsat_struct_timespec_defined
#define __accsat_struct_timespec_defined 1
struct timespec {
    time_t tv_sec;
    long tv_nsec;
};
#endif

struct timezone {
    int tz_minuteswest;
    int tz_dsttime;
};

/* glibc >= 2.31 declares the obsolete time-zone argument as void *. */
int gettimeofday(struct timeval *restrict, void *restrict);

#define timerisset(tvp) ((tvp)->tv_sec || (tvp)->tv_usec)
#define timerclear(tvp) ((tvp)->tv_sec = (tvp)->tv_usec = 0)
#define timercmp(a, b, CMP) \
    (((a)->tv_sec == (b)->tv_sec) ? ((a)->tv_usec CMP (b)->tv_usec) \
                                  : ((a)->tv_sec CMP (b)->tv_sec))
#define timeradd(a, b, result) \
    do { \
        (result)->tv_sec = (a)->tv_sec + (b)->tv_sec; \
        (result)->tv_usec = (a)->tv_usec + (b)->tv_usec; \
        if ((result)->tv_usec >= 1000000) { \
            ++(result)->tv_sec; \
            (result)->tv_usec -= 1000000; \
        } \
    } while (0)
#define timersub(a, b, result) \
    do { \
        (result)->tv_sec = (a)->tv_sec - (b)->tv_sec; \
        (result)->tv_usec = (a)->tv_usec - (b)->tv_usec; \
        if ((result)->tv_usec < 0) { \
            --(result)->tv_sec; \
            (result)->tv_usec += 1000000; \
        } \
    } while (0)

#endif /* _ACCSAT_SYS_TIME_H */
