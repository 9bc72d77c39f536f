/* accsat fake libc: <assert.h>.  Like the real header, the assert macro is
   redefined on every inclusion to follow NDEBUG; only the prototype is
   guarded. */
#ifndef _ACCSAT_ASSERT_H
#define _ACCSAT_ASSERT_H 1

/* glibc's failure routine (what its assert calls). */
_Noreturn void __assert_fail(const char *assertion, const char *file,
                             unsigned int line, const char *function);

#define static_assert _Static_assert

#endif /* _ACCSAT_ASSERT_H */

#undef assert
#ifdef NDEBUG
#define assert(expr) ((void)0)
#else
#define assert(expr) \
    ((expr) ? (void)0 : __assert_fail(#expr, __FILE__, __LINE__, __func__))
#endif
