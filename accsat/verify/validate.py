"""Translation validation: run each kernel body before and after rewriting on
random states and on edge rounds (``edges``: the kernel's constants, its types'
limits) and compare. Verdicts: ``pass``, ``weak`` (no difference, but more than
half the states tried were undefined behaviour in the original: not a failure),
``fail``, ``unsupported``, ``unchanged``.

Entry points:

``verify_body(kernel, symbols, new_body_text, options)``
    one kernel, from the frontend's ``Kernel`` and the body text accsat printed
    for it (what the pipeline has in hand before splicing);
``verify_file(original_path, rewritten_text, options)``
    every kernel of a file, matched by position after re-parsing the rewritten
    text the same way (preprocess + parse with the same flags);
``accsat.check.check_file`` rewrites a file, then ``verify_file``s it (``accsat check``).
"""

from __future__ import annotations

import math
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

from pycparser import c_ast, c_generator

from ..codegen.splice import Replacement, splice
from ..egraph.rules import rulesets_for
from ..errors import AccsatError
from ..frontend import ctypes as ct
from ..frontend.kernels import Kernel
from ..frontend.load import load, read_source
from ..frontend.parse import parse_body
from ..frontend.source_map import BodySpan, SourceMap
from ..frontend.symbols import FileSymbols, Scope
from ..options import Options
from ..report import LOOP_BODY
from .compare import Tolerance, compare_runs
from .cvalues import (
    UB,
    Desc,
    InvalidC,
    NotModelled,
    OverBudget,
    StepLimit,
    Trap,
    desc,
    is_scalar,
)
from .edges import EdgeValues, kernel_edges
from .interp import DEFAULT_STEP_LIMIT, Program, compile_body, execute
from .states import make_state

DEFAULT_TRIALS = Options.verify_trials  # declared there (--trials, ACCSAT_TRIALS)
DEFAULT_SEED = 20240917
ATTEMPTS = 3  # random states tried per trial asked for, at most...
MORE_ATTEMPTS = 8  # ...or this many while some states run but fewer than asked for
EDGE_ROUNDS = 2  # edge rounds per trial asked for, at most

_GEN = c_generator.CGenerator()


@dataclass
class KernelVerdict:
    """What translation validation found for one kernel."""

    index: int  # position of the kernel in the file (0-based, source order)
    line: int  # line of the kernel's ``for`` in the original file
    function: str
    verdict: str  # "pass" | "weak" | "fail" | "unsupported" | "unchanged"
    # weak: no difference found, but more than half the states tried were skipped for
    # undefined behaviour in the original (the comparisons covered little); not a failure
    states_tried: int = 0  # states run on the original: random ones and edge rounds
    edge_rounds: int = 0  # of which edge rounds (the kernel's constants, type limits)
    skipped: int = 0  # states where the original had undefined behaviour or ran too long
    max_rel_error: float = 0.0  # largest relative difference of any compared float
    tolerance: Tolerance | None = None  # None: compared bit for bit
    message: str = ""  # why it failed / is unsupported (with the trial to replay)
    skip_reasons: dict[str, int] = field(default_factory=dict)
    file: str = ""
    seconds: float = 0.0

    @property
    def failed(self) -> bool:
        return self.verdict == "fail"

    @property
    def comparison(self) -> str:
        return "bit-exact" if self.tolerance is None else f"within {self.tolerance}"

    def location(self) -> str:
        return f"{self.file}:{self.line}" if self.file else f"line {self.line}"

    def as_dict(self) -> dict:
        """For JSON reports: every field, the tolerance as a dict (None: bit-exact)."""
        out = {
            k: getattr(self, k)
            for k in (
                "index",
                "line",
                "function",
                "verdict",
                "states_tried",
                "edge_rounds",
                "skipped",
                "max_rel_error",
                "message",
                "skip_reasons",
                "file",
                "seconds",
            )
        }
        out["tolerance"] = (
            None
            if self.tolerance is None
            else {
                "rel": self.tolerance.rel,
                "abs": self.tolerance.abs,
                "rel_float": self.tolerance.rel_float,
                "abs_float": self.tolerance.abs_float,
            }
        )
        return out


