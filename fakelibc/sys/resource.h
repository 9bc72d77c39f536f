/* accsat fake libc: <sys/resource.h> (minimal; glibc, x86-64). */
#ifndef _ACCSAT_SYS_RESOURCE_H
#define _ACCSAT_SYS_RESOURCE_H 1

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

typedef unsigned long rlim_t;
struct rlimit {
    rlim_t rlim_cur;
    rlim_t rlim_max;
};
#define RLIM_INFINITY ((rlim_t)-1)
#define RLIMIT_CPU 0
#define RLIMIT_FSIZE 1
#define RLIMIT_DATA 2
#define RLIMIT_STACK 3
#define RLIMIT_CORE 4
#define RLIMIT_NOFILE 7
#define RLIMIT_AS 9

struct rusage {
    struct timeval ru_utime;
    struct timeval ru_stime;
    long ru_maxrss;
    long ru_ixrss;
    long ru_idrss;
    long ru_isrss;
    long ru_minflt;
    long ru_majflt;
    long ru_nswap;
    long ru_inblock;
    long ru_oublock;
    long ru_msgsnd;
    long ru_msgrcv;
    long ru_nsignals;
    long ru_nvcsw;
    long ru_nivcsw;
};
#define RUSAGE_SELF 0
#define RUSAGE_CHILDREN (-1)

int getrlimit(int, struct rlimit *);
int setrlimit(int, const struct rlimit *);
int getrusage(int, struct rusage *);

#endif /* _ACCSAT_SYS_RESOURCE_H */
