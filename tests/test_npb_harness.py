"""npb_harness end to end on tests/fixtures/npb_mini (our own NPB-shaped suite).

Sweeps build through the suite's Makefiles, with accsat-cc for the variants,
run, verify and time; the outputs, the cache (resume without rebuilding, also
after a real SIGINT), failures recorded as results (verification, build,
timeout, missing compiler, unsupported, no GPU) and the PTX view with its
source mapping are checked here. The real suite: test_npb_harness_real.py.
"""

from __future__ import annotations

import csv
import json
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from npb_harness.cli import npb

FIXTURE = Path(__file__).parent / "fixtures" / "npb_mini"

pytestmark = pytest.mark.skipif(
    shutil.which("gcc") is None or shutil.which("make") is None, reason="needs gcc and make"
)


def sweep(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(npb, ["--no-progress", *args], catch_exceptions=False)
    return result.exit_code, result.output


def results_of(out: Path) -> dict[str, dict]:
    with open(out / "results.csv") as f:
        return {f"{r['benchmark']}.{r['size']}.{r['variant']}": r for r in csv.DictReader(f)}


def mtimes(out: Path) -> dict[str, float]:
    return {p.parent.name: p.stat().st_mtime_ns for p in (out / "cells").glob("*/build.json")}


@pytest.fixture(scope="module")
def first_sweep(tmp_path_factory):
    """ST and LX, class S, orig and cse, 2 runs: the sweep most tests look at."""
    out = tmp_path_factory.mktemp("sweep")
    code, text = sweep(
        "--npb-root",
        str(FIXTURE),
        "--benchmarks",
        "ST,LX",
        "--classes",
        "S",
        "--variants",
        "orig,cse",
        "--runs",
        "2",
        "--out",
        str(out),
    )
    return out, code, text


def test_sweep_builds_runs_verifies_and_writes_outputs(first_sweep):
    out, code, text = first_sweep
    assert code == 0, text
    rows = results_of(out)
    assert set(rows) == {"ST.S.orig", "ST.S.cse", "LX.S.orig", "LX.S.cse"}
    for r in rows.values():
        assert r["status"] == "ok", r
        assert r["verified"] == "True"
        assert len(r["times"].split()) == 2
        assert float(r["mops"]) > 0
        assert r["speedup"]
    # the variants went through accsat-cc and rewrote kernels: the stencil; the blend
    # (u = 0.75 * r + 0.25 * u) has nothing to share and stays as written (no gain)
    assert int(rows["ST.S.cse"]["kernels_rewritten"]) == 1
    assert int(rows["ST.S.cse"]["kernels_found"]) == 2
    assert int(rows["LX.S.cse"]["kernels_found"]) == 3
    assert rows["ST.S.orig"]["kernels_found"] == ""  # orig: the plain compiler
    data = json.loads((out / "results.json").read_text())
    assert len(data) == 4 and all(d["speedup"] for d in data)
    png = (out / "speedup.png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 10_000
    # the terminal table: one row per benchmark, a geomean
    assert re.search(r"^ST\s+[\d.]+\s+\d\.\d{3}$", text, re.M), text
    assert re.search(r"^geomean\s+\d\.\d{3}$", text, re.M), text


def test_the_users_tree_is_never_touched(first_sweep):
    out, _, _ = first_sweep
    assert not list(FIXTURE.rglob("*.o")) and not list(FIXTURE.rglob("npbparams.h"))
    assert not (FIXTURE / "ST" / "sys" / "setparams").exists()
    # each cell built in its own copy
    assert (out / "cells" / "ST.S.gcc.host.cse" / "tree" / "ST" / "st.S.x").is_file()
    assert (out / "cells" / "LX.S.gcc.host.orig" / "tree" / "LX-HP" / "lx.S.x").is_file()


def test_rerun_takes_every_cell_from_the_cache(first_sweep):
    out, _, _ = first_sweep
    before = mtimes(out)
    code, text = sweep(
        "--npb-root",
        str(FIXTURE),
        "--benchmarks",
        "ST,LX",
        "--classes",
        "S",
        "--variants",
        "orig,cse",
        "--runs",
        "2",
        "--out",
        str(out),
    )
    assert code == 0
    assert "4 cells: 4 from the cache, 0 built" in text
    assert mtimes(out) == before


def test_more_runs_rerun_without_rebuilding(first_sweep, tmp_path):
    out, _, _ = first_sweep
    copy = tmp_path / "out"
    shutil.copytree(out, copy)
    # the cells remember absolute paths of their trees: the copy needs its own
    for rec in copy.glob("cells/*/build.json"):
        rec.write_text(rec.read_text().replace(str(out), str(copy)))
    before = mtimes(copy)
    code, text = sweep(
        "--npb-root",
        str(FIXTURE),
        "--benchmarks",
        "ST",
        "--classes",
        "S",
        "--variants",
        "orig,cse",
        "--runs",
        "3",
        "--out",
        str(copy),
    )
    assert code == 0
    assert "0 built, 2 run on an earlier build" in text
    assert all(len(r["times"].split()) == 3 for r in results_of(copy).values())
    assert {k: v for k, v in mtimes(copy).items() if k.startswith("ST")} == {
        k: v for k, v in before.items() if k.startswith("ST")
    }


@pytest.fixture
def broken_suite(tmp_path) -> Path:
    """The fixture with ST's class-S reference checksum off by 1 %."""
    root = tmp_path / "npb"
    shutil.copytree(FIXTURE, root)
    st = root / "ST" / "ST" / "st.c"
    st.write_text(st.read_text().replace("#define REF_S -5.027", "#define REF_S -5.077"))
    return root


def test_failed_verification_is_a_result_and_the_sweep_goes_on(broken_suite, tmp_path):
    out = tmp_path / "out"
    code, text = sweep(
        "--npb-root",
        str(broken_suite),
        "--benchmarks",
        "ST,LX",
        "--classes",
        "S",
        "--variants",
        "orig",
        "--runs",
        "2",
        "--out",
        str(out),
    )
    assert code == 0, text
    rows = results_of(out)
    assert rows["ST.S.orig"]["status"] == "verification failed"
    assert rows["ST.S.orig"]["verified"] == "False"
    assert "UNSUCCESSFUL" in rows["ST.S.orig"]["message"]
    assert rows["LX.S.orig"]["status"] == "ok"
    assert re.search(r"^ST\s+VERIFY$", text, re.M), text
    assert "ST.S.gcc.host.orig: verification failed" in text
    # a failed cell is cached as failed; --retry-failed runs it again
    code, text = sweep(
        "--npb-root",
        str(broken_suite),
        "--benchmarks",
        "ST",
        "--classes",
        "S",
        "--variants",
        "orig",
        "--runs",
        "2",
        "--out",
        str(out),
    )
    assert "1 from the cache" in text
    code, text = sweep(
        "--npb-root",
        str(broken_suite),
        "--benchmarks",
        "ST",
        "--classes",
        "S",
        "--variants",
        "orig",
        "--runs",
        "2",
        "--out",
        str(out),
        "--retry-failed",
    )
    assert "0 from the cache" in text


def test_build_failure_and_timeout_are_results(tmp_path):
    root = tmp_path / "npb"
    shutil.copytree(FIXTURE, root)
    st = root / "ST" / "ST" / "st.c"
    st.write_text(st.read_text().replace("static void init(void)", "static void init(void) oops"))
    lx = root / "LX" / "LX-HP" / "lx.c"
    lx.write_text(lx.read_text().replace("int main(void)\n{", "int main(void)\n{\n    for (;;) {}"))
    out = tmp_path / "out"
    code, text = sweep(
        "--npb-root",
        str(root),
        "--benchmarks",
        "ST,LX",
        "--classes",
        "S",
        "--variants",
        "orig",
        "--runs",
        "1",
        "--timeout",
        "1",
        "--out",
        str(out),
    )
    assert code == 0, text
    rows = results_of(out)
    assert rows["ST.S.orig"]["status"] == "build failed"
    assert "build.log" in rows["ST.S.orig"]["message"]
    assert rows["LX.S.orig"]["status"] == "timeout"


def test_missing_and_unsupported_compilers_and_no_gpu(tmp_path):
    out = tmp_path / "out"
    code, text = sweep(
        "--npb-root",
        str(FIXTURE),
        "--benchmarks",
        "ST",
        "--classes",
        "S",
        "--variants",
        "orig",
        "--compilers",
        "clang,nvc=no-such-nvc",
        "--target",
        "host,nvptx",
        "--out",
        str(out),
    )
    assert code == 0, text
    with open(out / "results.csv") as f:
        rows = {(r["compiler"], r["target"]): r for r in csv.DictReader(f)}
    assert rows[("clang", "host")]["status"] == "unsupported"  # NPB-ACC is OpenACC
    assert "OpenACC" in rows[("clang", "host")]["message"]
    assert rows[("nvc", "host")]["status"] == "compiler not found"
    from accsat.toolchain.compilers import gpu_present

    if not gpu_present():
        assert rows[("nvc", "nvptx")]["status"] == "compiler not found"
        assert "0 built" in text


@pytest.mark.skipif(shutil.which("nvidia-smi") is not None, reason="a GPU may be present")
def test_nvptx_without_gpu_is_recorded_not_run(tmp_path):
    out = tmp_path / "out"
    code, text = sweep(
        "--npb-root",
        str(FIXTURE),
        "--benchmarks",
        "ST",
        "--classes",
        "S",
        "--variants",
        "orig",
        "--target",
        "nvptx",
        "--out",
        str(out),
    )
    assert code == 0
    (row,) = results_of(out).values()
    assert row["status"] == "no gpu"
    assert not (out / "cells").exists() or not list((out / "cells").glob("*/build.json"))


def test_bad_arguments_are_usage_errors(tmp_path):
    code, text = sweep("--npb-root", str(FIXTURE), "--benchmarks", "ST,QQ", "--out", str(tmp_path))
    assert code == 2 and "QQ" in text
    code, text = sweep(
        "--npb-root",
        str(FIXTURE),
        "--benchmarks",
        "ST",
        "--variants",
        "orig,fast",
        "--out",
        str(tmp_path),
    )
    assert code == 2 and "fast" in text


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_interrupted_sweep_resumes_without_rebuilding_finished_cells(signum, tmp_path):
    """A real SIGINT (or SIGTERM) mid-sweep; the re-run builds only what was left."""
    out = tmp_path / "out"
    args = [
        sys.executable,
        "-m",
        "npb_harness",
        "--npb-root",
        str(FIXTURE),
        "--benchmarks",
        "ST,LX",
        "--classes",
        "S,W",
        "--variants",
        "orig",
        "--runs",
        "1",
        "--out",
        str(out),
        "--no-progress",
    ]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.time() + 60
    while time.time() < deadline and len(list(out.glob("cells/*/result.json"))) < 1:
        time.sleep(0.05)
    proc.send_signal(signum)
    text, _ = proc.communicate(timeout=60)
    finished = {p.parent.name for p in out.glob("cells/*/result.json")}
    if proc.returncode == 0:  # the sweep won the race: nothing left to resume
        pytest.skip("the sweep ended before the interrupt")
    assert proc.returncode == 130, text
    assert "interrupted" in text and 1 <= len(finished) < 4
    built_before = mtimes(out)
    code, text = sweep(*args[3:-1])
    assert code == 0
    assert f"{len(finished)} from the cache" in text
    after = mtimes(out)
    for key in finished:
        assert after[key] == built_before[key], key  # not rebuilt
    assert len(after) == 4 and all(r["status"] == "ok" for r in results_of(out).values())


def _offload() -> bool:
    from accsat.toolchain.compilers import nvptx_offload

    return shutil.which("gcc") is not None and nvptx_offload("gcc")


@pytest.mark.skipif(not _offload(), reason="gcc's nvptx offload compiler is not installed")
def test_ptx_view_maps_entries_to_their_directives(tmp_path):
    out = tmp_path / "ptx"
    code, text = sweep(
        "--npb-root",
        str(FIXTURE),
        "--benchmarks",
        "LX",
        "--classes",
        "S",
        "--variants",
        "orig,cse",
        "--ptx",
        "--out",
        str(out),
    )
    assert code == 0, text
    with open(out / "ptx.csv") as f:
        rows = list(csv.DictReader(f))
    source = (FIXTURE / "LX" / "LX-HP" / "relax.c").read_text().splitlines()
    directives = [n for n, line in enumerate(source, 1) if "#pragma acc parallel" in line]
    for variant in ("orig", "cse"):
        entries = {r["entry"]: r for r in rows if r["variant"] == variant}
        # under accsat-cc too, the lines are those of the user's file (#line directives)
        assert int(entries["relax$_omp_fn$0"]["line"]) == directives[0]
        assert int(entries["relax$_omp_fn$1"]["line"]) == directives[1]
        assert int(entries["residual$_omp_fn$0"]["line"]) == directives[2]
        assert entries["relax$_omp_fn$0"]["file"] == "relax.c"
        assert len(entries) == 3  # data regions are no entries
        for r in entries.values():
            assert int(r["instructions"]) > 0
            if shutil.which("ptxas"):
                assert r["registers"] != ""
    cse = {r["entry"]: r for r in rows if r["variant"] == "cse"}
    assert cse["relax$_omp_fn$0"]["kernels"] == "1" and cse["relax$_omp_fn$0"]["rewritten"] == "1"
    assert (out / "ptx.png").read_bytes().startswith(b"\x89PNG")
    assert (out / "loads_registers.png").read_bytes().startswith(b"\x89PNG")
    assert re.search(r"^LX\s+S\s+cse\s+\d+", text, re.M), text
