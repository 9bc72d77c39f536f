from accsat.frontend import directives


def test_acc_combined_loop_with_nested_clause_arguments():
    d = directives.parse("acc kernels loop gang((na_gangs+127)/128) vector(128) independent")
    assert d.model == "acc" and d.words == ("kernels", "loop")
    assert d.is_loop and d.is_region
    assert d.clauses["gang"] == "((na_gangs+127)/128)"
    assert "independent" in d.clauses


def test_acc_seq_loop_is_not_parallel():
    d = directives.parse("acc loop seq")
    assert not d.is_loop and d.is_sequential_loop


def test_acc_region_without_loop():
    d = directives.parse("acc parallel num_gangs(n) vector_length(32) present(a)")
    assert d.is_region and not d.is_loop


def test_acc_data_is_neither():
    d = directives.parse("acc data present(u, rhs) create(lhs)")
    assert not d.is_region and not d.is_loop


def test_omp_target_combined_with_collapse():
    d = directives.parse(
        "omp target teams distribute parallel for simd collapse(3) map(to: a[0:n])"
    )
    assert d.is_loop and d.is_region and d.collapse == 3


def test_omp_for_and_simd():
    assert directives.parse("omp for nowait").is_loop
    assert directives.parse("omp simd reduction(+:s)").is_loop
    assert not directives.parse("omp parallel").is_loop
    assert directives.parse("omp parallel").is_region


def test_barriers_inside_bodies():
    assert directives.parse("omp atomic compare").blocks_rewrite
    assert directives.parse("omp ordered").blocks_rewrite
    assert directives.parse("omp critical (name)").is_critical
    assert not directives.parse("omp critical").blocks_rewrite
    # an atomic statement stays in place and the body is rewritten around it
    for text, kind in [
        ("acc atomic update", "update"),
        ("acc atomic", "update"),
        ("omp atomic", "update"),
        ("omp atomic seq_cst write", "write"),
        ("acc atomic capture", "capture"),
        ("omp atomic read", "read"),
        ("omp atomic seq_cst capture", "capture"),
    ]:
        assert directives.parse(text).atomic_kind == kind
        assert not directives.parse(text).blocks_rewrite
    assert directives.parse("omp atomic compare").atomic_kind == ""
    assert not directives.parse("acc loop seq").blocks_rewrite


def test_not_ours():
    d = directives.parse("GCC ivdep")
    assert d.model == "" and not d.is_loop and not d.is_region
