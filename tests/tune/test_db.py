"""The tuning database: identity, stale entries, and applying it (accsat-cc, accsat rewrite)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from accsat.options import Options
from accsat.tune.constructs import find
from accsat.tune.db import Database, DatabaseError, Entry, choices, load

from .conftest import SCALE_LINE, STENCIL_LINE, TWO, compile_with, needs_gcc


def database(stencil: str, scale: str, text: str = TWO) -> Database:
    a, b = find(text)
    return Database(
        [
            Entry("two.c", a.line, a.hash, a.name, stencil),
            Entry("two.c", b.line, b.hash, b.name, scale),
        ],
        "/somewhere",
    )


def test_entries_apply_to_their_constructs_by_line_range():
    ranges, notes = choices(database("orig", "cse"), "two.c", TWO)
    assert notes == []
    assert ranges == ((STENCIL_LINE, STENCIL_LINE + 3, "orig"), (SCALE_LINE, SCALE_LINE + 2, "cse"))
    options = Options(variant="accsat", kernel_configs=ranges)
    assert options.config_for(STENCIL_LINE + 1) == "orig"  # the loop of the first construct
    assert options.config_for(SCALE_LINE + 1) == "cse"
    assert options.config_for(40) == "accsat"  # no construct there: the default
    assert options.key() != Options(variant="accsat").key()  # the choice is in the cache key


def test_an_edited_kernel_falls_back_with_a_note_a_moved_one_keeps_its_choice():
    db = database("cse", "cse+sat")
    edited = TWO.replace("* 0.5;\n  }", "* 0.25;\n  }")
    ranges, notes = choices(db, "two.c", edited)
    assert [r[2] for r in ranges] == ["cse+sat"]
    assert len(notes) == 1 and f"two.c:{STENCIL_LINE}: changed since it was tuned" in notes[0]
    moved = "/* a new first line */\n" + TWO
    ranges, notes = choices(db, "two.c", moved)
    assert notes == [] and [(r[0], r[2]) for r in ranges] == [
        (STENCIL_LINE + 1, "cse"),
        (SCALE_LINE + 1, "cse+sat"),
    ]
    assert choices(db, "other.c", TWO) == ((), [])  # another file: nothing of it


def test_save_and_load_round_trip_and_bad_databases_are_one_line(tmp_path):
    db = database("orig", "cse")
    db.save(tmp_path / "db.json")
    again = load(tmp_path / "db.json")
    assert again.kernels == db.kernels and again.digest() == db.digest()
    data = json.loads((tmp_path / "db.json").read_text())
    assert data["schema"] == "accsat-tune/1" and data["kernels"][0]["kernel"] == "two.c:12"
    bad = {
        "wrong.json": '{"schema": "other"}',
        "broken.json": "{",
        "config.json": json.dumps({**data, "kernels": [{**data["kernels"][0], "config": "fast"}]}),
    }
    for name, text in bad.items():
        (tmp_path / name).write_text(text)
        with pytest.raises(DatabaseError) as exc:
            load(tmp_path / name)
        assert "\n" not in str(exc.value) and name in str(exc.value)


def kept(folder: Path) -> str:
    return next(folder.rglob("two.c")).read_text()


@needs_gcc
def test_the_wrapper_keeps_an_orig_kernel_byte_identical(project):
    database("orig", "cse").save(project / "accsat-tune.json")
    keep = project / "kept"
    done = compile_with(
        project, {"ACCSAT_TUNE": str(project / "accsat-tune.json"), "ACCSAT_KEEP": str(keep)}
    )
    assert done.returncode == 0, done.stderr
    text = kept(keep)
    a, b = find(TWO)
    assert TWO[a.start : a.end] in text  # orig: the construct as written, byte for byte
    assert TWO[b.start : b.end] not in text  # cse: its body rewritten
    assert "_v0" in text[text.index("static void scale") :]
    # another choice is another cache entry, not the first one's result
    database("cse", "orig").save(project / "accsat-tune.json")
    done = compile_with(
        project,
        {"ACCSAT_TUNE": str(project / "accsat-tune.json"), "ACCSAT_KEEP": str(project / "kept2")},
    )
    assert done.returncode == 0, done.stderr
    text = kept(project / "kept2")
    assert TWO[a.start : a.end] not in text and TWO[b.start : b.end] in text


@needs_gcc
def test_the_wrapper_gives_a_changed_kernel_the_default_with_a_note(project):
    database("orig", "orig").save(project / "accsat-tune.json")
    (project / "two.c").write_text(TWO.replace("* 0.5;\n  }", "* 0.25;\n  }"))
    done = compile_with(
        project,
        {
            "ACCSAT_TUNE": str(project / "accsat-tune.json"),
            "ACCSAT_VARIANT": "cse",
            "ACCSAT_KEEP": str(project / "k"),
        },
    )
    assert done.returncode == 0, done.stderr
    notes = [ln for ln in done.stderr.splitlines() if "changed since it was tuned" in ln]
    assert len(notes) == 1 and notes[0].startswith(f"accsat-cc: two.c:{STENCIL_LINE}: ")
    text = kept(project / "k")
    stencil = text[: text.index("static void scale")]
    assert "_v0" in stencil  # the default variant (cse) rewrote it
    assert find(TWO)[1].hash in [c.hash for c in find(text)]  # scale still orig: as written


@needs_gcc
def test_a_database_that_cannot_be_read_is_one_line_and_the_build_goes_on(project):
    (project / "bad.json").write_text("{")
    done = compile_with(project, {"ACCSAT_TUNE": str(project / "bad.json")})
    assert done.returncode == 0
    said = [ln for ln in done.stderr.splitlines() if "bad.json" in ln]
    assert len(said) == 1 and "not a tuning database" in said[0]


def rewrite_two(project: Path, *args: str) -> subprocess.CompletedProcess:
    """``accsat rewrite two.c ARGS`` in the project folder."""
    return subprocess.run(
        [sys.executable, "-m", "accsat.cli", "rewrite", "two.c", *args],
        cwd=project,
        capture_output=True,
        text=True,
    )


def test_rewrite_takes_the_database_too(project):
    database("orig", "cse").save(project / "accsat-tune.json")
    done = rewrite_two(project, "--tune", "accsat-tune.json", "--variant", "accsat")
    assert done.returncode == 0, done.stderr
    a, b = find(TWO)
    assert TWO[a.start : a.end] in done.stdout and TWO[b.start : b.end] not in done.stdout
    (project / "x.json").write_text("[]")
    done = rewrite_two(project, "--tune", "x.json")
    assert done.returncode == 2 and "not a tuning database" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_kernels_register_budget_reaches_its_rewrite_only(project):
    """``cse@keep`` for the first construct: its kernel is rewritten within keep; the
    second, given cse, has the build's own budget (any: no budget report)."""
    database("cse@keep", "cse").save(project / "accsat-tune.json")
    done = rewrite_two(
        project, "--tune", "accsat-tune.json", "--registers", "any", "--report", "r.jsonl"
    )
    assert done.returncode == 0, done.stderr
    reports = {
        k["line"]: k for k in map(json.loads, (project / "r.jsonl").read_text().splitlines())
    }
    stencil = next(k for line, k in reports.items() if STENCIL_LINE < line < SCALE_LINE)
    scale = next(k for line, k in reports.items() if line > SCALE_LINE)
    assert (stencil["registers"] or {}).get("setting") == "keep"
    assert not scale.get("registers") and scale["variant"] == "cse"
