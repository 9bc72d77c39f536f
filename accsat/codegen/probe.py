"""Type probes: what a printed kernel claims about the C types of its expressions, in a
form the user's compiler checks.

accsat reasons with its own model of C's types (``frontend/ctypes.py``); the compiler
is the oracle. A probe body is the kernel as printed with, at the end of each block,
one assertion per expression printed in it::

    _Static_assert(__builtin_types_compatible_p(__typeof__(+(P[i] - 1)), unsigned int),
                   "accsat:3");

``verify/typecheck.py`` compiles the probes of a file with the user's compiler and
flags and keeps as written every kernel whose assertions fail. The forms are GNU C
(``__typeof__``, ``__builtin_types_compatible_p``), which gcc, clang and nvc accept.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..frontend import ctypes as ct

MARK = '"accsat:'  # the message of every assertion begins so; then its number


@dataclass(frozen=True)
class Check:
    """One expression and the type accsat gives it: as printed, or (``written``) as the
    body was written, typed by the typer."""

    text: str
    ctype: ct.CType
    written: bool = False


@dataclass(frozen=True)
class Probe:
    """A rewritten kernel's probe: its body with the assertions, and what they assert."""

    body: str
    checks: tuple[Check, ...]


def subject(text: str, t: ct.CType) -> tuple[str, str] | None:
    """The expression to take the type of and the type it must have, for ``text`` of
    type ``t``; None where no assertion says anything (a struct, an anonymous type).

    An integer of int's rank or above is asserted through unary ``+``, which leaves its
    type as it is and is valid on a bit-field (``__typeof__`` of a bit-field is not); a
    pointer through the object it points to (the pointee's qualifiers, which accsat's
    model drops, do not count there)."""
    if isinstance(t, ct.Scalar) and ct.is_integer(t):
        promoted = ct.promote(t)
        if promoted == ct.plain(t):
            return f"+({text})", ct.spell(promoted)
        return f"({text})", t.name
    if isinstance(t, ct.Scalar):
        return f"({text})", t.name
    if isinstance(t, ct.Pointer):
        to = t.to
        if isinstance(to, ct.Scalar):
            return f"*({text})", to.name
        if isinstance(to, ct.Struct) and to.tag and not to.tag.startswith("<"):
            return f"*({text})", str(to)
    return None


def shown(check: Check) -> tuple[str, str]:
    """What an assertion asks, for a reason: the expression (a pointer's target for a
    pointer) and the type accsat gives it."""
    found = subject(check.text, check.ctype)
    if found is None:
        return check.text, str(check.ctype)
    expr, spelled = found
    return (expr if expr.startswith("*") else check.text), spelled


def assertion(check: Check, number: int) -> str | None:
    """The assertion line of ``check`` (None where there is nothing to assert)."""
    found = subject(check.text, check.ctype)
    if found is None:
        return None
    expr, spelled = found
    return (
        f"_Static_assert(__builtin_types_compatible_p(__typeof__({expr}), {spelled}), "
        f'{MARK}{number}");'
    )
