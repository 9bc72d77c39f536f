"""Equality saturation in egglog, under the paper's limits.

egglog has no node or time limit of its own, so we run one iteration at a
time: ``(push)``, run every chosen ruleset once, fold constants, and if the
e-graph grew past the node limit, ``(pop)`` back to the last state within it.
The result is read out of egglog into plain data (``EGraph``).

Parsing the schema and compiling the rules cost ~15 ms a kernel, more than
saturating most of NPB's; so each process keeps one session per set of rules
with them loaded, and a kernel works on a ``(push)`` of it and ``(pop)``s it back
when read out: a pushed copy is the loaded e-graph itself, e-class ids included,
so the result is the one a fresh session gives.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import math
import os
import re
import struct
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from importlib import resources
from types import ModuleType

from ..frontend import cint
from ..frontend import ctypes as ct
from ..frontend.fold import fold, is_integer_op, literal_value, scalar
from ..frontend.literals import format_int
from ..ops import FOLDABLE, OPS, UNARY_FOLDABLE, UNTYPED, check_schema
from ..options import Limits
from ..ssa.terms import TermTable
from ..toolchain.process import resident_mb
from .gates import Gates, split, top_level_forms
from .graph import EGraph, ENode, reach
from .rules import RuleSet, egglog_text


def _egglog_core() -> ModuleType:
    """egglog's compiled core (``egglog.bindings``) without the package's ``__init__``,
    which imports its Python API (black, numpy...: 0.3 s at every start) we never use.
    The usual import where the extension cannot be found alone."""
    name = "egglog.bindings"
    if name in sys.modules:
        return sys.modules[name]
    package = importlib.util.find_spec("egglog")
    for folder in (package.submodule_search_locations or []) if package else []:
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = os.path.join(folder, "bindings" + suffix)
            if os.path.isfile(path):
                loader = importlib.machinery.ExtensionFileLoader(name, path)
                spec = importlib.util.spec_from_file_location(name, path, loader=loader)
                if spec is None:
                    break
                module = importlib.util.module_from_spec(spec)
                sys.modules[name] = module
                loader.exec_module(module)
                return module
    return importlib.import_module(name)


egglog = _egglog_core()

# The operation table must describe the schema egglog is given.
check_schema(resources.files("accsat.egraph").joinpath("schema.egg").read_text())
TERM_CONSTRUCTORS = frozenset(OPS)


def fold_candidate_rules() -> str:
    """egglog rules that mark operations on constants, so that the (costly)
    folding pass in Python runs only in iterations that made new ones."""
    columns = " ".join(["String"] * len(FOLD_ROW))
    out = [f"(relation {FOLD_ME} ({columns}))", f"(ruleset {FOLD_CANDIDATES})"]
    for op in sorted(FOLDABLE):
        unary = op in UNARY_FOLDABLE
        args = "(Const t1 a)" if unary else "(Const t1 a) (Const t2 b)"
        row = f'"{op}" t t1 a ' + ('"" ""' if unary else "t2 b")
        out.append(f"(rule ((= e ({op} t {args}))) (({FOLD_ME} {row})) :ruleset {FOLD_CANDIDATES})")
    return "\n".join(out)


FOLD_ME = "FoldMe"  # the relation of operations on constants, by their strings:
FOLD_ROW = ("op", "type", "type1", "literal1", "type2", "literal2")  # ("" "": unary)
FOLD_CANDIDATES = "fold-candidates"  # the ruleset marking them
PRINT_SIZE = "(print-size)"
# rows asked of a printed relation: far more than an e-graph within the node limit holds
PRINT_ROWS = 1_000_000


WIDTHS = "widths"  # the ruleset computing SumWidth and ProdWidth (schema.egg)
# How many terms an operation adds to a sum (multiplies into a product), from its
# operands' widths (w0, w1: of its first and second operand); any other operation is
# one term. a - b adds the terms of both; Fma(a, b, c) = a + b * c those of a and one.
_WIDTH_OF = {
    "SumWidth": {"Add": "(+ w0 w1)", "Sub": "(+ w0 w1)", "Fma": "(+ w0 1)", "Neg": "w0"},
    "ProdWidth": {"Mul": "(+ w0 w1)", "Neg": "w0"},
}


# operations whose value is no operand of a float or unsigned sum or product (lists, int
# comparisons and logic, addresses and pointer differences): no width, no rule (a rule
# costs every iteration something; under assoc-signed such a sum is not regrouped)
_NO_WIDTH = frozenset(
    name
    for name, op in OPS.items()
    if op.kind in ("list", "comparison", "logic") or name in ("Sym", "AddrOf", "PtrAdd", "PtrDiff")
)


def width_rules() -> str:
    """egglog rules giving every term its SumWidth and ProdWidth (schema.egg), the
    fewest terms any of its forms adds (multiplies): one rule per operation, setting
    both. They run to saturation after the ``first`` rulesets before each iteration
    (they only fall, to the smallest)."""
    out = [f"(ruleset {WIDTHS})"]
    for name, op in OPS.items():
        if name in _NO_WIDTH:
            continue
        args = " ".join(f"s{i}" for i in range(1 + op.attrs)) + "".join(
            f" a{i}" for i in range(op.arity)
        )
        values = {width: combine.get(name, "1") for width, combine in _WIDTH_OF.items()}
        read = sorted({i for v in values.values() for i in (0, 1) if f"w{i}" in v})
        query = " ".join(
            [f"(= e ({name} {args}))"]
            + [
                f"(= w{i}{width[0]} ({width} a{i}))"
                for width in values
                for i in read
                if f"w{i}" in values[width]
            ]
        )
        sets = " ".join(
            f"(set ({width} e) {value.replace('w0', 'w0' + width[0]).replace('w1', 'w1' + width[0])})"
            for width, value in values.items()
        )
        out.append(f"(rule ({query}) ({sets}) :ruleset {WIDTHS})")
    return "\n".join(out)


@dataclass
class Saturation:
    egraph: EGraph
    class_of: dict[int, int]  # term id -> e-class id
    iterations: int
    # "saturated" | "iteration-limit" | "node-limit" | "memory-limit" | "time-limit" | "no-rules"
    stop_reason: str
    nodes: int
    classes: int
    seconds: float


def schema_text() -> str:
    return resources.files("accsat.egraph").joinpath("schema.egg").read_text()


def quote(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def term_text(terms: TermTable, tid: int) -> str:
    """The egglog expression of one term, its arguments by their let names."""
    t = terms[tid]
    parts = [t.op]
    if t.op not in UNTYPED:
        parts.append(quote(t.ty))
    parts += [quote(a) for a in t.attrs]
    parts += [f"$t{a}" for a in t.args]
    return "(" + " ".join(parts) + ")"


# Commands per egglog program where we send many (facts, unions): egglog 13.0's time
# and memory for one program grow with the square of its commands (730 AssocTo facts:
# 0.86 s and 450 MB in one program, 0.14 s in programs of 100, on issue 35's kernel).
FACT_CHUNK = 100
TERM_ID = "TermId"  # the relation naming each term we put in by its id
LOAD_CHUNK = 64  # terms per loading rule


def load_terms(terms: TermTable, ids: list[int], facts: Sequence[str] = ()) -> list[str]:
    """The egglog programs, to run one after the other, that add the terms ``ids``
    (arguments first), a (TermId id term) row for each one a later program reads, and
    the ``facts`` (rows of relations on strings: those of the kernel's types and
    constants) with the first chunk's (a command of their own costs a rule's
    compilation too: 0.6 ms a kernel). The classes of the terms are read from the
    e-graph in the end (``classes_of_terms``): a row for each term was 0.1 s of the
    100 kernels of benchmarks/extract_families.py.

    Not one ``(let $tN ...)`` a term: each is a global of its own, and egglog's time
    per command grows with their number (a 1,000-term kernel took 0.5 s).  Instead
    a rule a chunk of terms, run once, its actions adding them in the same order (so
    the e-class ids are the ones the lets gave), the arguments from earlier chunks
    found through TermId in its query.  A program a chunk, not one for all: with the
    chunks of NPB's BT x_solve.c:720 as one program, egglog 13.0 grew the process to
    1.38 GB (each page faulted in by a fresh process: the saturation took 0.68 s);
    one by one, 175 MB and 0.17 s.  Each rule is named: egglog keeps its statistics per
    rule name across (pop)s and copies them at every (push), and a rule is named by its
    text by default, a new name per kernel (after 80 small kernels, a (push) and (pop)
    took twice the time they take in a fresh session)."""
    chunks = [ids[k : k + LOAD_CHUNK] for k in range(0, len(ids), LOAD_CHUNK)]
    earlier = [sorted(set(_arguments(terms, chunk)) - set(chunk)) for chunk in chunks]
    named = set().union(*earlier)  # (a TermId row only where a later chunk looks it up)
    out = []
    for n, (chunk, looked_up) in enumerate(zip(chunks, earlier, strict=True)):
        k = n * LOAD_CHUNK
        query = " ".join(f"({TERM_ID} {a} $t{a})" for a in looked_up)
        actions = " ".join(
            [
                f"(let $t{t} {term_text(terms, t)})"
                + (f" ({TERM_ID} {t} $t{t})" if t in named else "")
                for t in chunk
            ]
            + list(facts if k == 0 else ())
        )
        out.append(
            f"(ruleset load-{k})\n(rule ({query}) ({actions}) :ruleset load-{k} :name"
            f' "load-{k}")\n{once(f"load-{k}")}'
        )
    declare = f"(relation {TERM_ID} (i64 Term))"  # (in the first program)
    return [declare + "\n" + out[0], *out[1:]] if out else [declare]


def _arguments(terms: TermTable, ids: list[int]) -> Iterator[int]:
    for t in ids:
        yield from terms[t].args


def once(ruleset: str) -> str:
    """Run ``ruleset`` once.  Not egglog's ``(run r 1)``: its statistics stay in the
    session across (pop)s and each (push) copies them, so that after 200 small kernels
    a (push) and (pop) took 1.8 ms against 1.3 in a fresh session; a schedule's do not."""
    return f"(run-schedule (run {ruleset}))"