@dataclass
class FileVerification:
    verdicts: list[KernelVerdict]
    text: str  # the rewritten text with the body of every failed kernel put back as written
    reverted: list[int] = field(default_factory=list)  # indices of the kernels put back

    @property
    def failed(self) -> list[KernelVerdict]:
        return [v for v in self.verdicts if v.verdict == "fail"]

    @property
    def ok(self) -> bool:
        return not self.failed


# ----------------------------------------------------------------------------------------------
# tolerance


def tolerance_for(options) -> Tolerance | None:
    """None (bit-exact) unless the options run a rule that can change a float result."""
    if any(r.fp_changing for r in rulesets_for(options)):
        return Tolerance()
    return None


# ----------------------------------------------------------------------------------------------
# one kernel


def verify_programs(
    orig: Program,
    new: Program,
    *,
    trials: int = DEFAULT_TRIALS,
    seed: int = DEFAULT_SEED,
    tolerance: Tolerance | None = None,
    step_limit: int = DEFAULT_STEP_LIMIT,
    max_attempts: int | None = None,
    verdict: KernelVerdict | None = None,
    edges: EdgeValues | None = None,
) -> KernelVerdict:
    """Run both programs on random states until ``trials`` of them ran without undefined
    behaviour (or anything else that skips a state) in the original, and on the edge
    rounds of ``edges`` (the kernel's constants, ``edges.kernel_edges``; None: the type
    limits only) interleaved with them; compare each.

    Random states: up to ``max_attempts`` (default ``ATTEMPTS`` x ``trials``, and up to
    ``MORE_ATTEMPTS`` x ``trials`` while some states run but too few). Edge rounds: as
    many as the largest edge pool of the kernel's types, at most ``EDGE_ROUNDS`` x
    ``trials``. More than half the states tried skipped for undefined behaviour: the
    verdict is ``weak`` rather than ``pass``.

    With a tolerance, a body that computes in float is compared with the float
    tolerance throughout (its rounding differences reach double results too); the
    verdict's ``tolerance`` is the one used."""
    v = verdict or KernelVerdict(0, 0, "", "pass")
    if tolerance is not None and (orig.uses_float or new.uses_float):
        # float rounding differences flow into double results: the float tolerance for all
        tolerance = replace(
            tolerance,
            rel=max(tolerance.rel, tolerance.rel_float),
            abs=max(tolerance.abs, tolerance.abs_float),
        )
    v.tolerance = tolerance
    finite = tolerance is not None
    scalars = {n: t for n, (_s, t) in new.outer_vars.items()}
    scalars.update({n: t for n, (_s, t) in orig.outer_vars.items()})
    objects = dict(new.outer_objects)
    objects.update(orig.outer_objects)
    restrict = orig.restrict | new.restrict
    edges = edges if edges is not None else EdgeValues()
    rounds = edges.rounds(_descs(scalars, objects), finite, EDGE_ROUNDS * trials)
    reasons: Counter[str] = Counter()
    good = ub = budget = 0  # states compared; skipped for UB; over a budget
    attempts = max_attempts if max_attempts is not None else ATTEMPTS * trials
    more = max_attempts if max_attempts is not None else MORE_ATTEMPTS * trials
    trial = edge_round = 0
    while True:
        random = good < trials and (trial < attempts or good > 0 and trial < more)
        if edge_round < rounds and (edge_round < trial or not random):
            state = make_state(
                seed,
                0,
                scalars,
                objects,
                restrict,
                finite=finite,
                edges=edges,
                edge_round=edge_round,
                edge_rounds=rounds,
            )
            edge_round += 1
            v.edge_rounds += 1
        elif random:  # random trials and edge rounds take turns
            state = make_state(seed, trial, scalars, objects, restrict, finite=finite)
            trial += 1
        else:
            break
        v.states_tried += 1
        try:
            ro = execute(orig, state, step_limit)
        except Trap as exc:
            v.skipped += 1
            ub += isinstance(exc, UB)
            budget += isinstance(exc, (OverBudget, StepLimit))
            reasons[f"{exc.kind}: {_short(exc.reason)}"] += 1
            continue
        except (ArithmeticError, ValueError, TypeError, KeyError, RecursionError) as exc:
            v.verdict = "unsupported"
            v.message = f"interpreter error on the original: {type(exc).__name__}: {exc}"
            return v
        if state.edges is None:
            good += 1
        try:
            rn = execute(new, state, step_limit)
        except OverBudget as exc:  # a budget of the checker's, not a fault of the rewrite
            v.skipped += 1
            budget += 1
            reasons[f"{exc.kind}: {_short(exc.reason)}"] += 1
            continue
        except Trap as exc:
            v.verdict = "fail"
            v.message = (
                f"{state.describe()}: the rewritten body has {exc.kind} where the "
                f"original has none: {exc.reason}"
            )
            break
        except (ArithmeticError, ValueError, TypeError, KeyError, RecursionError) as exc:
            v.verdict = "unsupported"
            v.message = f"interpreter error on the rewrite: {type(exc).__name__}: {exc}"
            return v
        cmp = compare_runs(ro, rn, state, tolerance)
        if math.isfinite(cmp.max_rel_error):
            v.max_rel_error = max(v.max_rel_error, cmp.max_rel_error)
        if not cmp.ok:
            v.verdict = "fail"
            v.message = f"{state.describe()}: " + "; ".join(cmp.problems)
            break
    v.skip_reasons = dict(reasons.most_common())
    if v.verdict == "pass" and good == 0:  # edge rounds alone are no test of a kernel
        v.verdict = "unsupported"
        top = reasons.most_common(1)[0][0] if reasons else "no state"
        v.message = f"every state was skipped ({top})"
    elif v.verdict == "pass" and 2 * ub > v.states_tried:
        v.verdict = "weak"
        top = next(r for r, _n in reasons.most_common() if r.startswith(UB.kind))
        v.message = (
            f"{ub} of {v.states_tried} states skipped for undefined behaviour in "
            f"the original (mostly {top[len(UB.kind) + 2 :]}): few states compared"
        )
    elif v.verdict == "pass" and 2 * budget > v.states_tried:
        v.verdict = "weak"
        top = reasons.most_common(1)[0][0]
        v.message = (
            f"{budget} of {v.states_tried} states skipped over the checker's budget "
            f"(mostly {top}): few states compared"
        )
    return v


