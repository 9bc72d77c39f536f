"""Compare two runs of one trial: final memory, live-out variables, call traces.

Bit-exact (``tolerance=None``): integers and pointers equal, floats with the
same bits (all NaNs are equal; -0.0 and +0.0 are not). With a ``Tolerance``,
floats may differ by ``abs`` or by ``rel`` relative to the larger magnitude
(``rel_float``/``abs_float`` for ``float`` values); infinities and NaN must agree.
A difference accepted only by ``abs`` (a relative error past ``rel``, near zero)
does not count in the largest relative error reported.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .cvalues import f32_bits, f64_bits
from .memory import DESCS, Run
from .states import TrialState


@dataclass(frozen=True)
class Tolerance:
    """Allowed difference for rewrites that may change floating-point results."""

    rel: float = 1e-9
    abs: float = 1e-12
    rel_float: float = 1e-5  # for values of type float
    abs_float: float = 1e-6

    def __str__(self) -> str:
        return (
            f"double rel {self.rel:g} abs {self.abs:g}; "
            f"float rel {self.rel_float:g} abs {self.abs_float:g}"
        )


@dataclass
class Comparison:
    ok: bool = True
    max_rel_error: float = 0.0
    compared: int = 0
    problems: list[str] = field(default_factory=list)

    def fail(self, text: str) -> None:
        self.ok = False
        if len(self.problems) < 5:
            self.problems.append(text)


def show(v) -> str:
    if isinstance(v, tuple):
        return "null" if v[0] is None else f"&{v[0]}{v[1]:+d}"
    if isinstance(v, np.float32):  # F32: an alias isinstance() does not take
        return float(v).hex() + "f"
    if isinstance(v, float):
        return v.hex()
    return repr(v)


def _is_float(v) -> bool:
    return isinstance(v, (float, np.floating))  # F32 and F80 are np.floating


def values_match(a, b, tol: Tolerance | None) -> tuple[bool, float]:
    """(equal within the tolerance, relative error)."""
    if not (_is_float(a) and _is_float(b)):
        if type(a) is not type(b) and (isinstance(a, tuple) or isinstance(b, tuple)):
            return False, math.inf
        return a == b, 0.0 if a == b else math.inf
    single = isinstance(a, np.float32) or isinstance(b, np.float32)
    fa, fb = float(a), float(b)
    if fa != fa or fb != fb:
        ok = fa != fa and fb != fb
        return ok, 0.0 if ok else math.inf
    if tol is None:
        if isinstance(a, np.longdouble) or isinstance(b, np.longdouble):
            same = a == b and np.signbit(a) == np.signbit(b)
        elif single:
            same = f32_bits(fa) == f32_bits(fb)
        else:
            same = f64_bits(fa) == f64_bits(fb)
        rel = _rel(fa, fb)
        return same, rel if not same else 0.0
    if fa == fb:
        return True, 0.0
    if math.isinf(fa) or math.isinf(fb):
        return False, math.inf
    rel = _rel(fa, fb)
    diff = abs(fa - fb)
    r, ab = (tol.rel_float, tol.abs_float) if single else (tol.rel, tol.abs)
    if rel > r and diff <= ab:  # accepted near zero only (cancellation): not an error
        return True, 0.0
    return rel <= r, rel


def _rel(a: float, b: float) -> float:
    if a == b:
        return 0.0
    scale = max(abs(a), abs(b))
    if not math.isfinite(scale):
        return math.inf
    return abs(a - b) / scale if scale else 0.0


def _final_memory(run: Run) -> dict[tuple[str, int], tuple[str, object]]:
    return run.visible_memory()


def compare_runs(
    orig: Run,
    new: Run,
    state: TrialState,
    tol: Tolerance | None,
    names: dict[str, str] | None = None,
) -> Comparison:
    out = Comparison()

    def check(what: str, a, b) -> None:
        ok, rel = values_match(a, b, tol)
        out.compared += 1
        if rel > out.max_rel_error and (ok or tol is None or math.isfinite(rel)):
            out.max_rel_error = rel
        if not ok:
            out.fail(
                f"{what}: original {show(a)}, rewritten {show(b)}"
                + (f" (rel. error {rel:.3g})" if math.isfinite(rel) and rel else "")
            )

    if orig.returned is not None or new.returned is not None:  # a function unit
        check("the value returned", orig.returned, new.returned)
    # live-out variables
    for name in sorted(set(orig.outer) | set(new.outer)):
        a = orig.outer.get(name, state.scalars.get(name))
        b = new.outer.get(name, state.scalars.get(name))
        check(f"variable '{name}'", a, b)
    # memory
    mo, mn = _final_memory(orig), _final_memory(new)
    for key in sorted(set(mo) | set(mn), key=lambda k: (k[0], k[1])):
        ea, eb = mo.get(key), mn.get(key)
        first = ea or eb
        assert first is not None  # the key is in one of them
        tk = first[0]
        if ea is None:
            ea = (tk, state.memory_value(key[0], key[1], DESCS[tk], orig.epoch))
        if eb is None:
            eb = (tk, state.memory_value(key[0], key[1], DESCS[tk], new.epoch))
        where = _where(key, names)
        if ea[0] != eb[0]:
            out.fail(f"{where}: stored as {ea[0]} by the original, as {eb[0]} by the rewrite")
            continue
        check(f"{where} ({tk})", ea[1], eb[1])
    # calls
    if len(orig.trace) != len(new.trace) or any(
        a[0] != b[0] for a, b in zip(orig.trace, new.trace, strict=False)
    ):
        out.fail("calls differ: original " + _calls(orig) + "; rewritten " + _calls(new))
    else:
        for n, (ca, cb) in enumerate(zip(orig.trace, new.trace, strict=True)):
            if len(ca[1]) != len(cb[1]):
                out.fail(f"call {n} ({ca[0]}): argument count differs")
                continue
            for i, (a, b) in enumerate(zip(ca[1], cb[1], strict=True)):
                check(f"argument {i + 1} of call {n + 1} ({ca[0]})", a, b)
            for key in sorted(set(ca[2]) | set(cb[2])):
                ea, eb = ca[2].get(key), cb[2].get(key)
                if ea is None or eb is None:
                    tk = (ea or eb)[0]
                    init = state.memory_value(key[0], key[1], DESCS[tk], n)
                    ea, eb = ea or (tk, init), eb or (tk, init)
                check(f"{_where(key, names)} as seen by call {n + 1} ({ca[0]})", ea[1], eb[1])
    # loads the rewrite makes where the original made none (a speculative load may fault)
    touched = set(orig.loaded) | set(mo)
    extra = sorted(k for k in new.loaded - touched)
    if extra:
        out.fail(
            f"the rewrite reads {_where(extra[0], names)}, which the original never "
            f"reads or writes in this state (a speculative load)"
        )
    return out


def _calls(run: Run) -> str:
    return "[" + ", ".join(c[0] for c in run.trace) + "]"


def _where(key: tuple[str, int], names: dict[str, str] | None) -> str:
    obj, off = key
    if obj.startswith(("g:", "o:")):
        label = obj[2:]
    elif obj.startswith("p:"):
        label = "*" + obj[2:]
    else:
        label = obj
    return f"{label} at byte {off}"
