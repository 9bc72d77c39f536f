/* accsat fake libc: <sys/utsname.h> (glibc, Linux). */
#ifndef _ACCSAT_SYS_UTSNAME_H
#define _ACCSAT_SYS_UTSNAME_H 1

#define SYS_NMLN 65

struct utsname {
    char sysname[65];
    char nodename[65];
    char release[65];
    char version[65];
    char machine[65];
    char __domainname[65];
};

int uname(struct utsname *);

#endif /* _ACCSAT_SYS_UTSNAME_H */
