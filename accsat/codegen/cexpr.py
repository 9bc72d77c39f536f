"""Printing extracted e-nodes as C expressions: precedence, casts, FMA groupings.

Implicit conversions are explicit Cast nodes in the e-graph; a cast is printed
only where C would not perform the same conversion by itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from ..egraph.graph import ENode
from ..frontend import ctypes as ct
from ..ops import (
    ADD_PREC,
    ARITHMETIC,
    BINARY_C,
    COND_PREC,
    FOLDABLE,
    LOR_PREC,
    MUL_PREC,
    OPS,
    PRIMARY,
    UNARY_C,
    UNARY_PREC,
)
from .constants import WrittenAccess


@dataclass
class Counts:
    loads: int = 0
    ops: int = 0
    fma: int = 0
    # the cost model's price of every operation as printed, a name read as a variable;
    # constant expressions are free (the compiler folds them), as in the SSA's count of
    # the body as written (Stats.cost), which this is compared with
    cost: float = 0.0


def access_path(base: str, template: str, indices: list[str]) -> str:
    """``base`` then the path: "[]" takes the next index, ".f" and "->f" are members."""
    out, idx, i = base, iter(indices), 0
    while i < len(template):
        if template.startswith("[]", i):
            out += f"[{next(idx)}]"
            i += 2
            continue
        k = i + (2 if template.startswith("->", i) else 1)
        while k < len(template) and template[k] not in ".-[":
            k += 1
        out += template[i:k]
        i = k
    return out


def constant_expr(choice: dict[int, ENode], cls: int, memo: dict[int, bool]) -> bool:
    """A constant expression (the compiler folds it): a literal, or a foldable
    operation on constant expressions."""
    if cls not in memo:
        node = choice[cls]
        memo[cls] = node.op == "Const" or (
            node.op in FOLDABLE
            and bool(node.children)
            and all(constant_expr(choice, c, memo) for c in node.children)
        )
    return memo[cls]


def scalar_type(text: str) -> ct.CType | None:
    try:
        return ct.from_name(text)
    except ValueError:
        return None


class ExprPrinter:
    """Prints one class at one use; ``name_of`` gives a name when the value has one there."""

    def __init__(
        self,
        choice: dict[int, ENode],
        name_of: Callable[[int], str | None],
        fma_call: bool,
        counts: Counts,
        cost: Callable[[ENode], float] | None = None,
        free_reads: frozenset[int] = frozenset(),
        spell: Callable[[str], str] | None = None,
        constant_text: Callable[[int], tuple[str, int] | None] | None = None,
        access_text: Callable[[str], WrittenAccess | None] | None = None,
    ):
        self.choice = choice
        # an access path as printed -> the user's text for it there (codegen/macros.py)
        self.spell = spell or (lambda text: text)
        # a constant class -> the user's text for it here, and its precedence (constants.py)
        self.constant_text = constant_text or (lambda cls: None)
        # an access as printed -> the user's, reading variables that hold its constants
        self.access_text = access_text or (lambda text: None)
        self.plain = False  # constants as chosen (an access matched with macros' expansions)
        self.suppressed = 0  # constants printed as chosen while ``plain`` is set
        self.name_of = name_of
        self.fma_call = fma_call
        self.counts = counts
        self.cost = cost or (lambda node: 0.0)
        self.free_reads = free_reads  # classes whose name is read at no cost (call results)
        self.reads: list[str] = []  # every name read, in order
        self._constant: dict[int, bool] = {}
        # when set, every expression printed with its class, for the compiler's check of
        # the types accsat gives them (verify/typecheck.py)
        self.typed: list[tuple[str, int]] | None = None

    def constant(self, cls: int) -> bool:
        return constant_expr(self.choice, cls, self._constant)

    def charge(self, cls: int, node: ENode) -> None:
        if self.constant(cls):
            return
        if node.op == "Fma" and not self.fma_call:
            # printed as a + b * c: an add and a multiply in C, as the compiler would
            # contract them in the original too
            self.counts.cost += self.cost(ENode("Add", node.ty)) + self.cost(ENode("Mul", node.ty))
            return
        self.counts.cost += self.cost(node)

    def charge_read(self, cls: int) -> None:
        if cls not in self.free_reads:
            self.counts.cost += self.cost(ENode("Var", self.choice[cls].ty))

    def ctype(self, cls: int) -> ct.CType | None:
        return scalar_type(self.choice[cls].ctype)

    def written(self, cls: int) -> tuple[str, int] | None:
        """The user's text for a constant the extraction chose to print as a constant."""
        if not self.constant(cls):
            return None
        found = self.constant_text(cls)
        if found is not None and self.plain:
            self.suppressed += 1
            return None
        return found

    # -- entry points -----------------------------------------------------------------------
    def value(self, cls: int, target: ct.CType | None = None) -> str:
        """Text of ``cls`` where it is converted to ``target`` anyway (assignment, argument)."""
        node = self.choice[cls]
        written = self.written(cls)
        if written is not None:
            return written[0]
        if node.op == "Cast" and target is not None and self.name_of(cls) is None:
            inner = node.children[0]
            if self.ctype(inner) is not None and scalar_type(node.ctype) == target:
                self.charge(cls, node)  # implicit, but still a conversion
                return self.expr(inner)[0]
        return self.expr(cls)[0]

    def expr(self, cls: int) -> tuple[str, int]:
        name = self.name_of(cls)
        if name is not None:
            self.charge_read(cls)
            self.reads.append(name)
            printed = name, PRIMARY
        else:
            printed = self.written(cls) or self.node(cls, self.choice[cls])
        if self.typed is not None and self.choice[cls].op != "Sym":
            # (a Sym's text names the object, its type is the object's address)
            self.typed.append((printed[0], cls))
        return printed

    def node(self, cls: int, n: ENode) -> tuple[str, int]:
        """The node itself, never its temporary's name (used for definitions)."""
        op = n.op
        self.charge(cls, n)
        if op == "Const":
            text = n.attrs[0]
            return text, UNARY_PREC if text.startswith("-") else PRIMARY
        if op in ("Sym", "Var", "Phi"):
            return n.attrs[0], PRIMARY
        if op == "Load":
            self.counts.loads += 1
            return self.lvalue(n), PRIMARY
        if op == "AddrOf":
            return "&" + self.wrap(self.lvalue(n), PRIMARY, UNARY_PREC), UNARY_PREC
        if op in ARITHMETIC and not self.constant(cls):  # the compiler folds constants
            self.counts.ops += 1
        if op == "Fma":
            self.counts.fma += 1
            return self.fma(n)
        if op in BINARY_C:
            return self.binary(n, BINARY_C[op])
        if op in UNARY_C:
            text = self.operand(n.children[0], None, UNARY_PREC)[0]
            if text.startswith(("-", "+")) and op == "Neg":
                text = f"({text})"
            return UNARY_C[op] + text, UNARY_PREC
        if op == "Cast":
            inner, prec = self.expr(n.children[0])
            return f"({n.ctype}){self.wrap(inner, prec, UNARY_PREC)}", UNARY_PREC
        if op == "Select":
            c, a, b = n.children
            ct_, cp = self.expr(c)
            at, bt = self.pair(a, b, LOR_PREC, COND_PREC)
            return f"{self.wrap(ct_, cp, LOR_PREC)} ? {at} : {bt}", COND_PREC
        if op == "Call":
            args = [self.expr(c)[0] for c in self.items(n.children[0])]
            return f"{n.attrs[0]}({', '.join(args)})", PRIMARY
        if op == "PtrAdd":
            p, k = n.children
            pt, pp = self.expr(p)
            kn = self.choice[k]
            if kn.op == "Neg" and self.name_of(k) is None:
                kt, kp = self.expr(kn.children[0])
                return (
                    f"{self.wrap(pt, pp, ADD_PREC)} - {self.wrap(kt, kp, ADD_PREC + 1)}",
                    ADD_PREC,
                )
            kt, kp = self.expr(k)
            return f"{self.wrap(pt, pp, ADD_PREC)} + {self.wrap(kt, kp, ADD_PREC + 1)}", ADD_PREC
        if op == "PtrDiff":
            return self.binary(n, "-")
        if op == "CallRes":
            raise ValueError("call result printed without its temporary")
        raise ValueError(f"cannot print {op}")

    # -- pieces -------------------------------------------------------------------------------
    def items(self, cls: int) -> list[int]:
        out = []
        node = self.choice[cls]
        while node.op == "TCons":
            out.append(node.children[0])
            node = self.choice[node.children[1]]
        return out

    def lvalue(self, n: ENode) -> str:
        """``base`` followed by the access path, indices filled in."""
        base, indices = n.children
        return self.access(base, n.attrs[0], self.items(indices))

    def access(self, base: int, template: str, indices: list[int]) -> str:
        node = self.choice[base]
        if (
            node.op == "AddrOf"
            and self.name_of(base) is None
            and template.startswith("[]")
            and node.attrs[0].endswith("[]")
        ):
            inner, items = node.children[0], self.items(node.children[1])
            if self.choice[items[-1]].op == "Const" and self.choice[items[-1]].attrs[0] == "0":
                # (&e[i][0])[k], a decayed row indexed: e[i][k]
                return self.access(inner, node.attrs[0] + template[2:], items[:-1] + indices)
        text, prec = self.expr(base)
        head = self.wrap(text, prec, PRIMARY)
        # matched with the macros' expansions as printed from the e-graph; constants
        # spelled as written only where no macro's text stands for the whole access
        outer, suppressed, mark = self.plain, self.suppressed, self._mark()
        self.plain = True
        raw = access_path(head, template, [self.expr(i)[0] for i in indices])
        self.plain = outer
        found = self.spell(raw)
        written = self.access_text(raw) if found == raw else None
        if written is not None and outer:
            self.suppressed += 1  # the enclosing access prints it again, or not at all
        elif written is not None:
            for sym, cls in written.reads:
                self.charge_read(cls)
                self.reads.append(sym.name)
            return written.text
        if found != raw or outer or self.suppressed == suppressed:
            return found
        self._restore(mark)
        return access_path(head, template, [self.expr(i)[0] for i in indices])

    def _mark(self) -> tuple[Counts, int]:
        return replace(self.counts), len(self.reads)

    def _restore(self, mark: tuple[Counts, int]) -> None:
        """Undo what printing did since ``mark`` (before it prints the same again)."""
        counts, reads = mark
        self.counts.__dict__.update(counts.__dict__)
        del self.reads[reads:]

    @staticmethod
    def wrap(text: str, prec: int, need: int) -> str:
        return f"({text})" if prec < need else text

    def operand(
        self, cls: int, other_type: ct.CType | None, need: int
    ) -> tuple[str, int, ct.CType | None]:
        """An arithmetic operand, dropping a cast that C's conversions would do anyway.

        ``other_type`` is the type the other operand has as printed (None for a
        unary operator or a shift, where only promotion applies). Returns the
        text, its precedence and the type it has as printed.
        """
        node = self.choice[cls]
        written = self.written(cls)
        if written is not None:
            return self.wrap(written[0], written[1], need), written[1], self.ctype(cls)
        if node.op == "Cast" and self.name_of(cls) is None:
            inner = node.children[0]
            cast_to = scalar_type(node.ctype)
            src = self.ctype(inner)
            if cast_to is not None and src is not None and ct.is_arithmetic(src):
                if other_type is None:
                    implied = ct.promote(src)
                elif ct.is_arithmetic(other_type):
                    implied = ct.usual_arithmetic(src, other_type)
                else:
                    implied = None
                if implied == cast_to:
                    self.charge(cls, node)  # implicit, but still a conversion
                    text, prec = self.expr(inner)
                    return self.wrap(text, prec, need), prec, src
        text, prec = self.expr(cls)
        return self.wrap(text, prec, need), prec, self.ctype(cls)

    def binary(self, n: ENode, sym: str) -> tuple[str, int]:
        prec = OPS[n.op].prec
        assert prec is not None
        a, b = n.children
        if n.op in ("Shl", "Shr"):
            at = self.operand(a, None, prec)[0]
            bt = self.operand(b, None, prec + 1)[0]
        elif OPS[n.op].kind == "logic":
            at = self.wrap(*self.expr(a), prec)
            bt = self.wrap(*self.expr(b), prec + 1)
        else:
            at, bt = self.pair(a, b, prec, prec + 1)
        return f"{at} {sym} {bt}", prec

    def pair(self, a: int, b: int, need_a: int, need_b: int) -> tuple[str, str]:
        """Both operands of a usual-arithmetic-conversion operator: the left one
        drops its cast only if the right one, as printed with its cast, still
        implies it; the right one then decides against the left as printed."""
        at, _, a_type = self.operand(a, self.ctype(b), need_a)
        bt, _, _ = self.operand(b, a_type, need_b)
        return at, bt

    def fma(self, n: ENode) -> tuple[str, int]:
        a, b, c = n.children
        if self.fma_call:
            fn = {"float": "fmaf", "long double": "fmal"}.get(n.ctype, "fma")
            return f"{fn}({self.expr(b)[0]}, {self.expr(c)[0]}, {self.expr(a)[0]})", PRIMARY
        an, bn = self.choice[a], self.choice[b]
        t = scalar_type(n.ctype)  # of the product and the sum: casts to it are implied
        if bn.op == "Neg" and self.name_of(b) is None:  # a - b*c
            prod = self.product(bn.children[0], c)
            at = self.operand(a, t, ADD_PREC)[0]
            return f"{at} - {prod}", ADD_PREC
        if bn.op == "Const" and bn.attrs[0].startswith("-") and self.written(b) is None:
            # a + (-2.0)*c is a - 2.0*c exactly (unless the user wrote -2.0 so)
            ctext = self.operand(c, t, MUL_PREC + 1)[0]
            at = self.operand(a, t, ADD_PREC)[0]
            return f"{at} - {bn.attrs[0][1:]} * {ctext}", ADD_PREC
        if an.op == "Neg" and self.name_of(a) is None:  # b*c - a
            prod = self.product(b, c)
            rest = self.operand(an.children[0], t, ADD_PREC + 1)[0]
            return f"{prod} - {rest}", ADD_PREC
        prod = self.product(b, c)
        return f"{self.operand(a, t, ADD_PREC)[0]} + {prod}", ADD_PREC

    def product(self, b: int, c: int) -> str:
        bt, ctext = self.pair(b, c, MUL_PREC, MUL_PREC + 1)
        return f"{bt} * {ctext}"
