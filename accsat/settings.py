"""Every setting of accsat, declared once.

A setting is a dataclass field made by :func:`setting`: its name, parser,
default, help, the stage that reads it and whether it enters the rewrite's
cache key sit on the field, next to its type. Everything else derives from the
name: the config-file key ``name``, the environment variable ``ACCSAT_<NAME>``
and, for a rewrite setting, the ``accsat`` option ``--name`` (dashes for
underscores; a yes/no setting is a flag, ``--name/--no-name`` when it is on by
default). :func:`declared` lists the settings of a class, those of the
dataclasses it holds included (``Options.limits``), in field order;
:func:`build` makes an instance from a mapping of names to values.

The rewrite's settings are fields of :class:`accsat.options.Options`, the
compiler wrapper's of :class:`accsat.ccconfig.Config`. ``accsat``'s
options (accsat/cliparams.py), accsat-cc's environment, config file,
``--help`` and ``--show-config`` (accsat/wrapper/) and ``Options.key()`` all
walk them, so a new setting is one field plus the code that reads it.

Cheap to import (no click, no pipeline): the wrapper reads it on every call.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

# Who reads a setting (the stage its value is handed to).
STAGES = ("pipeline", "saturate", "extract", "codegen", "verify", "wrapper")

# A year: more is no limit in practice, and far more overflows timers (1e300 s, inf).
MAX_SECONDS = 365 * 24 * 3600.0
NO_LIMIT = 1e7  # seconds: a timeout of inf (or more) means this; select() and friends take it

PREFIX = "ACCSAT_"  # of every setting's environment variable
_TRUE = ("1", "yes", "true", "on")
_FALSE = ("0", "no", "false", "off")
_META = "accsat.setting"


# -- parsers: a TOML value, an environment string or a command-line word -> the value -----------
# Each raises ValueError(why), ``why`` reading after the value: "'x' is not a ...".
@dataclass(frozen=True)
class Flag:
    """Yes or no."""

    metavar = "1"

    def __call__(self, raw: object) -> bool:
        if isinstance(raw, bool):
            return raw
        word = str(raw).strip().lower() if isinstance(raw, (str, int)) else ""
        if word in _TRUE or word in _FALSE:
            return word in _TRUE
        raise ValueError("is not a yes/no value (1, yes, true, on / 0, no, false, off)")


@dataclass(frozen=True)
class Choice:
    """One word of ``choices``."""

    choices: tuple[str, ...]
    what: str = "a choice"
    metavar: str = "NAME"

    def __call__(self, raw: object) -> str:
        if isinstance(raw, str) and raw.strip() in self.choices:
            return raw.strip()
        raise ValueError(f"is not {self.what} (one of {', '.join(self.choices)})")


@dataclass(frozen=True)
class Count:
    """A whole number, at least ``minimum``."""

    minimum: int = 1
    metavar: str = "N"

    def __call__(self, raw: object) -> int:
        why = f"is not a whole number >= {self.minimum}"
        if isinstance(raw, bool) or not isinstance(raw, (str, int)):
            raise ValueError(why)
        try:
            value = int(raw.strip()) if isinstance(raw, str) else raw
        except ValueError:
            raise ValueError(why) from None
        if value < self.minimum:
            raise ValueError(why)
        return value


@dataclass(frozen=True)
class Seconds:
    """A duration: finite, in [0, a year] (above 0 with ``positive``). With
    ``unlimited``, ``inf`` (or anything past NO_LIMIT) is NO_LIMIT; with
    ``zero_is_none``, 0 is None (off)."""

    positive: bool = False
    unlimited: bool = False
    zero_is_none: bool = False
    metavar = "SEC"

    def __call__(self, raw: object) -> float | None:
        what = "a positive number of seconds" if self.positive else "a number of seconds >= 0"
        why = f"is not {what}" + (" (inf: no limit)" if self.unlimited else " (at most a year)")
        if isinstance(raw, bool) or not isinstance(raw, (str, int, float)):
            raise ValueError(why)
        try:
            value = float(raw)
        except ValueError:
            raise ValueError(why) from None
        if math.isnan(value) or value < 0 or (self.positive and value == 0):
            raise ValueError(why)
        if self.unlimited:
            return min(value, NO_LIMIT)
        if value > MAX_SECONDS:
            raise ValueError(why)
        return None if self.zero_is_none and value == 0 else value


@dataclass(frozen=True)
class Fraction:
    """A number in [0, 1]."""

    metavar = "FRACTION"

    def __call__(self, raw: object) -> float:
        why = "is not a fraction in [0, 1]"
        if isinstance(raw, bool) or not isinstance(raw, (str, int, float)):
            raise ValueError(why)
        try:
            value = float(raw)
        except ValueError:
            raise ValueError(why) from None
        if not 0 <= value <= 1:  # also nan
            raise ValueError(why)
        return value


@dataclass(frozen=True)
class Names:
    """Names separated by commas (``a,b``), or a TOML list of them."""

    metavar = "A,B"

    def __call__(self, raw: object) -> tuple[str, ...]:
        if isinstance(raw, (list, tuple)) and all(isinstance(x, str) for x in raw):
            return tuple(x.strip() for x in raw if x.strip())
        if isinstance(raw, str):
            return tuple(x.strip() for x in raw.split(",") if x.strip())
        raise ValueError("is not a list of names (a,b)")


@dataclass(frozen=True)
class Text:
    """A word or a path (``~`` expanded)."""

    metavar: str = "PATH"

    def __call__(self, raw: object) -> str:
        if not isinstance(raw, str) or not raw.strip():
            raise ValueError(
                "is not a path" if self.metavar in ("PATH", "DIR") else f"is not a {self.metavar}"
            )
        return os.path.expanduser(raw)


ANY = "any"  # the register budget: no limit
KEEP = "keep"  # the register budget: no occupancy step lost against the code as written
AUTO = "auto"  # keep where the compile makes GPU code (accsat-cc), else any


@dataclass(frozen=True)
class Registers:
    """``auto``, ``any``, ``keep`` or a number of registers per thread."""

    metavar = "auto|any|keep|N"

    def __call__(self, raw: object) -> str | int:
        if isinstance(raw, str) and raw.strip().lower() in (AUTO, ANY, KEEP):
            return raw.strip().lower()
        try:
            return Count(1)(raw)
        except ValueError:
            raise ValueError(
                "is not a register budget (auto, any, keep, or a number of registers per thread)"
            ) from None


# -- how a value is written (--help, --show-config, accsat's option defaults) -----------------
def show_value(value: object) -> str:
    if value is None:
        return "(unset)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return "inf (no limit)" if value >= NO_LIMIT else f"{value:g}"
    if isinstance(value, tuple):
        return ",".join(map(str, value)) or "(none)"
    return str(value)


# -- the declaration ---------------------------------------------------------------------------
@dataclass(frozen=True)
class _Declared:
    """What :func:`setting` puts on a field (the rest comes from the field)."""

    parse: Callable[[object], Any]
    help: str
    stage: str
    name: str | None
    key: bool
    option: bool
    compute: Callable[[], Any] | None
    show: Callable[[Any], str]
    metavar: str | None
    default_text: str | None
    every_call: bool


def setting(
    default: Any,
    help: str,
    *,
    parse: Callable[[object], Any],
    stage: str,
    name: str | None = None,
    key: bool = True,
    option: bool = True,
    compute: Callable[[], Any] | None = None,
    show: Callable[[Any], str] = show_value,
    metavar: str | None = None,
    default_text: str | None = None,
    every_call: bool = False,
) -> Any:
    """A dataclass field that is a setting.

    ``name`` (default: the field's) is the config-file key, ``ACCSAT_<NAME>`` and
    ``--<name>``; ``parse`` turns a TOML value or a word into the value (ValueError
    naming why otherwise); ``stage`` reads it; ``key``: it enters the rewrite's cache
    key; ``option``: ``accsat`` takes it as an option (the rewrite's settings);
    ``compute`` gives the default at read time (a folder under $HOME) where the
    field's own default stays ``default``; ``default_text`` is how help writes it;
    ``every_call``: it acts on calls that have no compute construct too (a log line for
    each), so that accsat-cc's launcher does not compile those at once while it is set."""
    if stage not in STAGES:
        raise ValueError(f"unknown stage {stage!r} (one of {', '.join(STAGES)})")
    meta = _Declared(
        parse, help, stage, name, key, option, compute, show, metavar, default_text, every_call
    )
    return dataclasses.field(default=default, metadata={_META: meta})


@dataclass(frozen=True)
class Setting:
    """One setting, as :func:`declared` finds it."""

    name: str
    path: tuple[str, ...]  # attributes from the holder's class to the value ("limits", "nodes")
    parse: Callable[[object], Any]
    default: Any  # the field's default
    help: str
    stage: str
    key: bool
    option: bool
    compute: Callable[[], Any] | None
    show: Callable[[Any], str]
    placeholder: str | None
    default_text: str | None
    every_call: bool

    @property
    def env(self) -> str:
        """The environment variable."""
        return PREFIX + self.name.upper()

    @property
    def flag(self) -> str:
        """The ``accsat`` option."""
        return "--" + self.name.replace("_", "-")

    @property
    def metavar(self) -> str:
        """What help writes after ``ACCSAT_<NAME>=`` and the option."""
        return self.placeholder or str(getattr(self.parse, "metavar", "VALUE"))

    @property
    def is_flag(self) -> bool:
        return isinstance(self.parse, Flag)

    def default_value(self) -> Any:
        """The default, computed now where it depends on the environment."""
        return self.compute() if self.compute is not None else self.default

    def shown_default(self) -> str:
        return self.default_text or self.show(self.default_value())

    def get(self, holder: object) -> Any:
        for attr in self.path:
            holder = getattr(holder, attr)
        return holder


@functools.cache
def declared(cls: type) -> tuple[Setting, ...]:
    """The settings of ``cls``, with those of the dataclasses its fields hold by
    default (``Options.limits``), in field order."""
    return tuple(_walk(cls, ()))


def _walk(cls: type, prefix: tuple[str, ...]) -> Iterable[Setting]:
    for f in dataclasses.fields(cls):
        meta = f.metadata.get(_META)
        if meta is not None:
            yield Setting(
                meta.name or f.name,
                (*prefix, f.name),
                meta.parse,
                f.default,
                meta.help,
                meta.stage,
                meta.key,
                meta.option,
                meta.compute,
                meta.show,
                meta.metavar,
                meta.default_text,
                meta.every_call,
            )
        elif dataclasses.is_dataclass(f.default):
            yield from _walk(type(f.default), (*prefix, f.name))


def by_name(cls: type) -> dict[str, Setting]:
    return {s.name: s for s in declared(cls)}


def build(cls: type, values: Mapping[str, Any], **fixed: Any) -> Any:
    """An instance of ``cls`` whose settings take ``values`` (by setting name; a
    missing one keeps its default), whose other fields take ``fixed`` (or their
    defaults)."""
    kwargs: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        meta = f.metadata.get(_META)
        if meta is not None:
            name = meta.name or f.name
            if name in values:
                kwargs[f.name] = values[name]
        elif f.name in fixed:
            kwargs[f.name] = fixed[f.name]
        elif dataclasses.is_dataclass(f.default):
            kwargs[f.name] = build(type(f.default), values)
    return cls(**kwargs)


def key_data(obj: Any) -> dict[str, Any]:
    """What of ``obj`` enters a cache key: every setting marked ``key`` (by name) and
    every field that is no setting (a file's preprocessing flags, its name), but for a
    field whose metadata says ``key`` is a function of it (what of it matters)."""
    cls: type = type(obj)
    out: dict[str, Any] = {s.name: s.get(obj) for s in declared(cls) if s.key}
    holders = {s.path[0] for s in declared(cls)}
    for f in dataclasses.fields(cls):
        if f.name not in holders:
            value = getattr(obj, f.name)
            if "key" in f.metadata:
                value = f.metadata["key"](value)
            record = dataclasses.is_dataclass(value) and not isinstance(value, type)
            out[f.name] = dataclasses.asdict(value) if record else value
    return out


@dataclass(frozen=True)
class Environment:
    """Settings read from the environment alone, where they act (no option, no key of
    accsat-cc's config file): where the data folders were moved, and what tests ask."""

    data: str | None = setting(
        None,
        "the folder holding rules/, cost_models/ and fakelibc/ where they were moved "
        "(default: the source tree, else <prefix>/share/accsat)",
        parse=Text("DIR"),
        stage="pipeline",
        key=False,
        option=False,
    )
    reread_strict: bool = setting(
        False,
        "a kernel whose printed C does not re-read as the extracted program is an error, "
        "not a kernel left as written (the tests and the fuzzer set it)",
        parse=Flag(),
        stage="pipeline",
        key=False,
        option=False,
    )


def environment(name: str, environ: Mapping[str, str] | None = None) -> Any:
    """The value of :class:`Environment`'s setting ``name`` from ``$ACCSAT_<NAME>``; its
    default where the variable is unset, empty or no value of it."""
    s = by_name(Environment)[name]
    raw = (os.environ if environ is None else environ).get(s.env, "")
    try:
        return s.parse(raw) if raw.strip() else s.default_value()
    except ValueError:
        return s.default_value()
