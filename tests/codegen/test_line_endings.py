"""accsat/codegen/splice.py: a rewritten body keeps the line ending of the file's lines
(CRLF files stay CRLF, every byte outside the bodies as it was)."""

from __future__ import annotations

from accsat.codegen.splice import Replacement, line_ending, splice
from accsat.options import Options
from accsat.pipeline import rewrite_file

KERNEL = (
    "double a[16], b[16];\n"
    "void f(int n) {\n"
    "  int i;\n"
    "  #pragma acc parallel loop\n"
    "  for (i = 0; i < n; i++) { b[i] = a[i] * a[i] + a[i]; }\n"
    "}\n"
)


def test_a_crlf_file_stays_crlf_in_rewritten_bodies(tmp_path):
    path = tmp_path / "k.c"
    path.write_bytes(KERNEL.replace("\n", "\r\n").encode())
    result = rewrite_file(path, Options(variant="cse"))
    assert result.kernels[0].status == "rewritten"
    assert "_v0" in result.text
    assert result.text.count("\n") == result.text.count("\r\n")
    lf = tmp_path / "lf.c"
    lf.write_text(KERNEL)
    assert result.text == rewrite_file(lf, Options(variant="cse")).text.replace("\n", "\r\n")


def test_an_lf_file_and_crlf_already_in_a_body_are_left_alone():
    source = "x;\r\n{ old }\r\ny;\r\n"
    start, end = source.index("{"), source.index("}") + 1
    r = Replacement(start, end, "{\n  a;\r\n  b;\n}", 2)
    assert splice(source, [r]) == "x;\r\n{\r\n  a;\r\n  b;\r\n}\r\ny;\r\n"
    lf = source.replace("\r\n", "\n")
    r = Replacement(start - 1, end - 1, "{\n  a;\n}", 2)
    assert splice(lf, [r]) == "x;\n{\n  a;\n}\ny;\n"


def test_line_directives_after_a_body_use_the_files_ending():
    source = "x;\r\n{ old } z;\r\ny;\r\n"
    start, end = source.index("{"), source.index("}") + 1
    out = splice(source, [Replacement(start, end, "{\n  a;\n}", 2)], "k.c")
    assert out == 'x;\r\n{\r\n  a;\r\n} z;\r\n#line 3 "k.c"\r\ny;\r\n'


def test_line_ending_of_a_last_line_without_one():
    assert line_ending("a;\r\nb;", 4) == "\r\n"
    assert line_ending("a;\nb;\r\n", 0) == "\n"
    assert line_ending("a;", 0) == "\n"
