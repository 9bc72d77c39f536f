"""C's type forms beyond the generator's arithmetic types (issue 35), for gen.py.

A kernel may declare (``draw``) enums (no negative enumerator: unsigned int to gcc and
clang; a negative one: int; one past 32 bits: a 64-bit type; with ``-fshort-enums`` the
smallest type that holds the values), integer typedefs given another width by
``__attribute__((mode(QI|HI|SI|DI)))``, ``char`` arrays (plain, signed, unsigned) holding
bytes above 127, and a struct of bit-fields (widths 1, 3, 7, 16, 31, 32; signed,
unsigned, ``_Bool``) with a member of one of the other types. The driver fills every
object; the kernel reads them (``leaf``), often inside an operation whose value shows
the type the compiler gives them (``(e - 1) / 2`` of an unsigned enum at 0 is
2147483647, of a signed one 0; ``c < 127`` of the byte 200 depends on plain char), mixes
them with the generator's int, unsigned and long values, compares them with enumerator
constants, and stores to them (``store``), except to bit-fields (accsat refuses such a
store: the driver fills them).

Program flags (``Flags``), chosen per program: ``-funsigned-char``, ``-fshort-enums``
and ``-fwrapv``; under ``-fwrapv`` (and only there: the C stays free of undefined
behaviour under its own flags) ``wrapping`` writes signed ``+ - *`` and negation that
may overflow.

Every read is an ``E`` of the generator's types (values.py): the type the object's value
promotes to, and a bound on its magnitude; a 64-bit unsigned value, a type the
generator does not have, is always converted to one of its types right away
(``ulong_view``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .choosers import Chooser
from .edges import Ctx, edge_operand, operand
from .values import SZ, E, limit, shrink_bound, to_type

ULONG_MAX = (1 << 64) - 1


# ----------------------------------------------------------------------------------------------
# program flags


@dataclass(frozen=True)
class Flags:
    """The flags a program is compiled with (and accsat given), beyond the harness' own."""

    unsigned_char: bool = False
    short_enums: bool = False
    wrapv: bool = False

    def cflags(self) -> tuple[str, ...]:
        return tuple(
            flag
            for flag, on in (
                ("-funsigned-char", self.unsigned_char),
                ("-fshort-enums", self.short_enums),
                ("-fwrapv", self.wrapv),
            )
            if on
        )

    @classmethod
    def parse(cls, flags: Sequence[str]) -> Flags:
        return cls("-funsigned-char" in flags, "-fshort-enums" in flags, "-fwrapv" in flags)


NO_FLAGS = Flags()


def draw_flags(c: Chooser) -> Flags:
    """Flags for a program: each one in about one program in four (none is minimal)."""
    return Flags(c.chance(25), c.chance(15), c.chance(25))


# ----------------------------------------------------------------------------------------------
# the types and the places that hold them


def int_range(bits: int, signed: bool) -> tuple[int, int]:
    """The values of a ``bits``-wide integer type."""
    return (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)


@dataclass(frozen=True)
class Int:
    """An integer object type: its C spelling, width and signedness, the values every
    object of it holds (the driver's and every store's) and, for a bit-field, its width."""

    spelled: str
    bits: int
    signed: bool
    lo: int
    hi: int
    kind: str  # "enum" | "mode" | "char" | "bitfield"
    enum: Enum | None = None

    @property
    def bitfield(self) -> bool:
        return self.kind == "bitfield"

    def promoted(self) -> str:
        """The generator type of its value in an expression: int, unsigned, long or
        "ulong" (unsigned long: converted by ``ulong_view`` before any other use)."""
        if self.bits < 32 or (self.bitfield and self.signed):
            return "int"
        if self.bits == 32:
            return "int" if self.signed else "unsigned"
        return "long" if self.signed else "ulong"

    def bound(self) -> int:
        t = self.promoted()
        return 1 << 32 if t == "unsigned" else max(abs(self.lo), abs(self.hi))


