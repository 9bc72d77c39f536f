import os
import subprocess
import sys

from click.testing import CliRunner

from accsat.cli import main

KERNEL = """double a[16], b[16];
void f(int n) {
  int i;
  #pragma acc parallel loop
  for (i = 0; i < n; i++) { b[i] = a[i] * a[i] + a[i]; }
}
"""


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_stdout_diff_and_report(cfile, tmp_path):
    path = cfile(KERNEL)
    res = run("rewrite", str(path), "--variant", "cse")
    assert res.exit_code == 0 and "_v0 = a[i]" in res.output
    res = run("rewrite", str(path), "--diff", "--variant", "cse")
    assert res.output.startswith("---") and "+" in res.output
    report = tmp_path / "r.jsonl"
    run("rewrite", str(path), "--report", str(report))
    run("rewrite", str(path), "--report", str(report))
    assert len(report.read_text().splitlines()) == 2


def test_output_file_is_written_and_input_untouched(cfile, tmp_path):
    path = cfile(KERNEL)
    out = tmp_path / "out.c"
    assert run("rewrite", str(path), "-o", str(out)).exit_code == 0
    assert path.read_text() == KERNEL
    assert "_v0" in out.read_text()
    # -o naming the input itself rewrites it in place (asked for explicitly)
    assert run("rewrite", str(path), "-o", str(path), "--variant", "cse").exit_code == 0
    assert "_v0" in path.read_text()
    assert not list(tmp_path.glob(".*.accsat"))  # no temporary left behind


def one_line_error(args):
    proc = subprocess.run(
        [sys.executable, "-m", "accsat.cli", *args], capture_output=True, text=True
    )
    assert proc.returncode != 0
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    return lines[0]


def test_missing_file_is_one_line(tmp_path):
    line = one_line_error(["rewrite", str(tmp_path / "nope.c")])
    assert "nope.c" in line


def test_parse_error_names_file_and_line(cfile):
    path = cfile("int f(void) {\n  return 1 +;\n}\n")
    line = one_line_error(["rewrite", str(path)])
    assert f"{path}:2:" in line and "parse error" in line


def test_preprocessor_error_names_file_and_line(cfile):
    path = cfile('#include "missing.h"\nint x;\n')
    line = one_line_error(["rewrite", str(path)])
    assert f"{path}:1:" in line


def test_bad_option_values_are_one_line(cfile):
    path = cfile(KERNEL)
    assert "cost" in one_line_error(["rewrite", str(path), "--cost-model", "nosuch"]).lower()
    assert "nosuch" in one_line_error(["rewrite", str(path), "--rules", "nosuch"])


def _accsat(*args, **kw):
    kw.setdefault("stdout", subprocess.PIPE)
    return subprocess.run(
        [sys.executable, "-c", "from accsat.cli import main; main()", *args],
        stderr=subprocess.PIPE,
        **kw,
    )


def test_stdout_is_the_c_file_only_and_survives_a_closed_stdout(cfile, tmp_path):
    """The ILP solver's banner (highspy prints one from C) never reaches stdout."""
    path = cfile(KERNEL)
    res = _accsat("rewrite", str(path), text=True)
    assert res.returncode == 0 and res.stdout.splitlines()[0] == KERNEL.splitlines()[0]
    out = tmp_path / "o.c"
    res = _accsat(
        "rewrite",
        str(path),
        "-o",
        str(out),
        stdout=subprocess.DEVNULL,
        text=True,
        preexec_fn=lambda: os.close(1),
    )  # as `accsat rewrite ... >&-`
    assert res.returncode == 0, res.stderr
    assert out.read_text().splitlines()[0] == KERNEL.splitlines()[0]


def test_output_to_a_fifo_nobody_reads_fails_at_once(cfile, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    res = run("rewrite", str(cfile(KERNEL)), "-o", str(fifo))
    assert res.exit_code == 2 and "a FIFO no process reads" in res.output
    assert len(res.output.strip().splitlines()) == 1
