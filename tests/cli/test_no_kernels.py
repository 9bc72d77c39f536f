"""A file with no compute construct: check says so in one line, rewrite prints it unchanged."""

from __future__ import annotations

from .conftest import accsat

PLAIN = "int twice(int x)\n{\n  return 2 * x;\n}\n"


def test_check_says_so_once(cfile, tmp_path):
    cfile(PLAIN, "plain.c")
    res = accsat("check", "plain.c", cwd=tmp_path)
    assert res.returncode == 0 and res.stderr == ""
    assert res.stdout == "plain.c: no OpenACC/OpenMP compute constructs\n"


def test_rewrite_prints_the_file_unchanged(cfile, tmp_path):
    cfile(PLAIN, "plain.c")
    res = accsat("rewrite", "plain.c", cwd=tmp_path)
    assert res.returncode == 0 and res.stdout == PLAIN
    assert len(res.stderr.splitlines()) <= 1 and "Traceback" not in res.stderr
