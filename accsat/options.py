"""What a rewrite is asked to do: the variants and the options of one run.

The one home of the variant list. It is cheap to import (no egglog, no
pycparser, no solver): the compiler wrapper, the harnesses and the CLI read it
before deciding whether any real work is needed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace

from .frontend.preprocess import PreprocessOptions
from .settings import (
    ANY,
    AUTO,
    KEEP,
    Choice,
    Count,
    Flag,
    Fraction,
    Names,
    Registers,
    Seconds,
    Text,
    key_data,
    setting,
)


@dataclass(frozen=True)
class Variant:
    """One way of rewriting a kernel (names from the paper)."""

    name: str
    rules: bool  # saturate with the rule sets of rules/ (FMA, commutativity, ...)
    bulk: bool  # bulk load: hoist every load to the first point its inputs exist
    summary: str

    @property
    def fp_changing(self) -> bool:
        """Whether its results may differ from the original's in floating point
        (the rule sets include FMA and float reassociation unless ``--fp-exact``)."""
        return self.rules


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant("cse", rules=False, bulk=False, summary="common loads and subexpressions once"),
        Variant("cse+sat", rules=True, bulk=False, summary="cse + saturation rules"),
        Variant("cse+bulk", rules=False, bulk=True, summary="cse + bulk load"),
        Variant("accsat", rules=True, bulk=True, summary="cse + rules + bulk load"),
    )
}
DEFAULT_VARIANT = "accsat"
# a kernel (or a build) left as the user wrote it: the baseline of every comparison
ORIG = "orig"
CONFIGS: tuple[str, ...] = (ORIG, *VARIANTS)  # what sweeps and tuning compare
# a build with a tuning database (accsat tune): each kernel the config chosen for it
TUNED = "tuned"
# the kinds of remark (accsat/remarks.py): both, kernels left as written, kernels rewritten
REMARKS = ("all", "missed", "applied")
EXACT_VARIANTS = frozenset(name for name, v in VARIANTS.items() if not v.fp_changing)
# a configuration may name a register budget after the variant: ``cse@keep`` is cse
# within ``keep`` (Options.registers), ``accsat@64`` accsat within 64 registers a thread
BUDGET_MARK = "@"
# ``accsat tune --static``'s candidates: each variant with every load it can share, and
# within the occupancy of the code as written
BUDGETED: tuple[str, ...] = tuple(
    f"{name}{BUDGET_MARK}{budget}" for budget in (ANY, KEEP) for name in VARIANTS
)


def variant(name: str) -> Variant:
    """The variant called ``name``; ValueError naming the choices otherwise."""
    try:
        return VARIANTS[name]
    except KeyError:
        raise ValueError(f"unknown variant '{name}' (one of {', '.join(VARIANTS)})") from None


def split_config(config: str) -> tuple[str, str | int | None]:
    """``cse@keep`` -> (``cse``, ``keep``); ``cse`` -> (``cse``, None: the build's own
    budget). ValueError (naming the choices) for an unknown variant or budget."""
    from .settings import Registers

    name, mark, budget = config.partition(BUDGET_MARK)
    variant(name)
    if not mark:
        return name, None
    try:
        value = Registers()(budget)
    except ValueError as exc:
        raise ValueError(f"'{config}': '{budget}' {exc}") from None
    if value == AUTO:  # a configuration says what it measured: keep or any, not "it depends"
        raise ValueError(f"'{config}': a configuration names any, keep or N, not auto")
    return name, value


def check_config(config: str) -> None:
    """ValueError unless ``config`` is orig, a variant or a variant with a budget."""
    if config == ORIG:
        return
    try:
        split_config(config)
    except ValueError:
        first = next(iter(VARIANTS))
        raise ValueError(
            f"unknown config '{config}' (one of {', '.join(CONFIGS)}; a variant may name "
            f"a register budget: {first}{BUDGET_MARK}keep, {first}{BUDGET_MARK}64)"
        ) from None


@dataclass(frozen=True)
class Limits:
    """When saturation stops (the paper's limits): the saturation stage's settings."""

    nodes: int = setting(
        10_000,
        "saturation stops before the e-graph exceeds this many e-nodes",
        parse=Count(1),
        stage="saturate",
        name="max_nodes",
    )
    iterations: int = setting(
        10,
        "saturation stops after this many iterations",
        parse=Count(1),
        stage="saturate",
        name="max_iterations",
    )
    seconds: float = setting(
        10.0,
        "saturation stops after this many seconds",
        parse=Seconds(positive=True),
        stage="saturate",
        name="saturation_seconds",
    )
    # the e-graphs of NPB's 224 kernels grow the process by 28 MB at most (BT's
    # x_solve.c:720, variant accsat; all 224 rewritten in one process peak at 262 MB):
    # a budget far above that, far below what a compile server's machine can spare
    memory: int = setting(
        400,
        "saturation stops before the process grows by more than this many MB while a "
        "kernel saturates (the e-graph of the iteration before is kept)",
        parse=Count(1),
        stage="saturate",
        name="saturation_memory",
        metavar="MB",
    )


@dataclass(frozen=True)
class Options:
    """Everything that decides the rewrite of one file (and so the wrapper's cache key).

    Each setting is declared here once (accsat.settings); the other fields are what one
    call gives: the file's preprocessing, its name, a tuning database's choices."""

    variant: str = setting(
        DEFAULT_VARIANT,
        "; ".join(f"{v.name}: {v.summary}" for v in VARIANTS.values()),
        parse=Choice(tuple(VARIANTS), "a variant"),
        stage="pipeline",
    )
    rules: tuple[str, ...] | None = setting(
        None,
        "rulesets to run",
        parse=Names(),
        stage="saturate",
        default_text="those rules/rules.toml enables",
    )
    disabled_rules: tuple[str, ...] = setting(
        (),
        "rulesets not to run",
        parse=Names(),
        stage="saturate",
        name="disable_rule",
        metavar="NAME",
    )
    fp_exact: bool = setting(
        False,
        "no rule that can change a floating-point result (FMA, float reassociation)",
        parse=Flag(),
        stage="saturate",
    )
    declarations_first: bool = setting(
        False,
        "declare temporaries at the start of their block, as C89 asks (accsat-cc sets it "
        "for -std=c89/c90/gnu89/gnu90, -ansi and -W[error=]declaration-after-statement)",
        parse=Flag(),
        stage="codegen",
    )
    fma_call: bool = setting(
        False,
        "print fused multiply-adds as C99 fma() instead of a grouped a + b * c",
        parse=Flag(),
        stage="codegen",
    )
    cost_model: str = setting(
        "paper",
        "cost table from cost_models/ or a TOML file",
        parse=Text("NAME|PATH"),
        stage="pipeline",
    )
    limits: Limits = Limits()
    extract_seconds: float = setting(
        30.0, "time limit of the ILP extraction per kernel", parse=Seconds(), stage="extract"
    )
    # stop the ILP when its best has not improved for this long (on NPB's 223 kernels
    # with the ILP of extract/ilp.py: 1 s loses 60 of 481763 cost units to 2 s, on one
    # LU kernel, and saves it 3.5 s; most kernels end with a proof well before)
    extract_stall: float | None = setting(
        1.0,
        "stop the ILP once its best solution has not improved for this many CPU "
        "seconds (the same search on a loaded machine; 0: run to the time limit or a proof)",
        parse=Seconds(zero_is_none=True),
        stage="extract",
        show=lambda v: "0 (off)" if v is None else f"{v:g}",
    )
    # stop the ILP once its best is within this fraction of its bound; the cost model's
    # own error is far larger (benchmarks/extract_stop.py on NPB's 224 kernels: 1 % adds
    # 90 of 481703 cost units, 5 kernels dearer by 0.61 % at most, and takes the extract
    # stage from 16.0 to 13.4 s, its slowest kernel from 3.2 to 1.8 s)
    extract_gap: float = setting(
        0.01,
        "stop the ILP once its best solution is at most this fraction above its lower "
        "bound (0: prove optimality)",
        parse=Fraction(),
        stage="extract",
    )
    solver: str = setting(
        "highs",
        "MILP solver PuLP drives",
        parse=Choice(("highs", "cbc"), "a solver"),
        stage="extract",
    )
    use_ilp: bool = setting(
        True,
        "ILP extraction after the greedy one (off: greedy DAG extraction only)",
        parse=Flag(),
        stage="extract",
        name="ilp",
    )
    registers: str | int = setting(
        AUTO,
        "registers per thread the rewritten code may use: keep (no occupancy step lost "
        "against the code as written), any, a number, or auto: keep where accsat-cc "
        "compiles GPU code (gcc -foffload=nvptx-none, nvc -acc=gpu, clang "
        "-fopenmp-targets=nvptx64...), any elsewhere",
        parse=Registers(),
        stage="codegen",
    )
    typecheck: bool = setting(
        True,
        "have the compiler confirm the C type accsat gives every expression it prints (one "
        "-fsyntax-only compile of each file with rewritten kernels); a kernel it disagrees "
        "with is kept as written",
        parse=Flag(),
        stage="verify",
    )
    verify: bool = setting(
        False,
        "translation-validate every rewritten kernel on random states; a kernel that "
        "fails is kept as written (with a warning)",
        parse=Flag(),
        stage="verify",
    )
    verify_trials: int = setting(
        24,
        "random states per kernel for translation validation",
        parse=Count(1),
        stage="verify",
        name="trials",
    )
    helper: bool = setting(
        True,
        "let a second process rewrite some of a file's kernels while two cores are idle "
        "(the file is the one a single process gives)",
        parse=Flag(),
        stage="pipeline",
        key=False,
    )
    remarks: str | None = setting(
        None,
        "a remark per kernel on stderr, as the compiler's diagnostics (file:line:col: "
        "remark: accsat: ...): all, missed (left as written, and why) or applied "
        "(rewritten); in accsat-cc the compiler's own -fopt-info, -Rpass=accsat, -Minfo "
        "ask too",
        parse=Choice(REMARKS, "a kind of remarks", "|".join(REMARKS)),
        stage="pipeline",
        key=False,
    )
    record: str | None = setting(
        None,
        "append an optimization record per kernel to PATH (JSON Lines: its report, and "
        "its lines as written and as rewritten); accsat report reads them",
        parse=Text("PATH"),
        stage="pipeline",
        key=False,
    )
    preprocess: PreprocessOptions = field(default_factory=PreprocessOptions)
    # the compiler and flags the type check compiles with (toolchain.ptx.check_command;
    # accsat-cc: the user's); empty: the preprocessor's, with its flags. The cache key
    # takes the compiler only: the flags that change C's types are the preprocessing's
    check_command: tuple[str, ...] = field(
        default=(), metadata={"key": lambda command: command[:1]}
    )
    line_directives: str | None = None  # file name for #line directives (the wrapper's)
    # a tuning database's choices for this file (accsat.tune.db.choices): (first line,
    # last line, config) per compute construct; a kernel whose line lies in one gets that
    # config (ORIG: left as written), the others ``variant``
    kernel_configs: tuple[tuple[int, int, str], ...] = ()
    # what ptxas said of this file's device entries (accsat-cc's checked ``keep``,
    # wrapper/ptxkeep.py): (first line, last line, registers of the entry as written,
    # most values a kernel in those lines may hold at a time, None: no cap, -1: keep it
    # as written)
    kernel_registers: tuple[tuple[int, int, int | None, int | None], ...] = ()

    def for_target(self, gpu: bool) -> Options:
        """These options for a compile that makes GPU code (``gpu``) or not: ``auto``
        becomes ``keep`` or ``any`` (toolchain.compilers.gpu_target says which)."""
        if self.registers != AUTO:
            return self
        return replace(self, registers=KEEP if gpu else ANY)

    def for_config(self, config: str) -> Options:
        """These options for a kernel or build given ``config`` (a variant, with its
        register budget where it names one; see ``split_config``)."""
        name, budget = split_config(config)
        if name == self.variant and budget in (None, self.registers):
            return self
        return replace(self, variant=name, registers=self.registers if budget is None else budget)

    @property
    def spec(self) -> Variant:
        from .errors import AccsatError

        try:
            return variant(self.variant)
        except ValueError as exc:
            raise AccsatError(str(exc)) from None

    @property
    def bulk(self) -> bool:
        return self.spec.bulk

    def config_for(self, line: int) -> str:
        """The config of the kernel whose loop is on ``line``: its construct's, else ``variant``."""
        for first, last, config in self.kernel_configs:
            if first <= line <= last:
                return config
        return self.variant

    def registers_for(self, line: int) -> tuple[int | None, int | None]:
        """(ptxas's registers as written, most values held) for the kernel on ``line``."""
        written: int | None = None
        held: int | None = None
        for first, last, regs, most in self.kernel_registers:
            if first <= line <= last:
                if regs is not None:
                    written = regs if written is None else max(written, regs)
                if most is not None:
                    held = most if held is None else min(held, most)
        return written, held

    @property
    def extraction(self) -> ExtractConfig:
        """What the extraction stage is asked to do."""
        return ExtractConfig(
            self.extract_seconds,
            self.solver,
            self.use_ilp,
            self.extract_stall or None,
            self.extract_gap,
        )

    def key(self) -> str:
        """A stable text of every setting that enters cache keys and every other field."""
        return json.dumps(key_data(self), sort_keys=True, default=str)


@dataclass(frozen=True)
class ExtractConfig:
    """The extraction stage's settings (``Options.extraction``): a time limit for all
    its stages, the MILP solver, whether the ILP runs after greedy, and when the ILP
    stops early (``stall`` CPU seconds without a better choice, or within the relative
    ``gap`` of its bound). Called directly, extraction runs the ILP to a proof."""

    time_limit: float = Options.extract_seconds
    solver: str = Options.solver
    use_ilp: bool = True
    stall: float | None = None
    gap: float = 0.0
