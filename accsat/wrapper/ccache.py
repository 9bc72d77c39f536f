"""A compiler cache in front of accsat-cc: ``CC="ccache accsat-cc gcc"``.

Such a cache keys its objects on the compiler's command line and the
preprocessed source, not on accsat-cc's settings: after ``ACCSAT_VARIANT`` or
``ACCSAT_DISABLE`` changes it hands back the objects of the old settings. The
working order is ``accsat-cc ccache gcc`` (accsat-cc keeps the launcher in front
of the compiler and rewrites first). When accsat-cc sees that a compiler cache
runs it (its parent process), it says so, once per call, with the fix.
"""

from __future__ import annotations

import os

from ..ccconfig import PROG, env
from ..settings import PREFIX
from .args import Invocation

# launchers that cache objects (distcc and icecc only send the work elsewhere)
CACHES = frozenset({"ccache", "sccache", "buildcache"})


def parent_name(pid: int | None = None) -> str:
    """The name of the process that started this one ("" when it cannot be read)."""
    try:
        with open(
            f"/proc/{os.getppid() if pid is None else pid}/comm", encoding="utf-8", errors="replace"
        ) as f:
            return f.read().strip()
    except OSError:
        return ""


def run_by_cache(parent: str | None = None) -> str | None:
    """The compiler cache that runs accsat-cc, or None."""
    name = parent_name() if parent is None else parent
    return name if name in CACHES else None


def warning(cache: str, inv: Invocation) -> str:
    """The one line that says so, with the fix."""
    return (
        f"{PROG}: {cache} runs accsat-cc, so its cache ignores the {PREFIX}* settings "
        f"(objects made with another {env('variant')} or {env('disable')} come back); "
        f'put accsat-cc first: CC="accsat-cc {cache} {inv.compiler}"'
    )
