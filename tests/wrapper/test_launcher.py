"""accsat/wrapper/bin/accsat-cc: the shell launcher runs the compiler at once where accsat
has nothing to do, and hands everything else to accsat.wrapper (accsat-cc-py beside it:
here a stand-in that says it was asked)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import accsat.wrapper
from accsat.ccconfig import SETTINGS

LAUNCHER = Path(accsat.wrapper.__file__).parent / "bin" / "accsat-cc"

pytestmark = pytest.mark.skipif(shutil.which("sh") is None, reason="no /bin/sh")


@pytest.fixture
def bin_dir(tmp_path: Path) -> Path:
    """The launcher, an accsat-cc-py that writes ``python.args``, and a compiler ``cc``
    that writes ``cc.args`` and exits with $CC_STATUS."""
    folder = tmp_path / "bin"
    folder.mkdir()
    shutil.copy2(LAUNCHER, folder / "accsat-cc")
    for name, out in (("accsat-cc-py", "python.args"), ("cc", "cc.args")):
        script = folder / name
        script.write_text(
            f'#!/bin/sh\nfor a do printf "%s\\n" "$a"; done > "{tmp_path / out}"\n'
            'exit "${CC_STATUS:-0}"\n'
        )
        script.chmod(0o755)
    (tmp_path / "plain.c").write_text("int f(int x) { return x + 1; }\n")
    (tmp_path / "kernel.c").write_text("void k(double *a)\n{\n#pragma acc parallel loop\n}\n")
    (tmp_path / "upper.c").write_text("#define P PRAGMA(omp parallel for)\n")
    return folder


def launch(bin_dir: Path, *args: str, **env: str) -> tuple[int, str | None, str | None]:
    """(exit status, what accsat-cc-py was given, what cc was given)."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("ACCSAT_")}
    base.update(PATH=f"{bin_dir}{os.pathsep}{base['PATH']}", XDG_CONFIG_HOME=str(bin_dir.parent))
    done = subprocess.run(
        [str(bin_dir / "accsat-cc"), *args], cwd=bin_dir.parent, env={**base, **env}
    )
    said = {}
    for name in ("python", "cc"):
        path = bin_dir.parent / f"{name}.args"
        said[name] = path.read_text() if path.exists() else None
        path.unlink(missing_ok=True)
    return done.returncode, said["python"], said["cc"]


def test_a_compile_without_the_word_pragma_runs_the_compiler_at_once(bin_dir):
    rc, python, cc = launch(bin_dir, "cc", "-O2", "-c", "plain.c", "-o", "a file.o")
    assert (rc, python) == (0, None)
    assert cc == "-O2\n-c\nplain.c\n-o\na file.o\n"  # every argument as given
    rc, python, cc = launch(bin_dir, "cc", "-o", "app", "a.o", "b.o")  # a link: no source
    assert (rc, python, cc) == (0, None, "-o\napp\na.o\nb.o\n")
    rc, python, cc = launch(bin_dir, "cc", "-c", "plain.c", CC_STATUS="3")
    assert (rc, python) == (3, None)  # the compiler's status


@pytest.mark.parametrize(
    "args, env",
    [
        (["cc", "-c", "kernel.c"], {}),  # a directive
        (["cc", "-c", "upper.c"], {}),  # any case: a PRAGMA() macro may make one
        (["cc", "-c", "plain.c", "kernel.c"], {}),  # one of several
        (["cc", "-c", "plain.c"], {"ACCSAT_LOG": "log"}),  # a setting that logs every call
        (["cc", "-c", "plain.c"], {"ACCSAT_VERBOSE": ""}),  # set, even empty
        (["cc", '-DP=_Pragma("omp for")', "-c", "plain.c"], {}),  # a directive on the line
        (["cc", "-x", "c", "-c", "plain.c"], {}),
        (["cc", "-c", "missing.c"], {}),  # accsat.wrapper and the compiler say it
        (["cc", "@args"], {}),  # a response file
        (["nosuchcc", "-c", "plain.c"], {}),  # accsat-cc says it, as gcc's status
        (["--stats"], {}),
        ([], {}),
    ],
)
def test_everything_else_goes_to_accsat_wrapper_with_every_argument(bin_dir, args, env):
    rc, python, cc = launch(bin_dir, *args, **env)
    assert cc is None and python == "".join(f"{a}\n" for a in args)


