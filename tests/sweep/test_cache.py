"""accsat.sweep.cache: one sweep per output folder; records written whole."""

from __future__ import annotations

import json

import pytest

from accsat.sweep.cache import Busy, CellStore, read_json, write_record


def test_one_sweep_per_output_folder(tmp_path):
    first, second = CellStore(tmp_path), CellStore(tmp_path)
    first.lock()
    with pytest.raises(Busy):
        second.lock()
    first.release()
    second.lock()
    second.release()


def test_records_are_json_and_leave_no_temporary_file(tmp_path):
    path = tmp_path / "build.json"
    write_record(path, {"ok": True, "path": tmp_path})  # default=str: paths are text
    assert read_json(path) == {"ok": True, "path": str(tmp_path)}
    assert json.loads(path.read_text())["ok"] is True
    assert [p.name for p in tmp_path.iterdir()] == ["build.json"]
    assert read_json(tmp_path / "missing.json") is None