def _descs(scalars: dict[str, ct.CType], objects) -> set[Desc]:
    """The scalar types of the outer variables, of what they point to and of the objects."""
    out: set[Desc] = set()
    for t in list(scalars.values()) + [t for _o, t, _s in objects.values()]:
        while isinstance(t, (ct.Pointer, ct.Array)):
            if isinstance(t, ct.Pointer):
                out.add(desc(t))
                t = t.to
            else:
                t = t.of
        if isinstance(t, ct.Struct):
            out.update(desc(f.type) for f in t.fields or () if is_scalar(f.type))
        elif is_scalar(t):
            out.add(desc(t))
    return out


def _short(reason: str) -> str:
    """A skip reason without the numbers, so that reasons group."""
    out = []
    for word in reason.split():
        out.append("N" if any(ch.isdigit() for ch in word) and "@" not in word else word)
    return " ".join(out)[:80]


def verify_kernels(
    orig: Kernel,
    orig_symbols: FileSymbols,
    new_body: c_ast.Node,
    new_scope: Scope,
    new_symbols: FileSymbols,
    *,
    defined: frozenset[str] = frozenset(),
    new_defined: frozenset[str] | None = None,
    trials: int = DEFAULT_TRIALS,
    seed: int = DEFAULT_SEED,
    tolerance: Tolerance | None = None,
    index: int = 0,
    file: str = "",
    step_limit: int = DEFAULT_STEP_LIMIT,
) -> KernelVerdict:
    """Validate ``new_body`` (resolved in ``new_scope``) against the kernel's own body."""
    start = time.perf_counter()
    v = KernelVerdict(index, orig.line, orig.function, "pass", tolerance=tolerance, file=file)
    try:
        if _text(orig.body) == _text(new_body):
            v.verdict = "unchanged"
            return v
        try:
            p_orig = compile_body(
                orig.body, orig.scope, orig_symbols, defined, orig.address_taken, orig.returns
            )
        except NotModelled as exc:
            v.verdict, v.message = "unsupported", f"original: {exc}"
            return v
        try:
            p_new = compile_body(
                new_body,
                new_scope,
                new_symbols,
                defined if new_defined is None else new_defined,
                orig.address_taken,
                orig.returns,
            )
        except InvalidC as exc:
            v.verdict, v.message = "fail", f"the rewritten body is not valid C: {exc}"
            return v
        except NotModelled as exc:
            v.verdict, v.message = "unsupported", f"rewritten: {exc}"
            return v
        edges = kernel_edges(
            [(orig.body, orig.scope, orig_symbols), (new_body, new_scope, new_symbols)],
            defined,
            orig.address_taken,
        )
        return verify_programs(
            p_orig,
            p_new,
            trials=trials,
            seed=seed,
            tolerance=tolerance,
            step_limit=step_limit,
            verdict=v,
            edges=edges,
        )
    finally:
        v.seconds = time.perf_counter() - start


