"""numpy loaded with OpenBLAS's thread pool at one thread, for accsat's own arrays (the
ILP's model, the verifier's values: no matrix product among them).

numpy's OpenBLAS starts a worker thread per core when it loads, which spins for about
half a second: on a 2-core machine 50-90 ms of a core at every process that imports it
(a rewrite's first ILP kernel, each compile server), beside the compiles of a
``make -j``. Importing this module loads it (the compile server's PRELOAD; the
verifier's callers, ``accsat check`` and ``--verify``, before the verifier).

OpenBLAS reads ``OPENBLAS_NUM_THREADS`` as it loads (above ``OMP_NUM_THREADS`` and
``GOTO_NUM_THREADS``), so the variable is set only while numpy loads, where the caller
has not set it (an empty value is none to OpenBLAS): a program accsat runs later
(``accsat tune``'s ``--run``) gets the caller's environment. For the import's few
milliseconds the value is every thread's: what accsat may start meanwhile is a compiler
(the server loads numpy before its children; a rewrite, at its first ILP kernel), which
reads no BLAS variable.
"""

from __future__ import annotations

import os
import sys
from types import ModuleType

BLAS_THREADS = "OPENBLAS_NUM_THREADS"


def load_numpy() -> ModuleType:
    """numpy, imported now (with one OpenBLAS thread) unless it was already."""
    if "numpy" in sys.modules:
        return sys.modules["numpy"]
    given = os.environ.get(BLAS_THREADS)
    if not given:
        os.environ[BLAS_THREADS] = "1"
    try:
        import numpy
    finally:
        if given is None:
            os.environ.pop(BLAS_THREADS, None)
        elif not given:
            os.environ[BLAS_THREADS] = given
    return numpy


load_numpy()
