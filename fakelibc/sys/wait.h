/* accsat fake libc: <sys/wait.h> (glibc; waitid and its siginfo_t are left out). */
#ifndef _ACCSAT_SYS_WAIT_H
#define _ACCSAT_SYS_WAIT_H 1

#ifndef __accsat_pid_t_defined
#define __accsat_pid_t_defined 1
typedef int pid_t;
#endif

#define WNOHANG 1
#define WUNTRACED 2
#define WSTOPPED 2
#define WEXITED 4
#define WCONTINUED 8
#define WNOWAIT 0x01000000
#define WEXITSTATUS(status) (((status) & 0xff00) >> 8)
#define WTERMSIG(status) ((status) & 0x7f)
#define WSTOPSIG(status) (((status) & 0xff00) >> 8)
#define WIFEXITED(status) (((status) & 0x7f) == 0)
#define WIFSIGNALED(status) (((signed char) (((status) & 0x7f) + 1) >> 1) > 0)
#define WIFSTOPPED(status) (((status) & 0xff) == 0x7f)
#define WIFCONTINUED(status) ((status) == 0xffff)
#define WCOREFLAG 0x80
#define WCOREDUMP(status) ((status) & 0x80)
#define W_EXITCODE(ret, sig) ((ret) << 8 | (sig))
#define W_STOPCODE(sig) ((sig) << 8 | 0x7f)
#define WAIT_ANY (-1)
#define WAIT_MYPGRP 0

struct rusage;
pid_t wait(int *);
pid_t waitpid(pid_t, int *, int);
pid_t wait3(int *, int, struct rusage *);
pid_t wait4(pid_t, int *, int, struct rusage *);

#endif /* _ACCSAT_SYS_WAIT_H */
