/* accsat fake libc: <fcntl.h> (glibc, x86-64).  Like glibc's, it also gives
   the S_I* mode bits and the SEEK_* and *_OK constants. */
#ifndef _ACCSAT_FCNTL_H
#define _ACCSAT_FCNTL_H 1

#ifndef __accsat_off_t_defined
#define __accsat_off_t_defined 1
typedef long off_t;
#endif
#ifndef __accsat_pid_t_defined
#define __accsat_pid_t_defined 1
typedef int pid_t;
#endif
#ifndef __accsat_mode_t_defined
#define __accsat_mode_t_defined 1
typedef unsigned int mode_t;
#endif

struct flock {
    short l_type;
    short l_whence;
    off_t l_start;
    off_t l_len;
    pid_t l_pid;
};

#define O_ACCMODE 0003
#define O_RDONLY 00
#define O_WRONLY 01
#define O_RDWR 02
#define O_CREAT 0100
#define O_EXCL 0200
#define O_NOCTTY 0400
#define O_TRUNC 01000
#define O_APPEND 02000
#define O_NONBLOCK 04000
#define O_NDELAY 04000
#define O_SYNC 04010000
#define O_FSYNC 04010000
#define O_ASYNC 020000
#define O_DIRECTORY 0200000
#define O_NOFOLLOW 0400000
#define O_CLOEXEC 02000000
#define O_DSYNC 010000
#define O_RSYNC 04010000
#define F_DUPFD 0
#define F_GETFD 1
#define F_SETFD 2
#define F_GETFL 3
#define F_SETFL 4
#define F_GETLK 5
#define F_SETLK 6
#define F_SETLKW 7
#define F_GETLK64 5
#define F_SETLK64 6
#define F_SETLKW64 7
#define F_SETOWN 8
#define F_GETOWN 9
#define F_DUPFD_CLOEXEC 1030
#define FD_CLOEXEC 1
#define F_RDLCK 0
#define F_WRLCK 1
#define F_UNLCK 2
#define F_EXLCK 4
#define F_SHLCK 8
#define LOCK_SH 1
#define LOCK_EX 2
#define LOCK_NB 4
#define LOCK_UN 8
#define FAPPEND 02000
#define FFSYNC 04010000
#define FASYNC 020000
#define FNONBLOCK 04000
#define FNDELAY 04000
#define POSIX_FADV_NORMAL 0
#define POSIX_FADV_RANDOM 1
#define POSIX_FADV_SEQUENTIAL 2
#define POSIX_FADV_WILLNEED 3
#define POSIX_FADV_DONTNEED 4
#define POSIX_FADV_NOREUSE 5
#define AT_FDCWD -100
#define AT_SYMLINK_NOFOLLOW 0x100
#define AT_REMOVEDIR 0x200
#define AT_SYMLINK_FOLLOW 0x400
#define AT_EACCESS 0x200
#define F_ULOCK 0
#define F_LOCK 1
#define F_TLOCK 2
#define F_TEST 3

#define S_IFMT 0170000
#define S_IFDIR 0040000
#define S_IFCHR 0020000
#define S_IFBLK 0060000
#define S_IFREG 0100000
#define S_IFIFO 0010000
#define S_IFLNK 0120000
#define S_IFSOCK 0140000
#define S_ISUID 04000
#define S_ISGID 02000
#define S_ISVTX 01000
#define S_IRUSR 0400
#define S_IWUSR 0200
#define S_IXUSR 0100
#define S_IRWXU (0400|0200|0100)
#define S_IRGRP (0400 >> 3)
#define S_IWGRP (0200 >> 3)
#define S_IXGRP (0100 >> 3)
#define S_IRWXG ((0400|0200|0100) >> 3)
#define S_IROTH ((0400 >> 3) >> 3)
#define S_IWOTH ((0200 >> 3) >> 3)
#define S_IXOTH ((0100 >> 3) >> 3)
#define S_IRWXO (((0400|0200|0100) >> 3) >> 3)
#define F_OK 0
#define X_OK 1
#define W_OK 2
#define R_OK 4
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2

int fcntl(int, int, ...);
int open(const char *, int, ...);
int openat(int, const char *, int, ...);
int creat(const char *, mode_t);
int lockf(int, int, off_t);
int posix_fadvise(int, off_t, off_t, int);
int posix_fallocate(int, off_t, off_t);

#endif /* _ACCSAT_FCNTL_H */
