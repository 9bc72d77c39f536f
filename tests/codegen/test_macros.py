"""The user's spelling inside rewritten statements: accessor macros, macros in
subscripts, typedef names of temporaries, no cast C would not need
(accsat/codegen/macros.py, typenames.py, cexpr.py; docs/rewrites.md)."""

from __future__ import annotations

import re
import shutil

import pytest
from difftest import EXACT_VARIANTS, KERNEL_DIR, compile_run

from accsat.check import check_file
from accsat.codegen.macros import expression, same_tree, tree_key
from accsat.frontend.preprocess import PreprocessOptions
from accsat.options import VARIANTS, Options
from accsat.pipeline import rewrite_file

STENCIL = KERNEL_DIR / "stencil_macros_acc.c"
GCC = shutil.which("gcc")


def _body(text: str) -> str:
    """The kernel's body in a rewritten copy of the fixture."""
    start = text.index("static void stencil")
    return text[start : text.index("int main")]


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_accessor_macro_kernel_keeps_macros_headers_and_real(variant):
    result = rewrite_file(STENCIL, Options(variant=variant))
    assert [k.status for k in result.kernels] == ["rewritten"]
    body = _body(result.text)
    # every access prints through the user's macro, none as the raw expansion
    assert "u[i +" not in body and "r[" not in body and "12 *" not in body, body
    assert "R(0, i, j, k)" in body and "R(1, i, j, k)" in body
    # a raw access written with object-like macros keeps them (or a macro of the same access)
    assert "u[((k + 1) * NY + j) * NX + i]" in body or body.count("U(i, j, k + 1)") >= 1
    for header in ("for (k = 1; k < NZ - 1; k++)", "for (c = 0; c < NCOMP; c++)"):
        assert header in body
    assert "real _v" in body and "double" not in body, body


@pytest.mark.skipif(GCC is None, reason="gcc not found")
@pytest.mark.parametrize("variant", sorted(EXACT_VARIANTS))
def test_accessor_macro_kernel_bit_identical(tmp_path, variant):
    result = rewrite_file(STENCIL, Options(variant=variant))
    out = tmp_path / "out.c"
    out.write_text(result.text)
    assert compile_run(out, tmp_path, tag="new") == compile_run(STENCIL, tmp_path, tag="old")


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_accessor_macro_kernel_validates(variant):
    result, ver = check_file(STENCIL, Options(variant=variant))
    assert result.kernels[0].status == "rewritten"
    assert ver.ok, [v.message for v in ver.verdicts]


def test_macros_expand_with_the_compilations_own_flags(tmp_path):
    """Macros are expanded with the user's -D/-I: a -D that changes a macro the
    accesses use changes nothing in what is kept, and the kept text means the same."""
    text = STENCIL.read_text().replace("#define NX 12\n", "#ifndef NX\n#define NX 12\n#endif\n")
    path = tmp_path / "k.c"
    path.write_text(text)
    opts = Options(variant="cse", preprocess=PreprocessOptions(flags=("-DNX=14",)))
    body = _body(rewrite_file(path, opts).text)
    assert "U(i, j, k + 1)" in body and "14 *" not in body
    assert "U(i, j, k + 1)" in _body(rewrite_file(path, Options(variant="cse")).text)


def test_one_preprocessor_run_per_file(tmp_path, monkeypatch):
    """The accesses of every kernel body are expanded together, once."""
    from accsat.codegen import macros

    calls = []
    real_preprocess = macros.preprocess
    monkeypatch.setattr(macros, "preprocess", lambda *a: calls.append(a) or real_preprocess(*a))
    text = STENCIL.read_text()
    head, sep, tail = text.partition("int main(void)")
    second = head[head.index("static void stencil") :].replace("stencil(", "stencil2(")
    path = tmp_path / "k.c"
    path.write_text(head + second + sep + tail)
    out = rewrite_file(path, Options(variant="cse"))
    assert sum(r.status == "rewritten" for r in out.kernels) == 2
    assert out.text.count("U(i, j, k + 1) - U(i, j, k - 1)") == 2
    assert len(calls) == 1


def test_typedef_name_where_the_kernels_scope_means_it(tmp_path):
    """Without a declaration of the body spelled ``real``, a temporary of a value typed
    through ``real`` is still ``real``: the kernel's scope resolves the name to that
    type. Where a variable of the function hides the name, it is ``double``."""
    text = STENCIL.read_text().replace("real w = U(i, j, k) * dt;", "double w = U(i, j, k) * dt;")
    # without the c loop, whose invariant loads would be carried in variables declared
    # with the arrays' element type as written (`real`: ssa/promote.py)
    text = re.sub(r"\n *for \(c = 0;.*?\n        \}", "", text, flags=re.S)
    assert "for (c" not in text
    path = tmp_path / "k.c"
    path.write_text(text)
    body = _body(rewrite_file(path, Options(variant="cse")).text)
    assert "real _v0" in body and "double _v0" not in body
    hidden = re.sub(r"(\{\n)", r"\1  int real = 0; (void)real;\n", text, count=1)
    path.write_text(hidden)
    body = _body(rewrite_file(path, Options(variant="cse")).text)
    assert "double _v0" in body and "real _v0" not in body


def test_subscript_identities_fold_only_int_literals():
    assert same_tree(expression("r[(0) + 3 * (i)]"), expression("r[3 * i]"))
    assert same_tree(expression("r[1 * (i) - 0]"), expression("r[i]"))
    assert not same_tree(expression("r[0u + i]"), expression("r[i]"))  # unsigned
    assert not same_tree(expression("r[(int)(0 + f)]"), expression("r[(int)f]"))  # not a chain
    assert not same_tree(expression("r[i * 0]"), expression("r[0]"))  # drops a term


CAST = """\
typedef double real;
real a[64], b[64];
void k(int n, real s)
{
  int i;
#pragma acc parallel loop
  for (i = 0; i < n; i++) {
    b[i] = a[i] * (real)(i + 1) + s;
    a[i] = a[i] * (real)(i + 1) - s;
  }
}
"""


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_no_cast_c_does_not_need(tmp_path, variant):
    """``(real)(i + 1)`` multiplied by a double is converted by C anyway: printed without
    the cast (same value, same type), in a temporary or in place."""
    path = tmp_path / "k.c"
    path.write_text(CAST)
    result = rewrite_file(path, Options(variant=variant))
    assert result.kernels[0].status == "rewritten"
    assert "(double)" not in result.text


def test_tree_keys_are_equal_exactly_when_trees_are():
    """The spelling lookup is a dict of tree_key: same key, same tree up to coordinates."""
    same = [("r[(i)]", "r[i]"), ("p->f[(0) + k]", "p->f[k]"), ("s.a[i][j]", "(s.a)[i][j]")]
    different = [("r[i]", "r[j]"), ("p->f", "p.f"), ("r[i + 1]", "r[1 + i]"), ("r[1]", "r[1u]")]
    for a, b in same:
        assert tree_key(expression(a)) == tree_key(expression(b)), (a, b)
    for a, b in different:
        assert tree_key(expression(a)) != tree_key(expression(b)), (a, b)
