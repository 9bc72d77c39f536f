"""accsat-cc with gcc: settings at their limits, awkward names, a missing compiler,
a cache that cannot be written, the debug log and the statistics of a build."""

from __future__ import annotations

import re

import pytest

from .conftest import ACC, KERNEL, WRAPPER, imported_by, lines, needs_gcc, wrap

pytestmark = needs_gcc


@pytest.mark.parametrize("value", ["inf", "1e300", "Infinity"])
def test_timeout_without_limit_compiles(project, env, value):
    r = wrap(
        project,
        env,
        "gcc",
        "-c",
        *ACC,
        "k.c",
        ACCSAT_TIMEOUT=value,
        ACCSAT_CACHE="0",
        ACCSAT_VERBOSE="1",
    )
    assert r.returncode == 0, r.stderr
    assert (project / "k.o").exists() and "Traceback" not in r.stderr
    assert lines(r.stderr) == ["accsat-cc: k.c: 1 of 1 kernels rewritten (cse)"]


@pytest.mark.parametrize("value", ["nan", "-5", "0", "soon"])
def test_bad_timeout_is_one_line_and_the_build_passes(project, env, value):
    r = wrap(project, env, "gcc", "-c", *ACC, "k.c", ACCSAT_TIMEOUT=value)
    assert r.returncode == 0 and (project / "k.o").exists()
    assert lines(r.stderr) == [
        f"accsat-cc: ACCSAT_TIMEOUT='{value}' is not a positive number "
        "of seconds (inf: no limit); compiling the original"
    ]


def test_a_source_named_like_an_option_keeps_its_spelling(project, env):
    (project / "-dash.c").write_text(KERNEL)
    r = wrap(
        project,
        env,
        "gcc",
        "-Wall",
        "-c",
        *ACC,
        "./-dash.c",
        "-o",
        "dash.o",
        ACCSAT_VERBOSE="1",
        ACCSAT_KEEP=str(project / "keep"),
    )
    assert r.returncode == 0, r.stderr
    assert lines(r.stderr) == ["accsat-cc: ./-dash.c: 1 of 1 kernels rewritten (cse)"]
    kept = next((project / "keep").rglob("-dash.c")).read_text()
    assert kept.startswith('#line 1 "./-dash.c"\n')
    assert (project / "dash.o").exists()


def test_a_missing_compiler_says_so_like_a_shell(project, env):
    r = wrap(project, env, "no-such-cc-xyz", "-c", *ACC, "k.c")
    assert r.returncode == 127
    assert r.stderr == "accsat-cc: no-such-cc-xyz: command not found\n"
    r = wrap(project, env, "./no-such-cc", "-c", *ACC, "k.c")
    assert (r.returncode, r.stderr) == (127, "accsat-cc: ./no-such-cc: No such file or directory\n")


@pytest.mark.parametrize(
    "name, value",
    [
        ("ACCSAT_VERIFY", "2"),
        ("ACCSAT_DISABLE", "maybe"),
        ("ACCSAT_CACHE", "perhaps"),
        ("ACCSAT_CACHE_MAX", "2X"),
        ("ACCSAT_STRICT", "yes please"),
    ],
)
def test_every_bad_value_is_one_line_and_the_build_passes(project, env, name, value):
    r = wrap(project, env, "gcc", "-c", *ACC, "k.c", **{name: value})
    assert r.returncode == 0 and (project / "k.o").exists()
    said = lines(r.stderr)
    assert len(said) == 1 and said[0].startswith(f"accsat-cc: {name}='{value}' is not a ")
    assert said[0].endswith("; compiling the original")


