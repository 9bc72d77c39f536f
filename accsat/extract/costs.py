"""Operation cost models read from TOML files (see cost_models/paper.toml)."""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass, field
from pathlib import Path

from accsat.egraph.graph import ENode
from accsat.errors import AccsatError
from accsat.ops import OPS
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
            raise AccsatError(f"unknown operation '{op}' under [ops]; did you mean "
                              f"'{near[0]}'? (accsat/ops.py lists them)", file)
    return CostModel(
        name=str(data.get("name", path.stem)),
        description=str(data.get("description", "")),
        default=_number(data.get("default", 10.0), "default", file),
        ops={op: _number(v, f"cost of {op}", file) for op, v in ops.items()},
    )
