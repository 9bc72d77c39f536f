"""A generator of small OpenACC kernels in the shapes solvers hold (issue 36).

    python benchmarks/families.py [--per-family 10] [--seed 1] [-o file.c]

Ten families, each kernel five statements or so, with random coefficients and
operands (which arrays, which neighbours, which signs): weighted stencils with 5-9
coefficients, Horner polynomials (and the same polynomial written by powers), 3x3
matrix-vector products, complex arithmetic, cross products, products of sums,
flux and pressure terms, FMA chains, Jacobian blocks with shared reciprocals, and
index-heavy linearised access. ``benchmarks/extract_families.py`` measures
saturation and extraction on them per family; ``many_kernels.py``-style timing
against gcc is ``extract_families.py --gcc``.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from pathlib import Path

HEADER = """\
#define N 64
#define NX 64
#define NY 64
double a[N][N], b[N][N], c[N][N], d[N][N], e[N][N];
double p[N], q[N], r[N], s[N], t[N], u[N], v[N], w[N];
double m[N][3][3], x3[N][3], y3[N][3], z3[N][3];
double lin[NX * NY * 4], out[NX * NY * 4];
"""

VECTORS = ("p", "q", "r", "s", "t", "u", "v", "w")
GRIDS = ("a", "b", "c", "d", "e")


def _k(rng: random.Random) -> str:
    """A coefficient as a solver writes one: a short decimal, sometimes negative."""
    value = rng.choice((0.5, 0.25, 1.5, 2.0, 3.0, 0.125, 0.75, 4.0, 1.0 / 6.0, 0.1))
    value = round(value * rng.choice((1, 1, 1, 2, 3)), 6)
    return repr(value) if rng.random() < 0.8 else repr(-value)


def _vecs(rng: random.Random, n: int) -> list[str]:
    return rng.sample(VECTORS, n)


def _sum(terms: list[str]) -> str:
    out = terms[0]
    for term in terms[1:]:
        out += f" - {term[1:]}" if term.startswith("-") else f" + {term}"
    return out


def wstencil(rng: random.Random) -> str:
    """Weighted 2-D stencils with 5-9 coefficients over shared neighbours."""
    src, dst = rng.sample(GRIDS, 2)
    points = [(0, 0), (0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (1, 1), (-1, 1), (1, -1)]
    lines = []
    for out_grid in (dst, *rng.sample([g for g in GRIDS if g not in (src, dst)], 2)):
        chosen = points[:5] + rng.sample(points[5:], rng.randint(0, 4))
        rng.shuffle(chosen)
        terms = [f"{_k(rng)} * {src}[j + {dj}][i + {di}]" for dj, di in chosen]
        lines.append(f"{out_grid}[j][i] = {_sum(terms)};".replace("+ -", "- "))
    lines.append(f"p[i] = {src}[j][i - 1] * {_k(rng)} + {src}[j][i + 1] * {_k(rng)};")
    lines.append(f"q[i] = ({src}[j - 1][i] + {src}[j + 1][i]) * {_k(rng)} + {src}[j][i];")
    return "\n".join(lines)


def horner(rng: random.Random) -> str:
    """Polynomials in Horner form and by powers, on a shared argument."""
    xv, y1, y2, y3 = _vecs(rng, 4)
    deg = rng.randint(4, 6)
    cs = [_k(rng) for _ in range(deg + 1)]
    h = cs[-1]
    for coef in reversed(cs[:-1]):
        h = f"({h}) * x + {coef}"
    powers = " + ".join(f"{cs[n]} * {' * '.join(['x'] * n)}" if n else cs[0] for n in range(4))
    return "\n".join(
        (
            f"double x = {xv}[i];",
            f"{y1}[i] = {h};",
            f"{y2}[i] = {powers};",
            f"{y3}[i] = {_k(rng)} * x * x + {_k(rng)} * x * {xv}[i + 1] + {_k(rng)};",
            f"{xv}[i] = x * ({_k(rng)} + x * {_k(rng)});",
        )
    )


def matvec(rng: random.Random) -> str:
    """A 3x3 matrix times a vector, and the same matrix's transpose or a residual."""
    src, dst, res = rng.sample(("x3", "y3", "z3"), 3)
    lines = []
    for row in range(3):
        terms = [f"m[i][{row}][{col}] * {src}[i][{col}]" for col in range(3)]
        lines.append(f"{dst}[i][{row}] = {' + '.join(terms)};")
    col = rng.randint(0, 2)
    lines.append(
        f"{res}[i][{col}] = "
        + " + ".join(f"m[i][{k}][{col}] * {src}[i][{k}]" for k in range(3))
        + f" - {res}[i][{col}];"
    )
    lines.append(f"p[i] = {dst}[i][0] * {dst}[i][0] + {dst}[i][1] * {dst}[i][1] + {_k(rng)};")
    return "\n".join(lines)