def test_bad_values_in_the_config_file_name_the_file_and_key(project, env):
    path = project.parent / "config" / "accsat" / "accsat.toml"
    path.parent.mkdir(parents=True)
    path.write_text('verify = 2\ncache_max = "lots"\nverbos = true\n')
    r = wrap(project, env, "gcc", "-c", *ACC, "k.c")
    assert r.returncode == 0 and (project / "k.o").exists()
    said = lines(r.stderr)
    assert len(said) == 3 and all(line.startswith(f"accsat-cc: {path}: ") for line in said)
    assert any("unknown setting 'verbos'" in line for line in said)
    assert any(": verify = 2 is not" in line for line in said)
    assert any(": cache_max = 'lots' is not a size" in line for line in said)


def test_an_unwritable_cache_is_said_once_and_the_build_goes_on(project, env):
    (project / "k2.c").write_text(KERNEL.replace("kern", "kern2"))
    blocked = project / "k.c" / "cache"  # under a file: no one can create it, root included
    r = wrap(project, env, "gcc", "-c", *ACC, "k.c", "k2.c", ACCSAT_CACHE_DIR=str(blocked))
    assert r.returncode == 0, r.stderr
    assert (project / "k.o").exists() and (project / "k2.o").exists()
    said = lines(r.stderr)
    assert len(said) == 1 and said[0].startswith(f"accsat-cc: cannot write the cache in {blocked}")


def test_the_log_has_a_line_per_event(project, env):
    log = project / "build.log"
    args = ["gcc", "-c", *ACC, "k.c"]
    for _ in range(2):
        assert wrap(project, env, *args, ACCSAT_LOG=str(log)).returncode == 0
    (project / "plain.c").write_text("int x;\n")
    wrap(project, env, "gcc", "-c", "plain.c", ACCSAT_LOG=str(log))
    wrap(
        project,
        env,
        "gcc",
        "-c",
        "k.c",
        "-o",
        "k.o",
        ACCSAT_LOG=str(log),
        ACCSAT_TIMEOUT="0.001",
        ACCSAT_CACHE="0",
    )
    events = [line.split()[2:] for line in log.read_text().splitlines()]
    kinds = [e[0] for e in events]
    assert kinds[:4] == ["miss", "rewrite", "done", "hit"], events
    assert events[0][1] == "k.c" and events[0][2].startswith("key=") and len(events[0][2]) == 68
    assert "no-kernel" in kinds and "fallback" in kinds
    assert any(e[0] == "fallback" and "timed out" in " ".join(e) for e in events)


def stats_of(stdout: str) -> dict[str, str]:
    return dict(re.split(r"\s{2,}", line, maxsplit=1) for line in stdout.splitlines())


def test_stats_count_a_build(project, env):
    args = ["gcc", "-c", *ACC, "k.c"]
    (project / "plain.c").write_text("int x;\n")
    (project / "gnu.c").write_text(
        "__typeof__(1) g;\nint f(void) { int v = 0;\n"
        "#pragma omp parallel for\n"
        "for (int i = 0; i < 4; i++) v += i;\nreturn v; }\n"
    )
    for _ in range(3):
        assert wrap(project, env, *args).returncode == 0
    assert wrap(project, env, "gcc", "-c", "plain.c", "gnu.c").returncode == 0
    got = stats_of(wrap(project, env, "--stats").stdout)
    assert (got["cache hits"], got["cache misses"]) == ("2", "2")  # k.c once, gnu.c once
    assert got["files with no kernel"] == "1" and got["kernels rewritten"] == "3"
    assert got["files compiled as written after a failure"] == "1"
    assert float(got["time saved by cache hits"].split()[0]) > 0
    assert got["cache size"].endswith(", 2 entries")
    assert wrap(project, env, "--zero-stats").returncode == 0
    got = stats_of(wrap(project, env, "--stats").stdout)
    assert (got["cache hits"], got["cache misses"]) == ("0", "0")
    cleared = wrap(project, env, "--clear")
    assert cleared.returncode == 0 and cleared.stdout.startswith("removed 2 entries")
    assert stats_of(wrap(project, env, "--stats").stdout)["cache size"].endswith(", 0 entries")


