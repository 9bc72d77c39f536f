"""``accsat check``: rewrite a file, then translation-validate every kernel.

It sits above both the pipeline and ``verify`` (which knows nothing of the
pipeline), so that neither imports the other in a circle.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from . import numeric  # noqa: F401  (numpy, one BLAS thread, before the verifier's)
from .errors import AccsatError
from .frontend.depth import deep_recursion
from .frontend.load import read_source
from .options import Options
from .pipeline import FileResult, rewrite_file
from .verify import DEFAULT_SEED, DEFAULT_TRIALS, FileVerification, Tolerance, verify_file


def check_file(
    path: Path,
    options: Options,
    *,
    trials: int = DEFAULT_TRIALS,
    seed: int = DEFAULT_SEED,
    tolerance: Tolerance | None | str = "auto",
    progress: Callable[[int, int], None] | None = None,
) -> tuple[FileResult, FileVerification]:
    """Rewrite ``path`` with ``options`` (``progress``: as ``rewrite_file``'s), then
    validate every kernel of the result. Only ``fail`` verdicts are failures (``weak``
    is printed, not counted: the rewrite stays)."""
    path = Path(path)
    result = rewrite_file(path, options, progress)
    try:
        with deep_recursion():  # the interpreter walks expressions recursively
            ver = verify_file(
                path,
                result.text,
                options,
                trials=trials,
                seed=seed,
                tolerance=tolerance,
                original_text=read_source(path),
            )
    except RecursionError:  # past what MAX_DEPTH leaves room for: one line, no traceback
        raise AccsatError("expression too deep to validate", str(path)) from None
    return result, _with_type_checks(result, ver)


def _with_type_checks(result: FileResult, ver: FileVerification) -> FileVerification:
    """A kernel the compiler's type check kept as written failed, whatever the
    interpreter (which shares accsat's model of C's types) found of the rest: its
    rewrite would have been printed with types the compiler does not give it."""
    for i, report in enumerate(result.kernels):
        if (report.typecheck or {}).get("result") == "disagrees" and i < len(ver.verdicts):
            ver.verdicts[i] = replace(ver.verdicts[i], verdict="fail", message=report.reason)
    return ver
