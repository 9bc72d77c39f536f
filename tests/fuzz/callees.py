"""Helper functions a kernel body calls (issue 37's function units), for gen.py.

About one kernel in three (``draw``) gets helpers, each in its model's spelling
(``Callees.definitions``): ``#pragma acc routine seq`` before a static function (acc),
functions inside ``#pragma omp declare target`` ... ``end declare target`` (omp), or a
plain static function the kernel calls (an implicit routine, both models). The shapes
(``SHAPES``):

- ``scalar``: scalar parameters and a returned value, with an early ``if (...) return``;
- ``pointer``: pointer parameters read and written (``p[j] = ...``), called with
  arguments that may alias (the same array twice, ``a`` and ``a + 1``);
- ``scalarptr``: a pointer to a scalar, the kernel's local that it reads again after
  the call, or an element of the array the helper also reads;
- ``struct``: a struct argument by value (its members read), a struct local copied
  from an array element (in the kernel and in a helper given the array);
- ``pure2``: a pure helper called twice with the same arguments (sharing pays);
- ``ifarm``: a call in an ``if`` arm;
- ``nested``: a helper calling a helper (one level);
- ``global``: a plain helper that writes a global array between the kernel's loads
  of it (and of another), or only reads one, called twice (mod/ref summaries).

The helpers load the same locations more than once, so their rewrite has work. Only
plain helpers touch globals (a routine would need them declared on the device: gcc
says so); the others only what their parameters reach. Every value stays free of undefined behaviour: helpers work in the
element type of a kernel array (double, float, int, unsigned); int arithmetic is on
operands bounded by 128 (the arrays' bound, values.ARRAY_INT_BOUND) and its results
are reduced ``% 100`` before they are stored or returned; subscripts stay below 24
plus two (arrays hold values.SZ = 32).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .choosers import Chooser
from .values import SZ

SHAPES = ("scalar", "pointer", "scalarptr", "struct", "pure2", "ifarm", "nested", "global")
TYPES = ("double", "float", "int", "unsigned")  # element types a helper works in
_MIX = ("{a} * {b} + {c}", "({a} - {b}) * {c}", "{a} * {a} - {b} * {c}", "{a} * {k} + {b} * {c}")
_K = {"double": "0.5", "float": "0.5f", "int": "3", "unsigned": "3u"}


def fit(t: str, text: str) -> str:
    """``text`` as a value an object of type ``t`` may hold (int: below 100 in magnitude)."""
    return f"({text}) % 100" if t == "int" else text


def mix(c: Chooser, t: str, a: str, b: str, d: str) -> str:
    """An expression of type ``t`` over the operands (int ones bounded by 128), fitted."""
    return fit(t, c.pick(_MIX).format(a=a, b=b, c=d, k=_K[t]))


@dataclass
class Helper:
    name: str
    lines: list[str]  # the definition
    marked: bool  # a routine / declare target function (else a plain static one)


@dataclass
class Callees:
    k: str
    arrays: dict[str, str]  # the kernel's arrays a call may pass: name -> element type
    helpers: list[Helper] = field(default_factory=list)  # callees before their callers
    calls: list[list[str]] = field(default_factory=list)  # statements of the kernel body
    shapes: list[str] = field(default_factory=list)  # what was written, for the tests
    struct: bool = False  # struct k_cv and its array k_cs
    counter: int = 0
    scalar: dict[str, str] = field(default_factory=dict)  # type -> a scalar helper's name

    def fresh(self, base: str) -> str:
        self.counter += 1
        return f"{base}{self.counter}"

    def declarations(self) -> list[str]:
        if not self.struct:
            return []
        k = self.k
        return [f"struct {k}_cv {{ double x; float y; int k; }};", f"struct {k}_cv {k}_cs[{SZ}];"]

    def definitions(self, model: str) -> list[str]:
        """The helpers in ``model``'s spelling."""
        out: list[str] = []
        inside = False
        for h in self.helpers:
            if model == "omp" and h.marked != inside:
                out.append(
                    "#pragma omp declare target" if h.marked else "#pragma omp end declare target"
                )
                inside = h.marked
            if model == "acc" and h.marked:
                out.append("#pragma acc routine seq")
            out += h.lines
        if inside:
            out.append("#pragma omp end declare target")
        return out

    def fill(self) -> list[str]:
        if not self.struct:
            return []
        k = self.k
        return [
            f"    {k}_cs[q].x = lcg_d(); {k}_cs[q].y = (float)lcg_d(); "
            f"{k}_cs[q].k = (int)(lcg_u() % 129u) - 64;"
        ]

    def prints(self) -> list[str]:
        if not self.struct:
            return []
        k = self.k
        return [
            f'    printf("{k}_cs %d %a %a %d\\n", q, {k}_cs[q].x, (double){k}_cs[q].y, '
            f"{k}_cs[q].k);"
        ]


