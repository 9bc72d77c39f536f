"""The user's type names for temporaries: ``real _v3 = ...;`` where the user wrote ``real``.

A scalar type read through a typedef carries the typedef's name
(``ctypes.Scalar.spelled``), and so do the values computed from it; a value loaded
from an enum-typed object carries ``enum tag``. A temporary of such a value is
declared with that name where the name surely means that type at the temporary:
a typedef that the kernel's scope resolves to the very type (no variable of the body
or of an enclosing scope hides it, and a typedef inside a body is refused by the SSA
builder), an enum tag of the file with that type. Elsewhere the canonical spelling
(``unsigned long``) is used. The compiler checks that either spelling has the type
accsat gives the value (``verify/typecheck.py``).
"""

from __future__ import annotations

from ..frontend import ctypes as ct
from ..ssa import ir
from ..ssa.state import SSAKernel


def body_typedefs(ssa: SSAKernel) -> dict[str, str]:
    """Type name -> the canonical scalar type it names, for the names a temporary may be
    declared with in this kernel: those its body's declarations spell, and those the
    kernel's scope resolves (``symbols.type_names``) that no name of the body hides."""
    out: dict[str, str] = {}
    for stmt, _ in ir.walk(ssa.body):
        if isinstance(stmt, ir.Assign) and stmt.decl is not None:
            t = stmt.sym.type
            if isinstance(t, ct.Scalar) and t.spelled and t.spelled not in ssa.names:
                out.setdefault(t.spelled, t.name)
    for name, canonical in ssa.type_names.items():
        if name not in ssa.names:
            out.setdefault(name, canonical)
    return out


def declare(t: ct.CType, name: str, typedefs: dict[str, str]) -> str:
    """``name`` declared with type ``t``, through the user's typedef where ``typedefs``
    (from ``body_typedefs``) says it names the same type."""
    if isinstance(t, ct.Scalar) and typedefs.get(t.spelled) == t.name:
        return f"{t.spelled} {name}"
    return ct.spell(t, name)
