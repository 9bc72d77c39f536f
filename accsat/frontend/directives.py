"""OpenACC and OpenMP directives: what a ``#pragma`` line says about the loop after it."""

from __future__ import annotations

import re
from dataclasses import dataclass

_CLAUSE = re.compile(r"([A-Za-z_][A-Za-z_0-9]*)\s*(\((?:[^()]|\([^()]*\))*\))?")

# Words that start an OpenACC directive and may be followed by "loop".
_ACC_COMPUTE = ("parallel", "kernels", "serial")
# OpenMP constructs that make a loop parallel (worksharing or SIMD).
_OMP_LOOP_WORDS = {"for", "simd", "distribute", "loop", "taskloop"}
_OMP_REGION_WORDS = {"parallel", "target", "teams"}
# Directives inside a loop body that accsat must not rewrite around.
_BODY_BARRIERS = {"atomic", "critical", "ordered", "barrier", "flush", "master", "single",
                  "section", "sections", "task", "taskwait", "cache_unsupported"}


@dataclass(frozen=True)
class Directive:
    model: str  # "acc" | "omp" | "" (not ours)
    words: tuple[str, ...]  # the directive name words: ("parallel", "loop")
    clauses: dict[str, str]  # clause name -> argument text ("" when none)
    text: str

    @property
    def is_loop(self) -> bool:
        """Applies to the loop that follows and makes it parallel (not ``seq``)."""
        if self.model == "acc":
            return "loop" in self.words and "seq" not in self.clauses
        if self.model == "omp":
            return bool(_OMP_LOOP_WORDS & set(self.words))
        return False

    @property
    def is_region(self) -> bool:
        """Opens a compute region (``acc parallel``/``kernels``, ``omp parallel``/``target``)."""
        if self.model == "acc":
            return bool(self.words) and self.words[0] in _ACC_COMPUTE
        if self.model == "omp":
            return bool(_OMP_REGION_WORDS & set(self.words))
        return False

    @property
    def is_sequential_loop(self) -> bool:
        return self.model == "acc" and "loop" in self.words and "seq" in self.clauses

    @property
    def collapse(self) -> int:
        arg = self.clauses.get("collapse", "")
        m = re.match(r"\(\s*(\d+)\s*\)", arg)
        return int(m.group(1)) if m else 1

    @property
    def blocks_rewrite(self) -> bool:
        """A directive inside a body that accsat leaves alone, and so the body too."""
        return self.model in ("acc", "omp") and bool(_BODY_BARRIERS & set(self.words))


_ACC_NAMES = {
    "parallel", "kernels", "serial", "loop", "data", "enter", "exit", "host_data", "update",
    "wait", "declare", "routine", "atomic", "cache", "init", "shutdown", "set",
}
_OMP_NAMES = {
    "parallel", "for", "simd", "target", "teams", "distribute", "loop", "taskloop", "declare",
    "atomic", "critical", "ordered", "barrier", "flush", "master", "single", "section",
    "sections", "task", "taskwait", "data", "enter", "exit", "update", "end", "threadprivate",
    "masked", "scope", "tile", "unroll",
}


def parse(text: str) -> Directive:
    """Parse the text after ``#pragma`` (pycparser's ``Pragma.string``)."""
    text = " ".join(text.replace("\\\n", " ").split())
    head, _, rest = text.partition(" ")
    if head not in ("acc", "omp"):
        return Directive("", (), {}, text)
    names = _ACC_NAMES if head == "acc" else _OMP_NAMES
    words: list[str] = []
    clauses: dict[str, str] = {}
    for m in _CLAUSE.finditer(rest):
        name, arg = m.group(1), m.group(2) or ""
        if not clauses and not arg and name in names and name not in words:
            words.append(name)
        else:
            clauses[name] = arg
    return Directive(head, tuple(words), clauses, text)
