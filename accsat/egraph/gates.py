"""Rules that cannot match are not run.

A rule's query is a conjunction of rows of egglog's tables (the term constructors,
the relations, the functions): while one of those tables is empty the rule matches
nothing.  egglog still spends 10-20 us on every rule at every run (a three-way join of
assoc-const 19 us), which on a small kernel is most of an iteration: on the kernels of
benchmarks/extract_families.py an iteration's program took 1.12 ms with every rule and
0.71 ms with only those whose tables had rows.

So each rule is loaded in a ruleset of its own (``NAME~k``: the k-th rule of NAME,
which becomes their combination, the same rules in the same order), and a run is made
of the rules whose tables may hold rows when it starts (``Gates.runnable``).  The
e-graph is the one the whole rulesets give: the others would have matched nothing,
and the rest run together, in their order, as before.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from types import ModuleType

# egglog's parsed forms whose parts name tables (Call: a term or a lookup; Set: a
# function's row; Change: a subsumed or deleted row), and the parts that hold more
_PARTS = {
    "Call": ("args",),
    "Eq": ("left", "right"),
    "Fact": ("expr",),
    "Set": ("args", "rhs"),
    "Change": ("args",),
    "Union": ("lhs", "rhs"),
    "Let": ("rhs",),
    "Expr_": ("expr",),
    "Var": (),
    "Lit": (),
    "Panic": (),
}
_NAMED = {"Call": "name", "Set": "lhs", "Change": "sym"}
EVERY_TABLE = frozenset({"*"})  # what a form this module does not know may write


@dataclass(frozen=True)
class GatedRule:
    """A rule as the gates see it: which tables it reads and which it may fill."""

    ruleset: str  # the ruleset it was declared in
    own: str  # the ruleset of its own it is loaded in
    needs: frozenset[str]  # the tables its query reads: it matches nothing while one is empty
    writes: frozenset[str]  # the tables its actions may add rows to (EVERY_TABLE: unknown)


@dataclass
class Gates:
    """Every rule of the loaded text by ruleset, and the table names (to tell a table
    from a primitive such as ``!=``)."""

    tables: frozenset[str]
    members: dict[str, list[GatedRule]]  # ruleset -> its rules, in their order
    declared: frozenset[str]  # the rulesets the text declares (with rules or none)
    combined: dict[str, list[str]] = field(default_factory=dict)  # of the rulesets given
    # the combinations declared, by their rules: (name, the depth of (push)es it was made at)
    _names: dict[tuple[str, ...], tuple[str, int]] = field(default_factory=dict)
    _made: int = 0

    def combine(self, name: str, parts: list[str]) -> bool:
        """Record ``name``, declared as the combination of ``parts``; False for a part
        the text does not declare, whose rules the gates do not know (no gating then)."""
        if not set(parts) <= self.declared:
            return False
        self.combined[name] = parts
        return True

    def rules(self, ruleset: str) -> list[GatedRule]:
        """The rules of ``ruleset``, a combination's in the order it runs them."""
        if ruleset in self.combined:
            return [r for part in self.combined[ruleset] for r in self.rules(part)]
        return self.members.get(ruleset, [])

    def can_match(self, rule: GatedRule, present: frozenset[str] | set[str]) -> bool:
        return all(t in present for t in rule.needs if t in self.tables)

    def runnable(self, ruleset: str, present: frozenset[str] | set[str]) -> list[GatedRule]:
        return [r for r in self.rules(ruleset) if self.can_match(r, present)]

    def reach(self, rulesets: Sequence[str], present: Iterable[str]) -> frozenset[str]:
        """The tables that may hold rows while ``rulesets`` run to saturation from a
        state where ``present`` do: those and whatever a rule that can match writes."""
        have = set(present)
        rules = [r for name in rulesets for r in self.rules(name)]
        grew = True
        while grew:
            grew = False
            for r in rules:
                if self.can_match(r, have) and not r.writes <= have:
                    if r.writes == EVERY_TABLE:
                        return self.tables
                    have |= r.writes
                    grew = True
        return frozenset(have)

    def after(self, ruleset: str, present: frozenset[str]) -> frozenset[str]:
        """The tables that may hold rows after one run of ``ruleset`` from ``present``."""
        writes: set[str] = set(present)
        for r in self.runnable(ruleset, present):
            if r.writes == EVERY_TABLE:
                return self.tables
            writes |= r.writes
        return frozenset(writes)

    def name(
        self, ruleset: str, present: frozenset[str] | set[str], depth: int
    ) -> tuple[str | None, str]:
        """(the ruleset to run for ``ruleset`` now: itself when every rule may match,
        None when none may; the declaration it needs first, "" for none), ``depth``
        (push)es deep."""
        rules = self.rules(ruleset)
        runnable = tuple(r.own for r in rules if self.can_match(r, present))
        if len(runnable) == len(rules):
            return ruleset, ""
        if not runnable:
            return None, ""
        known = self._names.get(runnable)
        if known is not None:
            return known[0], ""
        name = f"accsat-gated-{self._made}"
        self._made += 1
        self._names[runnable] = (name, depth)
        return name, f"(unstable-combined-ruleset {name} {' '.join(runnable)})"

    def popped(self, depth: int) -> None:
        """The combinations declared deeper than ``depth`` (push)es are gone (a ``(pop)``)."""
        self._names = {k: v for k, v in self._names.items() if v[1] <= depth}


