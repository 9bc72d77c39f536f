"""Run generated programs original vs rewritten, compiled and interpreted.

``check_program(text, workdir)`` rewrites the program with every variant
(in-process, ``accsat.pipeline.rewrite_file``, given the program's own flags as
``accsat rewrite -funsigned-char -fwrapv`` would be: its header's ``// flags:``
line), compiles original and rewritten with ``gcc -O1 -fopenacc|-fopenmp
-foffload=disable -ffp-contract=off`` and those flags (the compiles run
concurrently), runs them (one OpenMP thread: kernels may carry
dependences from one iteration to the next, which is fine for accsat, which
rewrites one iteration), and compares the outputs: bit for bit for ``cse``,
``cse+bulk`` and ``--fp-exact``, within a tolerance for ``cse+sat``/``accsat``.
It also validates every rewritten kernel with the interpreter
(``accsat.verify.verify_file``), and reports a kernel accsat kept as written
with an ``internal:`` reason: its printed C did not re-read as the extracted
program (``reread``, the round-trip check of ``accsat.pipeline``), the compiler's
type check disagreed with accsat's types (``typecheck``, verify/typecheck.py, on
by default) or could not run (``typecheck-unavailable``). Each disagreement is a
``Finding``; ``WRONG`` are the kinds that mean a wrong program, ``KEPT`` a kernel
kept as written for accsat's fault.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

from difftest import compare_outputs  # noqa: E402

from accsat.frontend.preprocess import PreprocessOptions  # noqa: E402
from accsat.options import EXACT_VARIANTS as EXACT  # noqa: E402
from accsat.options import VARIANTS as ALL_VARIANTS  # noqa: E402
from accsat.options import Limits, Options  # noqa: E402
from accsat.pipeline import rewrite_file  # noqa: E402
from accsat.report import LOOP_BODY  # noqa: E402
from accsat.verify import verify_file  # noqa: E402

CC = os.environ.get("ACCSAT_TEST_CC") or shutil.which("gcc") or "gcc"
CFLAGS = ("-O1", "-foffload=disable", "-ffp-contract=off", "-w")
# (variant, --fp-exact): every variant as it is, and those whose rules can change a
# float result once more with --fp-exact
VARIANTS: tuple[tuple[str, bool], ...] = tuple((name, False) for name in ALL_VARIANTS)
FP_EXACT_VARIANTS: tuple[tuple[str, bool], ...] = tuple(
    (name, True) for name, v in ALL_VARIANTS.items() if v.fp_changing
)
DOUBLE_TOL = (1e-9, 1e-12)
# saturation limits for fuzzing: runs stay short (the paper's 10 iterations once blew
# up egglog's memory, tests/fuzz/regressions/saturation_memory_blowup.c, now fixed and
# guarded by that regression test under the default limits)
FUZZ_LIMITS = Limits(nodes=4000, iterations=6, seconds=2.0)
# the register budget every rewrite is made under (benchmarks/fuzz.py --registers)
REGISTERS: str | int = "any"
FLOAT_TOL = (1e-5, 1e-6)
# the reason of a kernel kept as written because its printed C does not re-read as the
# program the extraction chose (pipeline.reread_check): a bug of accsat's, a finding
REREAD_MISMATCH = "does not re-read as the extracted program"
REREAD_RAISED = "printed C is not the extracted program"  # the error under reread_strict
# the kinds of finding that are a wrong rewritten program (or a crash); the others
# ("reread", "typecheck", "typecheck-unavailable", "internal") a kernel kept as written
WRONG = ("compiled", "interp", "rewrite", "compile-rewritten", "run-rewritten", "memory", "killed")
# the kinds of a kernel accsat kept as written for a fault of its own (its other "internal:"
# reasons are refusals of a placement it cannot print: counted, "<variant> internal")
KEPT = ("reread", "typecheck")
_FLAGS_LINE = re.compile(r"^// flags: (.*)$", re.M)
# what the interpreter does not model yet (verify/interp.py), though accsat rewrites it: an
# "unsupported" verdict saying so is counted ("<variant> interp gap"), not a finding (the
# compiled check still covers those kernels): bit-field members (forms.py names them bfN).
# (A struct passed by value to a helper, callees.py's struct k_cv, was one until the
# interpreter copied struct arguments and results.)
INTERP_GAPS = (re.compile(r"^original: member 'bf\d+'$"),)


@dataclass
class Finding:
    kind: str  # one of WRONG or KEPT, "interp-unsupported" or "typecheck-unavailable"
    variant: str
    kernel: str  # "k3" or "" when unknown
    detail: str

    def __str__(self) -> str:
        return f"[{self.kind}] {self.variant} {self.kernel}: {self.detail}"


def variant_name(variant: str, fp_exact: bool) -> str:
    return variant + (" --fp-exact" if fp_exact else "")


def model_flag(text: str) -> str:
    return "-fopenmp" if "// model: omp" in text.split("\n", 1)[0] else "-fopenacc"


def program_flags(text: str) -> tuple[str, ...]:
    """The flags a generated program is built with, beyond the harness' own (its header's
    ``// flags: -funsigned-char -fwrapv`` line)."""
    head = text[: text.find("\n#")] if "\n#" in text else text
    m = _FLAGS_LINE.search(head)
    return tuple(m.group(1).split()) if m else ()


