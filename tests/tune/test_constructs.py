"""accsat.tune.constructs: which constructs are units, their spans and identity."""

from __future__ import annotations

from accsat.tune.constructs import LineMap, find, relative_file

from .conftest import SCALE_LINE, STENCIL_LINE, TWO


def test_the_two_constructs_of_the_program():
    found = find(TWO)
    assert [(c.line, c.name) for c in found] == [
        (STENCIL_LINE, "acc parallel loop"),
        (SCALE_LINE, "omp parallel for"),
    ]
    first = found[0]
    assert TWO[first.start :].startswith("#pragma acc parallel loop")
    assert TWO[: first.end].endswith("* 0.5;\n  }")  # the whole statement, braces included
    assert first.last_line == STENCIL_LINE + 3
    assert not first.skip and not first.untimed
    assert TWO[: found[1].end].endswith("a[i] * a[i];")  # an unbraced body ends at its ';'


def test_only_outermost_compute_constructs_count():
    text = """void f(double *a, int n) {
#pragma acc data copy(a[0:n])
  {
#pragma acc parallel
    {
#pragma acc loop gang
      for (int i = 0; i < n; i++) a[i] += 1;
#pragma acc parallel loop
      for (int i = 0; i < n; i++) a[i] *= 2;
    }
#pragma omp target update from(a[0:n])
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++) a[i] -= 1;
#pragma acc loop
    for (int i = 0; i < n; i++) a[i] -= 1;
  }
}
"""
    assert [(c.line, c.name) for c in find(text)] == [
        (4, "acc parallel"),
        (12, "omp target teams distribute parallel for"),
    ]


def test_async_and_nowait_are_untimed():
    text = """void f(double *a, int n) {
#pragma acc parallel loop async(1)
  for (int i = 0; i < n; i++) a[i] += 1;
#pragma omp target teams loop nowait
  for (int i = 0; i < n; i++) a[i] += 1;
#pragma acc kernels
  for (int i = 0; i < n; i++) a[i] += 1;
}
"""
    assert [c.untimed for c in find(text)] == ["async", "nowait", ""]


def test_what_no_timer_can_surround_is_listed_with_the_reason():
    text = """#pragma omp declare target
void dev(double *a, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) a[i] += 1;
}
#pragma omp end declare target
void f(double *a, int n) {
#ifdef _OPENACC
#pragma acc parallel loop
#else
#pragma omp parallel for
#endif
  for (int i = 0; i < n; i++) a[i] += 1;
#pragma omp parallel for
  for (int i = 0; i < n; i++) a[i] += 2;
}
"""
    found = find(text)
    # both alternatives are listed, neither timed
    assert [(c.line, bool(c.skip)) for c in found] == [
        (3, True),
        (9, True),
        (11, True),
        (14, False),
    ]
    assert "device" in found[0].skip and "conditional" in found[1].skip


def test_the_hash_ignores_layout_and_comments_but_not_code():
    base = find(TWO)
    relaid = TWO.replace(
        "  for (i = 1; i < n - 1; i++) {",
        "  /* moved */ for (i = 1;\n       i < n - 1; i++) {  // c\n",
    )
    assert [c.hash for c in find(relaid)] == [c.hash for c in base]
    edited = TWO.replace("* 0.5;\n  }", "* 0.25;\n  }")
    assert find(edited)[0].hash != base[0].hash
    assert find(edited)[1].hash == base[1].hash
    clause = TWO.replace("copyout(c)", "copyout(c) gang")
    assert find(clause)[0].hash != base[0].hash  # the directive is part of the kernel


def test_line_map_follows_line_directives():
    text = '#line 1 "a.c"\nx\n#line 40 "a.c"\ny\nz\n#line 7 "b.c"\nw\n'
    lines = LineMap(text, "a.c")
    assert lines.at(text.index("x")) == (1, "a.c")
    assert lines.at(text.index("y")) == (40, "a.c")
    assert lines.at(text.index("z")) == (41, "a.c")
    assert lines.at(text.index("w")) == (7, "b.c")


def test_files_are_named_from_the_build_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    assert relative_file("sub/x.c", str(tmp_path)) == "sub/x.c"
    assert relative_file("x.c", str(tmp_path / "sub")) == "../x.c"
