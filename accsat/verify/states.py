"""Random initial states: the values both runs of one trial start from.

Everything is a deterministic hash of (seed, trial, name or location), so the
original and the rewritten body see the same inputs and a failing trial can be
replayed from its number.

* Scalars declared outside the body (the loop index, the function's locals and
  parameters) get a value of their type, in a *mode* that cycles with the
  trial: every variable tiny (integers 0..3: subscripts stay inside even small
  arrays and two indices are often equal), shifted (2..5: ``i-2`` stays in
  range), small (0..7), then each variable its own mode among tiny, small,
  medium (-64..63) and wide (any bit pattern of the width). Floats are 0.5..8
  in magnitude with either sign; in wide mode 2^-40..2^40, zeros, inf and nan.
* Pointers point to distinct objects of unknown size (``p:NAME``), except in
  *aliasing* trials (every other one), where the non-``restrict`` pointers of
  one element type all point to the same place (one aliasing trial in four),
  or each may point into an earlier pointer's object (0, 1 or 2 elements or
  scalars apart, or as many as the value of one of the integer variables,
  either way) or into a declared array of its element type.
* Memory no one stored yet holds a hash of (object, byte offset, type, epoch);
  the epoch counts the opaque calls so far (a call may have written anything).
  Integers there are tiny or small (wide or medium in one trial out of five),
  floats as for scalars, and in one trial out of four (not when comparing with a
  tolerance) more than half of them special (+-0, +-inf, nan, the smallest
  subnormal, 1e300); pointers point to fresh objects.
* *Edge rounds* (``edge_round`` with the kernel's ``EdgeValues``, see ``edges``):
  every numeric location of memory and every scalar that does not index takes
  a value of its type's edge pool, the one at ``(round * stride + offset) mod
  len(pool)`` with a stride and an offset hashed from the location and the pass
  (``round // len(pool)``; a stride prime to the pool's length): in each pass
  each location meets every edge value of its type once, with other partners
  in the next pass (of a pool longer than half the rounds, its first values,
  two passes of them). Pointers point to distinct objects. Integer scalars
  that index are 1 or 2 in every round (the same locations are read in each);
  objects that index read tiny or small values, and so do floats compared with
  a tolerance (``finite``: edge values there only make cancellation and
  overflow, which rewrites that may change a float result are allowed to change).
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from ..frontend import ctypes as ct
from .cvalues import F32, F80, Desc, desc

if TYPE_CHECKING:
    from .edges import EdgeValues

MASK64 = (1 << 64) - 1


def _splitmix(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


def mix(*parts: int) -> int:
    h = 0x243F6A8885A308D3
    for p in parts:
        h = _splitmix(h ^ (p & MASK64))
    return h


_NAME_HASH: dict[str, int] = {}


def name_hash(name: str) -> int:
    h = _NAME_HASH.get(name)
    if h is None:
        h = zlib.crc32(name.encode()) | (len(name) << 32)
        _NAME_HASH[name] = h
    return h


SMALL, MEDIUM, WIDE, TINY, SHIFTED, SPECIAL = 0, 1, 2, 3, 4, 5
_KIND_CODE = {"i": 1, "b": 2, "f32": 3, "f64": 4, "f80": 5, "p": 6}


def value_from_hash(h: int, d: Desc, mode: int, where: str):
    """A value of the scalar type described by ``d`` drawn from the 64-bit hash ``h``."""
    kind = d[0]
    if kind == "i":
        bits, signed = d[1], d[2]
        if mode in (SMALL, SPECIAL):
            return h % 8
        if mode == TINY:
            return h % 4
        if mode == SHIFTED:
            return 2 + h % 4
        if mode == MEDIUM:
            return (h % 128) - 64 if signed else h % 128
        v = h & ((1 << bits) - 1)
        if signed and v >= 1 << (bits - 1):
            v -= 1 << bits
        return v
    if kind == "b":
        return h & 1
    if kind == "p":
        return ("*" + where, 0)
    # floating point
    special = (h >> 58) & 15
    if mode == WIDE and special < 4 or mode == SPECIAL and special < 11:
        v = (0.0, -0.0, math.inf, math.nan, -0.0, 0.0, -math.inf, 5e-324, 1e300, -0.0, -0.0)[
            special
        ]
    else:
        if kind == "f32":
            m = 1.0 + (h & ((1 << 23) - 1)) / (1 << 23)
        else:
            m = 1.0 + (h & ((1 << 52) - 1)) / (1 << 52)
        e = ((h >> 52) & 3) - 1 if mode != WIDE else ((h >> 52) % 81) - 40
        v = math.ldexp(m, e)
        if (h >> 56) & 3 == 0:
            v = -v
    if kind == "f32":
        if v == 1e300:
            v = 3.0e38  # the largest magnitudes of each type
        elif v == 5e-324:
            v = 1e-45
        return F32(v)
    if kind == "f80":
        return F80(v)
    return v


@dataclass
class TrialState:
    """The inputs of one trial, shared by both runs."""

    seed: int
    trial: int
    memory_mode: int
    scalars: dict[str, object] = field(default_factory=dict)  # outer register variables
    sizes: dict[str, int | None] = field(default_factory=dict)  # declared objects
    aliasing: dict[str, str] = field(default_factory=dict)  # pointer -> what it points into
    edges: EdgeValues | None = None  # set in edge rounds: the kernel's edge values
    edge_round: int = -1
    edge_span: int = 0  # > 0: the edge values of a type used are the first edge_span of its pool
    finite: bool = False
    _bases: dict[str, int] = field(default_factory=dict, repr=False)  # object -> its hash

    def memory_value(self, obj: str, off: int, d: Desc, epoch: int):
        if self.edges is not None and d[0] != "p" and obj not in self.edges.no_edge:
            v = self.edge_value(mix(name_hash(obj), off, epoch, _KIND_CODE[d[0]]), d)
            if v is not None:
                return v
        base = self._bases.get(obj)
        if base is None:
            base = self._bases[obj] = mix(self.seed, self.trial, name_hash(obj))
        h = _splitmix(
            base
            ^ (
                (
                    off * 0x9E3779B97F4A7C15
                    + (_KIND_CODE[d[0]] * 256 + d[1]) * 0xC2B2AE3D27D4EB4F
                    + epoch * 0x165667B19E3779F9
                )
                & MASK64
            )
        )
        if d[0] == "p":
            return ("*" + f"{obj}@{off}" + (f"#{epoch}" if epoch else ""), 0)
        return value_from_hash(h, d, self.memory_mode, "")

    def edge_value(self, h: int, d: Desc):
        """The edge value of this round for the location hashed to ``h``: each pass of
        ``len(pool)`` rounds gives every location each value of the pool once (of its
        first ``edge_span`` values, when there are more)."""
        assert self.edges is not None
        pool = self.edges.pool(d, self.finite)
        if not pool:  # floats compared with a tolerance: none
            return None
        n = min(len(pool), self.edge_span) if self.edge_span > 0 else len(pool)
        h = mix(self.seed, h, self.edge_round // n)
        stride = 1 + (h >> 32) % n if n > 1 else 1
        while math.gcd(stride, n) != 1:
            stride += 1
        return pool[(self.edge_round * stride + h) % n]

    def call_value(self, name: str, count: int, d: Desc):
        h = mix(self.seed, self.trial, name_hash("call:" + name), count, _KIND_CODE[d[0]])
        return value_from_hash(h, d, SMALL, f"call:{name}#{count}")

    def describe(self) -> str:
        if self.edges is not None:
            parts = [f"edge round {self.edge_round} (seed {self.seed})"]
        else:
            parts = [f"trial {self.trial} (seed {self.seed})"]
        if self.aliasing:
            parts.append(
                "aliasing " + ", ".join(f"{p}->{t}" for p, t in sorted(self.aliasing.items()))
            )
        return "; ".join(parts)


def make_state(
    seed: int,
    trial: int,
    scalars: dict[str, ct.CType],
    objects: dict[str, tuple[str, ct.CType, int | None]],
    restrict: frozenset[str] = frozenset(),
    alias: bool | None = None,
    finite: bool = False,
    edges: EdgeValues | None = None,
    edge_round: int = -1,
    edge_rounds: int = 0,
) -> TrialState:
    """The inputs of trial ``trial``: values for the outer scalars ``scalars`` (name: type),
    sizes of the declared ``objects`` (name: (object, type, size)).

    ``finite``: no special float values (for rewrites that may reassociate, where
    inf and nan are not expected to come out the same). ``edges`` and
    ``edge_round`` (>= 0): edge round ``edge_round`` instead of trial ``trial``, of
    ``edge_rounds`` in all (0: unknown): when a type's pool is longer than half of
    them, its first ``edge_rounds // 2`` values (two passes of them)."""
    if edges is not None and edge_round >= 0:
        return _edge_state(
            seed, edge_round, edge_rounds // 2, scalars, objects, restrict, finite, edges
        )
    special_trial = trial % 8 in (3, 7) and not finite
    if trial % 5 == 4:
        memory_mode = MEDIUM if trial % 10 == 4 else WIDE
    elif special_trial:
        memory_mode = SPECIAL
    else:
        memory_mode = TINY if trial % 2 == 0 else SMALL
    if finite and memory_mode == WIDE:
        memory_mode = MEDIUM
    st = TrialState(seed, trial, memory_mode)
    for _name, (obj, _t, size) in objects.items():
        st.sizes[obj] = size
    pointers: list[tuple[str, ct.Pointer]] = []
    for name in sorted(scalars):
        t = scalars[name]
        if isinstance(t, ct.Pointer):
            st.scalars[name] = ("p:" + name, 0)
            pointers.append((name, t))
            continue
        h = mix(seed, trial, name_hash(name))
        pick = (h >> 40) % 100
        if trial < 2 or trial % 4 == 0:
            mode = TINY
        elif trial % 4 == 1:
            mode = SHIFTED
        elif trial % 4 == 2:
            mode = SMALL
        else:
            mode = TINY if pick < 40 else SMALL if pick < 60 else MEDIUM if pick < 80 else WIDE
        d = desc(t)
        if d[0] in ("f32", "f64", "f80") and (special_trial or finite and mode == WIDE):
            mode = SPECIAL if special_trial else SMALL
        st.scalars[name] = value_from_hash(mix(h, 1), d, mode, name)
    if alias is None:
        alias = trial % 2 == 1
    if alias:
        _alias(st, seed, trial, pointers, objects, restrict)
    return st


