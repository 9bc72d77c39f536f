"""The e-graph as plain data, read out of egglog once saturation is done.

Extraction and code generation work on this, never on egglog objects.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field


@dataclass(frozen=True)
class ENode:
    """One e-node.

    op       constructor name from the term schema: "Add", "Mul", "Fma", "Load",
             "Var", "Const", "TCons", "TNil", ...
    ty       C type of the value ("double", "unsigned int", "double *"), with
             "@<ctx>" appended when the operation must not be evaluated outside
             the control context <ctx> (loads, integer division...); "" for
             index lists (TCons/TNil).
    attrs    the other primitive arguments: literal text, variable name, access key...
    children e-class ids of the term arguments, in order.
    """

    op: str
    ty: str
    attrs: tuple[str, ...] = ()
    children: tuple[int, ...] = ()

    @property
    def ctype(self) -> str:
        """The C type without the evaluation context."""
        return self.ty.split("@", 1)[0]

    @property
    def ctx(self) -> str:
        return self.ty.split("@", 1)[1] if "@" in self.ty else ""


@dataclass
class EGraph:
    """E-classes by id, each with its e-nodes."""

    classes: dict[int, list[ENode]] = field(default_factory=dict)

    def add(self, cls: int, node: ENode) -> None:
        nodes = self.classes.setdefault(cls, [])
        if node not in nodes:
            nodes.append(node)

    def nodes(self) -> Iterator[tuple[int, ENode]]:
        for cls, nodes in self.classes.items():
            for node in nodes:
                yield cls, node

    @property
    def node_count(self) -> int:
        return sum(len(nodes) for nodes in self.classes.values())

    def reachable(self, roots: list[int]) -> set[int]:
        """Classes reachable from ``roots`` through any e-node."""
        seen: set[int] = set()
        stack = list(roots)
        while stack:
            cls = stack.pop()
            if cls in seen:
                continue
            seen.add(cls)
            for node in self.classes[cls]:
                stack.extend(node.children)
        return seen
