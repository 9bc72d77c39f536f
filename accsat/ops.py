"""The operation vocabulary: one row per constructor of egraph/schema.egg.

Every stage names operations by these strings (SSA terms, egglog rules, the
printer, the folder, cost models), so the list lives here once and the sets
each stage needs are computed from it. ``check_schema`` compares the table
with schema.egg; the egraph stage calls it when it loads the schema.

Cheap to import on purpose (no egglog, no pycparser): cost models and tests
read it without building anything.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

# C precedence levels of printed forms, higher binds tighter (C11 6.5).
PRIMARY = 16  # names, literals, calls, a[i], s.f
UNARY_PREC = 15  # -x ~x !x (T)x &x
MUL_PREC = 13
ADD_PREC = 12
SHIFT_PREC = 11
REL_PREC = 10
EQ_PREC = 9
BITAND_PREC = 8
BITXOR_PREC = 7
BITOR_PREC = 6
LAND_PREC = 5
LOR_PREC = 4
COND_PREC = 3

KINDS = ("leaf", "list", "memory", "arithmetic", "comparison", "logic", "other")


@dataclass(frozen=True)
class Op:
    name: str
    kind: str  # one of KINDS
    arity: int  # Term arguments
    attrs: int = 0  # String arguments after the result type (names, keys, literal text)
    c: str | None = None  # C operator, None where the printed form is not one operator
    prec: int | None = PRIMARY  # precedence of the printed form (None: never printed)
    foldable: bool = False  # constant folding applies (frontend/fold.py computes it)
    int_only: bool = False  # C allows it on integers only
    # operands C evaluates only on some paths (&&, ||, ?:): lowered in a context of their own
    guarded: tuple[int, ...] = ()

    @property
    def typed(self) -> bool:
        """Takes the C type of its result as first String (lists have no type)."""
        return self.kind != "list"

    @property
    def arithmetic(self) -> bool:
        return self.kind == "arithmetic"

    @property
    def signature(self) -> tuple[str, ...]:
        """Argument sorts as schema.egg declares them: Strings first, then Terms."""
        return ("String",) * (self.typed + self.attrs) + ("Term",) * self.arity


TABLE: tuple[Op, ...] = (
    Op("Const", "leaf", 0, attrs=1),  # literal text as C writes it
    Op("Var", "leaf", 0, attrs=2),  # name, key: a variable's value at kernel entry
    Op("Phi", "leaf", 0, attrs=2),  # name, key: a variable's value after if/loop
    Op("CallRes", "leaf", 0, attrs=1),  # tag: result of a call with side effects
    Op("Sym", "leaf", 0, attrs=2),  # name, key: a declared array or object
    Op("TNil", "list", 0, prec=None),
    Op("TCons", "list", 2, prec=None),
    Op("Load", "memory", 2, attrs=2),  # access path, memory version; base, indices
    Op("AddrOf", "memory", 2, attrs=1, prec=UNARY_PREC),  # access path; base, indices
    Op("PtrAdd", "memory", 2, prec=ADD_PREC),
    Op("PtrDiff", "memory", 2, prec=ADD_PREC),
    Op("Add", "arithmetic", 2, c="+", prec=ADD_PREC, foldable=True),
    Op("Sub", "arithmetic", 2, c="-", prec=ADD_PREC, foldable=True),
    Op("Mul", "arithmetic", 2, c="*", prec=MUL_PREC, foldable=True),
    Op("Div", "arithmetic", 2, c="/", prec=MUL_PREC, foldable=True),
    Op("Mod", "arithmetic", 2, c="%", prec=MUL_PREC, foldable=True, int_only=True),
    Op("Neg", "arithmetic", 1, c="-", prec=UNARY_PREC, foldable=True),
    # Fma(a, b, c) = a + b * c, printed so (or as a call); never folded: one
    # rounding instead of two would change the result.
    Op("Fma", "arithmetic", 3, prec=ADD_PREC),
    Op("Shl", "arithmetic", 2, c="<<", prec=SHIFT_PREC, foldable=True, int_only=True),
    Op("Shr", "arithmetic", 2, c=">>", prec=SHIFT_PREC, foldable=True, int_only=True),
    Op("BitAnd", "arithmetic", 2, c="&", prec=BITAND_PREC, foldable=True, int_only=True),
    Op("BitOr", "arithmetic", 2, c="|", prec=BITOR_PREC, foldable=True, int_only=True),
    Op("BitXor", "arithmetic", 2, c="^", prec=BITXOR_PREC, foldable=True, int_only=True),
    Op("BitNot", "arithmetic", 1, c="~", prec=UNARY_PREC, foldable=True, int_only=True),
    Op("Lt", "comparison", 2, c="<", prec=REL_PREC, foldable=True),
    Op("Le", "comparison", 2, c="<=", prec=REL_PREC, foldable=True),
    Op("Gt", "comparison", 2, c=">", prec=REL_PREC, foldable=True),
    Op("Ge", "comparison", 2, c=">=", prec=REL_PREC, foldable=True),
    Op("Eq", "comparison", 2, c="==", prec=EQ_PREC, foldable=True),
    Op("Ne", "comparison", 2, c="!=", prec=EQ_PREC, foldable=True),
    Op("Not", "logic", 1, c="!", prec=UNARY_PREC),
    Op("And", "logic", 2, c="&&", prec=LAND_PREC, guarded=(1,)),
    Op("Or", "logic", 2, c="||", prec=LOR_PREC, guarded=(1,)),
    Op("Select", "other", 3, c="?:", prec=COND_PREC, guarded=(1, 2)),  # c ? a : b
    Op("Cast", "other", 1, prec=UNARY_PREC, foldable=True),
    Op("Call", "other", 1, attrs=1),  # pure math function name; argument list
)

OPS: dict[str, Op] = {op.name: op for op in TABLE}


def _names(pred: Callable[[Op], bool]) -> frozenset[str]:
    return frozenset(op.name for op in TABLE if pred(op))


LEAVES = _names(lambda op: op.kind == "leaf")
MEMORY = _names(lambda op: op.kind == "memory")
ARITHMETIC = _names(lambda op: op.arithmetic)
COMPARISONS = _names(lambda op: op.kind == "comparison")
FOLDABLE = _names(lambda op: op.foldable)
UNARY_FOLDABLE = _names(lambda op: op.foldable and op.arity == 1)
INT_ONLY = _names(lambda op: op.int_only)
UNTYPED = _names(lambda op: not op.typed)

# Operators C writes between (or before) their operands: op name -> C spelling.
BINARY_C = {op.name: op.c for op in TABLE if op.c is not None and op.arity == 2}
UNARY_C = {op.name: op.c for op in TABLE if op.c is not None and op.arity == 1}
# C binary operator -> op name (the parser's direction).
FROM_C_BINARY = {c: name for name, c in BINARY_C.items()}


class SchemaMismatch(RuntimeError):
    """accsat/ops.py and egraph/schema.egg disagree on the operations."""


def _check_table() -> None:
    bad = [op.name for op in TABLE if op.kind not in KINDS]
    if bad or len(OPS) != len(TABLE) or len(FROM_C_BINARY) != len(BINARY_C):
        raise SchemaMismatch(f"accsat/ops.py: bad kinds {bad}, or a name or C operator twice")


_check_table()


def schema_signatures(text: str) -> dict[str, tuple[str, ...]]:
    """Constructor -> argument sorts of the ``(datatype Term ...)`` in schema text."""
    text = re.sub(r";[^\n]*", "", text)
    start = text.find("(datatype Term")
    if start < 0:
        raise SchemaMismatch("schema.egg has no (datatype Term ...)")
    depth = 0
    for end in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[end], 0)
        if depth == 0:
            break
    body = text[start + len("(datatype Term") : end]
    return {m[1]: tuple(m[2].split()) for m in re.finditer(r"\((\w+)([^()]*)\)", body)}


def check_schema(text: str) -> None:
    """Raise SchemaMismatch unless ``text`` declares exactly the table's constructors."""
    found = schema_signatures(text)
    problems = [f"{name} missing from accsat/ops.py" for name in found if name not in OPS]
    for op in TABLE:
        if op.name not in found:
            problems.append(f"{op.name} missing from schema.egg")
        elif found[op.name] != op.signature:
            problems.append(
                f"{op.name} is ({' '.join(found[op.name])}) in schema.egg but "
                f"({' '.join(op.signature)}) in accsat/ops.py"
            )
    if problems:
        raise SchemaMismatch("operation table and schema.egg differ: " + "; ".join(problems))
