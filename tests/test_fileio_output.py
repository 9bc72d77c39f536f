"""accsat/fileio.py: a command's output file (``-o``) goes where a compiler's would, and
a file name is spelled so that a program never takes it for an option."""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from accsat.fileio import readable, write_atomically, write_output


def test_a_symlink_keeps_being_a_link_and_its_target_is_replaced(tmp_path):
    target = tmp_path / "real.c"
    target.write_text("old")
    target.chmod(0o640)
    link = tmp_path / "link.c"
    link.symlink_to("real.c")
    write_output(link, "new")
    assert link.is_symlink() and os.readlink(link) == "real.c"
    assert target.read_text() == "new" and stat.S_IMODE(target.stat().st_mode) == 0o640
    write_atomically(link, "newer")  # every atomic write follows the link
    assert link.is_symlink() and target.read_text() == "newer"


def test_a_dangling_symlink_creates_its_target(tmp_path):
    link = tmp_path / "link.c"
    link.symlink_to("sub/real.c")
    (tmp_path / "sub").mkdir()
    write_output(link, "x")
    assert link.is_symlink() and (tmp_path / "sub" / "real.c").read_text() == "x"


def test_dev_null_is_written_in_place():
    write_output("/dev/null", "anything")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


@pytest.mark.parametrize("redirect", ["pipe", "file"])
def test_dev_stdout_reaches_the_callers_stdout(tmp_path, redirect):
    code = "from accsat.fileio import write_output; write_output('/dev/stdout', 'a\\xe9 b\\n')"
    if redirect == "pipe":
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True).stdout
    else:
        dest = tmp_path / "out.txt"
        with dest.open("wb") as f:
            subprocess.run([sys.executable, "-c", code], stdout=f, check=True)
        out = dest.read_bytes()
        assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]  # nothing beside it
    assert out == "a\xe9 b\n".encode()


def test_a_folder_and_a_fifo_nobody_reads_fail_at_once(tmp_path):
    with pytest.raises(OSError) as exc:
        write_output(tmp_path, "x")
    assert exc.value.errno == errno.EISDIR
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="a FIFO no process reads"):
        write_output(fifo, "x")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo"]


def test_a_fifo_with_a_reader_gets_the_bytes(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader there before the write
    try:
        write_output(fifo, "through\n")
        assert os.read(reader, 100) == b"through\n"
    finally:
        os.close(reader)


def test_a_dash_name_is_made_absolute_for_a_program(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert readable("./-dash.c") == tmp_path / "-dash.c"
    assert readable("a/-b.c") == Path("a/-b.c")


def test_a_writable_file_in_a_folder_we_may_not_write_is_written_in_place(tmp_path, monkeypatch):
    from accsat import fileio

    def no_temporary(path, data, **kw):  # what a folder of mode 555 does to a user
        raise PermissionError(errno.EACCES, "Permission denied", str(tmp_path / ".tmp"))

    monkeypatch.setattr(fileio, "write_atomically", no_temporary)
    target = tmp_path / "out.c"
    target.write_text("old text, longer than the new")
    write_output(target, "new")
    assert target.read_text() == "new"
    with pytest.raises(PermissionError):  # a new file cannot be made in place either
        write_output(tmp_path / "new.c", "x")
