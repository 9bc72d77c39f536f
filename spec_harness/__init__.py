"""spec_harness: SPEC ACCEL sweeps for users who hold a SPEC licence (`accsat bench spec`).

SPEC ACCEL is proprietary: nothing of it is shipped or fetched. The harness
works on the user's installation (runspec mode, or direct mode without
runspec) on accsat.sweep's engine: cells, cache, results, plots.
"""