def _text(node: c_ast.Node) -> str:
    return _GEN.visit(node) if not isinstance(node, c_ast.Compound) else _GEN.visit(node)


def verify_body(
    kernel: Kernel,
    symbols: FileSymbols,
    new_body_text: str,
    options=None,
    *,
    defined: frozenset[str] = frozenset(),
    trials: int = DEFAULT_TRIALS,
    seed: int = DEFAULT_SEED,
    tolerance: Tolerance | None | str = "auto",
    file: str = "",
    index: int = 0,
) -> KernelVerdict:
    """Validate the body text accsat printed for ``kernel`` (the pipeline's hook).

    ``symbols`` and ``defined`` (the functions the file defines) are the file's, as
    the pipeline has them; ``tolerance="auto"`` derives it from ``options``.
    Keep the rewrite unless the verdict is ``"fail"``.
    """
    if isinstance(tolerance, str):  # "auto"
        tolerance = tolerance_for(options) if options is not None else None
    try:
        body = parse_body(new_body_text, kernel.scope)
    except AccsatError as exc:
        return KernelVerdict(
            index,
            kernel.line,
            kernel.function,
            "fail",
            message=str(exc),
            file=file,
            tolerance=tolerance,
        )
    return verify_kernels(
        kernel,
        symbols,
        body,
        kernel.scope,
        symbols,
        defined=defined,
        trials=trials,
        seed=seed,
        tolerance=tolerance,
        index=index,
        file=file,
    )


# ----------------------------------------------------------------------------------------------
# whole files


def unresolved(v: KernelVerdict) -> bool:
    """A body that did not parse or named something undeclared: perhaps a macro or a
    comment of the user's (only the preprocessor knows what they are)."""
    return any(
        m in v.message
        for m in ("cannot parse the rewritten body", "the rewritten body is not valid C")
    )


def _header(k: Kernel) -> str:
    loop = k.loop
    if isinstance(loop, c_ast.FuncDef):  # a function unit: its declaration
        return _GEN.visit(loop.decl)
    return " ; ".join(
        _GEN.visit(p) if p is not None else "" for p in (loop.init, loop.cond, loop.next)
    )


def verify_file(
    original: Path,
    rewritten_text: str,
    options,
    *,
    trials: int = DEFAULT_TRIALS,
    seed: int = DEFAULT_SEED,
    tolerance: Tolerance | None | str = "auto",
    original_text: str | None = None,
    reparse: bool = False,
) -> FileVerification:
    """``_verify_file`` under the original's target (what its flags make of C's types)."""
    text = read_source(Path(original)) if original_text is None else original_text
    loaded = load(Path(original), options.preprocess, text=text)
    with ct.targeting(loaded.target):
        return _verify_file(
            original,
            rewritten_text,
            options,
            trials=trials,
            seed=seed,
            tolerance=tolerance,
            original_text=text,
            reparse=reparse,
        )


