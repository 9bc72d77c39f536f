"""``accsat-cc``: the compiler wrapper Makefiles call (``make CC="accsat-cc gcc"``).

args (read the command line) -> driver (rewrite through the cache or a child
process, run the compiler, fix dependency files).  Only what a cached rebuild
needs is imported up front: the pipeline is imported by the child that rewrites.
"""

from __future__ import annotations

import os
import signal
import sys


def main(argv: list[str] | None = None) -> None:
    sys.exit(_status(run_main(sys.argv[1:] if argv is None else argv)))


def run_main(argv: list[str]) -> int:
    """The exit status of one call (negative: end by that signal)."""
    from .args import UsageError, classify
    from .config import Config
    from .driver import PROG, exec_compiler, run, say

    if argv[:1] == ["--accsat-help"]:
        from .help import HELP

        sys.stdout.write(HELP)
        return 0
    if argv[:1] == ["--accsat-version"]:
        from .. import __version__

        sys.stdout.write(f"accsat-cc {__version__}\n")
        return 0
    try:
        inv = classify(argv)
    except UsageError as exc:
        say(f"{PROG}: {exc}")
        return 2
    cfg = Config.from_env()
    if cfg.disable or inv.passthrough is not None:
        return exec_compiler(inv.command)
    if cfg.problems:
        for problem in cfg.problems:
            say(f"{PROG}: {problem}" + ("" if cfg.strict else "; compiling the original"))
        return 2 if cfg.strict else exec_compiler(inv.command)
    return run(inv, cfg)


def _status(rc: int) -> int:
    """Die by the compiler's (or our) signal, as the compiler would have."""
    if rc < 0:
        sys.stdout.flush()
        sys.stderr.flush()
        signal.signal(-rc, signal.SIG_DFL)
        os.kill(os.getpid(), -rc)
        return 128 - rc
    return rc
