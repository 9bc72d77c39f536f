"""A file's kernels shared by a lead and a helper (toolchain/share.py, pipeline._shared):
the file is the serial one whatever the helper does: helps, dies, loads another text,
or never comes."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from accsat import pipeline
from accsat.frontend.load import load
from accsat.options import Options
from accsat.pipeline import largest_first, prepare, rewrite_file
from accsat.toolchain.share import (
    BODIES,
    DONE,
    HELLO,
    KERNEL,
    POSITIONS,
    VERDICT,
    Share,
    idle_cores,
    pipes,
    task_queue,
)

KERNELS = """
void f(int n, double *restrict a, const double *restrict b, double c)
{
    int i;
{loops}
}
"""
LOOP = """
#pragma acc parallel loop
    for (i = 1; i < n - 1; i++) {{
        a[i] = b[i - 1] * c + b[i] * {k}.0 + b[i + 1] * c + b[i - 1] * b[i] * {k}.0;
    }}
"""
HELPER = """
import os, sys
from pathlib import Path
from accsat.options import Options
from accsat.pipeline import help_rewrite
from accsat.toolchain.share import Share
tasks, inbox, outbox = (int(a) for a in sys.argv[1:4])
help_rewrite(Path(sys.argv[4]), Options(), Share(tasks, inbox, outbox))
"""


@pytest.fixture
def source(tmp_path: Path) -> Path:
    path = tmp_path / "k.c"
    path.write_text(KERNELS.replace("{loops}", "".join(LOOP.format(k=k) for k in range(2, 8))))
    return path


def _helper(path: Path, script: str = HELPER) -> tuple[Share, subprocess.Popen]:
    """The lead's share, and a helper (a fresh Python: egglog may not be forked) on it."""
    lead, helping = pipes()
    proc = subprocess.Popen(
        [sys.executable, "-c", script, *map(str, helping), str(path)],
        pass_fds=helping,
        stdout=subprocess.DEVNULL,
    )
    for fd in helping:
        os.close(fd)
    return Share(*lead), proc


def _answered(proc: subprocess.Popen) -> None:
    proc.kill()
    proc.wait()


def test_the_helper_answers_kernels_then_rereads(source: Path):
    """What a helper sends: hello (its pid and digest), a result per kernel it took,
    done; given the bodies of some of them (as the compiler reads them: no macros here),
    a re-read verdict for each ("": the body is the extracted program)."""
    lead, proc = _helper(source)
    messages = [lead.next_message() for _ in range(8)]
    assert messages[0] == (HELLO, proc.pid, load(source).digest)
    assert messages[-1] == (DONE,)
    results = {i: r for tag, i, r in messages[1:-1] if tag == KERNEL}
    assert sorted(results) == list(range(6))  # alone, it took them all
    assert lead.send(BODIES, {i: results[i][1].text for i in (0, 3)})
    verdicts = [lead.next_message(), lead.next_message()]
    proc.wait(timeout=60)
    lead.close()
    assert verdicts == [(VERDICT, 0, ""), (VERDICT, 3, "")]


DIES = HELPER.replace("help_rewrite(", "os._exit(3)\nhelp_rewrite(")
OTHER = HELPER.replace(
    "help_rewrite(Path(sys.argv[4])",
    "Path(sys.argv[4] + '.other.c').write_text(Path(sys.argv[4]).read_text().replace('2.0', '9.0'))\n"
    "help_rewrite(Path(sys.argv[4] + '.other.c')",
)
GARBAGE = HELPER.replace(
    "help_rewrite(", "os.write(outbox, b'\\x10' + b'\\0' * 7 + b'junk')\nhelp_rewrite("
)


@pytest.mark.parametrize(
    "script", [HELPER, DIES, OTHER, GARBAGE], ids=["helps", "dies", "another-text", "garbage"]
)
def test_whatever_the_helper_does_the_file_is_the_serial_one(source: Path, script: str):
    serial = rewrite_file(source, Options())
    share, proc = _helper(source, script)
    try:
        shared = rewrite_file(source, Options(), share=share)
    finally:
        _answered(proc)
        share.close()
    assert shared.text == serial.text
    assert [k.status for k in shared.kernels] == [k.status for k in serial.kernels]
    assert sum(k.status == "rewritten" for k in serial.kernels) == 6


def test_the_queue_gives_each_position_once():
    tasks = task_queue()
    share = Share(tasks, -1, -1)
    got = []
    while (p := share.claim()) is not None:
        got.append(p)
    os.close(tasks)
    assert got == list(range(POSITIONS))


def test_largest_kernel_first(source: Path):
    path = source.with_name("sizes.c")
    text = KERNELS.replace(
        "{loops}", LOOP.format(k=2) + LOOP.format(k=3).replace("b[i] * 3.0;", "b[i] * 3.0 + b[i];")
    )
    path.write_text(text)
    assert largest_first(load(path)) == [1, 0]


def test_idle_cores_is_a_count():
    assert 0 <= idle_cores() <= len(os.sched_getaffinity(0))


