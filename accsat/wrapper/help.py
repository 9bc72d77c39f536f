"""The text of ``accsat-cc --help`` (also ``-h`` and ``--accsat-help``).

The list of settings is made from ccconfig.SETTINGS (the declared settings), so a
new setting is in the help as soon as it is declared.
"""

from __future__ import annotations

import textwrap

from ..ccconfig import SETTINGS, config_file

INTRO = """\
usage: accsat-cc COMPILER [ARGS...]
       accsat-cc -h | --help | --version
       accsat-cc --stats | --zero-stats | --clear | --show-config
       accsat-cc --stop-server

accsat-cc runs COMPILER with ARGS after rewriting the innermost parallel loops
of each C source among ARGS with accsat. Put it in front of any C compiler:

    make CC="accsat-cc gcc"            make CC="accsat-cc nvc"
    make CC="accsat-cc clang"          make CC="accsat-cc ccache gcc"

COMPILER is any compiler command or path (gcc, clang, nvc, gcc-12,
/opt/.../nvc); a launcher in front of it (ccache, sccache, distcc, icecc) is
kept in front of it.

What it does
  The C sources (.c, or any file after -x c) are rewritten with the
  preprocessing flags the compiler gets (-I -D -U -include -imacros -isystem
  -iquote -idirafter -std= -O... -Wp,...); -fopenacc/-acc define _OPENACC and
  -fopenmp/-mp define _OPENMP. The results go to a private temporary folder
  (one per call, removed on exit and on Ctrl-C) and the compiler runs with the
  same arguments, the rewritten copies in place of the files they came from,
  and -iquote DIR (-I DIR for compilers other than gcc and clang) for each
  file's folder so that #include "x.h" finds the same headers. A file with no
  kernel accsat rewrote is compiled as it is.

  Everything names your files: #line directives make warnings, errors and
  debug line tables point at your file and lines (and -fdebug-prefix-map the
  DWARF unit name, with -g); -MD/-MMD dependency files name your source;
  -c without -o writes foo.o where the compiler would; several sources
  compiled (and linked) in one call, objects, archives and libraries work
  as usual.

  Passed to the compiler untouched: -E, -M, -MM, --version, -v, -V,
  -dumpversion, -dumpmachine, -print-*, -###, --help, -fsyntax-only, calls
  with no C source (linking, C++, assembler, Fortran...), a source read from
  standard input (-), and C++ drivers (g++, clang++, nvc++) on .c files unless
  -x c says C.

Never breaks a build
  If accsat fails on a file (a construct it cannot parse, such as statement
  expressions or typeof, a preprocessor error, a timeout, an internal error),
  it prints one line
      accsat-cc: file:line: reason; compiling the original
  and compiles the file as written. If the rewritten sources do not compile,
  the original command runs instead, so an error in your code reads exactly
  as it does without accsat. The exit status is always the compiler's. A bad
  setting is one line too, and the call compiles the original.

The cache
  Rewrites are stored by the hash of the source after preprocessing, its text,
  the flags, the settings, the rules, the cost models, accsat's code and the
  versions of Python, pycparser, egglog, PuLP and HiGHS, so an unchanged file
  costs one preprocessor run and a lookup. Past ACCSAT_CACHE_MAX the least
  recently used entries are removed.
    --stats        hits, misses, fallbacks, kernels rewritten, time spent and
                   saved, the cache's size
    --zero-stats   set the statistics to zero
    --clear        remove every entry (the statistics stay)
    --show-config  every setting, its value and where it came from
  ccache's spellings work too (-s or --show-stats, -z, -C, -p), and several
  commands run in the order given (accsat-cc -z -s).

The compile server
  A file the cache does not have is rewritten by this user's compile server,
  which keeps the pipeline loaded: accsat-cc starts it when none runs and it
  exits after ACCSAT_SERVER_IDLE seconds without work (ACCSAT_SERVER=0: none).
  When it cannot be reached the file is rewritten by accsat-cc itself.
    --stop-server  stop this user's compile servers

Floating point
  Flags that ask for exact floating point (-ffp-contract=off or =on,
  -frounding-math, -fno-associative-math, -ffp-model=strict or =precise,
  nvc's -Mnofma, -gpu=nofma and -Kieee, ...; the last word wins, -ffast-math
  cancels) make the rewrite exact, as ACCSAT_FP_EXACT=1: no FMA, no float
  reassociation (ACCSAT_FP_EXACT=0 set explicitly keeps them).

ccache
  Put accsat-cc first: CC="accsat-cc ccache gcc". With CC="ccache accsat-cc
  gcc" ccache does not see the ACCSAT_* settings and hands back objects made
  with other ones; accsat-cc says so when it sees ccache run it.

Settings
  Each is an environment variable or a key of @CONFIG@
  (the name in lower case without ACCSAT_, e.g. timeout = 60); the environment
  wins over the file. Yes/no values: 1, yes, true, on / 0, no, false, off.
"""

OUTRO = """
More: docs/accsat-cc.md in accsat's sources.
"""


def _rows(settings) -> list[str]:
    lines = []
    for s in settings:
        head = f"  {s.env}={s.metavar}"
        shown = s.default_text or s.default_value() not in (None, False, ())
        text = f"{s.help} (default {s.shown_default()})" if shown else s.help
        body = textwrap.wrap(text, 78 - 26)
        if len(head) > 24:
            lines.append(head)
            head = ""
        lines.append(f"{head:<26}{body[0]}")
        lines += [" " * 26 + more for more in body[1:]]
    return lines


def settings_text() -> str:
    own = [s for s in SETTINGS if s.stage == "wrapper"]
    rewrite = [s for s in SETTINGS if s.stage != "wrapper"]
    lines = _rows(own)
    lines += [
        "",
        "  The rewrite's settings, as accsat rewrite's options (ACCSAT_FP_EXACT=1 is",
        "  --fp-exact, ACCSAT_MAX_NODES=N is --max-nodes N, ACCSAT_ILP=0 is --no-ilp):",
    ]
    lines += _rows(rewrite)
    return "\n".join(lines) + "\n"


def help_text() -> str:
    return (
        INTRO.replace("@CONFIG@", str(config_file() or "~/.config/accsat/accsat.toml"))
        + settings_text()
        + OUTRO
    )
