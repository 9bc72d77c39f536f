"""Helpers for accsat's differential tests (no tests in this module).

The corpus is ``tests/kernels/*.c``: small, deterministic, self-contained C
programs, each printing every output bit-exactly (doubles and floats with
``%a``, integers in decimal).  The differential tests compile and run a kernel
before and after ``accsat rewrite`` and compare the two standard outputs.

Kernel header lines (within the first 10 lines of the file):

``// model: acc`` or ``// model: omp``
    which directive model the file uses: it selects ``-fopenacc`` or
    ``-fopenmp``.  Without it the model is guessed from the pragmas.
``// tolerance: rel=1e-5 abs=1e-6``  (optional)
    the numeric tolerance for the variants that may reassociate or contract
    floating-point arithmetic (``cse+sat``, ``accsat``).  Kernels whose outputs
    are floats need it: float reassociation is not accurate to 1e-9.  Default:
    ``rel=1e-9 abs=1e-12``.

Everything here needs only gcc (and pycparser for :func:`count_loads`).
"""

from __future__ import annotations

import functools
import math
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KERNEL_DIR = Path(__file__).resolve().parent / "kernels"
KERNELS: list[Path] = sorted(KERNEL_DIR.glob("*.c"))

CC = os.environ.get("ACCSAT_TEST_CC") or shutil.which("gcc") or "gcc"
# -foffload=disable: the nvptx offload compiler is installed on these machines;
# without the flag gcc would also build (slowly) and try to run device code.
BASE_CFLAGS = ("-foffload=disable", "-ffp-contract=off")
MODEL_FLAGS = {"acc": "-fopenacc", "omp": "-fopenmp"}
COMPILE_TIMEOUT = 180
RUN_TIMEOUT = 30
# OpenMP kernels are race-free and their reductions exact, so any thread count
# gives the same bits; a fixed, small count keeps runs fast and repeatable.
OMP_THREADS = os.environ.get("ACCSAT_TEST_OMP_THREADS", "2")

DEFAULT_REL_TOL = 1e-9
DEFAULT_ABS_TOL = 1e-12

# EXACT_VARIANTS: the variants whose output must be byte-identical to the original's
from accsat.options import EXACT_VARIANTS  # noqa: E402,F401


class CompileError(RuntimeError):
    """gcc failed; the message holds the command and the compiler output."""


class RunError(RuntimeError):
    """The compiled program failed or timed out."""


# --------------------------------------------------------------------------
# kernel metadata


def _header(path: Path, nlines: int = 10) -> list[str]:
    with open(path, encoding="utf-8") as fh:
        return [fh.readline() for _ in range(nlines)]


_MODEL_RE = re.compile(r"^\s*//\s*model:\s*(acc|omp)\b")
_TOL_RE = re.compile(r"^\s*//\s*tolerance:(.*)$")


def model_of(path: Path | str) -> str:
    """``"acc"`` or ``"omp"``: from the ``// model:`` header line, else from the pragmas."""
    path = Path(path)
    for line in _header(path):
        m = _MODEL_RE.match(line)
        if m:
            return m.group(1)
    text = path.read_text(encoding="utf-8")
    has_acc = re.search(r"^\s*#\s*pragma\s+acc\b", text, re.M) is not None
    has_omp = re.search(r"^\s*#\s*pragma\s+omp\b", text, re.M) is not None
    if has_acc and has_omp:
        raise ValueError(f"{path}: both acc and omp pragmas and no '// model:' line")
    if has_acc:
        return "acc"
    if has_omp:
        return "omp"
    raise ValueError(f"{path}: no '// model:' line and no acc/omp pragma")


def tolerance_of(path: Path | str) -> tuple[float, float]:
    """(rel_tol, abs_tol) for the non-exact variants, from ``// tolerance:`` or the defaults."""
    rel, abs_ = DEFAULT_REL_TOL, DEFAULT_ABS_TOL
    for line in _header(Path(path)):
        m = _TOL_RE.match(line)
        if m:
            for key, val in re.findall(r"(rel|abs)\s*=\s*([0-9.eE+-]+)", m.group(1)):
                if key == "rel":
                    rel = float(val)
                else:
                    abs_ = float(val)
    return rel, abs_


def kernel_id(path: Path) -> str:
    return path.stem


