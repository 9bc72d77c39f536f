"""Which directives make kernels: compute constructs only (OpenACC 3.3, OpenMP 5.2).

A data construct, a data movement, a standalone or a declarative directive before a
host loop leaves that loop alone; ``acc ... loop seq`` is not an innermost parallel
loop."""

from __future__ import annotations

import pytest

from accsat.frontend import directives
from accsat.frontend.load import load
from accsat.options import Options
from accsat.pipeline import rewrite_file

BODY = "for (int i = 0; i < n; i++) a[i] = b[i] * b[i] + b[i] * b[i];"


def _kernels(tmp_path, pragma: str, body: str = BODY):
    path = tmp_path / "k.c"
    path.write_text(f"void f(int n, double *a, double *b) {{\n#pragma {pragma}\n  {body}\n}}\n")
    return load(path, cache=False).kernels


NOT_COMPUTE = [
    "omp target data map(tofrom: a[0:n])",
    "omp target enter data map(to: a[0:n])",
    "omp target exit data map(from: a[0:n])",
    "omp target update from(a[0:n])",
    "omp declare simd",
    "omp declare target",
    "omp end declare target",
    "omp requires unified_shared_memory",
    "omp taskwait",
    "omp barrier",
    "omp flush(a)",
    "omp tile sizes(4)",
    "omp unroll partial(2)",
    "omp metadirective when(device={kind(gpu)}: target teams loop)",
    "acc data copy(a[0:n])",
    "acc enter data copyin(a[0:n])",
    "acc exit data copyout(a[0:n])",
    "acc update host(a[0:n])",
    "acc update device(a[0:n]) async(1)",
    "acc host_data use_device(a)",
    "acc declare create(a)",
    "acc wait",
    "acc wait(1) async(2)",
    "acc init",
    "acc set device_num(0)",
    "acc parallel loop seq",
    "acc kernels loop seq",
    "acc serial loop seq",
]

COMPUTE = [
    ("acc parallel loop", "acc parallel loop"),
    ("acc kernels loop independent", "acc kernels loop independent"),
    ("acc serial loop", "acc serial loop"),
    ("acc loop vector", "acc loop vector"),
    (
        "omp target teams distribute parallel for simd",
        "omp target teams distribute parallel for simd",
    ),
    ("omp target teams loop map(to: b[0:n])", "omp target teams loop"),
    ("omp target parallel for", "omp target parallel for"),
    ("omp target simd", "omp target simd"),
    ("omp parallel for", "omp parallel for"),
    ("omp simd", "omp simd"),
    ("omp for nowait", "omp for nowait"),
    ("omp teams distribute", "omp teams distribute"),
    ("omp target", "omp target"),
    ("omp parallel", "omp parallel"),
]


@pytest.mark.parametrize("pragma", NOT_COMPUTE)
def test_a_directive_that_is_no_compute_construct_makes_no_kernel(tmp_path, pragma):
    assert _kernels(tmp_path, pragma) == []


@pytest.mark.parametrize("pragma,construct", COMPUTE)
def test_compute_constructs_make_the_loop_a_kernel(tmp_path, pragma, construct):
    assert [k.construct for k in _kernels(tmp_path, pragma)] == [construct]


def test_a_data_region_around_a_block_opens_no_region(tmp_path):
    body = "{ for (int i = 0; i < n; i++) a[i] = b[i] * b[i]; }"
    for pragma in ("omp target data map(a[0:n])", "acc data copy(a[0:n])"):
        assert _kernels(tmp_path, pragma, body) == []


def test_a_compute_construct_inside_a_data_region_is_found(tmp_path):
    body = (
        "{\n#pragma omp target teams distribute parallel for\n"
        "  for (int i = 0; i < n; i++) a[i] = b[i] * b[i];\n"
        "  for (int i = 0; i < n; i++) b[i] = a[i] * a[i];\n}"
    )
    ks = _kernels(tmp_path, "omp target data map(a[0:n], b[0:n])", body)
    assert [(k.line, k.construct) for k in ks] == [(5, "omp target teams distribute parallel for")]