def reachable(terms: TermTable, roots: list[int]) -> list[int]:
    """Terms reachable from ``roots`` through their arguments, arguments first
    (they always have smaller ids than their users)."""
    return sorted(reach(roots, lambda tid: terms[tid].args))


def const_facts(ty: str, text: str) -> list[str]:
    """Facts that name a constant's value when it is a one or a zero
    (rules/identities.egg matches on them, whatever the literal's spelling)."""
    t = scalar(ty)
    value = None if t is None else literal_value(text, t)
    if t is None or value is None:
        return []
    args = f"{quote(ty)} {quote(text)}"
    if ct.is_integer(t):
        name = {1: "IntOne", 0: "IntZero"}.get(int(value))
        return [f"({name} {args})"] if name else []
    if ct.is_float(t) and t.name != "long double":
        if value == 1.0:
            return [f"(FloatOne {args})"]
        if value == 0.0 and math.copysign(1.0, value) > 0:
            return [f"(FloatPosZero {args})"]
    return []


def zero_fact(ty: str) -> str | None:
    """The (ZeroOf ty base literal) fact of an integer operation type (``int@k3``)."""
    base = ty.split("@", 1)[0]
    t = scalar(base)
    if t is None or not ct.is_integer(t) or ct.promote(t) != t:
        return None
    return f"(ZeroOf {quote(ty)} {quote(base)} {quote(format_int(0, t))})"


