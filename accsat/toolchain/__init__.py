"""What every tool of accsat needs to drive compilers, below wrapper, sweep, tune and advise.

* :mod:`.compilers`: compiler families (read from a command's name) and the one
  table of flags per family, programming model and target;
* :mod:`.process`: the one process runner: every child process accsat starts
  (compilers, cpp, ptxas, make, benchmarks, squeue) goes through it, with a
  timeout, in its own process group;
* :mod:`.records`: records (JSON, CSV) written so that no reader sees half of one;
* :mod:`.ptx`: the static GPU view (``ptxas -v`` and the PTX counts of gcc's
  offload build) and a translation unit's probe (accsat-cc's checked ``keep``).

It imports nothing of accsat's stages, so any of them may import it.
"""
