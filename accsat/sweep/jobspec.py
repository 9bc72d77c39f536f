"""What a batch job is told: the work of a sweep as JSON, rebuilt on the node.

The driver writes the suite (a dataclass of paths, compilers, numbers) and the
cells into a file in the shared output folder; the job's worker reads it back
and calls ``work.cell``. JSON rather than pickle so that a user can read what a
job was asked to do, and a job never depends on the driver's memory.

Encoded: dataclasses (by their importable ``module:QualName`` and their init
fields), ``Path``, tuples, lists, dicts with string keys, and JSON's scalars.
Anything else cannot travel and says so.
"""

from __future__ import annotations

import dataclasses
import importlib
from pathlib import Path, PurePath

_DATACLASS, _PATH, _TUPLE = "__dataclass__", "__path__", "__tuple__"


class NotSendable(TypeError):
    """A value a job cannot be given (it has no JSON form here)."""


def name_of(obj) -> str:
    """``module:QualName`` of a class or function, as :func:`resolve` reads it."""
    return f"{obj.__module__}:{obj.__qualname__}"


def resolve(name: str):
    """The object ``module:Qual.Name`` names."""
    module, _, qual = name.partition(":")
    obj = importlib.import_module(module)
    for part in qual.split("."):
        obj = getattr(obj, part)
    return obj


def encode(value):
    if value is None or isinstance(value, str | bool | int | float):
        return value
    if isinstance(value, PurePath):
        return {_PATH: str(value)}
    if isinstance(value, tuple):
        return {_TUPLE: [encode(v) for v in value]}
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return {k: encode(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {
            f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value) if f.init
        }
        return {_DATACLASS: name_of(type(value)), "fields": fields}
    raise NotSendable(f"a {type(value).__name__} cannot be sent to a batch job")


def decode(data):
    if isinstance(data, list):
        return [decode(v) for v in data]
    if not isinstance(data, dict):
        return data
    if _PATH in data:
        return Path(data[_PATH])
    if _TUPLE in data:
        return tuple(decode(v) for v in data[_TUPLE])
    if _DATACLASS in data:
        cls = resolve(data[_DATACLASS])
        if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
            raise NotSendable(f"{data[_DATACLASS]} is not a dataclass")
        return cls(**{k: decode(v) for k, v in data["fields"].items()})
    return {k: decode(v) for k, v in data.items()}
