"""Saturation reuses one loaded egglog session per rule selection, and loads terms by
rules in chunks: neither may change the e-graph a fresh session with one ``let`` a
term gives, e-class ids included."""

from __future__ import annotations

import subprocess
import sys

import pytest

from accsat.egraph import saturate as sat_mod
from accsat.egraph.graph import ENode
from accsat.egraph.rules import rulesets_for
from accsat.egraph.saturate import _LOADED, saturate
from accsat.extract import load_cost_model
from accsat.frontend.load import load
from accsat.options import Options
from accsat.pipeline import _op_cost
from accsat.ssa.statements import build_ssa

SRC = """\
double a[64], b[64], c[64];
void k(int n, double s)
{
#pragma acc parallel loop
  for (int i = 1; i < n - 1; i++) {
    c[i] = a[i] * b[i] + a[i] * s * 2.0 + (a[i - 1] + a[i + 1]) * (b[i] * 1.0);
    b[i] = c[i] * s + a[i] * b[i] - (2.0 * 3.0) * a[i];
  }
}
"""


def _kernel(tmp_path):
    path = tmp_path / "k.c"
    path.write_text(SRC)
    loaded = load(path)
    cost = load_cost_model("paper")
    return build_ssa(loaded.kernels[0], loaded.symbols, _op_cost(cost), loaded.defined)


def _shape(sat):
    """Everything of a saturation but its seconds."""
    classes = sorted((c, sorted(map(repr, ns))) for c, ns in sat.egraph.classes.items())
    return classes, sorted(sat.class_of.items()), sat.iterations, sat.stop_reason


def _fresh_with_lets(ssa, rulesets):
    """What saturation gave before sessions were reused: a new session, one let a term."""
    s = sat_mod._Session()
    s.run(sat_mod.schema_text())
    rules = [r for r in rulesets if r.file is not None]
    folding = sat_mod.folding_of(rulesets)
    s.run(sat_mod.egglog_text(rules))
    names = " ".join(r.name for r in rules)
    s.run(f"(unstable-combined-ruleset accsat-selected {names})")
    if folding:
        s.run(sat_mod.fold_candidate_rules())
    ids = sat_mod.reachable(ssa.terms, ssa.roots)
    s.run("\n".join(sat_mod.type_facts({ssa.terms[t].ty for t in ids if ssa.terms[t].ty})))
    s.run("\n".join(f"(let $t{t} {sat_mod.term_text(ssa.terms, t)})" for t in ids))
    facts = [
        f
        for t in ids
        if ssa.terms[t].op == "Const"
        for f in sat_mod.const_facts(ssa.terms[t].ty, ssa.terms[t].attrs[0])
    ]
    if facts:
        s.run("\n".join(facts))
    dump = s.dump()
    lets = {}
    for cid, data in dump["class_data"].items():
        for name in data.get("let", "").split(","):
            if name.strip().startswith("$t"):
                lets[int(name.strip()[2:])] = sat_mod._cls(cid)
    return lets


def test_a_reused_session_gives_what_a_fresh_one_gives(tmp_path):
    ssa = _kernel(tmp_path)
    accsat, cse = rulesets_for(Options()), rulesets_for(Options(variant="cse"))
    _LOADED.clear()
    first = _shape(saturate(ssa.terms, ssa.roots, accsat))
    saturate(ssa.terms, ssa.roots, cse)  # another session, and this one used in between
    saturate(ssa.terms, ssa.roots, accsat)
    again = _shape(saturate(ssa.terms, ssa.roots, accsat))
    assert again == first
    assert len(_LOADED) == 2
    assert all(s.depth == 0 for s in _LOADED.values())  # back to the loaded state


@pytest.mark.parametrize("chunk", [1, 3, 64])
def test_terms_loaded_by_rules_get_the_ids_lets_give(tmp_path, monkeypatch, chunk):
    ssa = _kernel(tmp_path)
    rulesets = rulesets_for(Options())
    monkeypatch.setattr(sat_mod, "LOAD_CHUNK", chunk)
    monkeypatch.setattr(sat_mod, "_iterate", lambda *a, **k: (0, "no-rules"))
    sat = saturate(ssa.terms, ssa.roots, rulesets)
    assert len(sat.class_of) > 3 * chunk or chunk == 64
    assert sat.class_of == _fresh_with_lets(ssa, rulesets)


def test_a_failed_saturation_drops_its_session(tmp_path, monkeypatch):
    ssa = _kernel(tmp_path)
    rulesets = rulesets_for(Options())
    _LOADED.clear()
    saturate(ssa.terms, ssa.roots, rulesets)
    (loaded,) = _LOADED.values()

    def broken(*args, **kwargs):
        raise RuntimeError("egglog failed mid-way")

    monkeypatch.setattr(sat_mod, "_iterate", broken)
    with pytest.raises(RuntimeError):
        saturate(ssa.terms, ssa.roots, rulesets)
    assert loaded not in _LOADED.values()


# A kernel of BT's shape: 25 stores of a 5x5 block product (672 terms).
BLOCKS = "\n".join(
    [
        "void k(int n, double a[][5][5], double b[][5][5], double c[][5][5], double d[][5])",
        "{",
        "#pragma acc parallel loop",
        "  for (int i = 1; i < n; i++) {",
        *(
            f"    c[i][{m}][{q}] = c[i][{m}][{q}] - ("
            + " + ".join(f"a[i][{m}][{j}] * b[i-1][{j}][{q}]" for j in range(5))
            + f") * d[i][{m}];"
            for m in range(5)
            for q in range(5)
        ),
        "  }",
        "}",
        "",
    ]
)

