/* accsat fake libc: <signal.h> (minimal; Linux x86-64 signal numbers). */
#ifndef _ACCSAT_SIGNAL_H
#define _ACCSAT_SIGNAL_H 1

#ifndef __accsat_pid_t_defined
#define __accsat_pid_t_defined 1
typedef int pid_t;
#endif

typedef int sig_atomic_t;
typedef void (*__sighandler_t)(int);

#define SIG_ERR ((__sighandler_t)-1)
#define SIG_DFL ((__sighandler_t)0)
#define SIG_IGN ((__sighandler_t)1)

#define SIGHUP 1
#define SIGINT 2
#define SIGQUIT 3
#define SIGILL 4
#define SIGTRAP 5
#define SIGABRT 6
#define SIGBUS 7
#define SIGFPE 8
#define SIGKILL 9
#define SIGUSR1 10
#define SIGSEGV 11
#define SIGUSR2 12
#define SIGPIPE 13
#define SIGALRM 14
#define SIGTERM 15
#define SIGCHLD 17
#define SIGCONT 18
#define SIGSTOP 19

__sighandler_t signal(int, __sighandler_t);
int raise(int);
int kill(pid_t, int);

#endif /* _ACCSAT_SIGNAL_H */
