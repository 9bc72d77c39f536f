"""NPB-ACC's layout, and the private copy of one benchmark's tree per cell.

NPB-ACC keeps each benchmark standalone: ``ROOT/BT/{BT,common,config,sys}``,
sources in ``ROOT/<NAME>/<dir>`` where ``<dir>`` is usually the name (LU's
is ``LU-HP``). The user's tree is only ever read: every cell builds in a copy
without build products, so that the suite's own Makefiles regenerate
npbparams.h (setparams) and rebuild everything with the cell's compiler.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable, Iterator
from pathlib import Path

NPB_BENCHMARKS = ("BT", "CG", "EP", "FT", "LU", "MG", "SP")
_NOT_SOURCES = {"common", "config", "sys", "bin"}
# build products that a user's tree may hold and a private copy must not
_PRODUCTS = (".o", ".x", ".mkoffload", ".ptx", ".i", ".s")


def available(root: Path) -> list[str]:
    """Benchmarks under ``root`` (folders with config/make.def)."""
    return sorted(p.name for p in root.iterdir() if (p / "config" / "make.def").is_file())


def source_dir(top: Path) -> Path:
    """``ROOT/BT`` -> ``ROOT/BT/BT``; ``ROOT/LU`` -> ``ROOT/LU/LU-HP``."""
    named = top / top.name
    if (named / "Makefile").is_file():
        return named
    found = [
        p
        for p in sorted(top.iterdir())
        if p.is_dir() and p.name not in _NOT_SOURCES and (p / "Makefile").is_file()
    ]
    if len(found) != 1:
        raise FileNotFoundError(
            f"{top}: expected one source folder with a Makefile, "
            f"found {[p.name for p in found] or 'none'}"
        )
    return found[0]


def sources(
    root: Path, benchmarks: Iterable[str] = NPB_BENCHMARKS
) -> Iterator[tuple[str, Path, Path]]:
    """(benchmark, C file, the benchmark's ``common`` folder) for every source file
    of ``root``'s benchmarks, benchmark by benchmark, files in name order."""
    for bench in benchmarks:
        folder = source_dir(root / bench)
        for f in sorted(folder.glob("*.c")):
            yield bench, f, folder.parent / "common"


def private_copy(root: Path, benchmark: str, dest: Path) -> Path:
    """A fresh copy of ``root/benchmark`` at ``dest``; its source folder."""
    if dest.exists():
        shutil.rmtree(dest)
    # symlinks followed: the copy must not reach back into the user's tree
    shutil.copytree(root / benchmark, dest, symlinks=False, ignore=_ignore)
    return dest / source_dir(root / benchmark).name


def _ignore(folder: str, names: list[str]) -> set[str]:
    skip = {n for n in names if n.endswith(_PRODUCTS) or n == "npbparams.h" or ".xnvptx-none." in n}
    if Path(folder).name == "sys":
        skip.add("setparams")  # a binary from somebody else's machine: rebuilt by make
    return skip
