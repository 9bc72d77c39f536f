"""-o writes regular files only, with the umask's mode; what it cannot write is one line."""

from __future__ import annotations

import os
import stat

import pytest

from .conftest import KERNEL, accsat, one_line


def test_new_file_gets_the_umask_mode(cfile, tmp_path):
    cfile(KERNEL)
    res = accsat("rewrite", "k.c", "-o", "new.c", cwd=tmp_path, preexec_fn=lambda: os.umask(0o027))
    assert res.returncode == 0, res.stderr
    assert stat.S_IMODE((tmp_path / "new.c").stat().st_mode) == 0o640


@pytest.mark.parametrize("target", ["missing/dir/x.c", "folder", "fifo"])
def test_what_cannot_be_written_is_one_line(target, cfile, tmp_path):
    cfile(KERNEL)
    (tmp_path / "folder").mkdir()
    os.mkfifo(tmp_path / "fifo")
    before = sorted(p.name for p in tmp_path.iterdir())
    res = accsat("rewrite", "k.c", "-o", target, cwd=tmp_path)
    assert res.returncode == 2 and res.stdout == ""
    assert target.split("/")[0] in one_line(res.stderr)
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing created or replaced
    assert stat.S_ISFIFO((tmp_path / "fifo").stat().st_mode)


@pytest.mark.parametrize(
    "option", [["rewrite", "--report"], ["check", "--variant", "cse", "--json"]]
)
def test_unwritable_report_is_one_line(option, cfile, tmp_path):
    cfile(KERNEL)
    res = accsat(option[0], "k.c", *option[1:], "missing/r.jsonl", cwd=tmp_path)
    assert res.returncode == 2
    assert "missing/r.jsonl" in one_line(res.stderr)