def _compile_cmd(src: Path, exe: Path, flag: str, flags: tuple[str, ...] = ()) -> list[str]:
    return [CC, *CFLAGS, *flags, flag, str(src), "-o", str(exe), "-lm"]


def compile_all(
    jobs: list[tuple[Path, Path]], flag: str, flags: tuple[str, ...] = ()
) -> dict[Path, str | None]:
    """Compile concurrently (with the program's ``flags``); source -> None (ok) or the
    compiler's message."""
    procs = [
        (
            src,
            subprocess.Popen(
                _compile_cmd(src, exe, flag, flags),
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            ),
        )
        for src, exe in jobs
    ]
    out: dict[Path, str | None] = {}
    for src, p in procs:
        msg, _ = p.communicate(timeout=300)
        out[src] = None if p.returncode == 0 else msg[-3000:]
    return out


def run(exe: Path) -> tuple[int, bytes]:
    env = dict(os.environ, OMP_NUM_THREADS="1")
    try:
        p = subprocess.run([str(exe)], capture_output=True, timeout=60, env=env)
    except subprocess.TimeoutExpired:
        return -1, b"timeout"
    return p.returncode, p.stdout


def kept_for_a_fault(reason: str, typecheck: dict | None) -> str:
    """The finding kind of a kernel accsat kept as written (or whose types went
    unchecked) for a fault of its own; "" for none."""
    if REREAD_MISMATCH in reason:  # printed C that is not the extracted program
        return "reread"
    if reason.startswith("internal:") and typecheck and typecheck["result"] == "disagrees":
        return "typecheck"
    if typecheck and typecheck["result"].startswith("unavailable"):  # nothing was checked
        return "typecheck-unavailable"
    return ""


def _count(stats: dict, k, name: str) -> None:
    """Per variant: kernels rewritten and unchanged (function units also by their kind), kept for an internal fault, the
    compiler's type check verdicts, and the reasons of unchanged kernels (their first
    words: the forms accsat refuses show there)."""
    keys = [f"{name} {k.status}"]
    if k.kind != LOOP_BODY:  # a function unit (a routine, a callee): counted apart too
        keys.append(f"{name} {k.kind} {k.status}")
    if k.reason.startswith("internal:"):  # kept as written by an accsat fault
        keys.append(f"{name} internal")
        if k.kind != LOOP_BODY:
            keys.append(f"{name} {k.kind} internal")
    if k.typecheck:
        keys.append(f"{name} typecheck {k.typecheck['result'].split(':')[0]}")
    if k.status != "rewritten" and k.reason:
        keys.append(f"reason: {_reason_key(k.reason)}")
    for key in keys:
        stats[key] = stats.get(key, 0) + 1


def _reason_key(reason: str) -> str:
    """A reason without what names one kernel's expressions (quotes, numbers)."""
    short = re.sub(r"'[^']*'", "'...'", reason)
    return re.sub(r"\d+", "N", short)[:80]


def has_float(text: str) -> bool:
    return re.search(r"\bfloat\b", text) is not None


def first_kernel(problems: list[str]) -> str:
    for p in problems:
        m = re.search(r"'(k\d+)_", p)
        if m:
            return m.group(1)
    return ""


