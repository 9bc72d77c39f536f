"""accsat-cc reaches every rewrite setting: with ``ACCSAT_<NAME>=VALUE`` the source it
compiles (ACCSAT_KEEP) is what ``accsat rewrite --<name> VALUE`` prints, one test per
declared setting (accsat.settings over accsat.options.Options)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from accsat.ccconfig import Config
from accsat.cli import main
from accsat.options import Options
from accsat.settings import Setting, declared

from .conftest import ACC, needs_gcc, wrap

# FMA and float reassociation, loads to share, sums to reorder, products whose sharing
# greedy misses (the last line: the ILP shares d[i - 1] * s): every setting below that
# can change a rewrite changes this one's
KERNEL = """\
#include <math.h>
double a[64], b[64], c[64], d[64];
void kern(int n, double s)
{
#pragma acc parallel loop
  for (int i = 1; i < n - 1; i++) {
    double t = a[i] * b[i] + c[i] * d[i] + a[i - 1] * s;
    b[i] = t * s + a[i] * c[i] + d[i + 1] * s + a[i] * b[i];
    c[i] = (a[i] + b[i - 1]) * (a[i] + b[i - 1]) + t;
    a[i] = d[i - 1] * d[i - 1] * s + d[i - 1] * c[i] * s + (c[i] + s) * d[i - 1] * s;
  }
}
"""
# a fused multiply-add costs a hundred additions: the fewest of them win
DEAR_FMAS = 'name = "dear-fmas"\ndefault = 10.0\n[ops]\nConst = 0.0\nVar = 1.0\nFma = 1000.0\n'

# A value other than the default for every rewrite setting, and whether it changes the
# rewrite of KERNEL (None: it may or may not, e.g. a register budget before the code
# that reads it; the test then checks only that accsat-cc and accsat agree).
EXAMPLES: dict[str, tuple[str, bool | None]] = {
    "variant": ("cse", True),
    "rules": ("comm,fma", True),
    "disable_rule": ("fma", True),
    "fp_exact": ("1", True),
    "declarations_first": ("1", True),
    "fma_call": ("1", True),
    "cost_model": ("@dear-fmas.toml", True),
    "max_nodes": ("50", True),
    "max_iterations": ("1", True),
    "saturation_seconds": ("0.000001", True),  # stops before the first iteration
    # a limit this kernel does not reach: a process's growth depends on what it freed
    # before (a fresh accsat and a compile server's child stop at different iterations)
    "saturation_memory": ("4096", False),
    "extract_seconds": ("0", True),  # no time for the ILP: greedy's choice
    "extract_stall": ("0", False),  # this kernel's ILP ends with a proof at once
    "extract_gap": ("0", None),  # the proven optimum may be another of equal cost
    "solver": ("cbc", None),  # another optimum of the same cost, or the same one
    "ilp": ("0", True),
    "registers": ("keep", None),
    "typecheck": ("0", False),  # the compiler agrees: the same rewrite, unchecked
    "verify": ("1", False),  # the rewrite passes
    "trials": ("3", False),
    "helper": ("0", False),  # one process: the same file
    "remarks": ("missed", False),  # says nothing of KERNEL, which is rewritten
    "record": ("@records.jsonl", False),
}
REWRITE = [s for s in declared(Options) if s.option]
_LINE = re.compile(r'^#line \d+ ".*"\n', re.MULTILINE)


def test_every_rewrite_setting_has_an_example():
    assert sorted(EXAMPLES) == sorted(s.name for s in REWRITE)
    for s in REWRITE:
        value = s.parse(_value(s, EXAMPLES[s.name][0], Path("/models")))
        assert value != s.default, f"{s.name}: the example is the default"


def _value(s: Setting, raw: str, folder: Path) -> str:
    return str(folder / raw[1:]) if raw.startswith("@") else raw


def _cli_args(s: Setting, value: str) -> list[str]:
    if s.is_flag:
        return [s.flag] if s.parse(value) else ["--no-" + s.flag[2:]]
    return [s.flag, value]


def _rewrite(path: Path, args: list[str]) -> str:
    res = CliRunner().invoke(main, ["rewrite", str(path), "--no-openmp", *args])
    assert res.exit_code == 0, res.output
    return res.stdout


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("reach")
    (folder / "k.c").write_text(KERNEL)
    (folder / "dear-fmas.toml").write_text(DEAR_FMAS)
    return folder


@pytest.fixture(scope="module")
def default_text(folder) -> str:
    return _rewrite(folder / "k.c", [])


@needs_gcc
@pytest.mark.parametrize("s", REWRITE, ids=lambda s: s.env)
def test_accsat_cc_compiles_what_accsat_rewrite_prints(s, folder, default_text, env, tmp_path):
    raw, changes = EXAMPLES[s.name]
    value = _value(s, raw, folder)
    expected = _rewrite(folder / "k.c", _cli_args(s, value))
    if changes is not None:
        assert (expected != default_text) == changes, f"{s.flag} {value}"
    keep = tmp_path / "keep"
    settings = {"ACCSAT_VARIANT": "", "ACCSAT_KEEP": str(keep)}  # the default variant...
    settings[s.env] = value  # ...but for this setting
    r = wrap(folder, env, "gcc", "-c", *ACC, "k.c", "-o", str(tmp_path / "k.o"), **settings)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    kept = keep / (folder / "k.c").relative_to("/")
    if expected == KERNEL:  # nothing rewritten: accsat-cc compiles the file as written
        assert not kept.exists()
        return
    assert _LINE.sub("", kept.read_text()) == expected


@pytest.mark.parametrize("s", REWRITE, ids=lambda s: s.env)
def test_each_rewrite_setting_reaches_the_rewrite_from_the_environment(s, folder):
    """What accsat-cc reads: its example gives other Options than none (for the settings
    whose example changes no output here, saturation_memory's among them)."""
    value = _value(s, EXAMPLES[s.name][0], folder)
    assert Config.from_env({s.env: value}).rewrite_settings != Config.from_env({}).rewrite_settings
