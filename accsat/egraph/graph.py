"""The e-graph as plain data, read out of egglog once saturation is done.

Extraction and code generation work on this, never on egglog objects.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
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
    # the hash, computed once: extraction keys dicts by nodes (costs, columns, choices),
    # and a dataclass hashes its fields' tuple again at every look-up
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.op, self.ty, self.attrs, self.children)))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self):  # made again where unpickled: a string's hash differs there
        return ENode, (self.op, self.ty, self.attrs, self.children)

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

    def reachable(self, roots: Iterable[int]) -> set[int]:
        """Classes reachable from ``roots`` through any e-node."""
        return set(reach(roots, lambda cls: all_children(self.classes[cls])))


def all_children(nodes: Iterable[ENode]) -> Iterator[int]:
    """The child classes of some e-nodes of one class (repeats included)."""
    for node in nodes:
        yield from node.children


def reach(roots: Iterable[int], successors: Callable[[int], Iterable[int]]) -> Iterator[int]:
    """Every id reachable from ``roots``, each once, depth-first.

    The one reachability walk: over all e-nodes of a class, over a choice's one
    node (``successors`` decides, and may give nothing for a dead end), or over
    terms' arguments. A generator, so a caller looking for one id can stop early;
    ``successors(i)`` is called only after ``i`` was yielded and the caller resumed,
    so the caller may decide an id's successors when it sees the id.
    """
    seen: set[int] = set()
    stack = list(roots)
    while stack:
        i = stack.pop()
        if i not in seen:
            seen.add(i)
            yield i
            stack.extend(successors(i))
