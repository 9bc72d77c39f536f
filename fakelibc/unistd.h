/* accsat fake libc: <unistd.h> (minimal; glibc, x86-64). */
#ifndef _ACCSAT_UNISTD_H
#define _ACCSAT_UNISTD_H 1

#ifndef __accsat_size_t_defined
#define __accsat_size_t_defined 1
typedef unsigned long size_t;
#endif
#ifndef __accsat_ssize_t_defined
#define __accsat_ssize_t_defined 1
typedef long ssize_t;
#endif
#ifndef __accsat_off_t_defined
#define __accsat_off_t_defined 1
typedef long off_t;
#endif
#ifndef __accsat_pid_t_defined
#define __accsat_pid_t_defined 1
typedef int pid_t;
#endif
#ifndef __accsat_useconds_t_defined
#define __accsat_useconds_t_defined 1
typedef unsigned int useconds_t;
#endif
#ifndef __accsat_uid_t_defined
#define __accsat_uid_t_defined 1
typedef unsigned int uid_t;
typedef unsigned int gid_t;
#endif
#ifndef __accsat_intptr_t_defined
#define __accsat_intptr_t_defined 1
typedef long intptr_t;
#endif

#ifndef NULL
#define NULL ((void *)0)
#endif
#define STDIN_FILENO 0
#define STDOUT_FILENO 1
#define STDERR_FILENO 2
#define F_OK 0
#define X_OK 1
#define W_OK 2
#define R_OK 4
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#define _SC_CLK_TCK 2
#define _SC_PAGESIZE 30
#define _SC_PAGE_SIZE _SC_PAGESIZE
#define _SC_NPROCESSORS_CONF 83
#define _SC_NPROCESSORS_ONLN 84

int access(const char *, int);
int close(int);
ssize_t read(int, void *, size_t);
ssize_t write(int, const void *, size_t);
off_t lseek(int, off_t, int);
int dup(int);
int dup2(int, int);
int pipe(int *);
int isatty(int);
int unlink(const char *);
int rmdir(const char *);
int chdir(const char *);
char *getcwd(char *, size_t);
unsigned int sleep(unsigned int);
int usleep(useconds_t);
pid_t fork(void);
pid_t getpid(void);
pid_t getppid(void);
uid_t getuid(void);
int execv(const char *, char *const *);
int execvp(const char *, char *const *);
_Noreturn void _exit(int);
long sysconf(int);
int getpagesize(void);
int gethostname(char *, size_t);

extern char *optarg;
extern int optind, opterr, optopt;
int getopt(int, char *const *, const char *);

#endif /* _ACCSAT_UNISTD_H */
