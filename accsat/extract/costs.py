"""Operation cost models read from TOML files (see cost_models/paper.toml)."""

from __future__ import annotations

import difflib
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from accsat.egraph.graph import EGraph, ENode
from accsat.errors import AccsatError
from accsat.ops import FOLDABLE, OPS
from accsat.resources import data_dir, tomllib


@dataclass
class CostModel:
    """Cost of each e-node by its operation name."""

    name: str
    description: str = ""
    default: float = 10.0
    ops: dict[str, float] = field(default_factory=dict)

    def cost(self, node: ENode) -> float:
        return self.ops.get(node.op, self.default)

    def __call__(self, node: ENode) -> float:
        return self.cost(node)


def constants_free(
    model: CostModel | Callable[[ENode], float], egraph: EGraph
) -> Callable[[ENode], float]:
    """The model's cost, but an operation on constants (a conversion of a literal,
    ``2.0 * 3.0``) is free: the compiler folds it, and the cost of the body as
    written (``ssa.state.Stats.cost``) counts it so. Extracted and written costs
    then compare, whether or not the variant folds such an operation itself."""

    def cost(node: ENode) -> float:
        return 0.0 if on_constants(node, egraph) else model(node)

    return cost


def on_constants(node: ENode, egraph: EGraph) -> bool:
    """A foldable operation whose operands are constants (their classes hold one)."""
    return (
        node.op in FOLDABLE
        and bool(node.children)
        and all(any(n.op == "Const" for n in egraph.classes.get(c, ())) for c in node.children)
    )


def _number(value: object, what: str, file: str) -> float:
    # bool is an int subclass: reject it explicitly, "true" is no cost.
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise AccsatError(f"{what} must be a number, not {value!r}", file)
    if not math.isfinite(value) or value < 0:
        raise AccsatError(f"{what} must be a finite non-negative number, not {value!r}", file)
    return float(value)


def _resolve(name_or_path: str) -> Path:
    """A bare name (no separator, no suffix) means cost_models/<name>.toml."""
    path = Path(name_or_path)
    if path.suffix or len(path.parts) > 1:
        return path
    try:
        return data_dir("cost_models") / f"{name_or_path}.toml"
    except FileNotFoundError as exc:
        raise AccsatError(str(exc), name_or_path) from None


def load_cost_model(name_or_path: str) -> CostModel:
    path = _resolve(name_or_path)
    file = str(path)
    try:
        data = tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise AccsatError(f"cost model '{name_or_path}' not found", file) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise AccsatError(f"cannot read cost model: {exc}", file) from None
    except tomllib.TOMLDecodeError as exc:
        raise AccsatError(f"bad TOML in cost model: {exc}", file) from None
    ops = data.get("ops", {})
    if not isinstance(ops, dict):
        raise AccsatError("[ops] must be a table of operation = cost", file)
    unknown = set(data) - {"name", "description", "default", "ops"}
    if unknown:
        raise AccsatError(f"unknown cost model keys: {', '.join(sorted(unknown))}", file)
    for op in ops:
        if op not in OPS:  # a typo would silently cost the default
            near = difflib.get_close_matches(op, OPS, n=1, cutoff=0.0)
            raise AccsatError(
                f"unknown operation '{op}' under [ops]; did you mean "
                f"'{near[0]}'? (accsat/ops.py lists them)",
                file,
            )
    return CostModel(
        name=str(data.get("name", path.stem)),
        description=str(data.get("description", "")),
        default=_number(data.get("default", 10.0), "default", file),
        ops={op: _number(v, f"cost of {op}", file) for op, v in ops.items()},
    )


# How much dearer a node the user did not write is than an equal alternative he did:
# far below any cost a model gives (it only breaks ties), above the solver's tolerance.
TIE_BREAK = 1e-4
MOST_TIE_BREAK = 5 * TIE_BREAK  # what ``preferring`` adds to one node at most


def preferring(
    cost: Callable[[ENode], float], written: set[ENode], egraph: EGraph
) -> Callable[[ENode], float]:
    """``cost``, but among equal choices the node the user wrote wins (an extraction
    that does not pay does not reorder a sum, swap operands or respell a literal: that
    would only make the diff longer), except that a folded constant wins over the
    arithmetic on constants it replaces (``32 * 16 * c`` prints as ``512 * c``; an
    implicit conversion of a literal, ``x * 2`` with x double, stays as written). An
    operation on constants that must stay in its control context (``(int)2.9`` may
    trap) loses to anything else of its class: otherwise ``i + 2`` could be printed
    through the one written in an if, and then only inside that if."""

    def prefer(node: ENode) -> float:
        c = cost(node)
        if node not in written:
            c += TIE_BREAK
        if on_constants(node, egraph):
            c += 4 * TIE_BREAK if node.ctx else 0.0 if node.op == "Cast" else 2 * TIE_BREAK
        return c

    return prefer
