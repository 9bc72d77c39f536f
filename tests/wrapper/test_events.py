"""ACCSAT_EVENTS: accsat-cc tells programs what it did in JSON Lines, not in its stderr."""

from __future__ import annotations

from accsat.toolchain import events

from .conftest import ACC, needs_gcc, wrap

pytestmark = needs_gcc


def test_a_file_compiled_as_written_is_one_fallback_event(project, env):
    log = project / "events.jsonl"
    r = wrap(
        project,
        env,
        "gcc",
        "-c",
        *ACC,
        "k.c",
        ACCSAT_EVENTS=str(log),
        ACCSAT_TIMEOUT="0.001",
        ACCSAT_CACHE="0",
    )
    assert r.returncode == 0 and (project / "k.o").exists()
    found = list(events.events(log))
    assert [e["event"] for e in found] == ["rewrite", "fallback", "done"]
    fallback = found[1]
    assert fallback["file"] == "k.c" and "timed out" in fallback["reason"]
    assert events.fallbacks(log) == 1


def test_a_rewritten_build_has_no_fallback(project, env):
    log = project / "events.jsonl"
    r = wrap(project, env, "gcc", "-c", *ACC, "k.c", ACCSAT_EVENTS=str(log))
    assert r.returncode == 0 and "compiling the original" not in r.stderr
    assert [e["event"] for e in events.events(log)] == ["miss", "rewrite", "done"]
    assert events.fallbacks(log) == 0


def test_a_bad_setting_is_a_fallback_of_the_whole_call(project, env):
    log = project / "events.jsonl"
    r = wrap(
        project, env, "gcc", "-c", *ACC, "k.c", ACCSAT_EVENTS=str(log), ACCSAT_MAX_NODES="many"
    )
    assert r.returncode == 0 and (project / "k.o").exists()
    (fallback,) = events.events(log, events.FALLBACK)
    assert fallback["file"] is None and "ACCSAT_MAX_NODES='many'" in fallback["reason"]


def test_a_pass_through_is_an_event_not_a_fallback(project, env):
    log = project / "events.jsonl"
    assert wrap(project, env, "gcc", "-c", "k.c", "-E", ACCSAT_EVENTS=str(log)).returncode == 0
    (passed,) = events.events(log)
    assert passed["event"] == "pass-through" and passed["details"] == "-E given"
    assert events.fallbacks(log) == 0


def test_an_event_log_that_cannot_be_written_is_said_once(project, env):
    blocked = project / "k.c" / "events.jsonl"  # under a file
    r = wrap(project, env, "gcc", "-c", *ACC, "k.c", ACCSAT_EVENTS=str(blocked))
    assert r.returncode == 0 and (project / "k.o").exists()
    said = [line for line in r.stderr.splitlines() if "event log" in line]
    assert said == [f"accsat-cc: cannot write the event log {blocked}: Not a directory"]
