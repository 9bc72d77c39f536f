"""The pipeline: a file goes frontend -> (per kernel) ssa -> egraph -> extract -> codegen.

Each stage is a function over plain data; this module chains them, times them
and turns any failure inside one kernel into "unchanged, with the reason".
"""

from __future__ import annotations

import contextlib
import functools
import gc
import math
import operator
import os
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import cast

from .codegen.budget import OverBudget, budget_plan
from .codegen.layout import layout
from .codegen.macros import FileMacros
from .codegen.placement import PlacementError
from .codegen.printer import BodyPrinter, Printed, temp_prefix
from .codegen.probe import Probe
from .codegen.program import Program
from .codegen.splice import Replacement, excerpt, line_directive, splice
from .egraph.graph import ENode
from .egraph.rules import RuleSet, rulesets_for
from .egraph.saturate import InconsistentEGraph, Saturation, saturate
from .errors import AccsatError, Unsupported
from .extract import CostModel, ExtractConfig, Extraction, dag_cost, extract, load_cost_model
from .extract.costs import MOST_TIE_BREAK, constants_free, preferring
from .frontend import ctypes as ct
from .frontend.depth import deep_recursion
from .frontend.headers import substituted
from .frontend.kernels import Kernel
from .frontend.linemap import LineMap, blanked
from .frontend.load import LoadedFile, load
from .frontend.preprocess import PreprocessOptions, c_string, compile_flags
from .frontend.source_map import BodySpan, SourceMap
from .options import ORIG, Options
from .report import KEPT_BY_TUNING, NO_GAIN, NOT_LP64, OUT_OF_TIME, OVER_BUDGET, KernelReport
from .settings import environment
from .ssa import promote
from .ssa.state import SSAKernel
from .ssa.statements import build_ssa
from .toolchain.process import resident_mb
from .toolchain.share import BODIES, DONE, HELLO, KERNEL, VERDICT, Share
from .verify import reread, typecheck
from .verify.reread import Expected


@dataclass
class HeaderResult:
    """A header of the file's with kernels rewritten for its compile (frontend/headers.py)."""

    name: str  # as the preprocessor names it
    spelling: str  # the file's quoted include of it: its copy goes there, beside the file's
    text: str  # the rewritten header


@dataclass
class FileResult:
    text: str  # the rewritten file
    kernels: list[KernelReport]
    headers: list[HeaderResult] = field(default_factory=list)


@dataclass
class _FileContext:
    file: LoadedFile
    cost: CostModel
    rulesets: list[RuleSet]
    prefix: str  # of the temporaries' names
    macros: FileMacros  # the accesses the kernel bodies write through macros
    promote: str = ""  # of the variables carrying values across inner loops (ssa/promote.py)

    @property
    def path(self) -> Path:
        return self.file.path


# a kernel of a header the file does not include with quotes (headers.py)
HEADER_NOT_QUOTED = (
    "in a header the file does not include with quotes: its rewritten copy could not be read "
    "in its place"
)
# the report, the new body (None: kept as written) and what it must re-read as
KernelResult = tuple[KernelReport, Replacement | None, Expected | None]


def rewrite_file(
    path: Path,
    options: Options = Options(),
    progress: Callable[[int, int], None] | None = None,
    deadline: float | None = None,
    share: Share | None = None,
) -> FileResult:
    """The file with every kernel it can rewrite rewritten, and a report per kernel.

    ``progress(done, total)``, if given, is called once the file is loaded (done 0)
    and after each kernel. A kernel not started by ``deadline``
    (``time.monotonic()``) is kept as written, the finished ones are kept.  With
    ``share`` (the lead's side), a helper process rewrites some of the kernels
    (toolchain/share.py); the file is the same."""
    with paused_gc():
        loaded, one = prepare(path, options, deadline)
        total = len(loaded.kernels)
        helped: set[int] = set()
        if share is None:
            results = []
            for done in range(total):
                if progress is not None:
                    progress(done, total)
                results.append(one(done))
        else:
            results, helped = _shared(loaded, one, share, progress)
        results = _read_in_place(loaded, results, options)
        with type_checking(loaded, results, options) as type_checked:
            if share is None:
                results = reread_check(loaded, results, options)
            else:  # the helper checks the kernels it rewrote
                results = reread_check(loaded, results, options, shared=(share, helped))
            results = type_checked(results)
    if progress is not None:
        progress(total, total)
    for kernel, (report, replacement, _) in zip(loaded.kernels, results, strict=True):
        if isinstance(kernel.span, BodySpan):
            span = (kernel.span.start, kernel.span.end)
            text = loaded.text_of(kernel)  # (a header's kernel: the header's lines)
            written, rewritten = excerpt(text, kernel.line, span, replacement)
            report.bodies = {"line": kernel.line, "original": written, "rewritten": rewritten}
    reports = [report for report, _, _ in results]
    replacements = [
        r for k, (_, r, _) in zip(loaded.kernels, results, strict=True) if r and not k.header
    ]
    headers = _headers(loaded, results, options)
    if loaded.lines is None:
        out = splice(loaded.text, replacements, options.line_directives)
    else:  # the file's own #line directives name its lines: accsat's name them so too
        out = splice(
            loaded.text,
            [
                _named_lines(r, options.line_directives or str(path), loaded.lines)
                for r in replacements
            ],
            directive=functools.partial(_named_line, loaded.lines),
        )
    if options.line_directives is not None:
        out = line_directive(1, options.line_directives) + out
    return FileResult(out, reports, headers)


