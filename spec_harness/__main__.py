"""``python -m spec_harness``: the same command as ``accsat bench spec``."""

from .cli import spec

if __name__ == "__main__":
    spec(prog_name="python -m spec_harness")