def check_program(
    text: str,
    workdir: Path,
    variants=VARIANTS,
    interp: bool = True,
    compiled: bool = True,
    trials: int = 8,
    use_ilp: bool = True,
    stem: str = "prog",
    extract_seconds: float = 5.0,
    limits: Limits = FUZZ_LIMITS,
    stats: dict | None = None,
) -> list[Finding]:
    """Every disagreement between the original program and its rewrites.

    ``stats``, when given, counts per variant the kernels accsat rewrote
    (``"<variant> rewritten"``) and left unchanged, and the interpreter's verdicts.
    """
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    src = workdir / f"{stem}.c"
    src.write_text(text)
    flag = model_flag(text)
    flags = program_flags(text)
    findings: list[Finding] = []
    rewritten: dict[str, tuple[Path, Options]] = {}
    for variant, fp_exact in variants:
        name = variant_name(variant, fp_exact)
        options = Options(
            variant=variant,
            fp_exact=fp_exact,
            use_ilp=use_ilp,
            extract_seconds=extract_seconds,
            limits=limits,
            preprocess=PreprocessOptions(flags=flags),
            registers=REGISTERS,
        )
        try:
            result = rewrite_file(src, options)
        except Exception as exc:  # an accsat crash is a finding too
            # (ACCSAT_REREAD_STRICT, the tests' setting, makes a re-read mismatch one)
            kind = "reread" if REREAD_RAISED in str(exc) else "rewrite"
            findings.append(Finding(kind, name, "", f"{type(exc).__name__}: {exc}"))
            continue
        for k in result.kernels:
            if stats is not None:
                _count(stats, k, name)
            kept = kept_for_a_fault(k.reason, k.typecheck)
            if kept:
                findings.append(Finding(kept, name, k.function.split("_")[0], k.reason))
        out = workdir / f"{stem}.{variant.replace('+', '_')}{'_fpx' if fp_exact else ''}.c"
        out.write_text(result.text)
        rewritten[name] = (out, options)
        if interp:
            try:
                ver = verify_file(src, result.text, options, trials=trials, original_text=text)
            except Exception as exc:
                findings.append(
                    Finding("interp", name, "", f"verify_file: {type(exc).__name__}: {exc}")
                )
            else:
                for v in ver.verdicts:
                    if stats is not None:
                        key = f"{name} interp {v.verdict}"
                        stats[key] = stats.get(key, 0) + 1
                    if v.verdict == "fail":
                        findings.append(
                            Finding(
                                "interp",
                                name,
                                v.function.split("_")[0],
                                f"line {v.line}: {v.message}",
                            )
                        )
                    elif v.verdict == "unsupported" and any(
                        gap.match(v.message) for gap in INTERP_GAPS
                    ):
                        if stats is not None:
                            key = f"{name} interp gap"
                            stats[key] = stats.get(key, 0) + 1
                    elif v.verdict == "unsupported" and not v.message.startswith("every state"):
                        findings.append(
                            Finding("interp-unsupported", name, v.function.split("_")[0], v.message)
                        )
    if not compiled:
        return findings
    jobs = [(src, workdir / f"{stem}.x")]
    jobs += [(p, p.with_suffix(".x")) for p, _ in rewritten.values()]
    status = compile_all(jobs, flag, flags)
    if status[src] is not None:
        raise RuntimeError(f"the generated program does not compile:\n{status[src]}")
    rc, expected = run(workdir / f"{stem}.x")
    if rc != 0:
        raise RuntimeError(f"the generated program fails (rc={rc})")
    tol = FLOAT_TOL if has_float(text) else DOUBLE_TOL
    for name, (path, _options) in rewritten.items():
        if status[path] is not None:
            findings.append(Finding("compile-rewritten", name, "", status[path]))
            continue
        rc, got = run(path.with_suffix(".x"))
        if rc != 0:
            findings.append(Finding("run-rewritten", name, "", f"exit status {rc}"))
            continue
        exact = name in EXACT or name.endswith("--fp-exact")
        problems = compare_outputs(expected, got, *((0.0, 0.0) if exact else tol))
        if problems:
            findings.append(
                Finding("compiled", name, first_kernel(problems), "; ".join(problems[:3]))
            )
    return findings
