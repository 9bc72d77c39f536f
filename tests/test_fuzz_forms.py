"""The fuzzer's C type forms (issue 35) and its programs' flags (tests/fuzz/forms.py).

* ``test_forms_have_the_types_the_generator_assumes``: every object and enumerator
  constant of a few hundred kernels' forms has, under each flag set, the promoted type,
  signedness and width the generator assumes (gcc's _Generic, conversions of -1): the
  generator's own oracle, independent of accsat's.
* ``test_generator_writes_every_type_form``: a thousand kernels write each form of the
  issue somewhere (enums with and without a negative enumerator and past 32 bits, in
  arrays and struct members, enumerator constants and arithmetic with them, mode
  typedefs of each width signed and unsigned, bit-fields of each width and kind read
  in the body, plain char arrays and bytes above 127).
* ``test_programs_with_flags_pass_ubsan``: gcc's UB sanitizer finds nothing in programs
  built with their flags; ``test_programs_compile_for_ubsan_with_the_known_bugs_avoided``:
  programs of many kernels written as a campaign writes them compile for it; ``test_wrapv_programs_overflow_without_it``: what -fwrapv
  programs compute does overflow (the sanitizer says so once -fwrapv is dropped).
* ``test_harness_gives_accsat_the_programs_flags``: the header's flags reach accsat as
  ``accsat rewrite f.c -funsigned-char -fshort-enums -fwrapv`` would pass them.
* ``test_fuzzer_catches_a_target_without_its_flags``: with accsat's target put back to
  the defaults whatever the flags (a test double), the harness finds the kernels whose
  enums -fshort-enums narrows.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from difftest import accsat_import_error

_SKIP = accsat_import_error()
pytestmark = pytest.mark.skipif(_SKIP is not None, reason=_SKIP or "")

from fuzz.forms import NO_FLAGS, Flags, Forms, int_range  # noqa: E402
from fuzz.gen import KNOWN_BUGS, RandomChooser, gen_kernel, program_from_seeds  # noqa: E402
from fuzz.harness import CC, check_program, compile_all, program_flags, run  # noqa: E402

ALL = Flags(unsigned_char=True, short_enums=True, wrapv=True)
_KIND = {"int": 1, "unsigned": 2, "long": 3, "ulong": 4}


def _forms(seeds, flags: Flags) -> list[Forms]:
    kernels = [gen_kernel(RandomChooser(s), f"k{s}", frozenset(), flags) for s in seeds]
    return [kn.forms for kn in kernels if kn.forms is not None]


def _checks(fm: Forms) -> list[tuple[str, str]]:
    """(C condition that is true when the generator is wrong, what it checks) of every
    object and enumerator constant of ``fm``."""
    out = []
    for p in fm.places:
        x = p.at("0")
        want = _KIND[p.ty.promoted()]
        out.append((f"KIND(+({x})) != {want}", f"{x}: promotes to {p.ty.promoted()}"))
        biggest = int_range(p.ty.bits, p.ty.signed)[1]
        if p.ty.bitfield:  # -1 stored: the width's all-ones, or -1 if signed
            top = -1 if p.ty.signed else biggest
            out.append((f"({x} = -1, (long long){x} != {top}LL)", f"{x}: {p.ty.spelled}"))
        else:
            t = p.ty.spelled
            top = "-1LL" if p.ty.signed else f"{biggest}ULL"
            cmp = "(long long)" if p.ty.signed else "(unsigned long long)"
            out.append((f"{cmp}({t})-1 != {top}", f"{t}: {p.ty.bits} bits"))
    for en in fm.enums:
        for name, v in en.enumerators:
            want = _KIND[en.constant(name, fm.flags).promoted()]
            out.append((f"KIND(+({name})) != {want} || {name} != {v}LL", f"{name} = {v}"))
    return out


@pytest.mark.parametrize("flags", [NO_FLAGS, ALL], ids=["plain", "unsigned-char-short-enums"])
def test_forms_have_the_types_the_generator_assumes(tmp_path, flags):
    forms = _forms(range(300), flags)
    assert len(forms) > 60
    lines = [
        "#include <stdio.h>",
        "#define KIND(x) _Generic((x), int: 1, unsigned: 2, long: 3, unsigned long: 4, default: 0)",
    ]
    checks = []
    for fm in forms:
        lines += fm.declarations()
        checks += _checks(fm)
    lines += ["int main(void)", "{"]
    for n, (cond, _) in enumerate(checks):
        lines.append(f'  if ({cond}) printf("%d\\n", {n});')
    lines += ['  printf("done\\n");', "  return 0;", "}"]
    src = tmp_path / "forms.c"
    src.write_text("\n".join(lines) + "\n")
    status = compile_all([(src, tmp_path / "forms.x")], "-fopenacc", flags.cflags())
    assert status[src] is None, status[src]
    rc, out = run(tmp_path / "forms.x")
    assert rc == 0 and out.endswith(b"done\n"), out
    wrong = [checks[int(x)][1] for x in out.split()[:-1]]
    assert not wrong, wrong


def _found(kn) -> set[str]:
    """The type forms kernel ``kn`` declares and uses in its body."""
    fm = kn.forms
    if fm is None:
        return set()
    body = "\n".join(kn.body)
    found = set()
    for p in fm.places:
        ref = f"{p.name}[" if not p.member else f".{p.member}"
        if ref not in body:
            continue
        ty = p.ty
        if ty.kind == "enum" and ty.enum is not None:
            values = ty.enum.values()
            found.add(
                "enum past 32 bits"
                if max(values) >= 1 << 32
                else "enum with a negative enumerator"
                if min(values) < 0
                else "enum without a negative enumerator"
            )
            found.add("enum struct member" if p.member else "enum array")
            if f"{p.at('')[:-2]}[" in body and f"= {ty.enum.enumerators[0][0]}" in body:
                found.add("enum store")
        elif ty.kind == "mode":
            found.add(f"mode {ty.bits} {'signed' if ty.signed else 'unsigned'}")
        elif ty.kind == "bitfield":
            found.add(f"bit-field {ty.bits}")
            declared = ty.spelled.split(":")[0]
            found.add(f"bit-field {'_Bool' if declared == '_Bool' else ty.signed}")
        elif ty.kind == "char" and ty.spelled == "char":
            found.add("plain char array")
    for en in fm.enums:
        if any(n in body for n, _ in en.enumerators):
            found.add("enumerator constant")
    if "'\\x8" in body or "'\\xc" in body or "'\\xf" in body:
        found.add("byte above 127")
    return found


WANTED = {
    "enum without a negative enumerator",
    "enum with a negative enumerator",
    "enum past 32 bits",
    "enum array",
    "enum struct member",
    "enum store",
    "enumerator constant",
    *(f"mode {bits} {s}" for bits in (8, 16, 32, 64) for s in ("signed", "unsigned")),
    *(f"bit-field {w}" for w in (1, 3, 7, 16, 31, 32)),
    "bit-field True",
    "bit-field False",
    "bit-field _Bool",
    "plain char array",
    "byte above 127",
}


def test_generator_writes_every_type_form():
    found: set[str] = set()
    for s in range(1000):
        found |= _found(gen_kernel(RandomChooser(s), "k0", KNOWN_BUGS, NO_FLAGS))
    assert found >= WANTED, sorted(WANTED - found)


def _ubsan(tmp_path: Path, text: str, flags: tuple[str, ...], name: str):
    src = tmp_path / f"{name}.c"
    src.write_text(text)
    # -fopenmp (acc directives ignored: a run is sequential anyway): gcc's OpenACC lowering
    # refuses the sanitizer's own data in an acc routine ("requires a 'declare' directive")
    cmd = [CC, "-O0", "-fopenmp", "-foffload=disable", "-w", *flags, str(src), "-lm"]
    proc = subprocess.run([*cmd, "-o", str(tmp_path / f"{name}.x")], capture_output=True, text=True)
    if proc.returncode and "sanitize" in proc.stderr and "cannot find" in proc.stderr:
        pytest.skip(f"no libubsan: {proc.stderr[-300:]}")
    assert proc.returncode == 0, proc.stderr[-3000:]
    return subprocess.run(
        [str(tmp_path / f"{name}.x")], capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    "flags",
    [Flags(unsigned_char=True, short_enums=True), Flags(wrapv=True), ALL],
    ids=lambda f: "_".join(f.cflags()),
)
def test_programs_with_flags_pass_ubsan(tmp_path, flags):
    text, _ = program_from_seeds(list(range(2000, 2020)), "acc", KNOWN_BUGS, flags)
    assert program_flags(text) == flags.cflags()
    sanitize = ["-fsanitize=undefined,float-cast-overflow", "-fno-sanitize-recover=all"]
    proc = _ubsan(tmp_path, text, (*flags.cflags(), *sanitize), "ub")
    assert proc.returncode == 0 and "runtime error" not in proc.stderr, proc.stderr[-3000:]


@pytest.mark.parametrize(
    ("flags", "model"),
    [(NO_FLAGS, "acc"), (ALL, "omp")],
    ids=["plain-acc", "all-omp"],
)
def test_programs_compile_for_ubsan_with_the_known_bugs_avoided(tmp_path, flags, model):
    """Programs of many kernels, the shapes of gen.KNOWN_BUGS avoided as a campaign avoids
    them, compile with their flags for gcc's UB sanitizer (which instruments subscripts: an
    atomic update ``x = x * (y)`` whose ``x`` reads memory is then "invalid form")."""
    text, _ = program_from_seeds(list(range(300, 450)), model, KNOWN_BUGS, flags)
    src = tmp_path / "many.c"
    src.write_text(text)
    cmd = [
        CC,
        "-fsyntax-only",
        "-w",
        "-fsanitize=undefined",
        {"acc": "-fopenacc", "omp": "-fopenmp"}[model],
    ]
    done = subprocess.run([*cmd, *flags.cflags(), str(src)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]


def test_wrapv_programs_overflow_without_it(tmp_path):
    """Signed arithmetic that overflows is written in -fwrapv programs, and only there."""
    text, _ = program_from_seeds(list(range(2000, 2030)), "acc", KNOWN_BUGS, Flags(wrapv=True))
    proc = _ubsan(tmp_path, text, ("-fsanitize=signed-integer-overflow",), "wrap")
    assert proc.returncode == 0 and "signed integer overflow" in proc.stderr, proc.stderr[-2000:]


def test_harness_gives_accsat_the_programs_flags(tmp_path):
    """``check_program`` rewrites a program with its header's flags as ``accsat rewrite``
    does when given them on its command line (kernels with forms and no call with effects,
    fixed limits: the two rewrites are the same computation)."""
    from accsat.frontend.preprocess import PreprocessOptions
    from accsat.options import Limits, Options
    from accsat.pipeline import rewrite_file

    text, kernels = program_from_seeds([2001, 2007], "acc", KNOWN_BUGS, ALL)
    assert all(kn.forms is not None for kn in kernels)
    flags = program_flags(text)
    assert flags == ("-funsigned-char", "-fshort-enums", "-fwrapv")
    src = tmp_path / "p.c"
    src.write_text(text)
    limits = Limits(nodes=4000, iterations=4, seconds=600.0)
    options = Options(use_ilp=False, limits=limits, preprocess=PreprocessOptions(flags=flags))
    inside = rewrite_file(src, options)
    assert any(k.status == "rewritten" for k in inside.kernels)
    cli = [sys.executable, "-m", "accsat.cli", "rewrite", str(src), "--no-ilp", *flags]
    cli += ["--max-nodes", "4000", "--max-iterations", "4", "--saturation-seconds", "600"]
    done = subprocess.run(cli, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == inside.text


# kernels whose enums -fshort-enums narrows, in arithmetic that shows it
SHORT_ENUM_SEEDS = [6, 33]


def test_fuzzer_catches_a_target_without_its_flags(tmp_path, monkeypatch):
    import accsat.frontend.load as load
    from accsat.frontend import ctypes as ct

    flags = Flags(short_enums=True)
    text, _ = program_from_seeds(SHORT_ENUM_SEEDS, "acc", KNOWN_BUGS, flags)
    cse = [("cse", False)]
    assert not check_program(text, tmp_path / "real", cse, extract_seconds=2.0)
    monkeypatch.setattr(load, "read_target", lambda preprocessed, flags: ct.Target())
    findings = check_program(text, tmp_path / "default", cse, extract_seconds=2.0)
    assert findings, "the harness did not notice accsat reading the enums without the flags"
