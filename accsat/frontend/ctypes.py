"""The C type model: what accsat needs to type expressions and lay out memory.

Sizes and alignments are those of x86-64 Linux (LP64), which is also what
nvc, gcc and clang use for the host and for NVIDIA offload code. What the
compiler's flags decide (plain char's signedness, enum sizes, signed overflow,
excess precision) is the ``Target`` of the file being read (``frontend/target.py``
reads it off the compiler): set with ``targeting`` while a file is handled.
Whatever the model says is checked against the compiler itself for every kernel
accsat prints (``verify/typecheck.py``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from typing import TypeGuard

# Integer conversion rank and size of each standard integer type (C11 6.3.1.1).
_INT_INFO: dict[str, tuple[int, int, bool]] = {
    # name: (rank, size, signed)
    "_Bool": (0, 1, False),
    "char": (1, 1, True),
    "signed char": (1, 1, True),
    "unsigned char": (1, 1, False),
    "short": (2, 2, True),
    "unsigned short": (2, 2, False),
    "int": (3, 4, True),
    "unsigned int": (3, 4, False),
    "long": (4, 8, True),
    "unsigned long": (4, 8, False),
    "long long": (5, 8, True),
    "unsigned long long": (5, 8, False),
    "__int128": (6, 16, True),
    "unsigned __int128": (6, 16, False),
}
_FLOAT_INFO: dict[str, int] = {"_Float16": 2, "float": 4, "double": 8, "long double": 16}
_FLOAT_RANK = {"_Float16": -1, "float": 0, "double": 1, "long double": 2}


@dataclass(frozen=True)
class Target:
    """What the compiler's flags make of C where the standard leaves it to them.

    ``char_signed``: plain ``char`` is signed (``-fsigned-char``, x86's default) or not
    (``-funsigned-char``, Arm's); ``short_enums``: an enum takes the smallest integer
    type that holds its values (``-fshort-enums``); ``wrapv``: signed overflow wraps
    (``-fwrapv``, ``-fno-strict-overflow``) instead of being undefined;
    ``flt_eval_method``: C's FLT_EVAL_METHOD (2 with x87 arithmetic, ``-mfpmath=387``:
    a value stored in a new ``double`` variable is rounded where the original kept
    80 bits); ``lp64``: long and pointers are 64 bits (accsat models nothing else).
    """

    char_signed: bool = True
    short_enums: bool = False
    wrapv: bool = False
    flt_eval_method: int = 0
    lp64: bool = True

    @property
    def excess_precision(self) -> bool:
        """Floating-point operations are evaluated wider than their type (C11 5.2.4.2.2)."""
        return self.flt_eval_method not in (0, -1)


DEFAULT_TARGET = Target()
_TARGET: ContextVar[Target] = ContextVar("accsat_target", default=DEFAULT_TARGET)


def target() -> Target:
    """The target of the file being handled (``targeting``), x86-64 gcc's defaults else."""
    return _TARGET.get()


@contextlib.contextmanager
def targeting(t: Target) -> Iterator[None]:
    """Types read and folded inside are the compiler's under target ``t``."""
    token = _TARGET.set(t)
    try:
        yield
    finally:
        _TARGET.reset(token)


@dataclass(frozen=True)
class Scalar:
    """An arithmetic type, by its canonical spelling ("unsigned long", "double").

    ``spelled``: the typedef name a declaration the user wrote gave it (``real``), carried
    with the type so that a temporary of it can be declared the same way
    (``codegen/typenames.py``); not part of the type: equality, hash and repr ignore it.
    """

    name: str
    spelled: str = field(default="", compare=False, repr=False)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Void:
    def __str__(self) -> str:
        return "void"


@dataclass(frozen=True)
class Pointer:
    to: CType
    restrict: bool = False

    def __str__(self) -> str:
        return spell(self)


@dataclass(frozen=True)
class Array:
    of: CType
    size: int | None  # None: unknown or variable length

    def __str__(self) -> str:
        return spell(self)


@dataclass(frozen=True)
class Field:
    name: str
    type: CType
    offset: int  # bytes; a bit-field's: the storage unit of its type that holds it
    width: int | None = None  # a bit-field's width in bits
    bit: int = 0  # a bit-field's first bit within its storage unit

    @property
    def bitfield(self) -> bool:
        return self.width is not None


@dataclass(frozen=True)
class Struct:
    tag: str  # "" for an anonymous struct
    fields: tuple[Field, ...] | None  # None: incomplete
    is_union: bool = False
    size: int = 0
    align: int = 1
    # the typedef name of an anonymous struct (``typedef struct {...} Nuclide``), how a
    # value or pointer of it is declared; not part of the type
    spelled: str = field(default="", compare=False, repr=False)

    def field(self, name: str) -> Field | None:
        for f in self.fields or ():
            if f.name == name:
                return f
        return None

    def __str__(self) -> str:
        if not self.tag and self.spelled:
            return self.spelled
        return f"{'union' if self.is_union else 'struct'} {self.tag}".strip()


@dataclass(frozen=True)
class Func:
    ret: CType
    params: tuple[CType, ...] | None  # None: no prototype
    variadic: bool = False

    def __str__(self) -> str:
        return spell(self)


@dataclass(frozen=True)
class Unmodelled:
    """A type accsat does not model (a GNU vector type, a packed struct...): a kernel
    that reads or writes a value of it is left as written, saying ``why``."""

    why: str
    spelling: str = ""

    def __str__(self) -> str:
        return self.spelling or "<unmodelled type>"


CType = Scalar | Void | Pointer | Array | Struct | Func | Unmodelled

INT = Scalar("int")
LONG = Scalar("long")
ULONG = Scalar("unsigned long")
DOUBLE = Scalar("double")
FLOAT = Scalar("float")
SIZE_T = ULONG
PTRDIFF_T = LONG


def is_integer(t: CType) -> TypeGuard[Scalar]:
    return isinstance(t, Scalar) and t.name in _INT_INFO


def is_float(t: CType) -> TypeGuard[Scalar]:
    return isinstance(t, Scalar) and t.name in _FLOAT_INFO


def is_arithmetic(t: CType) -> TypeGuard[Scalar]:
    return is_integer(t) or is_float(t)


def is_signed(t: CType) -> bool:
    if not is_integer(t):
        return False
    if t.name == "char":
        return target().char_signed
    return _INT_INFO[t.name][2]


def is_unsigned(t: CType) -> bool:
    return is_integer(t) and not _INT_INFO[t.name][2]


def is_pointerish(t: CType) -> bool:
    return isinstance(t, (Pointer, Array))


def int_bits(t: Scalar) -> int:
    return 8 * _INT_INFO[t.name][1]


def int_range(t: CType) -> tuple[int, int]:
    if not isinstance(t, Scalar):
        raise TypeError(f"{t} is not an integer type")
    bits = int_bits(t)
    if t.name == "_Bool":
        return 0, 1
    if is_signed(t):
        return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return 0, (1 << bits) - 1


def promote(t: CType) -> CType:
    """Integer promotion (C11 6.3.1.1p2): small integer types become int. An enum's value
    is one of its compatible integer type's (``unsigned int`` for most enums)."""
    if is_integer(t) and _INT_INFO[t.name][0] < _INT_INFO["int"][0]:
        return INT
    return plain(t)


def plain(t: CType) -> CType:
    """``t`` without an enum's name: what arithmetic on an enum value gives (the name
    of a typedef stays: it names the very type)."""
    if isinstance(t, Scalar) and t.spelled.startswith("enum "):
        return Scalar(t.name)
    return t


def usual_arithmetic(a: CType, b: CType) -> CType:
    """The common real type of a binary arithmetic operation (C11 6.3.1.8)."""
    if is_float(a) or is_float(b):
        fa = _FLOAT_RANK.get(a.name, -2) if isinstance(a, Scalar) else -2
        fb = _FLOAT_RANK.get(b.name, -2) if isinstance(b, Scalar) else -2
        return a if fa >= fb else b
    a, b = promote(a), promote(b)
    if a == b:
        return a
    if not (isinstance(a, Scalar) and isinstance(b, Scalar)):
        raise TypeError(f"no usual arithmetic conversions for {a} and {b}")
    ra, sa, signed_a = _INT_INFO[a.name]
    rb, sb, signed_b = _INT_INFO[b.name]
    if signed_a == signed_b:
        return a if ra >= rb else b
    uns, sig = (a, b) if not signed_a else (b, a)
    if _INT_INFO[uns.name][0] >= _INT_INFO[sig.name][0]:
        return uns
    if _INT_INFO[sig.name][1] > _INT_INFO[uns.name][1]:
        return sig
    return Scalar("unsigned " + sig.name)


def sizeof(t: CType) -> int | None:
    if isinstance(t, Scalar):
        if t.name in _INT_INFO:
            return _INT_INFO[t.name][1]
        return _FLOAT_INFO[t.name]
    if isinstance(t, Pointer):
        return 8
    if isinstance(t, Array):
        inner = sizeof(t.of)
        return None if inner is None or t.size is None else inner * t.size
    if isinstance(t, Struct):
        return t.size if t.fields is not None else None
    return None


def alignof(t: CType) -> int:
    if isinstance(t, Array):
        return alignof(t.of)
    if isinstance(t, Struct):
        return t.align
    return sizeof(t) or 1


def layout_struct(
    tag: str,
    members: list[tuple[str, CType]],
    is_union: bool,
    widths: dict[str, int] | None = None,
) -> Struct:
    """Offsets as the SysV x86-64 ABI lays them out (gcc's and clang's): a bit-field of
    width ``widths[name]`` goes into the storage unit of its type where it fits, an
    unnamed one (name "") pads, a zero-width one closes the unit."""
    fields: list[Field] = []
    bits = size = 0  # the next free bit; the size so far, in bytes
    align = 1
    for name, mtype in members:
        msize = sizeof(mtype) or 0
        malign = alignof(mtype)
        width = (widths or {}).get(name) if name else None
        if name == "" and widths and "" in widths:
            width = widths[""]
        if width is not None:
            unit = 8 * max(msize, 1)
            start = 0 if is_union else bits
            if width == 0:
                bits = _round_up(bits, 8 * malign)
                continue
            if start // unit != (start + width - 1) // unit:
                start = _round_up(start, 8 * malign)
            if name:
                align = max(align, malign)
                first = start // unit * unit
                fields.append(Field(name, mtype, first // 8, width, start - first))
            end = start + width
            bits = bits if is_union else end
            size = max(size, _round_up(end, 8) // 8)
            continue
        align = max(align, malign)
        if is_union:
            fields.append(Field(name, mtype, 0))
            size = max(size, msize)
            continue
        offset = _round_up(_round_up(bits, 8) // 8, malign)
        fields.append(Field(name, mtype, offset))
        bits = 8 * (offset + msize)
        size = offset + msize
    size = _round_up(max(size, _round_up(bits, 8) // 8), align)
    return Struct(tag, tuple(fields), is_union, size, align)


def _round_up(value: int, step: int) -> int:
    return -(-value // step) * step


def bitfield_type(declared: CType, width: int) -> Scalar | None:
    """The type a bit-field's value has in an expression, as gcc gives it: ``int`` when
    every value of ``width`` bits of ``declared`` is an int (``unsigned x:3``), the type
    itself at its full width; None for the wider ones gcc gives a type of their own
    (``unsigned long x:40``: arithmetic modulo 2**40), which accsat does not model."""
    if not is_integer(declared) or declared.name == "_Bool":
        return INT if isinstance(declared, Scalar) and declared.name == "_Bool" else None
    bits = int_bits(declared)
    if width < 32 or (width == 32 and is_signed(declared)):
        return INT
    if width == bits:
        return plain(declared)  # type: ignore[return-value]
    return None


def decay(t: CType) -> CType:
    """Array-to-pointer and function-to-pointer conversion of an rvalue."""
    if isinstance(t, Array):
        return Pointer(t.of)
    if isinstance(t, Func):
        return Pointer(t)
    return t


def element(t: CType) -> CType | None:
    """What indexing an array or pointer of this type gives."""
    if isinstance(t, Array):
        return t.of
    if isinstance(t, Pointer):
        return t.to
    return None


def unmodelled(t: CType) -> str:
    """Why a value of type ``t`` (or an element or member of it) is not modelled ("" if
    it is)."""
    while isinstance(t, Array):
        t = t.of
    return t.why if isinstance(t, Unmodelled) else ""


def spell(t: CType, name: str = "") -> str:
    """C declaration syntax for a value ``name`` of type ``t``."""
    if isinstance(t, (Scalar, Void, Struct, Unmodelled)):
        return f"{t} {name}".rstrip() if name else str(t)
    if isinstance(t, Pointer):
        inner = "*" + (" restrict " if t.restrict else "") + name
        if isinstance(t.to, (Array, Func)):
            inner = f"({inner})"
        return spell(t.to, inner.strip())
    if isinstance(t, Array):
        size = "" if t.size is None else str(t.size)
        return spell(t.of, f"{name}[{size}]")
    if isinstance(t, Func):
        params = ", ".join(spell(p) for p in t.params or ())
        if t.variadic:
            params += ", ..."
        return spell(t.ret, f"{name}({params or 'void'})")
    raise TypeError(t)


def spelled_as(t: CType, typedef: str) -> CType:
    """``t`` as named through ``typedef`` (scalars keep the name, see ``Scalar.spelled``;
    an anonymous struct too: it has no other)."""
    if isinstance(t, Scalar) or isinstance(t, Struct) and not t.tag:
        return replace(t, spelled=typedef)
    return t


def from_name(name: str) -> Scalar:
    """Canonical scalar type from type-specifier words ("long unsigned int")."""
    words = name.split()
    unsigned, signed = "unsigned" in words, "signed" in words
    core = sorted(w for w in words if w not in ("signed", "unsigned", "int"))
    if core == ["__int128"]:
        return Scalar("unsigned __int128" if unsigned else "__int128")
    if core == ["_Float16"]:
        return Scalar("_Float16")
    if core == ["char"]:
        if unsigned:
            return Scalar("unsigned char")
        return Scalar("signed char" if signed else "char")
    if core in (["float"], ["double"], ["_Bool"]):
        return Scalar(core[0])
    if core == ["double", "long"]:
        return Scalar("long double")
    base = {(): "int", ("short",): "short", ("long",): "long", ("long", "long"): "long long"}
    if tuple(core) not in base or not words:
        raise ValueError(f"unknown type {name!r}")
    result = base[tuple(core)]
    return Scalar("unsigned " + result if unsigned else result)
