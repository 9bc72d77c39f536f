"""spec_harness on tests/fixtures/spec_mini: a SPEC-ACCEL-shaped tree of our own.

Two tiny benchmarks (390.tinyacc: OpenACC, tolerances as numbers; 590.tinyomp:
OpenMP target, per-file tolerances) swept end to end in both modes: direct
(compile src/, run invoke(), validate here) and runspec (a generated config
and the fixture's fake runspec). Output validation is checked on outputs
made wrong, and made different but within tolerance. Nothing here is SPEC's
code or data; tests with a real installation skip without SPEC_ROOT.
"""

from __future__ import annotations

import csv
import os
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from spec_harness import objectpm
from spec_harness.cli import spec
from spec_harness.layout import PAPER_BENCHMARKS, SpecTree, model
from spec_harness.specdiff import Tolerance, compare_text

FIXTURE = Path(__file__).parent / "fixtures" / "spec_mini"
REPO = Path(__file__).resolve().parent.parent

needs_tools = pytest.mark.skipif(
    shutil.which("gcc") is None or shutil.which("perl") is None, reason="needs gcc and perl"
)


@pytest.fixture(autouse=True)
def environment(monkeypatch):
    # the fake runspec runs this Python, which must find spec_harness
    monkeypatch.setenv("SPEC_FAKE_PYTHON", sys.executable)
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join([str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])])
    )
    monkeypatch.setenv("OMP_NUM_THREADS", "1")  # 590's host fallback: no thread start-up noise


