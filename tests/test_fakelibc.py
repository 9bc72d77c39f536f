"""fakelibc/: accsat's own libc headers.

They must (a) preprocess and parse with pycparser, alone and all together;
(b) give the standard names glibc's x86-64 types; (c) leave a file that includes
any of them rewritable; (d) let real programs (NPB, when NPB_ROOT names its
sources) parse.  Where the system has gcc with glibc's
headers, the headers are also checked against the real ones: every prototype
and typedef is redeclared after the real headers (gcc rejects any conflicting
type), struct layouts and macro values are compared.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from ast import literal_eval
from pathlib import Path

import pytest
from pycparser import c_ast, c_generator

from accsat.frontend.parse import parse
from accsat.frontend.preprocess import PRELUDE, PreprocessOptions, preprocess
from accsat.resources import data_dir

FAKELIBC = data_dir("fakelibc")
HEADERS = sorted(
    p.relative_to(FAKELIBC).as_posix() for p in FAKELIBC.rglob("*.h") if p.name != PRELUDE
)
INCLUDE_ALL = "".join(f"#include <{h}>\n" for h in HEADERS)


def _parse(path: Path, flags: tuple[str, ...] = ()) -> c_ast.FileAST:
    """What accsat reads of a file (its GNU attributes read apart, frontend/attributes.py)."""
    text = preprocess(path, PreprocessOptions(flags=flags))
    return parse(text, str(path))


def _parse_source(tmp_path: Path, source: str, name: str = "t.c") -> c_ast.FileAST:
    path = tmp_path / name
    path.write_text(source)
    return _parse(path)


@pytest.fixture(scope="module")
def all_headers_ast(tmp_path_factory) -> c_ast.FileAST:
    return _parse_source(tmp_path_factory.mktemp("fakelibc"), INCLUDE_ALL)


def _ours(node: c_ast.Node) -> bool:
    """A declaration made by one of our headers (not the prelude, not the test)."""
    file = Path(node.coord.file) if node.coord else None
    return file is not None and FAKELIBC in file.parents and file.name != PRELUDE


def _declarations(ast: c_ast.FileAST) -> dict[str, c_ast.Node]:
    return {
        n.name: n
        for n in ast.ext
        if isinstance(n, (c_ast.Decl, c_ast.Typedef)) and n.name and _ours(n)
    }


# ---------------------------------------------------------------------------
# (a) everything parses


REQUIRED = """assert.h complex.h ctype.h dirent.h errno.h fcntl.h fenv.h float.h getopt.h
inttypes.h libgen.h limits.h math.h omp.h openacc.h pthread.h sched.h setjmp.h signal.h stdarg.h
stdbool.h stddef.h stdint.h stdio.h stdlib.h string.h strings.h sys/mman.h sys/resource.h
sys/stat.h sys/time.h sys/times.h sys/types.h sys/utsname.h sys/wait.h time.h unistd.h"""


def test_header_list_is_complete():
    must = set(REQUIRED.split())
    assert must <= set(HEADERS)


@pytest.mark.parametrize("header", HEADERS)
def test_each_header_parses_alone(tmp_path, header):
    once = _parse_source(tmp_path, f"#include <{header}>\nint x;\n", "once.c")
    # Included twice, it must declare nothing more: it is guarded.
    twice = _parse_source(tmp_path, f"#include <{header}>\n#include <{header}>\nint x;\n")
    assert len(twice.ext) == len(once.ext)


USAGE = r"""
struct pt { int x; double y; };

int sum(int n, ...)
{
    va_list ap, aq;
    int i, s = 0;
    va_start(ap, n);
    va_copy(aq, ap);
    for (i = 0; i < n; i++)
        s += va_arg(ap, int);
    s += (int)*va_arg(aq, double *);
    va_end(aq);
    va_end(ap);
    return s;
}

