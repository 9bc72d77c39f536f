"""A progress bar (kernels done / total) on stderr when it is a terminal, never otherwise."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest

from accsat.options import Options
from accsat.pipeline import rewrite_file

from .conftest import accsat, kernels

pty = pytest.importorskip("pty")


def test_rewrite_file_reports_each_kernel(cfile):
    calls = []
    rewrite_file(
        cfile(kernels(3)),
        Options(variant="cse"),
        progress=lambda done, total: calls.append((done, total)),
    )
    assert calls == [(0, 3), (1, 3), (2, 3), (3, 3)]


def stderr_on_a_terminal(*args: str, cwd) -> tuple[int, str, str]:
    import fcntl
    import struct
    import termios

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    proc = subprocess.Popen(
        [sys.executable, "-m", "accsat.cli", *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=follower,
    )
    os.close(follower)
    chunks: list[bytes] = []

    def read() -> None:  # while it runs: Linux drops what is unread once the child is gone
        while True:
            try:
                data = os.read(leader, 4096)
            except OSError:
                return
            if not data:
                return
            chunks.append(data)

    reader = threading.Thread(target=read)
    reader.start()
    out = proc.stdout.read()
    proc.wait()
    reader.join()
    os.close(leader)
    return proc.returncode, out.decode(), b"".join(chunks).decode()


@pytest.mark.parametrize(
    "command", [["rewrite", "--variant", "cse"], ["check", "--variant", "cse"]], ids=lambda c: c[0]
)
def test_bar_on_a_terminal_for_many_kernels(command, cfile, tmp_path):
    cfile(kernels(5))
    code, out, err = stderr_on_a_terminal(command[0], "k.c", *command[1:], cwd=tmp_path)
    assert code == 0 and "0/5" in err and "kernel" in err
    assert "kernel" not in out.split("\n")[0]  # stdout untouched


def test_no_bar_when_stderr_is_not_a_terminal(cfile, tmp_path):
    cfile(kernels(5))
    res = accsat("rewrite", "k.c", "--variant", "cse", cwd=tmp_path)
    assert res.returncode == 0 and "\r" not in res.stderr and "/5" not in res.stderr