def help_rewrite(path: Path, options: Options, share: Share, deadline: float | None = None) -> None:
    """The helper's side of a shared file (toolchain/share.py): rewrite the kernels it
    takes from the queue and send each result to the lead; then the re-read checks of
    those the lead sends bodies for."""
    with paused_gc():
        loaded, one = prepare(path, options, deadline)
        share.send(HELLO, os.getpid(), loaded.digest)
        order = largest_first(loaded)
        mine: dict[int, KernelResult] = {}
        while (position := share.claim()) is not None and position < len(order):
            i = order[position]
            mine[i] = one(i)
            if not share.send(KERNEL, i, mine[i]):
                return  # the lead is gone: no one uses what is done here
        if not share.send(DONE):
            return
        message = share.next_message()
        if message is not None and message[0] == BODIES:
            for i, body in message[1].items():
                if i in mine:
                    share.send(VERDICT, i, _reread_now(loaded, i, body, mine[i][2]))


def largest_first(loaded: LoadedFile) -> list[int]:
    """The kernels' indices, longest body first (a file's largest kernel started last
    would keep one process busy after the other is done)."""

    def size(i: int) -> int:
        span = loaded.kernels[i].span
        return span.end - span.start if isinstance(span, BodySpan) else 0

    return sorted(range(len(loaded.kernels)), key=lambda i: (-size(i), i))


def _shared(
    loaded: LoadedFile,
    one: Callable[[int], KernelResult],
    share: Share,
    progress: Callable[[int, int], None] | None,
) -> tuple[list[KernelResult], set[int]]:
    """The lead's side: every kernel's result, the helper's for those it took and
    answered, and the kernels whose results are the helper's."""
    total = len(loaded.kernels)
    order = largest_first(loaded)
    done: dict[int, KernelResult] = {}
    if progress is not None:
        progress(0, total)
    while (position := share.claim()) is not None and position < total:
        i = order[position]
        done[i] = one(i)
        share.collect(loaded.digest)
        if progress is not None:
            progress(min(len(done) + len(share.kernels), total - 1), total)
    helped: set[int] = set()
    for i in order:  # taken by the helper: its answer while it works, else done here
        if i in done:
            continue
        share.collect(loaded.digest)
        if not share.finished:  # (once it takes no more kernels, it answers no more)
            share.wait_for(functools.partial(operator.contains, share.kernels, i), loaded.digest)
        if i in share.kernels:
            done[i] = cast(KernelResult, share.kernels[i])
            helped.add(i)
        else:
            done[i] = one(i)
    return [done[i] for i in range(total)], helped


def _shared_verdicts(
    loaded: LoadedFile,
    jobs: dict[int, tuple[str, Expected | None]],
    share: Share,
    helped: set[int],
) -> dict[int, str]:
    """The re-read verdicts of ``jobs`` (kernel: its body, what it must read as): the
    helper checks the kernels it rewrote, once it takes no more kernels, while the lead
    checks the others; what it does not answer while it works is checked here."""
    share.collect(loaded.digest)
    theirs = {i: body for i, (body, _) in jobs.items() if i in helped}
    if not (theirs and share.finished and share.send(BODIES, theirs)):
        theirs = {}
    verdicts = {i: _reread_now(loaded, i, *job) for i, job in jobs.items() if i not in theirs}
    for i in theirs:
        share.wait_for(functools.partial(operator.contains, share.verdicts, i), loaded.digest)
        if i not in share.verdicts:
            share.verdicts[i] = _reread_now(loaded, i, *jobs[i])
        verdicts[i] = share.verdicts[i]
    return verdicts


