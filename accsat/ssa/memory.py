"""Memory in SSA: where an access points, what may alias it, and versions.

An access is (region, root, byte offset, size). Two accesses may alias when
their regions may (C's rules: distinct declared objects never do, ``restrict``
pointers do not alias declared objects or each other, any other pointer may
point anywhere) and, within one root, when their byte ranges can overlap.
Offsets are polynomials over term ids so that ``u[1][k][j][i]`` and
``u[2][k][j][i]`` are provably apart while ``a[i]`` and ``a[j]`` are not
(ssa/expressions.py ``poly``): constant expressions are their value (``a[(5) & 15]``
is ``a[5]``), casts are looked through only where they keep every value
(``a[(unsigned char)j]`` is another place than ``a[j]``), 64-bit unsigned constants
read modulo 2^64 as addresses do, and a subscript with narrower unsigned arithmetic
(which wraps where a polynomial does not) is a place of its own.

Every store, call and loop/if summary is an event in a log; a load depends on
the latest event that may alias it (its *version*), or takes the stored value
when that event is a store to exactly the same place.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Monomial = tuple[int, ...]  # sorted term ids; () is the constant
Poly = dict[Monomial, int]

MAX_MONOMIALS = 32


def const_poly(c: int) -> Poly:
    return {(): c} if c else {}


def var_poly(tid: int) -> Poly:
    return {(tid,): 1}


def add_poly(a: Poly, b: Poly, scale: int = 1) -> Poly:
    out = dict(a)
    for m, c in b.items():
        v = out.get(m, 0) + scale * c
        if v:
            out[m] = v
        else:
            out.pop(m, None)
    return out


def mul_poly(a: Poly, b: Poly) -> Poly | None:
    if len(a) * len(b) > MAX_MONOMIALS:
        return None
    out: Poly = {}
    for ma, ca in a.items():
        for mb, cb in b.items():
            m = tuple(sorted(ma + mb))
            v = out.get(m, 0) + ca * cb
            if v:
                out[m] = v
            else:
                out.pop(m, None)
    return out


def scale_poly(a: Poly, k: int) -> Poly:
    return {m: c * k for m, c in a.items()} if k else {}


@dataclass(frozen=True)
class Region:
    # "sym" (a declared object) | "restrict" (a restrict pointer) | "ptr" | "private" (a
    # struct the body declares and never takes the address of: no pointer reaches it)
    kind: str
    key: str  # unique name of the symbol for sym/restrict/private; "" for ptr

    def may_alias(self, other: Region) -> bool:
        if self.kind == "ptr" and other.kind == "ptr":
            return True
        if "ptr" in (self.kind, other.kind):
            # any pointer may point into a declared object, or be based on a restrict
            # pointer; not into an object of the body whose address no one took
            return "private" not in (self.kind, other.kind)
        return self == other


ANYWHERE = Region("ptr", "*")


@dataclass(frozen=True)
class Access:
    region: Region
    root: int | None  # term id of the root base (None: unknown)
    offset: tuple[tuple[Monomial, int], ...] | None  # byte offset polynomial, None: unknown
    size: int | None
    ctype: str  # the accessed type, to refuse forwarding between different types

    @staticmethod
    def make(
        region: Region, root: int | None, offset: Poly | None, size: int | None, ctype: str
    ) -> Access:
        off = None if offset is None else tuple(sorted((m, c) for m, c in offset.items() if c))
        return Access(region, root, off, size, ctype)

    def may_alias(self, other: Access) -> bool:
        if not self.region.may_alias(other.region):
            return False
        if self.root is None or other.root is None or self.root != other.root:
            return True
        delta = self.constant_distance(other)
        if delta is None or self.size is None or other.size is None:
            return True
        # [0, size) and [delta, delta + other.size) overlap?
        return delta < self.size and -delta < other.size

    def constant_distance(self, other: Access) -> int | None:
        """other.offset - self.offset when it is a constant, else None."""
        if self.offset is None or other.offset is None:
            return None
        # sorted, no zero coefficient (make): the constant monomial () comes first, and
        # the distance is constant when the rest are the same
        mine, theirs = self.offset, other.offset
        c0 = mine[0][1] if mine and mine[0][0] == () else 0
        c1 = theirs[0][1] if theirs and theirs[0][0] == () else 0
        if mine[1 if c0 else 0 :] != theirs[1 if c1 else 0 :]:
            return None
        return c1 - c0

    def same_place(self, other: Access) -> bool:
        return (
            self.region == other.region
            and self.root is not None
            and self.root == other.root
            and self.constant_distance(other) == 0
            and self.size == other.size
            and self.ctype == other.ctype
        )


@dataclass
class Event:
    """Something that changes memory, in program order."""

    id: int
    kind: str  # "store" | "call" | "summary"
    prev: int | None
    pos: float
    access: Access | None = None  # store
    value: int | None = None  # store: the term stored
    accesses: list[Access] = field(default_factory=list)  # summary: stores it stands for
    regions: frozenset[Region] = frozenset()  # summary: regions clobbered as a whole
    everything: bool = False  # summary containing a call

    def may_alias(self, access: Access) -> bool:
        if self.kind == "call" or self.everything:
            return True
        if self.kind == "store":
            assert self.access is not None
            return self.access.may_alias(access)
        if any(r.may_alias(access.region) for r in self.regions):
            return True
        return any(a.may_alias(access) for a in self.accesses)


def unchanged_between(
    events: list[Event], earliest: int | None, latest: int, access: Access
) -> bool:
    """``access`` holds after event ``latest`` what it held after ``earliest`` (None: at
    the kernel's entry): ``earliest`` is on ``latest``'s path (its chain of ``prev``) and
    no event after it up to ``latest`` may alias ``access``."""
    eid: int | None = latest
    while eid != earliest:
        if eid is None or not 0 <= eid < len(events) or events[eid].may_alias(access):
            return False
        eid = events[eid].prev
    return True


class MemoryLog:
    """The events of one kernel; ``head`` is the latest event on the current path."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.head: int | None = None
        # a store taken back (``retract``): its value is still what a load of its place
        # reads until the next event
        self.retracted: Event | None = None

    def add(self, kind: str, pos: float, **kw) -> Event:
        ev = Event(len(self.events), kind, self.head, pos, **kw)
        self.events.append(ev)
        self.head = ev.id
        self.retracted = None
        return ev

    def retract(self) -> Event:
        """Take the latest event, a store, back: the program will not do it (a dead store
        promote.py drops), so the events after it are numbered as in a program without
        it, while its place reads the value it stored until the next event."""
        ev = self.events.pop()
        assert ev.kind == "store" and ev.id == self.head, ev
        self.head = ev.prev
        self.retracted = ev
        return ev

    def lookup(self, access: Access) -> tuple[str, int | None]:
        """("forward", value term) or ("version", event id or None for kernel entry)."""
        gone = self.retracted
        if gone is not None and gone.access is not None and gone.access.same_place(access):
            return "forward", gone.value
        eid = self.head
        while eid is not None:
            ev = self.events[eid]
            if ev.may_alias(access):
                if ev.kind == "store" and ev.access is not None and ev.access.same_place(access):
                    return "forward", ev.value
                return "version", ev.id
            eid = ev.prev
        return "version", None

    def since(self, start: int | None) -> list[Event]:
        """Events on the current path after ``start`` (newest first)."""
        out = []
        eid = self.head
        while eid is not None and eid != start:
            out.append(self.events[eid])
            eid = self.events[eid].prev
        return out

    def summarize(self, events: list[Event]) -> tuple[list[Access], frozenset[Region], bool]:
        accesses: list[Access] = []
        regions: set[Region] = set()
        everything = False
        for ev in events:
            if ev.kind == "call" or ev.everything:
                everything = True
            elif ev.kind == "store" and ev.access is not None:
                accesses.append(ev.access)
            else:
                accesses.extend(ev.accesses)
                regions |= ev.regions
        return accesses, frozenset(regions), everything
