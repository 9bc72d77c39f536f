"""accsat's own mini-apps (tests/apps/apps.toml, issue 37) built through accsat-cc in
every variant: each prints what gcc's build of the original prints, bit for bit under
``-ffp-contract=off``, and every unit accsat reached is in the report with its kind,
place and status (``benchmarks/apps_census.py tests/apps`` prints them)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib

from accsat.options import VARIANTS
from accsat.report import CALLEE, LOOP_BODY, ROUTINE

HERE = Path(__file__).resolve().parent
APPS = tomllib.loads((HERE / "apps.toml").read_text())
MODEL_FLAGS = {"acc": "-fopenacc", "omp": "-fopenmp"}
CFLAGS = ["-O2", "-ffp-contract=off", "-foffload=disable"]
# the launcher the pip install put beside this Python (the shell script: it decides what
# reaches Python, header kernels included), else the Python side
_LAUNCHER = Path(sys.executable).parent / "accsat-cc"
WRAPPER = [str(_LAUNCHER)] if _LAUNCHER.exists() else [sys.executable, "-m", "accsat.wrapper"]

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")


# bugs these apps found, open: each such app's builds are expected to fail (strict: a
# fix makes them pass, and this entry must go)
KNOWN: dict[str, str] = {}


def cases():
    """Every variant in the first model of each app, the default one in its others."""
    for name, app in APPS.items():
        marks = [pytest.mark.xfail(reason=KNOWN[name], strict=True)] if name in KNOWN else []
        for k, model in enumerate(app["models"]):
            for variant in VARIANTS if k == 0 else ("accsat",):
                yield pytest.param(
                    name, model, variant, id=f"{name}-{model}-{variant}", marks=marks
                )


def build(cwd: Path, prefix: list[str], model: str, out: str, env: dict | None = None) -> str:
    app = APPS[cwd.name]
    cmd = [*prefix, "gcc", *CFLAGS, MODEL_FLAGS[model], *app["sources"], "-o", out, "-lm"]
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stderr


def run(path: Path) -> bytes:
    env = dict(os.environ, OMP_NUM_THREADS="2")
    return subprocess.run([str(path)], capture_output=True, check=True, timeout=60, env=env).stdout


@pytest.fixture
def copy(tmp_path, request) -> Path:
    name = request.node.callspec.params["name"]
    folder = tmp_path / name
    shutil.copytree(HERE / name, folder)
    return folder


@pytest.mark.parametrize("name, model, variant", list(cases()))
def test_an_app_built_through_accsat_cc_prints_what_gcc_s_build_prints(
    copy, tmp_path, name, model, variant
):
    build(copy, [], model, "orig")
    report = tmp_path / "report.jsonl"
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACCSAT_")}
    env.update(
        ACCSAT_REREAD_STRICT="1",
        ACCSAT_STRICT="1",  # a rewritten source that does not compile fails the test
        ACCSAT_VARIANT=variant,
        ACCSAT_REPORT=str(report),
        ACCSAT_CACHE_DIR=str(tmp_path / "cache"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        TMPDIR=str(tmp_path),
    )
    said = build(copy, WRAPPER, model, "new", env)
    assert run(copy / "new") == run(copy / "orig"), said
    rows = [json.loads(line) for line in report.read_text().splitlines()]
    assert rows, f"no unit of {name} reached accsat"
    for row in rows:
        assert row["kind"] in (LOOP_BODY, ROUTINE, CALLEE)
        assert row["file"] and row["line"] > 0
        assert row["status"] in ("rewritten", "unchanged")
        assert row["status"] == "rewritten" or row["reason"], row
