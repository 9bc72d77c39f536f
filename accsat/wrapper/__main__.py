"""``python -m accsat.wrapper COMPILER ARGS...``: the same as ``accsat-cc``."""

from . import main

main()
