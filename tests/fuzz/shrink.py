"""Shrink a failing generated kernel by editing the generator's recorded choices.

The generator maps smaller choices to simpler programs, so deleting runs of
choices and lowering single choices (the approach of hypothesis' shrinker, on
the same kind of choice sequence) converges on a small kernel that still fails.
"""

from __future__ import annotations

from collections.abc import Callable

from .choosers import ReplayChooser
from .forms import NO_FLAGS, Flags
from .gen import Kernel, gen_kernel


def replay(
    choices: list[int],
    k: str = "k0",
    model: str | None = None,
    avoid: frozenset = frozenset(),
    flags: Flags = NO_FLAGS,
) -> tuple[Kernel, list[int]]:
    c = ReplayChooser(choices)
    kn = gen_kernel(c, k, avoid, flags)
    if model is not None:
        kn.model = model
    return kn, c.choices[: c.pos]


def shrink(
    choices: list[int],
    fails: Callable[[list[int]], bool],
    budget: int = 400,
    log: Callable[[str], None] | None = None,
) -> list[int]:
    """The shortest, smallest choice sequence found for which ``fails`` stays true."""
    best = list(choices)
    tries = 0

    def attempt(cand: list[int]) -> bool:
        nonlocal best, tries
        if tries >= budget or cand == best:
            return False
        tries += 1
        if fails(cand):
            best = cand
            if log:
                log(f"shrink: {len(best)} choices, sum {sum(best)} (try {tries})")
            return True
        return False

    improved = True
    while improved and tries < budget:
        improved = False
        # delete runs of choices, longest first
        for size in (32, 16, 8, 4, 2, 1):
            i = 0
            while i < len(best) and tries < budget:
                if attempt(best[:i] + best[i + size :]):
                    improved = True
                else:
                    i += size
        # lower each choice: to zero, then halve
        for i in range(len(best)):
            if tries >= budget:
                break
            if best[i] == 0:
                continue
            if attempt(best[:i] + [0] + best[i + 1 :]):
                improved = True
                continue
            if (
                best[i] > 1
                and attempt(best[:i] + [best[i] // 2] + best[i + 1 :])
                or attempt(best[:i] + [best[i] - 1] + best[i + 1 :])
            ):
                improved = True
    return best
