"""Configurations with a register budget (``cse@keep``) and the ``auto`` budget."""

from __future__ import annotations

import pytest

from accsat.options import Options, check_config, split_config


@pytest.mark.parametrize(
    "config, parts",
    [("cse", ("cse", None)), ("cse@keep", ("cse", "keep")), ("accsat@64", ("accsat", 64))],
)
def test_a_config_is_a_variant_and_maybe_a_budget(config, parts):
    assert split_config(config) == parts


@pytest.mark.parametrize("config", ["fast", "cse@", "cse@many", "cse@0", "@keep", "cse@auto"])
def test_an_unknown_config_is_one_line_naming_the_choices(config):
    with pytest.raises(ValueError) as exc:
        check_config(config)
    assert "\n" not in str(exc.value) and "cse@keep" in str(exc.value)


def test_a_kernels_config_sets_its_variant_and_budget_and_keeps_the_rest():
    options = Options(variant="accsat", registers="any", fp_exact=True)
    assert options.for_config("accsat") is options
    cse = options.for_config("cse@keep")
    assert (cse.variant, cse.registers, cse.fp_exact) == ("cse", "keep", True)
    assert options.for_config("cse").registers == "any"  # the build's own budget


def test_auto_is_keep_for_gpu_code_and_any_elsewhere():
    assert Options().registers == "auto"
    assert Options().for_target(gpu=True).registers == "keep"
    assert Options().for_target(gpu=False).registers == "any"
    assert Options(registers=64).for_target(gpu=True).registers == 64  # said: kept
