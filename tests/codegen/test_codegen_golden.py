"""Golden tests of the code generator: a kernel body in, the printed body out, per variant.

Each case is a small file with one OpenACC kernel. The stages run as the
pipeline chains them (front end, ``build_ssa``, ``saturate``, greedy
``extract``), then the code generator alone (``Program``, ``make_plan``,
``BodyPrinter``), for the variants ``cse``, ``cse+bulk`` and ``accsat``; the
printed bodies must equal ``golden/<case>.c``, where a variant whose output is
the previous one's is written "same as ...". Every printed body is put back into
its file and compiled with ``gcc -fsyntax-only``.

Regenerate after an intended change, then read every diff before committing:

    ACCSAT_UPDATE_GOLDEN=1 pytest tests/ssa tests/codegen
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from functools import cache
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "ssa"))
from stage_helpers import Loaded, Options, check_golden, load_file  # noqa: E402

from accsat.codegen.layout import layout  # noqa: E402
from accsat.codegen.placement import make_plan  # noqa: E402
from accsat.codegen.printer import BodyPrinter, Printed, temp_prefix  # noqa: E402
from accsat.codegen.program import Program  # noqa: E402
from accsat.egraph.rules import rulesets_for  # noqa: E402
from accsat.egraph.saturate import saturate  # noqa: E402
from accsat.extract import ExtractConfig, extract, load_cost_model  # noqa: E402
from accsat.extract.costs import constants_free, preferring  # noqa: E402
from accsat.frontend.source_map import BodySpan  # noqa: E402

# the pipeline's glue between the stages (indentation, temporaries' types)
from accsat.pipeline import (  # noqa: E402
    _class_types,
    _indentation,
    _op_cost,
    _written,
    rewrite_file,
)
from accsat.ssa.statements import build_ssa  # noqa: E402

GOLDEN = Path(__file__).parent / "golden"
# cse+sat prints like cse or accsat on these small bodies: three variants show every printer path
VARIANTS = ("cse", "cse+bulk", "accsat")
GCC = shutil.which("gcc")

HEADER = """\
#include <math.h>
double a[64], b[64], c[64], d[64], e[64], m[8][8];
float f[64];
int ix[64];
double g(double);
void k(int n, double s, float q, double *p)
{
  int i, j;
  double t, u;
"""

# name: (file text, what the case shows). A file has exactly one kernel.
CASES = {
    "shared_temps": (
        HEADER
        + """\
#pragma acc parallel loop
  for (i = 0; i < n; i++) {
    c[i] = (a[i] + b[i]) * (a[i] + b[i]);
    d[i] = s * (a[i] + b[i]) + a[i];
  }
}
""",
        "a value used three times goes to one temporary, before its first use",
    ),
    "bulk_order": (
        HEADER
        + """\
#pragma acc parallel loop
  for (i = 0; i < n; i++) {
    c[i] = b[i] * s;
    d[i] = a[i + 1] * s + e[i];
    t = a[i] + b[i + 1];
    e[i] = t;
    d[i + 1] = e[i + 1] + p[i] + a[i + 2];
  }
}
""",
        "bulk load hoists a load to the first point its inputs exist when that moves it above "
        "a store (b[i], used before any store, stays), loads at one point sorted by array and "
        "index; e[i + 1] moves above the store to e[i] (no overlap), p[i] may not move above "
        "any store (p may point anywhere); index arithmetic (i + 1) is never a temporary",
    ),
    "unbraced": (
        """\
double a[64], c[64];
void k(int n)
{
  int i;
#pragma acc parallel loop
  for (i = 0; i < n; i++)
    c[i] = a[i] * a[i] + a[i] * a[i];
}
""",
        "an unbraced body on a line of its own gets braces at the body's indent; accsat "
        "prints what cse prints (an fma alone does not pay: a + b * c is an add and a "
        "multiply in C)",
    ),
    "unbraced_same_line": (
        """\
double a[64], c[64];
void k(int n)
{
  int i;
#pragma acc parallel loop
  for (i = 0; i < n; i++) c[i] = (a[i] + 1.0) * (a[i] + 1.0);
}
""",
        "an unbraced body on the for's line",
    ),
    "declarations": (
        HEADER
        + """\