def type_facts(types: set[str]) -> list[str]:
    facts = []
    for ty in sorted(types):
        base = ty.split("@", 1)[0]
        try:
            t = ct.from_name(base)
        except ValueError:
            continue
        if ct.is_float(t):
            facts.append(f"(FloatTy {quote(ty)})")
        elif ct.is_integer(t):
            facts.append(f"(IntTy {quote(ty)})")
            facts.append(f"({'SIntTy' if ct.is_signed(t) else 'UIntTy'} {quote(ty)})")
            zero = zero_fact(ty)
            if zero is not None:
                facts.append(zero)
    return facts


class _Session:
    """One egglog e-graph and the helpers to talk to it.

    egglog is pinned to 13.0.0: 13.1 and 13.2 can store a wrong argument in
    a constructor's row when many terms share arguments (seen here on NPB's BT;
    tests/test_egglog_sanity.py checks for it). 13.0 has no ``freeze``, so the
    e-graph is read through ``serialize`` (egraph-serialize JSON).
    """

    def __init__(self) -> None:
        self.eg = egglog.EGraph()
        self.depth = 0  # (push)es not (pop)ped yet
        self.widths = False  # a rule reads the widths (width_rules loaded)
        self.cancel = False  # the assoc-cancel ruleset is loaded
        self.gates: Gates | None = None  # each rule in a ruleset of its own (gates.py)

    def iteration(
        self, rules: bool, cancelling: bool, folds: bool, present: frozenset[str] | None
    ) -> tuple[list[str], list[str], list[str]]:
        """(declarations, runs, marks) of an iteration: the runs of its rules (``rules``)
        and those that mark operations on constants after them (``folds``), and the
        rulesets they need declared first; ``present``: the tables with rows as it
        starts (None: unknown).

        First the ``first`` rulesets to saturation (assoc-cancel with them once constants
        folded or combined: only then can they cancel), then, where a rule reads them,
        the widths, apart (their passes would run the first rules again); then the
        others once.  With ``present`` known, each runs only those of its rules that can
        match then (gates.py)."""
        first = [FIRST, *([ASSOC_CANCEL] if cancelling and self.cancel else [])]
        widths = [WIDTHS] if self.widths else []
        gates = self.gates if present is not None else None
        tables = present or frozenset()
        declare: list[str] = []

        def named(ruleset: str) -> str | None:
            if gates is None:
                return ruleset
            name, declaration = gates.name(ruleset, tables, self.depth)
            declare.extend([declaration] if declaration else [])
            return name

        runs = []
        if rules:
            if gates is not None:  # what the first stage may add
                tables = gates.reach([*first, *widths], tables)
            ones = " ".join(f"(run {n})" for r in first if (n := named(r)))
            stage = [f"(saturate {ones})"] if ones else []
            stage += [f"(saturate (run {n}))" for r in widths if (n := named(r))]
            runs += [f"(run-schedule {' '.join(stage)})"] if stage else []
            selected = named(SELECTED)
            runs += [once(selected)] if selected else []
            if gates is not None:
                tables = gates.after(SELECTED, tables)
        marking = named(FOLD_CANDIDATES) if folds else None
        return declare, runs, [once(marking)] if marking else []

    def run(self, text: str):
        out = self.eg.run_program(*self.eg.parse_program(text))
        if text == "(push)":
            self.depth += 1
        elif text.startswith("(pop"):
            self.depth -= int(text[4:-1] or 1)
            if self.gates is not None:
                self.gates.popped(self.depth)
        return out

    def run_each(self, commands: list[str]) -> None:
        """Run ``commands`` (facts, unions) in programs of FACT_CHUNK commands."""
        for k in range(0, len(commands), FACT_CHUNK):
            self.run("\n".join(commands[k : k + FACT_CHUNK]))

    def dump(self) -> dict:
        serialized = self.eg.serialize([])
        if serialized.truncated_functions or serialized.discarded_functions:
            raise RuntimeError("egglog truncated the serialized e-graph")
        return json.loads(serialized.to_json())

    def rows(self, dump: dict | None = None, subsumed: bool = True):
        """(op, strings, children classes, class) for every Term e-node
        (without the subsumed ones unless asked)."""
        dump = dump or self.dump()
        nodes = dump["nodes"]
        text: dict[str, str] = {}  # primitive node id -> string value
        for node in nodes.values():
            eclass = node["eclass"]
            if not eclass.startswith("Term-") or (node.get("subsumed") and not subsumed):
                continue
            strings, kids = [], []
            for child in node["children"]:
                c = nodes[child]
                if c["eclass"].startswith("String-"):
                    value = text.get(child)
                    if value is None:
                        value = text[child] = unquote(c["op"])
                    strings.append(value)
                else:
                    kids.append(_cls(c["eclass"]))
            yield node["op"], strings, kids, _cls(eclass)

    def sizes(self) -> dict[str, int]:
        return dict(self.run(PRINT_SIZE)[0].sizes)

    def node_count(self, sizes: dict[str, int] | None = None) -> int:
        sizes = self.sizes() if sizes is None else sizes
        return sum(n for name, n in sizes.items() if name in TERM_CONSTRUCTORS)