def _headers(
    loaded: LoadedFile, results: list[KernelResult], options: Options
) -> list[HeaderResult]:
    """The file's headers with kernels rewritten, each spliced (with ``#line`` directives
    naming it, where the file's have them)."""
    out = []
    for name, header in loaded.headers.items():
        mine = [
            r
            for k, (_, r, _) in zip(loaded.kernels, results, strict=True)
            if r is not None and k.header == name
        ]
        if not mine:
            continue
        assert header.spelling is not None  # else its kernels were kept as written
        text = splice(header.text, mine, name if options.line_directives else None)
        if options.line_directives is not None:
            text = line_directive(1, name) + text
        out.append(HeaderResult(name, header.spelling, text))
    return out


def _read_in_place(
    loaded: LoadedFile, results: list[KernelResult], options: Options
) -> list[KernelResult]:
    """The results with the kernels of a header whose rewritten copy would not be read in
    its place (``headers.substituted``) kept as written."""
    out = list(results)
    for name, header in loaded.headers.items():
        mine = [
            i
            for i, k in enumerate(loaded.kernels)
            if k.header == name and results[i][1] is not None
        ]
        if not mine or header.spelling is None:
            continue
        try:
            copies = {header.spelling: (name, header.text)}
            substituted(loaded.path, loaded.text, options.preprocess, copies, loaded.content)
        except AccsatError as exc:
            for i in mine:
                out[i] = (results[i][0].unchanged(exc.message), None, None)
    return out


# Python's cyclic garbage collector scans every live object again and again while a
# file's trees, terms and e-graphs pile up: a fifth of the rewrite time of NPB's BT,
# LU, SP and MG in one process (23.8 -> 19.4 s without it, peak memory 285 -> 364 MB).
# So it is off while a file is rewritten, and collects the young generations once the
# process has grown by COLLECT_GROWTH_MB since the last (a file of thousands of kernels
# keeps its garbage bounded; one after every 64 kernels and re-reads took 0.1 s of each
# process on a 100-kernel file whose garbage was 13 MB); every COLLECT_EVERY jobs where
# the process's memory cannot be read. (``accsat rewrite``, which ends once the file is
# written, keeps it off to the end: the first young collection after a file walks
# every object the file made, 0.2 s after 100 kernels.)
COLLECT_GROWTH_MB = 128
COLLECT_EVERY = 64


@dataclass
class _Pause:
    """The collector's pause in this process: jobs (kernel rewrites and re-read checks)
    begun, and the resident MB at the last collection or at the second job (the first
    loads what a process loads once, egglog's session and the solver's libraries:
    120 MB)."""

    jobs: int = 0
    base: float = 0.0


_pause = _Pause()


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """The cyclic garbage collector off (as it was again afterwards)."""
    was = gc.isenabled()
    gc.disable()
    _pause.jobs = 0
    try:
        yield
    finally:
        if was:
            gc.enable()


def _collect_now() -> None:
    """A collection of the young generations, while the collector is off (paused_gc),
    once the process grew by COLLECT_GROWTH_MB since the last (a full one also walks
    every object of the imports and of the loaded file)."""
    if gc.isenabled():
        return
    _pause.jobs += 1
    now = resident_mb()
    if _pause.jobs <= 2:
        _pause.base = now
    elif now - _pause.base >= COLLECT_GROWTH_MB or (not now and _pause.jobs % COLLECT_EVERY == 0):
        gc.collect(1)
        _pause.base = resident_mb()


def warm_up(options: Options = Options()) -> None:
    """What the first kernel of a process pays for ``options`` (the egglog session of its
    rules, 30 of a small kernel's 60 ms), paid now: a compile server's spare process
    calls it while it waits for a request, for the default settings."""
    from .egraph.saturate import warm

    warm(rulesets_for(options))


