/* accsat fake libc: <stdio.h> (glibc, x86-64).  FILE is opaque; parameter
   names are left out so that no user macro can clash with them. */
#ifndef _ACCSAT_STDIO_H
#define _ACCSAT_STDIO_H 1

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
/* glibc's stdio.h defines va_list too (POSIX 2008). */
#ifndef __accsat_va_list_defined
#define __accsat_va_list_defined 1
typedef __builtin_va_list va_list;
#endif

typedef struct _IO_FILE FILE;
/* glibc's layout: an off_t and an mbstate_t (16 bytes). */
typedef struct _G_fpos_t {
    long __pos;
    struct {
        int __count;
        union {
            unsigned int __wch;
            char __wchb[4];
        } __value;
    } __state;
} fpos_t;

#ifndef NULL
#define NULL ((void *)0)
#endif

#define EOF (-1)
#define BUFSIZ 8192
#define FILENAME_MAX 4096
#define FOPEN_MAX 16
#define L_tmpnam 20
#define TMP_MAX 238328
#define P_tmpdir "/tmp"
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#define _IOFBF 0
#define _IOLBF 1
#define _IONBF 2

extern FILE *stdin;
extern FILE *stdout;
extern FILE *stderr;
#define stdin stdin
#define stdout stdout
#define stderr stderr

int remove(const char *);
int rename(const char *, const char *);
FILE *tmpfile(void);
char *tmpnam(char *);

int fclose(FILE *);
int fflush(FILE *);
FILE *fopen(const char *restrict, const char *restrict);
FILE *freopen(const char *restrict, const char *restrict, FILE *restrict);
FILE *fdopen(int, const char *);
FILE *fmemopen(void *, size_t, const char *);
FILE *open_memstream(char **, size_t *);
FILE *popen(const char *, const char *);
int pclose(FILE *);
int fileno(FILE *);
void setbuf(FILE *restrict, char *restrict);
int setvbuf(FILE *restrict, char *restrict, int, size_t);

int fprintf(FILE *restrict, const char *restrict, ...);
int printf(const char *restrict, ...);
int sprintf(char *restrict, const char *restrict, ...);
int snprintf(char *restrict, size_t, const char *restrict, ...);
int dprintf(int, const char *restrict, ...);
int vfprintf(FILE *restrict, const char *restrict, __builtin_va_list);
int vprintf(const char *restrict, __builtin_va_list);
int vsprintf(char *restrict, const char *restrict, __builtin_va_list);
int vsnprintf(char *restrict, size_t, const char *restrict, __builtin_va_list);
int vdprintf(int, const char *restrict, __builtin_va_list);

int fscanf(FILE *restrict, const char *restrict, ...);
int scanf(const char *restrict, ...);
int sscanf(const char *restrict, const char *restrict, ...);
int vfscanf(FILE *restrict, const char *restrict, __builtin_va_list);
int vscanf(const char *restrict, __builtin_va_list);
int vsscanf(const char *restrict, const char *restrict, __builtin_va_list);

int fgetc(FILE *);
char *fgets(char *restrict, int, FILE *restrict);
int fputc(int, FILE *);
int fputs(const char *restrict, FILE *restrict);
int getc(FILE *);
int getchar(void);
int putc(int, FILE *);
int putchar(int);
int puts(const char *);
int ungetc(int, FILE *);
ssize_t getline(char **restrict, size_t *restrict, FILE *restrict);
ssize_t getdelim(char **restrict, size_t *restrict, int, FILE *restrict);

size_t fread(void *restrict, size_t, size_t, FILE *restrict);
size_t fwrite(const void *restrict, size_t, size_t, FILE *restrict);

int fgetpos(FILE *restrict, fpos_t *restrict);
int fseek(FILE *, long, int);
int fseeko(FILE *, off_t, int);
int fsetpos(FILE *, const fpos_t *);
long ftell(FILE *);
off_t ftello(FILE *);
void rewind(FILE *);

void clearerr(FILE *);
int feof(FILE *);
int ferror(FILE *);
void perror(const char *);

#endif /* _ACCSAT_STDIO_H */
