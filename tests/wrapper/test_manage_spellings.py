"""accsat/wrapper/manage.py: ccache's spellings of the cache commands (``-s``,
``--show-stats``, ``-z``, ``-C``, ``-p``), several in one call, in order."""

from __future__ import annotations

import json

import pytest

from .conftest import wrap


@pytest.mark.parametrize(
    "short,long", [("-s", "--stats"), ("--show-stats", "--stats"), ("-p", "--show-config")]
)
def test_short_spellings_answer_as_the_long_ones(tmp_path, env, short, long):
    a, b = wrap(tmp_path, env, short), wrap(tmp_path, env, long)
    assert a.returncode == b.returncode == 0
    if long == "--stats":  # the time zeroed is the same "never"
        assert a.stdout == b.stdout and "cache hits" in a.stdout
    else:
        assert a.stdout == b.stdout and "setting" in a.stdout


def test_zero_and_clear_as_ccache_spells_them(tmp_path, env):
    cache = tmp_path / "cache"
    (cache / "rewrite-v1" / "ab").mkdir(parents=True)
    (cache / "rewrite-v1" / "ab" / "ab00.json").write_text("{}")
    (cache / "stats.json").write_text(json.dumps({"hits": 7, "misses": 2}))
    r = wrap(tmp_path, env, "-z")
    assert r.returncode == 0 and r.stdout == f"statistics zeroed in {cache}\n"
    assert json.loads((cache / "stats.json").read_text())["hits"] == 0
    r = wrap(tmp_path, env, "-C")
    assert r.returncode == 0 and r.stdout == f"removed 1 entries from {cache}\n"
    assert not (cache / "rewrite-v1").exists()


def test_several_commands_run_in_order(tmp_path, env):
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "stats.json").write_text(json.dumps({"hits": 7}))
    r = wrap(tmp_path, env, "-z", "-s")
    assert r.returncode == 0
    zeroed, stats = r.stdout.split("\n", 1)
    assert zeroed == f"statistics zeroed in {cache}"
    assert [line.split()[-1] for line in stats.splitlines() if line.startswith("cache hits")] == [
        "0"
    ]


def test_an_argument_that_is_no_command_is_refused(tmp_path, env):
    r = wrap(tmp_path, env, "-s", "-z", "gcc")
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == "accsat-cc: -s takes no argument (got 'gcc')\n"
