"""The sweep engine the benchmark harnesses share (``accsat bench npb|spec``).

A sweep is a grid of cells (benchmark x size x compiler x target x config),
each built, run and cached on disk; a suite (npb_harness, spec_harness) says
how to check, build and run one cell, an executor where the cells run, and
the engine does the rest. Nothing here knows NPB or SPEC.

Only the version lives here: importing the package costs nothing, so that the
modules can be imported one by one (plots pull in matplotlib, the engine tqdm).
"""

# part of every cell's build fingerprint (the "harness" key): bump when a change
# here changes what a build produces, so that cached cells are redone
__version__ = "1"

# a run (of one cell, of one configuration in ``accsat tune``) and a build past these
# seconds count as timeouts: the defaults of --timeout and --build-timeout
RUN_TIMEOUT = 900.0
BUILD_TIMEOUT = 3600.0
