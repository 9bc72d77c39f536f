/* accsat fake libc: <setjmp.h> (minimal; glibc x86-64 layout, 200 bytes). */
#ifndef _ACCSAT_SETJMP_H
#define _ACCSAT_SETJMP_H 1

struct __jmp_buf_tag {
    long __jmpbuf[8];
    int __mask_was_saved;
    struct {
        unsigned long __val[16];
    } __saved_mask;
};
typedef struct __jmp_buf_tag jmp_buf[1];
typedef struct __jmp_buf_tag sigjmp_buf[1];

int setjmp(struct __jmp_buf_tag *);
int _setjmp(struct __jmp_buf_tag *);
int __sigsetjmp(struct __jmp_buf_tag *, int);
_Noreturn void longjmp(struct __jmp_buf_tag *, int);
_Noreturn void _longjmp(struct __jmp_buf_tag *, int);
_Noreturn void siglongjmp(struct __jmp_buf_tag *, int);

/* As glibc: setjmp does not save the signal mask. */
#define setjmp(env) _setjmp(env)
#define sigsetjmp(env, savemask) __sigsetjmp(env, savemask)

#endif /* _ACCSAT_SETJMP_H */