def split(egglog: ModuleType, text: str, schema: str) -> tuple[list[str], Gates] | None:
    """``text`` (egglog declarations and rules, loaded after ``schema``) as programs to
    run in turn, every rule in a ruleset of its own and each ruleset the text declares
    their combination, and its Gates; None where the text holds more than declarations
    and rules naming their ruleset last, or a rule of a ruleset it does not declare (then
    it is loaded as it is, every rule run at every iteration).

    One command a program: egglog's parser takes time growing with the square of a
    program's length (the rules of rules/ as one program 52 ms, one a command 21 ms)."""
    forms = top_level_forms(text)
    if forms is None:
        return None
    parse = egglog.EGraph().parse_program
    tables: set[str] = set()
    for command in parse(schema):
        tables |= _declared_tables(command, type(command).__name__)
    members: dict[str, list[GatedRule]] = {}
    out: list[str] = []
    declared: dict[str, int] = {}  # ruleset -> its declaration's place in ``out``
    for form in forms:
        try:
            (command,) = parse(form)
        except (egglog.EggSmolError, ValueError):  # (the text's load says what is wrong)
            return None
        kind = type(command).__name__
        if kind not in _KINDS:
            return None
        tables |= _declared_tables(command, kind)
        if kind == "AddRuleset":
            declared[command.name] = len(out)
        elif (found := _rule(command, kind)) is not None:
            ruleset, needs, writes = found
            own = f"{ruleset}~{len(members.setdefault(ruleset, []))}"
            form = _renamed(form, ruleset, own)
            if not form:
                return None
            members[ruleset].append(GatedRule(ruleset, own, needs, writes))
        out.append(form)
    if not members.keys() <= declared.keys():  # (a ruleset declared in an earlier text)
        return None
    for ruleset, rules in members.items():
        out[declared[ruleset]] = " ".join(f"(ruleset {r.own})" for r in rules)
    out += [
        f"(unstable-combined-ruleset {name} {' '.join(r.own for r in rules)})"
        for name, rules in members.items()
    ]
    return out, Gates(frozenset(tables), members, frozenset(declared))


# the commands a text to split may hold: declarations, rulesets and rules
_KINDS = frozenset(
    ("Datatype", "Datatypes", "Sort", "Relation", "FunctionCommand", "Constructor", "Function")
    + ("AddRuleset", "RuleCommand", "RewriteCommand", "BiRewriteCommand")
)
# a rule's ruleset, named last in its form
_RULESET = re.compile(r":ruleset\s+([^\s()]+)(?=\s*\)\s*$)")


def _renamed(form: str, ruleset: str, own: str) -> str:
    """The rule ``form`` with its ruleset ``own``; "" where it does not name
    ``ruleset`` last."""
    named = _RULESET.search(form)
    if named is None or named.group(1) != ruleset:
        return ""
    return form[: named.start(1)] + own + form[named.end(1) :]


def top_level_forms(text: str) -> list[str] | None:
    """The top-level parenthesised forms of egglog source without their comments (``;``
    to the end of the line); None where a string or the parentheses do not close, or
    something stands outside a form."""
    forms: list[str] = []
    form: list[str] = []  # the pieces of the form being read
    depth, i, n = 0, 0, len(text)
    while i < n:
        ch, start = text[i], i
        if ch == ";":
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if ch == '"' and depth > 0:
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            if i >= n:
                return None
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                return None
        elif depth == 0 and not ch.isspace():
            return None  # (an atom or a string at the top: not a program of ours)
        i += 1
        if depth > 0 or ch == ")":
            form.append(text[start:i])
        if ch == ")" and depth == 0:
            forms.append("".join(form))
            form = []
    return forms if depth == 0 else None


def _declared_tables(command, kind: str) -> set[str]:
    if kind == "Datatype":
        return {v.name for v in command.variants}
    if kind in ("Relation", "FunctionCommand", "Constructor", "Function"):
        return {command.name}
    return set()


def _rule(command, kind: str) -> tuple[str, frozenset[str], frozenset[str]] | None:
    """(ruleset, needs, writes) of a rule or rewrite; None for anything else."""
    if kind == "RuleCommand":
        r = command.rule
        return r.ruleset, _names(r.body), _names(r.head, writing=True)
    if kind == "RewriteCommand":
        r = command.rewrite
        return command.name, _names([r.lhs, *r.conditions]), _names([r.lhs, r.rhs], writing=True)
    if kind == "BiRewriteCommand":  # either side may match: it needs neither
        r = command.rewrite
        return command.name, frozenset(), _names([r.lhs, r.rhs], writing=True)
    return None


def _names(forms: Iterable, writing: bool = False) -> frozenset[str]:
    """The names of tables ``forms`` mention (with primitives: Gates.tables tells them
    apart); EVERY_TABLE for what an action of an unknown form writes."""
    out: set[str] = set()
    todo = list(forms)
    while todo:
        form = todo.pop()
        kind = type(form).__name__
        if kind not in _PARTS:
            if writing:
                return EVERY_TABLE
            continue  # (a query of an unknown form: needs less, runs more often)
        if kind in _NAMED:
            out.add(getattr(form, _NAMED[kind]))
        for part in _PARTS[kind]:
            value = getattr(form, part)
            todo.extend(value if isinstance(value, list) else [value])
    return frozenset(out)