int main(int argc, char **argv)
{
    double x = sqrt(2.0) + M_PI + HUGE_VAL + INFINITY + NAN + DBL_EPSILON + FLT_MAX;
    float f = sqrtf(2.0f) + fabsf(-1.0f) + HUGE_VALF;
    long double l = sqrtl(2.0L) + LDBL_MAX;
    double complex z = 1.0 + 2.0 * I;
    size_t off = offsetof(struct pt, y);
    bool b = isnan(x) || isinf(f) || !isfinite(l) || fpclassify(x) == FP_NAN || signbit(x)
             || isgreater(x, 1.0) || isunordered(x, f);
    int64_t i64 = INT64_C(5) + INT64_MAX;
    uint64_t u64 = UINT64_C(5) + UINT64_MAX + SIZE_MAX;
    struct timeval t0, t1, dt;
    struct timespec ts;
    struct rusage ru;
    struct tm *tm;
    jmp_buf jb;
    omp_lock_t lock;
    fenv_t env;
    FILE *fp;
    time_t now = time(NULL);
    clock_t c = clock();
    char buf[BUFSIZ];

    assert(argc > 0 && off == 8);
    static_assert(sizeof(int) == 4, "int");
    errno = 0;
    if (errno == ERANGE || errno == EDOM) perror("x");
    fp = fopen("/dev/null", "w");
    fprintf(fp ? fp : stderr, "%" PRId64 " %" PRIu64 " %d %ld\n", i64, u64, INT_MAX, LONG_MIN);
    snprintf(buf, sizeof buf, "%s", argv[0]);
    if (fp) fclose(fp);
    gettimeofday(&t0, NULL);
    gettimeofday(&t1, NULL);
    timersub(&t1, &t0, &dt);
    clock_gettime(CLOCK_MONOTONIC, &ts);
    getrusage(RUSAGE_SELF, &ru);
    tm = localtime(&now);
    if (setjmp(jb)) return EXIT_FAILURE;
    fegetenv(&env);
    omp_init_lock(&lock);
    omp_set_lock(&lock);
    omp_unset_lock(&lock);
    omp_destroy_lock(&lock);
    if (acc_get_num_devices(acc_device_nvidia) > 0) acc_init(acc_device_nvidia);
    x += strtod("1.5", NULL) + atoi("2") + abs(-3) + labs(-4L) + rand() / (double)RAND_MAX;
    x += strlen(buf) + toupper('a') + isdigit('1') + (tm ? tm->tm_year : 0) + c / CLOCKS_PER_SEC;
    x += creal(z) + cabs(z) + getpid() + sysconf(_SC_NPROCESSORS_ONLN);
    #pragma acc parallel loop reduction(+:x)
    for (int i = 0; i < 10; i++)
        x += fma(1.0, i, 2.0) + pow(x, 0.5);
    #pragma omp parallel for reduction(+:x)
    for (int i = 0; i < 10; i++)
        x += omp_get_wtime() + omp_get_thread_num();
    memset(buf, 0, sizeof buf);
    return b + (int)x + (int)f + (int)l + (int)i64 + (int)u64 + (int)dt.tv_usec + (int)ts.tv_nsec;
}
"""


def test_all_headers_together_parse(tmp_path):
    # Twice: every header must be guarded against double inclusion.
    ast = _parse_source(tmp_path, INCLUDE_ALL + INCLUDE_ALL + USAGE)
    names = {n.decl.name for n in ast.ext if isinstance(n, c_ast.FuncDef)}
    assert names == {"sum", "main"}


GNU_SOURCE = r"""
#include <stddef.h>
#include <stdarg.h>
typedef struct { int a; } __attribute__((aligned(16), packed)) aligned_t;
__extension__ typedef long long ll_t;
static __inline__ int add(int *__restrict a, const int *__restrict__ b) { return *a + *b; }
static __inline int sub(__const int a, __signed__ int b) { return a - b; }
extern double renamed(double) __asm__("renamed_v2");
extern float renamed2(float) __asm("renamed2_v2");
__declspec(dllexport) int exported;
static __thread int tls;
volatile __volatile__ int vv;
__complex__ double zz;
int f(int n, ...)
{
    __builtin_va_list ap;
    int r;
    __builtin_va_start(ap, n);
    r = __builtin_va_arg(ap, int);
    __builtin_va_end(ap);
    if (__builtin_expect(r < 0, 0)) __builtin_unreachable();
    return r + (int)__alignof__(double) + (int)__builtin_offsetof(aligned_t, a)
           + (int)sizeof(__FUNCTION__) + (int)sizeof(__PRETTY_FUNCTION__);
}
"""


def test_prelude_neutralises_gnu_syntax(tmp_path):
    ast = _parse_source(tmp_path, GNU_SOURCE)
    funcs = {n.decl.name for n in ast.ext if isinstance(n, c_ast.FuncDef)}
    assert funcs == {"add", "sub", "f"}


def test_assert_follows_ndebug(tmp_path):
    src = "#include <assert.h>\nvoid f(int x) { assert(x); }\n"
    (tmp_path / "a.c").write_text(src)
    gen = c_generator.CGenerator()
    body = _parse(tmp_path / "a.c").ext[-1].body
    assert "__assert_fail" in gen.visit(body)
    body = _parse(tmp_path / "a.c", ("-DNDEBUG",)).ext[-1].body
    assert "__assert_fail" not in gen.visit(body)


# ---------------------------------------------------------------------------
# (b) the types are glibc's (x86-64, LP64)

EXPECTED = {
    # typedefs
    "size_t": "typedef unsigned long size_t",
    "ptrdiff_t": "typedef long ptrdiff_t",
    "ssize_t": "typedef long ssize_t",
    "wchar_t": "typedef int wchar_t",
    "int8_t": "typedef signed char int8_t",
    "int32_t": "typedef int int32_t",
    "int64_t": "typedef long int64_t",
    "uint64_t": "typedef unsigned long uint64_t",
    "int_fast16_t": "typedef long int_fast16_t",
    "intptr_t": "typedef long intptr_t",
    "uintptr_t": "typedef unsigned long uintptr_t",
    "intmax_t": "typedef long intmax_t",
    "time_t": "typedef long time_t",
    "clock_t": "typedef long clock_t",
    "suseconds_t": "typedef long suseconds_t",
    "off_t": "typedef long off_t",
    "pid_t": "typedef int pid_t",
    "FILE": "typedef struct _IO_FILE FILE",
    "va_list": "typedef __builtin_va_list va_list",
    "float_t": "typedef float float_t",
    "double_t": "typedef double double_t",
    "jmp_buf": "typedef struct __jmp_buf_tag jmp_buf[1]",
    # math
    "sqrt": "double sqrt(double)",
    "sqrtf": "float sqrtf(float)",
    "sqrtl": "long double sqrtl(long double)",
    "fabsf": "float fabsf(float)",
    "powf": "float powf(float, float)",
    "frexp": "double frexp(double, int *)",
    "ldexpf": "float ldexpf(float, int)",
    "modff": "float modff(float, float *)",
    "lround": "long lround(double)",
    "llrintf": "long long llrintf(float)",
    "ilogbl": "int ilogbl(long double)",
    "nexttowardf": "float nexttowardf(float, long double)",
    "scalbln": "double scalbln(double, long)",
    "remquo": "double remquo(double, double, int *)",
    "nan": "double nan(const char *)",
    "fmaf": "float fmaf(float, float, float)",
    "sincos": "void sincos(double, double *, double *)",
    # stdlib
    "abs": "int abs(int)",
    "labs": "long labs(long)",
    "llabs": "long long llabs(long long)",
    "malloc": "void *malloc(size_t)",
    "calloc": "void *calloc(size_t, size_t)",
    "free": "void free(void *)",
    "exit": "_Noreturn void exit(int)",
    "atoi": "int atoi(const char *)",
    "strtod": "double strtod(const char *restrict, char **restrict)",
    "rand": "int rand(void)",
    "qsort": "void qsort(void *, size_t, size_t, int (*)(const void *, const void *))",
    # stdio, string, time
    "printf": "int printf(const char *restrict, ...)",
    "fprintf": "int fprintf(FILE *restrict, const char *restrict, ...)",
    "fopen": "FILE *fopen(const char *restrict, const char *restrict)",
    "fread": "size_t fread(void *restrict, size_t, size_t, FILE *restrict)",
    "stdout": "extern FILE *stdout",
    "strlen": "size_t strlen(const char *)",
    "memcpy": "void *memcpy(void *restrict, const void *restrict, size_t)",
    "gettimeofday": "int gettimeofday(struct timeval *restrict, void *restrict)",
    "clock": "clock_t clock(void)",
    "time": "time_t time(time_t *)",
    # runtimes
    "omp_get_wtime": "double omp_get_wtime(void)",
    "omp_get_thread_num": "int omp_get_thread_num(void)",
    "omp_set_lock": "void omp_set_lock(omp_lock_t *)",
    "omp_target_alloc": "void *omp_target_alloc(size_t, int)",
    "omp_target_memcpy": (
        "int omp_target_memcpy(void *, const void *, size_t, size_t, size_t, int, int)"
    ),
    "acc_malloc": "void *acc_malloc(size_t)",
    "acc_copyin": "void *acc_copyin(void *, size_t)",
    "acc_copyout": "void acc_copyout(void *, size_t)",
    "acc_deviceptr": "void *acc_deviceptr(void *)",
    "acc_is_present": "int acc_is_present(void *, size_t)",
    "acc_get_device_type": "acc_device_t acc_get_device_type(void)",
    "acc_set_device_num": "void acc_set_device_num(int, acc_device_t)",
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_key_declarations(all_headers_ast, name):
    decls = _declarations(all_headers_ast)
    assert name in decls, f"{name} is not declared"
    got = " ".join(c_generator.CGenerator().visit(decls[name]).split())
    got = got.replace("* restrict", "*restrict")
    assert got == EXPECTED[name]


def test_openacc_device_enum(all_headers_ast):
    enums = {
        n.type.type.name: [e.name for e in n.type.type.values.enumerators]
        for n in all_headers_ast.ext
        if isinstance(n, c_ast.Typedef) and isinstance(n.type.type, c_ast.Enum)
    }
    wanted = "acc_device_none acc_device_default acc_device_host acc_device_not_host"
    for name in (*wanted.split(), "acc_device_nvidia"):
        assert name in enums["acc_device_t"]


def test_every_math_function_has_float_and_long_double_forms(all_headers_ast):
    decls = _declarations(all_headers_ast)
    math = [
        n
        for n in decls.values()
        if isinstance(n, c_ast.Decl)
        and isinstance(n.type, c_ast.FuncDecl)
        and n.coord.file.endswith("math.h")
        and not n.name.startswith("__")
    ]
    doubles = {n.name for n in math if _ret(n) == "double"}
    assert len(doubles) >= 55
    for name in doubles:
        base, r = (name[:-2], "_r") if name.endswith("_r") else (name, "")  # lgammaf_r
        assert _ret(decls[f"{base}f{r}"]) == "float", name
        assert _ret(decls[f"{base}l{r}"]) == "long double", name


def _ret(decl: c_ast.Decl) -> str:
    t = decl.type.type
    return " ".join(t.type.names) if isinstance(t, c_ast.TypeDecl) else "?"


# ---------------------------------------------------------------------------
# Agreement with the system's real headers (glibc + gcc's omp.h/openacc.h)

GCC = shutil.which("gcc")
REAL_FLAGS = ["-fopenmp", "-fopenacc", "-foffload=disable"]


def _gcc(args: list[str], source: str, tmp_path: Path, name: str) -> subprocess.CompletedProcess:
    path = tmp_path / name
    path.write_text(source)
    return subprocess.run(
        [GCC, *args, str(path)], capture_output=True, text=True, check=False, cwd=tmp_path
    )


@pytest.fixture(scope="module")
def real_headers(tmp_path_factory) -> Path:
    """A scratch folder, once gcc has shown that it compiles every real header we mimic."""
    if GCC is None:
        pytest.skip("gcc not found")
    tmp = tmp_path_factory.mktemp("real")
    proc = _gcc(["-fsyntax-only", *REAL_FLAGS], INCLUDE_ALL, tmp, "probe.c")
    if proc.returncode != 0:
        pytest.skip(f"the system's C headers are not usable: {proc.stderr.strip()[:200]}")
    return tmp


# Declared by glibc only with _GNU_SOURCE: checked in a second run.
GNU_ONLY = {"sincos", "sincosf", "sincosl", "exp10", "exp10f", "exp10l"}


def _redeclarations(ast: c_ast.FileAST) -> tuple[list[str], list[str]]:
    """Each of our function/variable declarations and plain typedefs as C text,
    `#undef`ed first in case the real header also has a macro of that name."""
    gen = c_generator.CGenerator()
    decls, typedefs = [], []
    for name, n in _declarations(ast).items():
        if name.startswith("__builtin"):
            continue
        if isinstance(n, c_ast.Typedef):
            t = n.type
            while isinstance(t, (c_ast.TypeDecl, c_ast.ArrayDecl, c_ast.PtrDecl)):
                t = t.type
            if isinstance(t, (c_ast.Struct, c_ast.Union)) and t.decls is not None:
                continue  # a definition: compared by layout below
            if isinstance(t, c_ast.Enum) and t.values is not None:
                continue  # compared by enumerator values below
            typedefs.append(f"{gen.visit(n)};")
        elif not isinstance(n.type, (c_ast.Struct, c_ast.Union, c_ast.Enum)):
            decls.append(f"#undef {name}\n{gen.visit(n)};")
    return decls, typedefs


def _enumerator_checks(ast: c_ast.FileAST) -> list[str]:
    gen = c_generator.CGenerator()
    checks = []
    for n in ast.ext:
        if not _ours(n):
            continue
        t = getattr(n, "type", None)
        t = getattr(t, "type", t)
        if not isinstance(t, c_ast.Enum) or t.values is None:
            continue
        prev = None
        for e in t.values.enumerators:
            if e.value is not None:
                value = f"({gen.visit(e.value)})"
            else:  # C: the first enumerator is 0, each next one more than the last
                value = "0" if prev is None else f"({prev} + 1)"
            checks.append(f'_Static_assert({value} == {e.name}, "{e.name}");')
            prev = e.name
    return checks


def test_declarations_agree_with_glibc(all_headers_ast, real_headers):
    decls, typedefs = _redeclarations(all_headers_ast)
    assert len(decls) > 500
    checks = _enumerator_checks(all_headers_ast)
    src = INCLUDE_ALL + "\n".join(typedefs + decls + checks) + "\n"
    proc = _gcc(
        ["-fsyntax-only", "-Wredundant-decls", "-Werror=builtin-declaration-mismatch", *REAL_FLAGS],
        src,
        real_headers,
        "redecl.c",
    )
    errors = [line for line in proc.stderr.splitlines() if ": error:" in line]
    assert proc.returncode == 0 and not errors, "\n".join(errors[:20])
    # Each declaration must have been a redeclaration: a name the real headers
    # lack would otherwise go unchecked.
    redundant = set(re.findall(r"redundant redeclaration of \W(\w+)\W", proc.stderr))
    ours = {d.split()[1] for d in decls}
    assert ours - redundant == GNU_ONLY

    gnu = [d for d in decls if d.split()[1] in GNU_ONLY]
    proc = _gcc(
        ["-fsyntax-only", "-D_GNU_SOURCE", "-Wredundant-decls", *REAL_FLAGS],
        INCLUDE_ALL + "\n".join(gnu) + "\n",
        real_headers,
        "gnu.c",
    )
    assert proc.returncode == 0, proc.stderr
    assert set(re.findall(r"redundant redeclaration of \W(\w+)\W", proc.stderr)) == GNU_ONLY


def test_gnu_declarations_agree_with_glibc(tmp_path, all_headers_ast, real_headers):
    """What our headers declare only with _GNU_SOURCE (CPU affinity...), as glibc does."""
    gnu_ast = _parse_source(tmp_path, "#define _GNU_SOURCE 1\n" + INCLUDE_ALL)
    plain = set(_declarations(all_headers_ast))
    decls, _ = _redeclarations(gnu_ast)
    extra = [d for d in decls if d.split()[1] not in plain]
    names = {d.split()[1] for d in extra}
    assert {"sched_getcpu", "sched_setaffinity", "pthread_setaffinity_np"} <= names
    proc = _gcc(
        ["-fsyntax-only", "-D_GNU_SOURCE", "-Wredundant-decls", *REAL_FLAGS],
        INCLUDE_ALL + "\n".join(extra) + "\n",
        real_headers,
        "gnu_extra.c",
    )
    errors = [line for line in proc.stderr.splitlines() if ": error:" in line]
    assert proc.returncode == 0 and not errors, "\n".join(errors[:20])
    assert set(re.findall(r"redundant redeclaration of \W(\w+)\W", proc.stderr)) >= names


CPU_SET_PROGRAM = r"""
#include <sched.h>
int main(void)
{
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(3, &s);
    CPU_SET(70, &s);
    CPU_SET(5000, &s); /* past the set: ignored, as glibc's */
    CPU_CLR(4, &s);
    if (!CPU_ISSET(3, &s) || !CPU_ISSET(70, &s) || CPU_ISSET(4, &s) || CPU_ISSET(5000, &s))
        return 1;
    CPU_CLR(70, &s);
    return CPU_COUNT(&s) == 1 && CPU_ALLOC_SIZE(65) == 16 ? 0 : 2;
}
"""


def test_cpu_set_macros_work_as_glibcs(real_headers):
    """Our CPU_SET family (conditional expressions, not glibc's statement expressions)
    compiled by gcc against glibc's library gives glibc's answers."""
    ours = ["-nostdinc", "-isystem", str(FAKELIBC), "-include", str(FAKELIBC / PRELUDE)]
    exe = real_headers / "cpu_set"
    proc = _gcc(
        [*ours, "-D_GNU_SOURCE", "-o", str(exe)], CPU_SET_PROGRAM, real_headers, "cpu_set.c"
    )
    assert proc.returncode == 0, proc.stderr
    assert subprocess.run([str(exe)], check=False).returncode == 0


# type -> public fields whose offsets must match (none: size and alignment only)
LAYOUTS = {
    "size_t": "",
    "ptrdiff_t": "",
    "wchar_t": "",
    "max_align_t": "",
    "va_list": "",
    "FILE *": "",
    "fpos_t": "",
    "div_t": "quot rem",
    "ldiv_t": "quot rem",
    "lldiv_t": "quot rem",
    "imaxdiv_t": "quot rem",
    "jmp_buf": "",
    "sigjmp_buf": "",
    "fenv_t": "",
    "fexcept_t": "",
    "sig_atomic_t": "",
    "struct tm": "tm_sec tm_min tm_hour tm_mday tm_mon tm_year tm_wday tm_yday tm_isdst "
    "tm_gmtoff tm_zone",
    "struct timespec": "tv_sec tv_nsec",
    "struct timeval": "tv_sec tv_usec",
    "struct timezone": "tz_minuteswest tz_dsttime",
    "struct rlimit": "rlim_cur rlim_max",
    "struct rusage": "ru_utime ru_stime ru_maxrss ru_minflt ru_majflt ru_inblock ru_oublock "
    "ru_nvcsw ru_nivcsw",
    "omp_lock_t": "",
    "omp_nest_lock_t": "",
    "omp_sched_t": "",
    "omp_allocator_handle_t": "",
    "omp_alloctrait_t": "key value",
    "acc_device_t": "",
    "struct stat": "st_dev st_ino st_nlink st_mode st_uid st_gid st_rdev st_size st_blksize "
    "st_blocks st_atim st_mtim st_ctim",
    "struct flock": "l_type l_whence l_start l_len l_pid",
    "struct dirent": "d_ino d_off d_reclen d_type d_name",
    "struct option": "name has_arg flag val",
    "struct sched_param": "sched_priority",
    "struct tms": "tms_utime tms_stime tms_cutime tms_cstime",
    "struct utsname": "sysname nodename release version machine",
    "cpu_set_t": "",
    "pthread_t": "",
    "pthread_attr_t": "",
    "pthread_mutex_t": "",
    "pthread_mutexattr_t": "",
    "pthread_cond_t": "",
    "pthread_condattr_t": "",
    "pthread_rwlock_t": "",
    "pthread_barrier_t": "",
    "pthread_spinlock_t": "",
    "pthread_key_t": "",
    "pthread_once_t": "",
    "mode_t": "",
    "dev_t": "",
    "ino_t": "",
    "nlink_t": "",
    "blksize_t": "",
    "blkcnt_t": "",
}


def _layout(cmd_prefix: list[str], tmp_path: Path, name: str) -> dict[str, int]:
    # complex.h declares __builtin_complex, a keyword for gcc; no type below needs it.
    lines = [INCLUDE_ALL.replace("#include <complex.h>\n", "")]
    lines.append("#undef __builtin_offsetof")  # gcc's own, in both compilations
    for i, (t, fields) in enumerate(LAYOUTS.items()):
        # Each number becomes the size of a char array in gcc's assembly output
        # (offsets plus one, so that 0 is not an empty array).
        lines.append(f"char __accsat_size_{i}[sizeof({t})];")
        lines.append(f"char __accsat_align_{i}[_Alignof({t})];")
        for j, f in enumerate(fields.split()):
            lines.append(f"char __accsat_off_{i}_{j}[__builtin_offsetof({t}, {f}) + 1];")
    proc = _gcc([*cmd_prefix, "-S", "-fno-common", "-o", "-"], "\n".join(lines), tmp_path, name)
    assert proc.returncode == 0, proc.stderr
    sizes = dict(re.findall(r"\.size\s+(__accsat_\w+),\s*(\d+)", proc.stdout))
    return {k: int(v) for k, v in sizes.items()}


def _index(symbol: str) -> int:
    return int(re.search(r"_(\d+)", symbol).group(1))


def test_layouts_agree_with_glibc(real_headers):
    real = _layout(REAL_FLAGS, real_headers, "layout_real.c")
    ours = _layout(
        [
            "-nostdinc",
            "-isystem",
            str(FAKELIBC),
            "-include",
            str(FAKELIBC / PRELUDE),
            "-Wno-builtin-declaration-mismatch",
            *REAL_FLAGS,
        ],
        real_headers,
        "layout_ours.c",
    )
    assert len(real) == 2 * len(LAYOUTS) + sum(len(f.split()) for f in LAYOUTS.values())
    names = list(LAYOUTS)
    diffs = [
        f"{names[_index(k)]}: {k} ours={ours.get(k)} glibc={v}"
        for k, v in real.items()
        if ours.get(k) != v
    ]
    assert not diffs, "\n".join(diffs)


# Macros whose expansion is ours on purpose (pycparser could not read glibc's).
MACRO_EXCEPTIONS = {
    "assert": "glibc's uses a statement expression",
    "va_arg": "__builtin_va_arg takes a type",
    "offsetof": "__builtin_offsetof takes a type",
    "I": "glibc's is the imaginary constant 1.0iF",
    "_Complex_I": "glibc's is the imaginary constant 1.0iF",
    "timeradd": "same meaning, other text",
    "timersub": "same meaning, other text",
    "timercmp": "same meaning, other text",
    "timerclear": "same meaning, other text",
    "timerisset": "same meaning, other text",
    "math_errhandling": "glibc's depends on -ffast-math",
}
_DEFINE = re.compile(r"^\s*#\s*define\s+([A-Za-z_]\w*)(\(([^)]*)\))?", re.M)


def _our_macros() -> dict[str, int | None]:
    """Public macros of our headers: name -> number of parameters (None: object-like)."""
    macros: dict[str, int | None] = {}
    for h in HEADERS:
        for m in _DEFINE.finditer((FAKELIBC / h).read_text()):
            name = m.group(1)
            if name.startswith(("_ACCSAT", "__accsat")) or name in MACRO_EXCEPTIONS:
                continue
            macros[name] = None if m.group(2) is None else len(m.group(3).split(","))
    return macros


def _expansions(text: str) -> dict[str, str]:
    out = {}
    for line in text.splitlines():
        m = re.match(r'"@@(\w+)@@"(.*)', line)
        if m:
            out[m.group(1)] = "".join(m.group(2).split())
    return out


def _use(name: str, nparams: int | None) -> str:
    if nparams is None:
        return name
    return f"{name}({', '.join(f'__a{i}' for i in range(nparams))})"


def test_macros_agree_with_glibc(real_headers):
    macros = _our_macros()
    probe = INCLUDE_ALL + "".join(f'"@@{name}@@" {_use(name, n)}\n' for name, n in macros.items())
    path = real_headers / "macros.c"
    path.write_text(probe)
    ours = _expansions(preprocess(path, PreprocessOptions(flags=("-P",))))
    proc = _gcc(["-E", "-P", *REAL_FLAGS], probe, real_headers, "macros.c")
    assert proc.returncode == 0, proc.stderr
    real = _expansions(proc.stdout)
    assert set(ours) == set(real) == set(macros)

    checks, problems = [], []
    for name, n in macros.items():
        a, b = ours[name], real[name]
        if a == b:
            continue
        if a.startswith('"') and b.startswith('"'):
            if literal_eval(a) != literal_eval(b):  # "l""d" is "ld" in Python too
                problems.append(f"{name}: {a} != {b}")
        elif n is None:
            checks.append(
                f"_Static_assert(({a}) == ({name}) && __builtin_types_compatible_p("
                f'__typeof__({a}), __typeof__({name})), "{name}");'
            )
        else:
            problems.append(f"{name}(...): {a} != {b}")
    assert not problems, "\n".join(problems)
    proc = _gcc(
        ["-fsyntax-only", *REAL_FLAGS],
        INCLUDE_ALL + "\n".join(checks) + "\n",
        real_headers,
        "macro_values.c",
    )
    errors = [line for line in proc.stderr.splitlines() if ": error:" in line]
    assert proc.returncode == 0, "\n".join(errors[:20])


# ---------------------------------------------------------------------------
# (c) a file including any of our headers has its kernel rewritten

# names each header gives, used as a program would (checked against glibc by gcc too)
USES = {
    "sched.h": "struct sched_param sp = {0}; cpu_set_t cs;\n"
    "    r += sched_yield() + SCHED_FIFO + sp.sched_priority + (int)sizeof cs;",
    "pthread.h": "static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n"
    "    pthread_t t = pthread_self(); pthread_mutex_lock(&m); pthread_mutex_unlock(&m);\n"
    "    r += (int)t + PTHREAD_CREATE_JOINABLE;",
    "sys/stat.h": 'struct stat st; r += stat("x", &st) + S_ISDIR(st.st_mode) + (int)st.st_mtime;',
    "fcntl.h": 'r += open("x", O_RDONLY | O_CLOEXEC, S_IRUSR) + F_GETFL;',
    "getopt.h": 'static struct option opts[] = {{"help", no_argument, 0, 104}, {0, 0, 0, 0}};\n'
    '    r += getopt_long(argc, argv, "h", opts, 0) + optind;',
    "libgen.h": 'char p[] = "/a/b"; r += (int)*dirname(p) + (int)*basename(p);',
    "dirent.h": 'DIR *dir = opendir("."); struct dirent *e = dir ? readdir(dir) : 0;\n'
    "    r += e && e->d_type == DT_DIR;",
    "sys/mman.h": "void *p = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,"
    " -1, 0);\n    r += p == MAP_FAILED;",
    "sys/times.h": "struct tms t; r += (int)times(&t);",
    "sys/utsname.h": "struct utsname u; r += uname(&u) + SYS_NMLN;",
    "sys/wait.h": "int st = 0; r += waitpid(-1, &st, WNOHANG) + (WIFEXITED(st) ? WEXITSTATUS(st) : 0);",
}

KERNEL_FILE = """#include <{header}>
int uses(int argc, char **argv)
{{
    int r = argc + (argv != 0);
    {uses}
    return r;
}}
void k(int n, double *restrict a, const double *restrict b)
{{
#pragma acc parallel loop
    for (int i = 0; i < n; i++)
        a[i] = b[i] * 2.0 + b[i] * 2.0;
}}
"""


@pytest.mark.parametrize("header", HEADERS)
def test_file_including_header_has_its_kernel_rewritten(tmp_path, header):
    from accsat.options import Options
    from accsat.pipeline import rewrite_file

    path = tmp_path / "k.c"
    path.write_text(KERNEL_FILE.format(header=header, uses=USES.get(header, "")))
    if GCC is not None and header in USES:  # the uses are what a program may write
        proc = _gcc(["-fsyntax-only", *REAL_FLAGS], path.read_text(), tmp_path, "real.c")
        assert proc.returncode == 0, proc.stderr
    result = rewrite_file(path, Options(variant="cse", use_ilp=False))
    assert [k.status for k in result.kernels] == ["rewritten"], result.kernels


# ---------------------------------------------------------------------------
# (d) real programs: NPB-ACC (set NPB_ROOT to its sources, npbparams.h generated)

# The SGI IRIX timer (sys/syssgi.h, sys/immu.h): an alternative the Makefiles
# only mention in a comment.
NPB_NOT_BUILT = {"wtime_sgi64.c"}


def _npb_files() -> list[Path]:
    root = os.environ.get("NPB_ROOT")
    if not root:
        return []
    return sorted(p for p in Path(root).glob("*/*/*.c") if p.name not in NPB_NOT_BUILT)


_NPB = _npb_files()


@pytest.mark.npb
@pytest.mark.parametrize(
    "path",
    _NPB or [None],
    ids=[str(p.relative_to(os.environ["NPB_ROOT"])) for p in _NPB] or ["none"],
)
def test_npb_file_parses(path):
    if path is None:
        if not os.environ.get("NPB_ROOT"):
            pytest.skip("NPB_ROOT is not set")
        pytest.fail(f"no X/*/*.c files under NPB_ROOT={os.environ['NPB_ROOT']}")
    bench = path.parent.parent  # X/X/*.c, X/common/*.c, X/sys/*.c all use ../common
    if path.parent.name not in ("common", "sys"):
        assert (path.parent / "npbparams.h").exists(), (
            f"{path.parent}: npbparams.h is generated by the first `make` (see NOTES.md)"
        )
    ast = _parse(path, ("-I", str(bench / "common")))
    assert ast.ext
