"""Neighbour groups: loads of one array that other lanes, or other iterations, repeat.

Two loads are neighbours along an index when their addresses have the same
root and the same polynomial but for the constant, and the constants differ by
a multiple of the address's change from one lane (thread index) or one
iteration (a sequential inner loop) to the next: ``u[i-1]``, ``u[i]``,
``u[i+1]`` along ``i``. Offsets are reported in units of the index as written.

Sharing them (docs/advise.md has the arithmetic):

- along the thread index, each lane loads one value and takes the others from
  the lanes that loaded them (warp shuffles, a register cache): a warp loads
  ``32 + span`` values for its 32 lanes, ``span`` = the offsets' spread in
  lanes (the halo);
- along a sequential loop, a value loaded at offset ``o`` is the one offset
  ``o - d`` needs ``d`` iterations later: kept in rotating registers (as many
  as the span), one load per iteration serves the group; the other offsets
  are loaded once before the loop (the halo).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ..ssa.memory import Access
from .strides import WARP


class Load(Protocol):
    @property
    def address(self) -> Access: ...


@dataclass
class Group:
    along: str  # "thread" | "loop"
    var: str  # the index, as written
    members: list = field(repr=False)  # the loads, in program order
    offsets: list[int]  # distinct, sorted, in units of the index
    loads: int  # loads of the group per thread (per iteration for a loop group)
    loads_shared: float  # the same when neighbours share them
    halo: int  # thread: extra values per warp; loop: values loaded once before the loop
    stored: bool  # the kernel (thread) or the loop stores to the same array too
    span: int  # highest - lowest offset, in lanes or iterations (loop: registers kept)


def find_groups(
    loads: Sequence[Load],
    unit: Callable[[Load], int | None],
    step: int,
    along: str,
    var: str,
    stores: Sequence[Load],
    written: Callable[[Load], int | None] = lambda load: None,
) -> list[Group]:
    """Groups of ``loads`` along an index whose step is ``step`` and along which a load's
    address moves ``unit(load)`` bytes per unit (None or 0: not a candidate).

    ``written(load)``: the offset its subscript spells (``i - 1``: -1), where it can be
    read. Loads whose addresses differ by more than that (``v[j+1][i]`` against
    ``v[j][i]``: a row apart, not lanes apart) never group; offsets are reported as
    written, else relative to the group's first load.
    """
    by_key: dict[tuple, list[tuple[int, int, Load]]] = defaultdict(list)
    for n, load in enumerate(loads):
        per_unit = unit(load)
        if not per_unit or load.address.offset is None:
            continue
        rest = dict(load.address.offset)
        const = rest.pop((), 0)
        # the same lane's or iteration's other elements (a[2i], a[2i+1]) never group
        key = (
            load.address.region,
            load.address.root,
            tuple(sorted(rest.items())),
            per_unit,
            const % (per_unit * step),
        )
        by_key[key].append((const // per_unit, n, load))
    groups: list[tuple[int, Group]] = []
    for members in by_key.values():
        for part in _as_written(members, written):
            for cluster in _windows(sorted(part, key=lambda m: (m[0] // step, m[1])), step):
                if len({o for o, _, _ in cluster}) < 2:
                    continue
                cluster.sort(key=lambda m: m[1])
                loaded = [m for _, _, m in cluster]
                stored = any(s.address.may_alias(m.address) for s in stores for m in loaded)
                offsets = sorted({o for o, _, _ in cluster})
                groups.append((cluster[0][1], _shared(along, var, loaded, offsets, step, stored)))
    return [g for _, g in sorted(groups, key=lambda pg: pg[0])]


def _as_written(members: list[tuple[int, int, Load]], written) -> list[list]:
    """Members re-offset as their subscripts spell them: one part per distinct shift
    between the address's offset and the spelled one (``u[0][k][i]``, ``u[1][k][i]``:
    two rows, two parts); a member that cannot be spelled (``u[0][k][i1]``) joins the
    part whose shift is nearest its offset. Without any spelling: relative to the first
    member."""
    parts: dict[int, list] = defaultdict(list)
    unspelled = []
    for o, n, load in members:
        w = written(load)
        if w is None:
            unspelled.append((o, n, load))
        else:
            parts[o - w].append((w, n, load))
    if not parts:
        base = min(members, key=lambda m: m[1])[0]
        return [[(o - base, n, load) for o, n, load in members]]
    for o, n, load in unspelled:
        shift = min(parts, key=lambda s: abs(o - s))
        parts[shift].append((o - shift, n, load))
    return list(parts.values())


def _windows(members: list, step: int) -> list[list]:
    """Split sorted members into runs spanning fewer than a warp of steps: beyond that
    no lane (or no register kept for a few iterations) holds the value."""
    out: list[list] = []
    for m in members:
        if out and abs(m[0] - out[-1][0][0]) // abs(step) < WARP:
            out[-1].append(m)
        else:
            out.append([m])
    return out


def _shared(
    along: str, var: str, loaded: list, offsets: list[int], step: int, stored: bool
) -> Group:
    steps = sorted(o // step for o in offsets)  # offsets in lanes / iterations
    span = steps[-1] - steps[0]
    if along == "thread":
        return Group(
            along,
            var,
            loaded,
            offsets,
            len(loaded),
            round((WARP + span) / WARP, 3),
            span,
            stored,
            span,
        )
    # one stream: the front offset is loaded each iteration, the others were loaded by
    # earlier iterations and kept (span registers, rotated), loaded once before the loop
    return Group(along, var, loaded, offsets, len(loaded), 1.0, len(steps) - 1, stored, span)
