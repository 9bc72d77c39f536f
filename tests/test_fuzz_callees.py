"""The fuzzer's helper functions (tests/fuzz/callees.py, issue 37's function units).

* ``test_generator_writes_every_callee_shape``: over 500 drawn kernels, about one in
  three calls helpers, and each shape is written (counted in the programs' text): both
  models' spellings, early returns, pointers written, aliasing arguments, pointers to
  scalars, struct arguments and locals, pure calls twice, calls in if arms, nesting,
  plain helpers writing and reading globals.
* ``test_callee_programs_pass_sanitizers``: gcc's UB and address sanitizers find
  nothing in programs of helper-calling kernels (indices in range, no overflow).
* ``test_callee_kernels_are_clean``: a few seeds with helpers of every shape, through
  the harness with every variant (acc and omp): no finding, and the helpers are
  rewritten as routines and callees.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from fuzz.callees import SHAPES  # noqa: E402
from fuzz.forms import NO_FLAGS, Flags  # noqa: E402
from fuzz.gen import KNOWN_BUGS, RandomChooser, gen_kernel, program_from_seeds, render  # noqa: E402
from fuzz.harness import CC, VARIANTS, check_program  # noqa: E402

# what each shape looks like in a program's text (helpers of kernel kN are kN_...)
FORMS = {
    "acc routine": r"#pragma acc routine seq\nstatic ",
    "omp declare target": r"#pragma omp declare target\nstatic [^\n]*\n(?:[^#][^\n]*\n)*#pragma omp end declare target",
    "early return": r"  if \([^\n]*\)\n    return ",
    "pointer written": r"\n  p\[j \+ 1\] = ",
    "pointer helper returns": r"\n  return [^\n]*p\[j\]",
    "same array twice": r"_fp\d+\((k\d+_a\d+)(?: \+ 1)?, \1(?: \+ 1)?, ",
    "a and a + 1": r"_fp\d+\((k\d+_a\d+), \1 \+ 1, |_fp\d+\((k\d+_a\d+) \+ 1, \2, ",
    "pointer to a local the caller reads": r"_fa\d+\(&(cv\d+), [^\n]*\n[^\n]*\1 \+ ",
    "pointer to an element": r"_fa\d+\(&k\d+_a\d+\[",
    "struct by value": r"\(struct k\d+_cv v, double s\)",
    "struct local in the kernel": r"struct k\d+_cv cw\d+ = k\d+_cs\[",
    "struct local in a helper": r"struct k\d+_cv w = ps\[j\];",
    "pure helper twice": r"(k\d+_fs\d+\([^\n]*?, \d\)) \+ \1",
    "call in an if arm": r"if \(k\d+_a\d+\[[^\n]*\] < [^\n]*\) \{\n\s+[^\n]*k\d+_f[a-z]\d+\(",
    "helper calling a helper": r"u = k\d+_fs\d+\(x, j & 7\);",
    "global written by a helper": r"\nstatic void k\d+_fg\d+\(int j, \w+ v\)\n\{\n  k\d+_a",
    "global-reading helper twice": r"(k\d+_fr\d+\([^\n]*?\)) \+ \1",
}


def test_generator_writes_every_callee_shape():
    kernels = [gen_kernel(RandomChooser(s), f"k{s}", KNOWN_BUGS) for s in range(500)]
    with_helpers = [kn for kn in kernels if kn.callees is not None]
    assert 125 <= len(with_helpers) <= 210, len(with_helpers)  # about one in three
    shapes = {s for kn in with_helpers for s in kn.callees.shapes}
    assert shapes == set(SHAPES)
    for kn in with_helpers:
        kn.model = "acc" if int(kn.k[1:]) % 2 else "omp"
    text = render([kn for kn in with_helpers if kn.model == "acc"])
    text += render([kn for kn in with_helpers if kn.model == "omp"])
    counts = {name: len(re.findall(form, text)) for name, form in FORMS.items()}
    marked = [h.marked for kn in with_helpers for h in kn.callees.helpers]
    counts["plain helper"] = marked.count(False)
    assert all(n >= 3 for n in counts.values()), counts


def _build(tmp_path: Path, text: str, flags: tuple[str, ...], name: str):
    src = tmp_path / f"{name}.c"
    src.write_text(text)
    # -fopenmp: gcc's OpenACC lowering refuses the sanitizer's data in an acc routine
    cmd = [CC, "-O0", "-fopenmp", "-foffload=disable", "-w", *flags, str(src), "-lm"]
    proc = subprocess.run([*cmd, "-o", str(tmp_path / f"{name}.x")], capture_output=True, text=True)
    if proc.returncode and "sanitize" in proc.stderr and "cannot find" in proc.stderr:
        pytest.skip(f"no sanitizer runtime: {proc.stderr[-300:]}")
    assert proc.returncode == 0, proc.stderr[-3000:]
    return subprocess.run(
        [str(tmp_path / f"{name}.x")], capture_output=True, text=True, timeout=120
    )


def _helper_seeds(count: int, flags: Flags = NO_FLAGS, start: int = 3000) -> list[int]:
    """The first ``count`` seeds from ``start`` whose kernels (under ``flags``) call helpers."""
    seeds, s = [], start
    while len(seeds) < count:
        if gen_kernel(RandomChooser(s), "k0", KNOWN_BUGS, flags).callees is not None:
            seeds.append(s)
        s += 1
    return seeds


@pytest.mark.parametrize(("model", "flags"), [("acc", Flags()), ("omp", Flags(wrapv=True))])
def test_callee_programs_pass_sanitizers(tmp_path, model, flags):
    text, kernels = program_from_seeds(_helper_seeds(40, flags), model, KNOWN_BUGS, flags)
    assert all(kn.callees is not None for kn in kernels)
    sanitize = ("-fsanitize=undefined,address,float-cast-overflow", "-fno-sanitize-recover=all")
    proc = _build(tmp_path, text, (*flags.cflags(), *sanitize), "ub")
    assert proc.returncode == 0 and "runtime error" not in proc.stderr, proc.stderr[-3000:]


# seeds whose kernels call helpers of every shape between them (found by _helper_seeds)
CALLEE_SEEDS = [3, 5, 6, 20, 29, 34, 46]


@pytest.mark.parametrize("model", ["acc", "omp"])
def test_callee_kernels_are_clean(tmp_path, model):
    text, kernels = program_from_seeds(CALLEE_SEEDS, model, KNOWN_BUGS)
    assert {s for kn in kernels for s in kn.callees.shapes} == set(SHAPES)
    stats: dict = {}
    findings = check_program(text, tmp_path, VARIANTS, trials=8, extract_seconds=2.0, stats=stats)
    assert not findings, "\n".join(map(str, findings))
    for variant, _ in VARIANTS:
        assert stats.get(f"{variant} routine rewritten", 0) >= 3, stats
        assert stats.get(f"{variant} callee rewritten", 0) >= 1, stats