def _cls(eclass: str) -> int:
    return int(eclass.rsplit("-", 1)[1])  # "Term-12"


_ESCAPES = {"\\": "\\", '"': '"', "'": "'", "n": "\n", "t": "\t", "r": "\r", "0": "\0"}


def unquote(text: str) -> str:
    """A string as egglog prints it (Rust's escaped form, in quotes) back to its value."""
    body = text[1:-1] if len(text) >= 2 and text[0] == text[-1] == '"' else text
    out, i = [], 0
    while i < len(body):
        c = body[i]
        if c != "\\" or i + 1 == len(body):
            out.append(c)
            i += 1
            continue
        nxt = body[i + 1]
        if nxt == "u" and body.startswith("{", i + 2):
            end = body.index("}", i)
            out.append(chr(int(body[i + 3 : end], 16)))
            i = end + 1
            continue
        out.append(_ESCAPES.get(nxt, nxt))
        i += 2
    return "".join(out)


def folding_of(rulesets: list[RuleSet]) -> str | None:
    """Which operations the builtin folding runs on: "all", "int" (integer
    operations only: the variants without rules) or None."""
    builtins = {r.builtin for r in rulesets}
    if "constant-folding" in builtins:
        return "all"
    return "int" if "constant-folding-int" in builtins else None


