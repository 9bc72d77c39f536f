"""The target a file is compiled for, as the compiler's flags make it (``ctypes.Target``).

What the preprocessor knows (plain char's signedness, FLT_EVAL_METHOD, the sizes of
long and pointers) is read off the preprocessed text, where accsat's prelude writes it
as an enum (``fakelibc/_accsat_prelude.h``): cpp runs with the user's flags anyway, so
this costs no process of its own. What only the compiler proper knows (``-fshort-enums``,
``-fwrapv``) comes from the flags themselves, the last one of each kind winning as it
does for gcc and clang.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the wrapper reads FLAGS before anything else: no type model for that
    from .ctypes import Target

_VALUE = re.compile(
    r"\b__accsat_(flt_eval_method|sizeof_long|sizeof_pointer|char_unsigned)\s*=\s*(-?\s*\d+)"
)

# flag -> (aspect, value); the last flag naming an aspect decides it
FLAGS: dict[str, tuple[str, bool]] = {
    "-fshort-enums": ("short_enums", True),
    "-fno-short-enums": ("short_enums", False),
    "-fwrapv": ("wrapv", True),
    "-fno-wrapv": ("wrapv", False),
    # gcc 8+ and clang: -fno-strict-overflow is -fwrapv (and -fwrapv-pointer)
    "-fno-strict-overflow": ("wrapv", True),
    "-fstrict-overflow": ("wrapv", False),
}


def from_flags(flags: Sequence[str]) -> dict[str, bool]:
    """The aspects the compile flags decide (those not named keep their default)."""
    out: dict[str, bool] = {}
    for flag in flags:
        if flag in FLAGS:
            aspect, value = FLAGS[flag]
            out[aspect] = value
    return out


def read_target(preprocessed: str, flags: Sequence[str]) -> Target:
    """The target of a file preprocessed with accsat's prelude and compiled with ``flags``."""
    from .ctypes import Target

    values = {m.group(1): int(m.group(2).replace(" ", "")) for m in _VALUE.finditer(preprocessed)}
    lp64 = values.get("sizeof_long", 8) == 8 and values.get("sizeof_pointer", 8) == 8
    return Target(
        char_signed="char_unsigned" not in values,
        flt_eval_method=values.get("flt_eval_method", 0),
        lp64=lp64,
        **from_flags(flags),
    )
