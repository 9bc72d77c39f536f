"""How many Python frames accsat's stages use per level of an expression tree.

For each shape of expression, the deepest kernel that ``accsat check`` (rewrite,
then translation validation) still rewrites and validates under a fixed
recursion limit, with accsat's own depth limit lifted; frames per level is the
limit over that depth. ``accsat.frontend.depth`` sets ``MAX_DEPTH`` from this:
``FRAMES`` on Python 3.10 with an 8 MiB stack over the worst frames per level
must leave a margin of two.

    python benchmarks/recursion_depth.py [--limit 3000] [--shapes lsum,neg,...]
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
from pathlib import Path

from accsat.check import check_file
from accsat.errors import AccsatError
from accsat.frontend import depth, load
from accsat.options import Options

SHAPES = {
    "lsum": lambda d: " + ".join(f"b[i + {j % 5}]" for j in range(d)),
    "rsum": lambda d: "".join(f"b[i + {j % 5}] * (" for j in range(d)) + "1.0" + ")" * d,
    "neg": lambda d: "-(" * d + "b[i]" + ")" * d,
    "call": lambda d: "sqrt(" * d + "b[i]" + ")" * d,
    "tern": lambda d: "".join(f"b[i + {j % 5}] > 0 ? b[i] : (" for j in range(d)) + "1.0" + ")" * d,
    "index": lambda d: "b[" + "idx[" * d + "i" + "]" * d + "]",
    "cast": lambda d: "(double)(float)" * (d // 2) + "b[i]",
}


def source(shape: str, d: int) -> str:
    return (
        "#include <math.h>\n"
        "void k(int n, double *restrict a, const double *restrict b, const int *restrict idx)\n"
        "{\n#pragma acc parallel loop\n  for (int i = 0; i < n; i++) {\n"
        f"    a[i] = b[i] * 2.0 + b[i] * 2.0 + {SHAPES[shape](d)};\n  }}\n}}\n"
    )


def survives(path: Path, shape: str, d: int) -> tuple[bool, str]:
    path.write_text(source(shape, d))
    load.clear_cache()
    options = Options(variant="cse", use_ilp=False)
    try:
        result, ver = check_file(path, options, trials=2)
    except AccsatError as exc:
        return False, str(exc)
    except RecursionError:
        return False, "RecursionError escaped accsat"
    kernel, verdict = result.kernels[0], ver.verdicts[0]
    ok = kernel.status == "rewritten" and verdict.verdict == "pass"
    return ok, kernel.reason or verdict.message or verdict.verdict


def deepest(path: Path, shape: str, hi: int) -> tuple[int, str]:
    lo, why = 0, ""
    while hi - lo > max(1, lo // 50):  # within 2 %
        mid = (lo + hi) // 2
        ok, reason = survives(path, shape, mid)
        if ok:
            lo = mid
        else:
            hi, why = mid, reason
    return lo, why


@contextlib.contextmanager
def _parser_room():
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(200_000)
    try:
        yield
    finally:
        sys.setrecursionlimit(before)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=3000, help="recursion limit of the stages")
    ap.add_argument("--shapes", default=",".join(SHAPES))
    args = ap.parse_args()
    chosen = depth.MAX_DEPTH
    depth._frames = lambda: args.limit  # what deep_recursion() raises the limit to
    depth.MAX_DEPTH = 10**9
    load.deep_recursion = _parser_room  # the parser is not what is measured here
    sys.setrecursionlimit(args.limit)
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "deep.c"
        for shape in args.shapes.split(","):
            d, why = deepest(path, shape, args.limit)
            per_level = args.limit / max(d, 1)
            worst = max(worst, per_level)
            print(f"{shape:6} deepest {d:5}  {per_level:4.1f} frames/level  next: {why[:90]}")
    frames_310 = (8 << 20) // (2 * depth._BYTES_PER_FRAME)
    print(
        f"worst {worst:.1f} frames/level: at {frames_310} frames (3.10, 8 MiB) "
        f"{frames_310 / worst:.0f} levels; MAX_DEPTH {chosen}"
    )


if __name__ == "__main__":
    main()
