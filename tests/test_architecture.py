"""The shape of the code: no import circles, and the pipeline's stages import only downward.

grimp reads every import statement, those inside functions included (the lazy
ones that hid the old pipeline -> verify -> pipeline circle).
"""

from __future__ import annotations

import grimp
import pytest

PACKAGES = ("accsat", "npb_harness", "spec_harness")

# highest first: a layer may import those below it, never those above
STAGES = (
    # the two programs, ``accsat`` and ``accsat-cc``: neither imports the other
    grimp.Layer("accsat.cli", "accsat.wrapper", independent=True),
    # what they run: the tuner (its database is what accsat-cc applies), the advisor and
    # the optimization records (accsat-cc writes them, accsat report reads them)
    grimp.Layer("accsat.tune", "accsat.advise", "accsat.records", independent=True),
    # the sweep engine the tuner and the benchmark harnesses share
    "accsat.sweep",
    "accsat.check",
    "accsat.pipeline",
    "accsat.verify",
    "accsat.codegen",
    "accsat.extract",
    "accsat.egraph",
    # accsat-cc's settings (its own and the rewrite's), read by the tuner and the sweeps
    # that build through it as by accsat-cc itself
    "accsat.ccconfig",
    grimp.Layer("accsat.ssa", "accsat.options", independent=True),
    "accsat.frontend",
    # compilers and their flags, the process runner, records: for every stage above
    "accsat.toolchain",
    # shared by every stage, importing none
    grimp.Layer(
        "accsat.ops",
        "accsat.mathfuncs",
        "accsat.fileio",
        "accsat.errors",
        "accsat.occupancy",
        "accsat.resources",
        independent=True,
    ),
    # how a setting is declared and read (every setting: settings.Environment's too)
    "accsat.settings",
)


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    # imports under `if TYPE_CHECKING:` are annotations only: no order of import at run time
    return grimp.build_graph(*PACKAGES, exclude_type_checking_imports=True)


def cycles(graph: grimp.ImportGraph) -> list[tuple[str, ...]]:
    """One chain per module pair that import each other, directly or not."""
    found = set()
    for a in sorted(graph.modules):
        for b in graph.find_modules_directly_imported_by(a):
            back = graph.find_shortest_chain(importer=b, imported=a)
            if back is not None:
                found.add((a, *back))
    return sorted(found)


def test_no_import_circles(graph):
    assert cycles(graph) == []


def package_cycles(graph: grimp.ImportGraph, parent: str = "accsat") -> list[tuple[str, str]]:
    """Pairs of ``parent``'s subpackages (and modules) that import each other, directly or
    not (wrapper -> tune -> sweep -> wrapper was one)."""
    children = sorted(graph.find_children(parent))
    return [
        (a, b)
        for i, a in enumerate(children)
        for b in children[i + 1 :]
        if graph.chain_exists(importer=a, imported=b, as_packages=True)
        and graph.chain_exists(importer=b, imported=a, as_packages=True)
    ]


def test_no_package_circles(graph):
    assert package_cycles(graph) == []


def test_a_package_circle_is_found():
    g = grimp.ImportGraph()
    for m in ("p", "p.a", "p.a.x", "p.b", "p.b.y", "p.c"):
        g.add_module(m)
    g.add_import(importer="p.a.x", imported="p.b.y")
    g.add_import(importer="p.b.y", imported="p.c")
    g.add_import(importer="p.c", imported="p.a.x")
    assert package_cycles(g, "p") == [("p.a", "p.b"), ("p.a", "p.c"), ("p.b", "p.c")]


def test_a_circle_is_found():
    g = grimp.ImportGraph()
    for m in ("p", "p.a", "p.b", "p.c"):
        g.add_module(m)
    g.add_import(importer="p.a", imported="p.b")
    g.add_import(importer="p.b", imported="p.c")
    g.add_import(importer="p.c", imported="p.a")
    assert cycles(g)


def test_stages_import_only_downward(graph):
    illegal = graph.find_illegal_dependencies_for_layers(layers=STAGES)
    assert not illegal, "\n".join(str(d) for d in illegal)


def test_harnesses_share_the_engine_not_each_other(graph):
    for a, b in (("spec_harness", "npb_harness"), ("npb_harness", "spec_harness")):
        assert not graph.find_shortest_chains(importer=a, imported=b, as_packages=True)
