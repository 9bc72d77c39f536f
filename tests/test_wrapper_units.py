"""accsat-cc's pieces on their own: private folders, dependency files, the cache."""

from __future__ import annotations

import os
from dataclasses import replace

import pytest

from accsat.ccconfig import Config
from accsat.frontend.preprocess import PreprocessOptions
from accsat.options import Limits, Options
from accsat.wrapper import cache, deps, workdir
from accsat.wrapper.rewrite import Outcome


@pytest.fixture
def tmpdir_env(tmp_path, monkeypatch):
    import tempfile

    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", None)  # gettempdir() reads TMPDIR again
    yield tmp_path
    tempfile.tempdir = None


def test_workdir_is_private_and_repeatable(tmpdir_env):
    a = workdir.acquire("k" * 40)
    b = workdir.acquire("k" * 40)  # the same compile, running at the same time
    assert a.path != b.path and os.path.isdir(a.path) and os.path.isdir(b.path)
    assert os.path.basename(a.path).endswith("-0") and os.path.basename(b.path).endswith("-1")
    parent = os.path.dirname(a.path)
    assert oct(os.stat(parent).st_mode & 0o777) == "0o700"
    a.release()
    b.release()
    assert not os.path.exists(a.path) and not os.path.exists(parent)
    c = workdir.acquire("k" * 40)
    assert c.path == a.path  # same compile, same path: ccache can hit
    c.release()


def test_workdir_falls_back_when_the_parent_is_not_ours(tmpdir_env):
    parent = tmpdir_env / f"accsat-cc-{os.getuid()}"
    parent.mkdir(mode=0o755)
    os.chmod(parent, 0o755)
    w = workdir.acquire("x" * 40)
    assert os.path.dirname(w.path) == str(tmpdir_env) and os.path.isdir(w.path)
    w.release()
    assert not os.path.exists(w.path)


def test_stale_workdir_is_replaced(tmpdir_env):
    w = workdir.acquire("s" * 40)
    os.close(w.fd)  # as if the call had been killed: lock gone, folder left
    with open(os.path.join(w.path, "old.c"), "w") as f:
        f.write("stale")
    again = workdir.acquire("s" * 40)
    assert again.path == w.path and os.listdir(again.path) == []
    again.release()


@pytest.mark.parametrize(
    "text, style",
    [
        (
            "kern.o: src/kern.c /usr/include/stdc-predef.h /usr/include/stdio.h \\\n"
            " /usr/include/x86_64-linux-gnu/bits/libc-header-start.h src/kern.h\n",
            "gcc",
        ),
        (
            "k.o: many.c /usr/include/stdio.h \\\n  /usr/include/x86_64-linux-gnu/bits/libc-header-start.h"
            " \\\n  /usr/include/features.h /usr/include/features-time64.h \\\n"
            "  /usr/include/x86_64-linux-gnu/bits/wordsize.h\n",
            "clang",
        ),
        ("t1 t2: a.c b.h\nb.h:\n", "gcc"),
        ("$$(OBJ)/k.o: dir\\ with\\ space/x.c\n", "gcc"),
    ],
)
def test_rewrap_is_the_compilers_layout(text, style):
    assert deps.rewrap(text, style) == text


def test_dependency_fix(tmp_path):
    d = tmp_path / "k.d"
    tmp = "/tmp/accsat-cc-0/abcdef-0/0/"
    d.write_text(f"kern.o: \\\n {tmp}kern.c \\\n src/kern.h\n")
    deps.fix([str(d)], "abcdef-0", [(tmp, "src/")], 0, "gcc")
    assert d.read_text() == "kern.o: src/kern.c src/kern.h\n"
    other = tmp_path / "other.d"
    other.write_text("x.o: x.c\n")
    deps.fix([str(other)], "abcdef-0", [(tmp, "src/")], 0, "gcc")
    assert other.read_text() == "x.o: x.c\n"


def test_cache_roundtrip_and_atomic_files(tmp_path):
    store = cache.Cache(tmp_path)
    cse = Options(variant="cse").key()
    k = cache.key("preprocessed", b"text", cse)
    assert k == cache.key("preprocessed", b"text", Options(variant="cse").key())
    assert k != cache.key("preprocessed", b"text", Options(variant="accsat").key())
    assert k != cache.key("preprocessed2", b"text", cse)
    assert k != cache.key("preprocessed", b"text2", cse)
    assert store.get(k) is None
    out = Outcome(text="int x;\n", kernels=[{"status": "rewritten"}])
    store.put(k, out.entry())
    back = Outcome.from_entry(store.get(k))
    assert (back.text, back.kernels, back.rewritten) == ("int x;\n", out.kernels, 1)
    assert [p.name for p in (tmp_path / cache.FORMAT).rglob("*") if p.is_file()] == [f"{k}.json"]
    (tmp_path / cache.FORMAT / k[:2] / f"{k}.json").write_text("{broken")
    assert store.get(k) is None
    store.put(k, Outcome(error="f.c:3: parse error").entry())
    assert Outcome.from_entry(store.get(k)).error == "f.c:3: parse error"


def test_every_option_is_in_the_cache_key():
    """The wrapper keys its cache on the whole Options: a field the key forgot would serve
    a rewrite made with other settings."""
    base = Options()
    changed = [
        replace(base, variant="cse"),
        replace(base, verify=True),
        replace(base, line_directives="other.c"),
        replace(base, fp_exact=True),
        replace(base, limits=Limits(nodes=5)),
        replace(base, extract_stall=None),
        replace(base, preprocess=PreprocessOptions(("-DX",))),
    ]
    keys = {base.key(), *(o.key() for o in changed)}
    assert len(keys) == len(changed) + 1


def test_config_makes_the_options_of_a_file():
    pp = PreprocessOptions(("-DN=4",), openmp=False)
    opts = Config(rewrite_settings=Options(variant="cse+bulk", verify=True)).options(pp, "src/k.c")
    assert (opts.variant, opts.verify, opts.preprocess, opts.line_directives) == (
        "cse+bulk",
        True,
        pp,
        "src/k.c",
    )


def test_fingerprint_covers_rules(tmp_path, monkeypatch):
    import shutil

    from accsat.resources import data_root

    for name in ("rules", "cost_models", "fakelibc"):
        shutil.copytree(data_root() / name, tmp_path / name)
    monkeypatch.setenv("ACCSAT_DATA", str(tmp_path))
    store = tmp_path / "store"
    monkeypatch.setattr(cache, "_FINGERPRINT", None)
    before = cache.fingerprint(store)
    assert len(list((store / "fingerprints").iterdir())) == 1
    monkeypatch.setattr(cache, "_FINGERPRINT", None)
    assert cache.fingerprint(store) == before  # read back
    monkeypatch.setattr(cache, "_FINGERPRINT", None)
    with open(tmp_path / "rules" / "fma.egg", "a") as f:
        f.write("\n; changed\n")
    changed = cache.fingerprint(store)
    monkeypatch.setattr(cache, "_FINGERPRINT", None)
    assert changed != before and cache.fingerprint(None) == changed
