"""accsat.toolchain.process: the one process runner (timeouts, process groups, output)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import accsat
from accsat.toolchain import process

ROOT = Path(accsat.__file__).resolve().parent.parent
RUNNER = ROOT / "accsat" / "toolchain" / "process.py"


def gone(pid: int, within: float = 10.0) -> bool:
    """``pid`` has ended (a zombie waiting for init counts) within ``within`` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.05)
    return False


def test_capture_returns_the_status_and_both_streams(tmp_path):
    done = process.capture(
        ["/bin/sh", "-c", "pwd; echo oops >&2; exit 3"], cwd=tmp_path, timeout=30
    )
    assert (done.returncode, done.ok, done.timed_out) == (3, False, False)
    assert done.out == f"{tmp_path}\n" and done.err == "oops\n"
    assert process.capture(["/bin/sh", "-c", "cat"], timeout=30).stdout == b""  # stdin: empty


def test_capture_kills_the_whole_group_at_the_timeout(tmp_path):
    """The shell and the sleep it left in the background both end; what was printed stays."""
    pids = tmp_path / "pids"
    done = process.capture(
        ["/bin/sh", "-c", f"sleep 600 & echo $! > {pids}; echo started; wait"], timeout=1
    )
    assert done.timed_out and done.returncode is None and not done.ok
    assert done.out == "started\n"
    assert gone(int(pids.read_text()))


def _wait_for(path: Path, within: float = 30.0) -> None:
    deadline = time.monotonic() + within
    while not path.exists():
        assert time.monotonic() < deadline, f"{path} never came"
        time.sleep(0.01)


def test_started_runs_while_the_caller_works(tmp_path):
    """The command waits for a file the caller makes inside the context: it ran beside
    the caller (a start that waited for the command first would time out)."""
    go = tmp_path / "go"
    script = f"while [ ! -e {go} ]; do sleep 0.01; done; echo went"
    with process.started(["/bin/sh", "-c", script], timeout=30) as result:
        go.touch()
        done = result()
    assert done.ok and done.out == "went\n"
    assert result() is done  # asked again: the same answer


def test_started_is_waited_for_when_not_asked(tmp_path):
    mark = tmp_path / "mark"
    with process.started(["/bin/sh", "-c", f"sleep 0.2; touch {mark}"], timeout=30):
        pass
    assert mark.exists()


def test_started_is_killed_when_the_caller_raises(tmp_path):
    pids = tmp_path / "pids"
    script = f"sleep 600 & echo $! > {pids}.tmp; mv {pids}.tmp {pids}; wait"
    with pytest.raises(KeyError), process.started(["/bin/sh", "-c", script], timeout=600):
        _wait_for(pids)
        raise KeyError("the caller fails")
    assert gone(int(pids.read_text()))


def test_a_command_that_ended_while_the_caller_worked_past_its_timeout_gives_its_output(
    tmp_path,
):
    """The timeout is counted from the start; one that ended in time is not killed
    because the caller asked late."""
    pid = tmp_path / "pid"
    script = f"echo said; echo $$ > {pid}.tmp; mv {pid}.tmp {pid}"
    start = time.monotonic()
    with process.started(["/bin/sh", "-c", script], timeout=0.2) as result:
        _wait_for(pid)
        assert gone(int(pid.read_text()))
        time.sleep(max(0.0, start + 0.3 - time.monotonic()))
        done = result()
    assert not done.timed_out and done.ok and done.out == "said\n"


def test_a_command_that_cannot_start_raises_oserror(tmp_path):
    with pytest.raises(FileNotFoundError):
        process.capture([str(tmp_path / "no-such-tool")], timeout=30)
    with pytest.raises(FileNotFoundError):
        process.foreground([str(tmp_path / "no-such-compiler")], capture=True)


def test_foreground_keeps_the_callers_process_group():
    probe = "import os; print(os.getpgid(0))"
    done = process.foreground([sys.executable, "-c", probe], capture=True)
    assert done.ok and int(done.out) == os.getpgid(0)
    alone = process.capture([sys.executable, "-c", probe], timeout=60)
    assert int(alone.out) != os.getpgid(0)


