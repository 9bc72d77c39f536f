"""accsat.wrapper.ptxkeep: ``keep`` checked by ptxas in a gcc nvptx offload compile."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from marks import needs_offload

from accsat.options import Options
from accsat.toolchain.compilers import OFFLOAD_FLAGS, nvptx_target
from accsat.toolchain.ptx import Entry, Location, probe, probe_command
from accsat.wrapper import ptxkeep
from accsat.wrapper.rewrite import Outcome

from .conftest import wrap

KEEP = Options(registers="keep")
GPU = ["-O3", "-fopenacc", *OFFLOAD_FLAGS]


def entry(name: str, registers: int, first: int = 10, last: int = 20, spill: int = 0, block=None):
    return Entry(name, registers, spill, block, Location("k.c", first, first, last))


@pytest.mark.parametrize(
    "args, wanted",
    [
        (["-foffload=nvptx-none"], True),
        (["-foffload=amdgcn-amdhsa,nvptx-none"], True),
        (["-foffload=nvptx-none", "-foffload=disable"], False),  # the last one wins
        (["-foffload=disable"], False),
        ([], False),  # gcc's configured default is not asked for by name
    ],
)
def test_nvptx_target_is_the_last_foffload(args, wanted):
    assert nvptx_target(args) is wanted


def test_wanted_only_for_keep_with_gcc_and_nvptx(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: "/usr/bin/" + name)
    args = ["-fopenacc", "-foffload=nvptx-none", "-c", "k.c"]
    assert ptxkeep.wanted("gcc", args, KEEP)
    assert not ptxkeep.wanted("gcc", args, Options(registers="any"))
    assert not ptxkeep.wanted("gcc", args, Options(registers=64))
    # a tuning database that gives one kernel cse@keep asks ptxas too; cse@64 does not
    tuned = Options(registers="any", kernel_configs=((3, 9, "orig"), (10, 20, "cse@keep")))
    assert ptxkeep.wanted("gcc", args, tuned)
    assert not ptxkeep.wanted("gcc", args, replace(tuned, kernel_configs=((10, 20, "cse@64"),)))
    assert not ptxkeep.wanted("clang", args, KEEP)
    marker = ptxkeep.cache_marker("gcc", args, KEEP, ["gcc", "-O3", "-foffload=nvptx-none"])
    assert marker.startswith(ptxkeep.KEY) and marker.endswith("gcc -O3 -foffload=nvptx-none")
    assert ptxkeep.cache_marker("gcc", args, Options(), ["gcc"]) == ""
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert not ptxkeep.wanted("gcc", args, KEEP)  # no ptxas: the model alone


def test_probe_command_keeps_flags_and_drops_outputs_and_sources():
    args = ["-O3", "-DN=4", "-c", "a.c", "-o", "a.o", "-MD", "-MF", "a.d", "-MTx", "b.c", "-g0"]
    assert probe_command(["gcc"], args, {3, 10}) == ["gcc", "-O3", "-DN=4", "-g0"]


@pytest.mark.parametrize(
    "now, before, worse",
    [
        (entry("e", 40), entry("e", 32), True),  # 100 % -> 75 % at 128 threads
        (entry("e", 32), entry("e", 24), False),  # the same step
        (entry("e", 32, spill=8), entry("e", 32), True),  # spills where it did not
        (entry("e", 64, block=32), entry("e", 56, block=32), True),  # its own block size
        (entry("e", 40), None, False),  # an entry the written build lacks
    ],
)
def test_worse_means_a_lost_step_or_more_spills(now, before, worse):
    assert ptxkeep._worse(now, before) is worse


def test_tighten_halves_the_values_held_then_keeps_as_written():
    facts: ptxkeep.Facts = {(10, 20): [40, None]}
    kernels = [
        {"line": 12, "status": "rewritten", "registers": {"setting": "keep", "held": 6}},
        {"line": 15, "status": "rewritten", "registers": {"setting": "keep"}},  # no cap yet
        {"line": 30, "status": "rewritten", "registers": {"setting": "keep", "held": 6}},
        {"line": 18, "status": "unchanged"},
        {"line": 19, "status": "rewritten", "registers": None},  # a database's cse: any
    ]
    assert ptxkeep._tighten(facts, [entry("e", 48)], kernels, last=False)
    assert facts[(12, 12)] == [None, 3]
    assert facts[(15, 15)] == [None, ptxkeep.FIRST_CAP]
    assert not {(30, 30), (18, 18), (19, 19)} & set(facts)  # another entry; not ours
    assert ptxkeep._tighten(facts, [entry("e", 48)], kernels, last=True)
    assert facts[(12, 12)] == [None, -1] and facts[(15, 15)] == [None, -1]
    with_caps = ptxkeep._with(KEEP, facts)
    assert with_caps.registers_for(12) == (40, -1)
    assert with_caps.registers_for(25) == (None, None)


def test_a_lost_entry_tightens_the_functions_it_reaches():
    """A routine or callee has no registers of its own in ptxas's report: an entry that
    lost a step tightens each rewritten function with a line among the entry's reached
    lines (inlined, or a .func it calls), and not one it does not reach."""
    lost = replace(entry("e", 48), reached=frozenset({12, 15, 44}))
    keep = {"setting": "keep", "held": 8}
    body = "{\n  return x[k] * t;\n}"  # the unit's lines: 40 .. 42 (its line + the body's)
    kernels = [
        {
            "line": 40,
            "kind": "routine",
            "status": "rewritten",
            "registers": keep,
            "bodies": {"original": "double f(double *x)\n" + body},
        },  # lines 40-43: reaches 44? no
        {
            "line": 42,
            "kind": "callee",
            "status": "rewritten",
            "registers": keep,
            "bodies": {"original": "static double g(double *x)\n" + body},
        },  # 42-45: has 44
        {
            "line": 60,
            "kind": "callee",
            "status": "rewritten",
            "registers": keep,
            "bodies": {"original": "static double h(double *x)\n" + body},
        },
    ]
    facts: ptxkeep.Facts = {}
    assert ptxkeep._tighten(facts, [lost], kernels, last=False)
    assert set(facts) == {(42, 42)} and facts[(42, 42)] == [None, 4]


@needs_offload
def test_probe_reaches_an_inlined_helper_and_a_called_routine(tmp_path):
    src = tmp_path / "r.c"
    src.write_text(ROUTINES)
    (tmp_path / "work").mkdir()
    found = probe(["gcc", *GPU], src, tmp_path / "work")
    assert found is not None and len(found) == 1
    reached = found[0].reached
    assert 5 in reached  # interp's body, inlined into outer
    assert 8 in reached  # outer, a .func the entry calls
    assert 15 in reached  # the loop's own body


ROUTINES = """#include <stdio.h>
#pragma acc routine seq
static double interp(const double *restrict x, int k, double t)
{
    return x[k] * t * t + x[k + 1] * t + x[k] * x[k + 1] + x[k] * t;
}
#pragma acc routine seq
double outer(const double *x, int k, double t) { return interp(x, k, t) + interp(x, k + 1, t); }
int main(void)
{
    double x[1000], y[1000];
    for (int i = 0; i < 1000; i++) x[i] = i * 0.5;
#pragma acc parallel loop copyin(x) copyout(y)
    for (int i = 0; i < 998; i++)
        y[i] = outer(x, i, 0.25);
    printf("%g\\n", y[10]);
    return 0;
}
"""


def test_checked_rewrites_until_ptxas_finds_no_loss(monkeypatch, tmp_path):
    """Round by round: the written build's counts reach the rewrite; a lost entry caps the
    kernels in it; the rewrite that loses nothing is the outcome."""
    src = tmp_path / "k.c"
    src.write_text("int x;\n")
    builds = iter(
        [
            [entry("e", 32)],  # as written
            [entry("e", 48)],  # first rewrite: a step lost
            [entry("e", 32)],  # second: none
        ]
    )
    monkeypatch.setattr(ptxkeep, "probe", lambda command, source, work: next(builds))
    asked: list[tuple] = []

    def rewrite(options: Options) -> Outcome:
        asked.append(options.kernel_registers)
        held = 8 if len(asked) == 1 else 4
        kernel = {"line": 12, "status": "rewritten", "registers": {"setting": "keep", "held": held}}
        return Outcome(text=f"/* round {len(asked)} */", kernels=[kernel])

    out = ptxkeep.checked(["gcc"], src, KEEP, rewrite)
    assert out.text == "/* round 2 */" and out.cacheable
    assert asked == [((10, 20, 32, None),), ((10, 20, 32, None), (12, 12, None, 4))]


@needs_offload
def test_probe_reads_registers_and_lines_of_a_translation_unit(tmp_path):
    src = tmp_path / "k.c"
    src.write_text(
        "double a[64], b[64];\nvoid k(int n)\n{\n#pragma acc parallel loop\n"
        "  for (int i = 1; i < n; i++)\n    a[i] = b[i] * b[i - 1];\n}\n"
    )
    (tmp_path / "work").mkdir()
    found = probe(["gcc", *GPU], src, tmp_path / "work")
    assert found is not None and len(found) == 1
    e = found[0]
    assert e.registers and e.registers > 0 and e.spill == 0
    assert e.location is not None and e.location.first <= 5 <= e.location.last


@needs_offload
def test_accsat_cc_tells_keep_what_ptxas_counts(project: Path, env, tmp_path):
    report = tmp_path / "report.jsonl"
    got = wrap(
        project,
        env,
        "gcc",
        *GPU,
        "-c",
        "k.c",
        "-o",
        "k.o",
        ACCSAT_REGISTERS="keep",
        ACCSAT_REPORT=str(report),
    )
    assert got.returncode == 0, got.stderr
    (kernel,) = [json.loads(line) for line in report.read_text().splitlines()]
    assert kernel["registers"]["ptxas_written"] > 0


def test_a_probe_that_does_not_build_leaves_the_outcome_unchecked_and_uncached(
    monkeypatch, tmp_path
):
    src = tmp_path / "k.c"
    src.write_text("int x;\n")
    builds = iter([[entry("e", 32)], None])  # as written; the rewrite does not build alone
    monkeypatch.setattr(ptxkeep, "probe", lambda command, source, work: next(builds))
    kernel = {"line": 12, "status": "rewritten", "registers": {}}
    out = ptxkeep.checked(["gcc"], src, KEEP, lambda o: Outcome(text="/**/", kernels=[kernel]))
    assert out.text == "/**/" and not out.cacheable


def test_entries_of_other_files_lend_no_counts(monkeypatch, tmp_path):
    """A header's inline function compiled into an entry is not the kernel on its lines."""
    src = tmp_path / "k.c"
    src.write_text("int x;\n")
    other = Entry("h", 200, 0, None, Location("inc.h", 10, 10, 20))
    monkeypatch.setattr(ptxkeep, "probe", lambda command, source, work: [other])
    asked: list[tuple] = []

    def rewrite(options: Options) -> Outcome:
        asked.append(options.kernel_registers)
        return Outcome(text="", kernels=[])

    ptxkeep.checked(["gcc"], src, KEEP, rewrite)
    assert asked == [()]  # the model alone


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
@pytest.mark.parametrize(
    "flags, setting, budget",
    [
        # the default, auto: keep where the compile makes GPU code (no device compiler
        # is needed for -c: gcc only streams the offload code then)
        (["-O2", "-fopenacc", "-foffload=nvptx-none"], None, "keep"),
        (["-O2", "-fopenacc", "-foffload=disable"], None, None),  # a host build: any
        (["-O2", "-fopenacc", "-foffload=nvptx-none"], "any", None),
        (["-O2", "-fopenacc", "-foffload=disable"], "keep", "keep"),
    ],
)
def test_auto_keeps_occupancy_in_gpu_compiles_only(project, env, tmp_path, flags, setting, budget):
    report = tmp_path / "report.jsonl"
    extra = {"ACCSAT_REPORT": str(report)}
    if setting:
        extra["ACCSAT_REGISTERS"] = setting
    got = wrap(project, env, "gcc", *flags, "-c", "k.c", "-o", "k.o", **extra)
    assert got.returncode == 0, got.stderr
    (kernel,) = [json.loads(line) for line in report.read_text().splitlines()]
    assert kernel["status"] == "rewritten"
    assert (kernel["registers"] or {}).get("setting") == budget
