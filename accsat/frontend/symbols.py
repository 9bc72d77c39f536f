"""Names and their C types: typedefs, struct tags, enum constants, variables.

``FileSymbols`` reads the file-scope declarations; ``Scope`` chains the block
scopes of a function as the kernel finder walks into it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pycparser import c_ast

from ..errors import Unsupported
from . import ctypes as ct
from .attributes import DECLARATION_ONLY, HARMLESS, Attribute, Attributes
from .effects import Effects, Summaries, summaries
from .typed import Typer, int_value


@dataclass(eq=False)
class Symbol:
    """A declared name. Compared by identity: two ``i`` in different blocks differ."""

    name: str
    type: ct.CType
    kind: str  # "global" | "static" | "local" | "param" | "enum" | "func"
    volatile: bool = False
    value: int | None = None  # enum constants
    line: int | None = None
    # what it points to is const or volatile (``const double *p``): another name for
    # the same address must not be spelled through it (a store through it is an error)
    qualified_target: bool = False
    # GNU attributes written on its declaration (a declaration printed again without
    # them would mean something else)
    attributes: tuple[Attribute, ...] = ()

    def __repr__(self) -> str:
        return f"Symbol({self.name}: {self.type}, {self.kind})"


@dataclass
class Scope:
    names: dict[str, Symbol] = field(default_factory=dict)
    parent: Scope | None = None
    typedefs: dict[str, ct.CType] = field(default_factory=dict)
    # the qualifiers each typedef carries (ct types drop them): ``typedef const double cd``
    typedef_quals: dict[str, Quals] = field(default_factory=dict)

    def lookup(self, name: str) -> Symbol | None:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None

    def typedef(self, name: str) -> ct.CType | None:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.typedefs:
                return scope.typedefs[name]
            scope = scope.parent
        return None

    def quals_of(self, name: str) -> Quals:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.typedef_quals:
                return scope.typedef_quals[name]
            if name in scope.typedefs:
                return NO_QUALS
            scope = scope.parent
        return NO_QUALS

    def child(self) -> Scope:
        return Scope(parent=self)

    def snapshot(self) -> Scope:
        """A frozen copy of the chain: later declarations do not leak into it."""
        parent = self.parent.snapshot() if self.parent else None
        return Scope(dict(self.names), parent, dict(self.typedefs), dict(self.typedef_quals))


class TypeReader:
    """Turns pycparser type trees into ``CType`` values, with the compiler's rules for
    what pycparser does not see (enum types, GNU attributes)."""

    def __init__(self, tags: dict[str, ct.Struct], attributes: Attributes | None = None):
        self.tags = tags
        self.enums: dict[str, ct.CType] = {}  # tag -> the enum's type
        self.unmodelled: dict[str, ct.Unmodelled] = {}  # struct tags accsat does not lay out
        self.attributes = attributes or Attributes()

    def read(self, node: c_ast.Node, scope: Scope) -> ct.CType:
        if isinstance(node, (c_ast.Typename, c_ast.Decl, c_ast.Typedef)):
            t = self.read(node.type, scope)
            attrs = self.attributes.of(node)
            return with_attributes(t, attrs, _kind_of(node)) if attrs else t
        if isinstance(node, c_ast.TypeDecl):
            return self.read(node.type, scope)
        if isinstance(node, c_ast.PtrDecl):
            return ct.Pointer(self.read(node.type, scope), "restrict" in (node.quals or ()))
        if isinstance(node, c_ast.ArrayDecl):
            size = eval_const(node.dim, scope, self) if node.dim is not None else None
            return ct.Array(self.read(node.type, scope), size)
        if isinstance(node, c_ast.FuncDecl):
            return self._func(node, scope)
        if isinstance(node, c_ast.IdentifierType):
            return self._named(node.names, scope)
        if isinstance(node, (c_ast.Struct, c_ast.Union)):
            return self.struct(node, scope)
        if isinstance(node, c_ast.Enum):
            return self.enum(node, scope)
        raise Unsupported("a declarator accsat does not read")

    def _named(self, names: list[str], scope: Scope) -> ct.CType:
        if len(names) == 1 and names[0] == "void":
            return ct.Void()
        if len(names) == 1 and names[0] not in BUILTIN_TYPE_NAMES:
            found = scope.typedef(names[0])
            if found is not None:
                return ct.spelled_as(found, names[0])  # "real": how temporaries of it are declared
        spelled = " ".join(names)
        try:
            return ct.from_name(spelled)
        except ValueError:
            pass
        if "_Complex" in names:  # a value of it is unmodelled; a pointer to it may pass
            return ct.Unmodelled(f"complex type '{spelled}'", spelled)
        if spelled in ("_Float128", "__float128", "__ibm128", "__float80"):
            return ct.Unmodelled(f"the floating type '{spelled}'", spelled)
        raise Unsupported(f"unknown type name '{spelled}'")

    def _func(self, node: c_ast.FuncDecl, scope: Scope) -> ct.Func:
        ret = self.read(node.type, scope)
        if node.args is None:
            return ct.Func(ret, None)
        params: list[ct.CType] = []
        variadic = False
        for p in node.args.params:
            if isinstance(p, c_ast.EllipsisParam):
                variadic = True
                continue
            t = (
                self.read(p, scope)
                if isinstance(p, (c_ast.Decl, c_ast.Typename))
                else (self.read(p.type, scope))
            )
            if isinstance(t, ct.Void):
                continue
            params.append(param_adjust(t))
        return ct.Func(ret, tuple(params), variadic)

    def struct(self, node: c_ast.Struct | c_ast.Union, scope: Scope) -> ct.CType:
        is_union = isinstance(node, c_ast.Union)
        tag = node.name or f"<anon@{node.coord}>"
        if node.decls is None:
            if tag in self.unmodelled:
                return self.unmodelled[tag]
            return self.tags.get(tag) or ct.Struct(tag, None, is_union)
        members = [(d.name or "", self.read(d, scope)) for d in node.decls]
        widths = {
            d.name or "": w
            for d in node.decls
            if d.bitsize is not None and (w := eval_const(d.bitsize, scope, self)) is not None
        }
        result = ct.layout_struct(node.name or "", members, is_union, widths)
        self.tags[tag] = result
        why = _layout_attribute(self.attributes.of(node), node.decls, self.attributes)
        inner = next((t for _, t in members if ct.unmodelled(t)), None)
        if inner is not None:
            why = why or f"a struct member of type {inner} ({ct.unmodelled(inner)})"
        if why:  # its members are not where the SysV layout puts them
            self.unmodelled[tag] = ct.Unmodelled(why, str(result))
            return self.unmodelled[tag]
        return result

    def enum(self, node: c_ast.Enum, scope: Scope) -> ct.CType:
        """An enum's type: the integer type gcc and clang give it (``enum_type``), named
        ``enum tag`` so that a temporary of it is declared as the user's own."""
        if node.values is None:
            return self.enums.get(node.name or "", ct.Scalar("unsigned int"))
        values = self.enum_values(node, scope)
        t = ct.spelled_as(enum_type(values), f"enum {node.name}" if node.name else "")
        for e in node.values.enumerators:  # an enumerator is an int where its value is one
            sym = scope.names[e.name]
            if not _fits(sym.value or 0, ct.INT):
                sym.type = ct.plain(t)
        if node.name:
            self.enums[node.name] = t
        attrs = self.attributes.of(node)
        return with_attributes(t, attrs, "type") if attrs else t

    def enum_values(self, node: c_ast.Enum, scope: Scope) -> list[int]:
        if node.values is None:
            return []
        value = -1
        out = []
        for e in node.values.enumerators:
            given = eval_const(e.value, scope, self) if e.value is not None else value + 1
            if given is None:
                raise Unsupported(f"enum constant {e.name} is not a constant")
            value = given
            out.append(value)
            scope.names[e.name] = Symbol(e.name, ct.INT, "enum", value=value)
        return out