def index(c: Chooser, k: str) -> str:
    """An int subscript in [0, 24) (as gen.gen_index, the kernel's i and n = 16)."""
    return c.pick(
        ["i", f"i + {c.int(1, 7)}", "n - 1 - i", f"{k}_ix[i]", f"(i * 3 + {c.int(0, 7)}) % 16"]
    )


def draw(c: Chooser, k: str, arrays: dict[str, str]) -> Callees | None:
    """The helpers of kernel ``k`` and the statements calling them; None (the minimal
    choice) for none."""
    if not c.chance(33):
        return None
    usable = {a: t for a, t in arrays.items() if t in TYPES}  # k_a0 (double) always is
    cal = Callees(k, usable)
    for _ in range(c.int(1, 3)):
        shape = c.pick(SHAPES)
        call = _WRITERS[shape](c, cal)
        cal.shapes.append(shape)
        cal.calls.append(call)
    return cal


def _array(c: Chooser, cal: Callees, t: str | None = None) -> tuple[str, str]:
    names = sorted(a for a, et in cal.arrays.items() if t is None or et == t)
    a = c.pick(names)
    return a, cal.arrays[a]


def _helper(c: Chooser, cal: Callees, base: str, lines: list[str], markable: bool = True) -> str:
    name = f"{cal.k}_{cal.fresh(base)}"
    marked = c.chance(70) and markable
    cal.helpers.append(Helper(name, [lines[0].format(name=name), *lines[1:]], marked))
    return name


def _scalar(c: Chooser, cal: Callees, t: str) -> str:
    """A helper of scalar parameters returning ``t``, with an early return (one per type)."""
    if t in cal.scalar:
        return cal.scalar[t]
    early = c.pick(["m > {n}", "x < {z}", "m == {n}"]).format(n=c.int(1, 6), z=_K[t])
    lines = [
        f"static {t} {{name}}({t} x, int m)",
        "{",
        f"  if ({early})",
        f"    return {mix(c, t, 'x', 'm', 'x')};",
        f"  {t} u = {mix(c, t, 'x', 'x', 'm')};",
        f"  return {mix(c, t, 'u', 'x', 'u')};",
        "}",
    ]
    cal.scalar[t] = name = _helper(c, cal, "fs", lines)
    return name


def _w_scalar(c: Chooser, cal: Callees) -> list[str]:
    a, t = _array(c, cal)
    f = _scalar(c, cal, t)
    b, _ = _array(c, cal, t)
    return [f"{a}[{index(c, cal.k)}] = {f}({b}[{index(c, cal.k)}], ({index(c, cal.k)}) & 7);"]


def _w_pointer(c: Chooser, cal: Callees) -> list[str]:
    a, t = _array(c, cal)
    returns = c.chance(50)
    lines = [
        f"static {t if returns else 'void'} {{name}}({t} *p, const {t} *q, int j)",
        "{",
        f"  p[j] = {mix(c, t, 'q[j]', 'q[j + 1]', 'q[j]')};",
        f"  p[j + 1] = {mix(c, t, 'q[j]', 'p[j]', 'q[j + 1]')};",
    ]
    if returns:
        lines.append(f"  return {mix(c, t, 'p[j]', 'q[j]', 'q[j + 1]')};")
    f = _helper(c, cal, "fp", [*lines, "}"])
    b = a if c.chance(60) else _array(c, cal, t)[0]  # the same array twice: they alias
    pa = c.pick([a, f"{a} + 1", a])
    pb = c.pick([b, f"{b} + 1", b])
    call = f"{f}({pa}, {pb}, {index(c, cal.k)})"
    if returns:
        return [f"{_array(c, cal, t)[0]}[{index(c, cal.k)}] = {call};"]
    return [f"{call};"]


def _w_scalarptr(c: Chooser, cal: Callees) -> list[str]:
    a, t = _array(c, cal)
    f = _helper(
        c,
        cal,
        "fa",
        [
            f"static void {{name}}({t} *acc, const {t} *q, int j)",
            "{",
            f"  *acc = {mix(c, t, '*acc', 'q[j]', 'q[j]')};",
            f"  *acc = {fit(t, '*acc + q[j + 1]')};",
            "}",
        ],
    )
    j = index(c, cal.k)
    if c.chance(50):  # an element of the array the helper reads
        return [f"{f}(&{a}[{index(c, cal.k)}], {a}, {j});"]
    v, at = cal.fresh("cv"), index(c, cal.k)
    return [
        f"{t} {v} = {a}[{at}];",
        f"{f}(&{v}, {a}, {j});",
        f"{a}[{index(c, cal.k)}] = {fit(t, f'{v} + {a}[{at}]')};",
    ]


