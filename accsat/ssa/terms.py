"""Hash-consed terms: the values of a kernel in single-assignment form.

A term is an operation (a row of ``accsat/ops.py``), the C type of its
result (with ``@ctx`` when it must not be evaluated outside control context
``ctx``), primitive attributes, and argument term ids. Building the same term
twice gives the same id, which is already common-subexpression elimination;
the e-graph later adds equalities.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..frontend import ctypes as ct
from ..frontend.fold import evaluate, literal_value, scalar
from ..ops import FOLDABLE


@dataclass(frozen=True)
class Term:
    op: str
    ty: str
    attrs: tuple[str, ...] = ()
    args: tuple[int, ...] = ()

    @property
    def ctx(self) -> str:
        return self.ty.split("@", 1)[1] if "@" in self.ty else ""


class TermTable:
    """Terms by id; ``types[id]`` is the ``CType`` of each (None for lists)."""

    def __init__(self) -> None:
        self.terms: list[Term] = []
        self.types: list[ct.CType | None] = []
        self._index: dict[Term, int] = {}
        self.constants: dict[int, Constant | None] = {}  # constant()'s memo

    def add(
        self,
        op: str,
        ctype: ct.CType | None,
        ctx: str = "",
        attrs: tuple[str, ...] = (),
        args: tuple[int, ...] = (),
    ) -> int:
        ty = "" if ctype is None else type_text(ctype) + (f"@{ctx}" if ctx else "")
        return self.add_term(Term(op, ty, attrs, args), ctype)

    def add_term(self, term: Term, ctype: ct.CType | None) -> int:
        found = self._index.get(term)
        if found is not None:
            return found
        self.terms.append(term)
        self.types.append(ctype)
        self._index[term] = len(self.terms) - 1
        return len(self.terms) - 1

    def find(self, term: Term) -> int | None:
        return self._index.get(term)

    def __getitem__(self, tid: int) -> Term:
        return self.terms[tid]

    def __len__(self) -> int:
        return len(self.terms)

    def list_of(self, items: list[int]) -> int:
        """A TCons/TNil chain of term ids (index lists, call arguments)."""
        tail = self.add("TNil", None)
        for item in reversed(items):
            tail = self.add("TCons", None, args=(item, tail))
        return tail

    def items(self, tid: int) -> list[int]:
        out = []
        while self.terms[tid].op == "TCons":
            head, tid = self.terms[tid].args
            out.append(head)
        return out


def type_text(t: ct.CType) -> str:
    """The type as C spells it in a declaration without a name."""
    return ct.spell(t)


Constant = tuple[int | float | Fraction | str, str]


def literal_constant(text: str, ctype: str) -> Constant:
    """A literal's value, or its text where it has none we compute (a string); a
    ``long double`` decimal literal exactly (a Python float would round it)."""
    if ctype == "long double":
        try:
            return Fraction(text.strip().rstrip("lL")), ctype
        except ValueError:
            return text.strip(), ctype
    t = scalar(ctype)
    v = None if t is None else literal_value(text, t)
    return (text, ctype) if v is None else (v, ctype)


def constant(terms: TermTable, tid: int) -> Constant | None:
    """The value and C type of a constant expression (None if ``tid`` is not one, or C
    leaves its value undefined)."""
    if tid not in terms.constants:
        terms.constants[tid] = _constant(terms, tid)
    return terms.constants[tid]


def _constant(terms: TermTable, tid: int) -> Constant | None:
    t = terms[tid]
    ctype = t.ty.split("@", 1)[0]
    if t.op == "Const":
        return literal_constant(t.attrs[0], ctype)
    if t.op not in FOLDABLE or not t.args:
        return None
    operands = [constant(terms, a) for a in t.args]
    ts = [scalar(c[1]) if c is not None else None for c in operands]
    target = scalar(ctype)
    if (
        target is None
        or any(c is None or isinstance(c[0], (str, Fraction)) for c in operands)
        or any(x is None for x in ts)
    ):
        return None
    value = evaluate(
        t.op,
        target,
        [
            (c[0], x)
            for c, x in zip(operands, ts, strict=True)
            if c is not None
            and x is not None  # checked above
            and not isinstance(c[0], (str, Fraction))
        ],
    )
    return None if value is None else (value, ctype)
