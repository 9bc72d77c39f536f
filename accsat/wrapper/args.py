"""Read a compiler command line: which arguments are C sources accsat should rewrite,
which flags preprocessing needs, and whether the call must pass through untouched.

Nothing here runs anything; :func:`classify` turns ``[COMPILER, ARGS...]`` (a
launcher such as ``ccache`` may come first) into an :class:`Invocation`.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from ..frontend.target import FLAGS as TARGET_FLAGS
from ..toolchain.compilers import family_of
from .fpflags import exact_because

LAUNCHERS = frozenset({"ccache", "sccache", "distcc", "icecc", "buildcache", "pump"})

# options whose value may be the next argument (gcc, clang, nvc spellings)
SEPARATE = frozenset(
    {
        "-o",
        "-x",
        "-I",
        "-D",
        "-U",
        "-include",
        "-imacros",
        "-isystem",
        "-iquote",
        "-idirafter",
        "-iprefix",
        "-iwithprefix",
        "-iwithprefixbefore",
        "-isysroot",
        "-imultilib",
        "-MF",
        "-MT",
        "-MQ",
        "-MJ",
        "-L",
        "-l",
        "-Xlinker",
        "-Xassembler",
        "-Xpreprocessor",
        "-Xclang",
        "-mllvm",
        "-Xopenmp-target",
        "-aux-info",
        "-u",
        "-T",
        "-e",
        "-z",
        "-A",
        "-B",
        "--param",
        "-dumpbase",
        "-dumpbase-ext",
        "-dumpdir",
        "-wrapper",
        "-Tbss",
        "-Tdata",
        "-Ttext",
        "-arch",
        "-target",
        "--sysroot",
        "-working-directory",
        "-ivfsoverlay",
        "-resource-dir",
        "-include-pch",
        "-serialize-diagnostics",
        "-cxx-isystem",
        "-F",
        "-framework",
        "-rpath",
        "-install_name",
        "--serialize-diagnostics",
        "-Xcuda-ptxas",
        "-Xcuda-fatbinary",
        "-Xarch_host",
        "-Xarch_device",
        "-Xoffload-linker",
    }
)

# any of these makes the whole call pass through (it compiles nothing, or only preprocesses)
PASS_EXACT = frozenset(
    {
        "-E",
        "-M",
        "-MM",
        "--version",
        "-v",
        "-V",
        "-dumpversion",
        "-dumpfullversion",
        "-dumpmachine",
        "-dumpspecs",
        "-###",
        "--help",
        "--target-help",
        "-fsyntax-only",
        "-dryrun",
        "-show",
        "--verbose",
    }
)
PASS_PREFIX = ("-print-", "--print-", "--help=")

# preprocessing flags accsat's own cpp run gets (joined or followed by their value)
CPP_SEPARATE = frozenset(
    {
        "-I",
        "-D",
        "-U",
        "-include",
        "-imacros",
        "-isystem",
        "-iquote",
        "-idirafter",
        "-iprefix",
        "-iwithprefix",
        "-iwithprefixbefore",
        "-Xpreprocessor",
    }
)
CPP_EXACT = frozenset(
    {
        "-ansi",
        "-pthread",
        "-undef",
        "-trigraphs",
        "-ffast-math",
        "-fno-fast-math",
        "-ffinite-math-only",
        "-fno-finite-math-only",
        "-fno-math-errno",
        "-fmath-errno",
        "-funsigned-char",
        "-fsigned-char",
        "-fno-unsigned-char",
        "-fno-signed-char",
        "-fgnu89-inline",
        "-fno-gnu89-inline",
        "-fshort-wchar",
        # what the compiler makes of C's types and overflow (frontend/target.py reads them)
        *TARGET_FLAGS,
        "-m32",
        "-m64",
        "-mx32",
    }
)
CPP_PREFIX = ("-std=", "-Wp,", "-O", "-mfpmath=", "-fexcess-precision=", "-mlong-double-")

COLOR_FLAGS = (
    "-fdiagnostics-color",
    "-fno-diagnostics-color",
    "-fcolor-diagnostics",
    "-fno-color-diagnostics",
)

C_SUFFIXES = (".c",)  # .C is C++ to gcc


@dataclass
class Source:
    index: int  # position in Invocation.args
    path: str  # as the user spelled it


@dataclass
class Invocation:
    launcher: list[str]  # e.g. ["ccache"], or []
    compiler: str
    args: list[str]  # the compiler's arguments (response files expanded)
    family: str  # "gcc" | "clang" | "nvc" | "other"
    sources: list[Source] = field(default_factory=list)  # C sources to rewrite
    passthrough: str | None = None  # why the call must run untouched
    cpp_flags: list[str] = field(default_factory=list)
    openacc: bool = False
    openmp: bool = False
    debug: bool = False  # -g given (and not -g0 last)
    color_given: bool = False
    deps: bool = False  # -MD/-MMD: the compiler writes a dependency file
    dep_file: str | None = None  # -MF value
    output: str | None = None  # -o value
    fp_exact: str | None = None  # the flag asking for exact floating point (fpflags.py)
    c89: str | None = None  # the flag asking for declarations before statements
    remarks: frozenset[str] = frozenset()  # the kinds of remark the compiler is asked for

    @property
    def command(self) -> list[str]:
        return [*self.launcher, self.compiler, *self.args]

    @property
    def gnu_like(self) -> bool:
        """Takes gcc's -iquote, -fdebug-prefix-map and -fdiagnostics-color."""
        return self.family in ("gcc", "clang")


