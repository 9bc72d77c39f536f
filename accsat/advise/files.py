"""A whole file: every kernel as written and as accsat rewrites it.

The rewritten stage is the file accsat prints for the chosen variant, loaded
again (with ``#line`` directives, so that its lines are the user's) and
analysed by the same code: what it reports is what the rewritten body loads.
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..fileio import write_atomically
from ..frontend import ctypes as ct
from ..frontend.load import LoadedFile, load
from ..options import Options
from ..pipeline import rewrite_file
from ..report import KernelReport
from .analyse import KernelAdvice, StageAdvice, advise_kernel, analyse_body
from .spelling import Spelling
from .thread import enclosing, thread_index


@dataclass(frozen=True)
class AdviseOptions:
    rewrite: Options = Options()  # the variant and preprocessing flags
    convention: str = "nvc"  # thread index rules: "nvc" or "gcc" (thread.py)
    rewritten: bool = True  # also analyse the rewritten body
    pressure: bool = True  # registers per variant, where gcc's nvptx offload compiler is


@dataclass
class FileAdvice:
    path: Path
    kernels: list[KernelAdvice]
    reports: list[KernelReport] = field(default_factory=list)  # the rewrite's
    notes: list[str] = field(default_factory=list)  # what could not be done, and why
    seconds: float = 0.0


def advise_file(path: Path, options: AdviseOptions = AdviseOptions()) -> FileAdvice:
    start = time.perf_counter()
    path = Path(path)
    loaded = load(path, options.rewrite.preprocess)
    with ct.targeting(loaded.target):
        spelling = Spelling(loaded.source, str(path))
        own = [k for k in loaded.kernels if not k.header]  # (a header's kernels: not advised)
        kernels = [advise_kernel(k, loaded, options.convention, spelling) for k in own]
        advice = FileAdvice(path, kernels)
        if options.rewritten and kernels:
            _rewritten_stage(advice, loaded, options)
        if options.pressure and kernels:
            from .pressure import add_pressure  # compilers and ptxas: only when asked

            advice.notes += add_pressure(kernels, loaded, options.rewrite)
    advice.seconds = time.perf_counter() - start
    return advice


def _rewritten_stage(advice: FileAdvice, loaded: LoadedFile, options: AdviseOptions) -> None:
    ropts = replace(options.rewrite, line_directives=str(advice.path))
    result = rewrite_file(advice.path, ropts)
    advice.reports = result.kernels
    new = load_rewritten(advice.path, result.text, ropts)
    if len(new.kernels) != len(advice.kernels):
        advice.notes.append(
            f"{advice.path}: the rewritten file has {len(new.kernels)} "
            f"kernels, the original {len(advice.kernels)}: rewritten "
            "stage left out"
        )
        return
    for k, ka in zip(new.kernels, advice.kernels, strict=True):
        chain, outer = enclosing(new.ast, k)
        thread = thread_index(k, chain, options.convention)
        stage = analyse_body(k, new, thread, outer)
        _user_lines(ka.stages["written"], stage, ka.line)
        ka.stages["rewritten"] = stage


def _user_lines(written: StageAdvice, rewritten: StageAdvice, kernel_line: int) -> None:
    """Rewritten accesses on the user's lines: the first line that accesses the same
    address as written (``#line`` gives only the statement a temporary precedes)."""
    first: dict[tuple, int] = {}
    for rec in written.accesses:
        if rec.key is not None:
            first[rec.key] = min(first.get(rec.key, rec.line), rec.line)
    for rec in rewritten.accesses:
        rec.kernel_line = kernel_line
        rec.line = first.get(rec.key, rec.line) if rec.key is not None else rec.line


def load_rewritten(path: Path, text: str, options: Options) -> LoadedFile:
    """``text`` (accsat's output for ``path``, with ``#line`` directives naming it) loaded
    from a temporary copy; quoted includes still find the original's folder."""
    with tempfile.TemporaryDirectory(prefix="accsat-advise-") as tmp:
        copy = Path(tmp) / path.name
        write_atomically(copy, text)  # the user's bytes, undecodable ones too
        popts = options.preprocess
        flags = tuple(popts.flags) + ("-iquote", str(path.resolve().parent))
        return load(copy, replace(popts, flags=flags), text=text, main=str(path), cache=False)


__all__ = ["AdviseOptions", "FileAdvice", "StageAdvice", "advise_file"]
