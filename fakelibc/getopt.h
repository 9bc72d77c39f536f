/* accsat fake libc: <getopt.h> (glibc). */
#ifndef _ACCSAT_GETOPT_H
#define _ACCSAT_GETOPT_H 1

extern char *optarg;
extern int optind;
extern int opterr;
extern int optopt;
int getopt(int, char *const *, const char *);

struct option {
    const char *name;
    int has_arg;
    int *flag;
    int val;
};
#define no_argument 0
#define required_argument 1
#define optional_argument 2

int getopt_long(int, char *const *, const char *, const struct option *, int *);
int getopt_long_only(int, char *const *, const char *, const struct option *, int *);

#endif /* _ACCSAT_GETOPT_H */