def _w_struct(c: Chooser, cal: Callees) -> list[str]:
    cal.struct = True
    k = cal.k
    if c.chance(50):
        f = _helper(
            c,
            cal,
            "fv",
            [
                f"static double {{name}}(struct {k}_cv v, double s)",
                "{",
                "  if (v.k > 0)",
                "    return v.x * s + v.y;",
                "  return v.x * v.x - v.y * s + v.x;",
                "}",
            ],
        )
        if c.chance(50):
            return [f"{k}_a0[{index(c, k)}] = {f}({k}_cs[{index(c, k)}], {k}_a0[{index(c, k)}]);"]
        w = cal.fresh("cw")
        return [
            f"struct {k}_cv {w} = {k}_cs[{index(c, k)}];",
            f"{k}_a0[{index(c, k)}] = {w}.x + {f}({w}, {w}.y);",
        ]
    f = _helper(
        c,
        cal,
        "fc",
        [
            f"static double {{name}}(const struct {k}_cv *ps, int j)",
            "{",
            f"  struct {k}_cv w = ps[j];",
            "  return w.x * w.y + w.x * (double)w.k + ps[j].y;",
            "}",
        ],
    )
    return [f"{k}_a0[{index(c, k)}] = {f}({k}_cs, {index(c, k)});"]


def _w_pure2(c: Chooser, cal: Callees) -> list[str]:
    a, t = _array(c, cal)
    f = _scalar(c, cal, t)
    b, _ = _array(c, cal, t)
    call = f"{f}({b}[{index(c, cal.k)}], {c.int(0, 7)})"
    return [f"{a}[{index(c, cal.k)}] = {fit(t, f'{call} + {call}')};"]


def _w_ifarm(c: Chooser, cal: Callees) -> list[str]:
    a, t = _array(c, cal)
    inner = _WRITERS[c.pick(["scalar", "pointer", "scalarptr"])](c, cal)
    cond = f"{a}[{index(c, cal.k)}] < {_K[t]}"
    lines = [f"if ({cond}) {{", *["  " + x for x in inner]]
    if c.chance(50):
        lines += ["} else {", f"  {a}[{index(c, cal.k)}] = {a}[{index(c, cal.k)}];"]
    return [*lines, "}"]


def _w_nested(c: Chooser, cal: Callees) -> list[str]:
    a, t = _array(c, cal)
    g = _scalar(c, cal, t)
    f = _helper(
        c,
        cal,
        "fn",
        [
            f"static {t} {{name}}({t} x, const {t} *q, int j)",
            "{",
            f"  {t} u = {g}(x, j & 7);",
            f"  return {fit(t, f'u + {g}(q[j], 1) * q[j]')};",
            "}",
        ],
    )
    return [f"{a}[{index(c, cal.k)}] = {f}({a}[{index(c, cal.k)}], {a}, {index(c, cal.k)});"]


def _w_global(c: Chooser, cal: Callees) -> list[str]:
    a, t = _array(c, cal)
    b, _ = _array(c, cal, t)  # often a itself
    k = cal.k
    if c.chance(50):  # reads only: called twice, nothing stored between
        f = _helper(
            c,
            cal,
            "fr",
            [
                f"static {t} {{name}}(int j)",
                "{",
                f"  return {mix(c, t, f'{b}[j]', f'{b}[j + 1]', f'{b}[j]')};",
                "}",
            ],
            markable=False,
        )
        call = f"{f}({index(c, k)})"
        return [f"{a}[{index(c, k)}] = {fit(t, f'{call} + {call}')};"]
    f = _helper(
        c,
        cal,
        "fg",
        [
            f"static void {{name}}(int j, {t} v)",
            "{",
            f"  {b}[j] = {mix(c, t, f'{b}[j]', 'v', f'{b}[j]')};",
            f"  {b}[j + 1] = {fit(t, f'v - {b}[j]')};",
            "}",
        ],
        markable=False,
    )
    v, at, j = cal.fresh("cv"), index(c, k), index(c, k)
    return [
        f"{t} {v} = {a}[{at}];",
        f"{f}({j}, {v});",
        f"{a}[{index(c, k)}] = {fit(t, f'{v} + {a}[{at}] + {b}[{j}]')};",
    ]


_WRITERS = {
    "scalar": _w_scalar,
    "pointer": _w_pointer,
    "scalarptr": _w_scalarptr,
    "struct": _w_struct,
    "pure2": _w_pure2,
    "ifarm": _w_ifarm,
    "nested": _w_nested,
    "global": _w_global,
}
