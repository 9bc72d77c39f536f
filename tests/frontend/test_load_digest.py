"""LoadedFile.digest: what the compile server's two processes compare before one takes
the other's kernels, so it must change with anything that changes the program."""

from __future__ import annotations

from accsat.frontend.load import load
from accsat.frontend.preprocess import PreprocessOptions

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
