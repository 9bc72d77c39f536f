"""The pipeline: a file goes frontend -> (per kernel) ssa -> egraph -> extract -> codegen.

Each stage is a function over plain data; this module chains them, times them
and turns any failure inside one kernel into "unchanged, with the reason".
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from .codegen.placement import PlacementError, make_plan
from .codegen.printer import BodyPrinter, temp_prefix
from .codegen.program import Program
from .codegen.splice import Replacement, line_directive, splice
from .egraph.graph import ENode
from .egraph.rules import RuleSet, rulesets_for
from .egraph.saturate import InconsistentEGraph, Saturation, saturate
from .errors import Unsupported
from .extract import CostModel, extract, load_cost_model
from .frontend import ctypes as ct
from .frontend.kernels import Kernel
from .frontend.load import LoadedFile, load
from .frontend.source_map import BodySpan, SourceMap
from .options import Options
from .report import KernelReport
from .ssa.state import SSAKernel
from .ssa.statements import build_ssa


@dataclass
class FileResult:
    text: str  # the rewritten file
    kernels: list[KernelReport]


@dataclass
class _FileContext:
    file: LoadedFile
    cost: CostModel
    rulesets: list[RuleSet]
    prefix: str  # of the temporaries' names

    @property
    def path(self) -> Path:
        return self.file.path


def rewrite_file(path: Path, options: Options = Options()) -> FileResult:
    """The file with every kernel it can rewrite rewritten, and a report per kernel."""
    cost = load_cost_model(options.cost_model)
    rulesets = rulesets_for(options)
    loaded = load(path, options.preprocess)
    ctx = _FileContext(loaded, cost, rulesets, temp_prefix(loaded.source))
    reports, replacements = [], []
    for kernel in loaded.kernels:
        report, replacement = rewrite_kernel(kernel, ctx, options)
        reports.append(report)
        if replacement is not None:
            replacements.append(replacement)
    out = splice(loaded.text, replacements, options.line_directives)
    if options.line_directives is not None:
        out = line_directive(1, options.line_directives) + out
    return FileResult(out, reports)


def rewrite_kernel(kernel: Kernel, ctx: _FileContext,
                   options: Options) -> tuple[KernelReport, Replacement | None]:
    report = KernelReport(str(ctx.path), kernel.line, kernel.construct, kernel.function,
                          options.variant)
    report.seconds["frontend"] = ctx.file.seconds
    if isinstance(kernel.span, str):
        return report.unchanged(kernel.span), None
    t = time.perf_counter()
    try:
        ssa = build_ssa(kernel, ctx.file.symbols, _op_cost(ctx.cost), ctx.file.defined)
    except Unsupported as exc:
        line = f" (line {exc.line})" if exc.line and exc.line != kernel.line else ""
        return report.unchanged(exc.reason + line), None
    report.seconds["ssa"] = time.perf_counter() - t
    report.record_ssa(ssa)
    t = time.perf_counter()
    try:
        sat = saturate(ssa.terms, ssa.roots, ctx.rulesets, options.limits)
    except InconsistentEGraph as exc:
        return report.unchanged(f"internal: {exc}"), None
    report.seconds["saturate"] = time.perf_counter() - t
    report.record_saturation(sat)
    t = time.perf_counter()
    roots = [sat.class_of[r] for r in ssa.roots]
    ext = extract(sat.egraph, roots, ctx.cost, options.extract_seconds, options.solver,
                  options.use_ilp, options.extract_stall or None)
    report.seconds["extract"] = time.perf_counter() - t
    report.record_extraction(ext)
    t = time.perf_counter()
    try:
        printed = _print(kernel, ssa, sat, ext.choice, ctx, options)
    except (PlacementError, ValueError):
        try:  # the ILP's choice may not be printable where greedy's is
            greedy = extract(sat.egraph, roots, ctx.cost, use_ilp=False)
            printed = _print(kernel, ssa, sat, greedy.choice, ctx, options)
            report.record_extraction(greedy)
        except (PlacementError, ValueError) as exc:
            return report.unchanged(f"internal: {exc}"), None
    report.seconds["codegen"] = time.perf_counter() - t
    span = kernel.span
    assert isinstance(span, BodySpan)
    if options.verify:
        t = time.perf_counter()
        verdict = _verify(kernel, ctx, printed.text, options)
        report.seconds["verify"] = time.perf_counter() - t
        report.verification = verdict.as_dict()
        if verdict.failed:
            return report.unchanged(f"rewrite failed verification, kept as written: "
                                    f"{verdict.message}"), None
    report.rewritten(printed.counts, printed.temps)
    return report, Replacement(span.start, span.end, printed.text, span.last_line)


def _verify(kernel: Kernel, ctx: _FileContext, body: str, options: Options):
    from .verify import KernelVerdict, verify_body  # numpy and the interpreter: only if asked

    try:
        return verify_body(kernel, ctx.file.symbols, body, options, defined=ctx.file.defined,
                           trials=options.verify_trials, file=str(ctx.path))
    except Exception as exc:  # a bug of the checker itself: say so, never crash the rewrite
        return KernelVerdict(0, kernel.line, kernel.function, "unsupported", file=str(ctx.path),
                             message=f"internal error of the checker: {type(exc).__name__}: {exc}")


def _print(kernel: Kernel, ssa: SSAKernel, sat: Saturation, choice: dict[int, ENode],
           ctx: _FileContext, options: Options):
    program = Program(ssa)
    indent, unit = _indentation(kernel, ctx.file.source)
    plan = make_plan(program, choice, sat.class_of, options.bulk)
    printer = BodyPrinter(program, plan, _class_types(ssa, sat), ctx.prefix, options.fma_call,
                          indent, unit, options.line_directives)
    return printer.body()


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
        return outer, inner[len(outer):]
    return outer, "  "