# --------------------------------------------------------------------------
# compile and run


def compile_cmd(
    src: Path, exe: Path, model: str, opt: str = "-O2", extra_cflags: Sequence[str] = ()
) -> list[str]:
    if model not in MODEL_FLAGS:
        raise ValueError(f"unknown model {model!r} (want 'acc' or 'omp')")
    return [
        CC,
        opt,
        MODEL_FLAGS[model],
        *BASE_CFLAGS,
        *extra_cflags,
        str(src),
        "-o",
        str(exe),
        "-lm",
    ]


def compile_kernel(
    src: Path,
    workdir: Path,
    model: str | None = None,
    opt: str = "-O2",
    extra_cflags: Sequence[str] = (),
    tag: str = "",
) -> Path:
    """Compile ``src`` into ``workdir``; return the executable. Raises CompileError."""
    src = Path(src)
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    model = model or model_of(src)
    exe = workdir / f"{src.stem}{tag}{opt.replace('-', '_')}.x"
    cmd = compile_cmd(src, exe, model, opt, extra_cflags)
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=COMPILE_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise CompileError(f"compile timed out after {COMPILE_TIMEOUT}s: {' '.join(cmd)}") from None
    if proc.returncode != 0:
        raise CompileError(
            f"compile failed (rc={proc.returncode}): {' '.join(cmd)}\n{proc.stdout}{proc.stderr}"
        )
    return exe


def run_exe(exe: Path, timeout: float = RUN_TIMEOUT, threads: str | int | None = None) -> bytes:
    """Run a compiled kernel (OMP_NUM_THREADS=threads, default OMP_THREADS); return stdout.

    Raises RunError.
    """
    env = dict(os.environ)
    env["OMP_NUM_THREADS"] = str(threads or OMP_THREADS)
    try:
        proc = subprocess.run([str(exe)], capture_output=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        raise RunError(f"{exe} timed out after {timeout}s") from None
    if proc.returncode != 0:
        raise RunError(
            f"{exe} exited with {proc.returncode}\nstderr:\n"
            f"{proc.stderr.decode(errors='replace')[-4000:]}"
        )
    return proc.stdout


def compile_run(
    src: Path,
    workdir: Path,
    model: str | None = None,
    opt: str = "-O2",
    extra_cflags: Sequence[str] = (),
    tag: str = "",
    timeout: float = RUN_TIMEOUT,
) -> bytes:
    """Compile ``src`` with the corpus flags (model from the header when None), run it, return stdout.

    ``gcc OPT -fopenacc|-fopenmp -foffload=disable -ffp-contract=off SRC -lm``; raises
    CompileError (with the compiler output) or RunError.
    """
    exe = compile_kernel(src, workdir, model, opt, extra_cflags, tag)
    return run_exe(exe, timeout)


# --------------------------------------------------------------------------
# the optimizer


def accsat_import_error() -> str | None:
    """None when ``accsat.cli`` imports, else the reason it does not."""
    if str(ROOT) not in sys.path:  # the source tree, when accsat is not pip-installed
        sys.path.append(str(ROOT))
    try:
        import accsat.cli  # noqa: F401
    except Exception as exc:  # ImportError, or an error raised while importing
        return f"accsat.cli cannot be imported: {type(exc).__name__}: {exc}"
    return None


def rewrite(
    src: Path, out: Path, variant: str, extra_args: Sequence[str] = (), timeout: float = 600
) -> subprocess.CompletedProcess:
    """``python -m accsat.cli rewrite SRC -o OUT --variant VARIANT *extra_args`` (not checked)."""
    cmd = [
        sys.executable,
        "-m",
        "accsat.cli",
        "rewrite",
        str(src),
        "-o",
        str(out),
        "--variant",
        variant,
        *extra_args,
    ]
    # cwd=ROOT: `python -m` puts the source tree first on sys.path, so this runs
    # the checkout's accsat whether or not it is pip-installed
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=ROOT)


# --------------------------------------------------------------------------
# output comparison

_HEXFLOAT_RE = re.compile(r"^[+-]?0x[0-9a-f]+(\.[0-9a-f]*)?p[+-]?[0-9]+$", re.I)
_SPECIAL = {
    "nan": math.nan,
    "-nan": math.nan,
    "+nan": math.nan,
    "inf": math.inf,
    "+inf": math.inf,
    "-inf": -math.inf,
}