@pytest.mark.parametrize(
    "env",
    [
        {"ACCSAT_VARIANT": "cse", "ACCSAT_CACHE_DIR": "cache", "ACCSAT_REPORT": "r.jsonl"},
        {"ACCSAT_REGISTERS": "64", "ACCSAT_TIMEOUT": "nonsense"},
    ],
)
def test_settings_of_the_rewrite_alone_leave_a_plain_file_to_the_compiler(bin_dir, env):
    """They act on kernels only: a file with none compiles at once (NPB's build through
    benchmarks/npb_wrapper_build.py, which sets the first three, paid some 80 ms of
    Python for each of its files without a kernel)."""
    rc, python, cc = launch(bin_dir, "cc", "-c", "plain.c", **env)
    assert (rc, python, cc) == (0, None, "-c\nplain.c\n")


def test_the_launcher_lists_the_settings_that_act_on_every_call():
    listed = set(re.findall(r"\$\{(ACCSAT_[A-Z_]+)\+1\}", LAUNCHER.read_text()))
    assert listed == {s.env for s in SETTINGS if s.every_call}
    doc = (Path(__file__).parents[2] / "docs" / "accsat-cc.md").read_text()
    launcher = doc[doc.index("0. **The launcher**") : doc.index("1. ")]
    assert listed <= set(re.findall(r"`(ACCSAT_[A-Z_]+)`", launcher))


def test_a_link_to_the_launcher_finds_accsat_cc_py_beside_the_launcher(bin_dir, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "accsat-cc").symlink_to(bin_dir / "accsat-cc")
    done = subprocess.run([str(elsewhere / "accsat-cc"), "--stats"], cwd=tmp_path)
    assert done.returncode == 0 and (tmp_path / "python.args").read_text() == "--stats\n"


def test_a_config_file_goes_to_accsat_wrapper(bin_dir):
    config = bin_dir.parent / "accsat" / "accsat.toml"
    config.parent.mkdir()
    config.write_text("log = 'x'\n")
    rc, python, cc = launch(bin_dir, "cc", "-c", "plain.c")
    assert cc is None and python is not None


def test_the_installed_accsat_cc_is_the_launcher():
    installed = shutil.which("accsat-cc")
    if installed is None:
        pytest.skip("accsat-cc is not on the PATH")
    text = Path(installed).read_text(errors="replace")
    if "pyenv" in text.splitlines()[-1]:  # a pyenv shim: it runs the version's own
        pytest.skip("a pyenv shim")
    assert text == LAUNCHER.read_text()


@pytest.fixture
def headers(bin_dir: Path) -> Path:
    """Sources without the word "pragma" that include headers: ``kern.h`` (in ``inc``, by
    way of ``outer.h``) holds a loop directive, ``once.h`` only ``#pragma once``."""
    root = bin_dir.parent
    (root / "inc").mkdir()
    (root / "inc" / "kern.h").write_text(
        "#pragma once\nstatic inline void k(double *a)\n{\n#pragma omp simd\n"
        "  for (int i = 0; i < 4; i++) a[i] += 1.0;\n}\n"
    )
    (root / "inc" / "outer.h").write_text('#pragma once\n#include "kern.h"\n')
    (root / "once.h").write_text("#pragma once\n#pragma GCC diagnostic push\nint f(int);\n")
    (root / "uses.c").write_text('#include "outer.h"\nint main(void) { return 0; }\n')
    (root / "near.c").write_text('#include "once.h"\n#include "inc/outer.h"\nint x;\n')
    (root / "far.c").write_text('#include "once.h"\n#include <stdio.h>\nint y;\n')
    return root


@pytest.mark.parametrize(
    "args",
    [
        ["cc", "-c", "uses.c", "-Iinc"],  # through -I and a header that includes it
        ["cc", "-c", "uses.c", "-I", "inc"],
        ["cc", "-iquote", "inc", "-c", "uses.c"],
        ["cc", "-c", "far.c", "near.c"],  # the including file's own folder
    ],
)
def test_a_header_with_a_directive_goes_to_accsat_wrapper(bin_dir, headers, args):
    """Its kernels are rewritten for the compile (frontend/headers.py)."""
    rc, python, cc = launch(bin_dir, *args)
    assert cc is None and python == "".join(f"{a}\n" for a in args)


@pytest.mark.parametrize(
    "args",
    [
        ["cc", "-c", "far.c"],  # #pragma once, #pragma GCC: no kernel
        ["cc", "-c", "uses.c"],  # outer.h is not found: the compiler says so
        ["cc", "-c", "uses.c", "-isystem", "inc"],  # a system header is not the user's
    ],
)
def test_headers_without_directives_leave_the_file_to_the_compiler(bin_dir, headers, args):
    rc, python, cc = launch(bin_dir, *args)
    assert (python, cc) == (None, "".join(f"{a}\n" for a in args[1:]))
