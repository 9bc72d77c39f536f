"""accsat/wrapper/cache.py: one entry for every spelling of a file's name (``./k.c``,
``k.c``, its absolute name), handed out under the caller's spelling."""

from __future__ import annotations

from accsat.wrapper import cache

from .conftest import ACC, KERNEL, needs_gcc, wrap


def _events(log) -> list[str]:
    return [
        line.split()[2]
        for line in log.read_text().splitlines()
        if line.split()[2] in ("hit", "miss")
    ]


@needs_gcc
def test_spellings_of_one_name_share_an_entry_and_keep_their_own_lines(project, env):
    (project / "k.c").write_text(KERNEL + "#warning after the kernel\n")
    log = project / "build.log"
    names = ("./k.c", "k.c", str(project / "k.c"), "./k.c")
    for name in names:
        r = wrap(project, env, "gcc", "-c", *ACC, name, ACCSAT_LOG=str(log))
        assert r.returncode == 0, r.stderr
        said = [line for line in r.stderr.splitlines() if "#warning" in line]
        assert said and said[0].startswith(f"{name}:10:2: warning"), (name, said)
    assert _events(log) == ["miss", "hit", "hit", "hit"]


def test_same_name_normalises_and_makes_names_under_the_current_folder_relative(
    tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    assert cache.same_name("./k.c") == cache.same_name("k.c") == "k.c"
    assert cache.same_name("sub/../k.c") == "k.c"
    assert cache.same_name(str(tmp_path / "src" / "k.c")) == "src/k.c"
    outside = str(tmp_path.parent / "other.c")
    assert cache.same_name(outside) == outside


def test_the_key_ignores_the_spelling_of_names_in_line_markers(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    a = cache.key('# 1 "./k.c"\nint x;\n# 1 "./h.h" 1\n', b"t", "o")
    b = cache.key(f'# 1 "k.c"\nint x;\n# 1 "{tmp_path}/h.h" 1\n', b"t", "o")
    assert a == b
    assert a != cache.key('# 1 "k.c"\nint y;\n# 1 "h.h" 1\n', b"t", "o")
    assert a != cache.key('# 1 "k2.c"\nint x;\n# 1 "h.h" 1\n', b"t", "o")


def test_an_entry_is_renamed_for_the_caller(tmp_path):
    store = cache.Cache(tmp_path / "c")
    text = '#line 1 "./k.c"\nint x;\r\n#line 6 "./k.c"\r\n#line 3 "h.h"\n'
    kernels = [{"file": "k.c", "line": 5}]
    store.put("ab" * 32, {"text": text, "kernels": kernels}, "./k.c")
    got = store.get("ab" * 32, "/p/k.c")
    assert got["text"] == '#line 1 "/p/k.c"\nint x;\r\n#line 6 "/p/k.c"\r\n#line 3 "h.h"\n'
    assert got["kernels"] == [{"file": "/p/k.c", "line": 5}]
    assert store.get("ab" * 32, "./k.c") == {"text": text, "kernels": kernels}
    store.put("cd" * 32, {"error": "k.c:3: parse error: x"}, "./k.c")
    assert store.get("cd" * 32, "./-a.c")["error"].endswith("-a.c:3: parse error: x")
    store.put("ef" * 32, {"text": text, "kernels": kernels})  # no name: not for a named call
    assert store.get("ef" * 32, "k.c") is None
