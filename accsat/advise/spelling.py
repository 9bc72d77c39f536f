"""Access paths as the user spelled them (``u[k][j][i-1]``), from the original text.

pycparser's nodes come from the preprocessed text: macros are expanded and
columns moved. On the node's line of the user's file, the accesses of one
array are matched by order: the n-th access of ``u`` on that line (by column
in the parsed text) is the n-th ``u`` followed by ``[``, ``->`` or ``.`` in
the original. Where the counts differ (a macro made some), there is no
spelling and the caller prints the parsed node instead.

Also read off the parsed node: the offset an access path's subscript spells
for an index (``i - 1``: -1).
"""

from __future__ import annotations

from collections import defaultdict

from pycparser import c_ast

from ..frontend.source_map import SourceMap
from .thread import int_constant

_FOLLOW = ("[", "->", ".")


class Spelling:
    def __init__(self, source: SourceMap, file: str):
        self.source = source
        self.file = file
        toks = source.tokens
        # per (line, name): token indices of the name followed by an access
        self.uses: dict[tuple[int, str], list[int]] = defaultdict(list)
        for n, tok in enumerate(toks[:-1]):
            if tok.kind == "ident" and toks[n + 1].text in _FOLLOW:
                self.uses[(tok.line, tok.text)].append(n)

    def texts(self, nodes: list[tuple[c_ast.Node, str]]) -> dict[int, str]:
        """``id(node)`` -> its text as written, for the (node, root name) pairs that can
        be found."""
        by_place: dict[tuple[int, str], list[c_ast.Node]] = defaultdict(list)
        for node, root in nodes:
            coord = node.coord
            if (
                coord is not None
                and coord.file == self.file
                and isinstance(node, (c_ast.ArrayRef, c_ast.StructRef))
            ):
                by_place[(coord.line, root)].append(node)
        out: dict[int, str] = {}
        for place, found in by_place.items():
            uses = self.uses.get(place, [])
            if len(uses) != len(found):
                continue
            found.sort(key=lambda n: n.coord.column or 0)
            for node, start in zip(found, uses, strict=True):
                text = self._path(start)
                if text is not None:
                    out[id(node)] = text
        return out

    def _path(self, start: int) -> str | None:
        toks = self.source.tokens
        j = self.source.path_end(start + 1)
        if j is None:
            return None
        return " ".join(self.source.text[toks[start].start : toks[j - 1].end].split())


def subscript_offset(node: c_ast.Node, var: str) -> int | None:
    """``c`` for the one subscript of an access path that reads ``var`` as ``var + c``."""
    subscripts = []
    while isinstance(node, (c_ast.ArrayRef, c_ast.StructRef)):
        if isinstance(node, c_ast.ArrayRef):
            subscripts.append(node.subscript)
        node = node.name
    hits = [s for s in subscripts if _reads(s, var)]
    return _offset(hits[0], var) if len(hits) == 1 else None


def _offset(e: c_ast.Node, var: str) -> int | None:
    """``c`` in ``var + c`` (integer literals summed, other terms without ``var`` left
    out); None when ``var`` is not added in plainly."""
    if isinstance(e, c_ast.ID) and e.name == var:
        return 0
    if isinstance(e, c_ast.BinaryOp) and e.op in ("+", "-"):
        left, right = _reads(e.left, var), _reads(e.right, var)
        if left and not right:
            a, b = _offset(e.left, var), int_constant(e.right) or 0
            return None if a is None else a + b if e.op == "+" else a - b
        if right and not left and e.op == "+":
            c = _offset(e.right, var)
            return None if c is None else c + (int_constant(e.left) or 0)
    return None


def _reads(e: c_ast.Node, var: str) -> bool:
    return (isinstance(e, c_ast.ID) and e.name == var) or any(_reads(c, var) for c in e)
