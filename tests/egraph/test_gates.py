"""A rule runs only while the tables its query reads hold rows (egraph/gates.py): the
e-graph must be the one every rule gives, and a rule that cannot match must not run."""

from __future__ import annotations

import pytest

from accsat.egraph import gates
from accsat.egraph import saturate as sat_mod
from accsat.egraph.rules import rulesets_for
from accsat.egraph.saturate import _LOADED, egglog, saturate, schema_text
from accsat.extract import load_cost_model
from accsat.frontend.load import load
from accsat.options import Limits, Options
from accsat.pipeline import _op_cost
from accsat.ssa.statements import build_ssa
from tests.egraph.test_saturate_session import SRC as FLOATS

RULES = """\
(ruleset r)
(rule ((= e (Mul t a (Const c v))) (IntOne c v)) ((union e a)) :ruleset r)
(rewrite (Add t a (Mul t b c)) (Fma t a b c) :when ((FloatTy t)) :ruleset r)
(rule ((= e (Fma t a b c))) ((set (SumWidth e) 1)) :ruleset r)
"""


def _split(text: str = RULES) -> tuple[str, gates.Gates]:
    found = gates.split(egglog, text, schema_text())
    assert found is not None
    programs, g = found
    return "\n".join(programs), g


def test_each_rule_is_loaded_in_a_ruleset_of_its_own_and_the_ruleset_combines_them():
    text, g = _split()
    assert [r.own for r in g.members["r"]] == ["r~0", "r~1", "r~2"]
    assert "(unstable-combined-ruleset r r~0 r~1 r~2)" in text
    eg = egglog.EGraph()
    eg.run_program(*eg.parse_program(schema_text() + "\n" + text))  # egglog reads it
    needs = [r.needs & g.tables for r in g.members["r"]]
    assert needs == [{"Mul", "Const", "IntOne"}, {"Add", "Mul", "FloatTy"}, {"Fma"}]
    writes = [r.writes & g.tables for r in g.members["r"]]
    assert writes == [set(), {"Add", "Mul", "Fma"}, {"SumWidth"}]


def test_only_the_rules_whose_tables_hold_rows_run():
    _, g = _split()
    present = frozenset({"Add", "Mul", "Const", "FloatTy"})
    assert [r.own for r in g.runnable("r", present)] == ["r~1"]
    name, declaration = g.name("r", present, depth=1)
    assert declaration == f"(unstable-combined-ruleset {name} r~1)"
    assert g.name("r", present, depth=1) == (name, "")  # declared once
    assert g.name("r", g.tables, depth=1) == ("r", "")  # every rule: the ruleset itself
    assert g.name("r", frozenset(), depth=1) == (None, "")  # none: no run
    g.popped(0)  # its (push) is gone, and the declaration with it
    again, declaration = g.name("r", present, depth=1)
    assert again != name and declaration.endswith(" r~1)")


def test_the_tables_a_stage_may_fill_count_as_present():
    _, g = _split()
    # r~1 adds an Fma, which r~2 reads: run to saturation, both may match
    reach = g.reach(["r"], {"Add", "Mul", "FloatTy"})
    assert {"Fma", "SumWidth"} <= reach
    assert [r.own for r in g.runnable("r", reach)] == ["r~1", "r~2"]
    assert "SumWidth" not in g.after("r", frozenset({"Add", "Mul", "FloatTy"}))
    assert "Fma" in g.after("r", frozenset({"Add", "Mul", "FloatTy"}))


def test_an_action_of_an_unknown_form_may_write_every_table():
    assert gates._names([object()], writing=True) == gates.EVERY_TABLE
    assert gates._names([object()]) == frozenset()  # a query's: it needs less


def test_rules_of_a_ruleset_declared_elsewhere_are_loaded_as_they_are():
    assert gates.split(egglog, RULES.replace("(ruleset r)\n", ""), schema_text()) is None


