"""The statement protocol of accsat.ssa.ir: children, uses and walk, per class."""

from __future__ import annotations

import dataclasses
import typing

import pytest

from accsat.frontend import ctypes as ct
from accsat.frontend.symbols import Symbol
from accsat.ssa import ir

X = Symbol("x", ct.DOUBLE, "local")
STMT_CLASSES = typing.get_args(ir.Stmt)


def _block(ctx: str, *stmts: ir.Stmt) -> ir.Block:
    return ir.Block(ctx, list(stmts))


def test_every_field_is_declared_once():
    """A new field must be declared child, use or attribute, so walkers see it."""
    for cls in STMT_CLASSES:
        declared = [*cls.child_fields, *cls.use_fields, *cls.attr_fields]
        fields = [f.name for f in dataclasses.fields(cls)]
        assert sorted(declared) == sorted(fields), cls.__name__


def test_use_fields_in_evaluation_order():
    """Declared in field order, so ``uses`` lists ids as the statement reads them."""
    for cls in STMT_CLASSES:
        order = [f.name for f in dataclasses.fields(cls)]
        assert list(cls.use_fields) == sorted(cls.use_fields, key=order.index), cls.__name__


def test_assign():
    s = ir.Assign(X, 7, pos=1, line=1, decl="double x")
    assert ir.children(s) == []
    assert ir.uses(s) == [7]


def test_store():
    s = ir.Store("[][]", base=1, indices=(2, 3), value=4, pos=1, line=1)
    assert ir.children(s) == []
    assert ir.uses(s) == [1, 2, 3, 4]


def test_eval():
    s = ir.Eval("f", args=(5, 6), result=9, result_type="double", pos=1, line=1)
    assert ir.children(s) == []
    assert ir.uses(s) == [5, 6]  # the result is defined here, not used


def test_verbatim():
    s = ir.Verbatim("break;", pos=1, line=1, declares=X)
    assert ir.children(s) == []
    assert ir.uses(s) == []


def test_braced():
    inner = _block("b1")
    s = ir.Braced(inner, pos=1, line=1)
    assert ir.children(s) == [inner]
    assert ir.uses(s) == []


@pytest.mark.parametrize("has_else", [True, False])
def test_if(has_else):
    then = _block("t1")
    orelse = _block("e1") if has_else else None
    s = ir.If(8, then, orelse, pos=1, line=1, phis={X: 20})
    assert ir.children(s) == ([then, orelse] if has_else else [then])
    assert ir.uses(s) == [8]  # phis are defined by the if, not used


def test_loop():
    body = _block("l1")
    s = ir.Loop("for (;;)", "", body, pos=1, line=1, head_phis={X: 21}, exit_phis={X: 22})
    assert ir.children(s) == [body]
    assert ir.uses(s) == []


def test_walk_pre_order_with_holding_block():
    store = ir.Store("", 2, (), 3, pos=5, line=5)
    loop = ir.Loop("do", "while (1);", _block("l", store), pos=4, line=4)
    then = _block("t", ir.Assign(X, 1, pos=3, line=3), loop)
    orelse = _block("e", ir.Verbatim("break;", pos=6, line=6))
    branch = ir.If(9, then, orelse, pos=2, line=2)
    top = _block("k0", ir.Braced(_block("br", branch), pos=1, line=1), ir.Verbatim(";", 7, 7))

    got = [(type(s).__name__, s.pos, blk.ctx) for s, blk in ir.walk(top)]
    assert got == [
        ("Braced", 1, "k0"),
        ("If", 2, "br"),
        ("Assign", 3, "t"),
        ("Loop", 4, "t"),
        ("Store", 5, "l"),
        ("Verbatim", 6, "e"),
        ("Verbatim", 7, "k0"),
    ]