def _verify_file(
    original: Path,
    rewritten_text: str,
    options,
    *,
    trials: int = DEFAULT_TRIALS,
    seed: int = DEFAULT_SEED,
    tolerance: Tolerance | None | str = "auto",
    original_text: str | None = None,
    reparse: bool = False,
) -> FileVerification:
    """Validate every kernel of ``rewritten_text`` against ``original``.

    The kernels of the two texts are matched by position. When the rewritten
    text differs from the original only inside kernel bodies (what accsat
    produces), each new body is located with the same source map accsat uses
    and parsed on its own; otherwise, or with ``reparse``, the whole rewritten
    text is preprocessed and parsed with the same flags (from a temporary copy;
    ``#include "..."`` still finds the original's neighbours). A different
    kernel count or loop header fails every kernel with "cannot match
    kernels". ``text`` in the result is ``rewritten_text`` with each failed
    kernel's body put back as written.
    """
    original = Path(original)
    if isinstance(tolerance, str):  # "auto"
        tolerance = tolerance_for(options)
    orig_text = read_source(original) if original_text is None else original_text
    popts = options.preprocess
    loaded = load(original, popts, text=orig_text)
    # the file's own kernels (a header's are rewritten in a copy of the header)
    ko = [k for k in loaded.kernels if not k.header]
    so, defined_o = loaded.symbols, loaded.defined
    file = str(original)
    bodies = None if reparse else _bodies_in_place(orig_text, rewritten_text, ko)
    verdicts: list[KernelVerdict]
    if bodies is not None:
        verdicts = []
        for i, (k, (text, span)) in enumerate(zip(ko, bodies, strict=True)):
            if span is None or text == _written(orig_text, k):
                verdicts.append(
                    KernelVerdict(
                        i, k.line, k.function, "unchanged", file=file, tolerance=tolerance
                    )
                )
                continue
            try:
                body = parse_body(text, k.scope)
            except AccsatError as exc:
                verdicts.append(
                    KernelVerdict(
                        i,
                        k.line,
                        k.function,
                        "fail",
                        file=file,
                        tolerance=tolerance,
                        message=str(exc),
                    )
                )
                continue
            verdicts.append(
                verify_kernels(
                    k,
                    so,
                    body,
                    k.scope,
                    so,
                    defined=defined_o,
                    trials=trials,
                    seed=seed,
                    tolerance=tolerance,
                    index=i,
                    file=file,
                )
            )
        failed = [v.index for v in verdicts if v.verdict == "fail"]
        if any(unresolved(verdicts[i]) for i in failed):
            # a body printed partly as the user wrote it may use his macros: preprocess
            return _verify_file(
                original,
                rewritten_text,
                options,
                trials=trials,
                seed=seed,
                tolerance=tolerance,
                original_text=orig_text,
                reparse=True,
            )
        pieces = [(bodies[i][1][0], bodies[i][1][1], _written(orig_text, ko[i])) for i in failed]
        return FileVerification(verdicts, _splice(rewritten_text, pieces), failed)
    with tempfile.TemporaryDirectory(prefix="accsat-verify-") as tmp:
        path = Path(tmp) / original.name
        path.write_bytes(rewritten_text.encode("utf-8", "surrogateescape"))
        flags = tuple(popts.flags) + ("-iquote", str(original.resolve().parent))
        new = load(
            path,
            replace(popts, flags=flags),
            text=rewritten_text,
            main=options.line_directives or str(path),
            cache=False,
        )
    kn, sn, defined_n = new.kernels, new.symbols, new.defined
    verdicts = []
    if len(ko) != len(kn):
        msg = f"cannot match kernels: {len(ko)} in the original, {len(kn)} in the rewritten text"
        verdicts = [
            KernelVerdict(
                i, k.line, k.function, "fail", message=msg, file=file, tolerance=tolerance
            )
            for i, k in enumerate(ko)
        ]
        return FileVerification(verdicts, orig_text, list(range(len(ko))))
    for i, (a, b) in enumerate(zip(ko, kn, strict=True)):
        if a.function != b.function or _header(a) != _header(b):
            verdicts.append(
                KernelVerdict(
                    i,
                    a.line,
                    a.function,
                    "fail",
                    file=file,
                    tolerance=tolerance,
                    message=f"cannot match kernels: the rewritten file's kernel {i + 1} is "
                    f"'for ({_header(b)})' in {b.function}()",
                )
            )
            continue
        verdicts.append(
            verify_kernels(
                a,
                so,
                b.body,
                b.scope,
                sn,
                defined=defined_o,
                new_defined=defined_n,
                trials=trials,
                seed=seed,
                tolerance=tolerance,
                index=i,
                file=file,
            )
        )
    text, reverted = _restore(orig_text, rewritten_text, ko, kn, verdicts)
    return FileVerification(verdicts, text, reverted)


