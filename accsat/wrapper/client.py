"""accsat-cc's side of the compile server (``server.py``): find it, start it, ask it.

A cold ``accsat-cc`` spends most of its time importing the pipeline; the server
has done that once, so a call costs the rewrite alone.  Everything here is
cheap to import: a call the server answers never imports the pipeline.

Where: ``$XDG_RUNTIME_DIR/accsat``, else ``/tmp/accsat-<uid>`` (per host, never a
shared home), a folder we own with mode 700.  Each server is keyed on accsat's
code (``cache.fingerprint``, the wrapper's own files, the Python running it), so
a server of another accsat version is never used: ``<key>.sock`` is its socket,
``<key>.lock`` the lock only a live server holds (one server per key however
many calls start one at once), ``<key>.start`` the lock of the call starting it,
``<key>.failed`` the one line why it could not start (then no call waits for it).

Whatever goes wrong (no folder, no server within START_WAIT, no acknowledgement
within ACK_WAIT, a server that dies mid-request), :func:`ask` answers None and
the caller rewrites in-process as it would without a server.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import pickle
import socket
import stat
import struct
import sys
import time
from pathlib import Path

PROTOCOL = 1
START_WAIT = 5.0  # seconds a call waits for a server to accept, one it starts included
ACK_WAIT = 5.0  # seconds for a server to take a request (it acknowledges at once when idle)
GRACE = 30.0  # seconds past the file's timeout before the server's answer is given up
POLL = 0.01  # seconds between connection attempts while a server starts
ACK = b"A"
_HEADER = struct.Struct("!I")
MAX_REQUEST = 64 << 20
_UNIX_PATH_MAX = 107  # sun_path holds 108 bytes with its NUL


def folder() -> Path | None:
    """The private folder of this user's servers on this host, or None (no server)."""
    uid = os.getuid()
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    places = [Path(runtime) / "accsat"] if runtime.startswith("/") else []
    places.append(Path(f"/tmp/accsat-{uid}"))
    for place in places:
        with contextlib.suppress(FileExistsError, OSError):
            os.mkdir(place, 0o700)
        try:
            st = os.lstat(place)
        except OSError:
            continue
        if stat.S_ISDIR(st.st_mode) and st.st_uid == uid and not st.st_mode & 0o077:
            return place
    return None


def _wrapper_stamp() -> str:
    """The wrapper's files a server runs (the fingerprint leaves wrapper/ out)."""
    here = Path(__file__).resolve().parent
    parts = []
    for name in ("client.py", "server.py", "rewrite.py"):
        try:
            st = (here / name).stat()
            parts.append(f"{name}\0{st.st_size}\0{st.st_mtime_ns}")
        except OSError:
            parts.append(f"{name}\0-")
    return "\0".join(parts)


def package_root() -> str:
    """The folder holding the ``accsat`` package this process runs."""
    return str(Path(__file__).resolve().parent.parent.parent)


def executable() -> str:
    return os.path.realpath(sys.executable)


def server_key(store: Path) -> str:
    """Who may answer this process: the same Python, the same accsat, the same code.
    ``store``: where the fingerprint is kept (the cache folder, else the servers')."""
    from .cache import fingerprint

    h = hashlib.sha256(f"{PROTOCOL}\0{executable()}\0{package_root()}\0".encode())
    h.update(f"{fingerprint(store)}\0{_wrapper_stamp()}".encode())
    return h.hexdigest()[:24]


def paths(where: Path, key: str) -> dict[str, Path]:
    return {name: where / f"{key}.{name}" for name in ("sock", "lock", "start", "failed", "info")}


def send_frame(sock: socket.socket, payload: bytes) -> None:
    sock.sendall(_HEADER.pack(len(payload)) + payload)


def recv_exactly(sock: socket.socket, n: int) -> bytes | None:
    """``n`` bytes, or None at an end of stream before them."""
    chunks, got = [], 0
    while got < n:
        chunk = sock.recv(min(n - got, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def recv_frame(sock: socket.socket) -> bytes | None:
    head = recv_exactly(sock, _HEADER.size)
    if head is None:
        return None
    (n,) = _HEADER.unpack(head)
    return recv_exactly(sock, n) if n <= MAX_REQUEST else None


def peer_uid(sock: socket.socket) -> int:
    creds = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    return struct.unpack("3i", creds)[1]


def connect(path: Path) -> socket.socket | None:
    """A connection to the server at ``path`` if one listens there, run by this user."""
    if len(os.fsencode(path)) > _UNIX_PATH_MAX:
        return None
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(START_WAIT)
        sock.connect(os.fspath(path))
        if peer_uid(sock) == os.getuid():
            return sock
    except OSError:
        pass
    sock.close()
    return None


def lock(path: Path) -> int | None:
    """The descriptor holding an exclusive lock on ``path``, or None when another process
    holds it.  Its holder removes the file before letting go, so a lock taken on a file
    that has just been removed is taken again on the new one."""
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return None
        try:
            same = os.path.samestat(os.fstat(fd), os.stat(path))
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)


def _connect_waiting(path: Path, seconds: float) -> socket.socket | None:
    end = time.monotonic() + seconds
    while True:
        sock = connect(path)
        if sock is not None or time.monotonic() >= end:
            return sock
        time.sleep(POLL)


# The server runs the accsat this process runs, wherever that is and whatever its cwd
# ("/"); a folder already on the path keeps its place (never before the standard library).
_SERVER_MAIN = (
    "import sys; root = sys.argv.pop(1); root in sys.path or sys.path.insert(0, root); "
    "from accsat.wrapper.server import main; sys.exit(main(sys.argv[1:]))"
)


def _spawn(where: Path, key: str, idle: float, cache_dir: Path | None) -> None:
    """Start a detached server: double fork, its own session, stdio on /dev/null and no
    other descriptor of ours (make's jobserver pipes, the compiler's pipes)."""
    cmd = [
        sys.executable,
        "-c",
        _SERVER_MAIN,
        package_root(),
        os.fspath(where),
        key,
        repr(idle),
        os.fspath(cache_dir) if cache_dir is not None else "",
    ]
    pid = os.fork()
    if pid == 0:  # the first child: never returns
        try:
            os.setsid()
            if os.fork() == 0:
                os.chdir("/")
                null = os.open(os.devnull, os.O_RDWR)
                for fd in (0, 1, 2):
                    os.dup2(null, fd)
                os.closerange(3, os.sysconf("SC_OPEN_MAX"))
                os.execv(sys.executable, cmd)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)


