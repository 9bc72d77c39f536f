"""The C type model: what accsat needs to type expressions and lay out memory.

Sizes and alignments are those of x86-64 Linux (LP64), which is also what
nvc, gcc and clang use for the host and for NVIDIA offload code.
"""

from __future__ import annotations

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
}
_FLOAT_INFO: dict[str, int] = {"float": 4, "double": 8, "long double": 16}
_FLOAT_RANK = {"float": 0, "double": 1, "long double": 2}


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
    offset: int
    bitfield: bool = False  # accsat does not model bit-field accesses


@dataclass(frozen=True)
class Struct:
    tag: str  # "" for an anonymous struct
    fields: tuple[Field, ...] | None  # None: incomplete
    is_union: bool = False
    size: int = 0
    align: int = 1

    def field(self, name: str) -> Field | None:
        for f in self.fields or ():
            if f.name == name:
                return f
        return None

    def __str__(self) -> str:
        return f"{'union' if self.is_union else 'struct'} {self.tag}".strip()


@dataclass(frozen=True)
class Func:
    ret: CType
    params: tuple[CType, ...] | None  # None: no prototype
    variadic: bool = False

    def __str__(self) -> str:
        return spell(self)


CType = Scalar | Void | Pointer | Array | Struct | Func

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
    return is_integer(t) and _INT_INFO[t.name][2]


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
    """Integer promotion (C11 6.3.1.1p2): small integer types become int."""
    if is_integer(t) and _INT_INFO[t.name][0] < _INT_INFO["int"][0]:
        return INT
    return t


def usual_arithmetic(a: CType, b: CType) -> CType:
    """The common real type of a binary arithmetic operation (C11 6.3.1.8)."""
    if is_float(a) or is_float(b):
        fa = _FLOAT_RANK.get(a.name, -1) if isinstance(a, Scalar) else -1
        fb = _FLOAT_RANK.get(b.name, -1) if isinstance(b, Scalar) else -1
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
    bitfields: frozenset[str] = frozenset(),
) -> Struct:
    """Offsets as the SysV x86-64 ABI lays them out.

    Bit-fields get a whole unit each: their layout is wrong, but accesses to
    them are refused anyway and the other members keep distinct offsets.
    """
    fields: list[Field] = []
    offset = size = 0
    align = 1
    for name, mtype in members:
        msize = sizeof(mtype) or 0
        malign = alignof(mtype)
        align = max(align, malign)
        if is_union:
            fields.append(Field(name, mtype, 0, name in bitfields))
            size = max(size, msize)
            continue
        offset = -(-offset // malign) * malign
        fields.append(Field(name, mtype, offset, name in bitfields))
        offset += msize
        size = offset
    size = -(-size // align) * align
    return Struct(tag, tuple(fields), is_union, size, align)


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


def spell(t: CType, name: str = "") -> str:
    """C declaration syntax for a value ``name`` of type ``t``."""
    if isinstance(t, (Scalar, Void, Struct)):
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
    """``t`` as named through ``typedef`` (scalars keep the name, see ``Scalar.spelled``)."""
    return replace(t, spelled=typedef) if isinstance(t, Scalar) else t


def from_name(name: str) -> Scalar:
    """Canonical scalar type from type-specifier words ("long unsigned int")."""
    words = name.split()
    unsigned, signed = "unsigned" in words, "signed" in words
    core = sorted(w for w in words if w not in ("signed", "unsigned", "int"))
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
