"""LoadedFile.digest: what the compile server's two processes compare before one takes
the other's kernels, so it must change with anything that changes the program."""

from __future__ import annotations

import pytest

from accsat.frontend import preprocess
from accsat.frontend.load import load
from accsat.frontend.preprocess import PreprocessOptions
from accsat.toolchain import process

SRC = '#include "n.h"\nvoid f(double *a)\n{\n#pragma acc parallel loop\n  for (int i = 0; i < N; i++) a[i] *= 2.0;\n}\n'


def test_the_digest_follows_the_headers_and_the_flags(tmp_path):
    src = tmp_path / "k.c"
    src.write_text(SRC)
    header = tmp_path / "n.h"
    header.write_text("#define N 64\n")
    first = load(src, cache=False).digest
    assert load(src, cache=False).digest == first  # the same program, the same digest
    header.write_text("#define N 65\n")  # the file's own text is unchanged
    assert load(src, cache=False).digest != first
    flagged = load(src, PreprocessOptions(("-DEXTRA=1",)), cache=False).digest
    assert flagged == load(src, cache=False).digest  # a flag that changes nothing
    src.write_text(SRC + "\n")
    assert load(src, cache=False).digest != flagged


def test_work_given_for_the_preprocessors_time_is_done_then(tmp_path, monkeypatch):
    """``meanwhile`` runs while the preprocessor runs (it waits for a file that
    ``meanwhile`` makes), for a file with ``#line`` directives too (read from a copy);
    an error of it ends the load and the preprocessor."""
    go = tmp_path / "go"
    real = preprocess.command

    def waiting(path, opts):  # the preprocessor starts once ``meanwhile`` ran
        cmd = real(path, opts)
        wait = f"for i in $(seq 3000); do [ -e {go} ] && break; sleep 0.01; done"
        script = f'{wait}; [ -e {go} ] || exit 9; exec "$@"'  # (30 s at most)
        return ["/bin/sh", "-c", script, "sh", *cmd]

    monkeypatch.setattr(preprocess, "command", waiting)
    src = tmp_path / "k.c"
    header = tmp_path / "n.h"
    header.write_text("#define N 64\n")
    for text in (SRC, '#line 7 "gen.c"\n' + SRC):
        src.write_text(text)
        go.unlink(missing_ok=True)
        loaded = load(src, cache=False, meanwhile=go.touch)
        assert len(loaded.kernels) == 1 and loaded.digest
    go.unlink()

    def fails() -> None:
        raise KeyError("meanwhile failed")

    with pytest.raises(KeyError):
        load(src, cache=False, meanwhile=fails)
    assert not process._active  # the preprocessor killed and waited for