def prepare(
    path: Path, options: Options, deadline: float | None = None
) -> tuple[LoadedFile, Callable[[int], KernelResult]]:
    """The loaded file, and the rewrite of its kernel number i (kept as written once
    ``time.monotonic()`` is past ``deadline``)."""
    cost = load_cost_model(options.cost_model)
    # egglog's session of the rules loaded while the preprocessor runs (on a target with
    # excess precision the rewrite then takes --fp-exact's rules: another session)
    loaded = load(path, options.preprocess, meanwhile=functools.partial(warm_up, options))
    if loaded.target.excess_precision and not options.fp_exact:
        options = replace(options, fp_exact=True)  # every operation rounds where it did
    rulesets = rulesets_for(options)
    # the accesses of the file's own kernels through its macros (a header's print expanded)
    own = replace(loaded, kernels=[k for k in loaded.kernels if not k.header])
    names = _every_name(loaded)  # what accsat's variables must not be called
    ctx = _FileContext(
        loaded, cost, rulesets, temp_prefix(names), FileMacros(own, options.preprocess)
    )
    ctx.promote = promote.name_prefix(names, ctx.prefix)
    by_config: dict[str, tuple[_FileContext, Options]] = {}

    def one(i: int) -> KernelResult:
        with ct.targeting(loaded.target):
            return _one(i)

    def _one(i: int) -> KernelResult:
        _collect_now()
        kernel = loaded.kernels[i]
        # a tuning database and ptxas's figures name the file's own lines
        config = options.config_for(kernel.line) if not kernel.header else options.variant
        late = deadline is not None and time.monotonic() > deadline
        why = OUT_OF_TIME if late else KEPT_BY_TUNING if config == ORIG else ""
        if not loaded.target.lp64:
            why = NOT_LP64
        if why:  # a tuning database keeps it as written, no time left, a target not modelled
            return (
                kernel_report(kernel, path, config).unchanged(why),
                None,
                None,
            )
        try:
            with deep_recursion():
                return rewrite_kernel(kernel, *_variant(config, ctx, options, by_config))
        except RecursionError as exc:  # deeper than find_kernels' measured limit allows
            return (
                kernel_report(kernel, path, config).unchanged(_too_deep(exc)),
                None,
                None,
            )

    return loaded, one


def _too_deep(exc: RecursionError) -> str:
    """The reason a kernel whose rewrite ran out of Python's stack is kept, naming the stage."""
    tb, stage = exc.__traceback__, "accsat"
    package = Path(__file__).resolve().parent  # whatever folders hold it (one may be "accsat")
    while tb is not None:  # the first frame below this module's
        path = Path(tb.tb_frame.f_code.co_filename).resolve()
        if path.is_relative_to(package) and path.name != "pipeline.py":
            stage = path.relative_to(package).parts[0].removesuffix(".py")
            break
        tb = tb.tb_next
    return f"expression too deep: Python's recursion limit reached in {stage}"


def _variant(
    config: str, ctx: _FileContext, options: Options, memo: dict[str, tuple[_FileContext, Options]]
) -> tuple[_FileContext, Options]:
    """The context and options of a kernel a tuning database gives ``config`` (a variant,
    with its register budget where it names one)."""
    chosen = options.for_config(config)
    if chosen is options:
        return ctx, options
    if config not in memo:
        memo[config] = (replace(ctx, rulesets=rulesets_for(chosen)), chosen)
    return memo[config]


def _every_name(loaded: LoadedFile) -> SourceMap:
    """The tokens of the file and of its headers with kernels."""
    if not loaded.headers:
        return loaded.source
    return SourceMap.joined([loaded.source, *(h.source for h in loaded.headers.values())])


def kernel_report(kernel: Kernel, path: Path, variant: str) -> KernelReport:
    """A kernel's report, naming its place as the compiler does (its header, or a
    ``#line`` directive's file and line; then ``compiled`` is the file compiled)."""
    file, line = kernel.named or (kernel.header or str(path), kernel.line)
    compiled = str(path) if file != str(path) else ""
    return KernelReport(
        file,
        line,
        kernel.construct,
        kernel.function,
        variant,
        kind=kernel.kind,
        column=kernel.column,
        compiled=compiled,
    )