def test_loop_seq_in_a_region_is_not_the_innermost_parallel_loop(tmp_path):
    body = (
        "{\n#pragma acc loop seq\n"
        "  for (int i = 0; i < n; i++) a[i] = b[i] * b[i];\n"
        "  for (int i = 0; i < n; i++) b[i] = a[i] * a[i];\n}"
    )
    ks = _kernels(tmp_path, "acc kernels", body)
    assert [(k.line, k.construct) for k in ks] == [(6, "acc kernels")]


def test_loop_seq_inside_a_gang_loop_stays_in_its_body(tmp_path):
    body = (
        "for (int i = 0; i < n; i++) {\n#pragma acc loop seq\n"
        "  for (int j = 0; j < n; j++) a[i] += b[j] * b[j];\n}"
    )
    ks = _kernels(tmp_path, "acc parallel loop gang", body)
    assert [(k.line, k.construct) for k in ks] == [(3, "acc parallel loop gang")]


def test_host_loop_after_a_data_directive_is_written_back_unchanged(tmp_path):
    text = (
        "void f(int n, double *a, double *b) {\n"
        "#pragma omp target update from(a[0:n])\n"
        f"  {BODY}\n"
        "#pragma omp target teams distribute parallel for\n"
        f"  {BODY}\n}}\n"
    )
    path = tmp_path / "k.c"
    path.write_text(text)
    result = rewrite_file(path, Options(variant="cse"))
    assert [k.line for k in result.kernels] == [5]
    assert result.text.splitlines()[:3] == text.splitlines()[:3]


@pytest.mark.parametrize(
    "text,words,kinds",
    [
        ("omp target data map(a)", ("target", "data"), {directives.DATA}),
        ("omp target enter data map(to: a)", ("target", "enter", "data"), {directives.DATA}),
        ("omp end declare target", ("end", "declare", "target"), {directives.DECLARATIVE}),
        (
            "omp declare reduction(merge : int : omp_out += omp_in)",
            ("declare", "reduction"),
            {directives.DECLARATIVE},
        ),
        ("omp critical(lock)", ("critical",), {directives.SYNC}),
        (
            "omp cancellation point for",
            ("cancellation", "point"),
            {directives.STANDALONE, directives.SYNC},
        ),
        ("omp cancel for", ("cancel",), {directives.STANDALONE, directives.SYNC}),
        ("omp for ordered(2)", ("for",), {directives.LOOP}),
        (
            "omp parallel for simd",
            ("parallel", "for", "simd"),
            {directives.COMPUTE, directives.LOOP},
        ),
        ("acc wait(1)", ("wait",), {directives.STANDALONE}),
        ("acc cache(a[0:4])", ("cache",), {directives.HINT}),
        ("acc routine(f) seq", ("routine",), {directives.DECLARATIVE}),
        ("acc exit data delete(a) finalize", ("exit", "data"), {directives.DATA}),
        ("acc parallel loop gang(8)", ("parallel", "loop"), {directives.COMPUTE, directives.LOOP}),
    ],
)
def test_directive_names_and_kinds_from_the_table(text, words, kinds):
    d = directives.parse(text)
    assert (d.words, set(d.kinds)) == (words, kinds)


def test_named_critical_is_known_and_flush_with_a_list_blocks_a_rewrite():
    # a named critical is one (its statement is kept as written, ssa/statements.py)
    assert directives.parse("omp critical(lock)").is_critical
    assert not directives.parse("omp critical(lock)").blocks_rewrite
    assert directives.parse("omp flush(a)").blocks_rewrite
    assert not directives.parse("acc cache(a[0:4])").blocks_rewrite
    assert not directives.parse("acc routine(f) seq").is_sequential_loop


@pytest.mark.parametrize(
    "text, may",
    [
        ("acc parallel loop gang", True),
        ("acc kernels", True),
        ("acc loop vector", True),
        ("acc loop seq", True),  # a loop directive still: the frontend decides
        ("omp target teams distribute parallel for simd", True),
        ("omp for", True),
        ("acc data copy(u)", False),
        ("acc update host(u)", False),
        ("acc enter data create(a)", False),
        ("omp target data map(tofrom: a)", False),
        ("omp barrier", False),
        ("acc routine seq", False),
        ("GCC ivdep", False),
    ],
)
def test_only_compute_and_loop_directives_may_make_kernels(text, may):
    assert directives.may_make_kernels(text) is may
