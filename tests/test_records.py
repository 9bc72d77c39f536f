"""Optimization records (accsat/records): written per kernel by accsat rewrite --record,
read back by accsat report into a table and one static HTML page (checked here with an
HTML parser: every kernel in every order, each order sorted, both bodies, no server)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from accsat.cli import main
from accsat.records import read
from accsat.records.page import outline, page, side_by_side
from accsat.records.table import ORDERS, table

SOURCE = """\
void f(int n, double *a, double *b, double *c)
{
\t#pragma acc parallel loop
\tfor (int i = 0; i < n; i++) {
\t\ta[i] = b[i] * c[i] + b[i] * c[i];
\t}
  #pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    a[i] = b[i];
    goto out;
  out:;
  }
#pragma acc parallel loop
  for (int i = 1; i < n; i++)
    c[i] = a[i] * b[i] + a[i] * b[i] + a[i] * a[i] * b[i] + b[i - 1] + a[i] * b[i];
}
"""


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("records")
    src = folder / "k.c"
    src.write_text(SOURCE)
    records = folder / "build.jsonl"
    for variant in ("cse", "accsat"):  # the second build's records replace the first's
        res = CliRunner().invoke(
            main,
            ["rewrite", str(src), "--variant", variant, "--record", str(records),
             "--report", str(folder / "report.jsonl"), "-o", str(folder / "out.c")],
        )  # fmt: skip
        assert res.exit_code == 0, res.output
    return folder


def test_a_record_per_kernel_with_both_bodies(recorded):
    rows = [json.loads(x) for x in (recorded / "build.jsonl").read_text().splitlines()]
    assert len(rows) == 6 and [r["line"] for r in rows[3:]] == [4, 8, 14]
    first = rows[3]["bodies"]
    assert first["line"] == 4 and first["original"].startswith("\tfor (int i = 0;")
    assert "_v0" in first["rewritten"] and "_v0" not in first["original"]
    left = rows[4]
    assert (
        left["status"] == "unchanged" and left["bodies"]["rewritten"] == left["bodies"]["original"]
    )
    # a report is as before: no bodies
    report = [json.loads(x) for x in (recorded / "report.jsonl").read_text().splitlines()]
    assert all("bodies" not in r for r in report) and len(report) == 6


def test_read_keeps_the_last_record_of_each_kernel(recorded, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('not json\n{"no": "file"}\n\n')
    kernels, skipped = read([recorded / "build.jsonl", bad])
    assert skipped == 2
    assert [k.fields["line"] for k in kernels] == [4, 8, 14]
    assert {k.fields["variant"] for k in kernels} == {"accsat"}


def test_the_table(recorded):
    kernels, _ = read([recorded / "build.jsonl"])
    text = table(kernels)
    lines = text.splitlines()
    assert lines[0].startswith("3 kernels: 2 rewritten, 1 left as written; loads ")
    assert len(lines) == 2 + 1 + 3  # totals, blank, head, a row per kernel
    assert "k.c:8:3" in lines[4] and "'goto' statement in the loop body" in lines[4]
    width = lines[4].index("'goto'") + 15  # the reason is cut to the room left
    cut = table(kernels, width=width).splitlines()[4]
    assert len(cut) <= width and cut.endswith("...")
    loads = [k.loads_saved for k in sorted(kernels, key=ORDERS["loads"])]
    assert loads == sorted(loads, reverse=True)


def test_the_page(recorded):
    kernels, _ = read([recorded / "build.jsonl"])
    parsed = outline(page(kernels))
    ids = [f"k{n}" for n in range(len(kernels))]
    # sorting without a server: no script, nothing fetched, a radio per order
    assert parsed.scripts == 0 and parsed.external == []
    assert [r["value"] for r in parsed.radios] == list(ORDERS)
    assert ["checked" in r for r in parsed.radios] == [True, False, False, False]
    for order, rows in parsed.orders.items():
        assert sorted(r["data-kernel"] for r in rows) == ids, order
    assert [r["data-kernel"] for r in parsed.orders["file"]] == ids
    for order, attr in (("loads", "data-loads-saved"), ("cost", "data-cost-saved")):
        values = [float(r[attr]) for r in parsed.orders[order]]
        assert values == sorted(values, reverse=True)
    by_id = dict(zip(ids, kernels, strict=True))
    for kid, section in parsed.sections.items():
        k = by_id[kid]
        assert k.bodies is not None
        line, original, rewritten = k.bodies
        assert "\n".join(x for x in section["left"] if x) == original.rstrip("\n")
        assert "\n".join(x for x in section["right"] if x) == rewritten.rstrip("\n")
        if k.measured:
            assert section["figures"][:2] == [str(k.loads[0]), str(k.loads[1])]
    assert set(parsed.sections) == set(ids)


def test_side_by_side_marks_each_changed_line():
    rows = side_by_side(10, "a\nb\nc\nd\n", "a\nB\nc\nx\ny\n")
    assert [(r.number, r.mark) for r in rows] == [
        (10, "same"), (11, "changed"), (12, "same"), (13, "changed"), (None, "added"),
    ]  # fmt: skip
    assert [r.mark for r in side_by_side(1, "a\nb\n", "a\n")] == ["same", "removed"]


def test_accsat_report_command(recorded, tmp_path):
    out = tmp_path / "r.html"
    res = CliRunner().invoke(
        main, ["report", str(recorded / "build.jsonl"), "--html", str(out), "--sort", "loads"]
    )
    assert res.exit_code == 0, res.output
    assert res.stdout.startswith("3 kernels: 2 rewritten")
    assert out.read_text().startswith("<!DOCTYPE html>")
    missing = CliRunner().invoke(main, ["report", str(tmp_path / "none.jsonl")])
    assert missing.exit_code == 2 and "cannot read" in missing.stderr
