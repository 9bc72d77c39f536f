"""How a cell's compiler is called: plain for ``orig``, through ``accsat-cc`` otherwise.

Also reads back what accsat-cc said: its kernel reports (``ACCSAT_REPORT``)
and, in its event log (``ACCSAT_EVENTS``, :mod:`accsat.toolchain.events`), its
fallbacks: files that went into the binary unrewritten. Such a cell still
measures something, but not entirely the variant: the count is kept with the
result.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

from .. import ccconfig
from ..options import ORIG, split_config
from ..settings import PREFIX, Environment, by_name
from ..toolchain import process
from ..toolchain.records import read_jsonl


def wrapper_command() -> list[str]:
    """``accsat-cc``: the one installed next to this Python, else on PATH, else ``-m``."""
    beside = Path(sys.executable).parent / "accsat-cc"
    if beside.is_file() and os.access(beside, os.X_OK):
        return [str(beside)]
    found = shutil.which("accsat-cc")
    if found:
        return [found]
    return [sys.executable, "-m", "accsat.wrapper"]


def cc_command(variant: str, compiler: str) -> str:
    """The CC a Makefile gets, as one shell word list."""
    if variant == ORIG:
        return compiler
    return " ".join([*(shlex.quote(w) for w in wrapper_command()), compiler])


@lru_cache(maxsize=1)
def accsat_code() -> str:
    """A hash of accsat's code, rules and cost models (what a rewrite depends on).

    The same as accsat-cc's cache uses; a variant's build depends on it, so it
    is part of the cell's fingerprint: change accsat, and variants rebuild.
    Computed in a child Python started in a neutral folder, as accsat-cc's
    own processes import accsat (PYTHONPATH first; never the current folder,
    which ``python -m`` would put first in this process).
    """
    probe = (
        "import sys\ntry:\n from accsat.wrapper.cache import fingerprint\n"
        " print(fingerprint())\nexcept ImportError:\n from accsat import __version__\n"
        " print('accsat-' + __version__)\n"
    )
    with tempfile.TemporaryDirectory(prefix="accsat-probe-") as tmp:
        done = process.capture([sys.executable, "-c", probe], cwd=tmp, timeout=120)
    if not done.ok or not done.out.strip():
        why = "timed out" if done.timed_out else done.err.strip()[-500:]
        raise RuntimeError(f"cannot fingerprint accsat: {why}")
    return done.out.strip()


# where accsat's data folders are (settings.Environment's data) and the register budget a
# sweep is run under (issue 26: `ACCSAT_REGISTERS=keep accsat bench npb --ptx`) are kept;
# every other setting is the user's and would change what a cell measures
_DATA = by_name(Environment)["data"].env
_REWRITE_KEPT = (ccconfig.env("registers"),)  # kept, and they change a rewrite
_KEPT = (_DATA, *_REWRITE_KEPT)


def kept_settings() -> dict[str, str]:
    """The kept settings that change a rewrite (they belong in a cell's build key)."""
    return {k: os.environ[k] for k in _REWRITE_KEPT if k in os.environ}


def config_environment(config: str) -> dict[str, str]:
    """accsat-cc's settings for a build of ``config`` (not orig): its variant, and its
    register budget where it names one (``cse@keep``)."""
    name, budget = split_config(config)
    env = ccconfig.environment(variant=name)
    if budget is not None:
        env.update(ccconfig.environment(registers=str(budget)))
    return env


def environment(
    variant: str,
    report: Path | None,
    cache_dir: Path | None,
    extra: dict[str, str] | None = None,
    event_log: Path | None = None,
) -> dict[str, str]:
    """The build's environment: ours, without the user's ACCSAT_* settings, plus the cell's
    (``event_log``: where accsat-cc appends its events, ``events.fallbacks`` counts)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(PREFIX) or k in _KEPT}
    if variant != ORIG:
        env.update(config_environment(variant))
        if report is not None:
            env.update(ccconfig.environment(report=str(report)))
        if cache_dir is not None:
            env.update(ccconfig.environment(cache_dir=str(cache_dir)))
        if event_log is not None:
            env.update(ccconfig.environment(events=str(event_log)))
    env.update(extra or {})
    return env


def kernel_summary(report: Path) -> dict[str, int]:
    """Totals over accsat's JSON Lines kernel reports (empty when there are none)."""
    if not report.is_file():
        return {}
    s = {
        "found": 0,
        "rewritten": 0,
        "loads_before": 0,
        "loads_after": 0,
        "ops_before": 0,
        "ops_after": 0,
        "fma": 0,
    }
    seen: set[tuple] = set()
    for k in read_jsonl(report):
        # a file compiled twice (a retried build) reports twice: count kernels once
        ident = (k.get("file"), k.get("line"), k.get("function"))
        if ident in seen:
            continue
        seen.add(ident)
        s["found"] += 1
        s["rewritten"] += k.get("status") == "rewritten"
        s["loads_before"] += k.get("loads", {}).get("before", 0)
        s["loads_after"] += k.get("loads", {}).get("after", 0)
        s["ops_before"] += k.get("ops", {}).get("before", 0)
        s["ops_after"] += k.get("ops", {}).get("after", 0)
        s["fma"] += k.get("fma", 0)
    return s


def kernel_lines(report: Path) -> list[dict]:
    """The kernel reports themselves (file, line, function, status...)."""
    return list(read_jsonl(report))