# (rule files' text, rulesets run, folding) -> the session with them loaded
LoadedKey = tuple[str, tuple[tuple[str, bool], ...], str | None]  # rules, (name, first), folding
_LOADED: dict[LoadedKey, _Session] = {}


def _loaded(rules: list[RuleSet], folding: str | None) -> tuple[LoadedKey, _Session]:
    """This process's session with the schema and these rules loaded (made on first use),
    and its key."""
    text = egglog_text(rules) if rules else ""
    key = (text, tuple((r.name, r.first) for r in rules), folding)
    if key not in _LOADED:
        s = _Session()
        schema = schema_text()
        s.run(schema)
        s.widths = "Width" in text  # a rule reads the widths: computed after the first
        s.cancel = any(r.name == ASSOC_CANCEL for r in rules)
        parts = [text, width_rules() if s.widths else "", fold_candidate_rules() if folding else ""]
        loaded = "\n".join(p for p in parts if p)
        gated = split(egglog, loaded, schema) if loaded else None
        # a command a program even ungated (gates.split: egglog's parse of a long one)
        programs = (top_level_forms(loaded) or [loaded]) if loaded else []
        if gated is not None:
            programs, s.gates = gated
        for program in programs:
            s.run(program)
        if rules:  # the ``first`` rulesets run to saturation before each run of the others
            for name, part in (
                (FIRST, [r.name for r in rules if r.first and r.name != ASSOC_CANCEL]),
                (SELECTED, [r.name for r in rules if not r.first]),
            ):
                names = " ".join(part)
                s.run(
                    f"(unstable-combined-ruleset {name} {names})" if names else f"(ruleset {name})"
                )
                if s.gates is not None and not s.gates.combine(name, part):
                    s.gates = None
        _LOADED[key] = s
    return key, _LOADED[key]


def warm(rulesets: list[RuleSet]) -> None:
    """Load the session of these rules now (some 30 ms), before the first kernel asks."""
    _loaded([r for r in rulesets if r.file is not None], folding_of(rulesets))


def saturate(
    terms: TermTable, roots: list[int], rulesets: list[RuleSet], limits: Limits = Limits()
) -> Saturation:
    start = time.perf_counter()
    rules = [r for r in rulesets if r.file is not None]
    folding = folding_of(rulesets)
    key, s = _loaded(rules, folding)
    try:
        sat = _saturate(s, terms, roots, rules, folding, limits, start)
        s.run(f"(pop {s.depth})")  # the loaded state again
        return sat
    except BaseException:  # never reuse a session in an unknown state
        _LOADED.pop(key, None)
        raise


def _saturate(
    s: _Session,
    terms: TermTable,
    roots: list[int],
    rules: list[RuleSet],
    folding: str | None,
    limits: Limits,
    start: float,
) -> Saturation:
    ids = reachable(terms, roots)
    iterations, reason = 0, "no-rules"
    replay, replay_reason = None, "node-limit"
    while True:
        s.run("(push)")  # the kernel's own start: a replay comes back here
        _load(s, terms, ids)
        if not (rules or folding):
            break
        assoc: set[tuple[str, ...]] | None = (
            set() if any(r.name == ASSOC_CONST for r in rules) else None
        )
        try:
            iterations, reason = _iterate(
                s, bool(rules), folding, limits, start, assoc, replay, replay_reason
            )
            break
        except _Replay as again:
            s.run(f"(pop {s.depth})")
            replay, replay_reason = again.iterations, again.reason
    graph, class_of_node = EGraph(), {}
    for op, strings, kids, cls in s.rows():
        ty, attrs = ("", tuple(strings)) if op in UNTYPED else (strings[0], tuple(strings[1:]))
        node = ENode(op, ty, attrs, tuple(kids))
        graph.add(cls, node)
        class_of_node[node] = cls
    class_of = classes_of_terms(terms, ids, class_of_node)
    return Saturation(
        graph,
        class_of,
        iterations,
        reason,
        graph.node_count,
        len(graph.classes),
        time.perf_counter() - start,
    )