#pragma acc parallel loop
  for (i = 0; i < n; i++) {
    double w = a[i] * s;
    double z;
    int kk = ix[i];
    z = a[i] * s + b[kk];
    c[i] = z * w;
  }
}
""",
        "declarations stay where they were (with and without initialiser); cse reads the "
        "user's variable w instead of recomputing a[i] * s; accsat fuses b[kk] + s * a[i] "
        "into an fma instead (same cost as reading w, then one add)",
    ),
    "nothing_shared": (
        HEADER
        + """\
#pragma acc parallel loop
  for (i = 0; i < n; i++) {
    c[i] = a[i] + b[i];
    d[i] = a[i + 1] * s;
  }
}
""",
        "nothing to share: cse prints the body as written; bulk load moves a[i + 1] above the "
        "store to c[i], the statement that did not change is printed as written",
    ),
    "if_else": (
        HEADER
        + """\
#pragma acc parallel loop
  for (i = 0; i < n; i++) {
    if (a[i] > 0.0) {
      c[i] = a[i] * b[i] + a[i] * b[i];
      t = b[i];
    } else {
      c[i] = 0.0;
      t = -b[i];
    }
    d[i] = t * b[i];
  }
}
""",
        "a[i] is one temporary before the if, used in the condition and the then branch; "
        "a[i] * b[i] shared inside the then branch; bulk load hoists the "
        "b[i] after the if above it, but the branches load b[i] again (their loads are "
        "other terms, pinned to the branches)",
    ),
    "inner_loop": (
        HEADER
        + """\
#pragma acc parallel loop
  for (i = 0; i < n; i++) {
    u = 0.0;
    for (j = 0; j < 8; j++) {
      u += m[j][i] * (a[i] * s) + m[j][i];
    }
    c[i] = u * (a[i] * s);
  }
}
""",
        "an inner sequential loop printed with its header as written, u += kept; "
        "m[j][i] shared inside the loop body; a[i] is loaded in the body each iteration "
        "(a load pinned to the loop body); bulk load moves nothing above a store",
    ),
    "guards": (
        HEADER
        + """\
#pragma acc parallel loop
  for (i = 0; i < n; i++) {
    c[i] = ix[i] != 0 ? (double)(100 / ix[i]) + 100 / ix[i] : 0.0;
    t = s / a[i];
    d[i] = a[i] != 0.0 && s / a[i] > b[i];
    e[i] = t;
  }
}
""",
        "an integer division in a ?: branch may trap: it stays in the branch, printed twice "
        "(no temporary inside an expression); a double division is computed once and t is "
        "read inside the && operand",
    ),
    "calls": (
        HEADER
        + """\
#pragma acc parallel loop
  for (i = 0; i < n; i++) {
    c[i] = sqrt(a[i]) * sqrt(a[i]) + g(a[i]);
    d[i] = g(b[i]) + sqrt(a[i]);
  }
}
""",
        "impure calls first, each once, in order, their results in temporaries; sqrt(a[i]) "
        "after g() computed once, but computed again after the second g(), which may "
        "change a",
    ),
    "mixed_types": (
        HEADER
        + """\
#pragma acc parallel loop
  for (i = 0; i < n; i++) {
    f[i] = q * f[i] * (q * f[i]);
    c[i] = (double)(ix[i] / 3) + (double)(ix[i] / 3) * s;
  }
}
""",
        "temporaries declared with the value's type (float, double, int)",
    ),
    "fma": (
        HEADER
        + """\
#pragma acc parallel loop
  for (i = 0; i < n; i++) {
    c[i] = a[i] * b[i] + s;
    d[i] = s + b[i] * a[i];
  }
}
""",
        "accsat's rules (commutativity) find s + b[i] * a[i] == a[i] * b[i] + s: one "
        "temporary (an fma); cse shares only the loads",
    ),
    "as_written": (
        """\
