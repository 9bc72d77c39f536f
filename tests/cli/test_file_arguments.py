"""File names and output targets a compiler accepts: ``./-dash.c``, ``-o /dev/null``,
``-o /dev/stdout``, ``-o -``, ``-o`` through a symbolic link; input bytes that are not UTF-8."""

from __future__ import annotations

import pytest

from .conftest import KERNEL, accsat, one_line

LATIN1 = (
    b"double a[16], b[16];\n/* caf\xe9 */\nvoid f(int n) {\n  int i;\n"
    b"  #pragma acc parallel loop\n"
    b"  for (i = 0; i < n; i++) { b[i] = a[i] * a[i] + a[i]; }\n}\n"
)


@pytest.mark.parametrize(
    "command", [["rewrite"], ["check", "--variant", "cse"], ["advise", "--no-pressure"]]
)
def test_a_file_whose_name_starts_with_a_dash(command, tmp_path):
    (tmp_path / "-dash.c").write_text(KERNEL)
    res = accsat(*command, "./-dash.c", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "-dash.c:5" in res.stdout if command[0] != "rewrite" else "_v0" in res.stdout


def test_output_to_dev_null_and_dev_stdout(cfile, tmp_path):
    cfile(KERNEL)
    res = accsat("rewrite", "k.c", "-o", "/dev/null", cwd=tmp_path)
    assert (res.returncode, res.stdout, res.stderr) == (0, "", "")
    printed = accsat("rewrite", "k.c", cwd=tmp_path).stdout
    for stdout in ("/dev/stdout", "-"):  # "-" as gcc -E -o - reads it
        res = accsat("rewrite", "k.c", "-o", stdout, cwd=tmp_path)
        assert res.returncode == 0 and res.stdout == printed and "_v0" in printed
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.c"]


def test_output_through_a_symlink_updates_its_target(cfile, tmp_path):
    cfile(KERNEL)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "real.c").write_text("old\n")
    (tmp_path / "link.c").symlink_to("out/real.c")
    res = accsat("rewrite", "k.c", "-o", "link.c", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "link.c").is_symlink()
    assert "_v0" in (tmp_path / "out" / "real.c").read_text()
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["real.c"]


def test_output_to_a_folder_is_one_line(cfile, tmp_path):
    cfile(KERNEL)
    (tmp_path / "folder").mkdir()
    res = accsat("rewrite", "k.c", "-o", "folder", cwd=tmp_path)
    assert res.returncode == 2 and "folder" in one_line(res.stderr)


def test_latin1_bytes_through_advise_check_and_rewrite(tmp_path):
    (tmp_path / "l.c").write_bytes(LATIN1)
    res = accsat("advise", "l.c", cwd=tmp_path, text=False)
    assert res.returncode == 0 and b"Traceback" not in res.stderr, res.stderr
    assert b"== l.c:6 f()" in res.stdout
    res = accsat("check", "--variant", "cse", "l.c", cwd=tmp_path, text=False)
    assert res.returncode == 0 and b"pass" in res.stdout
    res = accsat("rewrite", "l.c", cwd=tmp_path, text=False)
    assert res.returncode == 0 and b"/* caf\xe9 */" in res.stdout and b"_v0" in res.stdout