# spelled like a typedef name, but the compiler's own types (accsat's prelude declares
# them as typedefs so that pycparser reads them as type names)
BUILTIN_TYPE_NAMES = frozenset(("_Float16",))

# the width and signedness of an integer mode (``__attribute__((mode(DI)))``)
_INT_MODES = {
    "QI": 8,
    "HI": 16,
    "SI": 32,
    "DI": 64,
    "TI": 128,
    "byte": 8,
    "word": 64,
    "pointer": 64,
}
_FLOAT_MODES = {"SF": "float", "DF": "double", "XF": "long double"}
_BY_BITS = {8: "char", 16: "short", 32: "int", 64: "long", 128: "__int128"}


def enum_type(values: list[int]) -> ct.Scalar:
    """The integer type gcc and clang give an enum with these values: ``unsigned int``
    when none is negative, ``int`` when one is, the 64-bit types beyond those; with
    ``-fshort-enums`` the smallest integer type that holds them all."""
    lo, hi = min(values, default=0), max(values, default=0)
    names = ["int", "long"] if lo < 0 else ["unsigned int", "unsigned long"]
    if ct.target().short_enums:
        names = (
            ["signed char", "short"] if lo < 0 else ["unsigned char", "unsigned short"]
        ) + names
    for name in names:
        t = ct.Scalar(name)
        if _fits(lo, t) and _fits(hi, t):
            return t
    return ct.Scalar(names[-1])


