"""accsat.sweep.cache: one sweep per output folder."""

from __future__ import annotations

import pytest

from accsat.sweep.cache import Busy, CellStore


def test_one_sweep_per_output_folder(tmp_path):
    first, second = CellStore(tmp_path), CellStore(tmp_path)
    first.lock()
    with pytest.raises(Busy):
        second.lock()
    first.release()
    second.lock()
    second.release()
