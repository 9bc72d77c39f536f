"""``accsat check``: rewrite a file, then translation-validate every kernel.

It sits above both the pipeline and ``verify`` (which knows nothing of the
pipeline), so that neither imports the other in a circle.
"""

from __future__ import annotations

from pathlib import Path

from .options import Options
from .pipeline import FileResult, rewrite_file
from .verify import DEFAULT_SEED, DEFAULT_TRIALS, FileVerification, Tolerance, verify_file


def check_file(path: Path, options: Options, *, trials: int = DEFAULT_TRIALS,
               seed: int = DEFAULT_SEED, tolerance: Tolerance | None | str = "auto",
               ) -> tuple[FileResult, FileVerification]:
    """Rewrite ``path`` with ``options``, then validate every kernel of the result."""
    path = Path(path)
    result = rewrite_file(path, options)
    ver = verify_file(path, result.text, options, trials=trials, seed=seed, tolerance=tolerance)
    return result, ver
