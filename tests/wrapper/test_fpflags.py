"""The compiler's floating-point flags make accsat-cc rewrite as --fp-exact: a build with
-ffp-contract=off or -frounding-math prints exactly what the plain compiler's does."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from accsat.wrapper.args import classify
from accsat.wrapper.fpflags import FLAGS, exact_because

from .conftest import ACC, lines, needs_gcc, wrap

# Values of very different magnitudes and signs: both contracting a multiply-add into
# an FMA and reassociating a sum change the last bits of ``out`` (checked below; the
# last line pays for a regrouping: z + (w + y) shares w + y).
PROGRAM = """\
#include <stdio.h>

#define N 512
double x[N], y[N], z[N], w[N], out[N];

void kernel(int n, double s)
{
#pragma acc parallel loop
  for (int i = 1; i < n - 1; i++) {
    double t = x[i] * y[i] + z[i] * w[i] + x[i - 1] * s;
    out[i] = t * s + x[i] * z[i] + w[i + 1] * s + x[i] * y[i]
             + (x[i] + y[i - 1]) * (x[i] + y[i - 1])
             + ((z[i] + w[i]) + y[i]) + (w[i] + y[i]) * s;
  }
}

static double next(unsigned long *r, double scale)
{
  *r = *r * 6364136223846793005UL + 1442695040888963407UL;
  return ((double)(*r >> 11) / 9007199254740992.0 - 0.5) * scale;
}

int main(void)
{
  unsigned long r = 12345;
  for (int i = 0; i < N; i++) {
    x[i] = next(&r, 1e3);
    y[i] = next(&r, 1e-3);
    z[i] = next(&r, 1e5);
    w[i] = next(&r, 1.0);
  }
  kernel(N, 0.1);
  for (int i = 0; i < N; i++)
    printf("%a\\n", out[i]);
  return 0;
}
"""
BASE = ["-O2", *ACC]


def _has_fma() -> bool:
    try:
        return " fma " in Path("/proc/cpuinfo").read_text()
    except OSError:
        return False


@pytest.mark.parametrize(
    ("args", "because"),
    [
        (["-O2"], None),
        (["-ffp-contract=off"], "-ffp-contract=off"),
        (["-ffp-contract=on"], "-ffp-contract=on"),
        (["-ffp-contract=fast"], None),
        (["-frounding-math"], "-frounding-math"),
        (["-fno-associative-math"], "-fno-associative-math"),
        (["-ffp-model=strict"], "-ffp-model=strict"),
        (["-ffp-model=precise"], "-ffp-model=precise"),
        (["-fp-model", "strict"], "-fp-model strict"),
        (["-fp-model", "fast=2"], None),
        (["-Mnofma"], "-Mnofma"),
        (["-Kieee"], "-Kieee"),
        (["-acc", "-gpu=cc80,nofma"], "-gpu=cc80,nofma"),
        (["-ta=tesla:cc70,nofma"], "-ta=tesla:cc70,nofma"),
        (["-gpu=cc80,fma"], None),
        # the last word on each aspect wins; fast math cancels every earlier one
        (["-ffp-contract=off", "-ffp-contract=fast"], None),
        (["-ffp-contract=off", "-ffast-math"], None),
        (["-Ofast", "-frounding-math"], "-frounding-math"),
        (["-Kieee", "-Knoieee"], None),
        (["-Mnofma", "-Mfprelaxed=div"], None),
        (["-frounding-math", "-ffp-contract=fast"], "-frounding-math"),
        (["-ffp-contract=off", "-frounding-math", "-fno-rounding-math"], "-ffp-contract=off"),
    ],
)
def test_which_flags_ask_for_exact_floating_point(args, because):
    assert exact_because(args) == because


def test_every_flag_of_the_table_is_read():
    for flag in FLAGS:
        spelled = flag.spelling.replace("-gpu=", "-gpu=cc80,")
        assert (exact_because([spelled]) is not None) == flag.exact, flag.spelling


def test_classify_reads_them(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.c").write_text("int x;\n")
    assert classify(["gcc", "-c", "-ffp-contract=off", "a.c"]).fp_exact == "-ffp-contract=off"
    assert classify(["gcc", "-c", "a.c"]).fp_exact is None


def _build_and_run(
    cwd: Path, env: dict, compiler: list[str], flags: list[str], **settings: str
) -> tuple[str, list[str]]:
    """What the program prints, and accsat-cc's own lines."""
    exe = cwd / "prog"
    if compiler[0] == "gcc":
        r = subprocess.run(
            [*compiler, *flags, "fp.c", "-o", str(exe)],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=240,
        )
    else:
        r = wrap(cwd, env, "gcc", *flags, "fp.c", "-o", str(exe), **settings)
    assert r.returncode == 0, r.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60, check=True)
    return run.stdout, lines(r.stderr)


@needs_gcc
@pytest.mark.parametrize("fma", [False, True], ids=["no-fma", "fma"])
def test_exact_flags_build_what_gcc_builds(tmp_path, env, fma):
    if fma and not _has_fma():
        pytest.skip("this CPU has no FMA instructions")
    (tmp_path / "fp.c").write_text(PROGRAM)
    env = {**env, "ACCSAT_VARIANT": "", "ACCSAT_VERBOSE": "1"}  # the default variant
    base = BASE + (["-mfma"] if fma else [])
    plain, _ = _build_and_run(tmp_path, env, ["gcc"], base)
    # the kernel is sensitive: the default variant's reassociation changes its bits...
    rewritten, said = _build_and_run(tmp_path, env, ["accsat-cc"], base)
    assert rewritten != plain and said == ["accsat-cc: fp.c: 1 of 1 kernels rewritten (accsat)"]
    if fma:  # ...and so does contracting its multiply-adds
        assert _build_and_run(tmp_path, env, ["gcc"], [*base, "-ffp-contract=off"])[0] != plain
    expected, cached = {}, ""  # the default variant's rewrite is another cache entry
    for flag in ("-ffp-contract=off", "-frounding-math"):
        expected[flag], _ = _build_and_run(tmp_path, env, ["gcc"], [*base, flag])
        got, said = _build_and_run(tmp_path, env, ["accsat-cc"], [*base, flag])
        # the second flag's rewrite is the first's (the same Options): from the cache
        assert said[0] == (
            f"accsat-cc: {flag}: rewriting as with ACCSAT_FP_EXACT=1 (no FMA, "
            "no float reassociation)"
        )
        assert said[1:] == [f"accsat-cc: fp.c: 1 of 1 kernels rewritten (accsat{cached})"]
        cached = ", cached"
        assert got == expected[flag], flag
    # ACCSAT_FP_EXACT=0, set on purpose, keeps FMA and reassociation
    got, said = _build_and_run(
        tmp_path, env, ["accsat-cc"], [*base, "-ffp-contract=off"], ACCSAT_FP_EXACT="0"
    )
    assert said[0] == (
        "accsat-cc: -ffp-contract=off: ACCSAT_FP_EXACT is set to false, FMA and "
        "float reassociation stay on"
    )
    assert got != expected["-ffp-contract=off"]