def _fits(value: int, t: ct.CType) -> bool:
    lo, hi = ct.int_range(t)
    return lo <= value <= hi


def with_attributes(t: ct.CType, attrs: tuple[Attribute, ...], kind: str) -> ct.CType:
    """``t`` as the GNU attributes of its declaration make it: ``mode`` gives a scalar
    another width, a vector or anything else accsat does not know on a type makes it
    ``Unmodelled``. ``kind``: "type" (a typedef, a struct member, a type name) or
    "object" (a variable, parameter or function: ``aligned`` and the like leave its type)."""
    for a in attrs:
        if a.name == "mode":
            t = _with_mode(t, a)
        elif a.name in HARMLESS or kind == "object" and a.name in DECLARATION_ONLY:
            continue
        elif a.name in ("vector_size", "ext_vector_type", "neon_vector_type"):
            return ct.Unmodelled(f"a vector type ({a})", str(t))
        else:
            return ct.Unmodelled(f"the attribute {a} on a type", str(t))
    return t


def _with_mode(t: ct.CType, a: Attribute) -> ct.CType:
    mode = a.args.strip("_ ")
    if isinstance(t, ct.Scalar) and ct.is_integer(t) and mode in _INT_MODES:
        base = _BY_BITS[_INT_MODES[mode]]
        if base == "char":
            return ct.Scalar("unsigned char" if ct.is_unsigned(t) else "signed char")
        return ct.Scalar(f"unsigned {base}" if ct.is_unsigned(t) else base)
    if isinstance(t, ct.Scalar) and ct.is_float(t) and mode in _FLOAT_MODES:
        return ct.Scalar(_FLOAT_MODES[mode])
    return ct.Unmodelled(f"the attribute {a} on {t}", str(t))


def _layout_attribute(
    attrs: tuple[Attribute, ...], members: list[c_ast.Node], attributes: Attributes
) -> str:
    """Why a struct's members are not where the SysV layout puts them ("" if they are)."""
    for a in attrs:
        if a.name not in HARMLESS and a.name != "designated_init":
            return f"a struct with the attribute {a}"
    for d in members:
        for a in attributes.of(d):
            if a.name in ("aligned", "packed"):
                return f"a struct member with the attribute {a}"
    return ""


def _kind_of(node: c_ast.Node) -> str:
    """What a declaration's attributes apply to: a type (a typedef, a type name) or an
    object (a variable, parameter, function or struct member: ``aligned`` leaves its
    type; on a member it moves the others, which ``_layout_attribute`` says)."""
    return "type" if isinstance(node, (c_ast.Typedef, c_ast.Typename)) else "object"


def param_adjust(t: ct.CType) -> ct.CType:
    """Parameters declared as arrays or functions are pointers (C11 6.7.6.3)."""
    if isinstance(t, ct.Array):
        return ct.Pointer(t.of)
    if isinstance(t, ct.Func):
        return ct.Pointer(t)
    return t


@dataclass(frozen=True)
class Quals:
    """The const/volatile qualifiers of a declarator, typedefs it names included."""

    anywhere: frozenset[str] = frozenset()  # on any level
    target: bool = False  # some qualifier below a pointer: on what it points to
    pointer: bool = False  # a pointer somewhere in it


NO_QUALS = Quals()


def quals(node: c_ast.Node, scope: Scope) -> Quals:
    """Walk the declarator down to its base type, looking into the typedefs it names."""
    anywhere: set[str] = set()
    below = target = False
    while isinstance(node, c_ast.Node):
        here = {"const", "volatile"} & set(getattr(node, "quals", None) or ())
        anywhere |= here
        target = target or below and bool(here)
        if isinstance(node, c_ast.IdentifierType):
            for name in node.names:
                inner = scope.quals_of(name)
                anywhere |= inner.anywhere
                # a typedef of a pointer to const, or of a const type a pointer points to
                target = target or inner.target or below and bool(inner.anywhere)
                below = below or inner.pointer
        below = below or isinstance(node, c_ast.PtrDecl)
        node = getattr(node, "type", None)
    return Quals(frozenset(anywhere), target, below)


