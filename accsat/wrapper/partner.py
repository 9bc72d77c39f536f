"""A second process for the kernels of one file: the compile server's children use two cores.

A ``make -j1`` build leaves one of two cores idle while accsat-cc rewrites, and the
kernels of a file are rewritten independently of each other (``pipeline.prepare``).
So each server child forks a partner before it imports the pipeline (egglog hangs in a
process forked after it has started: see server.py), and when the child gets a
request the partner loads the same file (at once, while the child loads it too) and
takes kernels from the child's queue, one at a time, sending each result back; then,
the same way, re-read checks of rewritten kernels (``pipeline.reread_one``, each with
its body as the child preprocessed it).  The results are put in kernel order, so
the file is the one a serial rewrite gives.

The partner answers nothing unless the text it loaded is the child's (a file edited
between the two reads is the child's alone).  Whatever happens to the partner (still
importing, crashed, an error in a kernel),
the child rewrites what was not answered itself: a kernel whose rewrite raised in the
partner is done again by the child, so the error (if any) is the serial one.  The
partner dies with the child (PR_SET_PDEATHSIG) and at the end of the request.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib
import os
import pickle
import signal
import socket
import threading
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import client

if TYPE_CHECKING:  # the pipeline is imported after the fork (see server.py)
    from ..pipeline import Task

READY = b"R"
NEXT = b"N"


class Partner:
    """The child's side: the partner's pid and socket."""

    def __init__(self, pid: int, sock: socket.socket):
        self.pid, self.sock = pid, sock
        self.done: list[int] = []  # the kernels (indices) it answered
        self.checked: list[int] = []  # the re-read checks (indices of the share's jobs)
        self.over = False  # it will answer no more in this request
        self.loading: _Loading | None = None  # its load of this request's file
        self.asking = False  # it sent NEXT and waits for a job
        # one share's thread talks to it at a time (the last one may still wait for its
        # NEXT when the child's next share begins)
        self.talking = threading.Lock()

    def share(self, request: bytes) -> Callable:
        """A ``pipeline.Share`` that lends kernels to the partner for ``request`` (the
        pickled dict the server sent: the partner sets itself up as the child did).
        The partner starts loading the file at once, while the child loads it too (a
        load is a good part of a file's time: BT's x_solve.c, 0.4 of 3 s)."""
        loading = self._start(request)

        def share(digest: bytes, sizes: list[int], one: Callable[[int], Any], progress, task: Task):
            def serve(queue: _Queue) -> None:
                # one job: nothing to share (the partner's load only used an idle core)
                if len(sizes) > 1:
                    self._serve(loading, digest, queue, task)
                else:
                    queue.partner_gone()

            return _Queue(sizes).run(one, progress, serve)

        return share

    def _start(self, request: bytes) -> _Loading:
        """In a thread: give the partner the request; its digest arrives once it loaded."""
        loading = self.loading = _Loading()

        def start() -> None:
            try:
                if client.recv_frame(self.sock) == READY:
                    client.send_frame(self.sock, request)
                    loading.digest = client.recv_frame(self.sock)
            except OSError:
                pass
            finally:
                loading.done.set()

        threading.Thread(target=start, daemon=True).start()
        return loading

    def _serve(self, loading: _Loading, digest: bytes, queue: _Queue, task: Task) -> None:
        """In a thread of the child: hand jobs to the partner until none is left (its
        last NEXT then waits for the next share's jobs, or the end)."""
        with self.talking:
            self._talk(loading, digest, queue, task)

    def _talk(self, loading: _Loading, digest: bytes, queue: _Queue, task: Task) -> None:
        try:
            loading.done.wait()
            if self.over or loading.digest != digest:
                self.over = True
                return  # it loaded another program (or none): its jobs are not ours
            while True:
                if not self.asking:
                    msg = client.recv_frame(self.sock)
                    if msg is None:
                        self.over = True
                        return
                    if msg != NEXT:
                        i, result = pickle.loads(msg)
                        if result is not None:
                            (self.done if task is None else self.checked).append(i)
                        queue.answer(i, result)
                        continue
                    self.asking = True
                i = queue.lend()
                if i is None:
                    return
                client.send_frame(self.sock, pickle.dumps((i, task(i) if task else None)))
                self.asking = False
        except Exception:  # whatever went wrong, the child does the rest itself
            self.over = True
        finally:
            queue.partner_gone()

    def end(self) -> None:
        """Stop the partner (it has nothing left to do) and reap it."""
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)