GROWTH = """
import resource, sys
from pathlib import Path
from accsat.egraph.rules import rulesets_for
from accsat.egraph.saturate import saturate
from accsat.extract import load_cost_model
from accsat.frontend.load import load
from accsat.options import Options
from accsat.pipeline import _op_cost
from accsat.ssa.statements import build_ssa
loaded = load(Path(sys.argv[1]))
ssa = build_ssa(loaded.kernels[0], loaded.symbols, _op_cost(load_cost_model("paper")),
                loaded.defined)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
sat = saturate(ssa.terms, ssa.roots, rulesets_for(Options(variant="cse")))
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(sat.egraph.node_count, (after - before) // 1024)
"""


def test_loading_terms_takes_little_memory(tmp_path):
    """The loading chunks run as programs of their own: as one program, egglog 13.0
    grew a fresh process by 642 MB for these 672 terms (each page faulted in: most of
    a big kernel's saturation time in a compile server's child), by 53 MB so."""
    path = tmp_path / "blocks.c"
    path.write_text(BLOCKS)
    out = subprocess.run(
        [sys.executable, "-c", GROWTH, str(path)], capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    nodes, growth_mb = map(int, out.stdout.split())
    assert nodes == 672
    assert growth_mb < 200, f"saturation grew the process by {growth_mb} MB"


def test_a_warmed_process_saturates_in_the_session_it_loaded(tmp_path, monkeypatch):
    """pipeline.warm_up (a compile server's waiting processes) loads the default rules'
    session; the first kernel then uses it rather than loading its own."""
    from accsat.pipeline import warm_up

    monkeypatch.setattr(sat_mod, "_LOADED", {})
    warm_up()
    (session,) = sat_mod._LOADED.values()
    ssa = _kernel(tmp_path)
    saturate(ssa.terms, ssa.roots, rulesets_for(Options()))
    assert list(sat_mod._LOADED.values()) == [session]


def test_a_term_id_row_only_where_a_later_chunk_reads_it(tmp_path, monkeypatch):
    """The classes of the terms come from the e-graph read out; a (TermId id term) row is
    only what a later loading rule's query needs (each action costs egglog time)."""
    ssa = _kernel(tmp_path)
    ids = sat_mod.reachable(ssa.terms, ssa.roots)
    _, s = sat_mod._loaded([r for r in rulesets_for(Options()) if r.file is not None], "all")
    for chunk in (3, 64):
        monkeypatch.setattr(sat_mod, "LOAD_CHUNK", chunk)
        chunks = [ids[k : k + chunk] for k in range(0, len(ids), chunk)]
        read = {a for c in chunks for t in c for a in ssa.terms[t].args if a not in c}
        s.run("(push)")
        try:
            for program in sat_mod.load_terms(ssa.terms, ids):
                s.run(program)
            assert s.sizes()[sat_mod.TERM_ID] == len(read)
        finally:
            s.run(f"(pop {s.depth})")
        assert bool(read) == (chunk == 3)


def test_a_term_egglog_lost_is_found(tmp_path):
    ssa = _kernel(tmp_path)
    sat = saturate(ssa.terms, ssa.roots, rulesets_for(Options()))
    nodes = {node: cls for cls, ns in sat.egraph.classes.items() for node in ns}
    ids = sat_mod.reachable(ssa.terms, ssa.roots)
    lost = ids[len(ids) // 2]
    t = ssa.terms[lost]
    key = ENode(t.op, t.ty, t.attrs, tuple(sat.class_of[a] for a in t.args))
    del nodes[key]
    with pytest.raises(sat_mod.InconsistentEGraph, match=f"id {lost}"):
        sat_mod.classes_of_terms(ssa.terms, ids, nodes)


def test_folding_reads_each_operation_on_constants_once(tmp_path):
    """FOLD_ME rows carry the operation and its constants (no dump of the e-graph); a
    row folded, or found not to fold, is not looked at again."""
    ssa = _kernel(tmp_path)
    key, s = sat_mod._loaded([r for r in rulesets_for(Options()) if r.file is not None], "all")
    s.run("(push)")
    try:
        for program in sat_mod.load_terms(ssa.terms, sat_mod.reachable(ssa.terms, ssa.roots)):
            s.run(program)
        s.run(sat_mod.once(sat_mod.FOLD_CANDIDATES))
        printed = str(s.run(f"(print-function {sat_mod.FOLD_ME} 100)")[0])
        assert '"Mul" "double" "double" "2.0" "double" "3.0"' in printed  # (2.0 * 3.0)
        seen: set[tuple[str, ...]] = set()
        assert sat_mod.fold_constants(s, "all", seen) > 0
        assert ("Mul", "double", "double", "2.0", "double", "3.0") in seen
        assert sat_mod.fold_constants(s, "all", seen) == 0
        s.run(
            '(check (= (Mul "double" (Const "double" "2.0") (Const "double" "3.0")) '
            '(Const "double" "6.0")))'
        )
    finally:
        s.run(f"(pop {s.depth})")


def test_a_fold_into_a_class_that_holds_the_value_spelled_otherwise_keeps_both():
    """Folding unions an operation with its value whatever its class holds (it reads
    no e-graph): a class that has the value as ``6.`` gets ``6.0`` too, an equal
    constant (extraction prefers the one written)."""
    _, s = sat_mod._loaded([r for r in rulesets_for(Options()) if r.file is not None], "all")
    six = '(Mul "double" (Const "double" "2.0") (Const "double" "3.0"))'
    s.run("(push)")
    try:
        s.run(f'(union {six} (Const "double" "6."))')
        s.run(sat_mod.once(sat_mod.FOLD_CANDIDATES))
        assert sat_mod.fold_constants(s, "all", set()) > 0
        s.run(f'(check (= {six} (Const "double" "6.0")) (= {six} (Const "double" "6.")))')
    finally:
        s.run(f"(pop {s.depth})")
