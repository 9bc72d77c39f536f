"""Output validation as SPEC's specdiff does it: line by line, numbers within tolerance.

A line of the output matches the expected line when their text without the
numbers is the same (after compressing whitespace with ``compwhite``, and
case-folding with ``ignorecase``) and each number is close enough:

* with ``abstol`` and/or ``reltol``: |got - want| <= abstol, or
  |got - want| <= reltol * |want| (either tolerance suffices, as in specdiff);
* with ``floatcompare`` and no tolerance: equal as floating-point values;
* otherwise: the same text.

Up to ``skiptol`` mismatching lines are forgiven. What real specdiff does
beyond this (``obiwan``, ``calctol``, binary files) is not implemented:
nothing here was validated against SPEC's own tool.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

# Fortran's D exponents too (1.0D+00)
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eEdD][-+]?\d+)?")


@dataclass(frozen=True)
class Tolerance:
    abstol: float | None = None
    reltol: float | None = None
    compwhite: bool = False
    floatcompare: bool = False
    ignorecase: bool = False
    skiptol: int = 0


@dataclass
class Mismatch:
    line: int  # 1-based, in the expected file
    expected: str
    got: str
    why: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.why}: expected {self.expected!r}, got {self.got!r}"


def _split(line: str, tol: Tolerance) -> tuple[str, list[str]]:
    """The line's text with every number replaced by '#', and the numbers."""
    numbers = _NUMBER.findall(line)
    skeleton = _NUMBER.sub("#", line)
    if tol.compwhite:
        skeleton = " ".join(skeleton.split())
    if tol.ignorecase:
        skeleton = skeleton.lower()
    return skeleton, numbers


def _value(token: str) -> float:
    return float(token.replace("D", "e").replace("d", "e"))


def _close(want: str, got: str, tol: Tolerance) -> tuple[bool, str]:
    if want == got:
        return True, ""
    numeric = tol.abstol is not None or tol.reltol is not None or tol.floatcompare
    if not numeric:
        return False, f"{got} is not {want}"
    w, g = _value(want), _value(got)
    if math.isnan(w) or math.isnan(g):
        return math.isnan(w) and math.isnan(g), "NaN"
    diff = abs(g - w)
    if diff == 0:
        return True, ""
    if tol.abstol is not None and diff <= tol.abstol:
        return True, ""
    if tol.reltol is not None and w != 0 and diff / abs(w) <= tol.reltol:
        return True, ""
    rel = diff / abs(w) if w else math.inf
    return False, (
        f"{got} vs {want}: abs diff {diff:.3g} (abstol {tol.abstol}), "
        f"rel diff {rel:.3g} (reltol {tol.reltol})"
    )


def compare_text(expected: str, got: str, tol: Tolerance) -> list[Mismatch]:
    """Every mismatching line (an empty list: the output validates)."""
    want_lines = expected.splitlines()
    got_lines = got.splitlines()
    if tol.compwhite:  # blank lines are whitespace too
        want_lines = [ln for ln in want_lines if ln.strip()]
        got_lines = [ln for ln in got_lines if ln.strip()]
    out: list[Mismatch] = []
    for n in range(max(len(want_lines), len(got_lines))):
        want = want_lines[n] if n < len(want_lines) else None
        have = got_lines[n] if n < len(got_lines) else None
        if want is None or have is None:
            out.append(
                Mismatch(
                    n + 1, want or "", have or "", "missing line" if have is None else "extra line"
                )
            )
            continue
        if want == have:
            continue
        ws, wn = _split(want, tol)
        gs, gn = _split(have, tol)
        if ws != gs or len(wn) != len(gn):
            out.append(Mismatch(n + 1, want, have, "text differs"))
            continue
        for a, b in zip(wn, gn, strict=True):
            ok, why = _close(a, b, tol)
            if not ok:
                out.append(Mismatch(n + 1, want, have, why))
                break
    return out


def validate_file(expected: Path, got: Path, tol: Tolerance) -> list[Mismatch]:
    if not got.is_file():
        return [Mismatch(0, expected.name, "", f"{got.name} was not written")]
    mismatches = compare_text(
        expected.read_text(errors="replace"), got.read_text(errors="replace"), tol
    )
    return [] if len(mismatches) <= tol.skiptol else mismatches
