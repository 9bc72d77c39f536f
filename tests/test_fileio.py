"""accsat/fileio.py: atomic writes that keep modes, honour the umask and replace only files."""

from __future__ import annotations

import os
import stat

import pytest

from accsat.fileio import append_lines, write_atomically


def test_new_file_gets_the_umask_mode(tmp_path):
    old = os.umask(0o027)
    try:
        write_atomically(tmp_path / "a.c", "int x;\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "a.c").stat().st_mode) == 0o640
    assert (tmp_path / "a.c").read_text() == "int x;\n"


def test_existing_file_keeps_its_mode_and_private_mode_is_kept(tmp_path):
    path = tmp_path / "b.c"
    path.write_text("old")
    path.chmod(0o751)
    write_atomically(path, "new")
    assert stat.S_IMODE(path.stat().st_mode) == 0o751 and path.read_text() == "new"
    write_atomically(tmp_path / "p", "secret", mode=0o600)
    assert stat.S_IMODE((tmp_path / "p").stat().st_mode) == 0o600


def test_only_regular_files_are_replaced(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="not a regular file"):
        write_atomically(fifo, "x")
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo"]  # no temporary left


def test_undecodable_bytes_round_trip(tmp_path):
    text = b'char *s = "\xe9";\n'.decode("utf-8", "surrogateescape")
    write_atomically(tmp_path / "l.c", text)
    assert (tmp_path / "l.c").read_bytes() == b'char *s = "\xe9";\n'


def test_bytes_are_written_as_they_are(tmp_path):
    target = tmp_path / "blob"
    write_atomically(target, b"\x89PNG\xff\x00")
    assert target.read_bytes() == b"\x89PNG\xff\x00"


def test_appended_lines_from_many_processes_stay_whole(tmp_path):
    import multiprocessing

    target = tmp_path / "r.jsonl"
    line = "x" * 70000 + "\n"  # beyond a pipe's atomic size: the lock keeps it whole
    with multiprocessing.get_context("fork").Pool(4) as pool:
        pool.starmap(append_lines, [(target, line * 3)] * 8)
    assert target.read_text().splitlines() == [line.strip()] * 24


def test_appending_to_a_fifo_nobody_reads_fails_at_once(tmp_path):
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    with pytest.raises(OSError):
        append_lines(fifo, "a\n")