def rewrite_kernel(kernel: Kernel, ctx: _FileContext, options: Options) -> KernelResult:
    report = kernel_report(kernel, ctx.path, options.variant)
    report.seconds["frontend"] = ctx.file.seconds / len(ctx.file.kernels)  # its share
    if isinstance(kernel.span, str):
        return report.unchanged(kernel.span), None, None
    if kernel.header and ctx.file.headers[kernel.header].spelling is None:
        return report.unchanged(HEADER_NOT_QUOTED), None, None
    if kernel.header and options.line_directives is not None:  # the header's copy names it
        options = replace(options, line_directives=kernel.header)
    lines = ctx.file.lines
    if (
        options.line_directives is None
        and lines is not None
        and lines.renamed_within(kernel.span.first_line, kernel.span.last_line)
    ):  # generated code names its statements' lines: so does the rewrite (_named_lines)
        options = replace(options, line_directives=str(ctx.path))
    t = time.perf_counter()
    try:
        ssa = build_ssa(
            kernel, ctx.file.symbols, _op_cost(ctx.cost), ctx.file.defined, ctx.promote or None
        )
    except Unsupported as exc:
        line = f" (line {exc.line})" if exc.line and exc.line != kernel.line else ""
        return report.unchanged(exc.reason + line), None, None
    report.seconds["ssa"] = time.perf_counter() - t
    report.record_ssa(ssa)
    t = time.perf_counter()
    try:
        sat = saturate(ssa.terms, ssa.roots, ctx.rulesets, options.limits)
    except InconsistentEGraph as exc:
        return report.unchanged(f"internal: {exc}"), None, None
    report.seconds["saturate"] = time.perf_counter() - t
    report.record_saturation(sat)
    t = time.perf_counter()
    roots = [sat.class_of[r] for r in ssa.roots]
    plain = constants_free(ctx.cost, sat.egraph)
    cost = preferring(plain, _written(ssa, sat), sat.egraph)
    ext = _exact(
        extract(sat.egraph, roots, cost, options.extraction), roots, plain, len(sat.egraph.classes)
    )
    report.seconds["extract"] = time.perf_counter() - t
    report.record_extraction(ext)
    t = time.perf_counter()
    choice = ext.choice
    try:
        print_body = _printer(kernel, ssa, sat, choice, ctx, options)
        printed = _print(kernel, print_body)
    except OverBudget as exc:
        return report.unchanged(f"{OVER_BUDGET}: {exc}"), None, None
    except (PlacementError, ValueError):
        try:  # the ILP's choice may not be printable where greedy's is
            greedy = _exact(
                extract(sat.egraph, roots, cost, ExtractConfig(use_ilp=False)),
                roots,
                plain,
                len(sat.egraph.classes),
            )
            choice = greedy.choice
            print_body = _printer(kernel, ssa, sat, choice, ctx, options)
            printed = _print(kernel, print_body)
            report.record_extraction(greedy)
        except (PlacementError, ValueError) as exc:
            return report.unchanged(f"internal: {exc}"), None, None
    report.seconds["codegen"] = time.perf_counter() - t
    report.cost["printed"] = printed.counts.cost
    report.registers = printed.budget
    promoted = promote.count(ssa, ctx.promote) if ctx.promote else 0
    assert isinstance(kernel.span, BodySpan)
    as_written = printed.text == ctx.file.text[kernel.span.start : kernel.span.end]
    if as_written or not _pays(printed, ssa, promoted):  # the same text: nothing to pay
        report.no_gain = _no_gain(report.cost, printed.inline_shared)
        return report.unchanged(NO_GAIN), None, None
    report.hoisted, report.promoted = printed.hoisted, promoted
    span = kernel.span
    assert isinstance(span, BodySpan)
    if options.verify:
        t = time.perf_counter()
        verdict = _verify(kernel, ctx, printed.text, options)
        report.seconds["verify"] = time.perf_counter() - t
        report.verification = verdict.as_dict()
        if verdict.failed:
            return (
                report.unchanged(f"the rewrite failed verification: {verdict.message}"),
                None,
                None,
            )
    report.rewritten(printed.counts, printed.temps)
    expect = reread.expected(
        ssa, sat.class_of, choice, _written_by_class(ssa, sat), _own_names(ctx), printed.placed
    )
    probe = None
    if options.typecheck:  # the same body with assertions of its types, for the compiler
        t = time.perf_counter()
        shown = _print(kernel, print_body, probe=True)
        probe = Probe(shown.text, shown.checks)
        report.seconds["codegen"] += time.perf_counter() - t
    return report, Replacement(span.start, span.end, printed.text, span.last_line, probe), expect


@contextlib.contextmanager
def type_checking(
    loaded: LoadedFile, results: list[KernelResult], options: Options
) -> Iterator[Callable[[list[KernelResult]], list[KernelResult]]]:
    """The compiler confirms the types of what each rewritten kernel prints
    (verify/typecheck.py); a kernel it disagrees with is kept as written, the
    expression and both types in the reason. Its compile runs while the caller
    re-reads the kernels: the context gives what applies it to those still
    rewritten then (the file's results, kernel by kernel)."""
    probes = {
        i: (r, r.probe)
        for i, (_, r, _) in enumerate(results)
        if r is not None and r.probe is not None and options.typecheck
    }
    headers = [i for i in probes if loaded.kernels[i].header]  # spliced in the file's text
    for i in headers:
        del probes[i]
    if not probes:
        yield functools.partial(_type_checked, headers, probes, None)
        return
    command = options.check_command or (options.preprocess.cpp, *compile_flags(options.preprocess))
    # (a file's own #line directives blanked: the compiler names the lines of the copy)
    text = loaded.text if loaded.lines is None else blanked(loaded.text)
    with typecheck.checking(command, loaded.path, text, probes) as outcome:

        def apply(now: list[KernelResult]) -> list[KernelResult]:
            found = outcome()
            kept = {i: probe for i, probe in probes.items() if now[i][1] is not None}
            if found.unavailable and 0 < len(kept) < len(probes):
                # the probe of a kernel the re-read kept as written may be what the
                # compiler could not read (a printer's bug): the others again, alone
                found = typecheck.run(command, loaded.path, text, kept)
            return _type_checked(headers, kept, found, now)

        yield apply


