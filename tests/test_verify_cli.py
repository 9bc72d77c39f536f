"""Translation validation where users meet it: ``accsat rewrite --verify``,
``accsat check`` and ``ACCSAT_VERIFY=1`` in accsat-cc.

A broken rewrite is made on purpose by patching the printer (a constant of the
printed body changed), in-process for the CLI and in the wrapper's own Python
process for accsat-cc; each check must keep the original body and say where.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import accsat.pipeline as pipeline
from accsat.cli import main

KERNEL = Path(__file__).parent / "kernels" / "raw_war_acc.c"
BROKEN_LINE = 32  # the first kernel's for; the second (line 50) stays correct


def _break_first_kernel(monkeypatch) -> None:
    """Make the printer change a constant in the body of the kernel at BROKEN_LINE (and
    turn off the re-read check, which would keep it as written before validation runs:
    this is about validation)."""
    real = pipeline._print

    def broken(kernel, *args, **kw):
        printed = real(kernel, *args, **kw)
        if kernel.line != BROKEN_LINE:
            return printed
        text = printed.text.replace("0.5", "0.25", 1)
        assert text != printed.text
        return dataclasses.replace(printed, text=text)

    monkeypatch.setattr(pipeline, "_print", broken)
    monkeypatch.setattr(pipeline, "reread_check", lambda loaded, results, options: results)


def _body(text: str, line_of_for: int) -> str:
    lines = text.splitlines()
    start = line_of_for  # the line after the for
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("  }"))
    return "\n".join(lines[start:end])


def test_rewrite_verify_passes_a_correct_rewrite(tmp_path):
    report = tmp_path / "r.jsonl"
    res = CliRunner().invoke(
        main, ["rewrite", "--verify", "--variant", "cse", "--report", str(report), str(KERNEL)]
    )
    assert res.exit_code == 0, res.output
    kernels = [json.loads(line) for line in report.read_text().splitlines()]
    assert [k["status"] for k in kernels] == ["rewritten", "rewritten"]
    assert [k["verification"]["verdict"] for k in kernels] == ["pass", "pass"]
    assert all(
        k["verification"]["states_tried"] == 24 + k["verification"]["edge_rounds"]
        and k["verification"]["edge_rounds"] > 0
        for k in kernels
    )
    assert all(k["verification"]["tolerance"] is None for k in kernels)  # cse: bit for bit
    assert all(k["seconds"]["verify"] > 0 for k in kernels)


def test_rewrite_verify_keeps_a_broken_kernel_as_written(monkeypatch):
    _break_first_kernel(monkeypatch)
    plain = CliRunner().invoke(main, ["rewrite", "--variant", "cse", str(KERNEL)])
    assert "0.25 + " in plain.stdout or "* 0.25" in plain.stdout  # the break is there
    res = CliRunner().invoke(main, ["rewrite", "--verify", "--variant", "cse", str(KERNEL)])
    assert res.exit_code == 0
    original = KERNEL.read_text()
    assert _body(res.stdout, BROKEN_LINE) == _body(original, BROKEN_LINE)
    assert res.stdout != original  # the other kernel is still rewritten
    assert re.search(
        rf"{re.escape(str(KERNEL))}:{BROKEN_LINE}: kernel unchanged: the rewrite "
        r"failed verification",
        res.stderr,
    ), res.stderr


def test_check_table_and_exit_status(monkeypatch):
    ok = CliRunner().invoke(
        main, ["check", "--variant", "cse", "--variant", "accsat", "--trials", "8", str(KERNEL)]
    )
    assert ok.exit_code == 0, ok.output
    assert ok.stdout.count(f"{KERNEL}:{BROKEN_LINE}") == 2
    assert "tolerance: double rel" in ok.stdout  # accsat runs fp-changing rules
    rows = [line.split() for line in ok.stdout.splitlines() if line.startswith(str(KERNEL))]
    assert all(int(r[2]) > 8 and r[-1] == "pass" for r in rows), ok.stdout  # + edge rounds
    _break_first_kernel(monkeypatch)
    bad = CliRunner().invoke(main, ["check", "--variant", "cse", str(KERNEL)])
    assert bad.exit_code == 1
    assert re.search(rf"{re.escape(str(KERNEL))}:{BROKEN_LINE}\s.*\sfail$", bad.stdout, re.M)
    assert "failed verification" in bad.stderr


def test_check_bad_input_is_one_line(tmp_path):
    bad = tmp_path / "bad.c"
    bad.write_text("int f(void) { return 1 +; }\n")
    res = CliRunner().invoke(main, ["check", str(bad)])
    assert res.exit_code == 2
    assert res.stderr.count("\n") == 1 and str(bad) in res.stderr


WRAPPED = """\
import dataclasses, sys
import accsat.wrapper.rewrite as rewrite
real_child = rewrite._child
def child(*args, **kwargs):  # runs in the forked child: import the pipeline there, as the wrapper does
    import accsat.pipeline as pipeline
    real = pipeline._print
    def broken(kernel, *a, **kw):
        printed = real(kernel, *a, **kw)
        if kernel.line != {line}:
            return printed
        return dataclasses.replace(printed, text=printed.text.replace("0.5", "0.25", 1))
    pipeline._print = broken
    pipeline.reread_check = lambda loaded, results, options: results  # validation alone
    return real_child(*args, **kwargs)
rewrite._child = child
sys.argv = ["accsat-cc", *sys.argv[1:]]
from accsat.wrapper import main
main()
"""


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
@pytest.mark.parametrize("verify", [False, True])
def test_accsat_cc_verify(tmp_path, verify):
    """With a broken printer, ACCSAT_VERIFY=1 compiles the broken kernel as written."""
    src = tmp_path / "k.c"
    shutil.copy(KERNEL, src)
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACCSAT_")}
    # no compile server: the broken printer is patched into this process's child
    env.update(
        ACCSAT_CACHE="0",
        ACCSAT_VARIANT="cse",
        ACCSAT_VERIFY="1" if verify else "0",
        ACCSAT_SERVER="0",
    )
    flags = ["-O1", "-ffp-contract=off", "-fopenacc", "-foffload=disable"]
    ref = subprocess.run(["gcc", *flags, str(src), "-o", str(tmp_path / "ref")], check=True)
    wrapped = subprocess.run(
        [
            sys.executable,
            "-c",
            WRAPPED.format(line=BROKEN_LINE),
            "gcc",
            *flags,
            str(src),
            "-o",
            str(tmp_path / "acc"),
        ],
        env=env,
        capture_output=True,
        text=True,
    )
    assert ref.returncode == 0 and wrapped.returncode == 0, wrapped.stderr
    same = (
        subprocess.run([str(tmp_path / "ref")], capture_output=True).stdout
        == subprocess.run([str(tmp_path / "acc")], capture_output=True).stdout
    )
    assert same == verify
    said = f"{src}:{BROKEN_LINE}: the rewrite failed verification"
    assert (said in wrapped.stderr) == verify
