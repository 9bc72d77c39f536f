"""A file's kernels shared by a lead and a helper (toolchain/share.py, pipeline._shared):
the file is the serial one whatever the helper does: helps, dies, loads another text,
or never comes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from accsat.frontend.load import load
from accsat.options import Options
from accsat.pipeline import largest_first, rewrite_file
from accsat.toolchain.share import POSITIONS, Share, idle_cores, task_queue

KERNELS = """
void f(int n, double *restrict a, const double *restrict b, double c)
{
    int i;
{loops}
}
"""
LOOP = """
#pragma acc parallel loop
    for (i = 1; i < n - 1; i++) {{
        a[i] = b[i - 1] * c + b[i] * {k}.0 + b[i + 1] * c + b[i - 1] * b[i] * {k}.0;
    }}
"""
HELPER = """
import os, sys
from pathlib import Path
from accsat.options import Options
from accsat.pipeline import help_rewrite
from accsat.toolchain.share import Share
tasks, results = int(sys.argv[1]), int(sys.argv[2])
help_rewrite(Path(sys.argv[3]), Options(), Share(tasks, results, lead=False))
"""


@pytest.fixture
def source(tmp_path: Path) -> Path:
    path = tmp_path / "k.c"
    path.write_text(KERNELS.replace("{loops}", "".join(LOOP.format(k=k) for k in range(2, 8))))
    return path


def _helper(path: Path, script: str = HELPER) -> tuple[Share, subprocess.Popen]:
    """The lead's share, and a helper (a fresh Python: egglog may not be forked) on it."""
    tasks = task_queue()
    results, answers = os.pipe()
    proc = subprocess.Popen(
        [sys.executable, "-c", script, str(tasks), str(answers), str(path)],
        pass_fds=(tasks, answers),
        stdout=subprocess.DEVNULL,
    )
    os.close(answers)
    return Share(tasks, results, lead=True), proc


def _answered(proc: subprocess.Popen) -> None:
    proc.kill()
    proc.wait()


def test_a_helped_file_is_the_serial_file(source: Path):
    serial = rewrite_file(source, Options())
    share, proc = _helper(source)
    try:
        shared = rewrite_file(source, Options(), share=share)
    finally:
        _answered(proc)
        share.close()
    assert shared.text == serial.text
    assert [k.status for k in shared.kernels] == [k.status for k in serial.kernels]
    assert sum(k.status == "rewritten" for k in serial.kernels) == 6


def test_the_helper_answers_kernels(source: Path):
    """What a helper sends: its pid and digest, then (index, result) per kernel it took."""
    tasks = task_queue()
    results, answers = os.pipe()
    proc = subprocess.Popen(
        [sys.executable, "-c", HELPER, str(tasks), str(answers), str(source)],
        pass_fds=(tasks, answers),
    )
    os.close(answers)
    assert proc.wait(timeout=120) == 0
    lead = Share(tasks, results, lead=True)
    messages = list(lead.received())
    lead.close()
    assert messages[0][0] == proc.pid and messages[0][1] == load(source).digest
    assert sorted(i for i, _ in messages[1:]) == list(range(6))  # alone, it took them all


DIES = HELPER.replace("help_rewrite(", "os._exit(3)\nhelp_rewrite(")
OTHER = HELPER.replace(
    "help_rewrite(Path(sys.argv[3])",
    "Path(sys.argv[3] + '.other.c').write_text(Path(sys.argv[3]).read_text().replace('2.0', '9.0'))\n"
    "help_rewrite(Path(sys.argv[3] + '.other.c')",
)
GARBAGE = HELPER.replace(
    "help_rewrite(", "os.write(results, b'\\x10' + b'\\0' * 7 + b'junk')\nhelp_rewrite("
)


@pytest.mark.parametrize("script", [DIES, OTHER, GARBAGE], ids=["dies", "another-text", "garbage"])
def test_whatever_the_helper_does_the_file_is_the_serial_one(source: Path, script: str):
    serial = rewrite_file(source, Options())
    share, proc = _helper(source, script)
    try:
        shared = rewrite_file(source, Options(), share=share)
    finally:
        _answered(proc)
        share.close()
    assert shared.text == serial.text


def test_the_queue_gives_each_position_once():
    tasks = task_queue()
    share = Share(tasks, -1, lead=True)
    got = []
    while (p := share.claim()) is not None:
        got.append(p)
    os.close(tasks)
    assert got == list(range(POSITIONS))


def test_largest_kernel_first(source: Path):
    path = source.with_name("sizes.c")
    text = KERNELS.replace(
        "{loops}", LOOP.format(k=2) + LOOP.format(k=3).replace("b[i] * 3.0;", "b[i] * 3.0 + b[i];")
    )
    path.write_text(text)
    assert largest_first(load(path)) == [1, 0]


def test_idle_cores_is_a_count():
    assert 0 <= idle_cores() <= len(os.sched_getaffinity(0))


def test_the_lead_uses_what_the_helper_sent(source: Path, monkeypatch):
    """The helper took every kernel (it ran first, alone): the lead rewrites none itself."""
    serial = rewrite_file(source, Options())
    share, proc = _helper(source)
    assert proc.wait(timeout=120) == 0

    def not_here(*_args, **_kw):
        raise AssertionError("the lead rewrote a kernel the helper answered")

    monkeypatch.setattr("accsat.pipeline.rewrite_kernel", not_here)
    try:
        shared = rewrite_file(source, Options(), share=share)
    finally:
        share.close()
    assert shared.text == serial.text
