"""Hash-consed terms: the values of a kernel in single-assignment form.

A term is an operation (a row of ``accsat/ops.py``), the C type of its
result (with ``@ctx`` when it must not be evaluated outside control context
``ctx``), primitive attributes, and argument term ids. Building the same term
twice gives the same id, which is already common-subexpression elimination;
the e-graph later adds equalities.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..frontend import ctypes as ct


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
