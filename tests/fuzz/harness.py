"""Run generated programs original vs rewritten, compiled and interpreted.

``check_program(text, workdir)`` rewrites the program with every variant
(in-process, ``accsat.pipeline.rewrite_file``), compiles original and rewritten
with ``gcc -O1 -fopenacc|-fopenmp -foffload=disable -ffp-contract=off`` (the
compiles run concurrently), runs them (one OpenMP thread: kernels may carry
dependences from one iteration to the next, which is fine for accsat, which
rewrites one iteration), and compares the outputs: bit for bit for ``cse``,
``cse+bulk`` and ``--fp-exact``, within a tolerance for ``cse+sat``/``accsat``.
It also validates every rewritten kernel with the interpreter
(``accsat.verify.verify_file``), and reports a kernel accsat kept as written
because its printed C did not re-read as the extracted program (the round-trip
check of ``accsat.pipeline``). Each disagreement is a ``Finding``.
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


@dataclass
class Finding:
    kind: (
        str  # "compiled" | "interp" | "rewrite" | "compile-rewritten" | "run-rewritten" | "reread"
    )
    variant: str
    kernel: str  # "k3" or "" when unknown
    detail: str

    def __str__(self) -> str:
        return f"[{self.kind}] {self.variant} {self.kernel}: {self.detail}"


def variant_name(variant: str, fp_exact: bool) -> str:
    return variant + (" --fp-exact" if fp_exact else "")


def model_flag(text: str) -> str:
    return "-fopenmp" if "// model: omp" in text.split("\n", 1)[0] else "-fopenacc"


def _compile_cmd(src: Path, exe: Path, flag: str) -> list[str]:
    return [CC, *CFLAGS, flag, str(src), "-o", str(exe), "-lm"]


def compile_all(jobs: list[tuple[Path, Path]], flag: str) -> dict[Path, str | None]:
    """Compile concurrently; source -> None (ok) or the compiler's message."""
    procs = [
        (
            src,
            subprocess.Popen(
                _compile_cmd(src, exe, flag),
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
            preprocess=PreprocessOptions(),
            registers=REGISTERS,
        )
        try:
            result = rewrite_file(src, options)
        except Exception as exc:  # an accsat crash is a finding too
            findings.append(Finding("rewrite", name, "", f"{type(exc).__name__}: {exc}"))
            continue
        for k in result.kernels:
            if stats is not None:
                key = f"{name} {k.status}"
                stats[key] = stats.get(key, 0) + 1
                if k.reason.startswith("internal:"):  # kept as written by an accsat fault
                    stats[f"{name} internal"] = stats.get(f"{name} internal", 0) + 1
            if REREAD_MISMATCH in k.reason:  # printed C that is not the extracted program
                findings.append(Finding("reread", name, k.function.split("_")[0], k.reason))
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
                    elif v.verdict == "unsupported" and not v.message.startswith("every state"):
                        findings.append(
                            Finding("interp-unsupported", name, v.function.split("_")[0], v.message)
                        )
    if not compiled:
        return findings
    jobs = [(src, workdir / f"{stem}.x")]
    jobs += [(p, p.with_suffix(".x")) for p, _ in rewritten.values()]
    status = compile_all(jobs, flag)
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
