"""One call of ``accsat-cc COMPILER ARGS...``: rewrite the C sources, run the compiler.

The rules that keep a build working whatever accsat does:

* a call that compiles no C source (or only preprocesses, prints versions...)
  becomes the compiler itself (``exec``), untouched;
* a file accsat cannot rewrite is compiled as written, after one warning line;
* the compiler's output is held back until it exits: if the rewritten sources
  compile, it is shown (after accsat's warnings); if they do not, the original
  command runs as if accsat were not there, so a user's error reads exactly as
  it does without accsat and a mistake of accsat's never fails a build;
* the exit status is the compiler's (a compiler killed by a signal, or a wrapper
  interrupted by one, ends by the same signal); the private folder is removed
  on every way out.
"""

from __future__ import annotations

import hashlib
import os
import re
import signal
import sys
import time
from dataclasses import replace
from pathlib import Path

from ..ccconfig import PROG, Config
from ..fileio import append_lines, readable, write_atomically
from ..toolchain import process
from . import deps, workdir
from .args import Invocation, Source
from .cache import Cache, key, options_key, why_not
from .eventlog import EventLog
from .fpflags import note
from .once import first_to_say
from .rewrite import Outcome, rewrite

# every kernel hangs off an OpenACC or OpenMP directive; cpp turns _Pragma into #pragma
_DIRECTIVE = re.compile(r"^[ \t]*#[ \t]*pragma[ \t]+((?:acc|omp)\b.*)$", re.MULTILINE)
_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class Interrupted(BaseException):
    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def _interrupt(signum, _frame):
    raise Interrupted(signum)


def say(line: str) -> None:
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def cannot_run(program: str, exc: OSError) -> tuple[int, str]:
    """The shell's exit status and one-line message for a command it could not run."""
    if isinstance(exc, FileNotFoundError):
        if "/" not in program:
            return 127, f"{PROG}: {program}: command not found"
        return 127, f"{PROG}: {program}: No such file or directory"
    return 126, f"{PROG}: {program}: {exc.strerror or exc}"


def exec_compiler(cmd: list[str]) -> int:
    """Become the compiler (pass-through): no return unless it cannot be run."""
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execvp(cmd[0], cmd)
    except OSError as exc:
        rc, line = cannot_run(cmd[0], exc)
        say(line)
        return rc
    return 127  # not reached


def run_compiler(cmd: list[str], capture: bool) -> tuple[int, bytes, bytes]:
    """(status, stdout, stderr); a compiler that cannot be run is said on stderr
    (captured: in the bytes returned). The user's compile: no time limit of ours."""
    try:
        done = process.foreground(cmd, capture=capture)
    except OSError as exc:
        rc, line = cannot_run(cmd[0], exc)
        if not capture:
            say(line)
            return rc, b"", b""
        return rc, b"", (line + "\n").encode()
    assert done.returncode is not None  # foreground: no timeout
    return done.returncode, done.stdout, done.stderr


def replay(out: bytes, err: bytes) -> None:
    sys.stdout.flush()
    sys.stdout.buffer.write(out)
    sys.stdout.buffer.flush()
    sys.stderr.flush()
    sys.stderr.buffer.write(err)
    sys.stderr.buffer.flush()


def append_report(path: str, kernels: list[dict]) -> None:
    """Whole JSON lines, under an exclusive lock: many compilers may append at once."""
    from ..report import KernelReport, jsonl

    reports = []
    for k in kernels:
        try:
            reports.append(KernelReport(**k))
        except TypeError:
            continue
    if not reports:
        return
    try:
        append_lines(path, jsonl(reports))
    except OSError as exc:
        say(f"{PROG}: cannot write the report {path}: {exc.strerror}")


def keep(folder: str, original: str, text: str) -> None:
    """ACCSAT_KEEP: the rewritten file under FOLDER at the original's absolute path."""
    target = Path(folder) / Path(os.path.abspath(original)).relative_to("/")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(target, text)
    except OSError as exc:
        say(f"{PROG}: cannot keep {original} in {folder}: {exc.strerror}")


def event_log(cfg: Config) -> EventLog:
    """The call's debug log (ACCSAT_LOG) and event log (ACCSAT_EVENTS)."""
    return EventLog(cfg.log, lambda why: say(f"{PROG}: {why}"), cfg.events)


