"""accsat.toolchain.records: JSON, CSV and JSON Lines records, never half written."""

from __future__ import annotations

import csv
import json

import pytest

from accsat.toolchain import events
from accsat.toolchain.records import append_jsonl, read_json, read_jsonl, write_csv, write_json


def test_records_are_json_and_leave_no_temporary_file(tmp_path):
    path = tmp_path / "build.json"
    write_json(path, {"ok": True, "path": tmp_path})  # default=str: paths are text
    assert read_json(path) == {"ok": True, "path": str(tmp_path)}
    assert json.loads(path.read_text())["ok"] is True
    assert [p.name for p in tmp_path.iterdir()] == ["build.json"]
    assert read_json(tmp_path / "missing.json") is None
    (tmp_path / "half.json").write_text('{"ok": ')
    assert read_json(tmp_path / "half.json") is None


def test_a_table_replaces_the_old_one_whole(tmp_path, monkeypatch):
    path = tmp_path / "results.csv"
    write_csv(path, ("a", "b"), [{"a": 1, "b": "x,y"}, {"a": 2}])
    assert path.read_text() == 'a,b\n1,"x,y"\n2,\n'
    assert list(csv.DictReader(path.open())) == [{"a": "1", "b": "x,y"}, {"a": "2", "b": ""}]
    with pytest.raises(ValueError):  # a key that is not a column
        write_csv(path, ("a",), [{"a": 3, "c": 4}])
    assert path.read_text().startswith("a,b\n")  # the failed write left the old table
    write_csv(path, ("a",), [{"a": 3, "c": 4}], extra="ignore")
    assert path.read_text() == "a\n3\n"
    assert [p.name for p in tmp_path.iterdir()] == ["results.csv"]


def test_json_lines_are_appended_whole_and_read_back(tmp_path):
    path = tmp_path / "e.jsonl"
    assert list(read_jsonl(path)) == []  # no file: no record
    append_jsonl(path, [{"event": "miss"}, {"event": events.FALLBACK, "file": "a.c"}])
    append_jsonl(path, [])
    with path.open("a") as f:
        f.write("not json\n[1, 2]\n")  # neither is a record
    append_jsonl(path, [{"event": events.FALLBACK, "file": None}])
    assert [r["event"] for r in read_jsonl(path)] == ["miss", "fallback", "fallback"]
    assert [e.get("file") for e in events.events(path, events.FALLBACK)] == ["a.c", None]
    assert events.fallbacks(path) == 2 and events.fallbacks(tmp_path / "none") == 0
