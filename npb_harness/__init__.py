"""npb_harness: benchmark sweeps over NPB-ACC with accsat (see `accsat bench npb`).

Also the sweep engine the SPEC ACCEL harness (spec_harness) shares: cells,
flags table, on-disk cache, results, plots.
"""

# part of every cell's build fingerprint: bump when a change here changes
# what a build produces, so that cached cells are redone
__version__ = "1"
