import itertools
import json
import subprocess

import pytest
from conftest import rewrite

from accsat.options import VARIANTS

HEADER = "double a[64], b[64], c[64];\nint idx[64];\n"


def body(src: str, decls: str = "int i, j; double t, s;") -> str:
    return (
        HEADER
        + "void f(int n, double *p, double *q) {\n  "
        + decls
        + "\n  #pragma omp parallel for\n  for (i = 0; i < n; i++) {\n"
        + src
        + "\n  }\n}\n"
    )


@pytest.mark.parametrize(
    "src,reason",
    [
        ("    if (a[i] > 0) goto out;\n    b[i] = 1; out: ;", "goto"),
        ("    switch (idx[i]) { case 0: b[i] = 1; break; default: b[i] = 2; }", "switch"),
        ("    #pragma omp atomic compare\n    if (c[0] < a[i]) c[0] = a[i];", "atomic compare"),
        ("    double j = a[i]; b[i] = j;", "hides another variable"),
        ("    static double z; z = a[i]; b[i] = z;", "static"),
        ("    b[i] = a[i] > 0 && (c[i] = 1) > 0;", "conditionally evaluated"),
    ],
)
def test_unsupported_kernels_are_left_as_written(cfile, src, reason):
    path = cfile(body(src))
    result = rewrite(path, variant="cse")
    (k,) = result.kernels
    assert k.status == "unchanged" and reason in k.reason, k.reason
    assert result.text == path.read_text()


def test_address_taken_local_lives_in_memory(cfile):
    """Read like a global: by its name where it is used (a compiler keeps it in a
    register until the call, which may change it), never copied into a temporary; what
    is computed from it before the call is not used after it."""
    path = cfile(
        HEADER
        + """void g(double *x);
void f(int n) {
  int i; double t = 0;
  g(&t);
  #pragma omp parallel for
  for (i = 0; i < n; i++) { b[i] = a[i] * t + a[i] * t * t; g(&t); c[i] = t * t; }
}
"""
    )
    done = rewrite(path, variant="cse")
    (k,) = done.kernels
    assert k.status == "rewritten", k.reason
    body = done.text[done.text.index("for (i = 0") :]
    assert "= t;" not in body
    assert (
        "double _v0 = a[i] * t;\n    b[i] = _v0 + _v0 * t;\n    g(&t);\n    c[i] = t * t;" in body
    )


def test_text_outside_bodies_is_byte_identical(cfile):
    src = body("    b[i] = a[i] * a[i] + a[i];\n    c[i] = a[i] - 1.0; /* gone */")
    src = "/* header comment */\n#include <math.h>\n" + src + "\n// trailing\n"
    path = cfile(src)
    out = rewrite(path, variant="cse").text
    start = src.index("for (i = 0; i < n; i++) {") + len("for (i = 0; i < n; i++) ")
    end = src.index("  }\n}\n") + 3
    assert out[:start] == src[:start]
    assert out.endswith(src[end:])


def test_report_fields_and_cost_order(cfile):
    path = cfile(
        body(
            "    t = a[i] * b[i] + a[i] * c[i];\n    s = a[i] * b[i] - c[i];\n"
            "    p[i] = t * s + q[i];"
        )
    )
    for variant in VARIANTS:
        (k,) = rewrite(path, variant=variant).kernels
        data = json.loads(k.to_json())
        for key in (
            "file",
            "line",
            "construct",
            "status",
            "reason",
            "variant",
            "statements",
            "egraph",
            "cost",
            "extraction",
            "loads",
            "ops",
            "fma",
            "seconds",
        ):
            assert key in data
        assert k.status == "rewritten"
        assert k.cost["extracted"] <= k.cost["greedy"] + 1e-9 <= k.cost["original"] + 1e-9
        assert k.loads["after"] < k.loads["before"]


def test_fma_rules_form_fmas_and_fp_exact_turns_them_off(cfile):
    path = cfile(body("    b[i] = a[i] * c[i] + b[i] * c[i] + 1.0;"))
    (k,) = rewrite(path, variant="accsat").kernels
    assert k.fma >= 1
    (k,) = rewrite(path, variant="accsat", fp_exact=True).kernels
    assert k.fma == 0