class UsageError(Exception):
    pass


def split_compiler(argv: list[str]) -> tuple[list[str], str, list[str]]:
    """``[launcher...] compiler args...`` -> (launcher, compiler, args)."""
    launcher: list[str] = []
    i = 0
    while i < len(argv) and os.path.basename(argv[i]) in LAUNCHERS:
        launcher.append(argv[i])
        i += 1
    if i >= len(argv):
        raise UsageError(
            "no compiler given (usage: accsat-cc COMPILER [ARGS...]; see accsat-cc --help)"
        )
    if argv[i].startswith("-"):
        raise UsageError(
            f"the first argument must be the compiler, not '{argv[i]}' "
            "(usage: accsat-cc COMPILER [ARGS...]; see accsat-cc --help)"
        )
    return launcher, argv[i], argv[i + 1 :]


def expand_response_files(args: list[str], depth: int = 0) -> list[str]:
    """``@file`` arguments replaced by the arguments the file holds (as gcc reads them)."""
    out: list[str] = []
    for a in args:
        if a.startswith("@") and len(a) > 1 and os.path.isfile(a[1:]) and depth < 10:
            try:
                with open(a[1:], encoding="utf-8", errors="surrogateescape") as f:
                    text = f.read()
            except (OSError, UnicodeDecodeError):
                out.append(a)
                continue
            import shlex

            out += expand_response_files(shlex.split(text), depth + 1)
        else:
            out.append(a)
    return out


def _lang_is_c(lang: str | None, path: str, cxx_driver: bool) -> bool:
    if lang is not None and lang != "none":
        return lang == "c"
    return path.endswith(C_SUFFIXES) and not cxx_driver


