"""One run of a kernel body: its variables, its symbolic memory, its call trace.

A location is (object, byte offset). Objects are named:

``g:NAME``   a global or static variable (any type: global scalars live in memory)
``o:NAME``   an array or struct declared in the enclosing function
``p:NAME``   what the pointer variable NAME points to at entry (size unknown)
``*OBJ@OFF`` what a pointer loaded from OBJ at OFF points to (size unknown)
``L:NAME:N`` the Nth array or struct declared in the body during this run
``L:(argument):N`` the copy of a struct passed to a function of the file the
             interpreter runs (C passes structs by value): the callee's local
``V:(returned):N`` the copy of a struct such a function returns: a value (no call
             changes it, none sees it)
``R:returned`` the struct a function unit returns (compared as memory is)
``str:...``  a string literal

A load of a location nobody stored returns ``TrialState.memory_value``, so the
two runs of a trial see the same initial memory. Accesses outside an object of
known size are undefined behaviour. Stores remember their type; a load of a
different type of the same size reinterprets the bytes, overlapping accesses of
different sizes are not modelled (the state is skipped).

An opaque call (a function that is not a known pure math function) is modelled
as reading and then overwriting every location of every object: the trace
records its name, its arguments and the memory it could see, and the epoch
counter changes what every unwritten location holds afterwards.
"""

from __future__ import annotations

import struct

from .cvalues import UB, Desc, OverBudget, StepLimit, Unmodelled
from .states import TrialState

# locations the call trace of one run may record (what each opaque call could see,
# kept for the comparison): about 30 MB of Python objects. A loop of calls over an
# image (a call per pixel, each seeing every pixel stored so far) grew to 24 GB.
TRACE_CELLS = 200_000

UNINIT = type("Uninit", (), {"__repr__": lambda self: "<uninitialised>"})()
_OURS = "LV"  # the first letters of a run's own objects: no trial state gives them values

_FORMATS = {
    ("i", 8, True): "<b",
    ("i", 8, False): "<B",
    ("i", 16, True): "<h",
    ("i", 16, False): "<H",
    ("i", 32, True): "<i",
    ("i", 32, False): "<I",
    ("i", 64, True): "<q",
    ("i", 64, False): "<Q",
    ("b", 8, False): "<B",
    ("f32", 32, True): "<f",
    ("f64", 64, True): "<d",
}

# type key -> Desc, filled by the compiler for every type it loads or stores
DESCS: dict[str, Desc] = {}


def reinterpret(value, src: Desc, dst: Desc):
    fs, fd = _FORMATS.get(tuple(src)), _FORMATS.get(tuple(dst))
    if fs is None or fd is None or struct.calcsize(fs) != struct.calcsize(fd):
        raise Unmodelled("memory read with a type of another size or kind than stored")
    out = struct.unpack(fd, struct.pack(fs, value))[0]
    if dst[0] == "f32":
        from .cvalues import F32

        return F32(out)
    return out


