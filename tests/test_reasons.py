"""Every reason a kernel is left as written is in the user's words and true (issue 38).

Two walks: every ``Unsupported(...)`` the package raises is read from its source (a
refusal added later is checked too) for internal names (pycparser's node classes,
``type(node).__name__``); and a corpus of small kernels, each refused for one cause,
is rewritten end to end: the reason names that cause, and its line the construct's.
"""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest
from pycparser import c_ast

from accsat.options import Options
from accsat.pipeline import rewrite_file

ROOT = Path(__file__).resolve().parent.parent / "accsat"
# pycparser's node classes: a reason never names one (it names the construct)
NODE_NAMES = sorted(
    name
    for name, cls in vars(c_ast).items()
    if inspect.isclass(cls) and issubclass(cls, c_ast.Node) and cls is not c_ast.Node
)
INTERNAL = re.compile(r"\b(" + "|".join(NODE_NAMES) + r")\b|__name__|c_ast")


def _called(func: ast.expr) -> str:
    """``Unsupported`` of ``Unsupported(...)`` and of ``ct.Unmodelled(...)``."""
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


# a reason carried by an unmodelled type (``ct.Unmodelled(why, ...)``, checked as a
# refusal itself) is raised again as ``t.why`` or a ``why`` taken from it; a type's
# refusal (``exc.reason``) is kept as its type's
CARRIED = re.compile(r"^(why|[\w.]+\.why|exc\.reason)$")


def refusals() -> list[tuple[str, ast.Call]]:
    """Every ``Unsupported(...)`` call in the package, with where it is."""
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and _called(node.func) in ("Unsupported", "Opaque", "Unmodelled")
                and node.args
            ):
                found.append((f"{path.relative_to(ROOT.parent)}:{node.lineno}", node))
    return found


def test_refusals_are_found():
    assert len(refusals()) > 40


@pytest.mark.parametrize(("where", "call"), refusals(), ids=[w for w, _ in refusals()])
def test_no_refusal_says_an_internal_name(where, call):
    reason = call.args[0]
    if isinstance(reason, ast.Call) and ast.unparse(reason) == "str(exc)":
        return  # a message of the parsers of literals, checked by the corpus below
    if CARRIED.match(ast.unparse(reason)):
        return
    assert isinstance(reason, (ast.Constant, ast.JoinedStr, ast.Call)), ast.unparse(reason)
    text = ast.unparse(reason)
    assert not INTERNAL.search(text), f"{where}: {text}"


PRELUDE = """\
#include <complex.h>
struct p { double x, y; };
struct bits { unsigned f : 3; int g; };
double norm(struct p q);
int g(int);
volatile double vol;
double a[64], b[64];
int ix[64];
void k(int n, double *x, struct p *ps, double complex *z, double (*fp)(double),
       struct bits *bs)
{
  int j;
  g(*&j);
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
"""
# (name, body: its line with the construct marked /*HERE*/, what the reason says)
CORPUS = [
    ("goto", "a[i] = b[i]; /*HERE*/ goto out;\n    out:;", "'goto' statement in the loop body"),
    ("switch", "/*HERE*/ switch (ix[i]) { case 0: a[i] = 1.0; break; default: a[i] = b[i]; }",
     "'switch' statement in the loop body"),
    ("return", "if (a[i] > 0.0) /*HERE*/ return;\n    a[i] = b[i];",
     "'return' statement in the loop body"),
    ("volatile", "a[i] = /*HERE*/ vol * b[i];", "volatile variable 'vol'"),
    ("hides", "/*HERE*/ double n = a[i];\n    a[i] = n * n + b[i];",
     "declaration of 'n' hides another variable"),
    ("static", "/*HERE*/ static double t;\n    t = a[i];\n    a[i] = t;",
     "'static' declaration inside the loop body"),
    ("string init", "/*HERE*/ char s[4] = \"abc\";\n    a[i] = s[ix[i]] * b[i];",
     "a char array initialised by a string literal"),
    ("bit-field struct copy", "/*HERE*/ struct bits q = bs[i];\n    a[i] = q.g;",
     "a struct with the bit-field 'f' copied or initialised"),
    ("typedef", "/*HERE*/ typedef double real;\n    a[i] = b[i];", "typedef inside the loop body"),
    ("type declaration", "/*HERE*/ struct q { int z; };\n    a[i] = b[i];",
     "type declaration inside the loop body"),
    ("statement expression", "a[i] = /*HERE*/ ({ double t = a[i]; t * t; }) + b[i];",
     "a statement expression ({ ... })"),
    ("complex declared", "/*HERE*/ double complex w = z[i];\n    a[i] = b[i];",
     "'w' is declared with complex type 'double _Complex'"),
    ("complex", "a[i] = /*HERE*/ creal(z[i]) + b[i];",
     "call of 'creal', declared with complex type 'double _Complex'"),
    ("function pointer", "a[i] = /*HERE*/ fp(b[i]);", "call through the function pointer 'fp'"),
    ("bit-field store", "/*HERE*/ bs[i].f = ix[i];\n    a[i] = b[i];",
     "store to the bit-field 'f'"),
    ("pragma", "a[i] = b[i];\n#pragma omp single /*HERE*/\n    b[i] = a[i];",
     "'#pragma omp single' inside the loop body"),
    ("declaration in #if", "#ifndef EXTRA /*HERE*/\n    double t = a[i];\n#endif\n    a[i] = t;",
     "'t', declared in a conditional group, named after it: which variable it is would "
     "depend on the flags"),
    ("header store", "/*HERE*/ for (x[0] = 0; x[0] < 4; x[0]++)\n      a[i] += b[i];",
     "loop header stores to memory"),
    ("header in memory", "/*HERE*/ for (j = 0; j < 4; j++)\n      a[i] += b[i];",
     "loop header assigns a variable in memory ('j', whose address the function takes)"),
    ("call under a guard", "a[i] = b[i] > 0.0 ? /*HERE*/ g(ix[i]) : 0;",
     "call inside a conditionally evaluated operand"),
]  # fmt: skip


def _kernel(tmp_path: Path, body: str) -> tuple[Path, int]:
    text = PRELUDE + "    " + body + "\n  }\n}\n"
    path = tmp_path / "k.c"
    path.write_text(text)
    marked = next(n for n, line in enumerate(text.splitlines(), 1) if "/*HERE*/" in line)
    return path, marked


@pytest.mark.parametrize(("name", "body", "says"), CORPUS, ids=[c[0] for c in CORPUS])
def test_each_refusal_says_its_cause_and_line(tmp_path, name, body, says):
    path, line = _kernel(tmp_path, body)
    (kernel,) = rewrite_file(path, Options(variant="cse")).kernels
    assert kernel.status == "unchanged"
    assert kernel.reason == f"{says} (line {line})"
    assert not INTERNAL.search(kernel.reason)


def test_a_loop_variable_named_as_its_function_is_no_memory(tmp_path):
    """``for (int k = ...)`` inside a function ``k`` declares a variable of the loop."""
    path = tmp_path / "k.c"
    source = (
        "void k(int n, double *a)\n{\n#pragma acc parallel loop\n"
        "  for (int i = 0; i < n; i++) {\n    double s = 0.0;\n"
        "    for (int k = 0; k < 4; k++)\n      s += a[i * 4 + k] * 2.0;\n"
        "    a[i] = s * 2.0 + s;\n  }\n}\n"
    )
    path.write_text(source)
    (kernel,) = rewrite_file(path, Options(variant="cse")).kernels
    assert kernel.status == "rewritten" or kernel.reason == "no gain", kernel.reason