def sweep(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(spec, ["--no-progress", *args], catch_exceptions=False)
    return result.exit_code, result.output


def rows_of(out: Path) -> dict[str, dict]:
    with open(out / "results.csv") as f:
        return {f"{r['benchmark']}.{r['variant']}": r for r in csv.DictReader(f)}


# -- specdiff -------------------------------------------------------------------


def test_specdiff_numbers_within_absolute_or_relative_tolerance():
    tol = Tolerance(abstol=1e-9, reltol=1e-6)
    want = "u[250] = 3.171607830779e-01\nsum = 1.272865556988e+03\n"
    assert compare_text(want, "u[250] = 3.171607831e-01\nsum = 1.272865557e+03\n", tol) == []
    bad = compare_text(want, "u[250] = 3.171607830779e-01\nsum = 1.2730e+03\n", tol)
    assert len(bad) == 1 and bad[0].line == 2 and "rel diff" in bad[0].why
    # zero expected: only the absolute tolerance can accept
    assert compare_text("x 0.0", "x 1e-10", tol) == []
    assert compare_text("x 0.0", "x 1e-8", tol)


def test_specdiff_text_whitespace_and_line_counts():
    exact = Tolerance()
    assert compare_text("a 1.0\n", "a 1.0\n", exact) == []
    assert compare_text("a 1.0\n", "a 1.00\n", exact)  # no tolerance: the same text
    assert compare_text("a 1.0\n", "a 1.00\n", Tolerance(floatcompare=True)) == []
    assert compare_text("a  b\n", "a b\n", exact)
    assert compare_text("a  b\n\n", "a b\n", Tolerance(compwhite=True)) == []
    assert compare_text("done\n", "DONE\n", Tolerance(ignorecase=True)) == []
    (m,) = compare_text("a\nb\n", "a\n", exact)
    assert m.why == "missing line"
    assert compare_text("x = 1.0D+00", "x = 1.0000001e0", Tolerance(reltol=1e-6)) == []
    assert compare_text("sum x 1.0\n", "sum y 1.0\n", Tolerance(reltol=1.0))


# -- object.pm ----------------------------------------------------------------------


@needs_tools
def test_object_pm_is_read_through_perl():
    tree = SpecTree(FIXTURE)
    acc = objectpm.load(
        tree.bench_dir("390.tinyacc"), "/bin/heat", "test", tree.input_dirs("390.tinyacc", "test")
    )
    assert acc.sources == ["main.c", "heat.c"] and acc.exename == "heat"
    assert acc.bench_flags == ["-I."]
    assert acc.tolerance_for("heat.out") == (1e-9, 1e-6)
    (inv,) = acc.runs
    assert (inv.command, inv.args, inv.output, inv.input) == (
        "/bin/heat",
        ["heat.in"],
        "heat.out",
        None,
    )
    omp = objectpm.load(
        tree.bench_dir("590.tinyomp"), "/bin/axpy", "test", tree.input_dirs("590.tinyomp", "test")
    )
    assert omp.tolerance_for("sum.out") == (None, 1e-7)
    assert omp.tolerance_for("axpy.out") == (None, None)
    assert omp.compwhite and omp.runs[0].input == "axpy.in"


def test_layout_and_models():
    tree = SpecTree(FIXTURE)
    assert tree.benchmarks() == ["390.tinyacc", "590.tinyomp"]
    assert tree.resolve("390") == tree.resolve("tinyacc") == "390.tinyacc"
    assert tree.resolve("303") is None
    assert [model(b) for b in ("303.ostencil", "570.pbt", "101.tpacf", "x")] == [
        "openacc",
        "openmp",
        "opencl",
        "unknown",
    ]
    assert len(PAPER_BENCHMARKS) == 14


def test_show_flags_lists_every_paper_benchmark():
    code, text = sweep("--show-flags", "--compilers", "gcc,clang,nvc")
    assert code == 0
    for b in PAPER_BENCHMARKS:
        assert b in text
    assert (
        "303.ostencil     openacc  gcc    host   CC='accsat-cc gcc' CFLAGS='-O3 -fopenacc" in text
    )
    assert (
        "570.pbt          openmp   clang  host   CC='accsat-cc clang' CFLAGS='-O3 -fopenmp'" in text
    )
    assert "303.ostencil     openacc  clang  host   unsupported" in text


# -- sweeps -------------------------------------------------------------------------


@needs_tools
@pytest.mark.parametrize("mode", ["direct", "runspec"])
def test_fixture_sweep_end_to_end(mode, tmp_path):
    out = tmp_path / "out"
    code, text = sweep(
        "--spec-root",
        str(FIXTURE),
        "--benchmarks",
        "390,590",
        "--mode",
        mode,
        "--variants",
        "orig,cse",
        "--runs",
        "2",
        "--out",
        str(out),
    )
    assert code == 0, text
    rows = rows_of(out)
    assert set(rows) == {
        "390.tinyacc.orig",
        "390.tinyacc.cse",
        "590.tinyomp.orig",
        "590.tinyomp.cse",
    }
    for r in rows.values():
        assert r["status"] == "ok", r
        assert r["verified"] == "True" and len(r["times"].split()) == 2 and r["speedup"]
    assert int(rows["390.tinyacc.cse"]["kernels_rewritten"]) >= 1
    assert int(rows["590.tinyomp.cse"]["kernels_rewritten"]) == 1
    assert (out / "speedup.png").read_bytes().startswith(b"\x89PNG")
    assert "geomean" in text
    if mode == "runspec":
        cfg = (out / "cells" / "590.tinyomp.test.gcc.host.cse" / "accsat.cfg").read_text()
        assert "ext           = accsat-gcc-host-cse" in cfg
        assert "ACCSAT_VARIANT=cse" in cfg and "accsat-cc gcc" in cfg
        assert "OPTIMIZE      = -O3 -fopenmp -foffload=disable" in cfg
        # runspec's output_root keeps the installation untouched
        assert not (FIXTURE / "result").exists()
        assert list((out / "cells").glob("*/spec/result/ACCEL_*.test.csv"))
    # the same command again: every cell from the cache
    code, text = sweep(
        "--spec-root",
        str(FIXTURE),
        "--benchmarks",
        "390,590",
        "--mode",
        mode,
        "--variants",
        "orig,cse",
        "--runs",
        "2",
        "--out",
        str(out),
    )
    assert "4 cells: 4 from the cache, 0 built" in text


def _tampered(tmp_path: Path, factor: float) -> Path:
    """The fixture with 390's expected sum scaled by ``factor``."""
    root = tmp_path / "spec"
    shutil.copytree(FIXTURE, root)
    expected = (
        root / "benchspec" / "ACCEL" / "390.tinyacc" / "data" / "test" / "output" / "heat.out"
    )
    lines = expected.read_text().splitlines()
    value = float(lines[-1].split("=")[1])
    lines[-1] = f"sum = {value * factor:.12e}"
    expected.write_text("\n".join(lines) + "\n")
    return root


@needs_tools
@pytest.mark.parametrize("mode", ["direct", "runspec"])
def test_validation_rejects_a_wrong_output_and_accepts_one_within_tolerance(mode, tmp_path):
    wrong = _tampered(tmp_path / "a", 1.001)  # 1e-3 relative: outside reltol 1e-6
    out = tmp_path / "wrong"
    code, text = sweep(
        "--spec-root",
        str(wrong),
        "--benchmarks",
        "390,590",
        "--mode",
        mode,
        "--variants",
        "orig",
        "--runs",
        "1",
        "--out",
        str(out),
    )
    assert code == 0, text
    rows = rows_of(out)
    assert rows["390.tinyacc.orig"]["status"] == "verification failed"
    assert rows["590.tinyomp.orig"]["status"] == "ok"  # the sweep went on
    if mode == "direct":
        assert "heat.out" in rows["390.tinyacc.orig"]["message"]
    close = _tampered(tmp_path / "b", 1 + 3e-7)  # inside reltol 1e-6
    out = tmp_path / "close"
    code, text = sweep(
        "--spec-root",
        str(close),
        "--benchmarks",
        "390",
        "--mode",
        mode,
        "--variants",
        "orig",
        "--runs",
        "1",
        "--out",
        str(out),
    )
    assert rows_of(out)["390.tinyacc.orig"]["status"] == "ok", text


@needs_tools
def test_a_run_that_fails_and_a_build_that_fails_are_results(tmp_path):
    root = tmp_path / "spec"
    shutil.copytree(FIXTURE, root)
    (root / "benchspec/ACCEL/590.tinyomp/data/test/input/axpy.in").write_text("garbage\n")
    heat = root / "benchspec/ACCEL/390.tinyacc/src/heat.c"
    heat.write_text(heat.read_text().replace("void heat_steps", "void heat_steps oops"))
    out = tmp_path / "out"
    code, text = sweep(
        "--spec-root",
        str(root),
        "--benchmarks",
        "390,590",
        "--mode",
        "direct",
        "--variants",
        "orig",
        "--runs",
        "1",
        "--out",
        str(out),
    )
    assert code == 0, text
    rows = rows_of(out)
    assert rows["390.tinyacc.orig"]["status"] == "build failed"
    assert rows["590.tinyomp.orig"]["status"] == "run failed"
    assert "expected 'n sweeps'" in rows["590.tinyomp.orig"]["message"]


def test_unknown_benchmark_is_a_usage_error(tmp_path):
    code, text = sweep("--spec-root", str(FIXTURE), "--benchmarks", "303", "--out", str(tmp_path))
    assert code == 2 and "303" in text
