"""OpenACC and OpenMP directives: what a ``#pragma`` line says about the code after it.

The one table of directive names (OpenACC 3.3 chapter 2, OpenMP 5.2 chapters 5-17)
and what each kind does for accsat. Only compute constructs make kernels: a data
construct (``acc data``, ``omp target data``), a data movement (``update``,
``enter/exit data``), a standalone or a declarative directive leaves the code after
it as host code, never touched.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_CLAUSE = re.compile(r"([A-Za-z_][A-Za-z_0-9]*)\s*(\((?:[^()]|\([^()]*\))*\))?")

# What a directive does, as far as accsat cares.
COMPUTE = "compute"  # opens a compute region (its innermost loops may be kernels)
LOOP = "loop"  # applies to the loop after it and makes it parallel (worksharing, SIMD)
DATA = "data"  # a data region or data movement: the code it applies to stays host code
STANDALONE = "standalone"  # executable, applies to no statement (wait, barrier...)
DECLARATIVE = "declarative"  # declares something (declare, routine, threadprivate...)
SYNC = "sync"  # orders or serialises a body's statements: accsat leaves that body alone
HINT = "hint"  # a hint about a loop or body that a rewrite keeps valid (acc cache)
TRANSFORM = "transform"  # a loop transformation (omp tile/unroll): the loop stays sequential

# OpenACC 3.3: every directive name of C and C++ (combined constructs spelled out).
_ACC: dict[tuple[str, ...], frozenset[str]] = {
    ("parallel",): frozenset({COMPUTE}),
    ("kernels",): frozenset({COMPUTE}),
    ("serial",): frozenset({COMPUTE}),
    ("parallel", "loop"): frozenset({COMPUTE, LOOP}),
    ("kernels", "loop"): frozenset({COMPUTE, LOOP}),
    ("serial", "loop"): frozenset({COMPUTE, LOOP}),
    ("loop",): frozenset({LOOP}),
    ("data",): frozenset({DATA}),
    ("enter", "data"): frozenset({DATA}),
    ("exit", "data"): frozenset({DATA}),
    ("host_data",): frozenset({DATA}),
    ("update",): frozenset({DATA}),
    ("wait",): frozenset({STANDALONE}),
    ("init",): frozenset({STANDALONE}),
    ("shutdown",): frozenset({STANDALONE}),
    ("set",): frozenset({STANDALONE}),
    ("declare",): frozenset({DECLARATIVE}),
    ("routine",): frozenset({DECLARATIVE}),
    ("atomic",): frozenset({SYNC}),
    ("cache",): frozenset({HINT}),
}

# OpenMP 5.2: the leaf constructs, combined by ``_OMP_FOLLOWS`` ("target teams
# distribute parallel for simd"), and the names of more than one word that are not
# combinations (``target data`` is a data construct, not a ``target``).
_OMP_LEAVES: dict[str, frozenset[str]] = {
    "parallel": frozenset({COMPUTE}),
    "teams": frozenset({COMPUTE}),
    "target": frozenset({COMPUTE}),
    "for": frozenset({LOOP}),
    "simd": frozenset({LOOP}),
    "distribute": frozenset({LOOP}),
    "loop": frozenset({LOOP}),
    "taskloop": frozenset({LOOP}),
    "sections": frozenset({SYNC}),
    "section": frozenset({SYNC}),
    "single": frozenset({SYNC}),
    "masked": frozenset({SYNC}),
    "master": frozenset({SYNC}),
    "workshare": frozenset({SYNC}),
    "scope": frozenset({SYNC}),
    "task": frozenset({SYNC}),
    "taskgroup": frozenset({SYNC}),
    "critical": frozenset({SYNC}),
    "ordered": frozenset({SYNC}),
    "atomic": frozenset({SYNC}),
    "scan": frozenset({SYNC}),
    "barrier": frozenset({STANDALONE, SYNC}),
    "flush": frozenset({STANDALONE, SYNC}),
    "taskwait": frozenset({STANDALONE, SYNC}),
    "taskyield": frozenset({STANDALONE, SYNC}),
    "cancel": frozenset({STANDALONE, SYNC}),
    "depobj": frozenset({STANDALONE, SYNC}),
    "interop": frozenset({STANDALONE}),
    "error": frozenset({STANDALONE}),
    "nothing": frozenset({STANDALONE}),
    "dispatch": frozenset(),
    "assume": frozenset(),
    "metadirective": frozenset(),  # which construct it is depends on its context: none
    "tile": frozenset({TRANSFORM}),
    "unroll": frozenset({TRANSFORM}),
    "threadprivate": frozenset({DECLARATIVE}),
    "requires": frozenset({DECLARATIVE}),
    "allocate": frozenset({DECLARATIVE}),
    "assumes": frozenset({DECLARATIVE}),
}
_OMP_FOLLOWS: dict[str, frozenset[str]] = {
    "target": frozenset({"teams", "parallel", "simd", "loop"}),
    "teams": frozenset({"distribute", "loop"}),
    "distribute": frozenset({"simd", "parallel"}),
    "parallel": frozenset({"for", "loop", "sections", "masked", "master", "workshare"}),
    "for": frozenset({"simd"}),
    "masked": frozenset({"taskloop"}),
    "master": frozenset({"taskloop"}),
    "taskloop": frozenset({"simd"}),
}
_OMP_NAMES: dict[tuple[str, ...], frozenset[str]] = {
    ("target", "data"): frozenset({DATA}),
    ("target", "enter", "data"): frozenset({DATA}),
    ("target", "exit", "data"): frozenset({DATA}),
    ("target", "update"): frozenset({DATA}),
    ("cancellation", "point"): frozenset({STANDALONE, SYNC}),
    **{
        (*pre, "declare", what): frozenset({DECLARATIVE})
        for pre in ((), ("begin",), ("end",))
        for what in ("target", "variant", "simd", "reduction", "mapper", "induction")
    },
    ("declare",): frozenset({DECLARATIVE}),  # an unknown ``declare ...``: still declarative
    ("begin", "assumes"): frozenset({DECLARATIVE}),
    ("end", "assumes"): frozenset({DECLARATIVE}),
    ("begin", "metadirective"): frozenset(),
    ("end", "metadirective"): frozenset(),
}


@dataclass(frozen=True)
class Directive:
    model: str  # "acc" | "omp" | "" (not ours)
    words: tuple[str, ...]  # the directive name words: ("parallel", "loop")
    clauses: dict[str, str]  # clause name -> argument text ("" when none)
    text: str
    kinds: frozenset[str] = frozenset()  # what the directive does (COMPUTE, LOOP, DATA...)
    argument: str = ""  # the name's own argument: ``critical(lock)``, ``wait(1)``

    @property
    def is_loop(self) -> bool:
        """Applies to the loop that follows and makes it parallel (not ``seq``)."""
        return LOOP in self.kinds and not self.is_sequential_loop

    @property
    def is_region(self) -> bool:
        """Opens a compute region (``acc parallel``/``kernels``/``serial``, ``omp
        parallel``/``target``/``teams`` and their combinations; not ``target data``)."""
        return COMPUTE in self.kinds

    @property
    def is_sequential_loop(self) -> bool:
        """``acc ... loop seq``: a loop directive that keeps the loop sequential."""
        return self.model == "acc" and LOOP in self.kinds and "seq" in self.clauses

    @property
    def collapse(self) -> int:
        arg = self.clauses.get("collapse", "")
        m = re.match(r"\(\s*(\d+)\s*\)", arg)
        return int(m.group(1)) if m else 1

    @property
    def blocks_rewrite(self) -> bool:
        """A directive inside a body that accsat leaves alone, and so the body too (an
        atomic statement is kept in place instead: ``atomic_kind``)."""
        return SYNC in self.kinds and not self.atomic_kind and not self.is_critical

    @property
    def is_critical(self) -> bool:
        """``omp critical [(name)]``: its statement is kept as written, like an atomic one."""
        return self.words == ("critical",)

    @property
    def atomic_kind(self) -> str:
        """``update``, ``write``, ``read`` or ``capture`` for ``acc atomic`` / ``omp
        atomic`` (the statement after it is kept as written, ssa/statements.py); "" for
        any other directive, and for ``compare``, which branches."""
        if self.words != ("atomic",) or "compare" in self.clauses:
            return ""
        for kind in ("capture", "read", "write"):
            if kind in self.clauses:
                return kind
        return "update"


def may_make_kernels(text: str) -> bool:
    """Whether the directive (the text after ``#pragma``) may make a kernel: a compute
    construct or a loop directive.  A file whose directives all say no has none (data
    regions and updates only, as NPB's bt.c): accsat-cc need not load it."""
    return bool(parse(text).kinds & {COMPUTE, LOOP})


def parse(text: str) -> Directive:
    """Parse the text after ``#pragma`` (pycparser's ``Pragma.string``)."""
    text = " ".join(text.replace("\\\n", " ").split())
    head, _, rest = text.partition(" ")
    if head not in ("acc", "omp"):
        return Directive("", (), {}, text)
    items = [(m.group(1), m.group(2) or "") for m in _CLAUSE.finditer(rest)]
    n, kinds = _acc_name(items) if head == "acc" else _omp_name(items)
    words = tuple(name for name, _ in items[:n])
    argument = items[n - 1][1] if n else ""
    clauses: dict[str, str] = {}
    for name, arg in items[n:]:
        clauses[name] = arg
    return Directive(head, words, clauses, text, kinds, argument)


def _acc_name(items: list[tuple[str, str]]) -> tuple[int, frozenset[str]]:
    """How many of ``items`` spell the directive's name, and its kinds (longest name)."""
    for n in (2, 1):
        if len(items) >= n and all(not arg for _, arg in items[: n - 1]):
            kinds = _ACC.get(tuple(name for name, _ in items[:n]))
            if kinds is not None:
                return n, kinds
    return 0, frozenset()


def _omp_name(items: list[tuple[str, str]]) -> tuple[int, frozenset[str]]:
    for n in (4, 3, 2, 1):
        if len(items) >= n and all(not arg for _, arg in items[: n - 1]):
            kinds = _OMP_NAMES.get(tuple(name for name, _ in items[:n]))
            if kinds is not None:
                return n, kinds
    if not items or items[0][0] not in _OMP_LEAVES:
        return 0, frozenset()
    n, kinds = 1, _OMP_LEAVES[items[0][0]]
    while (
        n < len(items)
        and not items[n - 1][1]
        and items[n][0] in _OMP_FOLLOWS.get(items[n - 1][0], ())
        and not items[n][1]
    ):
        kinds |= _OMP_LEAVES[items[n][0]]
        n += 1
    return n, kinds