_HEADER_UNCHECKED = {
    "compiler": "",
    "checks": 0,
    "result": "unavailable: a kernel of a header (not checked yet)",
}


def _type_checked(
    headers: list[int],
    probes: dict[int, tuple[Replacement, Probe]],
    outcome: typecheck.Outcome | None,
    results: list[KernelResult],
) -> list[KernelResult]:
    """``results`` with the type check's ``outcome`` of ``probes`` (those of kernels still
    rewritten) applied."""
    out = list(results)
    for i in headers:
        if results[i][1] is not None:
            results[i][0].typecheck = dict(_HEADER_UNCHECKED)
    if outcome is None:
        return out
    for i, (_, probe) in probes.items():
        report = results[i][0]
        report.typecheck = outcome.record(i, len(probe.checks))
        report.seconds["typecheck"] = outcome.seconds / len(probes)
        why = outcome.reason(i)
        if why:
            out[i] = (report.unchanged(why), None, None)
    return out


def _named_line(lines: LineMap, line: int) -> str:
    """The ``#line`` directive that gives the file's ``line`` the name its own directives
    give it."""
    named = lines.presumed(line)
    assert named is not None  # a kernel after an unreadable directive is kept as written
    return line_directive(named[1], named[0])


def _named_lines(r: Replacement, name: str, lines: LineMap) -> Replacement:
    """``r`` with the ``#line`` directives accsat printed in it (naming ``name``'s own
    lines) naming those lines as the file's own directives do."""
    ours = re.compile(rf"^#line ([0-9]+) {re.escape(c_string(name))}$", re.M)
    text = ours.sub(lambda m: _named_line(lines, int(m.group(1))).rstrip("\n"), r.text)
    return replace(r, text=text)


def reread_check(
    loaded: LoadedFile,
    results: list[KernelResult],
    options: Options,
    shared: tuple[Share, set[int]] | None = None,
) -> list[KernelResult]:
    """Every rewritten kernel, read back from the rewritten file, must be the program the
    extraction chose (verify/reread.py); one that is not is kept as written, with the
    reason (a bug of accsat's: ``reread_strict``, settings.Environment, makes it an error)."""
    todo = [i for i, (_, r, e) in enumerate(results) if r is not None and e is not None]
    if not todo:
        return results
    start = time.perf_counter()
    bodies: dict[int, str] = {}
    failed: dict[int, str] = {}
    for text, read, group in _reread_groups(loaded, todo, options):
        try:
            bodies.update(
                reread.expand_bodies(
                    loaded.path,
                    text,
                    {i: r for i in group if (r := results[i][1]) is not None},
                    options.preprocess,
                    read,
                )
            )
        except AccsatError as exc:
            whole = f"the rewritten file does not preprocess: {exc}"
            failed.update({i: _mismatch(loaded, i, whole, exc) for i in group})
    jobs = {i: (bodies[i], results[i][2]) for i in todo if i not in failed}
    if shared is None:
        checked = {i: _reread_now(loaded, i, *job) for i, job in jobs.items()}
    else:  # a helper checks the kernels it rewrote (``_shared``)
        checked = _shared_verdicts(loaded, jobs, *shared)
    verdicts = [failed[i] if i in failed else checked[i] for i in todo]
    out = list(results)
    for i, why in zip(todo, verdicts, strict=True):
        if why:
            out[i] = (
                results[i][0].unchanged(
                    f"internal: the printed C does not re-read as the extracted program: {why}"
                ),
                None,
                None,
            )
    share_s = (time.perf_counter() - start) / len(todo)
    for i in todo:
        out[i][0].seconds["reread"] = share_s
    return out


