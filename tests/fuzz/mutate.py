"""Break a correct rewrite on purpose, to show that the checks notice.

Mutations are text edits on the rewritten bodies accsat printed (one statement
per line):

``hoist-load``   move a temporary's load above the nearest store before it in
                 the same block that may alias it (same array, or both through
                 pointers);
``drop-store``   delete a store to memory;
``constant``     change a floating-point literal (x -> 1.5 x + 0.25);
``temp-double``  declare a ``float`` temporary as ``double``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from accsat.frontend import ctypes as ct
from accsat.frontend.load import load
from accsat.verify import validate

KINDS = ("hoist-load", "drop-store", "constant", "temp-double")

_STORE = re.compile(r"^(\s*)([A-Za-z_]\w*)((?:\[[^;]*?\]|->\w+|\.\w+)+)\s*=(?!=)(.*);\s*$")
_TEMP = re.compile(
    r"^(\s*)(float|double|int|long|unsigned int|unsigned|short)\s+(_v\d+)\s*=\s*(.*);\s*$"
)
_ACCESS = re.compile(r"([A-Za-z_]\w*)\s*(?:\[|->)")
_TEMPS = re.compile(r"\b_v\d+\b")
_FLOAT_LIT = re.compile(r"(?<![\w.])(\d+\.\d*(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+)([fF]?)(?![\w.])")


@dataclass
class Mutant:
    kind: str
    kernel_line: int  # the kernel's line in the original file
    description: str
    text: str  # the whole mutated file


def _may_alias(a: str, b: str, scope) -> bool:
    if a == b:
        return True
    sa, sb = scope.lookup(a), scope.lookup(b)
    return (
        sa is not None
        and sb is not None
        and isinstance(sa.type, ct.Pointer)
        and isinstance(sb.type, ct.Pointer)
    )


def _body_mutants(lines: list[str], scope) -> list[tuple[str, str, list[str]]]:
    out: list[tuple[str, str, list[str]]] = []
    declared_at: dict[str, int] = {}
    for n, line in enumerate(lines):
        m = _TEMP.match(line)
        if m:
            declared_at[m.group(3)] = n
    for j, line in enumerate(lines):
        m = _TEMP.match(line)
        if m and ("[" in m.group(4) or "->" in m.group(4)):
            indent = m.group(1)
            reads = {x for x in _ACCESS.findall(m.group(4))}
            for s in range(j - 1, -1, -1):
                other = lines[s]
                lead = len(other) - len(other.lstrip())
                if other.strip() and lead < len(indent):
                    break  # left the block
                st = _STORE.match(other)
                if (
                    st
                    and st.group(1) == indent
                    and any(_may_alias(st.group(2), r, scope) for r in reads)
                ):
                    uses = set(_TEMPS.findall(m.group(4)))
                    if all(declared_at.get(u, -1) < s for u in uses):
                        new = lines[:s] + [line] + lines[s:j] + lines[j + 1 :]
                        out.append(("hoist-load", f"'{line.strip()}' above '{other.strip()}'", new))
                    break
        if _STORE.match(line):
            out.append(("drop-store", f"drop '{line.strip()}'", lines[:j] + lines[j + 1 :]))
        for lit in _FLOAT_LIT.finditer(line):
            value = float(lit.group(1)) * 1.5 + 0.25
            new_line = line[: lit.start()] + repr(value) + lit.group(2) + line[lit.end() :]
            out.append(
                (
                    "constant",
                    f"'{lit.group(0)}' -> '{repr(value)}{lit.group(2)}' in '{line.strip()}'",
                    lines[:j] + [new_line] + lines[j + 1 :],
                )
            )
        if m and m.group(2) == "float":
            new_line = line.replace("float " + m.group(3), "double " + m.group(3), 1)
            out.append(
                (
                    "temp-double",
                    f"'{line.strip()}' as double",
                    lines[:j] + [new_line] + lines[j + 1 :],
                )
            )
    return out


def mutants(original: Path, rewritten_text: str, options) -> list[Mutant]:
    """Every mutant of every rewritten kernel body of ``rewritten_text``."""
    orig_text = Path(original).read_text()
    kernels = load(Path(original), options.preprocess, text=orig_text).kernels
    bodies = validate._bodies_in_place(orig_text, rewritten_text, kernels)
    if bodies is None:
        raise ValueError("the rewritten text differs outside the kernel bodies")
    out: list[Mutant] = []
    for k, (body, span) in zip(kernels, bodies, strict=True):
        if span is None or body == orig_text[k.span.start : k.span.end]:
            continue
        for kind, desc, new_lines in _body_mutants(body.split("\n"), k.scope):
            text = rewritten_text[: span[0]] + "\n".join(new_lines) + rewritten_text[span[1] :]
            out.append(Mutant(kind, k.line, desc, text))
    return out
