"""The wrapper's settings, read from the config file and the environment.

Every setting is declared once (accsat.settings): the wrapper's own are the
fields of :class:`Config` below, the rewrite's those of
:class:`accsat.options.Options` (``Config.rewrite_settings``), so accsat-cc
reaches every setting ``accsat rewrite`` takes. A setting's name is the key in
``$XDG_CONFIG_HOME/accsat/accsat.toml`` and, upper-cased behind ``ACCSAT_``,
the environment variable; the environment overrides the file.
``accsat-cc --show-config``, ``--help``, the file reader and the environment
reader all walk :data:`SETTINGS`.  A bad value is one line naming where it came
from; the setting keeps its default and the call compiles the original (a
Makefile cannot ask us anything).  Nothing here imports the pipeline:
``--stats`` and a cache hit read this module.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .frontend.preprocess import PreprocessOptions
from .options import Options
from .settings import NO_LIMIT, Flag, Seconds, Setting, Text, build, declared, setting

PROG = "accsat-cc"  # how the wrapper names itself in every message
_UNITS = {
    "": 1,
    "k": 10**3,
    "m": 10**6,
    "g": 10**9,
    "t": 10**12,
    "ki": 2**10,
    "mi": 2**20,
    "gi": 2**30,
    "ti": 2**40,
}
_SIZE = re.compile(r"(\d+(?:\.\d*)?)\s*([kmgt]i?)?b?", re.IGNORECASE)
__all__ = ["NO_LIMIT", "PROG", "SETTINGS", "Config", "Settings", "read_settings"]


def _in_home(xdg_variable: str, folder: str) -> Path | None:
    """``$XDG_...`` or ``~/folder``; None when there is no home folder (no HOME and a
    uid that /etc/passwd does not know, as in some containers)."""
    xdg = os.environ.get(xdg_variable)
    if xdg:
        return Path(xdg)
    try:
        return Path.home() / folder
    except (RuntimeError, KeyError):
        return None


def default_cache_dir() -> Path | None:
    """The cache folder; None (no cache) without a home folder."""
    base = _in_home("XDG_CACHE_HOME", ".cache")
    return base / "accsat" if base else None


def config_file() -> Path | None:
    """``$XDG_CONFIG_HOME/accsat/accsat.toml``, else ``~/.config/accsat/accsat.toml``."""
    base = _in_home("XDG_CONFIG_HOME", ".config")
    return base / "accsat" / "accsat.toml" if base else None


# -- the parsers of the wrapper's own settings (the rewrite's are in accsat.settings) -------------
parse_bool = Flag()
parse_seconds = Seconds(positive=True, unlimited=True)  # inf (or past NO_LIMIT): no limit
parse_path = Text("PATH")


class Size:
    """Bytes: ``500M``, ``2G`` (powers of 1000), ``2Gi`` (of 1024), a number; 0 = unlimited."""

    metavar = "SIZE"

    def __call__(self, raw: object) -> int:
        why = "is not a size (such as 500M, 2G, 1Gi; 0: unlimited)"
        if isinstance(raw, bool) or not isinstance(raw, (str, int)):
            raise ValueError(why)
        if isinstance(raw, int):
            if raw < 0:
                raise ValueError(why)
            return raw
        m = _SIZE.fullmatch(raw.strip())
        n = int(float(m.group(1)) * _UNITS[(m.group(2) or "").lower()]) if m else 0
        if m is None or (n == 0 and float(m.group(1)) != 0):  # 0.1 is not 0 (unlimited)
            raise ValueError(why)
        return n


class Folder(Text):
    def __call__(self, raw: object) -> Path:  # type: ignore[override]
        return Path(super().__call__(raw))


parse_size = Size()
parse_folder = Folder("DIR")


def show_size(n: int) -> str:
    if n == 0:
        return "0 (unlimited)"
    for unit in ("T", "G", "M", "k", "Ti", "Gi", "Mi", "Ki"):
        if n % _UNITS[unit.lower()] == 0:
            return f"{n // _UNITS[unit.lower()]}{unit}"
    return str(n)


def _wrapper(default: Any, help: str, parse, **more: Any) -> Any:
    """A setting of the wrapper's own: not an ``accsat`` option, not in the cache key."""
    return setting(default, help, parse=parse, stage="wrapper", key=False, option=False, **more)


