"""accsat-cc's remarks: off by default (a build says what it said before), on with
ACCSAT_REMARKS or with the compiler's own request (-fopt-info, passed on too)."""

from __future__ import annotations

from .conftest import ACC, KERNEL, needs_gcc, wrap

pytestmark = needs_gcc

LEFT = """\
void left(int n, double *a)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    a[i] = 1.0;
    goto done;
  done:;
  }
}
"""


def _compile(project, env, *flags, **settings):
    (project / "left.c").write_text(LEFT)
    return wrap(project, env, "gcc", "-c", *ACC, *flags, "k.c", "left.c", **settings)


def test_off_by_default(project, env):
    r = _compile(project, env)
    assert r.returncode == 0 and r.stderr == ""


def test_all_one_remark_per_kernel(project, env):
    r = _compile(project, env, ACCSAT_REMARKS="all")
    assert r.returncode == 0
    assert r.stderr.splitlines() == [
        "k.c:5:3: remark: accsat: rewritten (cse): loads 6 -> 2, ops 6 -> 5",
        "left.c:4:3: remark: accsat: left as written: 'goto' statement in the loop body (line 6)",
    ]


def test_missed_only(project, env):
    r = _compile(project, env, ACCSAT_REMARKS="missed")
    assert [x.split(": remark:")[0] for x in r.stderr.splitlines()] == ["left.c:4:3"]


def test_the_compilers_request_is_passed_on_and_answered(project, env):
    r = _compile(project, env, "-fopt-info-missed")
    said = r.stderr.splitlines()
    assert r.returncode == 0
    assert "left.c:4:3: remark: accsat: left as written: 'goto' statement" in said[0]
    assert not any(": remark: accsat: rewritten" in x for x in said)
    # gcc's own, after ours: the flag reached it (its -fopt-info-missed lines, or none)
    assert all(": remark: " not in x for x in said[1:])
    assert r.returncode == 0


def test_a_rewrite_that_does_not_compile_is_said_as_left(project, env, tmp_path):
    """The remark follows the decision: the original was compiled (the compile of the
    rewritten source failed: here -Werror with a warning accsat's output would not give
    is simulated by a compiler that fails on the private copy only)."""
    fake = tmp_path / "cc"
    fake.write_text(
        '#!/bin/sh\nfor a do case $a in */accsat-cc-*/*) exit 1;; esac; done\nexec gcc "$@"\n'
    )
    fake.chmod(0o755)
    r = wrap(project, env, str(fake), "-c", *ACC, "k.c", ACCSAT_REMARKS="all")
    assert r.returncode == 0
    assert (
        "k.c:5:3: remark: accsat: left as written: the rewritten source did not compile "
        "(the original was compiled)" in r.stderr.splitlines()
    )


def test_records(project, env, tmp_path):
    """ACCSAT_RECORD: a record per kernel, its lines without accsat-cc's #line directives."""
    import json

    path = tmp_path / "build.jsonl"
    r = _compile(project, env, ACCSAT_RECORD=str(path), ACCSAT_REPORT=str(tmp_path / "r.jsonl"))
    assert r.returncode == 0 and r.stderr == ""
    rows = [json.loads(x) for x in path.read_text().splitlines()]
    assert [(x["file"], x["line"], x["column"], x["status"]) for x in rows] == [
        ("k.c", 5, 3, "rewritten"),
        ("left.c", 4, 3, "unchanged"),
    ]
    rewritten = rows[0]["bodies"]["rewritten"]
    assert "_v0" in rewritten and "#line" not in rewritten
    assert rows[0]["bodies"]["original"] == "".join(KERNEL.splitlines(True)[4:8]).rstrip("\n")
    report = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert [x["line"] for x in report] == [5, 4] and "bodies" not in report[0]