def test_a_cache_hit_imports_nothing_of_the_pipeline(project, env):
    assert wrap(project, env, "gcc", "-c", *ACC, "k.c").returncode == 0
    rc, modules, stderr = imported_by(
        project, dict(env, ACCSAT_VERBOSE="1"), ["gcc", "-c", *ACC, "k.c"]
    )
    assert rc == 0 and "cached" in stderr
    heavy = {
        "pycparser",
        "egglog",
        "pulp",
        "highspy",
        "numpy",
        "cloudpickle",
        "click",
        "jinja2",
        "accsat.pipeline",
        "accsat.frontend.load",
        "accsat.egraph",
        "accsat.extract",
        "shlex",
    }
    assert sorted(heavy & modules) == []


def test_a_compiler_killed_by_sigkill_is_reported_as_such(project, env):
    """As the OOM killer does: the wrapper ends by the same signal, with no traceback."""
    cc = project / "cc"
    cc.write_text("#!/bin/sh\nkill -KILL $$\n")
    cc.chmod(0o755)
    r = wrap(project, env, str(cc), "-c", *ACC, "k.c")
    assert r.returncode == -9 and "Traceback" not in r.stderr, r.stderr


@pytest.mark.parametrize("fd", [1, 2])
@pytest.mark.parametrize("source", ["k.c", "plain.c"])
def test_a_closed_stdout_or_stderr_compiles_as_gcc_does(project, env, fd, source):
    """As ``make CC="accsat-cc gcc" >&-``: the compile succeeds, with no traceback."""
    import os
    import subprocess

    (project / "plain.c").write_text("int x;\n")
    r = subprocess.run(
        [*WRAPPER, "gcc", "-c", *ACC, source, "-o", "out.o"],
        cwd=project,
        env=env,
        stdout=subprocess.PIPE if fd == 2 else None,
        stderr=subprocess.PIPE if fd == 1 else None,
        preexec_fn=lambda: os.close(fd),
        timeout=240,
    )
    assert r.returncode == 0 and (project / "out.o").exists(), r
    assert b"Traceback" not in (r.stderr or b"")


def test_a_log_nobody_reads_does_not_hang_the_build(project, env):
    import os

    os.mkfifo(project / "log")
    r = wrap(project, env, "gcc", "-c", *ACC, "k.c", ACCSAT_LOG=str(project / "log"))
    assert r.returncode == 0 and (project / "k.o").exists()
    assert lines(r.stderr) == [
        f"accsat-cc: cannot write the log {project / 'log'}: No such device or address"
    ]


DATA_ONLY = """\
double u[64];
#define UPDATE _Pragma("acc update host(u)")
void step(int n)
{
#pragma acc data copy(u)
  {
    for (int i = 0; i < n; i++)
      u[i] += 1.0;
#pragma acc update device(u)
  }
  UPDATE
}
"""


def test_a_file_with_data_directives_only_is_not_loaded(project, env):
    """No compute construct and no loop directive (NPB's bt.c: a data region and
    updates): no kernel, so the file is compiled as written without loading it; one
    loop directive, even from a _Pragma, and it is."""
    log = project / "build.log"
    (project / "data.c").write_text(DATA_ONLY)
    (project / "loop.c").write_text(
        DATA_ONLY.replace('"acc update host(u)"', '"acc parallel loop"').replace(
            "  UPDATE\n", "  UPDATE\n  for (int i = 0; i < n; i++)\n    u[i] *= 2.0;\n"
        )
    )
    for name in ("data.c", "loop.c"):
        r = wrap(project, env, "gcc", "-c", *ACC, name, ACCSAT_LOG=str(log))
        assert r.returncode == 0, r.stderr
    events = [line.split()[2:4] for line in log.read_text().splitlines()]
    assert ["no-kernel", "data.c"] in events
    assert ["miss", "loop.c"] in events and ["no-kernel", "loop.c"] not in events
