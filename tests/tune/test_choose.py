"""Choosing per kernel: a variant only when it beats orig by more than the noise."""

from __future__ import annotations

from accsat.tune.choose import NOISE_FLOOR, choose, spread

ABOUT = {
    "kernel": "a.c:3",
    "file": "a.c",
    "line": 3,
    "hash": "h",
    "construct": "acc parallel",
    "timed": True,
    "why": "",
}


def rows(**seconds: list[float]) -> dict[str, dict]:
    return {name.replace("_", "+"): {**ABOUT, "seconds": s} for name, s in seconds.items()}


def test_the_fastest_variant_wins_when_it_beats_the_noise():
    c = choose(rows(orig=[1.0, 1.02, 0.99], cse=[0.8, 0.81, 0.8], cse_sat=[0.7, 0.72, 0.71]), ABOUT)
    assert c.config == "cse+sat"
    assert abs(c.gain - 1.0 / 0.71) < 1e-9
    assert (
        abs(c.noise - max(spread([1.0, 1.02, 0.99]), spread([0.7, 0.72, 0.71]), NOISE_FLOOR))
        < 1e-12
    )


def test_a_gain_inside_the_spread_of_the_runs_keeps_orig():
    c = choose(rows(orig=[1.0, 1.3, 0.9], cse=[0.85, 0.86, 0.84]), ABOUT)
    assert c.config == "orig" and c.gain == 1.0 and "noise" in c.reason
    # one run each: no spread, the floor decides
    assert choose(rows(orig=[1.0], cse=[0.99]), ABOUT).config == "orig"
    assert choose(rows(orig=[1.0], cse=[0.9]), ABOUT).config == "cse"


def test_slower_variants_and_what_was_not_timed_keep_orig():
    assert choose(rows(orig=[1.0, 1.0], cse=[2.0, 2.0]), ABOUT).config == "orig"
    untimed = {**ABOUT, "timed": False, "why": "async"}
    c = choose(rows(orig=[1.0], cse=[0.1]), untimed)
    assert c.config == "orig" and "async" in c.reason and c.gain is None
    assert choose(rows(orig=[1e-6], cse=[1e-7]), ABOUT).config == "orig"  # too short to time
    assert choose(rows(cse=[0.1]), ABOUT).config == "orig"  # orig not measured
    assert choose(rows(orig=[None, None], cse=[0.1]), ABOUT).config == "orig"


def test_a_variant_that_rewrote_nothing_is_orig_and_never_chosen():
    same = rows(orig=[1.0, 1.01], cse=[0.5, 0.5])
    same["cse"]["rewritten"] = False  # accsat left every kernel of it as written
    c = choose(same, ABOUT)
    assert c.config == "orig" and c.reason == "no variant rewrote it"
