"""Remarks (accsat/remarks.py): one line per kernel that editors and CI log parsers read as a
compiler's diagnostic, with the kernel's file, line and column."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from accsat.cli import main
from accsat.remarks import APPLIED, MISSED, kinds, line, lines, message
from accsat.report import NO_GAIN, KernelReport
from accsat.wrapper.args import remarks_asked

# a CI log parser's problem matcher (GitHub Actions' gcc matchers are of this shape)
CI = re.compile(r"^(.*):(\d+):(\d+):\s+(warning|error|note|remark):\s+(.*)$")
# Emacs's compilation mode, its `gnu' entry of compilation-error-regexp-alist-alist
# (lisp/progmodes/compile.el, Emacs 29) in Python's syntax: file, line, column; a kind
# not named there (remark, as clang's) counts as an error there, yet it is found
EMACS_GNU = re.compile(
    r"^(?:[A-Za-z][-A-Za-z0-9.]+: ?|[ \t]+(?:in |from))?"
    r"(?P<file>[0-9]*[^0-9\n](?:[^\n :]| [^-/\n]|:[^ \n])*?)"
    r": ?(?P<line>[0-9]+)(?:-[0-9]+(?:\.[0-9]+)?|[.:](?P<col>[0-9]+)(?:-(?:[0-9]+\.)?[0-9]+)?)?"
    r":(?: *(?:FutureWarning|RuntimeWarning|Warning|warning|W:)"
    r"| *(?:[Ii]nfo(?:\b|rmationa?l?)|I:|\[ skipping .+ \]|instantiated from|required from"
    r"|[Nn]ote)| *[Ee]rror|[0-9]?(?:[^0-9\n]|$)|[0-9][0-9][0-9])"
)
# Vim's default 'errorformat' first entry for gcc: %f:%l:%c:%m
VIM = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+):(?P<msg>.*)$")


def _kernel(**more) -> dict:
    k = KernelReport("src/x_solve.c", 421, "acc parallel loop", "x_solve", "cse+sat", column=9)
    for key, value in more.items():
        setattr(k, key, value)
    from dataclasses import asdict

    return asdict(k)


def test_a_rewritten_kernel_says_its_figures():
    k = _kernel(status="rewritten", fma=41, loads={"before": 396, "after": 66})
    k["registers"] = {"setting": "keep", "written": 40, "limit": 40, "before": 40,
                      "after": 40, "bound": False}  # fmt: skip
    text = line(k)
    assert text.startswith("src/x_solve.c:421:9: remark: accsat: rewritten (cse+sat): ")
    assert "loads 396 -> 66" in text and "41 FMA" in text
    assert "registers 40 -> 40 (keep: at most 40)" in text


def test_a_kernel_left_as_written_says_why():
    k = _kernel(reason="struct passed by value (line 13)")
    assert line(k) == (
        "src/x_solve.c:421:9: remark: accsat: left as written: struct passed by value (line 13)"
    )
    gain = _kernel(reason=NO_GAIN, no_gain="the cost model finds no cheaper form of the body")
    assert (
        message(gain)
        == "left as written: no gain: the cost model finds no cheaper form of the body"
    )


def test_budgets_reached_and_fp_flags_are_said():
    k = _kernel(status="rewritten", ilp="time-limit")
    k["egraph"]["stop_reason"] = "node-limit"
    text = message(k, fp_note="-ffp-contract=off")
    assert "node limit (--max-nodes, ACCSAT_MAX_NODES)" in text
    assert "time limit (--extract-seconds, ACCSAT_EXTRACT_SECONDS)" in text
    assert text.endswith("floating-point rules (FMA, reassociation) off for -ffp-contract=off")
    assert "floating-point" not in message(dict(k, variant="cse"), fp_note="-ffp-contract=off")


def test_a_register_budget_that_bound_says_what_it_allowed():
    k = _kernel(status="rewritten")
    k["registers"] = {"setting": "keep", "written": 30, "ptxas_written": 38, "limit": 40,
                      "before": 56, "after": 40, "bound": True, "held": 3}  # fmt: skip
    assert "registers 30 -> 40 (keep: at most 40, ptxas 38 as written; 56 unbudgeted, " in (
        message(k)
    )


def test_kinds_select_the_remarks():
    done, left = _kernel(status="rewritten"), _kernel(reason="goto")
    assert lines([done, left], kinds(["missed"])) == [line(left)]
    assert lines([done, left], kinds(["applied"])) == [line(done)]
    assert lines([done, left], kinds(["all"])) == [line(done), line(left)]
    assert lines([done, left], frozenset()) == []


def test_no_column_no_column_field():
    k = _kernel(reason="goto")
    k["column"] = 0
    assert line(k).startswith("src/x_solve.c:421: remark: ")


@pytest.mark.parametrize(
    ("args", "asked"),
    [
        (["-fopt-info"], {APPLIED}),
        (["-fopt-info-missed"], {MISSED}),
        (["-fopt-info-vec-all=opt.txt"], {APPLIED, MISSED}),
        (["-fopt-info-loop-optimized-missed"], {APPLIED, MISSED}),
        (["-Rpass=accsat"], {APPLIED}),
        (["-Rpass=.*"], {APPLIED}),
        (["-Rpass=loop-vectorize"], set()),
        (["-Rpass-missed=acc", "-Rpass-analysis=(unclosed"], {MISSED}),
        (["-Minfo=accel"], {APPLIED, MISSED}),
        (["-Mneginfo"], {MISSED}),
        (["-O2", "-Wall", "-foptimize-sibling-calls"], set()),
    ],
)
def test_the_compilers_own_requests(args, asked):
    assert remarks_asked(args) == asked


def test_the_format_is_read_as_a_diagnostic():
    text = line(_kernel(reason="goto"))
    ci = CI.match(text)
    assert ci and ci.groups()[:4] == ("src/x_solve.c", "421", "9", "remark")
    emacs = EMACS_GNU.match(text)
    assert emacs and (emacs["file"], emacs["line"], emacs["col"]) == ("src/x_solve.c", "421", "9")
    vim = VIM.match(text)
    assert vim and (vim["file"], vim["line"], vim["col"]) == ("src/x_solve.c", "421", "9")


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
def test_read_as_gccs_own_diagnostics_are(tmp_path):
    """gcc's own warning and ours, of the same place, parse alike (file, line, column)."""
    src = tmp_path / "w.c"
    src.write_text("int f(void)\n{\n\tint unused;\n\treturn 0;\n}\n")
    done = subprocess.run(
        ["gcc", "-c", "-Wall", "-fdiagnostics-color=never", "w.c", "-o", "/dev/null"],
        cwd=tmp_path, capture_output=True, text=True, env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    gcc = next(x for x in done.stderr.splitlines() if ": warning: " in x)
    ours = line({"file": "w.c", "line": 3, "column": granted_column(gcc), "reason": "goto"})
    for pattern in (CI, EMACS_GNU, VIM):
        a, b = pattern.match(gcc), pattern.match(ours)
        assert a and b, (pattern.pattern, gcc, ours)
        assert a.groups()[:3] == b.groups()[:3]


def granted_column(gcc_line: str) -> int:
    return int(gcc_line.split(":")[2])


def test_accsat_rewrite_v_says_one_remark_per_kernel(tmp_path):
    src = tmp_path / "k.c"
    src.write_text(
        "void f(int n, double *a, double *b)\n{\n"
        "\t#pragma acc parallel loop\n"
        "\tfor (int i = 0; i < n; i++) { a[i] = b[i] * b[i] + b[i] * b[i]; }\n"
        "  #pragma acc parallel loop\n"
        "  for (int i = 0; i < n; i++) { a[i] = b[i]; goto out; out: ; }\n"
        "}\n"
    )
    res = CliRunner().invoke(main, ["rewrite", "-v", str(src), "-o", str(tmp_path / "o.c")])
    assert res.exit_code == 0, res.output
    said = res.stderr.splitlines()
    assert said == [
        f"{src}:4:9: remark: accsat: rewritten (accsat): loads 4 -> 1, ops 3 -> 2",
        f"{src}:6:3: remark: accsat: left as written: 'goto' statement in the loop body",
    ]
    quiet = CliRunner().invoke(main, ["rewrite", str(src), "-o", str(tmp_path / "o.c")])
    assert quiet.stderr.splitlines() == [
        f"accsat: {src}:6: kernel unchanged: 'goto' statement in the loop body"
    ]
    for remark in said:  # the column is that of the loop's "for"
        where = CI.match(remark)
        assert where
        text = Path(where[1]).read_text().splitlines()[int(where[2]) - 1].expandtabs(8)
        assert text[int(where[3]) - 1 :].startswith("for")


def test_columns_as_gcc_counts_them():
    """The loop's ``for`` (the nth on its line), tabs to the next multiple of 8; a loop a
    macro made: the line's first character; a line the text does not have: 0."""
    from accsat.frontend.source_map import SourceMap

    source = SourceMap("int x;\n\t  for (;;) for (;;) ;\n  LOOP(i) x++;\n")
    assert source.for_column(2, 0, 2) == 11 and source.for_column(2, 1, 2) == 20
    assert source.for_column(3, 0, 1) == 3  # the macro's line
    assert source.for_column(9, 0, 1) == 0