# integer constants that combine (assoc-const, AssocTo), cancel (assoc-cancel) and fold
INTEGERS = """\
int a[256]; unsigned u[256];
void k(int n, unsigned m)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    a[(i + 1) + 2] = a[i * 4 * 8] + (i - 3) + 3 + a[i] * 1 + 0 * a[i + 1];
    u[i] = ((m + 4294967295u) + 1u) * 2u * 8u + (m * 3u) * 5u + (1u << 3);
  }
}
"""


def _shape(sat):
    """A saturation but its seconds, each e-class named by its least term (a rule
    skipped changes no class, but may change the order new classes are numbered in)."""
    name: dict[int, tuple[int, str]] = {}  # class -> (size, text) of its least term
    grew = True
    while grew:  # (a class may hold a node of itself: x * 1 = x)
        grew = False
        for c, nodes in sat.egraph.classes.items():
            for n in nodes:
                if all(k in name for k in n.children):
                    kids = [name[k] for k in n.children]
                    term = (1 + sum(size for size, _ in kids), repr((n.op, n.ty, n.attrs, kids)))
                    if c not in name or term < name[c]:
                        name[c], grew = term, True
    classes = sorted(
        (name[c], sorted(repr((n.op, n.ty, n.attrs, [name[k] for k in n.children])) for n in ns))
        for c, ns in sat.egraph.classes.items()
    )
    terms = sorted((t, name[c]) for t, c in sat.class_of.items())
    return classes, terms, sat.iterations, sat.stop_reason


def _ssa(tmp_path, source: str):
    path = tmp_path / "k.c"
    path.write_text(source)
    loaded = load(path)
    cost = _op_cost(load_cost_model("paper"))
    return build_ssa(loaded.kernels[0], loaded.symbols, cost, loaded.defined)


# constants folded before the first iteration (the tables' sizes printed before then
# are stale: x * 0 would wait an iteration, IntZero's row not seen)
FOLDED = """\
int a[64], b[64];
void k(int n)
{
#pragma acc parallel loop
  for (int i = 0; i < n - 1; i++)
    b[i] = a[i] * (3 - 2) + a[i + 1] * (2 - 2);
}
"""
SOURCES = {"floats": FLOATS, "integers": INTEGERS, "folded": FOLDED}


def _both(ssa, rulesets, monkeypatch, limits: Limits = Limits()):
    """The saturation's shape with gates and with every rule."""
    _LOADED.clear()
    gated = _shape(saturate(ssa.terms, ssa.roots, rulesets, limits))
    assert all(s.gates is not None for s in _LOADED.values())
    _LOADED.clear()
    with monkeypatch.context() as m:
        m.setattr(sat_mod, "split", lambda *args: None)
        every = _shape(saturate(ssa.terms, ssa.roots, rulesets, limits))
    _LOADED.clear()
    return gated, every


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("variant", ["accsat", "cse"])
def test_gated_rules_give_the_e_graph_every_rule_gives(tmp_path, monkeypatch, source, variant):
    ssa = _ssa(tmp_path, SOURCES[source])
    gated, every = _both(ssa, rulesets_for(Options(variant=variant)), monkeypatch)
    assert gated == every
    assert gated[2] > (0 if variant == "cse" else 1)  # (rules matched: iterations made)


@pytest.mark.parametrize("nodes", [40, 60, 100])
def test_gates_under_the_node_limit_give_the_e_graph_every_rule_gives(tmp_path, monkeypatch, nodes):
    """Iterations made on a snapshot (near the limit) and replayed ones (past it):
    FLOATS stops after 0, 1 and 2 of its 4 iterations."""
    ssa = _ssa(tmp_path, FLOATS)
    limits = Limits(nodes=nodes)
    gated, every = _both(ssa, rulesets_for(Options()), monkeypatch, limits)
    assert gated == every
    assert gated[3] == "node-limit"