def classify(argv: list[str]) -> Invocation:
    launcher, compiler, raw = split_compiler(argv)
    args = expand_response_files(raw)
    family, cxx = family_of(compiler)
    inv = Invocation(launcher, compiler, args, family)
    lang: str | None = None
    i = 0
    n = len(args)
    while i < n:
        a = args[i]
        value = args[i + 1] if i + 1 < n else None
        takes_next = a in SEPARATE and value is not None
        if a == "-":
            inv.passthrough = "source from standard input"
        elif a in PASS_EXACT or a.startswith(PASS_PREFIX):
            inv.passthrough = f"{a} given"
        elif a == "-x" and value is not None:
            lang = value
        elif a.startswith("-x") and len(a) > 2:
            lang = a[2:]
        elif a == "-o" and value is not None:
            inv.output = value
        elif a.startswith("-o") and len(a) > 2:
            inv.output = a[2:]
        elif a in ("-MD", "-MMD"):
            inv.deps = True
        elif a == "-MF" and value is not None:
            inv.dep_file = value
        elif a.startswith("-MF") and len(a) > 3:
            inv.dep_file = a[3:]
        elif a in ("-fopenacc", "-acc") or a.startswith(("-acc=", "-fopenacc=")):
            inv.openacc = True
        elif a in ("-fno-openacc", "-noacc"):
            inv.openacc = False
        elif a in ("-fopenmp", "-mp", "-qopenmp", "-fiopenmp", "-openmp") or a.startswith(
            ("-fopenmp=", "-mp=")
        ):
            inv.openmp = True
        elif a in ("-fno-openmp", "-nomp", "-qno-openmp"):
            inv.openmp = False
        elif a.startswith("-g"):
            inv.debug = a != "-g0"
        elif a.startswith(COLOR_FLAGS):
            inv.color_given = True
        elif a.startswith("-Wp,") and any(p.startswith("-M") for p in a.split(",")[1:]):
            inv.deps = True  # dependency output through the preprocessor: not for our cpp
            parts = a.split(",")
            for j, part in enumerate(parts[:-1]):
                if part in ("-MD", "-MMD", "-MF"):
                    inv.dep_file = parts[j + 1]
            i += 1
            continue
        if a in CPP_SEPARATE and value is not None and not value.startswith("-M"):
            inv.cpp_flags += [a, value]
        elif (
            a in CPP_EXACT
            or a.startswith(CPP_PREFIX)
            or (a[:2] in ("-I", "-D", "-U") and len(a) > 2)
            or (a.startswith("-march=") and family in ("gcc", "clang"))
        ):
            inv.cpp_flags.append(a)
        if takes_next:
            i += 2
            continue
        if not a.startswith("-") and _lang_is_c(lang, a, cxx) and os.path.isfile(a):
            inv.sources.append(Source(i, a))
        i += 1
    if inv.passthrough is None and not inv.sources:
        inv.passthrough = "no C source to rewrite"
    inv.fp_exact = exact_because(args)
    inv.c89 = c89_because(args)
    inv.remarks = remarks_asked(args)
    return inv


def remarks_asked(args: list[str]) -> frozenset[str]:
    """The kinds of remark (remarks.APPLIED, MISSED) the compiler's own flags ask of it,
    which accsat's remarks then follow: gcc's ``-fopt-info[-KINDS][=FILE]`` (alone:
    optimized), clang's ``-Rpass=RE`` / ``-Rpass-missed=RE`` / ``-Rpass-analysis=RE``
    where RE matches ``accsat``, nvc's ``-Minfo[=...]`` (both) and ``-Mneginfo[=...]``."""
    from ..remarks import ALL, APPLIED, MISSED, PREFIX, kinds

    found: list[str] = []
    for a in args:
        if a == "-fopt-info" or a.startswith(("-fopt-info-", "-fopt-info=")):
            words = set(a.split("=", 1)[0].split("-")[3:])
            asked = [ALL] if words & {"all", "note"} else []
            asked += [MISSED] * ("missed" in words) + [APPLIED] * ("optimized" in words)
            found += asked or [APPLIED]
        elif a.startswith(("-Rpass=", "-Rpass-missed=", "-Rpass-analysis=")):
            flag, pattern = a.split("=", 1)
            try:
                matches = re.search(pattern, PREFIX) is not None
            except re.error:
                matches = False
            if matches:
                found.append(APPLIED if flag == "-Rpass" else MISSED)
        elif a == "-Minfo" or a.startswith("-Minfo="):
            found.append(ALL)
        elif a == "-Mneginfo" or a.startswith("-Mneginfo="):
            found.append(MISSED)
    return kinds(found)


# -std= values whose C has no declaration after a statement in a block
_C89_STDS = frozenset(("c89", "c90", "gnu89", "gnu90", "iso9899:1990", "iso9899:199409"))
_AFTER_STATEMENT = ("-Wdeclaration-after-statement", "-Werror=declaration-after-statement")


def c89_because(args: list[str]) -> str | None:
    """The flag (as given) for which temporaries must be declared first in their block:
    the last ``-std=``/``-ansi`` naming C89 or C90, or a warning about declarations
    after statements that no later ``-Wno-`` turns off."""
    std: str | None = None
    warn: str | None = None
    for a in args:
        if a.startswith("-std="):
            std = a if a[5:] in _C89_STDS else None
        elif a == "-ansi":
            std = a
        elif a in _AFTER_STATEMENT:
            warn = a
        elif a == "-Wno-declaration-after-statement":
            warn = None  # (-Wno-error= leaves the warning on)
    return std or warn
