"""The compiler's floating-point flags: does the user ask for exact floating point?

A build with ``-ffp-contract=off`` or ``-frounding-math`` (or nvc's ``-Mnofma``,
``-Kieee``...) asks that no multiply-add be fused and nothing be reassociated
behind its back; accsat-cc then rewrites as ``--fp-exact`` (ACCSAT_FP_EXACT):
no rule that can change a floating-point result. A flag that allows
value-changing optimizations again (``-ffast-math``, ``-ffp-contract=fast``...)
cancels what came before it, as it does for the compiler: the last word on each
aspect wins. docs/accsat-cc.md has the table; :data:`FLAGS` is its source.
"""

from __future__ import annotations

from dataclasses import dataclass

# what a flag speaks of; the call is exact when the last word on any of them asks for it
ASPECTS = ("contraction", "rounding", "reassociation", "model", "exceptions")
ALL = "all"  # a flag that allows every value-changing optimization (fast math)


@dataclass(frozen=True)
class FpFlag:
    spelling: str  # the argument; "=..." ends in the value, "-gpu=" sub-options are listed
    compilers: str  # who takes it (documentation)
    aspect: str  # one of ASPECTS, or ALL
    exact: bool  # True: asks for exactness; False: allows what it speaks of
    why: str  # documentation


FLAGS: tuple[FpFlag, ...] = (
    FpFlag("-ffp-contract=off", "gcc, clang", "contraction", True, "no fused multiply-add"),
    FpFlag(
        "-ffp-contract=on",
        "gcc, clang",
        "contraction",
        True,
        "contraction only within one expression, as ISO C allows: no reassociation",
    ),
    FpFlag("-ffp-contract=fast", "gcc, clang", "contraction", False, "contraction anywhere"),
    FpFlag(
        "-ffp-contract=fast-honor-pragmas", "clang", "contraction", False, "contraction anywhere"
    ),
    FpFlag("-mno-fused-madd", "gcc (old spelling)", "contraction", True, "no fused multiply-add"),
    FpFlag(
        "-frounding-math",
        "gcc, clang",
        "rounding",
        True,
        "the rounding mode may change at run time: exact rounding of every operation",
    ),
    FpFlag("-fno-rounding-math", "gcc, clang", "rounding", False, "the default"),
    FpFlag("-fno-associative-math", "gcc, clang", "reassociation", True, "no reassociation"),
    FpFlag("-fassociative-math", "gcc, clang", "reassociation", False, "reassociation"),
    FpFlag(
        "-fno-unsafe-math-optimizations",
        "gcc, clang",
        "reassociation",
        True,
        "no reassociation (among others)",
    ),
    FpFlag(
        "-funsafe-math-optimizations",
        "gcc, clang",
        "reassociation",
        False,
        "reassociation (among others)",
    ),
    FpFlag(
        "-ffp-model=strict",
        "clang, icx",
        "model",
        True,
        "no contraction, dynamic rounding, strict exceptions",
    ),
    FpFlag(
        "-ffp-model=precise",
        "clang, icx",
        "model",
        True,
        "value-safe optimizations only (contraction within an expression)",
    ),
    FpFlag("-ffp-model=fast", "clang, icx", ALL, False, "fast math"),
    FpFlag("-ffp-model=aggressive", "clang", ALL, False, "fast math"),
    FpFlag(
        "-ffp-exception-behavior=strict",
        "clang",
        "exceptions",
        True,
        "floating-point exceptions as the source raises them",
    ),
    FpFlag("-ffp-exception-behavior=maytrap", "clang", "exceptions", False, "not strict"),
    FpFlag("-ffp-exception-behavior=ignore", "clang", "exceptions", False, "the default"),
    FpFlag(
        "-fp-model=strict",
        "icx, icc (also -fp-model strict)",
        "model",
        True,
        "no contraction, exact rounding and exceptions",
    ),
    FpFlag("-fp-model=precise", "icx, icc", "model", True, "value-safe optimizations only"),
    FpFlag(
        "-fp-model=consistent",
        "icx, icc",
        "model",
        True,
        "the same results everywhere: no contraction, no reassociation",
    ),
    FpFlag("-fp-model=source", "icc", "model", True, "value-safe, source precision"),
    FpFlag("-fp-model=fast", "icx, icc (also fast=1, fast=2)", ALL, False, "fast math"),
    FpFlag("-no-fma", "icx, icc", "contraction", True, "no fused multiply-add"),
    FpFlag("-fma", "icx, icc", "contraction", False, "fused multiply-adds"),
    FpFlag("-Mnofma", "nvc", "contraction", True, "no fused multiply-add on the host"),
    FpFlag("-Mfma", "nvc", "contraction", False, "fused multiply-adds on the host"),
    FpFlag(
        "-gpu=nofma",
        "nvc (a -gpu= sub-option; also -ta=tesla:nofma)",
        "contraction",
        True,
        "no fused multiply-add on the GPU",
    ),
    FpFlag(
        "-gpu=fma",
        "nvc (a -gpu= sub-option)",
        "contraction",
        False,
        "fused multiply-adds on the GPU",
    ),
    FpFlag("-Kieee", "nvc", "model", True, "strict IEEE 754 conformance"),
    FpFlag("-Knoieee", "nvc", "model", False, "the default"),
    FpFlag("-Mfprelaxed", "nvc (also =...)", ALL, False, "relaxed precision"),
    FpFlag("-ffast-math", "gcc, clang, nvc", ALL, False, "fast math (reassociation too)"),
    FpFlag("-Ofast", "gcc, clang", ALL, False, "-O3 -ffast-math"),
)
_BY_SPELLING = {f.spelling: f for f in FLAGS}


