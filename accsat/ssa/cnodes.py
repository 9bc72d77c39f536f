"""Questions about the shape of pycparser statements that the SSA builder and the
promotion pass both ask (one home: ``walk``, assignment targets, calls, jumps, roots)."""

from __future__ import annotations

from collections.abc import Iterator

from pycparser import c_ast

INCDEC = ("++", "--", "p++", "p--")


def walk(node: c_ast.Node | None) -> Iterator[c_ast.Node]:
    """``node`` and every node below it, in pre-order (with a stack: a generator a level
    passed every node up through each level above it, 15 % of the SSA's time on NPB)."""
    if node is None:
        return
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(list(n)))


def assignment_targets(node: c_ast.Node | None) -> Iterator[c_ast.Node]:
    """The lvalues ``node`` assigns (``=``, compound assignments, ``++``/``--``)."""
    for n in walk(node):
        if isinstance(n, c_ast.Assignment):
            yield n.lvalue
        elif isinstance(n, c_ast.UnaryOp) and n.op in INCDEC:
            yield n.expr


def calls(node: c_ast.Node | None) -> Iterator[c_ast.FuncCall]:
    for n in walk(node):
        if isinstance(n, c_ast.FuncCall):
            yield n


def may_jump_out(node: c_ast.Node, returns: bool = False) -> bool:
    """Does ``node`` contain a break or continue that leaves the enclosing loop body (or,
    with ``returns``, a return: a function's body)?"""
    jumps = (
        (c_ast.Break, c_ast.Continue, c_ast.Return) if returns else (c_ast.Break, c_ast.Continue)
    )
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, jumps):
            return True
        if not isinstance(n, (c_ast.For, c_ast.While, c_ast.DoWhile, c_ast.Switch)):
            stack.extend(n)  # a loop's or switch's own break/continue stay inside it
    return False


def root_name(node: c_ast.Node) -> str | None:
    """The variable an lvalue or access path starts from: ``u`` in ``u[k][j][i]``,
    ``p`` in ``*(p + i)`` and ``p->x`` (also used by ``accsat advise``)."""
    while True:
        if isinstance(node, c_ast.ID):
            return node.name
        if isinstance(node, (c_ast.ArrayRef, c_ast.StructRef)):
            node = node.name
        elif isinstance(node, c_ast.UnaryOp) and node.op == "*" or isinstance(node, c_ast.Cast):
            node = node.expr
        elif isinstance(node, c_ast.BinaryOp) and node.op in ("+", "-"):
            left = root_name(node.left)
            return left if left is not None else root_name(node.right)
        else:
            return None
