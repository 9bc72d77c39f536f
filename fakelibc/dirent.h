/* accsat fake libc: <dirent.h> (glibc, x86-64: struct dirent has glibc's layout). */
#ifndef _ACCSAT_DIRENT_H
#define _ACCSAT_DIRENT_H 1

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
#ifndef __accsat_ino_t_defined
#define __accsat_ino_t_defined 1
typedef unsigned long ino_t;
#endif

struct dirent {
    ino_t d_ino;
    off_t d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[256];
};
#define d_fileno d_ino
#define MAXNAMLEN 255

enum {
    DT_UNKNOWN = 0,
    DT_FIFO = 1,
    DT_CHR = 2,
    DT_DIR = 4,
    DT_BLK = 6,
    DT_REG = 8,
    DT_LNK = 10,
    DT_SOCK = 12,
    DT_WHT = 14
};
#define DT_UNKNOWN DT_UNKNOWN
#define DT_FIFO DT_FIFO
#define DT_CHR DT_CHR
#define DT_DIR DT_DIR
#define DT_BLK DT_BLK
#define DT_REG DT_REG
#define DT_LNK DT_LNK
#define DT_SOCK DT_SOCK
#define DT_WHT DT_WHT
#define IFTODT(mode) (((mode) & 0170000) >> 12)
#define DTTOIF(dirtype) ((dirtype) << 12)

typedef struct __dirstream DIR;

int closedir(DIR *);
DIR *opendir(const char *);
DIR *fdopendir(int);
struct dirent *readdir(DIR *);
int readdir_r(DIR *restrict, struct dirent *restrict, struct dirent **restrict);
void rewinddir(DIR *);
void seekdir(DIR *, long);
long telldir(DIR *);
int dirfd(DIR *);
int scandir(const char *restrict, struct dirent ***restrict, int (*)(const struct dirent *),
            int (*)(const struct dirent **, const struct dirent **));
int alphasort(const struct dirent **, const struct dirent **);
ssize_t getdirentries(int, char *restrict, size_t, off_t *restrict);

#endif /* _ACCSAT_DIRENT_H */