def complex_(rng: random.Random) -> str:
    """Complex products and a multiply-accumulate, written out in real parts."""
    ar, ai, br, bi, cr, ci = _vecs(rng, 6)
    k = _k(rng)
    return "\n".join(
        (
            f"double re = {ar}[i] * {br}[i] - {ai}[i] * {bi}[i];",
            f"double im = {ar}[i] * {bi}[i] + {ai}[i] * {br}[i];",
            f"{cr}[i] = re * {cr}[i] - im * {ci}[i] + {k} * {ar}[i];",
            f"{ci}[i] = re * {ci}[i] + im * {cr}[i] + {k} * {ai}[i];",
            "a[0][i] = re * re + im * im;",
        )
    )


def cross(rng: random.Random) -> str:
    """Cross products of 3-vectors and a triple product."""
    uu, vv, ww = rng.sample(("x3", "y3", "z3"), 3)
    lines = []
    for n, (j, k) in enumerate(((1, 2), (2, 0), (0, 1))):
        lines.append(f"double c{n} = {uu}[i][{j}] * {vv}[i][{k}] - {uu}[i][{k}] * {vv}[i][{j}];")
    lines.append(f"{ww}[i][0] = c0 * {_k(rng)} + {ww}[i][1];")
    lines.append(f"p[i] = c0 * {ww}[i][0] + c1 * {ww}[i][1] + c2 * {ww}[i][2];")
    lines.append(f"q[i] = c1 * {uu}[i][1] - c2 * {vv}[i][2] + {_k(rng)};")
    return "\n".join(lines)


def prodsum(rng: random.Random) -> str:
    """Products of sums and differences over shared operands."""
    s1, s2, s3, s4, o1, o2 = _vecs(rng, 6)
    k1, k2 = _k(rng), _k(rng)
    return "\n".join(
        (
            f"{o1}[i] = ({s1}[i] + {s2}[i]) * ({s3}[i] + {s4}[i]);",
            f"{o2}[i] = ({s1}[i] + {s2}[i]) * ({s1}[i] - {s2}[i]) + {k1};",
            f"a[1][i] = ({s3}[i] + {k1}) * ({s4}[i] + {k2}) * {s1}[i];",
            f"a[2][i] = {s1}[i] * {s3}[i] + {s1}[i] * {s4}[i] + {s2}[i] * {s3}[i];",
            f"a[3][i] = ({s2}[i] - {s4}[i]) * ({s2}[i] - {s4}[i]) * {k2};",
        )
    )


def flux(rng: random.Random) -> str:
    """Euler flux and pressure terms with a shared reciprocal of the density."""
    rho, mu, mv, en = _vecs(rng, 4)
    g1 = _k(rng)
    return "\n".join(
        (
            f"double ri = 1.0 / {rho}[i];",
            f"double pr = {g1} * ({en}[i] - 0.5 * ({mu}[i] * {mu}[i] + {mv}[i] * {mv}[i]) * ri);",
            f"b[0][i] = {mu}[i] * {mu}[i] * ri + pr;",
            f"b[1][i] = {mu}[i] * {mv}[i] * ri;",
            f"b[2][i] = ({en}[i] + pr) * {mu}[i] * ri;",
            f"b[3][i] = {_k(rng)} * ({mv}[i] * {mv}[i] * ri + pr) - b[0][i];",
        )
    )


def fmachain(rng: random.Random) -> str:
    """Long dot products and running sums (chains of multiply-adds)."""
    length = rng.randint(6, 9)
    lines = []
    for out_vec in _vecs(rng, 3):
        srcs = [(rng.choice(VECTORS), rng.randint(-2, 2)) for _ in range(length)]
        terms = [f"{_k(rng)} * {v}[i + {o}]" for v, o in srcs]
        lines.append(f"{out_vec}[i + 4] = {_sum(terms)};".replace("+ -", "- "))
    lines.append("c[0][i] = p[i] * q[i] + r[i] * s[i] + t[i] * u[i] + v[i] * w[i];")
    lines.append(f"c[1][i] = p[i] * q[i] + r[i] * s[i] - {_k(rng)};")
    return "\n".join(lines)


