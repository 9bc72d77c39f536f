"""The cache on its own: keys that know the dependencies' versions, statistics under
concurrent builds, the size limit, clearing."""

from __future__ import annotations

import multiprocessing
import os

import pytest

from accsat.wrapper import cache

KEY = "ab" + "0" * 62


@pytest.fixture
def fresh(monkeypatch):
    """No fingerprint remembered by this process."""
    monkeypatch.setattr(cache, "_FINGERPRINT", None)


def test_the_key_changes_with_a_dependency_version(fresh, monkeypatch):
    before = cache.fingerprint(None)
    versions = cache.dependency_versions()
    assert set(versions) == {"pycparser", "egglog", "pulp", "highspy"}
    assert all(v != "none" for v in versions.values())
    for name in versions:
        monkeypatch.setattr(cache, "_FINGERPRINT", None)
        monkeypatch.setattr(
            cache, "dependency_versions", lambda name=name: {**versions, name: "99.0"}
        )
        assert cache.fingerprint(None) != before, name


def test_a_remembered_fingerprint_reads_no_versions(fresh, monkeypatch, tmp_path):
    first = cache.fingerprint(tmp_path)
    monkeypatch.setattr(cache, "_FINGERPRINT", None)

    def forbidden():
        raise AssertionError("versions read on a cached call")

    monkeypatch.setattr(cache, "dependency_versions", forbidden)
    assert cache.fingerprint(tmp_path) == first
    # an install or upgrade of a dependency changes where or when it was written
    monkeypatch.setattr(cache, "_FINGERPRINT", None)
    monkeypatch.setattr(cache, "_dependency_stamp", lambda: "egglog upgraded")
    with pytest.raises(AssertionError, match="versions read"):
        cache.fingerprint(tmp_path)


def _bump(folder: str) -> None:
    store = cache.Cache(cache.Path(folder))
    for _ in range(25):
        store.record({"hits": 1, "saved_seconds": 0.5})


def test_statistics_lose_nothing_under_make_j(tmp_path):
    procs = [
        multiprocessing.get_context("fork").Process(target=_bump, args=(str(tmp_path),))
        for _ in range(4)
    ]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    stats = cache.read_stats(tmp_path)
    assert (stats["hits"], stats["saved_seconds"]) == (100, 50.0)
    assert oct(os.stat(tmp_path / cache.STATS).st_mode & 0o777) == "0o600"


def test_least_recently_used_entries_go_past_the_limit(tmp_path):
    store = cache.Cache(tmp_path, max_bytes=3000)
    keys = [f"{n:02x}" + "0" * 62 for n in range(6)]
    for n, k in enumerate(keys):
        added = store.put(k, {"text": "x" * 900, "kernels": []})
        path = store._path(k)
        os.utime(path, (1000 + n, 1000 + n))  # written in this order
        if n == 1:
            assert store.get(keys[0]) is not None  # a hit: used most recently now
            os.utime(store._path(keys[0]), (1010, 1010))
        store.record({"misses": 1}, added)
    # entries of ~930 bytes: the 4th and the 6th went past 3000 and the oldest unused went,
    # down to 90 % (k1, k2, then k3, k4); k0, read in between, stayed
    left = {k for k in keys if store.get(k) is not None}
    assert left == {keys[0], keys[5]}
    stats = cache.read_stats(tmp_path)
    assert stats["bytes"] == cache.usage(tmp_path)[0] <= 2700 and stats["evicted"] == 4


def test_no_limit_keeps_everything(tmp_path):
    store = cache.Cache(tmp_path, max_bytes=0)
    for n in range(5):
        store.record({}, store.put(f"{n:02x}" + "0" * 62, {"text": "y" * 5000, "kernels": []}))
    assert cache.usage(tmp_path)[1] == 5


def test_clear_and_zero(tmp_path):
    store = cache.Cache(tmp_path)
    store.record({"misses": 2}, store.put(KEY, {"error": "f.c:1: no"}))
    cache.fingerprint(tmp_path)
    assert cache.clear(tmp_path) == 1
    assert store.get(KEY) is None and cache.usage(tmp_path) == (0, 0)
    assert cache.read_stats(tmp_path)["misses"] == 2  # the statistics stay
    cache.zero_stats(tmp_path)
    stats = cache.read_stats(tmp_path)
    assert stats["misses"] == 0 and stats["zeroed"] > 0


def test_a_cache_that_cannot_be_written_says_why(tmp_path):
    (tmp_path / "file").write_text("")
    store = cache.Cache(tmp_path / "file" / "cache")
    assert store.put(KEY, {"text": "", "kernels": []}) == 0
    assert store.problem is not None and "Not a directory" in store.problem
    with pytest.raises(OSError):
        store.record({"hits": 1})


def test_eviction_does_not_follow_a_link_in_place_of_the_cache(tmp_path):
    """Another user's link in a shared folder: their target's files are not ours to delete."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "precious.txt").write_text("x" * 5000)
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / cache.FORMAT).symlink_to(elsewhere)
    assert cache.evict(tmp_path / "cache", 0) == (0, 0)
    assert (elsewhere / "precious.txt").exists()


def test_an_entry_another_user_wrote_is_not_used(tmp_path, monkeypatch):
    store = cache.Cache(tmp_path)
    store.put(KEY, {"text": "planted", "kernels": []})
    assert store.get(KEY) is not None
    monkeypatch.setattr(os, "getuid", lambda: os.stat(store._path(KEY)).st_uid + 1)
    assert store.get(KEY) is None
