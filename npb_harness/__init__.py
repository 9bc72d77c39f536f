"""npb_harness: benchmark sweeps over NPB-ACC with accsat (see `accsat bench npb`)."""
