"""The fuzzer in CI: generated kernels, every variant, compiled and interpreted.

* ``test_generated_kernels_N`` (three shards): hypothesis draws programs of a few generated
  kernels (tests/fuzz/gen.py); each is rewritten with cse, cse+bulk, cse+sat and
  accsat, compiled and run against the original (gcc -O1 -ffp-contract=off) and
  validated by the interpreter; any disagreement fails, shrunk by hypothesis.
  ``ACCSAT_FUZZ_EXAMPLES`` sets the number of programs (default 60, about 220
  kernels, so about 880 kernel x variant checks); ``benchmarks/fuzz.py`` runs thousands.
* ``test_regression``: every program saved in tests/fuzz/regressions/. A file
  whose header says ``// status: open`` reproduces an accsat bug not fixed yet:
  it is expected to fail (strictly: once fixed, change its status line). A file
  with a ``// memory: MB`` line checks instead that ``accsat rewrite --variant V``
  (``// variant: V``) finishes within that much address space.
* the generator's own guarantees: programs compile, run, and the interpreter
  finds no undefined behaviour in the first trial.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from difftest import accsat_import_error

_SKIP = accsat_import_error()
pytestmark = pytest.mark.skipif(_SKIP is not None, reason=_SKIP or "")

from fuzz.gen import program_from_seeds, program_strategy  # noqa: E402
from fuzz.harness import VARIANTS, check_program, compile_all, model_flag, run  # noqa: E402
from hypothesis import HealthCheck, given, seed, settings  # noqa: E402

REGRESSIONS = sorted((Path(__file__).parent / "fuzz" / "regressions").glob("*.c"))
EXAMPLES = int(os.environ.get("ACCSAT_FUZZ_EXAMPLES", "60"))


# Three shards of the same size with fixed seeds: the same programs on every run, and
# pytest-xdist can spread them over the cores (one 60-program test held a worker for a minute).
SHARDS = 3


def _shard(n: int):
    @seed(20261123 + n)
    @settings(max_examples=-(-EXAMPLES // SHARDS), deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                     HealthCheck.function_scoped_fixture])
    @given(program_strategy(max_kernels=6))
    def test(tmp_path, text):
        findings = check_program(text, tmp_path / "p", VARIANTS, trials=8, extract_seconds=2.0)
        assert not findings, "\n".join(str(f) for f in findings) + "\n\n" + text

    test.__name__ = f"test_generated_kernels_{n}"
    return test


test_generated_kernels_0 = _shard(0)
test_generated_kernels_1 = _shard(1)
test_generated_kernels_2 = _shard(2)


def _status(path: Path) -> str:
    m = re.search(r"^// status: (\w+)", path.read_text(), re.M)
    return m.group(1) if m else "fixed"


def _header(path: Path, key: str, default: str = "") -> str:
    m = re.search(rf"^// {key}: (.*)$", path.read_text(), re.M)
    return m.group(1).strip() if m else default


def _rewrite_within_memory(path: Path, variant: str, megabytes: int, tmp_path: Path):
    """``accsat rewrite`` in a child process that may use ``megabytes`` of address space."""
    import resource
    import subprocess
    import sys

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (megabytes << 20, megabytes << 20))

    return subprocess.run([sys.executable, "-m", "accsat.cli", "rewrite", str(path), "--variant",
                           variant, "-o", str(tmp_path / "out.c")], capture_output=True,
                          text=True, timeout=600, preexec_fn=limit)


@pytest.mark.parametrize("path", [
    pytest.param(p, marks=[pytest.mark.xfail(strict=True, reason="open accsat bug")]
                 if _status(p) == "open" else [], id=p.stem) for p in REGRESSIONS])
def test_regression(path, tmp_path):
    memory = _header(path, "memory")
    if memory:  # accsat must rewrite it within that much memory (MB), for the variant given
        proc = _rewrite_within_memory(path, _header(path, "variant", "accsat"), int(memory),
                                      tmp_path)
        assert proc.returncode == 0, proc.stderr[-2000:]
        return
    findings = check_program(path.read_text(), tmp_path, VARIANTS, trials=24)
    assert not findings, "\n".join(str(f) for f in findings)


@pytest.mark.parametrize("path", REGRESSIONS, ids=lambda p: p.stem)
def test_open_regressions_are_caught_by_both_checks(path, tmp_path):
    """For a bug that makes a wrong program (not a crash), both checks must see it."""
    if _status(path) != "open" or _header(path, "memory"):
        pytest.skip("fixed, or a resource bug")
    findings = check_program(path.read_text(), tmp_path, VARIANTS, trials=24)
    kinds = {f.kind for f in findings}
    if "rewrite" in kinds:
        assert kinds == {"rewrite"}  # accsat crashes: there is no program to check
    else:
        assert "interp" in kinds, findings
        assert kinds & {"compiled", "compile-rewritten", "run-rewritten"}, findings


def test_generated_programs_are_well_defined(tmp_path):
    """Programs from the generator compile, run, and show no UB to the interpreter."""
    from accsat.frontend.kernels import find_kernels
    from accsat.frontend.parse import parse
    from accsat.frontend.preprocess import PreprocessOptions, preprocess
    from accsat.frontend.source_map import SourceMap
    from accsat.verify.cvalues import Trap
    from accsat.verify.interp import compile_body, execute
    from accsat.verify.states import make_state

    text, _ = program_from_seeds(list(range(42, 54)), "acc")
    src = tmp_path / "gen.c"
    src.write_text(text)
    status = compile_all([(src, tmp_path / "gen.x")], model_flag(text))
    assert status[src] is None, status[src]
    rc, out = run(tmp_path / "gen.x")
    assert rc == 0 and out.count(b"\n") > 12 * 32
    ast = parse(preprocess(src, PreprocessOptions()), str(src))
    kernels, symbols = find_kernels(ast, SourceMap(text), str(src))
    assert len(kernels) == 12
    for k in kernels:
        prog = compile_body(k.loop.stmt, k.scope, symbols, frozenset())
        state = make_state(1, 0, {n: t for n, (_s, t) in prog.outer_vars.items()},
                           prog.outer_objects, prog.restrict)
        try:
            execute(prog, state)
        except Trap as exc:  # tiny inputs: only out-of-range subscripts of n - 1 - i
            assert "outside" in exc.reason, exc.reason


def test_shrinker_reduces_a_failing_choice_sequence():
    from fuzz.gen import RandomChooser, gen_kernel
    from fuzz.shrink import replay, shrink

    # "fails" while the kernel stores to a float array: shrinks to a tiny kernel that does
    def fails(choices):
        kn, _ = replay(choices)
        return any(t == "float" for t in kn.arrays.values())

    start = next(s for s in range(100) if fails(_gen(s)))
    c = RandomChooser(start)
    gen_kernel(c, "k0")
    best = shrink(c.choices, fails, budget=300)
    kn, _ = replay(best)
    assert fails(best) and len(best) <= len(c.choices)
    assert len("\n".join(kn.body)) <= len("\n".join(replay(c.choices)[0].body))


def _gen(seed):
    from fuzz.gen import RandomChooser, gen_kernel

    c = RandomChooser(seed)
    gen_kernel(c, "k0")
    return c.choices
