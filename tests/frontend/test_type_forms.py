"""C's types as the compiler applies them (issue 35): one program per type form, built
through accsat-cc in every variant, prints what the compiler's build of the original
prints; each kernel is rewritten (or, for a form accsat refuses, left as written with
the reason) so that no case passes by doing nothing.

Each program in type_forms/ says in its first comment the flags to build it with (sets
separated by ";"), what accsat does with its kernels (``rewritten``, or ``unchanged:``
and a word of the reason) and, optionally, the compilers to build it with.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from accsat.options import VARIANTS

FORMS = Path(__file__).parent / "type_forms"
WRAPPER = [sys.executable, "-m", "accsat.wrapper"]
COMPILERS = {"gcc": shutil.which("gcc"), "clang": shutil.which("clang-19") or shutil.which("clang")}


def _header(path: Path) -> dict[str, str]:
    first = path.read_text().split("*/", 1)[0]
    return {k.strip(): v.strip() for k, v in re.findall(r"(\w+):\s*([^|\n]*)", first)}


def _cases():
    for path in sorted(FORMS.glob("*.c")):
        head = _header(path)
        for flags in head["flags"].split(";"):
            for compiler in head.get("compilers", "gcc").split():
                for variant in VARIANTS:
                    yield pytest.param(
                        path,
                        tuple(flags.split()),
                        compiler,
                        variant,
                        id=f"{path.stem}-{'_'.join(flags.split()[1:]) or 'plain'}-{compiler}-{variant}",
                    )


def _model(path: Path, compiler: str) -> list[str]:
    omp = "#pragma omp" in path.read_text()
    if compiler == "clang":
        return ["-fopenmp"] if omp else []  # clang-19 has no OpenACC: the pragmas are ignored
    return ["-fopenmp" if omp else "-fopenacc", "-foffload=disable"]


def _run(cmd: list[str], cwd: Path, env: dict | None = None) -> str:
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{' '.join(cmd)}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.mark.parametrize(("path", "flags", "compiler", "variant"), list(_cases()))
def test_type_form_prints_what_the_compiler_prints(path, flags, compiler, variant, tmp_path):
    cc = COMPILERS[compiler]
    if cc is None:
        pytest.skip(f"{compiler} is not installed (looked for clang-19 and clang)")
    shutil.copy(path, tmp_path / path.name)
    cmd = [cc, *flags, *_model(path, compiler), path.name, "-o"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACCSAT_")}
    runtime = {"LD_LIBRARY_PATH": "/usr/lib/llvm-19/lib"} if compiler == "clang" else {}
    _run([*cmd, "orig"], tmp_path)
    report = tmp_path / "report.jsonl"
    env.update(
        ACCSAT_VARIANT=variant,
        ACCSAT_REPORT=str(report),
        ACCSAT_CACHE="0",
        ACCSAT_STRICT="1",
        LC_ALL="C",
    )
    _run([*WRAPPER, *cmd, "rewritten"], tmp_path, env)
    expected = _run(["./orig"], tmp_path, dict(os.environ, **runtime))
    got = _run(["./rewritten"], tmp_path, dict(os.environ, **runtime))
    assert got == expected
    kernels = [json.loads(line) for line in report.read_text().splitlines()]
    assert kernels, "accsat-cc found no kernel"
    want = _header(path)["expect"]
    for k in kernels:
        if want == "rewritten":
            assert k["status"] == "rewritten", k["reason"]
            assert k["typecheck"]["result"] == "agrees", k["typecheck"]
        else:
            assert k["status"] == "unchanged" and want.split(":", 1)[1].strip() in k["reason"]
