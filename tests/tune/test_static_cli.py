"""``accsat tune --static`` end to end: a stand-in build writes the figures accsat-cc would
(ACCSAT_STATIC), so the tuner's steps run without gcc's nvptx offload compiler; and, where
it is installed with ptxas, the real thing on the two-kernel program."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from marks import needs_offload

from accsat.occupancy import occupancy
from accsat.options import BUDGETED
from accsat.toolchain.compilers import OFFLOAD_FLAGS
from accsat.tune.db import load

from .conftest import CC, SCALE_LINE, STENCIL_LINE, needs_gcc

# what each configuration compiles to, per construct: (loads, registers); "k.c:9" is
# not rewritten by any. The budgeted cse keeps orig's occupancy (40 registers: 75 % at
# 128 threads) and saves 20 of cse's 40 loads
FIGURES = {
    "k.c:3": {
        "orig": (100, 40),
        "cse@any": (60, 134),
        "accsat@any": (60, 200),
        "cse@keep": (80, 40),
    },
    "k.c:9": {"orig": (50, 32)},
}
HASHES = {"k.c:3": "h3", "k.c:9": "h9"}

# the build: the figures of the configuration accsat-cc is asked for, or of each kernel's
# choice under a tuning database; a program that prints ok
FAKE_BUILD = f"""\
import json, os
figures, hashes = {FIGURES!r}, {HASHES!r}
env = os.environ
config = "orig" if env.get("ACCSAT_DISABLE") == "1" else env.get("ACCSAT_VARIANT", "accsat")
if env.get("ACCSAT_REGISTERS"):
    config += "@" + env["ACCSAT_REGISTERS"]
chosen = {{}}
if env.get("ACCSAT_TUNE"):
    chosen = {{k["kernel"]: k["config"] for k in json.load(open(env["ACCSAT_TUNE"]))["kernels"]}}
with open(env["ACCSAT_STATIC"], "a") as out:
    for kernel, by in figures.items():
        loads, regs = by.get(chosen.get(kernel, config), by["orig"])
        file, line = kernel.split(":")
        out.write(json.dumps(dict(file=file, line=int(line), hash=hashes[kernel],
            construct="acc parallel loop", entry=kernel, registers=regs, spill=0,
            block=None, loads=loads, instructions=2 * loads)) + "\\n")
with open("app", "w") as app:
    app.write("echo ok")
"""


def tune_static(folder: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "accsat.cli",
            "tune",
            "--static",
            "--build",
            f"{sys.executable} build.py",
            "--no-progress",
            *extra,
        ],
        cwd=folder,
        capture_output=True,
        text=True,
    )


def rows(path: Path) -> list[dict]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


@pytest.fixture
def fake(isolated: Path) -> Path:
    folder = isolated / "fake"
    folder.mkdir()
    (folder / "build.py").write_text(FAKE_BUILD)
    return folder


def test_static_tuning_keeps_occupancy_and_saves_what_loads_it_can(fake):
    done = tune_static(fake, "--run", "sh app", "--check", "^ok$")
    assert done.returncode == 0, done.stderr
    db = load(fake / "accsat-tune.json")
    assert {e.kernel: e.config for e in db.kernels} == {"k.c:3": "cse@keep", "k.c:9": "orig"}
    assert db.info["static"]
    static = rows(fake / "accsat-tune" / "static.csv")
    # by default every variant within any and within keep is built, then tuned
    assert list(dict.fromkeys(r["config"] for r in static)) == ["orig", *BUDGETED, "tuned"]
    tuned = {r["kernel"]: r for r in static if r["config"] == "tuned"}
    assert tuned["k.c:3"]["loads"] == "80" and tuned["k.c:3"]["lost"] == "False"
    lost = {r["config"] for r in static if r["lost"] == "True"}
    assert lost == {"cse@any", "accsat@any"}  # 134 and 200 registers against 40
    chosen = {
        r["kernel"]: (r["kept"], r["reason"]) for r in rows(fake / "accsat-tune" / "choice.csv")
    }
    assert chosen["k.c:9"][0] == "not rewritten"
    assert "loads 100 -> 80" in chosen["k.c:3"][1]
    # the terminal table: per configuration, loads and kernels that lost occupancy
    assert "tuned" in done.stdout and "2 kernels: 1 cse@keep, 1 orig" in done.stdout


def test_without_the_budgeted_twins_every_saving_loses_and_orig_stays(fake):
    done = tune_static(fake, "--variants", "cse@any,accsat@any")
    assert done.returncode == 0, done.stderr
    db = load(fake / "accsat-tune.json")
    assert {e.config for e in db.kernels} == {"orig"}
    assert "orig kept: 1 loses occupancy, 1 not rewritten" in done.stdout


def test_run_is_needed_unless_static_and_a_failed_check_writes_no_database(fake):
    done = subprocess.run(
        [sys.executable, "-m", "accsat.cli", "tune", "--build", "true"],
        cwd=fake,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and "--run" in done.stderr
    done = tune_static(fake, "--variants", "cse@keep", "--run", "sh app", "--check", "^never$")
    assert done.returncode == 1 and "no database written" in done.stderr
    assert not (fake / "accsat-tune.json").exists()
    done = tune_static(fake, "--variants", "cse@many")
    assert done.returncode == 2 and "unknown config 'cse@many'" in done.stderr


NO_PTXAS = """\
import json, os
with open(os.environ["ACCSAT_STATIC"], "a") as out:
    out.write(json.dumps(dict(file="k.c", line=3, hash="h3", construct="acc parallel loop",
        entry=None, why="no ptxas on the PATH")) + "\\n")
"""


@pytest.mark.parametrize(
    "build, said",
    [
        ("pass\n", "accsat-cc recorded none (does --build compile through accsat-cc"),
        (NO_PTXAS, "(no ptxas on the PATH): --static needs gcc's nvptx offload compiler and ptxas"),
    ],
)
def test_a_build_without_figures_says_what_is_missing(fake, build, said):
    (fake / "build.py").write_text(build)
    done = tune_static(fake)
    assert done.returncode == 1
    assert "orig did not pass (build failed: no device code figures" in done.stderr
    assert said in done.stderr and "Traceback" not in done.stderr
    assert "--root" not in done.stderr  # the build passed: no hint about what it reaches


@needs_gcc
@needs_offload
def test_accsat_cc_records_the_device_code_of_each_construct(project):
    """The real figures: the two-kernel program built with nvptx offloading; its OpenACC
    construct compiles to one entry (the OpenMP one is host code)."""
    flags = ["-O3", "-fopenacc", *OFFLOAD_FLAGS]
    figures = project / "static.jsonl"
    done = subprocess.run(
        f"{CC} {' '.join(flags)} -c two.c -o two.o",
        shell=True,
        cwd=project,
        env={**os.environ, "ACCSAT_STATIC": str(figures), "ACCSAT_VARIANT": "cse"},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    found = [json.loads(line) for line in figures.read_text().splitlines()]
    assert [(r["file"], r["line"], r["construct"]) for r in found] == [
        ("two.c", STENCIL_LINE, "acc parallel loop"),
        ("two.c", SCALE_LINE, "omp parallel for"),
    ]
    r, host = found
    assert host["entry"] is None and host["why"] == "no device code (a host construct)"
    assert r["registers"] > 0 and r["loads"] > 0 and r["spill"] == 0
    assert occupancy(r["registers"], r["block"]) > 0
