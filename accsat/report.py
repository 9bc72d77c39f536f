"""What accsat did to each kernel: one JSON object per kernel (JSON Lines)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

NO_GAIN = "no gain"  # the reason of a kernel whose rewrite would not pay (docs/rewrites.md)
KEPT_BY_TUNING = "the tuning database chose orig (the code as written) for it"
# a kernel even planned as written does not fit the register budget (codegen/budget.py)
OVER_BUDGET = "over the register budget"
# a kernel not started before the file's time budget (accsat-cc's timeout) was nearly spent
OUT_OF_TIME = "the file's time budget (accsat-cc's timeout) ran out before this kernel started"
# a compile for a target whose long or pointers are not 64 bits (-m32): not modelled
NOT_LP64 = "the target's long and pointers are not 64 bits (-m32?): accsat models LP64 only"
# kernels left as written by choice, not because accsat could not handle them: no warning
BY_CHOICE = (NO_GAIN, KEPT_BY_TUNING)
# what a unit of rewriting is (the report's ``kind``): the body of an innermost parallel
# loop, a function marked as a device routine (``acc routine``, ``omp declare target``), or
# a function a compute construct calls
LOOP_BODY, ROUTINE, CALLEE = "loop body", "routine", "callee"


@dataclass
class KernelReport:
    file: str
    line: int
    construct: str
    function: str
    variant: str
    # of the loop's ``for`` on ``line``, as gcc counts columns (a tab to the next
    # multiple of 8; 0: not known)
    column: int = 0
    status: str = "unchanged"  # "rewritten" | "unchanged"
    reason: str = ""
    kind: str = LOOP_BODY  # LOOP_BODY | ROUTINE | CALLEE
    # ``file`` and ``line`` say where the unit is as the compiler names it: a header the
    # file includes, or what a ``#line`` directive names; then ``compiled`` is the file
    # compiled (the translation unit), else ""
    compiled: str = ""
    # with reason "no gain": where the extraction's saving went (pipeline._no_gain)
    no_gain: str = ""
    statements: int = 0
    egraph: dict = field(
        default_factory=lambda: {"nodes": 0, "classes": 0, "iterations": 0, "stop_reason": ""}
    )
    # printed: the body as printed, priced as "original" prices it as written
    cost: dict = field(
        default_factory=lambda: {"original": 0.0, "extracted": 0.0, "greedy": 0.0, "printed": 0.0}
    )
    extraction: str = ""  # "optimal" | "feasible" | "greedy"
    # how the ILP ended: "optimal" | "greedy-optimal" | "gap" | "stalled" | "time-limit" |
    # "failed" | "off" (extract.Extraction.ilp)
    ilp: str = ""
    loads: dict = field(default_factory=lambda: {"before": 0, "after": 0})
    ops: dict = field(default_factory=lambda: {"before": 0, "after": 0})
    fma: int = 0
    temporaries: int = 0
    hoisted: int = 0  # loads bulk load moved above a store they do not alias
    # with a register budget (--registers): the model's registers as written, the limit,
    # before and after the budget, and whether it bound (codegen/budget.py)
    registers: dict | None = None
    promoted: int = 0  # locations carried in a variable across an inner loop (ssa/promote.py)
    verification: dict | None = None  # with --verify: KernelVerdict.as_dict() of the rewrite
    # the compiler's check of the printed types (verify/typecheck.py): compiler, checks,
    # result ("agrees", "disagrees", "unavailable: why")
    typecheck: dict | None = None
    # frontend: the file's loading shared among its kernels (their sum is the file's)
    seconds: dict = field(
        default_factory=lambda: {
            "frontend": 0.0,
            "ssa": 0.0,
            "saturate": 0.0,
            "extract": 0.0,
            "codegen": 0.0,
        }
    )

    # the kernel's lines as written and as rewritten (codegen.splice.excerpt), from the
    # line of its ``for`` ("line", "original", "rewritten"): for an optimization record
    # (accsat/records), not for the report
    bodies: dict | None = None

    @property
    def worth_a_warning(self) -> bool:
        """Left as written for a reason the user may want to act on (not by choice)."""
        return self.status != "rewritten" and self.reason not in BY_CHOICE

    def unchanged(self, reason: str) -> KernelReport:
        self.status, self.reason = "unchanged", reason
        self.loads["after"] = self.loads["before"]
        self.ops["after"] = self.ops["before"]
        return self

    def record_ssa(self, ssa) -> None:
        self.statements = ssa.stats.statements
        self.loads["before"] = self.loads["after"] = ssa.stats.loads
        self.ops["before"] = self.ops["after"] = ssa.stats.ops
        self.cost["original"] = ssa.stats.cost

    def record_saturation(self, sat) -> None:
        self.egraph = {
            "nodes": sat.nodes,
            "classes": sat.classes,
            "iterations": sat.iterations,
            "stop_reason": sat.stop_reason,
        }

    def record_extraction(self, ext) -> None:
        self.cost["extracted"] = ext.cost
        self.cost["greedy"] = ext.greedy_cost
        self.extraction = ext.status
        self.ilp = ext.ilp

    def rewritten(self, counts, temps: int) -> KernelReport:
        self.status, self.reason = "rewritten", ""
        self.loads["after"] = counts.loads
        self.ops["after"] = counts.ops
        self.fma = counts.fma
        self.temporaries = temps
        return self

    def to_json(self) -> str:
        """The report's line (without the bodies, which only a record holds)."""
        fields = asdict(self)
        fields.pop("bodies")
        return json.dumps(fields, sort_keys=False)


def jsonl(reports: list[KernelReport]) -> str:
    return "".join(r.to_json() + "\n" for r in reports)
