"""A kernel in a header (issue 37) built through accsat-cc: its rewritten copy is read in
its place from the private folder, the user's header untouched; the program prints what
gcc's build of the original prints; the dependency file and the diagnostics name the
user's header and lines as gcc's do."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.frontend.test_headers import HEADER, UTIL

from .conftest import ACC, needs_gcc, wrap

# the header's kernel with a variable that gcc warns about (its line: 10)
WARNED = HEADER.replace(
    "    double t = a[i] * a[i] + s;\n", "    double t = a[i] * a[i] + s;\n    int unused;\n"
)
MAIN = """\
#include <stdio.h>
#include "k.h"

double a[64], b[64];

int main(void)
{
  for (int i = 0; i < 64; i++) a[i] = i * 0.25;
  scale(64, b, a, 0.5);
  printf("%a\\n", b[3] + b[60]);
  return 0;
}
"""


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "proj"
    (root / "inc").mkdir(parents=True)
    (root / "inc" / "k.h").write_text(WARNED)
    (root / "inc" / "util.h").write_text(UTIL)
    (root / "main.c").write_text(MAIN)
    return root


@needs_gcc
@pytest.mark.parametrize("variant", ["cse", "accsat"])
def test_a_header_kernel_is_compiled_from_its_rewritten_copy(project, tmp_path, env, variant):
    flags = ["-Wall", "-O1", "-ffp-contract=off", *ACC, "-Iinc"]
    report = tmp_path / "report.jsonl"
    keep = tmp_path / "keep"
    r = wrap(
        project,
        env,
        "gcc",
        *flags,
        "-MD",
        "-c",
        "main.c",
        "-o",
        "new.o",
        ACCSAT_VARIANT=variant,
        ACCSAT_REPORT=str(report),
        ACCSAT_KEEP=str(keep),
        ACCSAT_STRICT="1",
    )
    assert r.returncode == 0, r.stderr
    (row,) = [json.loads(line) for line in report.read_text().splitlines()]
    assert (row["status"], row["file"], row["line"], row["compiled"]) == (
        "rewritten",
        "inc/k.h",
        8,
        "main.c",
    ), row["reason"]
    kept = (keep / str(project / "inc" / "k.h").lstrip("/")).read_text()
    assert kept.startswith('#line 1 "inc/k.h"\n') and "_v0" in kept
    assert (project / "inc" / "k.h").read_text() == WARNED  # the user's, untouched
    plain = subprocess.run(
        ["gcc", *flags, "-MD", "-c", "main.c", "-o", "old.o"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    # the same warning, at the same line of the user's header
    warned = [line for line in r.stderr.split("\n") if "warning:" in line]
    assert warned == [line for line in plain.stderr.split("\n") if "warning:" in line]
    assert warned and warned[0].startswith("inc/k.h:10:")
    deps = [(project / d).read_text().replace(f"{d[:3]}.o:", "o:") for d in ("new.d", "old.d")]
    assert deps[0] == deps[1] and "inc/k.h" in deps[0]
    for obj in ("new", "old"):
        subprocess.run(["gcc", *ACC, f"{obj}.o", "-o", obj], cwd=project, check=True)
    runs = [
        subprocess.run([str(project / x)], capture_output=True, check=True) for x in ("old", "new")
    ]
    assert runs[0].stdout == runs[1].stdout


@needs_gcc
@pytest.mark.parametrize("extra", [[], ["-DEXTRA"]], ids=["plain", "extra"])
def test_a_header_kernel_with_a_conditional_group(project, tmp_path, env, extra):
    """The group is marked in a copy of the header read in its place (load.py)."""
    header = project / "inc" / "k.h"
    header.write_text(
        HEADER.replace(
            "    double t = a[i] * a[i] + s;\n",
            "    double t = a[i] * a[i] + s;\n#ifdef EXTRA\n    t = t * a[i] + 1.0;\n#endif\n",
        )
    )
    flags = ["-O1", "-ffp-contract=off", *ACC, "-Iinc", *extra, "main.c"]
    report = tmp_path / "report.jsonl"
    r = wrap(project, env, "gcc", *flags, "-o", "new", ACCSAT_REPORT=str(report), ACCSAT_STRICT="1")
    assert r.returncode == 0, r.stderr
    (row,) = [json.loads(line) for line in report.read_text().splitlines()]
    assert (row["status"], row["file"]) == ("rewritten", "inc/k.h"), row["reason"]
    subprocess.run(["gcc", *flags, "-o", "old"], cwd=project, check=True)
    runs = [
        subprocess.run([str(project / x)], capture_output=True, check=True) for x in ("old", "new")
    ]
    assert runs[0].stdout == runs[1].stdout