def _words(args: list[str]) -> list[tuple[str, str]]:
    """(the spelling a flag is listed under, the argument as given) for each argument
    that may be a floating-point flag, in order."""
    out: list[tuple[str, str]] = []
    for i, a in enumerate(args):
        if a == "-fp-model" and i + 1 < len(args):  # icc's separate spelling
            a = f"-fp-model={args[i + 1]}"
            given = f"-fp-model {args[i + 1]}"
        else:
            given = a
        if a.startswith("-fp-model=fast"):  # fast=1, fast=2
            out.append(("-fp-model=fast", given))
        elif a.startswith("-Mfprelaxed"):  # =div,sqrt...
            out.append(("-Mfprelaxed", given))
        elif a.startswith(("-gpu=", "-ta=")):  # comma- (and, for -ta, colon-) separated
            for sub in a.split("=", 1)[1].replace(":", ",").split(","):
                if sub in ("fma", "nofma"):
                    out.append((f"-gpu={sub}", given))
        else:
            out.append((a, given))
    return out


def exact_because(args: list[str]) -> str | None:
    """The flag (as given) for which the compile asks for exact floating point, or None:
    per aspect the last word wins, and fast math cancels every earlier one."""
    said: dict[str, tuple[int, str] | None] = {}  # aspect -> (where, the flag) asking for it
    for n, (spelling, given) in enumerate(_words(args)):
        flag = _BY_SPELLING.get(spelling)
        if flag is None:
            continue
        if flag.aspect == ALL:
            said.clear()
        else:
            said[flag.aspect] = (n, given) if flag.exact else None
    asking = sorted(w for w in said.values() if w is not None)
    return asking[-1][1] if asking else None


def note(flag: str, exact: bool) -> str:
    """What ACCSAT_VERBOSE says of it (``exact``: whether the rewrite is fp_exact)."""
    from ..ccconfig import env

    if exact:
        return f"{flag}: rewriting as with {env('fp_exact')}=1 (no FMA, no float reassociation)"
    return f"{flag}: {env('fp_exact')} is set to false, FMA and float reassociation stay on"