#define NC 4
#define SQ(x) ((x) * (x))
typedef double real;
real a[64], b[64], c[64], d[64];
int ix[64];
void k(int n, real s)
{
  int i, m;
#pragma acc parallel loop
  for (i = 0; i < n; i++) {
    /* the square */
    c[i] = SQ(a[i]);   // macro
    if (a[i] > 0.0)
      d[i] = b[i] * 2;
    else {
      d[i] = 0;  /* zero */
    }
    for (m = 0; m < NC; m++)
      c[i] += b[i] * 0.5;
    real w = a[i] * s + a[i] * s;
    d[i] += w;
  }
}
""",
        "statements whose computation did not change print as written (macro, comments, "
        "unbraced branch, loop header with its macro bound, literal 2); changed ones keep "
        "their comments, their declared type (real) and their compound assignment (+=)",
    ),
    "identities": (
        HEADER
        + """\
#pragma acc parallel loop
  for (i = 0; i < n; i++) {
    ix[i] = ix[i + 32 * 2 - 64] * 1 + (j - j) + n * 0;
    c[i] = a[i] * 1.0 + b[i] / 1.0 + (s + 0.0) + a[i] * 0.0;
  }
}
""",
        "integer identities and constant sub-products fold in every variant (index "
        "arithmetic included), x * 1.0 and x / 1.0 too; x + 0.0 and x * 0.0 stay (not exact "
        "in IEEE arithmetic)",
    ),
}

LINE_FILE = 'dir with space/my "k".c'


@cache
def _cost():
    return load_cost_model("paper")


def _write(tmp_path: Path, text: str, name: str = "k.c") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def _kernel(loaded: Loaded):
    assert len(loaded.kernels) == 1
    kernel = loaded.kernels[0]
    assert isinstance(kernel.span, BodySpan), kernel.span
    return kernel


def print_body(loaded: Loaded, options: Options) -> Printed:
    """The kernel's body through the stages, as the pipeline chains them (greedy extraction)."""
    kernel = _kernel(loaded)
    cost = _cost()
    ssa = build_ssa(kernel, loaded.symbols, _op_cost(cost), loaded.defined)
    sat = saturate(ssa.terms, ssa.roots, rulesets_for(options), options.limits)
    roots = [sat.class_of[r] for r in ssa.roots]
    prices = preferring(constants_free(cost, sat.egraph), _written(ssa, sat), sat.egraph)
    ext = extract(sat.egraph, roots, prices, ExtractConfig(use_ilp=options.use_ilp))
    program = Program(ssa)
    plan = make_plan(program, ext.choice, sat.class_of, options.bulk)
    indent, unit = _indentation(kernel, loaded.source)
    printer = BodyPrinter(
        program,
        plan,
        _class_types(ssa, sat),
        temp_prefix(loaded.source),
        options.fma_call,
        indent,
        unit,
        options.line_directives,
        cost,
        layout(loaded.source, kernel.span, kernel.loop.stmt),
    )
    return printer.body()


def spliced(loaded: Loaded, body: str) -> str:
    span = _kernel(loaded).span
    return loaded.text[: span.start] + body + loaded.text[span.end :]