def compile_run(path, tmp_path, name):
    exe = tmp_path / name
    subprocess.run(
        [
            "gcc",
            "-O0",
            "-fopenmp",
            "-foffload=disable",
            "-ffp-contract=off",
            str(path),
            "-o",
            str(exe),
            "-lm",
        ],
        check=True,
    )
    return subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout


def test_types_of_temporaries_and_casts_are_exact(cfile, tmp_path):
    src = r"""#include <stdio.h>
float f[8]; double d[8]; int k[8]; unsigned u[8]; long l[8]; char ch[8];
double out1[8], out2[8]; float out3[8]; long out4[8]; unsigned out5[8]; int out6[8];
int main(void) {
  int i;
  for (i = 0; i < 8; i++) { f[i] = 0.1f * (i + 1); d[i] = 0.3 * i; k[i] = 3 * i - 7;
    u[i] = 4000000000u - i; l[i] = 100000L * i; ch[i] = (char)(i * 37); }
  #pragma omp parallel for
  for (i = 0; i < 8; i++) {
    out1[i] = (double)f[i] * f[i] + (double)(f[i] * f[i]);
    out2[i] = f[i] * 0.1 + f[i] * 0.1f + k[i] / 2 + k[i] / 2.0;
    out3[i] = f[i] * f[i] + 2.0f * f[i];
    out4[i] = (long)k[i] * 100000 + l[i] * k[i] + k[i] * 65536;
    out5[i] = u[i] + u[i] * 3u + (unsigned)ch[i];
    out6[i] = ch[i] + ch[i] * ch[i] + (k[i] >> 1) + (k[i] % 3);
  }
  for (i = 0; i < 8; i++)
    printf("%a %a %a %ld %u %d\n", out1[i], out2[i], (double)out3[i], out4[i], out5[i], out6[i]);
  return 0;
}
"""
    path = cfile(src, "types.c")
    expected = compile_run(path, tmp_path, "orig")
    for variant in ("cse", "cse+bulk"):
        out = tmp_path / f"types_{variant.replace('+', '_')}.c"
        out.write_text(rewrite(path, variant=variant).text)
        assert compile_run(out, tmp_path, variant.replace("+", "_")) == expected


def test_a_deadline_keeps_the_finished_kernels_and_leaves_the_rest(tmp_path, monkeypatch):
    """accsat-cc's time budget (wrapper/rewrite.deadline_for): a kernel not started by the
    deadline is kept as written, one finished before it is kept rewritten. The clock is
    a fake one: the first kernel starts at 0, every later look is at 100."""
    import accsat.pipeline as pipeline
    from accsat.options import Options
    from accsat.report import OUT_OF_TIME

    kernel = (
        "  #pragma omp parallel for\n  for (i = 0; i < n; i++) c[i] = a[i] * b[i] + a[i] * b[i];\n"
    )
    src = tmp_path / "k.c"
    src.write_text(HEADER + "void f(int n) {\n  int i;\n" + kernel * 3 + "}\n")
    ticks = iter([0.0])
    monkeypatch.setattr(pipeline.time, "monotonic", lambda: next(ticks, 100.0))
    result = pipeline.rewrite_file(src, Options(variant="cse"), deadline=50.0)
    assert [k.status for k in result.kernels] == ["rewritten", "unchanged", "unchanged"]
    assert [k.reason for k in result.kernels[1:]] == [OUT_OF_TIME] * 2
    assert result.text.count("_v0") >= 1  # the first kernel's rewrite is in the file