@dataclass(frozen=True)
class Enum:
    tag: str
    enumerators: tuple[tuple[str, int], ...]

    def values(self) -> list[int]:
        return [v for _, v in self.enumerators]

    def type(self, flags: Flags) -> Int:
        """The enum's type as gcc and clang give it (``-fshort-enums``: the smallest)."""
        lo, hi = min(self.values()), max(self.values())
        widths = (8, 16, 32, 64) if flags.short_enums else (32, 64)
        signed = lo < 0
        for bits in widths:
            tlo, thi = int_range(bits, signed)
            if tlo <= lo and hi <= thi:
                return Int(f"enum {self.tag}", bits, signed, lo, hi, "enum", self)
        raise ValueError(self)

    def constant(self, name: str, flags: Flags) -> Int:
        """An enumerator constant: int where its value fits (C), else the enum's type (gcc)."""
        value = dict(self.enumerators)[name]
        if -(1 << 31) <= value < 1 << 31:
            return Int(name, 32, True, value, value, "enum")
        own = self.type(flags)
        return Int(name, own.bits, own.signed, value, value, "enum")


# (enumerators, by kind): the smallest first
_ENUMS = {
    "unsigned": [(0, 1, 2), (0, 1, 200), (1, 3, 300), (0, 7, 70000)],
    "signed": [(-1, 0, 1), (-2, 5, 100), (-200, 0, 3)],
    "wide": [(1, 1 << 32), (0, 3, (1 << 32) + 5), (-1, 1 << 32)],
}
# (mode, bits); spellings of the base type for signed and unsigned
_MODES = [("QI", 8), ("HI", 16), ("SI", 32), ("DI", 64)]
_MODE_BASE = {
    True: ["int", "signed", "long", "short"],
    False: ["unsigned", "unsigned int", "unsigned long"],
}
# bit-fields: (declared type, width)
_BITFIELDS = [
    ("unsigned", 3),
    ("int", 7),
    ("_Bool", 1),
    ("unsigned", 1),
    ("unsigned", 16),
    ("int", 31),
    ("unsigned", 32),
    ("signed", 3),
    ("unsigned", 31),
    ("int", 32),
    ("unsigned", 7),
    ("int", 16),
    ("unsigned char", 3),
    ("short", 7),
]
_CHARS = ["char", "char", "signed char", "unsigned char"]


@dataclass
class Place:
    """An object of a form the kernel reads: an array ``name`` (``member``: a member of
    the struct array ``name``) of type ``ty``."""

    name: str
    ty: Int
    member: str = ""

    def at(self, index: str) -> str:
        return f"{self.name}[{index}]" + (f".{self.member}" if self.member else "")


@dataclass
class Forms:
    """What one kernel declares of these forms."""

    k: str
    flags: Flags
    enums: list[Enum] = field(default_factory=list)
    typedefs: list[tuple[str, str]] = field(default_factory=list)  # (name, declaration)
    places: list[Place] = field(default_factory=list)
    struct: list[tuple[str, str]] = field(default_factory=list)  # (member, declaration)
    struct_name: str = ""

    def declarations(self) -> list[str]:
        out = []
        for en in self.enums:
            items = ", ".join(f"{n} = {_enum_literal(v)}" for n, v in en.enumerators)
            out.append(f"enum {en.tag} {{ {items} }};")
        out += [decl for _, decl in self.typedefs]
        if self.struct:
            members = " ".join(decl for _, decl in self.struct)
            out.append(f"struct {self.struct_name} {{ {members} }};")
        for p in self.places:
            if not p.member:
                out.append(f"{p.ty.spelled} {p.name}[{SZ}];")
        if self.struct:
            out.append(f"struct {self.struct_name} {self.k}_rc[{SZ}];")
        return out

    def fill(self) -> list[str]:
        """The driver's statements (inside its loop over q) that fill every object."""
        return [f"    {p.at('q')} = {_fill_value(p.ty)};" for p in self.places]

    def prints(self) -> list[str]:
        out = []
        for p in self.places:
            fmt, cast = ("%lld", "(long long)") if p.ty.signed else ("%llu", "(unsigned long long)")
            label = p.at("").replace("[]", "")
            out.append(f'    printf("{label} %d {fmt}\\n", q, {cast}{p.at("q")});')
        return out


def _enum_literal(v: int) -> str:
    return f"{v:#x}" if v >= 1 << 31 else str(v)


