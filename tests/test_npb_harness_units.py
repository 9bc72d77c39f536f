"""Units of the harness engine: parsing, speedups, the flags table, PTX source
mapping, the cache and the scheduling of builds and runs (a fake suite)."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from npb_harness import wrapper
from npb_harness.cells import VARIANTS, Cell, grid, split_list
from npb_harness.compilers import FAMILIES, MODELS, TABLE, TARGETS, Compiler, Flags, flags_for
from npb_harness.engine import ERROR, Sweep
from npb_harness.ptx import entry_locations
from npb_harness.results import OK, UNSUPPORTED, Result, geomean, speedups
from npb_harness.run import parse
from npb_harness.tree import private_copy, source_dir

FIXTURE = Path(__file__).parent / "fixtures" / "npb_mini"

NPB_TAIL = """
 XX Benchmark Completed.
 Class           =                        W
 Size            =                   64x 64x 64
 Time in seconds =                     2.51
 Mop/s total     =                   812.34
 Verification    =               SUCCESSFUL
"""


def cell(bench="BT", variant="orig", size="S") -> Cell:
    return Cell("npb", bench, size, "gcc", "host", variant)


def test_variants_are_orig_and_accsat_s():
    from accsat.pipeline import VARIANTS as ACCSAT

    assert ("orig", *ACCSAT) == VARIANTS


def test_parse_npb_output():
    out = parse(NPB_TAIL)
    assert (out.verification, out.seconds, out.mops, out.cls) == ("SUCCESSFUL", 2.51, 812.34, "W")
    assert out.verified
    bad = parse(NPB_TAIL.replace("SUCCESSFUL", "UNSUCCESSFUL"))
    assert bad.verification == "UNSUCCESSFUL" and not bad.verified
    assert parse("Segmentation fault").verification is None


def test_speedups_prefer_rates_and_skip_failures():
    rs = [Result(cell(), OK, seconds=0.03, mops=1000.0),
          Result(cell(variant="cse"), OK, seconds=0.03, mops=1250.0),
          Result(cell(variant="accsat"), "verification failed"),
          Result(cell("SP"), OK, seconds=2.0),
          Result(cell("SP", "cse"), OK, seconds=1.0),
          Result(cell("LU", "cse"), OK, seconds=1.0)]  # no orig: no speedup
    sp = speedups(rs)
    assert sp[cell(variant="cse")] == pytest.approx(1.25)  # Mop/s, not the rounded time
    assert sp[cell("SP", "cse")] == 2.0
    assert cell(variant="accsat") not in sp and cell("LU", "cse") not in sp
    assert geomean([1.25, 2.0]) == pytest.approx((1.25 * 2.0) ** 0.5)
    assert geomean([]) is None


def test_result_round_trip():
    r = Result(cell(variant="cse+sat"), OK, seconds=1.5, times=[1.5, 1.6], mops=3.0,
               kernels={"found": 3}, extra={"load": [0.5, 0.7]})
    back = Result.from_dict(json.loads(json.dumps(r.to_dict())))
    assert back == r


def test_cells_grid_keys_and_lists():
    cells = grid("npb", ["BT", "SP"], ["S"], ["gcc"], ["host"], ["cse"])
    assert [c.variant for c in cells] == ["orig", "cse", "orig", "cse"]  # orig added, neighbours
    assert cells[1].key == "BT.S.gcc.host.cse" and cells[1].baseline() == cells[0]
    assert split_list(" BT, SP,,BT ") == ["BT", "SP"]
    assert Cell("spec", "303.ostencil", "test", "gcc=x/y", "host", "orig").key == \
        "303.ostencil.test.gcc_x_y.host.orig"


def test_flags_table_is_complete():
    for key in [(f, m, t) for f in FAMILIES for m in MODELS for t in TARGETS]:
        assert key in TABLE, key
    assert flags_for(Compiler.parse("gcc"), "openacc", "host").compile == \
        ("-O3", "-fopenacc", "-foffload=disable")
    assert isinstance(flags_for(Compiler.parse("clang"), "openacc", "host"), str)
    c = Compiler.parse("gcc=gcc-13")
    assert (c.name, c.command, c.family) == ("gcc", "gcc-13", "gcc")
    assert Compiler.parse("clang-17").family == "clang"
    nvptx = flags_for(Compiler.parse("nvc"), "openacc", "nvptx")
    assert isinstance(nvptx, Flags) and "-gpu=cc80" in nvptx.compile
    assert ("ACC_DEVICE_TYPE", "nvidia") in nvptx.run_env


PTX = """
.file 1 "<dummy>"
.entry f$_omp_fn$0 (.param .u64 %in_ar0);
.file 2 "relax.c"
.file 3 "inline.h"
.entry f$_omp_fn$0 (.param .u64 %in_ar0)
{
.loc 2 12 9
ld.global.f64 %r1, [%r2];
.loc 3 3 1
fma.rn.f64 %r3, %r1, %r1, %r1;
.loc 2 14 3
.loc 2 10 9
ret;
}
.entry g$_omp_fn$0 (.param .u64 %in_ar0)
{
ret;
}
"""


def test_ptx_entries_map_to_their_directive_line():
    locs = entry_locations(PTX)
    f = locs["f$_omp_fn$0"]
    # the file most .loc lines name; the region's exit .loc is the directive
    assert (f.file, f.line, f.first, f.last) == ("relax.c", 10, 10, 14)
    assert "g$_omp_fn$0" not in locs  # no .loc: compiled without -g


def test_wrapper_reports_and_fallbacks(tmp_path):
    log = ("accsat-cc: bt.c:12: statement expression; compiling the original\n"
           "gcc: warning: something\n"
           "accsat-cc: x.c: the rewritten source did not compile; compiled the original\n")
    assert wrapper.count_fallbacks(log) == 2
    report = tmp_path / "k.jsonl"
    k = {"file": "a.c", "line": 3, "function": "f", "status": "rewritten",
         "loads": {"before": 5, "after": 2}, "ops": {"before": 9, "after": 7}, "fma": 1}
    report.write_text(json.dumps(k) + "\n" + json.dumps(k) + "\n"
                      + json.dumps({**k, "line": 9, "status": "unchanged",
                                  "loads": {"before": 5, "after": 5}}) + "\n")
    s = wrapper.kernel_summary(report)
    assert (s["found"], s["rewritten"], s["loads_before"], s["loads_after"]) == (2, 1, 10, 7)
    assert wrapper.kernel_summary(tmp_path / "none") == {}
    assert wrapper.cc_command("orig", "gcc") == "gcc"
    assert wrapper.cc_command("cse", "gcc").endswith(" gcc")
    env = wrapper.environment("cse", report, tmp_path)
    assert env["ACCSAT_VARIANT"] == "cse" and env["ACCSAT_REPORT"] == str(report)


def test_tree_layout_and_private_copy(tmp_path):
    assert source_dir(FIXTURE / "LX").name == "LX-HP"
    assert source_dir(FIXTURE / "ST").name == "ST"
    user = tmp_path / "user"
    import shutil

    shutil.copytree(FIXTURE, user)
    (user / "ST" / "ST" / "st.o").write_text("stale")
    (user / "ST" / "ST" / "npbparams.h").write_text("stale")
    (user / "ST" / "sys" / "setparams").write_text("a binary from elsewhere")
    src = private_copy(user, "ST", tmp_path / "copy")
    assert src == tmp_path / "copy" / "ST" and (src / "st.c").is_file()
    assert not (src / "st.o").exists() and not (src / "npbparams.h").exists()
    assert not (tmp_path / "copy" / "sys" / "setparams").exists()
    assert (tmp_path / "copy" / "sys" / "setparams.c").is_file()


# -- the engine, with a fake suite --------------------------------------------------

@dataclass
class FakeSuite:
    name: str = "fake"
    events: list = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    broken: str = ""

    def precheck(self, c):
        return Result(c, UNSUPPORTED, "no") if c.benchmark == "XX" else None

    def build_key(self, c):
        return {"c": c.key}

    def run_key(self, c):
        return {}

    def _log(self, what):
        with self.lock:
            self.events.append((time.perf_counter(), what))

    def build(self, c, folder):
        self._log(("build+", c.key))
        time.sleep(0.05)
        self._log(("build-", c.key))
        return {"ok": True, "seconds": 0.05}

    def run(self, c, build, folder):
        if c.benchmark == self.broken:
            raise RuntimeError("boom")
        self._log(("run+", c.key))
        time.sleep(0.02)
        self._log(("run-", c.key))
        return Result(c, OK, seconds=1.0)


def test_engine_runs_alone_builds_in_parallel_and_caches(tmp_path):
    suite = FakeSuite(broken="B3")
    cells = grid("npb", ["B1", "B2", "B3", "XX"], ["S"], ["gcc"], ["host"], ["cse"])
    sweep = Sweep(suite, tmp_path, jobs=3, progress=False, say=lambda line: None)
    results = sweep.run(cells)
    status = {r.cell.key: r.status for r in results}
    assert status["XX.S.gcc.host.orig"] == UNSUPPORTED
    assert status["B3.S.gcc.host.cse"] == ERROR  # a harness error is a result
    assert sum(s == OK for s in status.values()) == 4
    # a run never overlaps another run or a build
    active: dict[str, int] = {"build": 0, "run": 0}
    overlap_builds = False
    for _, (what, _key) in sorted(suite.events):
        kind, sign = what[:-1], what[-1]
        active[kind] += 1 if sign == "+" else -1
        assert not (active["run"] and active["build"]), suite.events
        assert active["run"] <= 1
        overlap_builds |= active["build"] > 1
    assert overlap_builds  # --jobs 3: builds did run side by side
    # the second sweep: the ok cells come from the cache; errors and prechecks are redone
    suite2 = FakeSuite(broken="B3")
    sweep2 = Sweep(suite2, tmp_path, jobs=1, progress=False, say=lambda line: None)
    again = sweep2.run(cells)
    assert sum(r.cached for r in again) == 4
    assert [e for e in suite2.events if e[1][0] == "build+"] == []  # B3's build was kept
    assert sweep2.reused == [c for c in cells if c.benchmark == "B3"]


def test_one_sweep_per_output_folder(tmp_path):
    from npb_harness.cache import Busy, CellStore

    first, second = CellStore(tmp_path), CellStore(tmp_path)
    first.lock()
    with pytest.raises(Busy):
        second.lock()
    first.release()
    second.lock()
    second.release()


def test_table_adds_cpu_blocks_when_the_machine_was_shared():
    from npb_harness.table import speedup_table

    rs = [Result(cell(), OK, seconds=2.0, mops=10.0, cpu_seconds=1.0, extra={"load": [0.1]}),
          Result(cell(variant="cse"), OK, seconds=1.0, mops=20.0, cpu_seconds=0.8,
                 extra={"load": [0.2]})]
    quiet = speedup_table(rs)
    assert "2.000" in quiet and "CPU" not in quiet
    rs[1].extra["load"] = [999.0]
    busy = speedup_table(rs)
    assert "process CPU seconds" in busy and "1.250" in busy  # 1.0 / 0.8
    assert "other work shared the machine" in busy