@pytest.mark.parametrize(
    "body, why",
    [
        # the loop variable read four times: one read in the e-graph, four in C
        ("q[j] = 0.0; z[j] = 0.0; r[j] = 0.0; p[j] = 0.0;",
         "(variable or array read by name: 1)"),
        # the same address twice (j * 4 and j * 4 + 1): shared in the e-graph, computed at
        # each store in C
        ("q[j * 4 + 1] = 1.0; z[j * 4 + 1] = 2.0;", "(index arithmetic: 2, variable"),
        ("q[j] = 1.0;", "the cost model finds no cheaper form of the body"),
    ],
)  # fmt: skip
def test_a_rewrite_that_does_not_pay_says_where_the_saving_went(tmp_path, body, why):
    src = tmp_path / "k.c"
    src.write_text(
        "double q[64], z[64], r[64], p[64];\nvoid k(int n)\n{\n"
        f"#pragma acc parallel loop\n  for (int j = 0; j < n; j++) {{\n    {body}\n  }}\n}}\n"
    )
    from accsat.options import Options
    from accsat.pipeline import rewrite_file

    (kernel,) = rewrite_file(src, Options(variant="cse")).kernels
    assert (kernel.status, kernel.reason) == ("unchanged", "no gain")
    assert why in kernel.no_gain


def _five_kernels(tmp_path):
    src = tmp_path / "k.c"
    src.write_text(
        HEADER
        + "".join(
            f"void f{k}(int n) {{\n#pragma acc parallel loop\n"
            f"  for (int i = 0; i < n; i++) b[i] = a[i] * a[i] + {k}.0;\n}}\n"
            for k in range(5)
        )
    )
    return src


class _Collector:
    """The gc module as pipeline sees it, counting collections instead of making them."""

    def __init__(self):
        import gc

        self.isenabled, self.enable, self.disable = gc.isenabled, gc.enable, gc.disable
        self.collected = 0

    def collect(self, *args):
        self.collected += 1
        return 0


def test_the_garbage_collector_rests_while_a_file_is_rewritten(tmp_path, monkeypatch):
    """Off for the whole file (a fifth of NPB's rewrite time went to it), a collection
    each time the process grew by COLLECT_GROWTH_MB since the second job (here 1 MB a
    job: five rewrites and five re-read checks, 2 MB), and on again afterwards."""
    import gc

    from accsat import pipeline

    seen = []
    real = pipeline.rewrite_kernel

    def watched(*args, **kwargs):
        seen.append(gc.isenabled())
        return real(*args, **kwargs)

    collector = _Collector()
    monkeypatch.setattr(pipeline, "rewrite_kernel", watched)
    monkeypatch.setattr(pipeline, "COLLECT_GROWTH_MB", 2)
    grows = itertools.count(1000)  # MB: 1 more each time it is read
    monkeypatch.setattr(pipeline, "resident_mb", lambda: float(next(grows)))
    monkeypatch.setattr(pipeline, "gc", collector)
    assert gc.isenabled()
    result = pipeline.rewrite_file(_five_kernels(tmp_path))
    assert [k.status for k in result.kernels] == ["rewritten"] * 5
    # read at each of the ten jobs and after each collection: the base at the second
    # job (1001), then a collection every second job (the 4th, 6th, 8th and 10th)
    assert seen == [False] * 5 and collector.collected == 4
    assert gc.isenabled()


def test_without_a_reading_of_memory_it_collects_every_collect_every_jobs(tmp_path, monkeypatch):
    from accsat import pipeline

    collector = _Collector()
    monkeypatch.setattr(pipeline, "COLLECT_EVERY", 3)
    monkeypatch.setattr(pipeline, "resident_mb", lambda: 0.0)  # (no /proc)
    monkeypatch.setattr(pipeline, "gc", collector)
    pipeline.rewrite_file(_five_kernels(tmp_path))
    assert collector.collected == 3  # ten jobs: the third, sixth and ninth


def test_what_a_file_leaves_is_collected_afterwards(tmp_path):
    """The garbage of a rewritten file does not outlive it in a process that goes on
    (accsat check, advise, a library's caller): the oldest generation, after a young
    collection, is as large after the sixth rewrite as after the second."""
    import gc

    from accsat import pipeline

    path = _five_kernels(tmp_path)
    old = []
    for _ in range(6):
        pipeline.rewrite_file(path)
        gc.collect(1)
        old.append(len(gc.get_objects(2)))
    assert old[-1] - old[1] < 2000, old


def test_the_garbage_collector_is_on_again_after_a_failure(tmp_path, monkeypatch):
    import gc

    from accsat import pipeline

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(pipeline, "rewrite_kernel", broken)
    with pytest.raises(RuntimeError):
        pipeline.rewrite_file(_five_kernels(tmp_path))
    assert gc.isenabled()
