"""accsat tune's builds: the user's rewrite settings are part of what a build is."""

from __future__ import annotations

from accsat.sweep import accsat_cc
from accsat.sweep.cells import Cell
from accsat.tune.suite import TuneSuite


def test_a_rewrite_setting_of_the_user_is_in_the_build_key(tmp_path, monkeypatch):
    """ACCSAT_FP_EXACT (or any rewrite setting) reaches every configuration's build
    through accsat-cc: a build made without it is not the one asked for."""
    monkeypatch.setattr(accsat_cc, "accsat_code", lambda: "code")
    monkeypatch.delenv("ACCSAT_FP_EXACT", raising=False)
    suite = TuneSuite(tmp_path, "make", "./app")
    cell = Cell("tune", "app", "run", "cc", "host", "accsat")
    before = suite.build_key(cell)
    assert "settings" not in before  # as before rewrite settings reached accsat-cc
    monkeypatch.setenv("ACCSAT_FP_EXACT", "1")
    monkeypatch.setenv("ACCSAT_VARIANT", "cse")  # tune's own: each configuration sets it
    after = suite.build_key(cell)
    assert after == {**before, "settings": {"ACCSAT_FP_EXACT": "1"}}
