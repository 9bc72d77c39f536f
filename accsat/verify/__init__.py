"""Translation validation of accsat's rewrites.

An interpreter for the C of kernel bodies (``interp``) runs each body before
and after rewriting on random states (``states``), and on edge rounds made of the
kernel's own constants and its types' limits (``edges``), over a symbolic memory
(``memory``) and compares final memory, live-out variables and calls
(``compare``). ``validate`` holds the entry points:

* ``verify_body(kernel, symbols, new_body_text, options, defined=...)`` -> KernelVerdict
  (the per-kernel hook for the pipeline: keep the rewrite unless ``verdict == "fail"``;
  ``"weak"``: no difference, but most states were undefined behaviour in the original);
* ``verify_file(original_path, rewritten_text, options)`` -> FileVerification
  (``.verdicts``, ``.text`` with failed kernels put back as written, ``.ok``);
* ``format_table(verdicts)``, ``tolerance_for(options)``.

``accsat.check.check_file`` (``accsat check``) rewrites a file and then validates it:
this package never imports the pipeline.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .compare import Tolerance
    from .validate import (
        DEFAULT_SEED,
        DEFAULT_TRIALS,
        FileVerification,
        KernelVerdict,
        format_table,
        parse_body,
        tolerance_for,
        verify_body,
        verify_file,
        verify_kernels,
        verify_programs,
    )

__all__ = [
    "DEFAULT_SEED",
    "DEFAULT_TRIALS",
    "FileVerification",
    "KernelVerdict",
    "Tolerance",
    "format_table",
    "parse_body",
    "tolerance_for",
    "verify_body",
    "verify_file",
    "verify_kernels",
    "verify_programs",
]
# where each name of the package lives, loaded on first use: the rewrite imports the
# package for reread and typecheck alone (the interpreter's modules and numpy: 60 ms of
# every accsat start otherwise)
_HOME = {name: "compare" if name == "Tolerance" else "validate" for name in __all__}


def __getattr__(name: str) -> object:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)