def _reread_groups(loaded: LoadedFile, todo: list[int], options: Options):
    """(text, how it is preprocessed, kernel indices) for the kernels of the file itself
    (None: as the file) and for those of each header (the file with the header's copy
    read in its place, as accsat-cc compiles it)."""
    own = [i for i in todo if not loaded.kernels[i].header]
    if own:
        yield loaded.text, None, own
    for name, header in loaded.headers.items():
        mine = [i for i in todo if loaded.kernels[i].header == name]
        if mine:
            assert header.spelling is not None  # else its kernels were kept as written
            read = functools.partial(
                _header_read, loaded, options.preprocess, header.spelling, name
            )
            yield header.text, read, mine


def _header_read(
    loaded: LoadedFile, pp: PreprocessOptions, spelling: str, name: str, text: str
) -> str:
    """The file preprocessed with its header ``name`` read from ``text``."""
    return substituted(loaded.path, loaded.text, pp, {spelling: (name, text)})


def _reread_now(loaded: LoadedFile, i: int, body: str, expect: Expected | None) -> str:
    _collect_now()  # the kernels before it made garbage; the re-read goes deep
    return reread_one(loaded, i, body, expect)


def reread_one(loaded: LoadedFile, i: int, body: str, expect: Expected | None) -> str:
    """Why kernel ``i`` of ``loaded``, its new body read back as ``body`` (preprocessed),
    is not the program ``expect`` describes; "" when it is."""
    assert expect is not None
    kernel = loaded.kernels[i]
    try:
        with deep_recursion(), ct.targeting(loaded.target):  # as deep as the rewrite went
            again = reread.with_body(kernel, body)
            reread.match(expect, build_ssa(again, loaded.symbols, _no_cost, loaded.defined))
    except (reread.Mismatch, AccsatError, Unsupported, RecursionError) as exc:
        return _mismatch(loaded, i, str(exc) or type(exc).__name__, exc)
    return ""


def _mismatch(loaded: LoadedFile, i: int, why: str, exc: Exception) -> str:
    """``why`` kernel ``i`` does not re-read as extracted; with the setting
    ``reread_strict`` (settings.Environment: the tests, the fuzzer) an error instead."""
    if environment("reread_strict"):
        raise AssertionError(
            f"{loaded.path}:{loaded.kernels[i].line}: printed C is not the extracted program: {why}"
        ) from exc
    return why


def _no_cost(op: str, ty: str) -> float:
    return 0.0


def _own_names(ctx: _FileContext) -> tuple[str, ...]:
    """The prefixes of the variables accsat adds to a body (each then a number)."""
    return (ctx.prefix, ctx.promote) if ctx.promote else (ctx.prefix,)


def _verify(kernel: Kernel, ctx: _FileContext, body: str, options: Options):
    from . import numeric  # noqa: F401  (numpy, one BLAS thread, before the verifier's)
    from .verify import KernelVerdict, verify_body, verify_file  # only if asked
    from .verify.validate import unresolved

    try:
        verdict = verify_body(
            kernel,
            ctx.file.symbols,
            body,
            options,
            defined=ctx.file.defined,
            trials=options.verify_trials,
            file=str(ctx.path),
        )
        # statements as written use macros (the file's own kernel: its text is the file's)
        if verdict.failed and unresolved(verdict) and not kernel.header:
            span = kernel.span
            assert isinstance(span, BodySpan)
            text = ctx.file.text[: span.start] + body + ctx.file.text[span.end :]
            whole = verify_file(
                ctx.path,
                text,
                options,
                trials=options.verify_trials,
                original_text=ctx.file.text,
                reparse=True,
            )
            verdict = whole.verdicts[ctx.file.kernels.index(kernel)]
        return verdict
    except Exception as exc:  # a bug of the checker itself: say so, never crash the rewrite
        return KernelVerdict(
            0,
            kernel.line,
            kernel.function,
            "unsupported",
            file=str(ctx.path),
            message=f"internal error of the checker: {type(exc).__name__}: {exc}",
        )


def _print(kernel: Kernel, print_body: Callable[..., Printed], probe: bool = False) -> Printed:
    """``kernel``'s body as ``print_body`` (``_printer``) prints it: every printed body
    passes here (the tests that edit what is printed replace this)."""
    return print_body(probe=probe)


