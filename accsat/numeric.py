"""numpy loaded with OpenBLAS's thread pool at one thread, for accsat's own arrays (the
ILP's model: no matrix product in it).

numpy's OpenBLAS starts a worker thread per core when it loads, which spins for about
half a second: on a 2-core machine 50-90 ms of a core at every process that imports it
(a rewrite's first ILP kernel, each compile server), beside the compiles of a
``make -j``. (accsat check's verifier imports numpy itself: once a check, off the
compile's path.) OpenBLAS reads ``OPENBLAS_NUM_THREADS`` as it loads, so the variable is set
only while numpy loads (where the caller has not set it): a program accsat runs later
(``accsat tune``'s ``--run``) gets the caller's environment.
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
    if given is None:
        os.environ[BLAS_THREADS] = "1"
    try:
        import numpy
    finally:
        if given is None:
            os.environ.pop(BLAS_THREADS, None)
    return numpy


load_numpy()
