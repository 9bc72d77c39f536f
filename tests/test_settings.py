"""Every setting declared once (accsat.settings): the parsers, and what derives from a
declaration (the accsat options, Options.key(), building Options from values)."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import pytest
from click.testing import CliRunner

from accsat import pipeline
from accsat.cli import main
from accsat.options import ExtractConfig, Limits, Options
from accsat.pipeline import FileResult
from accsat.settings import (
    NO_LIMIT,
    Choice,
    Count,
    Flag,
    Fraction,
    Names,
    Registers,
    Seconds,
    Setting,
    Text,
    build,
    declared,
    key_data,
    setting,
)

REWRITE = declared(Options)


def _other(s: Setting) -> object:
    """A value of ``s`` other than its default."""
    p, d = s.parse, s.default
    if isinstance(p, Flag):
        return not d
    if isinstance(p, Choice):
        return next(c for c in p.choices if c != d)
    if isinstance(p, Count):
        return d + 1
    if isinstance(p, Seconds):
        return 2.0 if d is None else d + 1
    if isinstance(p, Fraction):
        return d / 2
    if isinstance(p, Names):
        return ("comm",)
    if isinstance(p, Registers):
        return "keep" if d != "keep" else 64
    assert isinstance(p, Text), s.name
    return "other"


def test_names_flags_and_variables_derive_from_the_name():
    s = {x.name: x for x in REWRITE}
    assert (s["fp_exact"].env, s["fp_exact"].flag) == ("ACCSAT_FP_EXACT", "--fp-exact")
    assert (s["max_nodes"].path, s["max_nodes"].flag) == (("limits", "nodes"), "--max-nodes")
    assert s["disable_rule"].path == ("disabled_rules",) and s["trials"].get(Options()) == 24
    assert len({x.name for x in REWRITE}) == len(REWRITE)


@pytest.mark.parametrize("s", REWRITE, ids=lambda s: s.name)
def test_every_rewrite_setting_builds_options_and_enters_the_key_if_it_acts(s):
    other = _other(s)
    built = build(Options, {s.name: other})
    assert s.get(built) == other
    # a setting of what is said, not of what is rewritten (remarks), stays out of the key
    assert (built.key() != Options().key()) == s.key
    assert key_data(built).get(s.name, other) == other
    # everything else at its default
    assert all(t.get(built) == t.get(Options()) for t in REWRITE if t is not s)


@pytest.mark.parametrize("s", REWRITE, ids=lambda s: s.name)
def test_every_rewrite_setting_is_an_accsat_option(s, monkeypatch):
    """``accsat rewrite --<name> VALUE`` builds the Options ``ACCSAT_<NAME>=VALUE`` does."""
    other = _other(s)
    if s.is_flag:
        args = [s.flag if other else "--no-" + s.flag[2:]]
    else:
        args = [s.flag, ",".join(other) if isinstance(other, tuple) else str(other)]
    seen: list[Options] = []

    def rewrite_file(path, options, progress=None, share=None):
        seen.append(options)
        return FileResult("", [])

    monkeypatch.setattr(pipeline, "rewrite_file", rewrite_file)
    res = CliRunner().invoke(main, ["rewrite", __file__, *args])
    assert res.exit_code == 0, res.output
    assert s.get(seen[0]) == other


def test_defaults_are_declared_once():
    assert Options.extract_gap == 0.01 and Limits().nodes == 10_000
    assert ExtractConfig().time_limit == Options.extract_seconds
    from accsat.verify import DEFAULT_TRIALS

    assert Options.verify_trials == DEFAULT_TRIALS


@pytest.mark.parametrize(
    ("parse", "raw", "value"),
    [
        (Flag(), "yes", True),
        (Flag(), " OFF ", False),
        (Flag(), 1, True),
        (Count(1), "3", 3),
        (Count(0), 0, 0),
        (Seconds(), "0", 0.0),
        (Seconds(zero_is_none=True), "0", None),
        (Seconds(positive=True, unlimited=True), "inf", NO_LIMIT),
        (Seconds(positive=True, unlimited=True), math.inf, NO_LIMIT),
        (Fraction(), "0.05", 0.05),
        (Fraction(), 1, 1.0),
        (Names(), "a, b,,c", ("a", "b", "c")),
        (Names(), ["a", "b"], ("a", "b")),
        (Registers(), "keep", "keep"),
        (Registers(), "ANY", "any"),
        (Registers(), "64", 64),
        (Choice(("x", "y")), " y ", "y"),
    ],
)
def test_parsers_accept(parse, raw, value):
    assert parse(raw) == value


@pytest.mark.parametrize(
    ("parse", "raw"),
    [
        (Flag(), "2"),
        (Count(1), "0"),
        (Count(1), "1.5"),
        (Count(1), True),
        (Seconds(), "-5"),
        (Seconds(), "nan"),
        (Seconds(), "inf"),
        (Seconds(), "1e300"),
        (Seconds(positive=True), "0"),
        (Fraction(), "2"),
        (Fraction(), "nan"),
        (Names(), 3),
        (Registers(), "0"),
        (Registers(), "lots"),
        (Choice(("x",)), "z"),
        (Text(), ""),
    ],
)
def test_parsers_refuse_with_a_reason(parse, raw):
    with pytest.raises(ValueError, match="^is not "):
        parse(raw)


def test_a_holder_of_its_own():
    """Any frozen dataclass can declare settings; nested ones are found by their name."""

    @dataclass(frozen=True)
    class Inner:
        depth: int = setting(3, "how deep", parse=Count(1), stage="codegen", name="inner_depth")

    @dataclass(frozen=True)
    class Outer:
        on: bool = setting(False, "on or off", parse=Flag(), stage="wrapper", key=False)
        inner: Inner = Inner()
        name: str = "plain field"

    assert [(s.name, s.path) for s in declared(Outer)] == [
        ("on", ("on",)),
        ("inner_depth", ("inner", "depth")),
    ]
    built = build(Outer, {"inner_depth": 5, "on": True}, name="given")
    assert built == Outer(True, Inner(5), "given")
    assert key_data(built) == {"inner_depth": 5, "name": "given"}  # "on" is not keyed
    with pytest.raises(ValueError, match="unknown stage"):
        setting(1, "x", parse=Count(), stage="nowhere")
    assert replace(built, on=False).on is False
