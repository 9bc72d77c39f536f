"""Which line of the user's file each printed line of a rewritten body stands for.

Only the compiler wrapper asks for this (``Options.line_directives``): its copy of
the file carries ``#line`` directives so that every diagnostic the compiler gives
inside a rewritten body names the user's line of the statement concerned. A
temporary stands for the first statement (in program order) that needs its value:
a load hoisted by bulk load points at the statement that reads it.
"""

from __future__ import annotations

from ..ssa import ir
from .placement import Plan

_DIRECTIVE = "#line "


def next_line(lines: list[str]) -> int:
    """The line the compiler gives the next line after ``lines`` (printed lines, each
    perhaps several source lines, our ``#line`` directives among them); 0 when no
    directive says."""
    count = 0
    for text in reversed(lines):
        if text.startswith(_DIRECTIVE):
            return int(text.split()[1]) + count
        count += text.count("\n") + 1
    return 0


def without_shadowed(lines: list[str]) -> list[str]:
    """``lines`` less each directive that the next line overrides at once."""
    return [
        text
        for text, after in zip(lines, [*lines[1:], ""], strict=True)
        if not (text.startswith(_DIRECTIVE) and after.startswith(_DIRECTIVE))
    ]


def serving_lines(body: ir.Block, plan: Plan) -> dict[int, int]:
    """e-class -> the line of the first statement whose computation needs it."""
    lines: dict[int, int] = {}
    for stmt, _block in ir.walk(body):
        stack = [plan.class_of[t] for t in ir.uses(stmt) if t in plan.class_of]
        while stack:  # iterative: an expression may be thousands of terms deep
            cls = stack.pop()
            if cls in lines:
                continue
            lines[cls] = stmt.line
            node = plan.choice.get(cls)
            if node is not None:
                stack.extend(node.children)
    return lines