class _Loading:
    """The partner's load of the file: done, and the digest (LoadedFile.digest) of what it
    loaded."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.digest: bytes | None = None


class _Queue:
    """The kernels of one file, the biggest first (so that no big one is left to the end
    while the other process idles): who does which, and the results in kernel order."""

    def __init__(self, sizes: list[int]):
        count = len(sizes)
        self.todo = deque(sorted(range(count), key=lambda i: (-sizes[i], i)))
        self.lent: set[int] = set()
        self.results: dict[int, Any] = {}
        self.count = count
        self.cond = threading.Condition()

    def run(self, one: Callable[[int], Any], progress, serve: Callable[[_Queue], None]) -> list:
        helper = threading.Thread(target=serve, args=(self,), daemon=True)
        helper.start()
        while True:
            with self.cond:
                while not self.todo and self.lent:
                    self.cond.wait()
                if not self.todo:
                    break
                i = self.todo.popleft()
            result = one(i)
            with self.cond:
                self.results[i] = result
                if progress is not None:
                    progress(len(self.results), self.count)
        return [self.results[i] for i in range(self.count)]

    def lend(self) -> int | None:
        with self.cond:
            if not self.todo:
                return None
            i = self.todo.popleft()
            self.lent.add(i)
            return i

    def answer(self, i: int, result: Any) -> None:
        """The partner's result for kernel ``i``; None: it failed, the child does it again."""
        with self.cond:
            self.lent.discard(i)
            if result is None:
                self.todo.appendleft(i)
            else:
                self.results[i] = result
            self.cond.notify_all()

    def partner_gone(self) -> None:
        with self.cond:
            self.todo.extendleft(self.lent)
            self.lent.clear()
            self.cond.notify_all()


def fork(
    warm: str, setup: Callable[[dict], dict | None], foreign: tuple[socket.socket, ...] = ()
) -> Partner | None:
    """Fork the partner (before ``warm``, the pipeline, is imported here); None if it
    cannot be.  ``setup(request)`` enters the request's folder and environment (an
    answer dict when it cannot); ``foreign``: the child's sockets, closed in the
    partner (the server must see the child's end of stream when the child ends)."""
    try:
        ours, theirs = socket.socketpair()
        pid = os.fork()
    except OSError:
        return None
    if pid == 0:
        status = 1
        try:
            ours.close()
            for other in foreign:
                other.close()
            _die_with_parent()
            _partner_main(theirs, warm, setup)
            status = 0
        finally:
            os._exit(status)
    theirs.close()
    return Partner(pid, ours)


def _partner_main(sock: socket.socket, warm: str, setup: Callable[[dict], dict | None]) -> None:
    importlib.import_module(warm).warm_up()
    client.send_frame(sock, READY)
    payload = client.recv_frame(sock)
    if payload is None:
        return
    request = pickle.loads(payload)
    if setup(request) is not None:
        return
    from pathlib import Path

    from ..pipeline import paused_gc, prepare
    from .rewrite import deadline_for

    timeout = float(request.get("timeout") or 0)
    deadline = deadline_for(timeout) if timeout else None
    with paused_gc():  # as the child's rewrite_file
        _work(sock, *prepare(Path(request["path"]), request["options"], deadline))


def _work(sock: socket.socket, loaded, one: Callable[[int], Any]) -> None:
    """The partner's jobs, one after the other, until the child has none left."""
    from ..pipeline import reread_one

    client.send_frame(sock, loaded.digest)
    while True:
        client.send_frame(sock, NEXT)
        reply = client.recv_frame(sock)
        job = pickle.loads(reply) if reply is not None else None
        if job is None:
            return
        i, task = job
        try:  # a kernel's rewrite, or (task) a re-read kernel's check
            result = one(i) if task is None else reread_one(loaded, *task)
            data = pickle.dumps((i, result))
        except Exception:  # the child does this job again, and meets the error itself
            data = pickle.dumps((i, None))
        client.send_frame(sock, data)


def lends(busy: int) -> bool:
    """Whether a child with ``busy`` requests at work (its own included) uses its partner:
    only while every partner has a core (``make -jN`` fills the cores with children)."""
    return 2 * busy <= cores()


def cores() -> int:
    """The cores this process may run on (a partner on a single core only competes)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _die_with_parent() -> None:
    """Linux: SIGKILL when the child that forked us dies (a timeout kills it)."""
    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