def jacobian(rng: random.Random) -> str:
    """A Jacobian block with shared reciprocals (as in NPB BT's jacobians)."""
    u0, u1, u2, u3 = _vecs(rng, 4)
    k1, k2 = _k(rng), _k(rng)
    return "\n".join(
        (
            f"double t1 = 1.0 / {u0}[i];",
            "double t2 = t1 * t1;",
            "double t3 = t1 * t2;",
            f"d[0][i] = -({u1}[i] * {u2}[i]) * t2;",
            f"d[1][i] = {u2}[i] * t1;",
            f"d[2][i] = {k1} * ({u1}[i] * {u1}[i] + {u2}[i] * {u2}[i]) * t2 - {k2} * {u3}[i] * t1;",
            f"d[3][i] = -({k1} * {u3}[i] * t1 - {k2} * {u1}[i] * {u1}[i] * t2) * {u1}[i] * t1;",
            f"d[4][i] = {k2} * ({u1}[i] * {u2}[i] * {u3}[i]) * t3;",
        )
    )


def index(rng: random.Random) -> str:
    """Linearised 3-D access with index arithmetic written out at each use."""
    k1, k2 = _k(rng), _k(rng)
    off = [rng.choice((-1, 1)) for _ in range(3)]
    at = "(({k}) * NY + ({j})) * NX + ({i})"
    c = at.format(k="k", j="j", i="i")
    ns = [
        at.format(k=f"k + {off[0]}", j="j", i="i"),
        at.format(k="k", j=f"j + {off[1]}", i="i"),
        at.format(k="k", j="j", i=f"i + {off[2]}"),
    ]
    return "\n".join(
        (
            f"out[{c}] = lin[{c}] * {k1} + lin[{ns[0]}] + lin[{ns[1]}] + lin[{ns[2]}];",
            f"out[{ns[0]}] = lin[{c}] - lin[{ns[0]}] * {k2};",
            f"out[{c} + NX * NY] = (lin[{ns[1]}] - lin[{ns[2]}]) * {k1};",
            f"p[i] = lin[{c}] * lin[{c}] + lin[{ns[2]}];",
            f"q[i] = lin[{at.format(k='k', j='j', i='i + 2')}] * {k2} + p[i];",
        )
    )


FAMILIES: dict[str, Callable[[random.Random], str]] = {
    "wstencil": wstencil,
    "horner": horner,
    "matvec": matvec,
    "complex": complex_,
    "cross": cross,
    "prodsum": prodsum,
    "flux": flux,
    "fmachain": fmachain,
    "jacobian": jacobian,
    "index": index,
}
# the loops around each family's body: j and k are sequential outer loops where used
_OUTER = {"wstencil": ("j",), "index": ("k", "j")}


def kernel(family: str, n: int, rng: random.Random) -> str:
    body = "\n".join("    " + line for line in FAMILIES[family](rng).splitlines())
    outer = "".join(
        f"  for (int {v} = 1; {v} < {'N' if family != 'index' else 'NY'} - 1; {v}++)\n"
        for v in _OUTER.get(family, ())
    )
    return f"""\
void {family}{n}(void)
{{
{outer}#pragma acc parallel loop
  for (int i = 2; i < N - 6; i++) {{
{body}
  }}
}}
"""


def family_of(function: str) -> str:
    """The family of a generated kernel's function name (``wstencil3`` -> ``wstencil``)."""
    return function.rstrip("0123456789")


def source(per_family: int = 10, seed: int = 1, families: list[str] | None = None) -> str:
    """A C file of ``per_family`` kernels of each family, interleaved."""
    rng = random.Random(seed)
    names = families or list(FAMILIES)
    kernels = [kernel(f, n, rng) for n in range(per_family) for f in names]
    return HEADER + "\n".join(kernels)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-family", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--families", default=None, help="comma-separated (default: all)")
    ap.add_argument("-o", "--output", type=Path, default=None)
    args = ap.parse_args(argv)
    families = args.families.split(",") if args.families else None
    text = source(args.per_family, args.seed, families)
    if args.output:
        args.output.write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
