"""What a SPEC benchmark declares in ``Spec/object.pm``, read through Perl.

object.pm is Perl: package variables (``@sources``, ``$exename``,
``$bench_flags``, ``$abstol``, ``$reltol``, ``$compwhite``...) and an
``invoke`` sub that returns the command lines of a run. Rather than guess
at Perl with regular expressions, objectpm.pl loads the file with a stub of
the benchmark object SPEC's harness passes to ``invoke`` and prints JSON.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from accsat.toolchain import process

_SCRIPT = Path(__file__).with_name("objectpm.pl")


class ObjectPmError(Exception):
    pass


@dataclass
class Invocation:
    command: str
    args: list[str]
    input: str | None = None  # stdin, a file of the run folder
    output: str | None = None  # stdout goes here
    error: str | None = None  # stderr


@dataclass
class BenchInfo:
    name: str  # "303.ostencil"
    exename: str
    sources: list[str]
    bench_flags: list[str]  # $bench_flags and $bench_cflags, split
    abstol: float | dict | None = None  # a number, or per output file with "default"
    reltol: float | dict | None = None
    compwhite: bool = False
    floatcompare: bool = False
    skiptol: int = 0
    ignorecase: bool = False
    runs: list[Invocation] = field(default_factory=list)
    invoke_defined: bool = True

    def tolerance_for(self, output_file: str) -> tuple[float | None, float | None]:
        """(abstol, reltol) for one output file, as SPEC's per-file hashes resolve them."""
        return _pick(self.abstol, output_file), _pick(self.reltol, output_file)


def _pick(tol: float | dict | None, name: str) -> float | None:
    if isinstance(tol, dict):
        value = tol.get(name, tol.get("default"))
        return None if value is None else float(value)
    return None if tol is None else float(tol)


def load(bench_dir: Path, exe: str, size: str, input_dirs: list[Path]) -> BenchInfo:
    """Load ``bench_dir/Spec/object.pm``; ``runs`` are invoke()'s for these inputs."""
    perl = shutil.which("perl")
    if perl is None:
        raise ObjectPmError("perl is not installed (SPEC's object.pm files are Perl)")
    objpm = bench_dir / "Spec" / "object.pm"
    if not objpm.is_file():
        raise ObjectPmError(f"no {objpm}")
    done = process.capture(
        [
            perl,
            str(_SCRIPT),
            str(objpm.resolve()),
            exe,
            size,
            *(str(d.resolve()) for d in input_dirs),
        ],
        timeout=60,
    )
    if done.timed_out:
        raise ObjectPmError(f"perl {objpm}: no answer in 60 s")
    if not done.ok:
        raise ObjectPmError(done.err.strip() or f"perl exit status {done.returncode}")
    d = json.loads(done.stdout)
    sources = d.get("sources") or sorted(p.name for p in (bench_dir / "src").glob("*.c"))
    flags = " ".join(x for x in (d.get("bench_flags"), d.get("bench_cflags")) if x)
    exename = d.get("exename") or bench_dir.name.split(".", 1)[-1]
    runs = [
        Invocation(
            r["command"] or exe,
            list(r.get("args") or []),
            r.get("input"),
            r.get("output"),
            r.get("error"),
        )
        for r in d.get("runs", [])
    ]
    return BenchInfo(
        name=bench_dir.name,
        exename=exename,
        sources=list(sources),
        bench_flags=flags.split(),
        abstol=d.get("abstol"),
        reltol=d.get("reltol"),
        compwhite=bool(d.get("compwhite")),
        floatcompare=bool(d.get("floatcompare")),
        skiptol=int(d.get("skiptol") or 0),
        ignorecase=bool(d.get("ignorecase")),
        runs=runs,
        invoke_defined=bool(d.get("invoke_defined")),
    )
