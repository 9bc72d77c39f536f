from conftest import kernels_of


def test_innermost_marked_loop_is_the_kernel(cfile):
    p = cfile("""
double a[10][10];
void f(int n) {
  int i, j;
  #pragma acc parallel loop gang
  for (i = 0; i < n; i++) {
    #pragma acc loop vector
    for (j = 0; j < n; j++) { a[i][j] = 1.0; }
  }
}
""")
    ks = kernels_of(p)
    assert [k.line for k in ks] == [8]
    assert ks[0].construct.startswith("acc loop")


def test_collapse_makes_inner_loop_the_kernel(cfile):
    p = cfile("""
double a[10][10][3];
void f(int n) {
  int i, j, k;
  #pragma omp parallel for collapse(2)
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < 3; k++) a[i][j][k] = k;
}
""")
    ks = kernels_of(p)
    assert [k.line for k in ks] == [7]  # the j loop; the k loop stays inside its body
    src = p.read_text()
    assert src[ks[0].span.start : ks[0].span.end].startswith("for (k = 0")


def test_kernels_region_without_loop_directives_takes_innermost_of_each_nest(cfile):
    p = cfile("""
double a[10][10], b[10];
void f(int n) {
  int i, j;
  #pragma acc kernels
  {
    for (i = 0; i < n; i++)
      for (j = 0; j < n; j++) a[i][j] = 0.0;
    for (i = 0; i < n; i++) b[i] = 1.0;
  }
}
""")
    assert [k.line for k in kernels_of(p)] == [8, 9]


def test_seq_loop_is_not_a_kernel_and_loops_outside_regions_are_ignored(cfile):
    p = cfile("""
double a[10];
void f(int n) {
  int i, m;
  for (i = 0; i < n; i++) a[i] = 0.0;
  #pragma acc parallel loop
  for (i = 0; i < n; i++) {
    #pragma acc loop seq
    for (m = 0; m < 3; m++) a[i] += m;
  }
}
""")
    ks = kernels_of(p)
    assert [k.line for k in ks] == [7]


def test_loop_from_a_macro_is_not_mapped(cfile):
    p = cfile("""
#define LOOP(n) for (int i = 0; i < n; i++) a[i] = 0.0;
double a[10];
void f(int n) {
  #pragma omp parallel for
  LOOP(n)
}
""")
    ks = kernels_of(p)
    assert len(ks) == 1 and isinstance(ks[0].span, str)
    assert "macro" in ks[0].span


def test_preprocessor_conditional_in_body_is_mapped_with_its_group(cfile):
    p = cfile("""
double a[10];
void f(int n) {
  #pragma omp parallel for
  for (int i = 0; i < n; i++) {
#ifdef SLOW
    a[i] = 1.0;
#else
    a[i] = 2.0;
#endif
  }
}
""")
    (k,) = kernels_of(p)
    assert not isinstance(k.span, str)
    (group,) = k.span.groups
    assert (group.first_line, group.last_line) == (6, 10)


def test_other_directives_in_a_body_are_not_mapped(cfile):
    p = cfile("""
double a[10];
void f(int n) {
  #pragma omp parallel for
  for (int i = 0; i < n; i++) {
#undef X
    a[i] = 1.0;
  }
}
""")
    ks = kernels_of(p)
    assert isinstance(ks[0].span, str) and "directive '#undef'" in ks[0].span


def test_body_spans_for_unbraced_forms(cfile):
    p = cfile("""
double a[10];
void f(int n) {
  int i;
  #pragma omp parallel for
  for (i = 0; i < n; i++) if (i > 2) a[i] = 1.0; else a[i] = 2.0;
  #pragma omp parallel for
  for (i = 0; i < n; i++) do { a[i] += 1.0; } while (a[i] < 3.0);
}
""")
    src = p.read_text()
    spans = [src[k.span.start : k.span.end] for k in kernels_of(p)]
    assert spans == [
        "if (i > 2) a[i] = 1.0; else a[i] = 2.0;",
        "do { a[i] += 1.0; } while (a[i] < 3.0);",
    ]
