"""The wrapper's settings: one table, read from the config file and the environment.

Every setting is one row of :data:`SETTINGS` (name, parser, default, help).  The
row's name is the key in ``$XDG_CONFIG_HOME/accsat/accsat.toml`` and, upper-cased
behind ``ACCSAT_``, the environment variable; the environment overrides the file.
``accsat-cc --show-config``, the file reader and the environment reader all walk
the same table, so a new setting is a new row (and a :class:`Config` field of the
same name).  A bad value is one line naming where it came from; the setting keeps
its default and the call compiles the original (a Makefile cannot ask us anything).
Nothing here imports the pipeline: ``--stats`` and a cache hit read this module.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..options import DEFAULT_VARIANT, VARIANTS

if TYPE_CHECKING:
    from ..frontend.preprocess import PreprocessOptions
    from ..options import Options

DEFAULT_TIMEOUT = 300.0
NO_LIMIT = 1e7  # seconds: ACCSAT_TIMEOUT=inf (or more) means this; select() and friends take it
PROG = "accsat-cc"  # how the wrapper names itself in every message
DEFAULT_CACHE_MAX = 1_000_000_000
DEFAULT_SERVER_IDLE = 600.0
_TRUE = ("1", "yes", "true", "on")
_FALSE = ("0", "no", "false", "off")
_UNITS = {"": 1, "k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12,
          "ki": 2**10, "mi": 2**20, "gi": 2**30, "ti": 2**40}
_SIZE = re.compile(r"(\d+(?:\.\d*)?)\s*([kmgt]i?)?b?", re.IGNORECASE)


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


# -- parsers: a TOML value or an environment string -> the value; ValueError(why) if bad ----------
def parse_bool(raw: object) -> bool:
    if isinstance(raw, bool):
        return raw
    word = str(raw).strip().lower() if isinstance(raw, (str, int)) else ""
    if word in _TRUE or word in _FALSE:
        return word in _TRUE
    raise ValueError("is not a yes/no value (1, yes, true, on / 0, no, false, off)")


def parse_variant(raw: object) -> str:
    if isinstance(raw, str) and raw.strip() in VARIANTS:
        return raw.strip()
    raise ValueError(f"is not a variant (one of {', '.join(VARIANTS)})")


def parse_seconds(raw: object) -> float:
    """A positive number of seconds; ``inf`` (or anything past NO_LIMIT) means no limit."""
    why = "is not a positive number of seconds (inf: no limit)"
    if isinstance(raw, bool) or not isinstance(raw, (str, int, float)):
        raise ValueError(why)
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(why) from None
    if not value > 0:  # also nan
        raise ValueError(why)
    return min(value, NO_LIMIT)


def parse_size(raw: object) -> int:
    """Bytes: ``500M``, ``2G`` (powers of 1000), ``2Gi`` (of 1024), a number; 0 = unlimited."""
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


def parse_path(raw: object) -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise ValueError("is not a path")
    return os.path.expanduser(raw)


def parse_folder(raw: object) -> Path:
    return Path(parse_path(raw))


# -- how --show-config writes a value ---------------------------------------------------------
def show_size(n: int) -> str:
    if n == 0:
        return "0 (unlimited)"
    for unit in ("T", "G", "M", "k", "Ti", "Gi", "Mi", "Ki"):
        if n % _UNITS[unit.lower()] == 0:
            return f"{n // _UNITS[unit.lower()]}{unit}"
    return str(n)


def show_value(value: object) -> str:
    if value is None:
        return "(unset)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return "inf (no limit)" if value >= NO_LIMIT else f"{value:g}"
    return str(value)


_METAVARS: dict[Callable, str] = {parse_bool: "1", parse_variant: "NAME", parse_seconds: "SEC",
                                  parse_size: "SIZE", parse_path: "PATH", parse_folder: "DIR"}


@dataclass(frozen=True)
class Setting:
    name: str  # the key in accsat.toml; ACCSAT_<NAME> in the environment
    parse: Callable[[object], Any]
    default: Any  # or a function of nothing that gives it (read at call time)
    help: str
    show: Callable[[Any], str] = show_value
    placeholder: str | None = None  # what the help writes after ACCSAT_NAME= (default: by type)

    @property
    def env(self) -> str:
        return "ACCSAT_" + self.name.upper()

    @property
    def metavar(self) -> str:
        """What the help writes after ``ACCSAT_NAME=``."""
        return self.placeholder or _METAVARS.get(self.parse, "VALUE")

    def default_value(self) -> Any:
        return self.default() if callable(self.default) else self.default


SETTINGS: tuple[Setting, ...] = (
    Setting("variant", parse_variant, DEFAULT_VARIANT,
            f"{', '.join(VARIANTS)}; as accsat rewrite --variant"),
    Setting("disable", parse_bool, False, "run the compiler untouched (pure pass-through)"),
    Setting("strict", parse_bool, False,
            "fail (exit 1) instead of compiling the original when accsat fails on a file"),
    Setting("verbose", parse_bool, False, "one line per file: kernels rewritten, from the cache"),
    Setting("verify", parse_bool, False, "translation-validate every rewritten kernel"),
    Setting("report", parse_path, None, "append one JSON object per kernel (JSON Lines)"),
    Setting("keep", parse_path, None, "keep each rewritten source as DIR/<its absolute path>",
            placeholder="DIR"),
    Setting("timeout", parse_seconds, DEFAULT_TIMEOUT,
            "seconds the rewrite of one file may take; inf: no limit"),
    Setting("cache", parse_bool, True, "keep rewrites in the cache"),
    Setting("cache_dir", parse_folder, default_cache_dir,
            "the cache folder, from $XDG_CACHE_HOME or ~/.cache"),
    Setting("cache_max", parse_size, DEFAULT_CACHE_MAX,
            "cache size limit, least recently used entries go first (0: unlimited)", show_size),
    Setting("log", parse_path, None, "append a debug log: one line per event"),
    Setting("profile", parse_path, None,
            "build programs that append each kernel's launches and seconds to PATH at exit "
            "(JSON Lines; also with disable = true: timers, no rewrite)"),
    Setting("tune", parse_path, None,
            "a tuning database (accsat tune): each kernel the config chosen for it"),
    Setting("build_dir", parse_path, None,
            "the directory kernels are named from in profiles and tuning databases "
            "(default: the database's folder, else the current one)"),
    Setting("server", parse_bool, True,
            "rewrite in this user's compile server (started on demand, exits when idle)"),
    Setting("server_idle", parse_seconds, DEFAULT_SERVER_IDLE,
            "seconds the compile server waits for work before it exits"),
)
BY_NAME: dict[str, Setting] = {s.name: s for s in SETTINGS}


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
    from ..resources import tomllib

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


@dataclass(frozen=True)
class Config:
    """The settings of one call; one field per row of SETTINGS."""

    variant: str = DEFAULT_VARIANT
    disable: bool = False
    strict: bool = False
    verbose: bool = False
    verify: bool = False  # translation-validate each rewrite
    report: str | None = None
    keep: str | None = None
    timeout: float = DEFAULT_TIMEOUT
    cache: bool = True
    cache_dir: Path | None = None  # where the cache is; None: no cache (also with cache off)
    cache_max: int = DEFAULT_CACHE_MAX
    log: str | None = None
    profile: str | None = None  # ACCSAT_PROFILE: put timers around the constructs
    tune: str | None = None  # ACCSAT_TUNE: a tuning database
    build_dir: str | None = None
    server: bool = True  # ACCSAT_SERVER: the compile server (wrapper/server.py)
    server_idle: float = DEFAULT_SERVER_IDLE
    # not a setting: False when disable = true only keeps the timers of ``profile`` in
    rewrite: bool = True
    problems: tuple[str, ...] = ()  # bad settings, one line each
    settings: Settings | None = field(default=None, compare=False, repr=False)

    def options(self, preprocess: PreprocessOptions, name: str) -> Options:
        """What the rewrite of the file called ``name`` is asked to do (and its cache key)."""
        from ..options import Options

        return Options(variant=self.variant, preprocess=preprocess, line_directives=name,
                       verify=self.verify)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Config:
        got = read_settings(environ)
        names = {f.name for f in fields(cls)}
        values = {name: value for name, value in got.values.items() if name in names}
        if not values["cache"]:
            values["cache_dir"] = None
        if values["disable"] and values["profile"]:  # accsat tune's orig: timers, no rewrite
            values["disable"], values["rewrite"] = False, False
        return cls(**values, problems=got.problems, settings=got)
