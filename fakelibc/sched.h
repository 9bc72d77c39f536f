/* accsat fake libc: <sched.h> (glibc, x86-64).  CPU affinity (cpu_set_t's
   CPU_* macros, sched_getcpu, sched_setaffinity) is GNU: with _GNU_SOURCE, as
   glibc.  glibc's CPU_SET, CPU_CLR and CPU_ISSET are statement expressions,
   which pycparser cannot read: here they are conditional expressions with the
   same result (evaluating their arguments more than once). */
#ifndef _ACCSAT_SCHED_H
#define _ACCSAT_SCHED_H 1

#ifndef __accsat_size_t_defined
#define __accsat_size_t_defined 1
typedef unsigned long size_t;
#endif
#ifndef __accsat_time_t_defined
#define __accsat_time_t_defined 1
typedef long time_t;
#endif
#ifndef __accsat_pid_t_defined
#define __accsat_pid_t_defined 1
typedef int pid_t;
#endif
#ifndef __accsat_struct_timespec_defined
#define __accsat_struct_timespec_defined 1
struct timespec {
    time_t tv_sec;
    long tv_nsec;
};
#endif

struct sched_param {
    int sched_priority;
};
#define sched_priority sched_priority

#define SCHED_OTHER 0
#define SCHED_FIFO 1
#define SCHED_RR 2

typedef unsigned long __cpu_mask;
typedef struct {
    __cpu_mask __bits[1024 / (8 * sizeof(__cpu_mask))];
} cpu_set_t;

int __sched_cpucount(size_t, const cpu_set_t *);
cpu_set_t *__sched_cpualloc(size_t);
void __sched_cpufree(cpu_set_t *);
int sched_setparam(pid_t, const struct sched_param *);
int sched_getparam(pid_t, struct sched_param *);
int sched_setscheduler(pid_t, int, const struct sched_param *);
int sched_getscheduler(pid_t);
int sched_yield(void);
int sched_get_priority_max(int);
int sched_get_priority_min(int);
int sched_rr_get_interval(pid_t, struct timespec *);

#ifdef _GNU_SOURCE
#define SCHED_BATCH 3
#define SCHED_IDLE 5
#define CPU_SETSIZE 1024
#define __ACCSAT_CPU_BITS (8 * sizeof(__cpu_mask))
#define CPU_SET_S(cpu, setsize, cpusetp) \
    ((size_t)(cpu) / 8 < (setsize) \
         ? ((cpusetp)->__bits[(size_t)(cpu) / __ACCSAT_CPU_BITS] \
            |= ((__cpu_mask)1 << ((size_t)(cpu) % __ACCSAT_CPU_BITS))) \
         : 0)
#define CPU_CLR_S(cpu, setsize, cpusetp) \
    ((size_t)(cpu) / 8 < (setsize) \
         ? ((cpusetp)->__bits[(size_t)(cpu) / __ACCSAT_CPU_BITS] \
            &= ~((__cpu_mask)1 << ((size_t)(cpu) % __ACCSAT_CPU_BITS))) \
         : 0)
#define CPU_ISSET_S(cpu, setsize, cpusetp) \
    ((size_t)(cpu) / 8 < (setsize) \
         ? (((cpusetp)->__bits[(size_t)(cpu) / __ACCSAT_CPU_BITS] \
             & ((__cpu_mask)1 << ((size_t)(cpu) % __ACCSAT_CPU_BITS))) != 0) \
         : 0)
#define CPU_SET(cpu, cpusetp) CPU_SET_S(cpu, sizeof(cpu_set_t), cpusetp)
#define CPU_CLR(cpu, cpusetp) CPU_CLR_S(cpu, sizeof(cpu_set_t), cpusetp)
#define CPU_ISSET(cpu, cpusetp) CPU_ISSET_S(cpu, sizeof(cpu_set_t), cpusetp)
#define CPU_ZERO_S(setsize, cpusetp) do __builtin_memset (cpusetp, '\0', setsize); while (0)
#define CPU_ZERO(cpusetp) do __builtin_memset (cpusetp, '\0', sizeof (cpu_set_t)); while (0)
#define CPU_COUNT_S(setsize, cpusetp) __sched_cpucount (setsize, cpusetp)
#define CPU_COUNT(cpusetp) __sched_cpucount (sizeof (cpu_set_t), cpusetp)
#define CPU_EQUAL(cpusetp1, cpusetp2) \
    (__builtin_memcmp (cpusetp1, cpusetp2, sizeof (cpu_set_t)) == 0)
#define CPU_ALLOC_SIZE(count) \
    ((((count) + (8 * sizeof (__cpu_mask)) - 1) / (8 * sizeof (__cpu_mask))) \
     * sizeof (__cpu_mask))
#define CPU_ALLOC(count) __sched_cpualloc (count)
#define CPU_FREE(cpuset) __sched_cpufree (cpuset)

int sched_getcpu(void);
int sched_setaffinity(pid_t, size_t, const cpu_set_t *);
int sched_getaffinity(pid_t, size_t, cpu_set_t *);
#endif

#endif /* _ACCSAT_SCHED_H */
