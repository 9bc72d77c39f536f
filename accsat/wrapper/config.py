"""The wrapper's settings, all from the environment (a Makefile passes nothing else)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..frontend.preprocess import PreprocessOptions
from ..options import DEFAULT_VARIANT, VARIANTS, Options

DEFAULT_TIMEOUT = 300.0


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "yes", "true", "on")


def default_cache_dir() -> Path:
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "accsat"


@dataclass(frozen=True)
class Config:
    variant: str = DEFAULT_VARIANT
    disable: bool = False
    strict: bool = False
    verbose: bool = False
    verify: bool = False  # ACCSAT_VERIFY: translation-validate each rewrite
    report: str | None = None
    keep: str | None = None
    cache_dir: Path | None = None  # None: no cache
    timeout: float = DEFAULT_TIMEOUT
    problems: tuple[str, ...] = ()  # bad settings, one message each

    def options(self, preprocess: PreprocessOptions, name: str) -> Options:
        """What the rewrite of the file called ``name`` is asked to do (and its cache key)."""
        return Options(variant=self.variant, preprocess=preprocess, line_directives=name,
                       verify=self.verify)

    @classmethod
    def from_env(cls) -> Config:
        problems = []
        variant = os.environ.get("ACCSAT_VARIANT", "").strip() or DEFAULT_VARIANT
        if variant not in VARIANTS:
            problems.append(f"ACCSAT_VARIANT='{variant}' is not a variant "
                            f"(one of {', '.join(VARIANTS)})")
        timeout = DEFAULT_TIMEOUT
        raw = os.environ.get("ACCSAT_TIMEOUT", "").strip()
        if raw:
            try:
                timeout = float(raw)
                if not timeout > 0:
                    raise ValueError
            except ValueError:
                problems.append(f"ACCSAT_TIMEOUT='{raw}' is not a positive number of seconds")
                timeout = DEFAULT_TIMEOUT
        cache_dir: Path | None = None
        if os.environ.get("ACCSAT_CACHE", "1").strip().lower() not in ("0", "no", "false", "off"):
            custom = os.environ.get("ACCSAT_CACHE_DIR", "").strip()
            cache_dir = Path(custom) if custom else default_cache_dir()
        return cls(
            variant=variant,
            disable=_flag("ACCSAT_DISABLE"),
            strict=_flag("ACCSAT_STRICT"),
            verbose=_flag("ACCSAT_VERBOSE"),
            verify=_flag("ACCSAT_VERIFY"),
            report=os.environ.get("ACCSAT_REPORT") or None,
            keep=os.environ.get("ACCSAT_KEEP") or None,
            cache_dir=cache_dir,
            timeout=timeout,
            problems=tuple(problems),
        )
