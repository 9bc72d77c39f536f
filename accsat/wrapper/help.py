"""The text of ``accsat-cc --accsat-help``."""

from ..options import DEFAULT_VARIANT, VARIANTS

HELP = """\
usage: accsat-cc COMPILER [ARGS...]
       accsat-cc --accsat-help | --accsat-version

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
  as it does without accsat. The exit status is always the compiler's.

Environment
  ACCSAT_VARIANT=NAME   @VARIANTS@ (default @DEFAULT@);
                        as accsat rewrite --variant
  ACCSAT_DISABLE=1      run the compiler untouched (pure pass-through)
  ACCSAT_STRICT=1       fail (exit 1, nothing compiled) instead of compiling
                        the original when accsat fails on a file
  ACCSAT_REPORT=PATH    append one JSON object per kernel (JSON Lines, the
                        format of accsat rewrite --report); whole lines under
                        a lock, safe with make -j
  ACCSAT_VERIFY=1       translation-validate every rewritten kernel (as accsat
                        rewrite --verify); a kernel whose rewrite fails is
                        compiled as written, after a warning line
  ACCSAT_KEEP=DIR       keep each rewritten source as DIR/<its absolute path>
  ACCSAT_TIMEOUT=SEC    time budget of the rewrite of one file (default 300);
                        past it the original is compiled
  ACCSAT_CACHE=0        no cache
  ACCSAT_CACHE_DIR=DIR  the cache (default $XDG_CACHE_HOME/accsat or
                        ~/.cache/accsat). Rewrites are stored by the hash of
                        the source after preprocessing, its text, the flags,
                        the variant, the rules, the cost models and accsat's
                        code, so an unchanged file costs one preprocessor run
                        and a lookup. Delete the folder to empty it.
  ACCSAT_VERBOSE=1      one line per file: kernels rewritten, from the cache

More: docs/accsat-cc.md in accsat's sources.
"""

HELP = HELP.replace("@VARIANTS@", ", ".join(VARIANTS)).replace("@DEFAULT@", DEFAULT_VARIANT)
