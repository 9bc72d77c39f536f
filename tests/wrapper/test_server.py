"""The compile server: the same answers as in-process, one server however many calls
start it, a safe fallback whenever it cannot answer, and an end when idle or asked."""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest

from accsat.frontend.preprocess import PreprocessOptions
from accsat.options import Options
from accsat.wrapper import cache, client
from accsat.wrapper.rewrite import outcome_of

from .conftest import ACC, KERNEL, lines, needs_gcc, wrap

pytestmark = needs_gcc
BROKEN = "void f(int n) {\n#pragma acc parallel loop\n  for (int i = 0; i < n; i++) x +;\n}\n"


@pytest.fixture
def runtime(monkeypatch):
    """A private XDG_RUNTIME_DIR (short: socket paths are limited), its servers stopped
    (and killed if need be) at the end."""
    folder = Path(tempfile.mkdtemp(prefix="as-"))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(folder))
    # this process keeps accsat's fingerprint; a server computes it when it starts: both
    # must see the code as it is now
    monkeypatch.setattr(cache, "_FINGERPRINT", None)
    yield folder
    where = folder / "accsat"
    if where.is_dir():
        client.stop_servers(where)
        for pid in servers(where):
            os.kill(pid, signal.SIGKILL)
    shutil.rmtree(folder, ignore_errors=True)


def _alive(pid: int) -> bool:
    """Running (a zombie, left to an init that does not reap, has ended)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def servers(where: Path) -> list[int]:
    """The live servers (not their children) serving from ``where``."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            argv = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
            ppid = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if b"accsat.wrapper.server" in b" ".join(argv) and os.fsencode(where) in argv:
            found[int(entry)] = ppid
    return sorted(pid for pid, ppid in found.items() if ppid not in found and _alive(pid))


def wait_for(condition, seconds: float = 60.0) -> bool:
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


