"""The compiler confirms accsat's C types (verify/typecheck.py): a model that is wrong
the way issue 35's was (enums as int, an attribute dropped, a bit-field's declared type
in arithmetic) is caught by the compiler's check, and by ``accsat check``, although the
rewrite, the re-read proof and the interpreter all share the wrong model."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from accsat import pipeline
from accsat.check import check_file
from accsat.frontend import ctypes as ct
from accsat.frontend import symbols
from accsat.frontend import typed as tx
from accsat.options import Options
from accsat.pipeline import rewrite_file
from accsat.toolchain import process
from accsat.verify import typecheck
from tests.verify.test_reread import MISMATCH

FORMS = Path(__file__).parent.parent / "frontend" / "type_forms"
pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")


def _kernels(path: Path, **options):
    return rewrite_file(path, Options(variant="cse", **options)).kernels


def _copy(tmp_path: Path, name: str) -> Path:
    shutil.copy(FORMS / name, tmp_path / name)
    return tmp_path / name


def test_the_model_agrees_with_gcc(tmp_path):
    (k,) = _kernels(_copy(tmp_path, "enum_unsigned.c"))
    assert k.status == "rewritten"
    assert k.typecheck == {"compiler": "gcc", "checks": k.typecheck["checks"], "result": "agrees"}
    assert k.typecheck["checks"] > 10


def test_enums_modelled_as_int_are_caught(tmp_path, monkeypatch):
    """The mutation of issue 35: every enum an int again."""
    monkeypatch.setattr(symbols, "enum_type", lambda values: ct.INT)
    path = _copy(tmp_path, "enum_unsigned.c")
    (k,) = _kernels(path)
    assert k.status == "unchanged" and k.typecheck["result"] == "disagrees"
    assert "gcc gives" in k.reason and "unsigned int" in k.reason and "says int" in k.reason
    _, verification = check_file(path, Options(variant="cse"), trials=4)
    (verdict,) = verification.verdicts
    assert verdict.verdict == "fail" and "says int" in verdict.message


def test_a_dropped_mode_attribute_is_caught(tmp_path, monkeypatch):
    monkeypatch.setattr(symbols, "_with_mode", lambda t, a: t)
    (k,) = _kernels(_copy(tmp_path, "mode_attributes.c"))
    assert k.status == "unchanged" and k.typecheck["result"] == "disagrees"
    assert "unsigned long" in k.reason or "__int128" in k.reason


def test_a_bit_field_typed_as_declared_is_caught_on_the_original(tmp_path, monkeypatch):
    """The printed program is consistent with the wrong model (casts make it so): only
    the assertions on the body as written catch it."""
    typed = tx.Typer.t_StructRef

    def declared(self, node, scope):
        e = typed(self, node, scope)
        fld = self.field(self.types.tags["flags"], node.field.name)
        e.ctype = fld.type
        return e

    monkeypatch.setattr(tx.Typer, "t_StructRef", declared)
    (k,) = _kernels(_copy(tmp_path, "bitfields.c"))
    assert k.status == "unchanged" and k.typecheck["result"] == "disagrees"
    assert "F[i]" in k.reason or "bit-field" in k.reason


def test_clang_checks_too(tmp_path):
    clang = shutil.which("clang-19") or shutil.which("clang")
    if clang is None:
        pytest.skip("neither clang-19 nor clang is installed")
    (k,) = _kernels(_copy(tmp_path, "enum_unsigned.c"), check_command=(clang, "-fopenmp"))
    assert k.status == "rewritten"
    assert k.typecheck["compiler"] == Path(clang).name and k.typecheck["result"] == "agrees"


def test_a_file_the_compiler_rejects_is_left_unchecked(tmp_path):
    """An error outside the kernels (here: a flag the compiler refuses) says why the
    check could not be done; the rewrites stand on the model."""
    path = _copy(tmp_path, "enum_unsigned.c")
    (k,) = _kernels(path, check_command=("gcc", "-fno-such-flag"))
    assert k.status == "rewritten"
    assert k.typecheck["result"].startswith("unavailable: ")


def test_off_when_asked(tmp_path):
    (k,) = _kernels(_copy(tmp_path, "enum_unsigned.c"), typecheck=False)
    assert k.status == "rewritten" and k.typecheck is None


TWO_KERNELS = """\
double a[64], b[64], c[64];
void k(int n)
{
  int i;
#pragma acc parallel loop
  for (i = 1; i < n; i++)
    c[i] = a[i] * b[i] + a[i] * b[i];
#pragma acc parallel loop
  for (i = 1; i < n; i++)
    b[i] = c[i] * a[i] + c[i] * a[i];
}
"""


def test_the_check_runs_beside_the_re_read_and_counts_for_the_kernels_it_kept(
    tmp_path, monkeypatch
):
    """The compile starts before the re-read check and is read after it (it runs on the
    other core meanwhile); a kernel the re-read keeps as written gets no type check's
    record, the others theirs."""
    monkeypatch.delenv("ACCSAT_REREAD_STRICT", raising=False)
    events: list[str] = []
    real_started, real_reread, real_print = process.started, pipeline.reread_check, pipeline._print

    def started(cmd, **kw):
        events.append("compile started" if "-fsyntax-only" in cmd else "preprocessor")
        return real_started(cmd, **kw)

    def reread(*args, **kw):
        events.append("re-read")
        return real_reread(*args, **kw)

    def broken(kernel, *args, **kw):  # the first kernel printed wrong: the re-read keeps it
        printed = real_print(kernel, *args, **kw)
        if kernel.line != 6 or kw.get("probe"):
            return printed
        return dataclasses.replace(printed, text=printed.text.replace("b[i]", "b[i - 1]", 1))

    monkeypatch.setattr(typecheck.process, "started", started)
    monkeypatch.setattr(pipeline, "reread_check", reread)
    monkeypatch.setattr(pipeline, "_print", broken)
    src = tmp_path / "k.c"
    src.write_text(TWO_KERNELS)
    first, second = rewrite_file(src, Options(variant="cse")).kernels
    assert events.index("compile started") < events.index("re-read")
    assert first.status == "unchanged" and MISMATCH in first.reason and first.typecheck is None
    assert second.status == "rewritten" and second.typecheck["result"] == "agrees"


def test_a_probe_the_compiler_cannot_read_spoils_no_other_kernel(tmp_path, monkeypatch):
    """A kernel printed broken (an unbalanced brace: the re-read keeps it as written) is
    in the file the compiler checks too, which it then cannot read: the other kernels
    are checked again without it (found by review)."""
    monkeypatch.delenv("ACCSAT_REREAD_STRICT", raising=False)
    real_print = pipeline._print

    def broken(kernel, *args, **kw):  # the body and its probe both
        printed = real_print(kernel, *args, **kw)
        if kernel.line != 6:
            return printed
        return dataclasses.replace(printed, text=printed.text[:-1] + "{ }")

    monkeypatch.setattr(pipeline, "_print", broken)
    src = tmp_path / "k.c"
    src.write_text(TWO_KERNELS)
    first, second = rewrite_file(src, Options(variant="cse")).kernels
    assert first.status == "unchanged" and first.typecheck is None
    assert second.status == "rewritten" and second.typecheck["result"] == "agrees"