def _fill_value(t: Int) -> str:
    """A value of the object's type from the driver's generator: any value of it, or
    (enums) one of its enumerators."""
    if t.enum is not None:
        names = [n for n, _ in t.enum.enumerators]
        picks = " : ".join(
            f"lcg_u() % {len(names)}u == {j}u ? {n}" for j, n in enumerate(names[:-1])
        )
        return f"({picks} : {names[-1]})"
    if t.kind == "bitfield" and t.spelled.startswith("_Bool"):
        return "lcg_u() & 1u"
    cast = "" if t.bitfield else f"({t.spelled})"
    return f"{cast}lcg_w()"  # converted modulo 2^N (gcc), bit-fields too


# ----------------------------------------------------------------------------------------------
# what a kernel declares


def draw(c: Chooser, k: str, flags: Flags) -> Forms | None:
    """The forms of kernel ``k``; None (the minimal choice) for none."""
    if not c.chance(40):
        return None
    fm = Forms(k, flags)
    if c.chance(55):
        for j in range(c.int(1, 2)):
            kind = c.pick(["unsigned", "signed", "unsigned", "wide"])
            values = c.pick(_ENUMS[kind])
            tag = f"{k}_en{j}"
            en = Enum(tag, tuple((f"{k}_E{j}_{n}", v) for n, v in enumerate(values)))
            fm.enums.append(en)
            fm.places.append(Place(f"{k}_ev{j}", en.type(flags)))
    if c.chance(45):
        for j in range(c.int(1, 3)):
            mode, bits = c.pick(_MODES)
            signed = c.chance(50)
            name = f"{k}_{'s' if signed else 'u'}{bits}_{j}"
            base = c.pick(_MODE_BASE[signed])
            attr = c.pick([f"mode({mode})", f"__mode__(__{mode}__)", f"__mode__({mode})"])
            decl = c.pick(
                [
                    f"typedef {base} {name} __attribute__(({attr}));",
                    f"typedef {base} __attribute__(({attr})) {name};",
                    f"typedef __attribute__(({attr})) {base} {name};",
                ]
            )
            fm.typedefs.append((name, decl))
            lo, hi = int_range(bits, signed)
            fm.places.append(Place(f"{k}_md{j}", Int(name, bits, signed, lo, hi, "mode")))
    if c.chance(40):
        for j in range(c.int(1, 2)):
            spelled = c.pick(_CHARS)
            signed = spelled == "signed char" or (spelled == "char" and not flags.unsigned_char)
            lo, hi = (-128, 127) if signed else (0, 255)
            fm.places.append(Place(f"{k}_ch{j}", Int(spelled, 8, signed, lo, hi, "char")))
    if c.chance(40) or not fm.places:
        fm.struct_name = f"{k}_bits"
        chosen = sorted({c.int(0, len(_BITFIELDS) - 1) for _ in range(c.int(1, 5))})
        for n in chosen:
            declared, width = _BITFIELDS[n]
            member = f"bf{n}"  # harness.INTERP_GAPS knows the name
            fm.struct.append((member, f"{declared} {member} : {width};"))
            signed = declared in ("int", "signed", "short")
            lo, hi = int_range(width, signed)
            ty = Int(f"{declared}:{width}", width, signed, lo, hi, "bitfield")
            fm.places.append(Place(f"{k}_rc", ty, member))
        others = [p for p in fm.places if not p.member]
        if others and c.chance(50):  # a member of one of the kernel's other types
            p = c.pick(others)
            fm.struct.append(("g", f"{p.ty.spelled} g;"))
            fm.places.append(Place(f"{k}_rc", p.ty, "g"))
    return fm


# ----------------------------------------------------------------------------------------------
# reads


