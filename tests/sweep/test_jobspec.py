"""accsat.sweep.jobspec: a suite goes to a batch job as JSON and comes back equal."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from accsat.sweep.jobspec import NotSendable, decode, encode, resolve
from accsat.toolchain.compilers import Compiler
from npb_harness.suite import NPBSuite
from spec_harness.direct import DirectSuite
from spec_harness.layout import SpecTree
from spec_harness.runspec import RunspecSuite


def through_json(value):
    return decode(json.loads(json.dumps(encode(value))))


@pytest.mark.parametrize(
    "suite",
    [
        NPBSuite(
            Path("/npb"), Path("/out"), {"gcc": Compiler("gcc", "gcc-12")}, runs=2, make_jobs=4
        ),
        DirectSuite(SpecTree(Path("/spec")), Path("/out"), {"nvc": Compiler("nvc", "nvc")}),
        RunspecSuite(
            SpecTree(Path("/spec")), Path("/out"), {"gcc": Compiler("gcc", "gcc")}, timeout=10.0
        ),
    ],
    ids=["npb", "spec-direct", "spec-runspec"],
)
def test_the_suites_go_to_a_job_and_come_back_equal(suite):
    back = through_json(suite)
    assert back == suite and type(back) is type(suite)
    assert isinstance(back.out, Path)


def test_tuples_paths_and_nesting_keep_their_types():
    value = {"a": (1, Path("/x"), [None, 2.5]), "b": [("s",)]}
    assert through_json(value) == value


def test_what_cannot_travel_says_so():
    with pytest.raises(NotSendable, match="lock"):
        encode({"x": threading.Lock()})
    with pytest.raises(NotSendable, match="cannot be sent"):
        encode({1: "int keys"})


def test_resolve_names_nested_attributes():
    assert resolve("accsat.sweep.engine:Sweep.from_job").__name__ == "from_job"