def _load(s: _Session, terms: TermTable, ids: list[int]) -> None:
    facts = type_facts({terms[t].ty for t in ids if terms[t].ty}) + [
        f
        for t in ids
        if terms[t].op == "Const"
        for f in const_facts(terms[t].ty, terms[t].attrs[0])
    ]
    for program in load_terms(terms, ids, facts):
        s.run(program)


class InconsistentEGraph(RuntimeError):
    """egglog's e-graph lost a term we put in: never extract from it."""


def classes_of_terms(
    terms: TermTable, ids: list[int], class_of_node: dict[ENode, int]
) -> dict[int, int]:
    """Term id -> e-class of each term we added (arguments first): the class of its
    e-node, its arguments' classes as children. Every term must still be one
    (saturation only ever adds nodes and merges classes; an e-node is in one class)."""
    out: dict[int, int] = {}
    for tid in ids:
        t = terms[tid]
        cls = class_of_node.get(ENode(t.op, t.ty, t.attrs, tuple(out.get(a, -1) for a in t.args)))
        if cls is None:
            raise InconsistentEGraph(f"egglog lost term {t.op} (id {tid})")
        out[tid] = cls
    return out


# An iteration grows the e-graph this many times over at most, as far as a snapshot is
# concerned: below limits.nodes / GROWTH nodes no (push) is made before it (a snapshot
# costs a copy of the e-graph, and each one left on the stack makes the kernel's final
# (pop) dearer: 40 % of saturation's time on 100 small kernels). One that grows more
# anyway is replayed (``_Replay``).
GROWTH = 16


class _Replay(Exception):
    """An iteration without a snapshot crossed the node or memory limit (``reason``):
    start again and stop after the ``iterations`` before it (egglog runs are
    deterministic)."""

    def __init__(self, iterations: int, reason: str):
        self.iterations, self.reason = iterations, reason


class _Budget:
    """The time and memory one kernel's saturation may take (Limits.seconds, .memory):
    memory is the process's growth since the kernel began. Looked at once an iteration
    (``look``): egglog's size and the process's memory each cost a call."""

    def __init__(self, limits: Limits, start: float):
        self.limits, self.start, self.base = limits, start, resident_mb()
        self.nodes, self.grown = 0, 0.0
        self.sizes: dict[str, int] = {}  # egglog's tables' sizes, last looked at

    def look(self, s: _Session, sizes: dict[str, int] | None = None) -> None:
        """``sizes``: egglog's table sizes, where the caller has them as they are now."""
        self.sizes = s.sizes() if sizes is None else sizes
        self.nodes, self.grown = s.node_count(self.sizes), resident_mb() - self.base

    def over(self) -> str | None:
        """Which limit the e-graph was past when last looked at, if any."""
        if self.nodes > self.limits.nodes:
            return "node-limit"
        if self.grown > self.limits.memory:
            return "memory-limit"
        return None

    def near(self) -> bool:
        """Whether an iteration may cross a limit (then it is made on a snapshot)."""
        return self.nodes * GROWTH > self.limits.nodes or self.grown * GROWTH > self.limits.memory


