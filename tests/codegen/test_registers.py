"""The register model of a printed body (accsat/codegen/registers.py) on small kernels.

The counts are worked out by hand in each test: values live across a slot (a
statement or a temporary's definition), 64-bit ones two registers, plus the
slot's own work (its loads in flight, or its expression's Sethi-Ullman count).
"""

from __future__ import annotations

from pathlib import Path

from accsat.codegen import budget, registers
from accsat.codegen.program import Program
from accsat.frontend.load import load
from accsat.ssa.statements import build_ssa

HEAD = """\
double a[64], b[64], c[64], d[64];
float f[64];
void k(int n)
{
  int i, m;
  double t, u;
  float x;
#pragma acc parallel loop
  for (i = 0; i < n; i++) {
"""


def _program(tmp_path: Path, body: str) -> Program:
    path = tmp_path / "k.c"
    path.write_text(HEAD + body + "  }\n}\n")
    loaded = load(path)
    kernel = loaded.kernels[0]
    return Program(build_ssa(kernel, loaded.symbols, lambda op, ty: 1.0, loaded.defined))


def _as_written(program: Program, hoist: int = 0) -> registers.Figures:
    """The model of the kernel as written; by default with loads issued where used."""
    return registers.model(program, budget.written_plan(program), hoist)


def test_width_counts_64_bit_values_twice():
    assert [
        registers.width(t)
        for t in (
            "double",
            "double@k3",
            "long",
            "unsigned long",
            "double *",
            "int",
            "float",
            "unsigned int",
        )
    ] == [2, 2, 2, 2, 2, 1, 1, 1]


def test_live_values_at_each_statement(tmp_path):
    # slot 0  t = a[i] * 2.0   live: i (1)               + a[i] (2)  = 3
    # slot 1  u = b[i] + t     live: i, t (1 + 2)        + b[i] (2)  = 5
    # slot 2  c[i] = t * u     live: i, t, u (1 + 2 + 2) + t*u (2)   = 7
    program = _program(tmp_path, "    t = a[i] * 2.0;\n    u = b[i] + t;\n    c[i] = t * u;\n")
    f = _as_written(program)
    assert (f.peak, f.at, f.slots, f.loads, f.temps) == (7, 2, 3, 2, 0)
    assert f.line == 12
    assert f.registers == registers.estimate(7)


def test_float_values_take_one_register(tmp_path):
    # slot 0  x = f[i] * 2.0f    live: i (1)    + f[i] (1)                           = 2
    # slot 1  c[i] = x * x + b[i] live: i, x (2) + (double)(x * x) (2) and b[i] (2)  = 6
    program = _program(tmp_path, "    x = f[i] * 2.0f;\n    c[i] = x * x + b[i];\n")
    f = _as_written(program)
    assert (f.peak, f.at) == (6, 1)


def test_loads_in_flight_of_one_statement(tmp_path):
    # five loads issued together: 10 registers over i
    program = _program(tmp_path, "    c[i] = a[i] + b[i] + d[i] + a[i+1] + b[i+1];\n")
    f = _as_written(program)
    assert (f.loads_in_flight, f.peak) == (10, 11)


def test_a_value_read_in_an_inner_loop_is_live_through_it(tmp_path):
    # t is made before the loop over m and read in its first statement: it stays
    # live through the second (line 13), which loads two values: t, m, a[m], b[m]
    # (2 + 1 + 2 + 2); i is dead by then
    body = (
        "    t = a[i];\n"
        "    for (m = 0; m < 4; m++) {\n"
        "      c[m] = t;\n"
        "      d[m] = a[m] + b[m];\n"
        "    }\n"
    )
    f = _as_written(_program(tmp_path, body))
    assert (f.peak, f.line) == (7, 13)
    # without the loop, t is dead after its last read: i, a[i+1], b[i+1]
    body = "    t = a[i];\n    c[i] = t;\n    d[i] = a[i+1] + b[i+1];\n"
    assert _as_written(_program(tmp_path, body)).peak == 5


def test_loads_are_issued_ahead_within_straight_line_code(tmp_path):
    # slot 0  c[i] = a[i] * a[i+1]        i (1) + two loads (4)                    = 5
    # slot 1  c[i+1] = d[i+1] * d[i+2]    i (1) + the address i+1 (1) + two loads  = 6
    body = "    c[i] = a[i] * a[i+1];\n    c[i+1] = d[i+1] * d[i+2];\n"
    program = _program(tmp_path, body)
    assert _as_written(program, 0).peak == 6
    # nothing before slot 1 changes d: its loads may be issued during slot 0 (5 + 4)
    assert _as_written(program, 1).peak == 9
    # a store to d[m] at slot 0 may change d[i+1]: its loads wait
    body = "    d[m] = a[i] * a[i+1];\n    c[i+1] = d[i+1] * d[i+2];\n"
    assert _as_written(_program(tmp_path, body), 1).peak == 6