def _played_helper(source: Path, digest: bytes | None = None, done: bool = True):
    """The lead's share, and the helper's side played here: it took every kernel and
    answered each (the kernels' results computed here), then said done (if ``done``)."""
    lead, helping = pipes()
    helper = Share(*helping)
    loaded, one = prepare(source, Options())
    helper.send(HELLO, os.getpid(), loaded.digest if digest is None else digest)
    while (position := helper.claim()) is not None and position < 6:
        i = largest_first(loaded)[position]
        helper.send(KERNEL, i, one(i))
    if done:
        helper.send(DONE)
    return Share(*lead), helper


def _not_here(*_args, **_kw):
    raise AssertionError("the lead rewrote a kernel the helper answered")


@pytest.mark.parametrize("done", [True, False])
def test_the_lead_uses_what_the_helper_sent(source: Path, monkeypatch, done: bool):
    """A helper took every kernel and answered each: the lead rewrites none itself and
    its file is the serial one; it sends the helper their bodies for the re-read only
    once the helper said it takes no more kernels (before, the helper may be writing)."""
    serial = rewrite_file(source, Options())
    lead, helper = _played_helper(source, done=done)
    monkeypatch.setattr("accsat.pipeline.rewrite_kernel", _not_here)
    try:
        shared = rewrite_file(source, Options(), share=lead)
        told = list(helper.received())
    finally:
        helper.close()
        lead.close()
    assert shared.text == serial.text
    if done:
        assert [tag for tag, *_ in told] == [BODIES] and sorted(told[0][1]) == list(range(6))
    else:
        assert told == []


def test_a_helper_that_loaded_another_text_is_not_used(source: Path, monkeypatch):
    serial = rewrite_file(source, Options())
    lead, helper = _played_helper(source, digest=b"another text")
    calls = []
    real = pipeline.rewrite_kernel
    monkeypatch.setattr(
        "accsat.pipeline.rewrite_kernel", lambda *a, **k: calls.append(1) or real(*a, **k)
    )
    try:
        shared = rewrite_file(source, Options(), share=lead)
    finally:
        helper.close()
        lead.close()
    assert shared.text == serial.text and len(calls) == 6  # every kernel rewritten here


# ``accsat rewrite`` with its forked helper (share.forked_helper), in a fresh Python: the
# lead waits, before its first kernel, until the helper has taken one, and then for the
# helper's answers however slowly it runs (so that the helper rewrites some kernels
# however the two are scheduled), and says how many it used.
CLI = """
import fcntl, os, struct, sys, termios, time
from accsat.toolchain import share
share.idle_cores = lambda: 2
LEAD, claim, close = os.getpid(), share.Share.claim, share.Share.close
def first_after_helper(self):
    end = time.monotonic() + 120
    while os.getpid() == LEAD and not getattr(self, 'waited', False):
        left = struct.unpack('i', fcntl.ioctl(self.tasks, termios.FIONREAD, b'\\0' * 4))[0]
        self.waited = left < share.POSITIONS * 4 or time.monotonic() > end
        time.sleep(0.005)
    return claim(self)
def said(self):
    if os.getpid() == LEAD:
        sys.stderr.write(f'helped {len(self.kernels)}\\n')
    close(self)
real_cpu = share.Share._cpu
def busy(self):  # as busy as the clock while it lives: the lead waits for its answers
    got = real_cpu(self)
    return None if got is None else (got[0], got[0])
share.Share.claim, share.Share.close, share.Share._cpu = first_after_helper, said, busy
from accsat.cli import main
sys.argv = ['accsat', 'rewrite', *sys.argv[1:]]
main()
"""


def test_accsat_rewrite_shares_with_a_forked_helper(source: Path):
    """``accsat rewrite`` forks a helper (before egglog is imported: its thread is not
    forked) when two cores are idle: the helper rewrites kernels, the file is the one a
    single process prints, and no helper is left running."""
    alone = subprocess.run(
        [sys.executable, "-m", "accsat.cli", "rewrite", "--no-helper", str(source)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    shared = subprocess.run(
        [sys.executable, "-c", CLI, str(source)], capture_output=True, text=True, timeout=300
    )
    assert alone.returncode == shared.returncode == 0, shared.stderr
    assert shared.stdout == alone.stdout and alone.stdout.count("double _v0") == 6
    helped = [
        int(line.split()[1]) for line in shared.stderr.splitlines() if line.startswith("helped")
    ]
    assert helped and helped[0] >= 1, shared.stderr
    end = time.monotonic() + 30  # the helper, told to stop, ends
    while _running(str(source)) and time.monotonic() < end:
        time.sleep(0.05)
    assert not _running(str(source))


def _running(argument: str) -> list[int]:
    """Processes (not zombies) with ``argument`` on their command line."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if argument.encode() in cmdline and state != "Z":
            found.append(int(pid))
    return found


@pytest.mark.parametrize("why", ["no idle core", "threads"])
def test_no_helper_is_forked_when_it_cannot_help(monkeypatch, why: str):
    """Not without two idle cores, nor from a process with a second thread (this
    one has egglog's: a forked helper would wait for it forever)."""
    from accsat.toolchain import share

    assert share.threads() > 1
    monkeypatch.setattr(share, "idle_cores", lambda: 1 if why == "no idle core" else 2)
    with share.forked_helper(_not_here) as got:
        assert got is None