def _iterate(
    s: _Session,
    rules: bool,
    folding: str | None,
    limits: Limits,
    start: float,
    assoc: set[tuple[str, ...]] | None = None,
    replay: int | None = None,
    replay_reason: str = "node-limit",
) -> tuple[int, str]:
    """``assoc``: the WantAssoc candidates answered so far, None without assoc-const;
    ``replay``: run exactly this many iterations (no limit is checked), then stop for
    ``replay_reason``."""
    budget = _Budget(limits, start)
    budget.look(s)
    # the source's own constant expressions are folded (and subsumed) before any
    # rule runs, so that no rule builds on them (FMA of 2.0 * 3.0 instead of 6.0)
    folds = _Folding(folding) if folding else None
    cancelling = folds.new(s) if folds else False
    # the tables' sizes as the next iteration starts (None: rows were added since they
    # were printed), which tell the rules that cannot match yet (gates.py)
    fresh = None if folds else budget.sizes
    iterations = 0
    while iterations < (limits.iterations if replay is None else replay):
        if replay is None and time.perf_counter() - start > limits.seconds:
            return iterations, "time-limit"
        snapshot = replay is None and budget.near()
        if snapshot:
            s.run("(push)")
        if fresh is None and s.gates is not None:
            fresh = s.sizes()
        present = None if fresh is None else frozenset(t for t, n in fresh.items() if n > 0)
        # the iteration's rules, what it asks for and the tables' sizes: one program
        # (a call into egglog costs some 40 us, and an iteration of a small kernel 1 ms)
        declare, runs, marks = s.iteration(bool(rules), cancelling, folds is not None, present)
        asks = assoc if rules else None  # (the WantAssoc rows printed, then answered)
        program = [*declare, *runs, *([WANT_ASSOC] if asks is not None else []), *marks]
        out = s.run("\n".join([*program, PRINT_SIZE]))
        sizes = dict(out[-1].sizes)
        changed = any(o.report.updated for o in out[: len(runs)])
        answered = asks is not None and answer_assoc(s, asks, out[len(runs)]) > 0
        if answered:
            changed = cancelling = True
        folded = folds is not None and folds.new(s, sizes.get(FOLD_ME, 0))
        changed, cancelling = changed or folded, cancelling or folded
        if folded:  # (folding added constants)
            sizes = s.sizes()
        fresh = None if answered else sizes  # (AssocTo rows added)
        if replay is None:
            budget.look(s, sizes)
        over = budget.over() if replay is None else None
        if over:
            if not snapshot:
                raise _Replay(iterations, over)
            s.run("(pop)")
            return iterations, over
        iterations += 1
        if not changed:
            return iterations, "saturated"
    return iterations, "iteration-limit" if replay is None else replay_reason


FIRST = "accsat-first"  # the rulesets marked ``first`` in the manifest, combined
SELECTED = "accsat-selected"  # the other rulesets, combined
ASSOC_CONST = "assoc-const"  # the ruleset whose constants accsat combines (AssocTo facts)
ASSOC_CANCEL = "assoc-cancel"  # constants that cancel (first, once constants changed)
_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')


WANT_ASSOC = f"(print-function WantAssoc {PRINT_ROWS})"


def answer_assoc(s: _Session, answered: set[tuple[str, ...]], printed: object | None = None) -> int:
    """Assert (AssocTo ...) for every new (WantAssoc ...) whose combined constant
    has a value of its type; how many were new. ``printed``: egglog's output of
    WANT_ASSOC, where the caller ran it."""
    printed = s.run(WANT_ASSOC)[0] if printed is None else printed
    facts = []
    for line in str(printed).splitlines():
        args = tuple(unquote(f'"{m}"') for m in _QUOTED.findall(line))
        if len(args) != 5 or args in answered:
            continue
        answered.add(args)
        result = combine(*args)
        if result is not None:
            rop, k = result
            facts.append(f"(AssocTo {' '.join(quote(a) for a in args)} {quote(rop)} {quote(k)})")
            facts += const_facts(args[2], k) if rop != CANCEL else []
    s.run_each(facts)
    return len(facts)


CANCEL = "Id"  # combine's answer where the constants cancel: the sum is x itself


def combine(outer: str, inner: str, ty: str, k1: str, k2: str) -> tuple[str, str] | None:
    """(op, literal) such that ``(x inner k1) outer k2`` is ``x op literal``, (CANCEL, "")
    where it is x itself (rules/identities.egg, assoc-cancel), or None when the combined
    constant has no value of type ``ty`` (it would overflow)."""
    t = scalar(ty)
    if t is None or not ct.is_integer(t) or ct.promote(t) != t:
        return None
    v1, v2 = literal_value(k1, t), literal_value(k2, t)
    if not isinstance(v1, int) or not isinstance(v2, int):
        return None
    if outer == "Mul":
        total, op = v1 * v2, "Mul"
    else:
        total = (-v1 if inner == "Sub" else v1) + (-v2 if outer == "Sub" else v2)
        op = "Add"
        wraps = ct.is_unsigned(t)
        shorter = cint.wrap(-total, t) < cint.wrap(total, t) if wraps else total < 0
        if shorter:  # x - 1, not x + -1 (or x + 4294967295u)
            total, op = -total, "Sub"
    # the combined constant must be a value of the type (C's arithmetic: cint), and
    # under -fwrapv no wrapped one either: the original never computed it
    value = cint.wrap(total, t) if ct.is_unsigned(t) else total
    if not cint.fits(value, t):
        return None
    if value == (1 if op == "Mul" else 0):
        return CANCEL, ""
    return op, format_int(value, t)