_EDGE_SALT = 0x6564676573  # edge rounds draw their other values apart from the trials'


def _edge_state(
    seed: int, k: int, span: int, scalars, objects, restrict, finite: bool, edges: EdgeValues
) -> TrialState:
    """Edge round ``k``: pointers to distinct objects (the random trials try aliasing);
    edge values for the scalars that do not index; for those that do, 1 or 2 in every
    round (a location read through them stays the same location, and meets every edge
    value)."""
    st = make_state(
        mix(seed, _EDGE_SALT), k, scalars, objects, restrict, alias=False, finite=finite
    )
    st.memory_mode = TINY if k % 2 == 0 else SMALL
    st.seed, st.edges, st.edge_round, st.edge_span, st.finite = seed, edges, k, span, finite
    st.trial = -1 - k  # what takes no edge value differs from trial k's too
    for name in sorted(scalars):
        t = scalars[name]
        if isinstance(t, ct.Pointer):
            continue
        d = desc(t)
        h = mix(seed, _EDGE_SALT, name_hash(name))
        v = st.edge_value(h, d) if name not in edges.no_edge else None
        if v is not None:
            st.scalars[name] = v
        elif d[0] == "i":
            st.scalars[name] = 1 + h % 2
        else:
            st.scalars[name] = value_from_hash(mix(h, k), d, SMALL, name)
    return st