class Run:
    """The mutable state of one execution of a body."""

    def __init__(self, state: TrialState, nslots: int, step_limit: int):
        self.state = state
        self.slots: list = [UNINIT] * nslots
        self.mem: dict[str, dict[int, tuple]] = {}  # object -> offset -> (type key, value, size)
        self.store_size: dict[str, int] = {}  # object -> the one size stored so far, or -1
        self.sizes: dict[str, int | None] = dict(state.sizes)
        self.clobbered: dict[tuple[str, int], tuple[str, int]] = {}  # overwritten by calls
        self.loaded: set[tuple[str, int]] = set()  # loads from objects of unknown size
        self.steps = 0
        self.step_limit = step_limit
        self.epoch = 0
        self.trace: list[tuple] = []
        self.cells = 0  # locations recorded in the trace (TRACE_CELLS)
        self.depth = 0  # calls of the file's functions being run (interp.Callee)
        self.returned: object = None  # a function unit's return value
        self.callres: dict[int, object] = {}
        self.local_count = 0
        self.temp_count = 0  # struct copies (interp._Compiler.struct_copy)
        self.outer: dict[str, object] = {}

    # -- memory ---------------------------------------------------------------------------------
    def load(self, addr, tk: str, size: int, d: Desc):
        obj, off = addr
        if obj is None:
            raise UB("read through a null pointer")
        osize = self.sizes.get(obj)
        if osize is None:
            self.loaded.add(addr)
        elif off < 0 or off + size > osize:
            raise UB(f"read outside {obj} (byte {off}, size {osize})")
        om = self.mem.get(obj)
        if om is not None:
            e = om.get(off)
            if e is not None:
                if e[0] == tk:
                    return e[1]
                if e[2] != size:
                    raise Unmodelled("memory read with a type of another size than stored")
                return reinterpret(e[1], DESCS[e[0]], d)
            ss = self.store_size[obj]
            if ss != size or off % size:
                self._overlap(om, off, size)
        if obj[0] in _OURS:
            raise UB(f"read of uninitialised local memory {obj}@{off}")
        return self.state.memory_value(obj, off, d, self.epoch)

    def load_member(self, addr, tk: str, size: int, d: Desc):
        """A struct's member as a copy reads it: UNINIT where it is a member of a local
        never set (C copies a struct whose members are not all set; reading one is not)."""
        obj, off = addr
        if obj[0] in _OURS and off not in self.mem.get(obj, {}):
            return UNINIT
        return self.load(addr, tk, size, d)

    def forget(self, addr) -> None:
        """The location as if never stored (an indeterminate member copied); only in
        local memory, the one kind whose reads check it."""
        obj, off = addr
        if obj[0] in _OURS:
            self.mem.get(obj, {}).pop(off, None)

    def store(self, addr, tk: str, size: int, value) -> None:
        obj, off = addr
        if obj is None:
            raise UB("write through a null pointer")
        osize = self.sizes.get(obj)
        if osize is not None and (off < 0 or off + size > osize):
            raise UB(f"write outside {obj} (byte {off}, size {osize})")
        if obj[0] == "s" and obj.startswith("str:"):
            raise UB("write to a string literal")
        om = self.mem.get(obj)
        if om is None:
            om = self.mem[obj] = {}
            self.store_size[obj] = size if off % size == 0 else -1
        else:
            ss = self.store_size[obj]
            if ss != size or off % size:
                self.store_size[obj] = -1
                self._overlap(om, off, size)
        om[off] = (tk, value, size)

    @staticmethod
    def _overlap(om: dict, off: int, size: int) -> None:
        for o2, (_tk, _v, s2) in om.items():
            if o2 < off + size and off < o2 + s2 and (o2 != off or s2 != size):
                raise Unmodelled("overlapping memory accesses of different sizes")

    # -- control ----------------------------------------------------------------------------------
    def step(self) -> None:
        self.steps += 1
        if self.steps > self.step_limit:
            raise StepLimit(f"more than {self.step_limit} loop iterations")

    # -- opaque calls -----------------------------------------------------------------------------
    def call(self, name: str, args: tuple, rd: Desc | None):
        seen = self.visible_memory()
        self.cells += len(seen) + 1
        if self.cells > TRACE_CELLS:
            raise OverBudget(f"its calls see more than {TRACE_CELLS} memory locations in all")
        self.trace.append((name, args, seen))
        self.epoch += 1
        for obj, om in self.mem.items():
            if obj[0] == "V":
                continue  # (a returned struct: no call reaches it)
            if obj[0] == "L":
                for off, (tk, _v, size) in list(om.items()):
                    om[off] = (tk, self.state.memory_value(obj, off, DESCS[tk], self.epoch), size)
                continue
            for off, (tk, _v, size) in om.items():
                self.clobbered[(obj, off)] = (tk, size)
            om.clear()
        if rd is None:
            return None
        return self.state.call_value(name, len(self.trace), rd)

    def visible_memory(self) -> dict[tuple[str, int], tuple[str, object]]:
        """Every location of a non-local object that was ever stored, with its value now."""
        out: dict[tuple[str, int], tuple[str, object]] = {}
        for (obj, off), (tk, _size) in self.clobbered.items():
            out[(obj, off)] = (tk, self.state.memory_value(obj, off, DESCS[tk], self.epoch))
        for obj, om in self.mem.items():
            if obj[0] in _OURS:
                continue
            for off, (tk, v, _size) in om.items():
                out[(obj, off)] = (tk, v)
        return out
