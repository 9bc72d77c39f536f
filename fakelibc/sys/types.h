/* accsat fake libc: <sys/types.h> (glibc, x86-64).  Like glibc's (through
   <sys/select.h>), it also defines struct timeval and struct timespec. */
#ifndef _ACCSAT_SYS_TYPES_H
#define _ACCSAT_SYS_TYPES_H 1

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
#ifndef __accsat_suseconds_t_defined
#define __accsat_suseconds_t_defined 1
typedef long suseconds_t;
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

#ifndef __accsat_mode_t_defined
#define __accsat_mode_t_defined 1
typedef unsigned int mode_t;
#endif
#ifndef __accsat_ino_t_defined
#define __accsat_ino_t_defined 1
typedef unsigned long ino_t;
#endif
#ifndef __accsat_stat_types_defined
#define __accsat_stat_types_defined 1
typedef unsigned long dev_t;
typedef unsigned long nlink_t;
typedef long blksize_t;
typedef long blkcnt_t;
#endif
typedef unsigned int id_t;
typedef int key_t;
typedef void *timer_t;
typedef long loff_t;
typedef char *caddr_t;

#ifndef __accsat_intN_t_defined
#define __accsat_intN_t_defined 1
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long int64_t;
#endif

typedef unsigned char u_char;
typedef unsigned short u_short;
typedef unsigned int u_int;
typedef unsigned long u_long;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
typedef unsigned char u_int8_t;
typedef unsigned short u_int16_t;
typedef unsigned int u_int32_t;
typedef unsigned long u_int64_t;

#endif /* _ACCSAT_SYS_TYPES_H */
