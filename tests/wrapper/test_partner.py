"""The server child's partner: the kernels of one file over two processes, the file as
a serial rewrite gives it, whatever the partner does."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from accsat.wrapper import partner
from accsat.wrapper.partner import _Queue


def run(sizes, partner):
    """_Queue.run with ``partner(queue)`` in the helper thread; the main side's
    results are ("main", i), and the order it took them in."""
    taken: list[int] = []

    def one(i):
        taken.append(i)
        return ("main", i)

    return _Queue(sizes).run(one, None, partner), taken


def test_without_a_partner_every_kernel_in_order_biggest_first():
    results, taken = run([5, 50, 7, 50], lambda q: q.partner_gone())
    assert results == [("main", i) for i in range(4)]
    assert taken == [1, 3, 2, 0]


def test_the_partners_results_take_their_places():
    def partner(q):
        i = q.lend()  # the biggest, taken before the main side starts
        q.answer(i, ("partner", i))
        q.partner_gone()

    results, taken = _run_after([1, 9, 2], partner)
    assert results == [("main", 0), ("partner", 1), ("main", 2)]
    assert taken == [2, 0]


def test_a_kernel_the_partner_failed_or_dropped_is_done_by_the_main_side():
    def partner(q):
        a, dropped = q.lend(), q.lend()
        q.answer(a, None)  # its rewrite raised there: done again here
        assert dropped is not None
        q.partner_gone()  # dropped: lent, never answered

    results, taken = _run_after([3, 2, 1], partner)
    assert results == [("main", i) for i in range(3)]
    assert sorted(taken) == [0, 1, 2]


def _run_after(sizes, partner):
    """The partner's moves happen before the main side takes anything."""
    q = _Queue(sizes)
    partner(q)
    taken: list[int] = []

    def one(i):
        taken.append(i)
        return ("main", i)

    return q.run(one, None, lambda q: None), taken


KERNELS = "".join(
    f"""
double a{k}[64], b{k}[64];
void kern{k}(int n)
{{
#pragma acc parallel loop
  for (int i = 1; i < n - 1; i++) {{
    double t = a{k}[i] * b{k}[i] + a{k}[i] * a{k}[i] + {k}.0;
    b{k}[i] = t * 2.0 + a{k}[i] * b{k}[i] + (a{k}[i] * b{k}[i]) * {k}.0;
  }}
}}
"""
    for k in range(6)
)

# In a fresh interpreter: the partner is forked before the pipeline (egglog) is imported.
SCRIPT = """
import json, os, pickle, sys, time
from pathlib import Path
from accsat.options import Options
from accsat.wrapper import partner, server
helper = partner.fork(server.WARM, server.enter)
from accsat.pipeline import rewrite_file
path, options = sys.argv[1], Options(variant="cse+sat")
original = open(path).read()
here, root = os.stat("."), os.stat("/")
request = {"path": path, "options": options, "cwd": os.getcwd(), "env": dict(os.environ),
           "umask": 0o022, "cwd_id": [here.st_dev, here.st_ino],
           "root_id": [root.st_dev, root.st_ino]}
if len(sys.argv) > 2:
    # the partner loads an edited file (it starts at once), the child the original
    Path(path).write_text(original.replace("2.0", "3.0"))
share = helper.share(pickle.dumps(request))
if len(sys.argv) > 2:
    helper.loading.done.wait(300)
    Path(path).write_text(original)

def patient(text, sizes, one, progress, task):
    def first_waits(i, waited=[]):
        if not waited:  # the main side waits for the partner's first answer
            waited.append(1)
            answered = helper.done if task is None else helper.checked
            end = time.monotonic() + 300
            while not answered and not helper.over and time.monotonic() < end:
                time.sleep(0.05)
        return one(i)
    return share(text, sizes, first_waits, progress, task)

shared = rewrite_file(Path(path), options, share=patient)
Path(path).write_text(original)
helper.end()
serial = rewrite_file(Path(path), options)
print(json.dumps({"same": shared.text == serial.text, "rewritten": shared.text != open(path).read(),
                  "reports": [r.status for r in shared.kernels] == [r.status for r in serial.kernels],
                  "by_partner": len(helper.done), "checked": len(helper.checked)}))
"""


def test_a_real_partner_gives_the_serial_file(tmp_path):
    src = tmp_path / "k.c"
    src.write_text(KERNELS)
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(SCRIPT), str(src)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr
    answer = json.loads(out.stdout.strip().splitlines()[-1])
    assert answer == {
        "same": True,
        "rewritten": True,
        "reports": True,
        "by_partner": answer["by_partner"],
        "checked": answer["checked"],
    }
    assert 1 <= answer["by_partner"] < 6
    assert 1 <= answer["checked"] < 6  # the partner re-read some of the rewritten kernels


def test_a_partner_that_loaded_another_text_answers_nothing(tmp_path):
    """The file is edited between the partner's read and the child's: the partner's
    kernels would be another file's, so the child rewrites them all itself."""
    src = tmp_path / "k.c"
    src.write_text(KERNELS)
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(SCRIPT), str(src), "edit"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr
    answer = json.loads(out.stdout.strip().splitlines()[-1])
    assert answer == {
        "same": True,
        "rewritten": True,
        "reports": True,
        "by_partner": 0,
        "checked": 0,
    }


@pytest.mark.parametrize(
    "cores, busy, lends", [(2, 1, True), (2, 2, False), (8, 4, True), (8, 5, False), (1, 1, False)]
)
def test_partners_are_used_only_while_each_has_a_core(monkeypatch, cores, busy, lends):
    """``make -j2`` on two cores: the second request's child works alone."""
    monkeypatch.setattr(partner, "cores", lambda: cores)
    assert partner.lends(busy) is lends
