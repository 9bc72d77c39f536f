"""SPEC ACCEL's flags: the shared table (accsat.toolchain.compilers) plus what SPEC adds.

The programming model comes from the benchmark's number (3xx OpenACC, 5xx
OpenMP); the table gives the compiler's flags for it and the target. SPEC
sources are compiled with ``-DSPEC`` (runspec adds its own defines itself, so
the config file does not) and linked with ``-lm``.
"""

from __future__ import annotations

from accsat.toolchain.compilers import Compiler, Flags, flags_for

from .layout import PAPER_BENCHMARKS, model

SPEC_DEFINES = ("-DSPEC",)
LIBS = ("-lm",)


def spec_flags(compiler: Compiler, benchmark: str, target: str) -> Flags | str:
    m = model(benchmark)
    if m == "opencl":
        return "OpenCL benchmarks (1xx) are host code plus OpenCL kernels: not accsat's input"
    if m == "unknown":
        return f"cannot tell the programming model of {benchmark} from its number"
    return flags_for(compiler, m, target)


def flags_listing(compilers: list[Compiler], target: str, benchmarks=PAPER_BENCHMARKS) -> str:
    """One line per benchmark and compiler: what the harness compiles it with."""
    lines = [
        f"# {target}: direct mode adds {' '.join(SPEC_DEFINES)} and object.pm's $bench_flags; "
        "runspec mode writes CFLAGS as OPTIMIZE (runspec adds its own defines)"
    ]
    for b in benchmarks:
        for c in compilers:
            f = spec_flags(c, b, target)
            if isinstance(f, str):
                lines.append(f"{b:16} {model(b):8} {c.name:6} {target:6} unsupported: {f}")
                continue
            env = " ".join(f"{k}={v}" for k, v in f.run_env)
            lines.append(
                f"{b:16} {model(b):8} {c.name:6} {target:6} "
                f"CC='accsat-cc {c.command}' CFLAGS='{' '.join(f.compile)}' "
                f"LDFLAGS='{' '.join((*f.link, *LIBS))}'" + (f" run: {env}" if env else "")
            )
    return "\n".join(lines)