@dataclass
class _Folding:
    """One kernel's constant folding: at which ``level`` (folding_of), the FOLD_ME rows
    seen so far and how many."""

    level: str
    seen: set[tuple[str, ...]] = field(default_factory=set)
    marked: int = 0

    def new(self, s: _Session, marked: int | None = None) -> bool:
        """Fold when FOLD_CANDIDATES marked new operations on constants (``marked``:
        FOLD_ME's size after it ran, where the caller ran it); whether any folded."""
        if marked is None:
            s.run(once(FOLD_CANDIDATES))
            marked = s.sizes().get(FOLD_ME, 0)
        if marked <= self.marked:
            return False
        self.marked = marked
        return fold_constants(s, self.level, self.seen) > 0


def _absorbs(op: str, value: str, ty: str, operands: list[tuple[str, str]]) -> bool:
    """A product with a zero (``c * 0.0``): its result is that zero, whose class would
    then hold a product of itself with every constant multiplied by it, and on that hub
    assoc and folding make a new constant every iteration (2^a * 3^b * 0.0 ...:
    tests/fuzz/regressions/saturation_memory_zero_product_chain.c took 24 GB). Such a
    fold is not made; the product stays as written and the compiler folds it. An
    identity (``c + 0``, ``c * 1``) lands in c's own class, no hub: it folds, as does
    ``2 - 1``."""
    t = scalar(ty)
    if t is None or op != "Mul" or len(operands) != 2:
        return False
    result = literal_value(value, t)
    if result is None or result != 0:
        return False
    for text, oty in operands:
        v = literal_value(text, t) if scalar(oty) == t else None
        if v is not None and v == 0 and _bits(v) == _bits(result):
            return True
    return False


def _bits(x: int | float) -> bytes:
    return struct.pack("<d", float(x))


def fold_constants(
    s: _Session, level: str = "all", seen: set[tuple[str, ...]] | None = None
) -> int:
    """Union every foldable operation on constants with its value, and subsume
    the operation; how many unions and subsumptions were new. ``seen``: the
    operations (FOLD_ME rows) folded, or found not to fold, before.

    Subsuming (egglog keeps the node, but no rule matches it any more) is what
    egg's constant-folding analysis does by pruning: without it a fold such as
    1.5 * 0.0 = 0.0 leaves a class that contains a product of itself, and
    comm + assoc + folding on that cycle make a new constant product every
    iteration, egglog's memory growing ~6x an iteration while the node count
    stays small (tests/fuzz/regressions/saturation_memory_blowup.c)."""
    seen = set() if seen is None else seen
    printed = s.run(f"(print-function {FOLD_ME} {PRINT_ROWS})")[0]
    unions = []
    for line in str(printed).splitlines():
        row = tuple(unquote(f'"{m}"') for m in _QUOTED.findall(line))
        if len(row) != len(FOLD_ROW) or row in seen:
            continue
        seen.add(row)
        op, ty, *consts = row
        kids = [(consts[k], consts[k + 1]) for k in range(0, len(consts), 2) if consts[k]]
        base = ty.split("@", 1)[0]
        operands = [(text, cty.split("@", 1)[0]) for cty, text in kids]
        if level == "int" and not is_integer_op(ty, [t for _, t in operands]):
            continue
        value = fold(op, base, operands)
        if value is None or _absorbs(op, value, base, operands):
            continue
        args = " ".join(f"(Const {quote(cty)} {quote(text)})" for cty, text in kids)
        node = f"({op} {quote(ty)} {args})"
        # (where its class holds the value already, it changes nothing; in another
        # spelling, that one joins it: equal constants, the one written preferred)
        unions.append(f"(union {node} (Const {quote(base)} {quote(value)}))")
        unions += const_facts(base, value)
        unions.append(f"(subsume {node})")
    s.run_each(unions)
    return len(unions)
