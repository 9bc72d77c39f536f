"""accsat-cc's own commands: -h/--help, --version, --stats, --zero-stats, --clear,
--show-config.  They must answer at once: they import nothing of the pipeline."""

from __future__ import annotations

import pytest

from accsat.ccconfig import SETTINGS

from .conftest import imported_by, wrap

HEAVY = (
    "pycparser",
    "egglog",
    "pulp",
    "highspy",
    "numpy",
    "accsat.pipeline",
    "accsat.frontend.load",
    "accsat.egraph",
    "accsat.extract",
    "importlib.metadata",
)


@pytest.mark.parametrize("flag", ["-h", "--help", "--accsat-help"])
def test_help(tmp_path, env, flag):
    r = wrap(tmp_path, env, flag)
    assert r.returncode == 0 and r.stderr == ""
    assert r.stdout.startswith("usage: accsat-cc COMPILER [ARGS...]\n")
    for s in SETTINGS:  # every setting, from the table
        assert f"  {s.env}={s.metavar}" in r.stdout
    for flag in ("--stats", "--zero-stats", "--clear", "--show-config"):
        assert flag in r.stdout


@pytest.mark.parametrize("flag", ["--version", "--accsat-version"])
def test_version(tmp_path, env, flag):
    from accsat import __version__

    r = wrap(tmp_path, env, flag)
    assert (r.returncode, r.stdout) == (0, f"accsat-cc {__version__}\n")


@pytest.mark.parametrize(
    "argv", [["-h"], ["--stats"], ["--zero-stats"], ["--clear"], ["--show-config"], ["--version"]]
)
def test_own_commands_import_nothing_heavy(tmp_path, env, argv):
    rc, modules, _ = imported_by(tmp_path, env, argv)
    assert rc == 0
    assert sorted(m for m in modules if m.startswith(HEAVY)) == []


def test_commands_take_no_arguments(tmp_path, env):
    r = wrap(tmp_path, env, "--stats", "gcc")
    assert (r.returncode, r.stderr) == (2, "accsat-cc: --stats takes no argument (got 'gcc')\n")


def test_commands_on_a_cache_that_is_not_there(tmp_path, env):
    assert "0 entries" in wrap(tmp_path, env, "--stats").stdout
    assert wrap(tmp_path, env, "--clear").stdout.startswith("removed 0 entries")
    (tmp_path / "file").write_text("")
    r = wrap(tmp_path, env, "--zero-stats", ACCSAT_CACHE_DIR=str(tmp_path / "file" / "c"))
    assert r.returncode == 1 and r.stderr.startswith("accsat-cc: --zero-stats: Not a directory")


@pytest.mark.parametrize("command", ["--clear", "--zero-stats"])
def test_a_bad_setting_touches_no_cache(tmp_path, env, command):
    """A broken config file may be what names the cache folder: the default is not cleared."""
    path = tmp_path / "config" / "accsat" / "accsat.toml"
    path.parent.mkdir(parents=True)
    path.write_text("cache_dir = \n")
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "stats.json").write_text('{"hits": 3}\n')
    r = wrap(tmp_path, env, command)
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.startswith(f"accsat-cc: {path}: not a valid TOML file")
    assert (tmp_path / "cache" / "stats.json").read_text() == '{"hits": 3}\n'
