"""The settings table: parsing, the config file, the environment over it, --show-config."""

from __future__ import annotations

import math

import pytest

from accsat import ccconfig as config
from accsat.ccconfig import SETTINGS, Config, read_settings
from accsat.options import Options
from accsat.settings import NO_LIMIT, STAGES, declared

from .conftest import wrap


@pytest.fixture
def home(tmp_path, monkeypatch):
    """No config file and no ACCSAT_* variable of the caller's."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    for s in SETTINGS:
        monkeypatch.delenv(s.env, raising=False)
    return tmp_path


def write_config(home, text: str):
    path = home / "config" / "accsat" / "accsat.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_every_setting_has_a_sane_default(home):
    for s in SETTINGS:
        assert s.env == "ACCSAT_" + s.name.upper() and s.help and s.stage in STAGES
        value = s.default_value()
        if value is not None:  # the default is a value the setting's parser accepts
            raw = value if isinstance(value, (bool, int, str, tuple)) else str(value)
            assert s.parse(raw) == value
    cfg = Config.from_env({})
    assert (cfg.cache_dir, cfg.cache_max, cfg.timeout) == (home / ".cache" / "accsat", 10**9, 300)
    assert cfg.rewrite_settings == Options()  # every rewrite setting at accsat rewrite's default


def test_the_wrapper_reaches_every_rewrite_setting():
    """accsat-cc reads every setting accsat rewrite takes as an option, by the same name."""
    assert {s.name for s in declared(Options)} <= {s.name for s in SETTINGS}
    assert {
        "fp_exact",
        "rules",
        "cost_model",
        "extract_gap",
        "extract_seconds",
        "max_nodes",
        "fma_call",
        "registers",
    } <= {s.name for s in SETTINGS}


@pytest.mark.parametrize(
    "raw, seconds",
    [("inf", NO_LIMIT), ("1e300", NO_LIMIT), ("2.5", 2.5), ("Infinity", NO_LIMIT), (" 7 ", 7.0)],
)
def test_timeout_accepts_no_limit(raw, seconds):
    assert config.parse_seconds(raw) == seconds
    assert config.parse_seconds(math.inf) == NO_LIMIT  # as TOML's inf


@pytest.mark.parametrize("raw", ["nan", "-1", "0", "", "soon", "-inf", True])
def test_timeout_refuses_nan_and_negatives(raw):
    with pytest.raises(ValueError, match="positive number of seconds"):
        config.parse_seconds(raw)


@pytest.mark.parametrize(
    "raw, size",
    [
        ("500M", 500 * 10**6),
        ("2G", 2 * 10**9),
        ("1Gi", 2**30),
        ("0", 0),
        ("1.5G", 1_500_000_000),
        ("64k", 64_000),
        ("10MB", 10**7),
        (4096, 4096),
    ],
)
def test_sizes(raw, size):
    assert config.parse_size(raw) == size


@pytest.mark.parametrize("raw", ["lots", "-1G", "2X", "", -5, 1.5, True, "0.1", "0.5b"])
def test_bad_sizes(raw):
    with pytest.raises(ValueError, match="is not a size"):
        config.parse_size(raw)


@pytest.mark.parametrize("raw", ["2", "maybe", "", 3, "yes please"])
def test_bad_yes_no(raw):
    with pytest.raises(ValueError, match="yes/no"):
        config.parse_bool(raw)


def test_file_then_environment(home):
    path = write_config(
        home, 'variant = "cse"\ntimeout = inf\ncache_max = "2G"\nverify = true\ncache_dir = "~/c"\n'
    )
    got = read_settings(
        {"ACCSAT_VARIANT": "cse+bulk", "ACCSAT_VERBOSE": "on", "ACCSAT_LOG": ""}
    )  # empty: unset
    assert got.problems == ()
    assert got.values["variant"] == "cse+bulk" and got.origins["variant"] == "environment"
    assert got.values["timeout"] == NO_LIMIT and got.origins["timeout"] == str(path)
    assert got.values["cache_max"] == 2 * 10**9 and got.values["verify"] is True
    assert got.values["cache_dir"] == home / "c"
    assert got.values["verbose"] is True and got.values["log"] is None
    assert got.origins["log"] == "default"


def test_bad_file_values_name_the_file_and_key(home):
    path = write_config(home, "verify = 2\nverbos = true\n[cache]\nmax = 1\n")
    got = read_settings({})
    assert sorted(got.problems) == sorted(
        [
            f"{path}: unknown setting 'verbos' (settings: {', '.join(s.name for s in SETTINGS)})",
            f"{path}: verify = 2 is not a yes/no value (1, yes, true, on / 0, no, false, off)",
            f"{path}: cache = {{'max': 1}} is not a yes/no value (1, yes, true, on / 0, no, false, off)",
        ]
    )
    assert got.values["verify"] is False  # the default stays


def test_a_broken_file_is_one_line(home):
    path = write_config(home, "variant = \n")
    (problem,) = read_settings({}).problems
    assert problem.startswith(f"{path}: not a valid TOML file: ") and "\n" not in problem


def test_cache_off_means_no_cache_folder(home):
    cfg = Config.from_env({"ACCSAT_CACHE": "0", "ACCSAT_CACHE_DIR": str(home / "x")})
    assert cfg.cache_dir is None and cfg.settings.values["cache_dir"] == home / "x"


def test_show_config_lists_every_setting_and_where_it_came_from(tmp_path, env):
    path = tmp_path / "config" / "accsat" / "accsat.toml"
    path.parent.mkdir(parents=True)
    path.write_text('cache_max = "2G"\ntimeout = inf\n')
    r = wrap(tmp_path, env, "--show-config", ACCSAT_VERIFY="yes")
    assert r.returncode == 0 and r.stderr == ""
    out = r.stdout.splitlines()
    assert out[0] == f"config file: {path}"
    rows = {line.split()[0]: line.split() for line in out[2:]}
    assert set(rows) == {s.name for s in SETTINGS}
    assert rows["cache_max"][1:] == ["ACCSAT_CACHE_MAX", "2G", "config", "file"]
    assert rows["timeout"][2:] == ["inf", "(no", "limit)", "config", "file"]
    assert rows["verify"][2:] == ["true", "environment"]
    assert rows["variant"][2:] == ["cse", "environment"]
    assert rows["strict"][2:] == ["false", "default"]
    bad = wrap(tmp_path, env, "--show-config", ACCSAT_CACHE_MAX="huge")
    assert bad.returncode == 1
    assert bad.stderr == (
        "accsat-cc: ACCSAT_CACHE_MAX='huge' is not a size (such as 500M, 2G, 1Gi; 0: unlimited)\n"
    )