class Build:
    def __init__(self, inv: Invocation, cfg: Config, log: EventLog | None = None):
        self.inv = inv
        self.cfg = cfg
        self.workdir: workdir.Workdir | None = None
        self.cache = Cache(cfg.cache_dir, cfg.cache_max) if cfg.cache_dir is not None else None
        self.cache_said = False
        self.log = log if log is not None else event_log(cfg)
        self.counts: dict[str, float] = {}  # for --stats (cache.COUNTERS)
        self.added = 0  # bytes written to the cache
        self.start = time.time()
        self.notes: list[str] = []  # warning lines of ACCSAT_TUNE (tuning.tuned_options)

    def count(self, name: str, n: float = 1) -> None:
        self.counts[name] = self.counts.get(name, 0) + n

    def cache_problem(self) -> str | None:
        """The one line that says the cache cannot be written (once per build: see
        once.first_to_say); from then on the call goes on without the cache."""
        if self.cache is None or self.cache.problem is None or self.cache_said:
            return None
        self.cache_said = True
        line = (
            f"{PROG}: cannot write the cache in {self.cache.folder}: {self.cache.problem};"
            " going on without it"
        )
        self.log("cache-error", self.cache.problem)
        first = first_to_say(self.cache.folder, self.cache.problem)
        self.cache = None
        return line if first else None

    # -- accsat ------------------------------------------------------------------------------
    def outcome(self, src: Source, preprocess_options) -> tuple[Outcome, bool]:
        """accsat's result for one source, and whether it came from the cache."""
        from ..errors import AccsatError
        from ..frontend.directives import may_make_kernels
        from ..frontend.preprocess import preprocess

        if not self.cfg.rewrite:  # ACCSAT_DISABLE with ACCSAT_PROFILE: timers, no rewrite
            return Outcome(kernels=[]), False
        path = readable(src.path)
        try:
            text = path.read_bytes()
            preprocessed = preprocess(path, preprocess_options)
        except AccsatError as exc:
            return Outcome(error=str(exc), cacheable=False), False
        except OSError as exc:
            return Outcome(error=f"{src.path}: cannot read: {exc.strerror}", cacheable=False), False
        if not any(may_make_kernels(m.group(1)) for m in _DIRECTIVE.finditer(preprocessed)):
            self.count("no_kernel")
            self.log("no-kernel", src.path)
            return Outcome(kernels=[]), False  # no compute or loop directive: no kernel
        options = self.cfg.options(
            preprocess_options,
            src.path,
            self.inv.fp_exact is not None,
            self.inv.c89 is not None,
        )
        if self.cfg.tune:
            from .tuning import tuned_options

            options, notes = tuned_options(self.cfg, options, src.path, text)
            self.notes += notes
        from ..toolchain.compilers import gpu_target
        from ..toolchain.ptx import check_command, probe_command
        from . import ptxkeep

        family, args = self.inv.family, self.inv.args
        options = options.for_target(gpu_target(family, args, self.inv.compiler))
        sources = {s.index for s in self.inv.sources}
        probe = probe_command([self.inv.compiler], args, sources)
        options = replace(options, check_command=check_command([self.inv.compiler], args, sources))
        k = key(
            preprocessed,
            text,
            options_key(options)
            + ptxkeep.cache_marker(family, args, options, probe, self.inv.compiler),
            self.cfg.cache_dir,
        )
        if self.cache is not None:
            entry = self.cache.get(k, src.path)
            found = Outcome.from_entry(entry) if entry is not None else None
            if entry is not None and found is not None:
                saved = entry.get("seconds", 0)
                saved = saved if isinstance(saved, (int, float)) else 0
                self.count("hits")
                self.count("saved_seconds", saved)
                self.log("hit", f"{src.path} key={k} saved={saved:.3f}s")
                return found, True
            self.count("misses")
            self.log("miss", f"{src.path} key={k}")
        t = time.perf_counter()
        if ptxkeep.wanted(family, args, options, self.inv.compiler):
            result = ptxkeep.checked(
                probe,
                path,
                options,
                lambda o: rewrite(str(path), o, self.cfg.timeout, self.cfg),
            )
        else:
            result = rewrite(str(path), options, self.cfg.timeout, self.cfg)
        seconds = time.perf_counter() - t
        self.count("rewrite_seconds", seconds)
        what = (
            f"failed: {result.error}"
            if result.error is not None
            else f"{result.rewritten} of {len(result.kernels)} kernels rewritten"
        )
        self.log("rewrite", f"{src.path}: {what} ({seconds:.3f} s)")
        if self.cache is not None and result.cacheable:
            self.added += self.cache.put(
                k, {**result.entry(), "seconds": round(seconds, 3)}, src.path
            )
        return result, False

    # -- the command ---------------------------------------------------------------------------
    def color(self) -> list[str]:
        """Output is captured: ask for the colours the compiler would have used on a terminal."""
        if (
            self.inv.gnu_like
            and not self.inv.color_given
            and sys.stderr.isatty()
            and os.environ.get("TERM") != "dumb"
        ):
            return ["-fdiagnostics-color=always"]
        return []

    def substituted(self, done: list[tuple[Source, Outcome, str]]) -> list[str]:
        from ..frontend.includes import search

        inv = self.inv
        args = list(inv.args)
        front: list[str] = []
        back: list[str] = []  # last: gcc lets the last matching prefix map win
        for src, outcome, path in done:
            args[src.index] = path
            folder = os.path.dirname(src.path)
            # the source's folder, then the folders of its headers read from copies
            flags = search(src.path, [h["name"] for h in outcome.headers])
            for include in flags[1::2]:
                flag = ["-iquote", include] if inv.gnu_like else ["-I", include]
                if flag[1] not in front:
                    front += flag
            if inv.debug and inv.gnu_like:
                new = folder + "/" if folder else ""
                back.append(f"-fdebug-prefix-map={os.path.dirname(path)}/={new}")
        return [*inv.launcher, inv.compiler, *front, *self.color(), *args, *back]

    def run(self) -> int:
        inv, cfg = self.inv, self.cfg
        from ..frontend.preprocess import PreprocessOptions

        pp = PreprocessOptions(tuple(inv.cpp_flags), inv.openacc, inv.openmp)
        warnings: list[str] = []
        if cfg.verbose and inv.fp_exact is not None:
            say(f"{PROG}: {note(inv.fp_exact, cfg.options(pp, '', exact=True).fp_exact)}")
        chosen: list[tuple[int, Source, Outcome]] = []
        outcomes: list[Outcome] = []
        for n, src in enumerate(inv.sources):
            outcome, cached = self.outcome(src, pp)
            outcomes.append(outcome)
            problem = self.cache_problem()
            if problem is not None:
                warnings.append(problem)
            if outcome.error is not None:
                self.count("fallbacks")
                self.log.fallback(src.path, outcome.error)
                if cfg.strict:
                    say(f"{PROG}: {outcome.error}")
                    return 1
                warnings.append(f"{PROG}: {outcome.error}; compiling the original")
                continue
            warnings += [
                f"{PROG}: {k['file']}:{k['line']}: {k['reason']}"
                for k in outcome.kernels
                if (k.get("verification") or {}).get("verdict") == "fail"
            ]
            if cfg.verbose:
                say(
                    f"{PROG}: {src.path}: {outcome.rewritten} of {len(outcome.kernels)} kernels "
                    f"rewritten ({cfg.rewrite_settings.variant}{', cached' if cached else ''})"
                )
            if outcome.rewritten:
                if cfg.keep:
                    keep(cfg.keep, src.path, outcome.text or "")
                    for header in outcome.headers:
                        keep(cfg.keep, header["name"], header["text"])
                chosen.append((n, src, outcome))
        warnings += self.notes
        if cfg.static:  # before the timers: the device code the kernels compile to
            from .static import record

            warnings += record(cfg, inv, chosen)
        if cfg.profile:
            from .tuning import with_timers

            chosen, timer_warnings = with_timers(cfg, inv.sources, chosen)
            warnings += timer_warnings

        if not chosen:
            self.finish(outcomes)
            if not warnings:
                return EXEC
            rc, out, err = run_compiler(
                [*inv.launcher, inv.compiler, *self.color(), *inv.args], capture=True
            )
            if rc == 0:
                for w in warnings:
                    say(w)
            replay(out, err)
            return rc

        h = hashlib.sha256(os.fsencode(os.getcwd()) + b"\0")
        for n, src, outcome in chosen:  # names and text: any bytes (surrogateescape)
            h.update(f"{n}\0{src.path}\0{outcome.text or ''}\0".encode("utf-8", "surrogateescape"))
            for header in outcome.headers:
                h.update(
                    f"{header['spelling']}\0{header['text']}\0".encode("utf-8", "surrogateescape")
                )
        self.workdir = workdir.acquire(h.hexdigest())
        try:
            return self.compile(chosen, outcomes, warnings)
        finally:
            self.workdir.release()

    def compile(self, chosen, outcomes: list[Outcome], warnings: list[str]) -> int:
        inv, cfg, work = self.inv, self.cfg, self.workdir
        assert work is not None  # acquired by run()
        done: list[tuple[Source, Outcome, str]] = []
        copies: list[tuple[str, str]] = []  # (a header's copy, the header's name)
        for n, src, outcome in chosen:
            folder = os.path.join(work.path, str(n))
            os.mkdir(folder)
            path = os.path.join(folder, os.path.basename(src.path))
            with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(outcome.text or "")
            done.append((src, outcome, path))
            # each rewritten header beside the source's copy, where its quoted include
            # finds it first (frontend/headers.py)
            for header in outcome.headers:
                copy = os.path.join(folder, header["spelling"])
                os.makedirs(os.path.dirname(copy), exist_ok=True)
                with open(copy, "w", encoding="utf-8", errors="surrogateescape") as f:
                    f.write(header["text"])
                copies.append((copy, header["name"]))

        rc, out, err = run_compiler(self.substituted(done), capture=True)
        if rc < 0 and -rc in _STOP_SIGNALS:
            return rc
        if rc == 0:
            if inv.deps:
                prefixes = copies + [  # a header's copy first: its name may be another folder's
                    (
                        os.path.dirname(p) + "/",
                        os.path.dirname(s.path) + "/" if os.path.dirname(s.path) else "",
                    )
                    for s, _, p in done
                ]
                deps.fix(
                    deps.candidates(inv.dep_file, inv.output),
                    work.marker,
                    prefixes,
                    self.start - 1,
                    inv.family,
                )
            self.finish(outcomes)
            for w in warnings:
                say(w)
            replay(out, err)
            return 0
        # the rewritten sources did not compile: the original command decides
        rc0, _, _ = run_compiler(inv.command, capture=False)
        if rc0 == 0:
            names = ", ".join(s.path for s, _, _ in done)
            reason = "the rewritten source did not compile"
            for s, o, _ in done:
                self.count("fallbacks")
                self.log.fallback(s.path, reason)
                for k in o.kernels:
                    if k.get("status") == "rewritten":
                        k["status"], k["reason"] = (
                            "unchanged",
                            reason + " (the original was compiled)",
                        )
                        if k.get("bodies"):  # the record shows what was compiled
                            k["bodies"]["rewritten"] = k["bodies"]["original"]
            self.finish(outcomes)
            if cfg.verbose or cfg.strict:
                sys.stderr.buffer.write(err)
            for w in warnings:
                say(w)
            if cfg.strict:
                say(f"{PROG}: {names}: {reason}")
                return 1
            say(f"{PROG}: {names}: {reason}; compiled the original")
        return rc0

    def finish(self, outcomes: list[Outcome]) -> None:
        """The compile is decided: report what it used, and say it where asked."""
        self.count("kernels_rewritten", sum(o.rewritten for o in outcomes))
        kernels = [k for o in outcomes for k in o.kernels]
        if self.cfg.report:
            append_report(self.cfg.report, kernels)
        record = self.cfg.rewrite_settings.record
        if record and kernels:
            from ..records import write

            try:
                write(record, kernels)
            except OSError as exc:
                say(f"{PROG}: cannot write the record {record}: {exc.strerror}")
        wanted = self.remarks()
        if wanted and kernels:
            from ..remarks import lines

            for line in lines(kernels, wanted, self.fp_note()):
                say(line)

    def remarks(self) -> frozenset[str]:
        """The kinds of remark asked: by the setting and by the compiler's own flags."""
        level = self.cfg.rewrite_settings.remarks
        if level is None:
            return self.inv.remarks
        from ..remarks import kinds

        return self.inv.remarks | kinds([level])

    def fp_note(self) -> str:
        """The compile's flag that made the rewrite exact (fpflags), "" where none did."""
        flag = self.inv.fp_exact
        if flag is None or self.cfg.rewrite_settings.fp_exact:
            return ""  # none asked, or it was exact anyway
        return "" if self.cfg.set_explicitly("fp_exact") else flag

    def record(self, rc: int) -> None:
        """Add this call to the cache's statistics (and evict past the size limit)."""
        if self.cache is not None and self.counts:
            try:
                evicted = self.cache.record(self.counts, self.added)
            except OSError as exc:
                self.cache.problem = why_not(exc)
                line = self.cache_problem()
                if line is not None:
                    say(line)
            else:
                if evicted:
                    self.log("evict", f"{evicted} entries (over {self.cfg.cache_max} bytes)")
        status = "the original command" if rc == EXEC else f"exit status {rc}"
        self.log("done", f"{status} ({time.time() - self.start:.3f} s)")
        self.log.close()


EXEC = -(1 << 30)  # Build.run's answer for "run the original command as it is"


def run(inv: Invocation, cfg: Config) -> int:
    """Rewrite and compile; the compiler's exit status (negative: the signal that ended it)."""
    previous = {s: signal.getsignal(s) for s in _STOP_SIGNALS[1:]}
    log = event_log(cfg)
    try:
        for s in previous:
            signal.signal(s, _interrupt)
        build = Build(inv, cfg, log)
        rc = build.run()
        build.record(rc)
    except KeyboardInterrupt:
        rc = -signal.SIGINT
    except Interrupted as stop:
        rc = -stop.signum
    except Exception as exc:  # a bug of ours: one line, then the user's own compile
        why = f"internal error ({type(exc).__name__}: {exc})"
        say(f"{PROG}: {why}; compiling the original")
        log.fallback(None, why)
        log.close()
        rc = EXEC
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    if rc == EXEC:
        return exec_compiler(inv.command)
    return rc