def ulong_view(c: Chooser, text: str, lo: int = 0, hi: int = ULONG_MAX) -> E:
    """An unsigned long value in [lo, hi] as one of the generator's types."""
    x = operand(text)
    kind = c.int(0, 5)
    if kind == 1:
        return E(f"((unsigned){x})", "unsigned", 1 << 32)
    if kind == 2:
        return E(f"((long)({x} % 1000003u))", "long", 1000002)
    if kind == 3:  # below 2^63 after the division whatever the value was
        return E(f"((long)(({x} - 2u) / 3u))", "long", ULONG_MAX // 3)
    if kind == 4:
        return E(f"({x} > 4294967295u)", "int", 1)
    if kind == 5:  # wraps at 2^64
        return E(f"((long)(({x} + {x}) >> 2))", "long", ULONG_MAX >> 2)
    return E(f"((long)({x} >> 1))", "long", hi >> 1)


def value(c: Chooser, ty: Int, text: str) -> E:
    """The value of ``text`` (of type ``ty``) as the generator's types see it."""
    t = ty.promoted()
    if t == "ulong":
        return ulong_view(c, text, ty.lo, ty.hi)
    return E(text, t, ty.bound())


def read(g: Ctx, fm: Forms) -> tuple[Int, str]:
    """(type, text) of a read of one of the kernel's objects or enumerator constants."""
    c = g.c
    if fm.enums and c.chance(20):
        en = c.pick(fm.enums)
        name = c.pick([n for n, _ in en.enumerators])
        return en.constant(name, fm.flags), name
    p = c.pick(fm.places)
    return p.ty, p.at(g.index())


def leaf(g: Ctx, fm: Forms) -> E:
    """A read, often inside an operation that shows the type it promotes to."""
    c = g.c
    ty, text = read(g, fm)
    e = value(c, ty, text)
    return reveal(g, fm, e) if c.chance(50) else e


def reveal(g: Ctx, fm: Forms, e: E) -> E:
    """An operation whose result differs with the type of ``e``: ``(e - k) / d`` (the
    subtraction wraps for unsigned, not for int), ``(e - k) % d``, ``(e - k) >> s``,
    ``e - k < 0``, ``e < k``, and arithmetic with unsigned and int values of the
    generator."""
    c = g.c
    k, kv = reveal_constant(g, fm)
    rt = "long" if "long" in (e.t, k.t) else "unsigned" if "unsigned" in (e.t, k.t) else "int"
    if rt != "unsigned" and e.bound + kv > limit(rt) and not fm.flags.wrapv:
        e = shrink_bound(e, 1 << 20)
    bound = 1 << 32 if rt == "unsigned" else min(e.bound + kv, limit(rt) + 1)  # -fwrapv: wraps
    diff = E(f"({e.text} - {k.text})", rt, bound)
    kind = c.int(0, 6)
    if kind == 1:
        d = c.pick([3, 5, 7])
        return E(f"({diff.text} % {d})", rt, diff.bound if rt == "unsigned" else d - 1)
    if kind == 2:
        return E(f"({diff.text} >> {c.int(1, 3)})", rt, diff.bound)
    if kind == 3:
        return E(f"({diff.text} < 0)", "int", 1)
    if kind == 4:
        return E(f"({e.text} < {k.text})", "int", 1)
    if kind == 5:  # with an unsigned value of the generator (a long one converted first)
        u = to_type(g.expr("unsigned", 0), "unsigned")
        x = f"((unsigned){operand(e)})" if e.t == "long" else e.text
        text = f"({x} * 3u + {u.text})" if c.chance(50) else f"({u.text} - {x})"
        return E(text, "unsigned", 1 << 32)
    if kind == 6:  # with an int one
        i = shrink_bound(to_type(g.expr("int", 0), "int"), 1 << 10)
        if e.t == "unsigned":
            return E(f"({e.text} + {i.text})", "unsigned", 1 << 32)
        base = shrink_bound(e, 1 << 20) if not fm.flags.wrapv else e
        return E(f"({base.text} + {i.text})", base.t, min(base.bound + i.bound, limit(base.t) + 1))
    return E(f"({diff.text} / {c.pick([2, 3, 4])})", rt, diff.bound)


def reveal_constant(g: Ctx, fm: Forms) -> tuple[E, int]:
    """A small constant to take from a value, and its value: 1, 2u, or an enumerator."""
    c = g.c
    small = [en for en in fm.enums if max(abs(v) for v in en.values()) < 1 << 31]
    if small and c.chance(40):
        en = c.pick(small)
        name, v = c.pick(list(en.enumerators))
        return E(name, "int", abs(v)), abs(v)
    v = c.int(1, 3)
    if c.chance(30):
        return E(f"{v}u", "unsigned", 1 << 32), v
    return E(str(v), "int", v), v


# ----------------------------------------------------------------------------------------------
# stores


def store(g: Ctx, fm: Forms, ind: str) -> list[str]:
    """A store to one of the kernel's objects (never to a bit-field): a value of its type
    (an enumerator for an enum), converted modulo 2^N to a narrower one, or a compound
    assignment that cannot overflow (signed ones only under -fwrapv)."""
    c = g.c
    places = [p for p in fm.places if not p.ty.bitfield]
    if not places:
        return []
    p = c.pick(places)
    ty = p.ty
    lv = p.at(g.index())
    if ty.enum is not None:
        return [f"{ind}{lv} = {_enum_value(g, fm, ty)};"]
    kind = c.int(0, 3)
    if kind == 1:  # compound assignment
        ops = ["^=", "|=", "&="]
        if not ty.signed or ty.bits < 32 or fm.flags.wrapv:
            ops += ["+=", "-=", "*="]
        op = c.pick(ops)
        rhs = to_type(g.expr("unsigned", c.int(0, 2)), "unsigned")
        if ty.signed and ty.bits >= 32 and op in ("+=", "-=", "*="):  # -fwrapv: it wraps
            rhs = to_type(g.expr(ty.promoted(), c.int(0, 2)), ty.promoted())
        # computed in the target's own type: 64 bits, or 32 with an operand of its type
        own = ty.bits == 64 or (ty.bits == 32 and rhs.t == ty.promoted())
        if "compound" in g.env.avoid and not own:  # a known bug (gen.KNOWN_BUGS)
            return [f"{ind}{lv} = {lv} {op[:-1]} {operand(rhs)};"]
        return [f"{ind}{lv} {op} {rhs.text};"]
    if kind == 2 and (not ty.signed or ty.bits < 32 or fm.flags.wrapv):
        return [f"{ind}{lv}{c.pick(['++', '--'])};"]
    if kind == 3 and ty.kind == "char":
        byte = c.int(0, 255)
        return [f"{ind}{lv} = '\\x{byte:02x}';"]
    src = c.pick(["int", "unsigned", "long"])
    e = to_type(g.expr(src, c.int(0, 2)), src)
    return [f"{ind}{lv} = ({ty.spelled}){operand(e)};"]


def _enum_value(g: Ctx, fm: Forms, ty: Int) -> str:
    """One of the enum's enumerators: a constant, a choice of two, or a copy of an element
    of the same type."""
    c = g.c
    assert ty.enum is not None
    names = [n for n, _ in ty.enum.enumerators]
    kind = c.int(0, 2)
    if kind == 1:
        cond = f"{g.index()} < {c.int(4, 20)}"
        return f"({cond} ? {c.pick(names)} : {c.pick(names)})"
    same = [p for p in fm.places if p.ty == ty]
    if kind == 2 and same:
        return c.pick(same).at(g.index())
    return c.pick(names)


# ----------------------------------------------------------------------------------------------
# overflow under -fwrapv


def wrapping(g: Ctx, t: str, depth: int) -> E:
    """Signed ``+ - *`` or negation that may overflow: defined only under -fwrapv (the
    caller's program has it), where it wraps."""
    c = g.c
    rt = "long" if t == "long" else "int"
    a = _any_signed(g, rt, depth)
    kind = c.int(0, 3)
    if kind == 3:
        return E(f"(-{operand(a)})", rt, limit(rt) + 1)
    b = _any_signed(g, rt, depth)
    op = ["+", "-", "*"][kind]
    return E(f"({a.text} {op} {b.text})", rt, limit(rt) + 1)


def _any_signed(g: Ctx, t: str, depth: int) -> E:
    """A value of the signed type ``t``, any value of it: at an edge (a constant, an
    element of the edge arrays) more often than not."""
    c = g.c
    if c.chance(60):
        e = edge_operand(g, t, depth - 1)
    else:
        e = g.expr(t, depth - 1)
    if e.is_float:
        return to_type(e, t)
    if e.t != t:
        return E(f"(({t}){operand(e)})", t, limit(t) + 1)
    return e
