"""accsat tune: per-kernel variant choice measured on the user's machine.

constructs (the unit timed and chosen: compute constructs and their identity),
profile (ACCSAT_PROFILE: timers accsat-cc inserts, and reading what they
wrote), db (the tuning database ACCSAT_TUNE applies), choose (per kernel,
orig unless a variant beats the noise), suite + cli (``accsat tune`` as a sweep
of the engine in accsat.sweep), outputs and plot.

Nothing is imported here: accsat-cc reads constructs, profile and db on every
compile and must not pay for the rest.
"""
