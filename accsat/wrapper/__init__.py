"""``accsat-cc``: the compiler wrapper Makefiles call (``make CC="accsat-cc gcc"``).

args (read the command line) -> driver (rewrite through the cache or a child
process, run the compiler, fix dependency files).  Only what a cached rebuild
needs is imported up front: the pipeline is imported by the child that rewrites.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys


def main(argv: list[str] | None = None) -> None:
    for name in ("stdout", "stderr"):  # started with >&- or 2>&-: say nothing, as gcc does
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w"))  # noqa: SIM115 (kept to the end)
    try:
        rc = run_main(sys.argv[1:] if argv is None else argv)
    except KeyboardInterrupt:  # Ctrl-C before driver.run took over (while importing)
        rc = -signal.SIGINT
    sys.exit(_status(rc))


def run_main(argv: list[str]) -> int:
    """The exit status of one call (negative: end by that signal)."""
    first = argv[0] if argv else None
    if first in ("-h", "--help", "--accsat-help"):
        from .help import help_text

        sys.stdout.write(help_text())
        return 0
    if first in ("--version", "--accsat-version"):
        from .. import __version__

        sys.stdout.write(f"accsat-cc {__version__}\n")
        return 0
    from . import manage

    if first in manage.COMMANDS:
        return manage.run(argv)
    from ..ccconfig import Config
    from .args import UsageError, classify
    from .driver import PROG, event_log, exec_compiler, run, say

    try:
        inv = classify(argv)
    except UsageError as exc:
        say(f"{PROG}: {exc}")
        return 2
    if inv.passthrough is None:  # a compile accsat-cc would rewrite (or disable = true)
        from .ccache import run_by_cache, warning

        cache = run_by_cache()
        if cache is not None:
            say(warning(cache, inv))
    cfg = Config.from_env()
    if cfg.disable or inv.passthrough is not None:
        if cfg.log or cfg.events:
            why = "disabled" if cfg.disable else inv.passthrough
            event_log(cfg)("pass-through", why or "")
        return exec_compiler(inv.command)
    if cfg.problems:
        for problem in cfg.problems:
            say(f"{PROG}: {problem}" + ("" if cfg.strict else "; compiling the original"))
        if cfg.strict:
            return 2
        if cfg.log or cfg.events:
            event_log(cfg).fallback(None, "; ".join(cfg.problems))
        return exec_compiler(inv.command)
    return run(inv, cfg)


def _status(rc: int) -> int:
    """Die by the compiler's (or our) signal, as the compiler would have."""
    if rc < 0:
        sys.stdout.flush()
        sys.stderr.flush()
        with contextlib.suppress(OSError):  # SIGKILL (the OOM killer) has no handler to reset
            signal.signal(-rc, signal.SIG_DFL)
        os.kill(os.getpid(), -rc)
        return 128 - rc
    return rc