def _printer(
    kernel: Kernel,
    ssa: SSAKernel,
    sat: Saturation,
    choice: dict[int, ENode],
    ctx: _FileContext,
    options: Options,
) -> Callable[..., Printed]:
    """What prints the body of ``choice``: its placement planned once, for the body and
    for the type check's probe of it (``probe=True``)."""
    program = Program(ssa)
    source = ctx.file.source_of(kernel)
    indent, unit = _indentation(kernel, source)
    ptxas, held = options.registers_for(kernel.line) if not kernel.header else (None, None)
    if held is not None and held < 0:
        raise OverBudget("ptxas lost an occupancy step however few values were shared")
    plan = budget_plan(
        program,
        choice,
        sat.class_of,
        options.bulk,
        options.registers,
        ptxas_written=ptxas,
        most_held=held,
    )
    assert isinstance(kernel.span, BodySpan)
    shape = layout(source, kernel.span, kernel.body)
    printer = functools.partial(
        BodyPrinter,
        program,
        plan,
        _class_types(ssa, sat),
        ctx.prefix,
        options.fma_call,
        indent,
        unit,
        options.line_directives,
        ctx.cost,
        shape,
        ctx.macros if not kernel.header else None,
        options.declarations_first,
        _own_names(ctx),
    )

    def body(probe: bool = False) -> Printed:
        return replace(printer(probe=probe).body(), budget=plan.budget or None)

    return body


def _pays(printed, ssa: SSAKernel, promoted: int = 0) -> bool:
    """A rewrite pays when the body as printed costs less than as written under the
    cost model (every operation evaluated counted, constant expressions free), or when
    bulk load moved a load above a store it provably does not alias, or a value is
    carried across an inner loop in a variable: what a compiler cannot do by itself."""
    return printed.counts.cost < ssa.stats.cost - 1e-9 or printed.hoisted > 0 or promoted > 0


def _no_gain(cost: dict, inline_shared: dict[str, int]) -> str:
    """Why a kernel's rewrite does not pay, where the extraction found a cheaper body."""
    saving = cost["original"] - cost["extracted"]
    if saving <= 1e-9:
        return "the cost model finds no cheaper form of the body"
    if inline_shared:
        kinds = ", ".join(f"{why}: {n}" for why, n in sorted(inline_shared.items()))
        return (
            f"the extraction saves {saving:g} by sharing values that are printed at each "
            f"use ({kinds}): a compiler keeps a variable in a register and shares index "
            "arithmetic itself, so a temporary would not pay"
        )
    return f"the extraction saves {saving:g}, but none of it survives printing"


def _exact(ext: Extraction, roots: list[int], plain, classes: int) -> Extraction:
    """``ext`` with its costs under the model itself, without the tie-break that
    prefers the nodes as written (``extract.costs.preferring``)."""
    ext.cost = dag_cost(ext.choice, list(dict.fromkeys(roots)), plain)
    # greedy's choice is gone: a lower bound of its cost without the tie-breaks (it
    # chose at most one node per class)
    bound = ext.greedy_cost - MOST_TIE_BREAK * classes
    ext.greedy_cost = max(math.floor(bound * 1000) / 1000, ext.cost)
    return ext


def _written(ssa: SSAKernel, sat: Saturation) -> set[ENode]:
    """The e-nodes of the terms as the user wrote them."""
    return {n for nodes in _written_by_class(ssa, sat).values() for n in nodes}


def _written_by_class(ssa: SSAKernel, sat: Saturation) -> dict[int, list[ENode]]:
    out: dict[int, list[ENode]] = {}
    for tid, cls in sat.class_of.items():
        t = ssa.terms[tid]
        out.setdefault(cls, []).append(
            ENode(t.op, t.ty, t.attrs, tuple(sat.class_of.get(a, -1) for a in t.args))
        )
    return out


def _class_types(ssa: SSAKernel, sat: Saturation) -> dict[int, ct.CType]:
    types: dict[int, ct.CType] = {}
    for tid, cls in sat.class_of.items():
        t = ssa.terms.types[tid]
        if t is not None:
            types.setdefault(cls, t)
    return types


def _op_cost(model: CostModel):
    def cost(op: str, ty: str) -> float:
        return model.cost(ENode(op, ty))

    return cost


def _indentation(kernel: Kernel, source: SourceMap) -> tuple[str, str]:
    """Indent of the loop's line, and the step one level deeper uses."""
    span = kernel.span
    assert isinstance(span, BodySpan)
    # an unbraced body on a line of its own gets its braces at its own indent
    on_own_line = not span.braced and span.first_line != kernel.line
    outer = source.line_indent(span.first_line if on_own_line else kernel.line)
    inner = None
    if span.last_line > span.first_line:
        inner = source.line_indent(span.first_line + 1)
    if inner and inner.startswith(outer) and len(inner) > len(outer):
        return outer, inner[len(outer) :]
    return outer, "  "
