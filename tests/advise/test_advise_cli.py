"""``accsat advise`` on the command line."""

from __future__ import annotations

import json
import subprocess
import sys

from click.testing import CliRunner

from accsat.cli import main

KERNEL = """#define N 64
double a[N][N], b[N][N];
void f(void) {
  int i, j;
  #pragma acc parallel loop gang
  for (j = 0; j < N; j++) {
    #pragma acc loop vector
    for (i = 0; i < N; i++)
      b[j][i] = a[i][j] * SCALE;
  }
}
"""


def run(*args):
    return CliRunner().invoke(main, ["advise", *args], catch_exceptions=False)


def test_table_and_json(tmp_path):
    path = tmp_path / "t.c"
    path.write_text(KERNEL)
    res = run(str(path), "-DSCALE=2.0", "--no-pressure")
    assert res.exit_code == 0, res.output
    assert f"== {path}:8 f()" in res.output and "uncoalesced" in res.output
    res = run(str(path), "-D", "SCALE=2.0", "--json", "--no-pressure", "--no-rewrite")
    doc = json.loads(res.output)
    assert [(a["array"], a["class"]) for a in doc["accesses"]] == [
        ("a", "uncoalesced"),
        ("b", "coalesced"),
    ]
    assert path.read_text() == KERNEL  # never modified


def test_without_an_nvptx_compiler_pressure_is_a_note(tmp_path, monkeypatch):
    from accsat.advise import pressure

    monkeypatch.setattr(pressure, "unavailable", lambda compiler="gcc": "no offload here")
    path = tmp_path / "t.c"
    path.write_text(KERNEL)
    res = run(str(path), "-DSCALE=2.0", "--no-rewrite")
    assert res.exit_code == 0
    assert res.output.rstrip().endswith("note: register pressure skipped: no offload here")


def test_bad_input_is_one_line(tmp_path):
    path = tmp_path / "bad.c"
    path.write_text("void f(void) { int x = ; }\n")
    proc = subprocess.run(
        [sys.executable, "-m", "accsat.cli", "advise", str(path)], capture_output=True, text=True
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "bad.c:1" in proc.stderr


def test_help_lists_advise():
    res = CliRunner().invoke(main, ["--help"])
    assert "advise" in res.output