def _as_float(tok: str) -> float | None:
    low = tok.lower()
    if low in _SPECIAL:
        return _SPECIAL[low]
    if _HEXFLOAT_RE.match(tok):
        return float.fromhex(tok)
    return None


def _close(a: float, b: float, rel: float, abs_: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return math.isclose(a, b, rel_tol=rel, abs_tol=abs_)


def compare_outputs(
    expected: bytes | str,
    actual: bytes | str,
    rel_tol: float = DEFAULT_REL_TOL,
    abs_tol: float = DEFAULT_ABS_TOL,
    max_report: int = 10,
) -> list[str]:
    """Token-by-token comparison; returns mismatch descriptions (empty: outputs agree).

    Hex floats (``%a``) and nan/inf compare within ``rel_tol``/``abs_tol``
    (both 0: every token must be identical, so this also explains why two
    outputs are not byte-identical); every other token (integers, names) must
    be identical, and so must the number of lines and of tokens per line.
    """
    if isinstance(expected, bytes):
        expected = expected.decode("ascii", errors="replace")
    if isinstance(actual, bytes):
        actual = actual.decode("ascii", errors="replace")
    el, al = expected.splitlines(), actual.splitlines()
    problems: list[str] = []
    if len(el) != len(al):
        problems.append(f"line count differs: expected {len(el)}, got {len(al)}")
    for n, (le, la) in enumerate(zip(el, al, strict=False), 1):
        if le == la:
            continue
        te, ta = le.split(), la.split()
        if len(te) != len(ta):
            problems.append(f"line {n}: {le!r} != {la!r}")
        else:
            for x, y in zip(te, ta, strict=True):
                if x == y:
                    continue
                fx, fy = _as_float(x), _as_float(y)
                exact = rel_tol == 0 and abs_tol == 0  # tells -0 from 0 and nan spellings apart
                if exact or fx is None or fy is None or not _close(fx, fy, rel_tol, abs_tol):
                    detail = ""
                    if fx is not None and fy is not None and fx not in (0.0,) and math.isfinite(fx):
                        detail = f" (rel diff {abs(fx - fy) / abs(fx):.3g})"
                    problems.append(f"line {n}: {le!r} != {la!r}{detail}")
                    break
        if len(problems) >= max_report:
            problems.append("...")
            break
    return problems


# --------------------------------------------------------------------------
# load counting

_TYPEDEF_PRELUDE = {
    "size_t": "typedef unsigned long size_t;",
    "ssize_t": "typedef long ssize_t;",
    "ptrdiff_t": "typedef long ptrdiff_t;",
    "int8_t": "typedef signed char int8_t;",
    "uint8_t": "typedef unsigned char uint8_t;",
    "int16_t": "typedef short int16_t;",
    "uint16_t": "typedef unsigned short uint16_t;",
    "int32_t": "typedef int int32_t;",
    "uint32_t": "typedef unsigned int uint32_t;",
    "int64_t": "typedef long int64_t;",
    "uint64_t": "typedef unsigned long uint64_t;",
    "intptr_t": "typedef long intptr_t;",
    "uintptr_t": "typedef unsigned long uintptr_t;",
    "FILE": "typedef struct _FILE FILE;",
}
_CPP_DEFS = (
    "-D__restrict=restrict",
    "-D__restrict__=restrict",
    "-D__inline=inline",
    "-D__inline__=inline",
    "-D__extension__=",
    "-D__attribute__(x)=",
    "-Dbool=_Bool",
    "-Dtrue=1",
    "-Dfalse=0",
)


def _preprocess_for_count(c_text: str) -> str:
    """Expand the file's own macros (e.g. I3D(...)) without system headers."""
    body = re.sub(r"^[ \t]*#[ \t]*include\b.*$", "", c_text, flags=re.M)
    cmd = [CC, "-E", "-P", "-x", "c", "-fopenmp", "-fopenacc", *_CPP_DEFS, "-"]
    proc = subprocess.run(cmd, input=body, capture_output=True, text=True, timeout=60)
    if proc.returncode != 0:
        raise ValueError(f"count_loads: preprocessing failed:\n{proc.stderr}")
    text = proc.stdout
    prelude = [
        decl
        for name, decl in _TYPEDEF_PRELUDE.items()
        if re.search(rf"\b{name}\b", text) and not re.search(rf"typedef[^;]*\b{name}\s*;", text)
    ]
    return "\n".join(prelude) + "\n" + text


def count_loads(c_text: str) -> int:
    """A rough, static count of memory loads in the function bodies of a C file.

    Approximation (applied identically to the original and the rewritten file,
    so the *difference* is what matters):

    * the file's own macros are expanded (``#include`` lines are dropped, so
      system headers contribute nothing);
    * each syntactic read of a memory lvalue counts once: an array element
      ``a[i]`` / ``u[m][k][j][i]`` (a whole subscript chain into a
      multidimensional array is one load), ``*p``, ``*(p+i)``, ``s->m``,
      ``s.m`` (a struct member counts even if the struct is a local a compiler
      would keep in registers);
    * pointers fetched on the way count too, using the declared types seen in
      the file: ``p[i][j]`` with ``double **p`` counts 2, ``s->a[i]`` with a
      pointer member ``a`` counts 2 (1 if ``a`` is an array member);
      names whose declaration is not found are treated as one load per chain;
    * plain identifiers (scalars, pointer variables) are registers: 0;
    * an assignment target ``x[i] = ...`` is a store (0), but compound
      assignments ``x[i] += ...`` and ``++``/``--`` on memory count the load;
      ``&x[i]``, ``sizeof`` and an array that decays to a pointer count 0;
    * no trip counts: a load inside a loop counts once, whether it is in the
      rewritten body, hoisted before the loop, or in an untouched function.
    """
    from pycparser import c_ast, c_parser

    text = _preprocess_for_count(c_text)
    try:
        ast = c_parser.CParser().parse(text, "<count_loads>")
    except Exception as exc:  # pycparser.plyparser.ParseError and friends
        raise ValueError(f"count_loads: cannot parse: {exc}") from exc
    return _LoadCounter(c_ast).count_file(ast)


class _LoadCounter:
    READ, ADDR = 0, 1

    def __init__(self, c_ast):
        self.c = c_ast
        self.typedefs: dict[str, list[str]] = {}
        self.members: dict[str, list[str]] = {}
        self.globals: dict[str, list[str]] = {}
        self.names: dict[str, list[str]] = {}

    # ---- declared shapes: a list of 'ptr' / 'arr' from the outside in
    def _kinds(self, t) -> list[str]:
        c = self.c
        out: list[str] = []
        while True:
            if isinstance(t, c.PtrDecl):
                out.append("ptr")
                t = t.type
            elif isinstance(t, c.ArrayDecl):
                out.append("arr")
                t = t.type
            elif isinstance(t, c.TypeDecl):
                inner = t.type
                if isinstance(inner, c.IdentifierType) and len(inner.names) == 1:
                    out.extend(self.typedefs.get(inner.names[0], []))
                return out
            else:  # FuncDecl, Struct, ...
                return out

    def _collect_members(self, node) -> None:
        c = self.c
        for n in _walk(node, c):
            if isinstance(n, (c.Struct, c.Union)) and n.decls:
                for d in n.decls:
                    if isinstance(d, c.Decl) and d.name and d.name not in self.members:
                        self.members[d.name] = self._kinds(d.type)

    def count_file(self, ast) -> int:
        c = self.c
        for ext in ast.ext:
            if isinstance(ext, c.Typedef):
                self.typedefs[ext.name] = self._kinds(ext.type)
            elif isinstance(ext, c.Decl) and ext.name and not isinstance(ext.type, c.FuncDecl):
                self.globals[ext.name] = self._kinds(ext.type)
        self._collect_members(ast)
        total = 0
        for ext in ast.ext:
            if isinstance(ext, c.FuncDef):
                self.names = dict(self.globals)
                params = ext.decl.type.args.params if ext.decl.type.args else []
                for p in params:
                    if isinstance(p, c.Decl) and p.name:
                        k = self._kinds(p.type)
                        if k and k[0] == "arr":  # array parameters decay to pointers
                            k = ["ptr", *k[1:]]
                        self.names[p.name] = k
                for n in _walk(ext.body, c):
                    if isinstance(n, c.Decl) and n.name:
                        self.names[n.name] = self._kinds(n.type)
                total += self.visit(ext.body, self.READ)
        return total

    # ---- the count
    def _chain(self, node):
        """Peel an ArrayRef chain: (base expression, [subscripts], depth)."""
        subs = []
        while isinstance(node, self.c.ArrayRef):
            subs.append(node.subscript)
            node = node.name
        return node, subs

    def _base_kinds(self, base) -> list[str] | None:
        c = self.c
        if isinstance(base, c.ID):
            return self.names.get(base.name)
        if isinstance(base, c.StructRef):
            return self.members.get(base.field.name)
        return None

    def visit(self, node, ctx) -> int:
        c = self.c
        if node is None:
            return 0
        if isinstance(node, c.ArrayRef):
            base, subs = self._chain(node)
            depth = len(subs)
            n = sum(self.visit(s, self.READ) for s in subs)
            kinds = self._base_kinds(base)
            if isinstance(base, c.StructRef):
                # the member itself: a pointer member is fetched, an array member is not
                n += self._structref(base, fetch=kinds is None or (kinds[:1] == ["ptr"]))
            elif isinstance(base, c.ID):
                pass  # a pointer or array variable: register / address
            else:
                n += self.visit(base, self.READ)  # (p + 1)[i], (*q)[i], f()[i]: compute the pointer
            if kinds is not None:
                n += sum(1 for lvl in range(1, min(depth, len(kinds))) if kinds[lvl] == "ptr")
                decays = len(kinds) > depth and kinds[depth] == "arr"
            else:
                decays = False
            if ctx == self.READ and not decays:
                n += 1
            return n
        if isinstance(node, c.StructRef):
            return self._structref(node, fetch=ctx == self.READ)
        if isinstance(node, c.UnaryOp):
            op = node.op
            if op == "sizeof":
                return 0
            if op == "&":
                return self.visit(node.expr, self.ADDR)
            if op == "*":
                return (1 if ctx == self.READ else 0) + self.visit(node.expr, self.READ)
            return self.visit(node.expr, self.READ)  # ++ -- p++ p-- - ! ~ +
        if isinstance(node, c.Assignment):
            lctx = self.ADDR if node.op == "=" else self.READ
            return self.visit(node.lvalue, lctx) + self.visit(node.rvalue, self.READ)
        if isinstance(node, c.FuncCall):
            n = 0 if isinstance(node.name, c.ID) else self.visit(node.name, self.READ)
            return n + self.visit(node.args, self.READ)
        if isinstance(node, (c.Typename, c.TypeDecl, c.PtrDecl, c.ArrayDecl, c.FuncDecl, c.Pragma)):
            return 0
        if isinstance(node, c.Cast):
            return self.visit(node.expr, self.READ)
        if isinstance(node, c.Decl):
            return self.visit(node.init, self.READ)
        return sum(self.visit(ch, self.READ) for _, ch in node.children())

    def _structref(self, node, fetch: bool) -> int:
        kinds = self.members.get(node.field.name)
        n = 1 if fetch and not (kinds and kinds[0] == "arr") else 0
        if node.type == "->":
            return n + self.visit(node.name, self.READ)  # the pointer value
        return n + self.visit(node.name, self.ADDR)  # the struct object


def _walk(node, c):
    stack = [node]
    while stack:
        n = stack.pop()
        if n is None:
            continue
        yield n
        stack.extend(ch for _, ch in n.children())


@functools.cache
def count_loads_in(path: Path) -> int:
    """count_loads of a file (cached)."""
    return count_loads(Path(path).read_text(encoding="utf-8"))


def prints_the_same(
    workdir: Path, original: str, rewritten: str, flags: Sequence[str], threads: int | None = None
) -> None:
    """Build ``original`` and ``rewritten`` with ``gcc FLAGS`` and assert that they print
    the same (``threads``: OMP_NUM_THREADS, for programs whose output depends on it)."""
    out = []
    for name, text in (("orig.c", original), ("new.c", rewritten)):
        src, exe = workdir / name, workdir / name.replace(".c", ".x")
        src.write_text(text)
        subprocess.run(["gcc", *flags, str(src), "-o", str(exe), "-lm"], check=True)
        out.append(run_exe(exe, threads=threads))
    assert out[0] == out[1], f"gcc {' '.join(flags)}: the rewrite prints otherwise"