@pytest.fixture
def kernel(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.c").write_text(KERNEL)
    (tmp_path / "bad.c").write_text(BROKEN)
    return tmp_path / "k.c"


OPTIONS = Options(
    variant="cse",
    line_directives="k.c",
    preprocess=PreprocessOptions(("-O2",), openacc=True, openmp=False),
)


def ask(
    path: str = "k.c", options: Options = OPTIONS, timeout: float = 120.0, idle: float = 60.0
) -> dict | None:
    answer = client.ask(path, options, timeout, idle, None)
    if answer is None:
        where = client.folder()
        print(
            "in-process:",
            client.why_not,
            sorted(os.listdir(where)),
            [f.read_text() for f in where.glob("*.failed")],
        )
    return answer


# The rewrite as accsat-cc does it, in a fresh interpreter: forking this one would not do
# once a test here has imported egglog (its thread pool is not in a forked child).
REWRITE = """\
import json, sys
from accsat.frontend.preprocess import PreprocessOptions
from accsat.options import Options
from accsat.wrapper import client
from accsat.ccconfig import Config
from accsat.wrapper.rewrite import rewrite
path, server, client.ACK_WAIT = sys.argv[1], sys.argv[2] == "1", float(sys.argv[3])
options = Options(variant="cse", line_directives=path,
                  preprocess=PreprocessOptions(("-O2",), openacc=True, openmp=False))
out = rewrite(path, options, 120.0, Config(server=server, server_idle=60.0, cache_dir=None))
print(json.dumps({"text": out.text, "error": out.error, "cacheable": out.cacheable,
                  "kernels": out.kernels, "why": client.why_not}))
"""


def rewrite_elsewhere(path: str = "k.c", server: bool = False, ack_wait: float = 5.0) -> dict:
    r = subprocess.run(
        [sys.executable, "-c", REWRITE, path, "1" if server else "0", str(ack_wait)],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def fields(outcome) -> tuple:
    """An outcome (or REWRITE's dict) but for the seconds each stage took."""
    get = outcome.get if isinstance(outcome, dict) else lambda name: getattr(outcome, name)
    kernels = [{**k, "seconds": None} for k in get("kernels")]
    return get("text"), get("error"), get("cacheable"), kernels


def test_server_answers_as_in_process(runtime, kernel):
    answer = ask()
    assert answer is not None  # the server answered
    served = outcome_of(answer, "k.c")
    assert served.rewritten == 1
    assert fields(served) == fields(rewrite_elsewhere())
    assert servers(runtime / "accsat")
    # a file accsat cannot read: the same one-line reason
    answer = ask("bad.c", replace(OPTIONS, line_directives="bad.c"))
    assert answer is not None and "error" in answer
    assert fields(outcome_of(answer, "bad.c")) == fields(rewrite_elsewhere("bad.c"))


def test_server_times_out_as_in_process(runtime, kernel):
    assert ask() is not None  # started and warm
    answer = ask(timeout=0.001)
    assert answer == {"error": "k.c: timed out after 0.001 s (ACCSAT_TIMEOUT)", "cacheable": False}


def test_accsat_cc_through_the_server_writes_the_same_file(project, env, runtime):
    env = dict(env, XDG_RUNTIME_DIR=str(runtime), ACCSAT_CACHE="0", ACCSAT_VERBOSE="1")
    kept = {}
    for server in ("0", "1", "1"):  # in-process, then a cold and a warm server
        keep = project / f"keep{len(kept)}"
        r = wrap(
            project, env, "gcc", "-c", *ACC, "k.c", ACCSAT_SERVER=server, ACCSAT_KEEP=str(keep)
        )
        assert r.returncode == 0, r.stderr
        assert lines(r.stderr) == ["accsat-cc: k.c: 1 of 1 kernels rewritten (cse)"]
        kept[len(kept)] = (keep / (project / "k.c").relative_to("/")).read_text()
    assert kept[0] == kept[1] == kept[2]
    assert len(servers(runtime / "accsat")) == 1


def test_killed_server_and_stale_socket(runtime, kernel):
    assert ask() is not None
    where = runtime / "accsat"
    (pid,) = servers(where)
    os.kill(pid, signal.SIGKILL)  # its socket stays behind, nobody listening
    assert wait_for(lambda: not _alive(pid))
    assert any(where.glob("*.sock"))
    answer = ask()  # a new server takes the key over
    assert answer is not None and outcome_of(answer, "k.c").rewritten == 1
    assert servers(where) and servers(where) != [pid]


def test_unreachable_server_falls_back_in_process(runtime, kernel):
    where = client.folder()
    key = client.server_key(where)
    mute = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)  # listens, never answers
    mute.bind(os.fspath(client.paths(where, key)["sock"]))
    mute.listen(8)
    try:
        fallback = rewrite_elsewhere(server=True, ack_wait=0.2)
    finally:
        mute.close()
    assert fallback["why"].startswith("the server did not take the request")
    assert fields(fallback) == fields(rewrite_elsewhere())
    assert servers(where) == []


def test_a_server_that_cannot_start_is_not_waited_for(runtime, kernel):
    where = client.folder()
    client.paths(where, client.server_key(where))["failed"].write_text("broken\n")
    assert ask() is None
    fallback = rewrite_elsewhere(server=True)
    assert fallback["why"].startswith("no server") and len(fallback["kernels"]) == 1
    assert servers(where) == []


def test_folder_must_be_private(runtime, monkeypatch):
    (runtime / "accsat").mkdir(mode=0o755)
    os.chmod(runtime / "accsat", 0o755)
    assert client.folder() != runtime / "accsat"
    os.chmod(runtime / "accsat", 0o700)
    assert client.folder() == runtime / "accsat"


CLIENT = """\
import json, sys
from accsat.wrapper import cache, client
from accsat.options import Options
from accsat.frontend.preprocess import PreprocessOptions
options = Options(variant="cse", line_directives="k.c",
                  preprocess=PreprocessOptions(("-O2",), openacc=True, openmp=False))
print(json.dumps(client.ask("k.c", options, 120.0, 60.0, None)))
"""


def test_clients_at_once_start_one_server(runtime, kernel):
    procs = [
        subprocess.Popen([sys.executable, "-c", CLIENT], stdout=subprocess.PIPE, text=True)
        for _ in range(4)
    ]
    answers = [json.loads(p.communicate(timeout=240)[0]) for p in procs]
    # each was answered by the server or, past START_WAIT on a busy machine, in-process
    assert any(a is not None for a in answers)
    assert all(outcome_of(a, "k.c").rewritten == 1 for a in answers if a is not None)
    assert len(servers(runtime / "accsat")) == 1


def test_idle_server_exits(runtime, kernel):
    assert ask(idle=0.5) is not None
    where = runtime / "accsat"
    assert wait_for(lambda: not servers(where))
    assert not list(where.glob("*.sock")) and not list(where.glob("*.lock"))


def test_stop_server(runtime, kernel):
    assert ask() is not None
    where = runtime / "accsat"
    r = subprocess.run(
        [sys.executable, "-m", "accsat.wrapper", "--stop-server"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (r.returncode, r.stdout, r.stderr) == (0, "stopped 1 compile servers\n", "")
    assert wait_for(lambda: not servers(where))
    assert client.stop_servers(where) == 0


def test_server_holds_none_of_the_callers_descriptors(project, env, runtime):
    """make waits for its jobserver pipe's end of file: no server may keep it open."""
    env = dict(env, XDG_RUNTIME_DIR=str(runtime), ACCSAT_CACHE="0")
    rfd, wfd = os.pipe()
    try:
        r = subprocess.run(
            [sys.executable, "-m", "accsat.wrapper", "gcc", "-c", *ACC, "k.c"],
            cwd=project,
            env=env,
            pass_fds=(wfd,),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=240,
        )
        assert r.returncode == 0, r.stderr
        os.close(wfd)
        wfd = -1
        assert servers(runtime / "accsat")  # a server runs on
        ready, _, _ = select.select([rfd], [], [], 60)
        assert ready and os.read(rfd, 1) == b""  # and holds no copy of the pipe
    finally:
        os.close(rfd)
        if wfd >= 0:
            os.close(wfd)


def test_a_client_that_sees_another_root_is_not_served(tmp_path, monkeypatch):
    """A container sharing /tmp with the host (Apptainer binds /tmp, $HOME and $PWD) must
    not have its files preprocessed in the host's view: another root, no answer."""
    import pickle

    from accsat.wrapper import server

    src = tmp_path / "k.c"
    src.write_text(KERNEL)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(os, "environ", dict(os.environ))  # serve_one may replace it
    options = Options(preprocess=PreprocessOptions(), line_directives=str(src))
    request = pickle.loads(client.request(str(src), options, 5.0))
    request["root_id"] = (-1, -1)
    assert "unavailable" in server.serve_one(request)


def _waiting_child(server) -> tuple[object, socket.socket]:
    """A child of ``server`` waiting for a request (its end of the socket, not a process)."""
    from accsat.wrapper.server import Child

    ours, theirs = socket.socketpair()
    child = Child(os.getpid(), ours, ready=True)
    server.children[len(server.children) + 10**7] = child
    return child, theirs


def _role(sock: socket.socket) -> tuple[bytes, list[int], bytes | None]:
    role, fds, _, _ = socket.recv_fds(sock, 1, 3)
    return role, fds, client.recv_frame(sock)


@pytest.mark.parametrize("idle", [2, 1])
def test_a_request_shared_only_with_idle_cores(tmp_path, monkeypatch, idle):
    """Two children waiting: with two idle cores the request goes to both, a lead and a
    helper, with the share's pipes (the helper's answers reach the lead); with one, to
    one child alone."""
    from accsat.toolchain.share import Share
    from accsat.wrapper import server as srv

    monkeypatch.setattr(srv, "idle_cores", lambda: idle)
    server = srv.Server(tmp_path, "k", 60.0, -1)
    try:
        lead, lead_end = _waiting_child(server)
        helper, helper_end = _waiting_child(server)
        conn, _ = socket.socketpair()
        server.queue.append(srv.Job(conn, b"request", "k.c", 10.0, time.monotonic() + 10))
        server.dispatch()
        role, fds, request = _role(lead_end)
        assert request == b"request"
        if idle < 2:
            assert (role, fds, helper.helping) == (srv.ALONE, [], None)
            return
        assert role == srv.LEAD and helper.helping is lead.job
        hrole, hfds, hrequest = _role(helper_end)
        assert (hrole, hrequest) == (srv.HELP, b"request")
        mine, theirs = Share(*fds), Share(*hfds)
        assert {mine.claim(), theirs.claim()} == {0, 1}
        assert theirs.send("kernel", 1, "answer") and mine.send("bodies", {})
        assert (mine.next_message(), theirs.next_message()) == (
            ("kernel", 1, "answer"),
            ("bodies", {}),
        )
    finally:
        server.children.clear()
        server.listener.close()


def test_a_helper_is_told_to_stop_when_its_lead_answers(tmp_path):
    """Nothing a helper does once the request is answered is used: it gets SIGTERM (and
    unwinds, its temporary folders removed); one past its request's deadline is killed."""
    from accsat.wrapper import server as srv

    server = srv.Server(tmp_path, "k", 60.0, -1)
    helpers = [subprocess.Popen(["sleep", "60"]) for _ in range(2)]
    try:
        conn, _ = socket.socketpair()
        job = srv.Job(conn, b"request", "k.c", 10.0, time.monotonic() + 10)
        late = srv.Job(socket.socketpair()[0], b"request", "l.c", 0.0, time.monotonic() - 1)
        for proc, helping in zip(helpers, (job, late), strict=True):
            ours, _theirs = socket.socketpair()
            server.children[proc.pid] = srv.Child(proc.pid, ours, helping=helping, ready=True)
        server.reply(job, {"text": ""})
        assert helpers[0].wait(timeout=10) == -signal.SIGTERM
        server.expire(time.monotonic())
        assert helpers[1].pid not in server.children and not _alive(helpers[1].pid)  # reaped
    finally:
        for proc in helpers:
            proc.kill()
            proc.wait()
        server.listener.close()


@pytest.mark.parametrize("helper", [True, False])
def test_a_request_shared_only_where_its_settings_let_it(tmp_path, monkeypatch, helper):
    """ACCSAT_HELPER=0 (Options.helper, read from the request as it arrives): two
    children waiting and two cores idle, the request still goes to one child alone."""

    from accsat.wrapper import server as srv

    monkeypatch.setattr(srv, "idle_cores", lambda: 2)
    server = srv.Server(tmp_path, "k", 60.0, -1)
    try:
        lead, lead_end = _waiting_child(server)
        _waiting_child(server)
        ours, theirs = socket.socketpair()
        options = Options(preprocess=PreprocessOptions(), helper=helper)
        client.send_frame(theirs, client.request("k.c", options, 10.0))
        listening, server.listener = server.listener, SimpleNamespace(accept=lambda: (ours, None))
        monkeypatch.setattr(client, "peer_uid", lambda _: os.getuid())
        server.accept()
        server.listener = listening
        assert server.queue and server.queue[0].helper is helper
        server.dispatch()
        role, fds, _ = _role(lead_end)
        assert role == (srv.LEAD if helper else srv.ALONE)
        for fd in fds:
            os.close(fd)
    finally:
        server.children.clear()
        server.listener.close()
