"""The user's type names for temporaries: ``real _v3 = ...;`` where the user wrote ``real``.

A scalar type read through a typedef carries the typedef's name
(``ctypes.Scalar.spelled``), and so do the values computed from it. A temporary
of such a value is declared with that name only where the name surely means
that type at the temporary: a declaration inside the kernel body spells its
type that way (so the name is a typedef of that type there; a typedef inside a
body is refused by the SSA builder), and no variable of the body is called so.
Elsewhere (a type macro, a name the body never spells) the canonical spelling
(``double``) is used.
"""

from __future__ import annotations

from ..frontend import ctypes as ct
from ..ssa import ir
from ..ssa.state import SSAKernel


def body_typedefs(ssa: SSAKernel) -> dict[str, str]:
    """Typedef name -> the canonical scalar type it names, for the names a declaration
    of the body spells its type with."""
    out: dict[str, str] = {}
    for stmt, _ in ir.walk(ssa.body):
        if isinstance(stmt, ir.Assign) and stmt.decl is not None:
            t = stmt.sym.type
            if isinstance(t, ct.Scalar) and t.spelled and t.spelled not in ssa.names:
                out.setdefault(t.spelled, t.name)
    return out


def declare(t: ct.CType, name: str, typedefs: dict[str, str]) -> str:
    """``name`` declared with type ``t``, through the user's typedef where ``typedefs``
    (from ``body_typedefs``) says it names the same type."""
    if isinstance(t, ct.Scalar) and typedefs.get(t.spelled) == t.name:
        return f"{t.spelled} {name}"
    return ct.spell(t, name)