def test_rules_run_only_once_their_tables_hold_rows(tmp_path, monkeypatch):
    """FLOATS has integer sums with constants (i + 1) but none of them nested: assoc-const
    looks for one at every iteration, but its rules that apply a combined constant
    (AssocTo, which accsat asserts for one found) never run, nor those of a division."""
    ssa = _ssa(tmp_path, FLOATS)
    _LOADED.clear()
    programs: list[str] = []
    run = sat_mod._Session.run

    def recorded(self, text):
        programs.append(text)
        return run(self, text)

    monkeypatch.setattr(sat_mod._Session, "run", recorded)
    saturate(ssa.terms, ssa.roots, rulesets_for(Options()))
    (session,) = _LOADED.values()
    _LOADED.clear()
    assert session.gates is not None
    declared = [p for p in programs if "(unstable-combined-ruleset accsat-gated-" in p]
    ran = {word.rstrip(")") for p in declared for word in p.split()}
    rules = [r for rs in session.gates.members.values() for r in rs]
    applying = {r.own for r in rules if "AssocTo" in r.needs}
    dividing = {r.own for r in rules if "Div" in r.needs}
    looking = {r.own for r in rules if "WantAssoc" in r.writes}
    assert applying and dividing and looking
    assert not ran & (applying | dividing)
    assert looking <= ran


def test_the_text_is_read_form_by_form():
    text = '; a comment (with a parenthesis\n(relation R (String))\n(R "a ) \\" ;")  ; after\n'
    assert gates.top_level_forms(text) == ["(relation R (String))", '(R "a ) \\" ;")']
    assert gates.top_level_forms("(a (b)") is None
    assert gates.top_level_forms("(a) b") is None


def test_a_rule_is_renamed_where_it_names_its_ruleset_last():
    text = RULES.replace(
        ":ruleset r)\n(rewrite", ":ruleset r)\n; not :ruleset r)\n(rewrite", 1
    ).replace("((union e a))", "((union e a)) ; :ruleset r\n", 1)
    text = text.replace(
        ":ruleset r)\n(rule ((= e (Fma", ":ruleset r ; was :ruleset r\n)\n(rule ((= e (Fma"
    )
    programs, g = _split(text)
    assert "(ruleset r~0) (ruleset r~1) (ruleset r~2)" in programs
    assert ":ruleset r~0)" in programs
    named_first = RULES.replace("((union e a)) :ruleset r)", '((union e a)) :ruleset r :name "n")')
    assert gates.split(egglog, named_first, schema_text()) is None
    assert gates.split(egglog, RULES.replace("((union e a))", "((union e a"), schema_text()) is None


def test_the_marks_of_operations_on_constants_wait_for_what_the_rules_make():
    """FOLD_CANDIDATES runs after the other rules: a rule of a table only they fill
    (fma makes Fma) runs in the same iteration, not one later."""
    _, g = _split(RULES + '(ruleset m)\n(rule ((= e (Fma t a b c))) ((R "x")) :ruleset m)\n')
    g.combined = {sat_mod.FIRST: [], sat_mod.SELECTED: ["r"], sat_mod.FOLD_CANDIDATES: ["m"]}
    s = sat_mod._Session()
    s.gates = g
    declare, runs, marks = s.iteration(True, False, True, frozenset({"Add", "Mul", "FloatTy"}))
    assert marks == [sat_mod.once(sat_mod.FOLD_CANDIDATES)]  # every rule of m may match
    _, _, marks = s.iteration(True, False, True, frozenset({"Add", "FloatTy"}))
    assert marks == []  # no Mul: no Fma made, nothing to mark


def test_a_ruleset_the_gates_do_not_know_turns_them_off():
    combined = RULES + "(ruleset q)\n(unstable-combined-ruleset mine r q)\n"
    assert gates.split(egglog, combined, schema_text()) is None
    _, g = _split()
    assert not g.combine(sat_mod.SELECTED, ["r", "elsewhere"])
    assert g.combine(sat_mod.SELECTED, ["r"])


def test_a_stray_quote_or_an_open_string_reads_as_no_program():
    assert gates.top_level_forms('(a) "x" (b)') is None
    assert gates.top_level_forms('(a "open)') is None
    assert gates.top_level_forms('"open (a)') is None