def test_run_writes_to_files_and_times_out(tmp_path):
    out, err = tmp_path / "out", tmp_path / "err"
    done = process.run(["/bin/sh", "-c", "echo a; echo b >&2"], tmp_path, {}, 30, out, err)
    assert (done.returncode, done.timed_out) == (0, False)
    assert (out.read_text(), err.read_text()) == ("a\n", "b\n")
    done = process.run(["/bin/sh", "-c", "echo c; sleep 600"], tmp_path, {}, 1, out, append=True)
    assert done.timed_out and done.returncode is None and out.read_text() == "a\nc\n"


def test_timed_runs_have_a_fixed_memory_layout(tmp_path):
    """Address-space randomisation off for timed runs, and for the processes they start."""
    if not os.path.exists("/proc/self/personality"):
        pytest.skip("no /proc/self/personality (not Linux)")
    out = tmp_path / "out"
    for timed, expected in ((False, 0), (True, 0x0040000)):
        process.run(
            ["/bin/sh", "-c", "cat /proc/self/personality"], tmp_path, {}, 30, out, timed=timed
        )
        assert int(out.read_text(), 16) & 0x0040000 == expected


def starters(path: Path) -> list[str]:
    """How ``path`` starts child processes other than through the runner."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = (
                [node.module] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
            )
            found += [
                f"{path.name}:{node.lineno}: imports subprocess" for n in names if n == "subprocess"
            ]
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "os"
            and node.attr in ("system", "popen", "spawnv", "spawnvp", "posix_spawn")
        ):
            found.append(f"{path.name}:{node.lineno}: os.{node.attr}")
    return found


def test_every_child_process_goes_through_the_runner():
    files = [
        p
        for pkg in ("accsat", "npb_harness", "spec_harness")
        for p in sorted((ROOT / pkg).rglob("*.py"))
        if p != RUNNER
    ]
    assert files and [s for p in files for s in starters(p)] == []


def test_the_check_finds_a_direct_call(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import os\nfrom subprocess import run\nos.system('ls')\n")
    assert starters(bad) == ["bad.py:2: imports subprocess", "bad.py:3: os.system"]


END = """
import atexit, sys, threading, time
from accsat.toolchain.process import end
atexit.register(lambda: open(sys.argv[1], "w").write("handlers ran"))
sys.stdout.write("buffered, no newline")
if sys.argv[3] == "thread":  # a thread of Python's: the usual exit, which waits for it
    threading.Thread(target=lambda: (time.sleep(0.3), print(" and the thread's"))).start()
code = sys.argv[2]
end(int(code) if code.isdigit() else float(code) if code == "2.5" else code)
"""


@pytest.mark.parametrize(
    "code, threads, status, out, err",
    [
        ("3", "", 3, "buffered, no newline", ""),
        ("0", "", 0, "buffered, no newline", ""),
        ("no such file", "", 1, "buffered, no newline", "no such file\n"),
        ("2.5", "", 1, "buffered, no newline", "2.5\n"),
        ("0", "thread", 0, "buffered, no newline and the thread's\n", ""),
    ],
)
def test_end_exits_as_sys_exit_would(tmp_path, code, threads, status, out, err):
    """process.end: the status sys.exit would give, the exit handlers run, what the
    streams buffered written; with a thread of Python's running, it waits for it."""
    mark = tmp_path / "mark"
    done = subprocess.run(
        [sys.executable, "-c", END, str(mark), code, threads], capture_output=True, text=True
    )
    assert (done.returncode, done.stdout, done.stderr) == (status, out, err)
    assert mark.read_text() == "handlers ran"


def test_resident_memory_is_read_in_a_forked_child_that_closed_every_descriptor():
    """A forked child opens /proc/self/statm itself (the parent's descriptor forgotten at
    the fork), as share's helper does after closing every descriptor it does not use: it
    read 0 there, so a helper's saturation had no memory limit."""
    script = (
        "import os\nfrom accsat.toolchain import process\n"
        "assert process.resident_mb() > 0\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    os.closerange(3, 1024)\n"
        "    again = open(os.devnull)  # may take the number the parent's had\n"
        "    ok = process.resident_mb() > 0 and process.resident_mb() > 0\n"
        "    os._exit(0 if ok and not again.closed and os.fstat(again.fileno()) else 1)\n"
        "_, status = os.waitpid(pid, 0)\n"
        "raise SystemExit(os.waitstatus_to_exitcode(status))\n"
    )
    assert subprocess.run([sys.executable, "-c", script]).returncode == 0