def _leaf(t: ct.CType) -> ct.CType:
    while isinstance(t, ct.Array):
        t = t.of
    return t


def _alias(st: TrialState, seed: int, trial: int, pointers, objects, restrict) -> None:
    """Point some non-restrict pointers into other pointers' objects or declared arrays.

    One aliasing trial in four makes every such pointer point exactly where the
    first one of its element type points (or to the start of a declared array of
    that type); the others choose for each pointer at random.
    """
    arrays: list[tuple[ct.CType, str, int]] = []  # (element type, object, base offset)
    for _name, (obj, t, _size) in sorted(objects.items()):
        if isinstance(t, ct.Array):
            arrays.append((_leaf(t), obj, 0))
    others: list[tuple[ct.CType, str, int]] = []  # earlier pointers' targets
    all_same = (trial // 2) % 4 == 0
    # offsets between aliasing pointers are often some size variable: try those too
    sizes = sorted({v for v in st.scalars.values() if isinstance(v, int) and 0 < v <= 64})
    for name, t in pointers:
        if name in restrict:
            continue
        elem = t.to
        h = mix(seed, trial, name_hash(name), 77)
        fit_p = [x for x in others if _leaf(x[0]) == _leaf(elem)]
        fit_a = [x for x in arrays if x[0] == _leaf(elem)]
        if all_same and (fit_p or fit_a):
            _, obj, base = (fit_p or fit_a)[0]
            st.scalars[name] = (obj, base)
            st.aliasing[name] = f"{obj}{base:+d}"
        elif (fit_p or fit_a) and h % 4 != 0:
            into_pointer = bool(fit_p) and (not fit_a or (h >> 4) % 3 != 0)
            pool = fit_p if into_pointer else fit_a
            _, obj, base = pool[(h >> 8) % len(pool)]
            unit = ct.sizeof(elem) if (h >> 12) % 2 else ct.sizeof(_leaf(elem))
            unit = unit or 1
            if into_pointer:
                shifts = [0, 0, 0, 0, 1, -1, 2, -2] + [x for v in sizes for x in (v, -v)]
            else:
                shifts = [0, 1, 2, 3] + sizes
            shift = shifts[(h >> 20) % len(shifts)]
            st.scalars[name] = (obj, base + shift * unit)
            st.aliasing[name] = f"{obj}{base + shift * unit:+d}"
        obj, off = cast("tuple[str, int]", st.scalars[name])
        others.append((elem, obj, off))