def eval_const(expr: c_ast.Node, scope: Scope, types: TypeReader | None = None) -> int | None:
    """Value of an integer constant expression as the compiler computes it, or None if
    it is not one (``typed.int_value`` of the typed expression)."""
    try:
        return int_value(Typer(types or TypeReader({})).expr(expr, scope))
    except (Unsupported, ValueError):
        return None


class FileSymbols:
    """File-scope names, filled in declaration order as the walker meets them."""

    def __init__(self, attributes: Attributes | None = None) -> None:
        self.tags: dict[str, ct.Struct] = {}
        self.types = TypeReader(self.tags, attributes)
        self.scope = Scope()
        # the functions the file defines: name -> (definition, the scope of its parameters)
        self.functions: dict[str, tuple[c_ast.FuncDef, Scope]] = {}
        self._effects: Summaries | None = None

    def effects(self, name: str) -> Effects | None:
        """What a call of ``name`` may do to memory (frontend/effects.py); None when the
        file does not define it."""
        if self._effects is None:
            objects = {
                n: sym.type
                for n, sym in self.scope.names.items()
                if sym.kind in ("global", "static") and not isinstance(sym.type, ct.Func)
            }
            self._effects = summaries(dict(self.functions), objects)
        return self._effects.of(name)

    def declare(self, decl: c_ast.Node, scope: Scope, kind: str) -> Symbol | None:
        """Record a declaration in ``scope``; return the variable it declares, if any."""
        if isinstance(decl, c_ast.Typedef):
            try:
                scope.typedefs[decl.name] = self.types.read(decl, scope)
            except Unsupported as exc:
                scope.typedefs[decl.name] = ct.Unmodelled(exc.reason, decl.name)
            scope.typedef_quals[decl.name] = quals(decl.type, scope)
            return None
        if not isinstance(decl, c_ast.Decl):
            return None
        try:
            t = self.types.read(decl, scope)
        except Unsupported:
            t = None
        if decl.name is None:
            return None  # a bare struct/enum declaration: tags and enumerators recorded
        storage = decl.storage or []
        if isinstance(t, ct.Func) or t is None and isinstance(decl.type, c_ast.FuncDecl):
            kind = "func"
        elif "static" in storage and kind == "local":
            kind = "static"
        elif "extern" in storage:
            kind = "global"
        if t is None:
            t = ct.Void()
        if kind == "param":
            t = param_adjust(t)
        if isinstance(t, ct.Array) and t.size is None and decl.init is not None:
            t = ct.Array(t.of, _init_length(decl.init))
        q = quals(decl.type, scope)
        sym = Symbol(
            decl.name,
            t,
            kind,
            "volatile" in q.anywhere,
            line=_line(decl),
            qualified_target=q.target,
            attributes=self.types.attributes.of(decl),
        )
        scope.names[decl.name] = sym
        return sym


def _init_length(init: c_ast.Node) -> int | None:
    """The length an initialiser gives an array declared without one (None: not read;
    with designators the length is the highest index given, not the count)."""
    if isinstance(init, c_ast.InitList):
        if any(isinstance(e, c_ast.NamedInitializer) for e in init.exprs):
            return None
        return len(init.exprs)
    if isinstance(init, c_ast.Constant) and init.type == "string":
        return len(init.value) - 1  # approximate: escapes counted as written
    return None


def _line(node: c_ast.Node) -> int | None:
    return node.coord.line if node.coord else None


def type_names(scope: Scope, symbols: FileSymbols) -> dict[str, str]:
    """The typedef names a scope resolves to scalar types (each where no variable of an
    inner scope hides it), and the file's enum tags: name -> the canonical type."""
    out: dict[str, str] = {}
    at: Scope | None = scope
    hidden: set[str] = set()
    while at is not None:
        for name, t in at.typedefs.items():
            ours = name in BUILTIN_TYPE_NAMES or name.startswith("__accsat")
            if name not in hidden and isinstance(t, ct.Scalar) and not ours:
                out.setdefault(name, t.name)
        hidden |= set(at.names) | set(at.typedefs)
        at = at.parent
    for tag, t in symbols.types.enums.items():
        if isinstance(t, ct.Scalar) and not tag.startswith("__accsat"):
            out.setdefault(f"enum {tag}", t.name)
    return out
