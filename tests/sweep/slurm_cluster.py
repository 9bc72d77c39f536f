"""A one-node Slurm cluster on this machine: for the Slurm executor's tests, and by hand.

    python -m tests.sweep.slurm_cluster start [FOLDER]   # then: export SLURM_CONF=FOLDER/slurm.conf
    python -m tests.sweep.slurm_cluster stop [FOLDER]

(from the repository's root; FOLDER defaults to /tmp/accsat-slurm). Needs root
and Debian's ``slurm-wlm`` and ``munge``. Everything is private to FOLDER, so it
neither needs nor disturbs a system-wide Slurm or munge: munged with its own
key and socket (``AuthInfo=socket=``), slurmctld and slurmd on free ports, with
state, spool, pid and log files in FOLDER. ``stop`` cancels the cluster's jobs
and ends the three daemons by their pid files.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DAEMONS = ("munged", "slurmctld", "slurmd")
DEFAULT_FOLDER = Path(tempfile.gettempdir()) / "accsat-slurm"


def unavailable() -> str | None:
    """Why no cluster can be started here (None: it can)."""
    if os.geteuid() != 0:
        return "starting slurmctld/slurmd needs root"
    missing = [p for p in (*DAEMONS, "sbatch", "squeue", "scancel") if not _which(p)]
    if missing:
        return f"not installed: {', '.join(missing)} (apt-get install slurm-wlm munge)"
    try:
        pwd.getpwnam("munge")
    except KeyError:
        return "no munge user (apt-get install munge)"
    return None


def _which(program: str) -> str | None:
    return shutil.which(program) or shutil.which(program, path="/usr/sbin:/sbin")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    def __init__(self, folder: Path = DEFAULT_FOLDER):
        self.folder = folder
        self.conf = folder / "slurm.conf"
        self.munge = folder / "munge"
        self.ctld_log = folder / "log" / "slurmctld.log"

    @property
    def env(self) -> dict[str, str]:
        return {**os.environ, "SLURM_CONF": str(self.conf)}

    def pid_file(self, daemon: str) -> Path:
        return self.munge / "munged.pid" if daemon == "munged" else self.folder / f"{daemon}.pid"

    def start(self, timeout: float = 60.0) -> None:
        """Start the three daemons; return once the node is idle (stopped again on failure)."""
        for sub in ("state", "spool", "log"):
            (self.folder / sub).mkdir(parents=True, exist_ok=True)
        self.folder.chmod(0o755)  # munged (user munge) must reach its socket
        try:
            self._start_munge()
            self._write_conf()
            for daemon in ("slurmctld", "slurmd"):
                subprocess.run(
                    [_which(daemon), "-f", str(self.conf)],
                    check=True,
                    capture_output=True,
                    timeout=60,
                )
            self._wait_idle(timeout)
        except BaseException:
            self.stop()
            raise

    def _start_munge(self) -> None:
        self.munge.mkdir(exist_ok=True)
        key = self.munge / "munge.key"
        if not key.exists():
            key.write_bytes(os.urandom(1024))
        user = pwd.getpwnam("munge")
        for path in (self.munge, key):
            os.chown(path, user.pw_uid, user.pw_gid)
        self.munge.chmod(0o755)
        key.chmod(0o400)
        subprocess.run(
            [
                "runuser",
                "-u",
                "munge",
                "--",
                _which("munged"),
                f"--socket={self.munge / 'munge.socket'}",
                f"--key-file={key}",
                f"--pid-file={self.pid_file('munged')}",
                f"--log-file={self.munge / 'munged.log'}",
                f"--seed-file={self.munge / 'munged.seed'}",
            ],
            check=True,
            capture_output=True,
            timeout=60,
        )

    def _write_conf(self) -> None:
        host, f = socket.gethostname().split(".")[0], self.folder
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2**20
        self.conf.write_text(f"""\
ClusterName=accsat
SlurmctldHost={host}
SlurmctldPort={_free_port()}
SlurmdPort={_free_port()}
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={self.munge / "munge.socket"}
SlurmUser=root
SlurmdUser=root
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
ReturnToService=2
KillWait=5
# a throttled array's next task starts as one ends, not up to 3 s later
SchedulerParameters=batch_sched_delay=0
StateSaveLocation={f / "state"}
SlurmdSpoolDir={f / "spool"}
SlurmctldPidFile={self.pid_file("slurmctld")}
SlurmdPidFile={self.pid_file("slurmd")}
SlurmctldLogFile={self.ctld_log}
SlurmdLogFile={f / "log" / "slurmd.log"}
NodeName={host} CPUs={os.cpu_count()} RealMemory={max(1, memory * 9 // 10)} State=UNKNOWN
PartitionName=debug Nodes={host} Default=YES MaxTime=INFINITE State=UP
""")

    def _until(self, cmd: list[str], ready, timeout: float) -> bool:
        """Run ``cmd`` (a Slurm client) every half second until ``ready(its run)``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            proc = subprocess.run(cmd, env=self.env, capture_output=True, text=True, timeout=30)
            if ready(proc):
                return True
            time.sleep(0.5)
        return False

    def _wait_idle(self, timeout: float) -> None:
        sinfo = ["sinfo", "--noheader", "--format=%T"]
        if self._until(sinfo, lambda p: p.stdout.strip() == "idle", timeout):
            return
        raise RuntimeError(
            f"the Slurm node did not come up in {timeout:g} s; see {self.folder / 'log'}"
        )

    def stop(self) -> None:
        """Cancel the cluster's jobs, then end the daemons this folder's pid files name."""
        if self.conf.exists() and self.pid_file("slurmctld").exists():
            subprocess.run(
                ["scancel", f"--user={os.getuid()}"], env=self.env, capture_output=True, timeout=60
            )
            squeue = ["squeue", "--noheader", "--format=%i"]
            self._until(squeue, lambda p: p.returncode != 0 or not p.stdout.strip(), 15.0)
        for daemon in ("slurmd", "slurmctld", "munged"):
            _end(self.pid_file(daemon))


def _end(pid_file: Path, timeout: float = 15.0) -> None:
    """SIGTERM the daemon ``pid_file`` names and wait for it to go (then SIGKILL)."""
    try:
        pid = int(pid_file.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        pid_file.unlink(missing_ok=True)
        return
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        os.kill(pid, signal.SIGKILL)
    pid_file.unlink(missing_ok=True)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("start", "stop") or len(argv) > 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    cluster = Cluster(Path(argv[1]).resolve() if len(argv) == 2 else DEFAULT_FOLDER)
    if argv[0] == "stop":
        cluster.stop()
        print(f"stopped the cluster of {cluster.folder}")
        return 0
    why = unavailable()
    if why:
        print(f"cannot start a Slurm cluster here: {why}", file=sys.stderr)
        return 1
    cluster.start()
    print(f"export SLURM_CONF={cluster.conf}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
