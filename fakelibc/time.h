/* accsat fake libc: <time.h> (glibc, x86-64: time_t and clock_t are long). */
#ifndef _ACCSAT_TIME_H
#define _ACCSAT_TIME_H 1

#ifndef __accsat_size_t_defined
#define __accsat_size_t_defined 1
typedef unsigned long size_t;
#endif
#ifndef __accsat_time_t_defined
#define __accsat_time_t_defined 1
typedef long time_t;
#endif
#ifndef __accsat_clock_t_defined
#define __accsat_clock_t_defined 1
typedef long clock_t;
#endif
#ifndef __accsat_clockid_t_defined
#define __accsat_clockid_t_defined 1
typedef int clockid_t;
#endif
#ifndef __accsat_struct_timespec_defined
#define __accsat_struct_timespec_defined 1
struct timespec {
    time_t tv_sec;
    long tv_nsec;
};
#endif

struct tm {
    int tm_sec;
    int tm_min;
    int tm_hour;
    int tm_mday;
    int tm_mon;
    int tm_year;
    int tm_wday;
    int tm_yday;
    int tm_isdst;
    long tm_gmtoff;
    const char *tm_zone;
};

#ifndef NULL
#define NULL ((void *)0)
#endif
#define CLOCKS_PER_SEC ((clock_t)1000000)
#define TIME_UTC 1
#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
#define CLOCK_PROCESS_CPUTIME_ID 2
#define CLOCK_THREAD_CPUTIME_ID 3
#define CLOCK_MONOTONIC_RAW 4

clock_t clock(void);
double difftime(time_t, time_t);
time_t mktime(struct tm *);
time_t time(time_t *);
char *asctime(const struct tm *);
char *ctime(const time_t *);
struct tm *gmtime(const time_t *);
struct tm *localtime(const time_t *);
struct tm *gmtime_r(const time_t *restrict, struct tm *restrict);
struct tm *localtime_r(const time_t *restrict, struct tm *restrict);
size_t strftime(char *restrict, size_t, const char *restrict, const struct tm *restrict);
int timespec_get(struct timespec *, int);
int clock_gettime(clockid_t, struct timespec *);
int clock_getres(clockid_t, struct timespec *);
int nanosleep(const struct timespec *, struct timespec *);

#endif /* _ACCSAT_TIME_H */