def _written(text: str, k: Kernel) -> str:
    """The body of ``k`` as written in ``text`` (a kernel mapped to the source)."""
    span = k.span
    assert isinstance(span, BodySpan)
    return text[span.start : span.end]


def _bodies_in_place(orig_text: str, new_text: str, ko: list[Kernel]):
    """Each kernel's body in ``new_text`` as (text, (start, end)) (None, None for a kernel
    that is not mapped to the source), or None unless the two texts are equal outside
    the bodies."""
    sm_o, sm_n = SourceMap(orig_text), SourceMap(new_text)
    out: list = []
    delta = 0
    pieces = []
    for k in ko:
        span = k.span
        if not isinstance(span, BodySpan):
            out.append((None, None))
            continue
        if k.kind == LOOP_BODY:
            fors = sm_o.for_tokens_on_line(k.line)
            nth = max(
                (n for n, t in enumerate(fors) if sm_o.tokens[t].start < span.start), default=0
            )
            new = sm_n.loop_body(k.line + delta, nth, len(fors))
        else:  # a function unit (frontend/units.py)
            new = sm_n.function_body(k.function, k.line + delta)
        if not isinstance(new, BodySpan):
            return None
        out.append((new_text[new.start : new.end], (new.start, new.end)))
        pieces.append((new.start, new.end, orig_text[span.start : span.end]))
        delta += (new.last_line - new.first_line) - (span.last_line - span.first_line)
    if _splice(new_text, pieces) != orig_text:
        return None
    return out


def _splice(text: str, pieces: list[tuple[int, int, str]]) -> str:
    return splice(text, [Replacement(start, end, piece, 0) for start, end, piece in pieces])


def _restore(
    orig_text: str, new_text: str, ko: list[Kernel], kn: list[Kernel], verdicts: list[KernelVerdict]
) -> tuple[str, list[int]]:
    failed = [v.index for v in verdicts if v.verdict == "fail"]
    if not failed:
        return new_text, []
    pieces = []
    for i in failed:
        a, b = ko[i].span, kn[i].span
        if not isinstance(a, BodySpan) or not isinstance(b, BodySpan):
            return orig_text, list(range(len(ko)))  # cannot locate it: keep the whole original
        pieces.append((b.start, b.end, orig_text[a.start : a.end]))
    return _splice(new_text, pieces), failed


def format_table(verdicts: list[KernelVerdict], title: str = "") -> str:
    """One line per kernel: where, states tried, skipped, max error, verdict."""
    rows = [("kernel", "function", "states", "skipped", "max rel err", "compare", "verdict")]
    for v in verdicts:
        err = "-" if v.verdict in ("unchanged", "unsupported") else f"{v.max_rel_error:.2g}"
        rows.append(
            (
                v.location(),
                v.function,
                str(v.states_tried),
                str(v.skipped),
                err,
                "exact" if v.tolerance is None else "tol",
                v.verdict,
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [title] if title else []
    for r in rows:
        lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
    for v in verdicts:
        if v.message and v.verdict in ("fail", "unsupported", "weak"):
            lines.append(f"{v.location()}: {v.verdict}: {v.message}")
    tol = next((v.tolerance for v in verdicts if v.tolerance is not None), None)
    if tol is not None:
        lines.append(f"tolerance: {tol}")
    return "\n".join(lines)
