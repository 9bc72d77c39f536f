"""``python -m npb_harness``: the same command as ``accsat bench npb``."""

from .cli import npb

if __name__ == "__main__":
    npb(prog_name="python -m npb_harness")