def _reach(where: Path, key: str, idle: float, cache_dir: Path | None) -> socket.socket | None:
    """A connection to the server of ``key``, starting it when none runs."""
    p = paths(where, key)
    sock = connect(p["sock"])
    if sock is not None or p["failed"].exists():
        return sock
    try:
        fd = lock(p["start"])
    except OSError:
        return None
    try:
        if fd is not None:  # else another call is starting it: wait for it
            _spawn(where, key, idle, cache_dir)
        return _connect_waiting(p["sock"], START_WAIT)
    finally:
        if fd is not None:
            os.close(fd)


def request(path: str, options, timeout: float) -> bytes:
    """What a server child needs to do what an in-process rewrite here would do."""
    cwd = os.getcwd()
    st = os.stat(cwd)
    root = os.stat("/")
    return pickle.dumps(
        {
            "path": path,
            "options": options,
            "timeout": timeout,
            "cwd": cwd,
            "cwd_id": (st.st_dev, st.st_ino),
            # a container sharing /tmp with the host sees other files under the same paths
            "root_id": (root.st_dev, root.st_ino),
            "env": dict(os.environ),
            "umask": _umask(),
        },
        protocol=pickle.HIGHEST_PROTOCOL,
    )


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


why_not = ""  # why the last ask() answered None (for tests and debugging)


def _unanswered(why: str) -> dict | None:
    """No answer (None), for ``why``."""
    global why_not
    why_not = why
    return None


def ask(path: str, options, timeout: float, idle: float, cache_dir: Path | None) -> dict | None:
    """The rewrite of ``path`` by this user's server (the dict ``rewrite._child`` returns,
    or ``{"timed_out": True}`` when the server is stuck past the timeout), or None: the
    server could not be reached or gave up, rewrite in-process."""
    where = folder()
    if where is None:
        return _unanswered("no private folder for the server")
    try:
        payload = request(path, options, timeout)
        key = server_key(cache_dir or where)
        sock = _reach(where, key, idle, cache_dir)
    except (OSError, pickle.PicklingError, TypeError, AttributeError) as exc:
        return _unanswered(f"cannot ask the server: {exc!r}")
    if sock is None:
        return _unanswered("no server within START_WAIT (or it failed to start)")
    with sock:
        try:
            sock.settimeout(ACK_WAIT)
            send_frame(sock, payload)
            if recv_exactly(sock, 1) != ACK:
                return _unanswered("the server closed the connection")
        except OSError as exc:  # a timeout included: a server too busy or stuck to take it
            return _unanswered(f"the server did not take the request: {exc!r}")
        try:
            sock.settimeout(timeout + GRACE)
            data = recv_frame(sock)
        except TimeoutError:  # the server enforces the timeout: it is stuck
            return {"timed_out": True}
        except OSError as exc:
            return _unanswered(f"no answer: {exc!r}")
    try:
        answer = json.loads(data) if data is not None else None
    except ValueError:
        answer = None
    if not isinstance(answer, dict):
        return _unanswered("no answer (the server died?)")
    if "unavailable" in answer:
        return _unanswered(str(answer["unavailable"]))
    return answer


def stop(sock_path: Path) -> bool:
    """Ask the server listening at ``sock_path`` to stop; whether it took the request."""
    sock = connect(sock_path)
    if sock is None:
        return False
    with contextlib.suppress(OSError), sock:
        sock.settimeout(ACK_WAIT)
        send_frame(sock, pickle.dumps({"stop": True}))
        return recv_exactly(sock, 1) == ACK
    return False


def stop_servers(where: Path | None = None) -> int:
    """Ask every server of this user on this host to stop (how many took the request),
    and remove what dead ones left: a key whose lock nobody holds has no server."""
    where = where or folder()
    if where is None:
        return 0
    stopped = sum(stop(sock_path) for sock_path in sorted(where.glob("*.sock")))
    for lock_path in where.glob("*.lock"):
        with contextlib.suppress(OSError):
            fd = lock(lock_path)
            if fd is None:
                continue
            for name, path in paths(where, lock_path.name[: -len(".lock")]).items():
                if name != "lock":
                    with contextlib.suppress(OSError):
                        path.unlink()
            lock_path.unlink()
            os.close(fd)
    return stopped