def syntax_check(text: str, tmp_path: Path) -> None:
    if GCC is None:
        pytest.skip("gcc not found: no compile check")
    path = tmp_path / "check.c"
    path.write_text(text)
    proc = subprocess.run(
        [
            GCC,
            "-fsyntax-only",
            "-Wall",
            "-Werror",
            "-Wno-unknown-pragmas",
            "-Wno-unused-variable",
            "-Wno-unused-but-set-variable",
            str(path),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, f"gcc rejects the printed body:\n{proc.stderr}\n{text}"


def _render(case: str, text: str, about: str, bodies: dict[str, Printed]) -> str:
    """The case, its input from the kernel's directive on, and each variant's body with its
    counts (what the report records); a variant printing what the previous one printed
    is only named."""
    out = [f"// case {case}:"]
    out += [f"//   {line}" for line in textwrap.wrap(about, 90)]
    lines = text.splitlines()
    first = next(n for n, line in enumerate(lines) if line.startswith("#pragma acc"))
    out.append(f"// input (from line {first + 1}):")
    out += [f"//   {line}".rstrip() for line in lines[first:]]
    previous = None
    for variant, printed in bodies.items():
        if previous is not None and printed.text == bodies[previous].text:
            out.append(f"// ---- {variant}: same as {previous}")
            continue
        c = printed.counts
        out.append(
            f"// ---- {variant}: loads {c.loads} ops {c.ops} fma {c.fma} "
            f"temporaries {printed.temps}"
        )
        out.append(printed.text)
        previous = variant
    return "\n".join(out) + "\n"


def _options(variant: str, **kw) -> Options:
    return Options(variant=variant, use_ilp=False, **kw)


@pytest.mark.parametrize("case", sorted(CASES))
def test_codegen_golden(case, tmp_path):
    text, about = CASES[case]
    loaded = load_file(_write(tmp_path, text))
    bodies = {v: print_body(loaded, _options(v)) for v in VARIANTS}
    check_golden(GOLDEN / f"{case}.c", _render(case, text, about, bodies))
    for body in dict.fromkeys(p.text for p in bodies.values()):
        syntax_check(spliced(loaded, body), tmp_path)


def test_unchanged_body_is_the_input(tmp_path):
    """With nothing to share, cse prints the user's text, byte for byte."""
    loaded = load_file(_write(tmp_path, CASES["nothing_shared"][0]))
    span = _kernel(loaded).span
    assert print_body(loaded, _options("cse")).text == loaded.text[span.start : span.end]


def test_line_directives(tmp_path):
    """#line before each statement of another line, naming the file as given (escaped)."""
    text, about = CASES["if_else"]
    loaded = load_file(_write(tmp_path, text))
    printed = print_body(loaded, _options("cse+bulk", line_directives=LINE_FILE))
    check_golden(
        GOLDEN / "line_directives.c",
        _render(
            "line_directives",
            text,
            f"case if_else with line_directives={LINE_FILE!r}",
            {"cse+bulk": printed},
        ),
    )
    # the directives are the only difference
    plain = print_body(loaded, _options("cse+bulk")).text
    assert "\n".join(x for x in printed.text.splitlines() if not x.startswith("#line ")) == plain
    syntax_check(spliced(loaded, printed.text), tmp_path)


def test_line_directives_in_file(tmp_path):
    """rewrite_file: #line 1 first, then the body, then the lines after it renumbered."""
    text = CASES["shared_temps"][0]
    out = rewrite_file(
        _write(tmp_path, text, "my k.c"), _options("cse", line_directives="my k.c")
    ).text
    escaped = '"my k.c"'
    assert out.startswith(f"#line 1 {escaped}\n")
    lines = out.splitlines()
    # the kernel's closing brace was line 14 of the input; line 15 ("}") follows
    close = next(n for n, line in enumerate(lines) if line == "  }")
    assert lines[close + 1] == f"#line 15 {escaped}"
    assert lines[close + 2] == "}"
    assert lines[1:10] == text.splitlines()[:9]  # untouched before the kernel
    syntax_check(out, tmp_path)


@pytest.mark.parametrize("variant", VARIANTS)
def test_stages_match_rewrite_file(variant, tmp_path):
    """The stage calls above are the pipeline's: rewrite_file splices the same bodies."""
    for case in ("shared_temps", "bulk_order", "unbraced", "declarations", "guards"):
        path = _write(tmp_path, CASES[case][0], f"{case}.c")
        options = _options(variant)
        expected = spliced(load_file(path), print_body(load_file(path), options).text)
        result = rewrite_file(path, options)
        if result.kernels[0].reason == "no gain":  # and so left as written
            expected = CASES[case][0]
        assert result.text == expected, case


def test_unsupported_kernel_left_unchanged(tmp_path):
    """A kernel the SSA refuses (goto) is left as written, and the file is byte-identical."""
    text = (
        HEADER
        + """\
#pragma acc parallel loop
  for (i = 0; i < n; i++) {
    c[i] = a[i] * a[i] + a[i] * a[i];
    if (c[i] > s) goto out;
    d[i] = c[i];
  out:;
  }
}
"""
    )
    result = rewrite_file(_write(tmp_path, text), _options("accsat"))
    assert result.text == text
    [report] = result.kernels
    assert (report.status, report.reason) == (
        "unchanged",
        "'goto' statement in the loop body (line 13)",
    )


def test_syntax_check_catches_errors(tmp_path):
    """The compile check is not vacuous: a broken body fails it."""
    if GCC is None:
        pytest.skip("gcc not found")
    loaded = load_file(_write(tmp_path, CASES["nothing_shared"][0]))
    with pytest.raises(AssertionError, match="gcc rejects"):
        syntax_check(spliced(loaded, "{\n    c[i] = a[i] +;\n  }"), tmp_path)
