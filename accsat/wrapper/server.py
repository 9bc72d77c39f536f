"""The compile server: this user's pipeline, imported once, for every ``accsat-cc``.

``accsat-cc`` starts it on demand (``client.py``) and it exits after ``idle``
seconds without a request (``server_idle``), when ``accsat-cc --stop-server``
asks, when a server for a newer accsat of the same install starts, or when its
socket is gone.  Each request is rewritten by a child process of its own, so a
crash or a timeout kills that child only, the time budget is the one a forked
child has, and no request sees another's state; the answer is the dict
``rewrite._child`` returns, so the result is the in-process one.

egglog's module starts a thread pool when imported, and a child forked after
that would wait on threads it does not have; so the server imports everything
else the pipeline needs (PRELOAD) and each child imports egglog itself.  To
keep that off the request's time, SPARES children are forked ahead, import it
and wait for a request each; a child serves one request and exits.  (A partner
process forked by each child, always rewriting some of a file's kernels, was measured
on a loaded machine to save 3 % of a cold NPB build at make -j1 and cost 9 % at -j2:
removed in issue 36; the helper below is a waiting child, used only when cores are idle.)

A request that finds two children waiting and two cores idle (a ``make -j1`` build)
goes to both: the second helps with the file's kernels (toolchain/share.py); one
spare more waits, so that the next request usually still finds one.

One event loop, no threads: it accepts a connection, checks the peer is this
user (SO_PEERCRED), reads the request, acknowledges it at once (a client that
gets no acknowledgement soon rewrites in-process) and hands it to a waiting
child; the child's answer goes back to the client.  A client that hangs up gets
its child killed; past the request's timeout the child is killed and the answer
is the timeout's.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import pickle
import selectors
import signal
import socket
import sys
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..toolchain.share import Share, idle_cores, leave, pipes
from . import client
from .rewrite import _child, deadline_for, quiet_child, read_answer, timed_out, write_all

SPARES = 3  # children waiting, egglog imported, for the next requests (two may share one)
MAX_CHILDREN = 32
WARM_FAILURES = 3  # children in a row that die while warming up: the server gives up
CHECK_EVERY = 5.0  # seconds between checks that the socket is still ours
READ_WAIT = 2.0  # seconds for a client's request once it connected
# Imported once by the server for all its children: everything the pipeline needs but
# egglog (never imported here, see above).  A missing one only costs its children time.
PRELOAD = (  # not PuLP: only --solver cbc needs it (70 ms and more at every server start)
    "accsat.numeric",  # numpy, before highspy loads it (one OpenBLAS thread)
    "highspy",
    "pycparser",
    "accsat.frontend.load",
    "accsat.extract",
    "accsat.ssa.statements",
    "accsat.codegen.printer",
    "accsat.codegen.placement",
    "accsat.codegen.splice",
    "accsat.egraph.rules",
    "accsat.report",
)
WARM = "accsat.pipeline"  # what each child imports (and its warm_up()) before it waits
READY = b"R"
# what a child is to a request (sent with the share's pipes, before the request)
ALONE, LEAD, HELP = b"A", b"L", b"H"


@dataclass
class Job:
    conn: socket.socket
    request: bytes
    path: str
    timeout: float
    deadline: float
    helper: bool = True  # the request's Options.helper: a second child may help with it


@dataclass
class Child:
    pid: int
    sock: socket.socket
    job: Job | None = None
    helping: Job | None = None  # the request whose kernels it shares, answered by another
    ready: bool = False
    answer: bytearray = field(default_factory=bytearray)

    @property
    def free(self) -> bool:
        """Neither answering nor helping with a request (warming up, or waiting)."""
        return self.job is None and self.helping is None


class Server:
    def __init__(self, where: Path, key: str, idle: float, lock_fd: int):
        self.paths = client.paths(where, key)
        self.key, self.idle, self.lock_fd = key, idle, lock_fd
        self.sel = selectors.DefaultSelector()
        self.children: dict[int, Child] = {}
        self.queue: deque[Job] = deque()
        self.preload = list(PRELOAD)
        self.failures = 0
        self.last = time.monotonic()
        self.checked = self.last
        self.stopping = False
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock = os.fspath(self.paths["sock"])
        with contextlib.suppress(FileNotFoundError):
            os.unlink(sock)  # a dead server's: we hold the lock
        self.listener.bind(sock)
        os.chmod(sock, 0o600)
        self.inode = os.stat(sock).st_ino
        self.listener.listen(128)
        self.sel.register(self.listener, selectors.EVENT_READ, None)

    # -- the loop ----------------------------------------------------------------------------
    def serve(self) -> None:
        while not self.stopping:
            timeout = 0.0 if self.preload and not self.busy() else self.wait()
            events = self.sel.select(timeout)
            for key, _ in events:
                if key.data is None:
                    self.accept()
                elif isinstance(key.data, Child):
                    self.from_child(key.data)
                else:
                    self.hangup(key.data)
            now = time.monotonic()
            self.expire(now)
            self.dispatch()
            if not events and self.preload and not self.busy():
                self.load_one()  # between requests: the first one waits for no import
                if not self.preload:
                    self.spawn()  # the spares, now, not at the next request
            if now - self.checked > CHECK_EVERY:
                self.checked = now
                if not self.ours():
                    return
            if not self.busy() and now - self.last > self.idle:
                return

    def busy(self) -> bool:
        return bool(self.queue) or any(
            c.job is not None or c.helping is not None for c in self.children.values()
        )

    def wait(self) -> float:
        deadlines = [j.deadline for j in self.jobs()]
        until = min([*deadlines, self.last + self.idle, self.checked + CHECK_EVERY])
        return max(0.0, min(until - time.monotonic(), CHECK_EVERY))

    def jobs(self) -> list[Job]:
        return [*self.queue, *(c.job for c in self.children.values() if c.job is not None)]

    def ours(self) -> bool:
        try:
            return os.stat(self.paths["sock"]).st_ino == self.inode
        except OSError:
            return False

    def load_one(self) -> None:
        name = self.preload.pop(0)
        with contextlib.suppress(Exception):
            importlib.import_module(name)
        if "egglog.bindings" in sys.modules:  # a child forked now would hang: never fork again
            self.fail(f"preloading {name} imported egglog")

    # -- clients -----------------------------------------------------------------------------
    def accept(self) -> None:
        try:
            conn, _ = self.listener.accept()
        except OSError:
            return
        try:
            conn.settimeout(READ_WAIT)
            if client.peer_uid(conn) != os.getuid():
                raise OSError("another user")
            payload = client.recv_frame(conn)
            request = pickle.loads(payload) if payload is not None else None
            if payload is None or not isinstance(request, dict):
                raise OSError("no request")
            conn.sendall(client.ACK)
        except Exception:  # a bad or vanished client costs nothing else
            conn.close()
            return
        self.last = time.monotonic()
        if request.get("stop"):
            conn.close()
            self.stopping = True
            return
        timeout = float(request.get("timeout", 0))
        helper = getattr(request.get("options"), "helper", True) is not False
        job = Job(
            conn, payload, str(request.get("path")), timeout, time.monotonic() + timeout, helper
        )
        self.queue.append(job)
        self.sel.register(conn, selectors.EVENT_READ, job)
        self.spawn()

    def hangup(self, job: Job) -> None:
        """A client with a request in flight sent more, or went away: drop the request."""
        if job in self.queue:
            self.queue.remove(job)
        for child in list(self.children.values()):
            if job in (child.job, child.helping):
                self.reap(child, kill=True)
        self.close(job)

    def reply(self, job: Job, answer: dict) -> None:
        for child in self.children.values():  # nothing a helper does now is used
            if child.helping is job:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(child.pid, signal.SIGTERM)  # (it cleans up; past its deadline, killed)
        with contextlib.suppress(OSError):
            job.conn.settimeout(READ_WAIT)
            client.send_frame(job.conn, json.dumps(answer).encode())
        self.close(job)

    def close(self, job: Job) -> None:
        with contextlib.suppress(KeyError, ValueError):
            self.sel.unregister(job.conn)
        job.conn.close()
        self.last = time.monotonic()

    def expire(self, now: float) -> None:
        for job in [j for j in self.queue if j.deadline <= now]:
            self.queue.remove(job)
            self.reply(job, timed_out(job.path, job.timeout))
        for child in list(self.children.values()):
            if child.job is not None and child.job.deadline <= now:
                job = child.job
                self.reap(child, kill=True)
                self.reply(job, timed_out(job.path, job.timeout))
            elif child.helping is not None and child.helping.deadline <= now:
                self.reap(child, kill=True)  # (it ends by itself once its lead has: EOF)

    # -- children ----------------------------------------------------------------------------
    def spawn(self) -> None:
        """A child warming or waiting for each queued request, and SPARES more once no
        request runs and PRELOAD is done (earlier, they would take a running request's
        time, and each would import what the server is about to import for all)."""
        idle = sum(1 for c in self.children.values() if c.free)
        want = len(self.queue) - idle
        if not self.busy() and not self.preload:
            want = max(want, SPARES - idle)
        while want > 0 and len(self.children) < MAX_CHILDREN and not self.stopping:
            self.fork()
            want -= 1

    def fork(self) -> None:
        ours, theirs = socket.socketpair()
        pid = os.fork()
        if pid == 0:
            ours.close()
            self.child_main(theirs)  # never returns
        theirs.close()
        child = Child(pid, ours)
        self.children[pid] = child
        self.sel.register(ours, selectors.EVENT_READ, child)

    def child_main(self, sock: socket.socket) -> None:
        status = 1
        try:
            # nothing of the server's stays open here: a lock held by a child would keep a
            # dead server's key locked, a listener or a client's connection would keep them
            self.listener.close()
            os.close(self.lock_fd)
            for c in self.children.values():
                c.sock.close()
            for job in self.jobs():
                job.conn.close()
            self.sel.close()
            quiet_child()
            importlib.import_module(WARM).warm_up()
            sock.sendall(READY)
            role, fds, _, _ = socket.recv_fds(sock, 1, 3)
            payload = client.recv_frame(sock) if role else None
            if payload is not None:
                share = Share(fds[0], fds[1], fds[2]) if len(fds) == 3 else None
                if role == HELP:
                    if share is not None:  # (without its pipes a helper has nothing to do)
                        help_one(pickle.loads(payload), share)
                else:
                    answer = serve_one(pickle.loads(payload), share)
                    write_all(sock.fileno(), json.dumps(answer).encode())
            status = 0
        finally:
            os._exit(status)

    def from_child(self, child: Child) -> None:
        try:
            data = child.sock.recv(1 << 20)
        except OSError:
            data = b""
        if data and child.job is None and not child.ready and data == READY:
            child.ready = True
            self.failures = 0
            return
        if data and child.job is not None:
            child.answer += data
            return
        job, warm = child.job, child.ready
        status = self.reap(child, kill=job is None)
        if child.helping is not None:
            return  # a helper ends with its share: its results went to the lead
        if job is not None:
            self.reply(job, read_answer(bytes(child.answer), status, job.path))
        elif not warm:
            self.failures += 1
            if self.failures >= WARM_FAILURES:
                self.fail("its children die while importing the pipeline")

    def waiting(self) -> list[Child]:
        return [c for c in self.children.values() if c.ready and c.free]

    def dispatch(self) -> None:
        for child in self.waiting():
            if not self.queue:
                break
            if child.helping is not None:  # taken as a helper just now
                continue
            job = self.queue.popleft()
            helper = self.helper_for(child, job)
            try:
                self.send(child, job, helper)
            except OSError:  # it died waiting: its end of stream comes next
                self.queue.appendleft(job)
                child.ready = False
                continue
            child.job = job
        self.spawn()

    def helper_for(self, lead: Child, job: Job) -> Child | None:
        """A second waiting child for ``job``, which ``lead`` takes, when its settings let
        one help, no other request waits and two cores are idle."""
        others = [c for c in self.waiting() if c is not lead]
        if not job.helper or self.queue or not others or idle_cores() < 2:
            return None
        return others[0]

    def send(self, child: Child, job: Job, helper: Child | None) -> None:
        """The request to ``child`` (and to ``helper``, with the share's pipes)."""
        if helper is None:
            socket.send_fds(child.sock, [ALONE], [])
            client.send_frame(child.sock, job.request)
            return
        lead, helping = pipes()
        try:
            socket.send_fds(child.sock, [LEAD], lead)
            client.send_frame(child.sock, job.request)
            with contextlib.suppress(OSError):  # a helper that died waiting: the lead does all
                socket.send_fds(helper.sock, [HELP], helping)
                client.send_frame(helper.sock, job.request)
                helper.helping = job
        finally:
            for fd in lead + helping:
                os.close(fd)

    def reap(self, child: Child, kill: bool) -> int:
        """End ``child`` (killed if ``kill`` or if it does not exit at once); its status."""
        self.children.pop(child.pid, None)
        with contextlib.suppress(KeyError, ValueError):
            self.sel.unregister(child.sock)
        child.sock.close()
        if kill:
            with contextlib.suppress(ProcessLookupError):
                os.kill(child.pid, signal.SIGKILL)
        for _ in range(100):
            pid, status = os.waitpid(child.pid, os.WNOHANG)
            if pid:
                return status
            time.sleep(0.01)
        with contextlib.suppress(ProcessLookupError):
            os.kill(child.pid, signal.SIGKILL)
        return os.waitpid(child.pid, 0)[1]

    # -- the end -----------------------------------------------------------------------------
    def fail(self, why: str) -> None:
        """The server cannot work: say why once (calls stop waiting for it) and stop."""
        with contextlib.suppress(OSError):
            self.paths["failed"].write_text(why + "\n")
        self.stopping = True

    def shutdown(self) -> None:
        if self.ours():
            with contextlib.suppress(OSError):
                os.unlink(self.paths["sock"])
        self.listener.close()
        for child in list(self.children.values()):
            job = child.job
            self.reap(child, kill=True)
            if job is not None:
                self.reply(job, {"unavailable": "the server stopped"})
        for job in list(self.queue):
            self.reply(job, {"unavailable": "the server stopped"})
        for name in ("info", "start", "lock"):  # the lock while we still hold it
            with contextlib.suppress(OSError):
                os.unlink(self.paths[name])


def serve_one(request: dict, share: Share | None = None) -> dict:
    """In a child: the rewrite the client would have done, in its folder and environment."""
    unavailable = enter(request)
    if unavailable is not None:
        return unavailable
    return _child(request["path"], request["options"], _deadline(request), share)


def help_one(request: dict, share: Share) -> None:
    """In a helper: the kernels it takes from the share, each sent to the lead.  Any
    failure ends it quietly: the lead rewrites what it did not answer."""
    if enter(request) is not None:
        return
    signal.signal(signal.SIGTERM, leave)  # its lead answered: unwind, temporary folders removed
    with contextlib.suppress(Exception):
        from ..pipeline import help_rewrite

        os.nice(5)  # a core found idle may not stay so: others' work first
        help_rewrite(Path(request["path"]), request["options"], share, _deadline(request))


def _deadline(request: dict) -> float | None:
    return deadline_for(float(request["timeout"])) if request.get("timeout") else None


def enter(request: dict) -> dict | None:
    """Enter the request's folder and environment; the answer when it cannot be."""
    try:
        os.chdir(request["cwd"])
        st = os.stat(".")
    except OSError as exc:
        return {"unavailable": f"cannot enter {request['cwd']}: {exc.strerror}"}
    root = os.stat("/")
    if (st.st_dev, st.st_ino) != tuple(request["cwd_id"]) or (
        (root.st_dev, root.st_ino) != tuple(request["root_id"])
    ):  # another mount namespace (a container sharing /tmp with the host)
        return {"unavailable": "the client's folder is not the server's"}
    os.environ.clear()
    os.environ.update(request["env"])
    os.umask(request["umask"])
    tempfile: Any = sys.modules.get("tempfile")
    if tempfile is not None:
        tempfile.tempdir = None  # found again from this environment's TMPDIR
    return None


def _retire_others(where: Path, key: str) -> None:
    """Stop the servers of older code of this same install: their keys are never asked again."""
    me = {"executable": client.executable(), "root": client.package_root()}
    for info in where.glob("*.info"):
        if info.name == f"{key}.info":
            continue
        try:
            other = json.loads(info.read_text())
        except (OSError, ValueError):
            continue
        if isinstance(other, dict) and all(other.get(k) == v for k, v in me.items()):
            client.stop(info.with_suffix(".sock"))


def main(argv: list[str]) -> int:
    where, key, idle, cache_dir = Path(argv[0]), argv[1], float(argv[2]), argv[3]
    p = client.paths(where, key)
    lock_fd = client.lock(p["lock"])
    if lock_fd is None:
        return 0  # another server has this key
    mine = client.server_key(Path(cache_dir) if cache_dir else where)
    if mine != key:
        p["failed"].write_text(f"the server runs other code ({mine}, asked for {key})\n")
        return 1
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    server = Server(where, key, idle, lock_fd)
    try:
        p["info"].write_text(
            json.dumps(
                {
                    "pid": os.getpid(),
                    "key": key,
                    "started": time.time(),
                    "executable": client.executable(),
                    "root": client.package_root(),
                }
            )
        )
        _retire_others(where, key)
        server.serve()
    finally:
        server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