@dataclass(frozen=True)
class Config:
    """The settings of one call: the wrapper's own (declared here) and the rewrite's."""

    disable: bool = _wrapper(False, "run the compiler untouched (pure pass-through)", parse_bool)
    strict: bool = _wrapper(
        False,
        "fail (exit 1) instead of compiling the original when accsat fails on a file",
        parse_bool,
    )
    verbose: bool = _wrapper(
        False,
        "one line per file: kernels rewritten, from the cache; one line when the "
        "compiler's floating-point flags make the rewrite exact (fp_exact)",
        parse_bool,
        every_call=True,
    )
    report: str | None = _wrapper(
        None, "append one JSON object per kernel (JSON Lines)", parse_path
    )
    keep: str | None = _wrapper(
        None, "keep each rewritten source as DIR/<its absolute path>", parse_path, metavar="DIR"
    )
    timeout: float = _wrapper(
        300.0, "seconds the rewrite of one file may take; inf: no limit", parse_seconds
    )
    cache: bool = _wrapper(True, "keep rewrites in the cache", parse_bool)
    # where the cache is; None: no cache (also with cache off)
    cache_dir: Path | None = _wrapper(
        None,
        "the cache folder, from $XDG_CACHE_HOME or ~/.cache",
        parse_folder,
        compute=default_cache_dir,
    )
    cache_max: int = _wrapper(
        1_000_000_000,
        "cache size limit, least recently used entries go first (0: unlimited)",
        parse_size,
        show=show_size,
    )
    log: str | None = _wrapper(
        None, "append a debug log: one line per event", parse_path, every_call=True
    )
    events: str | None = _wrapper(
        None,
        "append the events of log as JSON Lines, for programs (accsat bench and accsat "
        "tune count from it the files compiled as written)",
        parse_path,
        every_call=True,
    )
    profile: str | None = _wrapper(
        None,
        "build programs that append each kernel's launches and seconds to PATH at exit "
        "(JSON Lines; also with disable = true: timers, no rewrite)",
        parse_path,
        every_call=True,
    )
    tune: str | None = _wrapper(
        None, "a tuning database (accsat tune): each kernel the config chosen for it", parse_path
    )
    static: str | None = _wrapper(
        None,
        "append each compute construct's device code figures (loads, registers, spills, "
        "block size: gcc's nvptx offload compiler and ptxas) to PATH (JSON Lines; accsat "
        "tune --static; also with disable = true: the code as written)",
        parse_path,
    )
    build_dir: str | None = _wrapper(
        None,
        "the directory kernels are named from in profiles and tuning databases "
        "(default: the database's folder, else the current one)",
        parse_path,
    )
    server: bool = _wrapper(
        True,
        "rewrite in this user's compile server (started on demand, exits when idle)",
        parse_bool,
    )
    server_idle: float = _wrapper(
        600.0, "seconds the compile server waits for work before it exits", parse_seconds
    )
    # the rewrite's settings: each file's Options but for its preprocessing and name
    rewrite_settings: Options = Options()
    # not a setting: False when disable = true only keeps the timers of ``profile`` in
    rewrite: bool = True
    problems: tuple[str, ...] = ()  # bad settings, one line each
    settings: Settings | None = field(default=None, compare=False, repr=False)

    def options(
        self, preprocess: PreprocessOptions, name: str, exact: bool = False, c89: bool = False
    ) -> Options:
        """What the rewrite of the file called ``name`` is asked to do (and its cache key);
        ``exact``: the compiler's flags ask for exact floating point (wrapper/fpflags.py),
        which makes it ``fp_exact`` unless fp_exact was set to false; ``c89``: they ask
        for declarations before statements (args.c89_because), which makes it
        ``declarations_first`` unless that was set to false."""
        options = replace(self.rewrite_settings, preprocess=preprocess, line_directives=name)
        if exact and not options.fp_exact and not self.set_explicitly("fp_exact"):
            options = replace(options, fp_exact=True)
        if c89 and not self.set_explicitly("declarations_first"):
            options = replace(options, declarations_first=True)
        return options

    def set_explicitly(self, name: str) -> bool:
        """Whether setting ``name`` came from the environment or the config file."""
        return self.settings is not None and self.settings.origins.get(name) != "default"

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Config:
        got = read_settings(environ)
        values = dict(got.values)
        if not values["cache"]:
            values["cache_dir"] = None
        rewrite = True
        # accsat tune's orig: timers (or device figures), no rewrite
        if values["disable"] and (values["profile"] or values["static"]):
            values["disable"], rewrite = False, False
        return build(cls, values, rewrite=rewrite, problems=got.problems, settings=got)


SETTINGS: tuple[Setting, ...] = declared(Config)
BY_NAME: dict[str, Setting] = {s.name: s for s in SETTINGS}


def env(name: str) -> str:
    """The environment variable of accsat-cc's setting ``name`` (its own or the
    rewrite's); KeyError for a name no setting has."""
    return BY_NAME[name].env


def environment(**values: str) -> dict[str, str]:
    """accsat-cc's variables for the settings named: ``report="k.jsonl"`` gives
    ``{"ACCSAT_REPORT": "k.jsonl"}`` (for a build run through it)."""
    return {env(name): value for name, value in values.items()}


@dataclass(frozen=True)
class Settings:
    """What the table reads: each setting's value and where it came from."""

    values: Mapping[str, Any]
    origins: Mapping[str, str]  # "default", "environment", or the config file's path
    problems: tuple[str, ...]  # one line each
    file: Path | None  # the config file (it may not exist; None: no home folder)


def _read_file(path: Path | None) -> tuple[dict, list[str]]:
    if path is None:
        return {}, []
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return {}, []
    except OSError as exc:
        return {}, [f"{path}: cannot read: {exc.strerror}"]
    from .resources import tomllib

    try:
        return tomllib.loads(data.decode("utf-8", "replace")), []
    except tomllib.TOMLDecodeError as exc:
        return {}, [f"{path}: not a valid TOML file: {exc}"]


def read_settings(environ: Mapping[str, str] | None = None) -> Settings:
    """Defaults, then the config file, then the environment (empty variables are unset)."""
    env = os.environ if environ is None else environ
    path = config_file()
    table, problems = _read_file(path)
    values: dict[str, Any] = {}
    origins: dict[str, str] = {}
    for key in table:
        if key not in BY_NAME:
            problems.append(f"{path}: unknown setting '{key}' (settings: {', '.join(BY_NAME)})")
    for s in SETTINGS:
        values[s.name], origins[s.name] = s.default_value(), "default"
        if s.name in table:
            try:
                values[s.name], origins[s.name] = s.parse(table[s.name]), str(path)
            except ValueError as why:
                problems.append(f"{path}: {s.name} = {table[s.name]!r} {why}")
        raw = env.get(s.env, "")
        if raw.strip():
            try:
                values[s.name], origins[s.name] = s.parse(raw), "environment"
            except ValueError as why:
                problems.append(f"{s.env}='{raw}' {why}")
    return Settings(values, origins, tuple(problems), path)
