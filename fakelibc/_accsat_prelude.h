/* accsat prelude: force-included (-include) before every translation unit.
 *
 * pycparser reads ISO C11 (plus __int128, _Complex, _Noreturn, _Thread_local,
 * _Alignas/_Alignof, _Static_assert and _Pragma), not GNU C.  The macros below
 * turn the GNU spellings that common code uses into nothing or into their ISO
 * spelling, so that user code (and headers written in GNU style) parses.  What
 * cannot be expressed as a macro is left alone and fails to parse with a clear
 * error: asm statements, statement expressions ({ ... }), typeof/__typeof__,
 * __auto_type, __label__, __real__/__imag__, _Float128/__float128, and a
 * va_arg of a function-pointer type (see __builtin_va_arg below).
 *
 * Everything here is a macro or declares a reserved (double-underscore) name,
 * so nothing it adds can clash with a name a program defines.
 */
#ifndef _ACCSAT_PRELUDE_H
#define _ACCSAT_PRELUDE_H 1

/* GNU attributes (__attribute__((...))) stay in the preprocessed text: accsat reads
   them itself and blanks them before pycparser sees them (accsat/frontend/attributes.py),
   since some change a type (mode, vector_size, packed). */
/* MSVC's counterpart, seen in portable headers. */
#define __declspec(x)

/* __extension__ only silences -pedantic warnings on the expression after it. */
#define __extension__

/* GNU alternate spellings of ISO keywords (accepted in every -std mode). */
#define __restrict restrict
#define __restrict__ restrict
#define __inline inline
#define __inline__ inline
#define __const const
#define __const__ const
#define __volatile volatile
#define __volatile__ volatile
#define __signed signed
#define __signed__ signed
#define __alignof _Alignof
#define __alignof__ _Alignof
#define __complex__ _Complex
#define __thread _Thread_local

/* Asm labels on declarations (`int f(void) __asm__("f64");`) only rename the
   symbol for the linker.  Asm *statements* are not supported. */
#define __asm__(...)
#define __asm(...)

/* GNU's names for __func__. */
#define __FUNCTION__ __func__
#define __PRETTY_FUNCTION__ __func__

/* offsetof with a type argument: the classic null-pointer form, which
   pycparser parses and which has offsetof's type (size_t). */
#define __builtin_offsetof(type, member) ((unsigned long)&(((type *)0)->member))

/* Variable arguments.  gcc's va_list is a builtin type (x86-64 psABI: an
   array of one __va_list_tag); give it that shape so sizes agree.  va_arg
   takes a type, which no function can, so it becomes a dereferenced cast of a
   call: the expression has the right type for accsat.  It only works for
   types that can be spelled as `type *` (not function-pointer types). */
typedef struct __va_list_tag {
    unsigned int gp_offset;
    unsigned int fp_offset;
    void *overflow_arg_area;
    void *reg_save_area;
} __builtin_va_list[1];
void __builtin_va_start(__builtin_va_list, ...);
void __builtin_va_end(__builtin_va_list);
void __builtin_va_copy(__builtin_va_list, __builtin_va_list);
void *__accsat_va_arg(__builtin_va_list);
#define __builtin_va_arg(ap, type) (*(type *)__accsat_va_arg(ap))

/* Builtins that HPC code calls directly, declared so that calls to them have
   a type. */
long __builtin_expect(long, long);
void __builtin_unreachable(void);
void __builtin_trap(void);
void __builtin_prefetch(const void *, ...);
void *__builtin_assume_aligned(const void *, unsigned long, ...);

/* _Float16 (gcc 12 and clang on x86-64) is a keyword pycparser does not know: a
   typedef name for it, which accsat reads as the compiler's own half-precision type
   (accsat/frontend/symbols.py, BUILTIN_TYPE_NAMES). Only where accsat preprocesses
   for its parser (accsat/frontend/preprocess.py defines __ACCSAT_PARSE__): to a
   compiler it is no name to declare. */
#ifdef __ACCSAT_PARSE__
typedef float _Float16;
#endif

/* What the compiler's flags make of C, as the preprocessor knows it: read off the
   preprocessed text by accsat/frontend/target.py (its names are reserved ones). */
enum __accsat_target {
    __accsat_flt_eval_method = __FLT_EVAL_METHOD__,
    __accsat_sizeof_long = __SIZEOF_LONG__,
    __accsat_sizeof_pointer = __SIZEOF_POINTER__,
#ifdef __CHAR_UNSIGNED__
    __accsat_char_unsigned = 1,
#endif
    __accsat_target_end
};

#endif /* _ACCSAT_PRELUDE_H */
