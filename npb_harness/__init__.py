"""npb_harness: benchmark sweeps over NPB-ACC with accsat (see `accsat bench npb`).

Only what is NPB's own: the tree's layout and private copies (tree.py), its
Makefiles (build.py), its closing report (run.py), the suite (suite.py) and
the command (cli.py). The sweep engine is accsat.sweep.
"""
