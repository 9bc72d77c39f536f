"""Where real applications keep their work (issue 37): accsat over mini-apps, per hot unit.

    python benchmarks/apps_census.py DIR [DIR ...] [--variant accsat] [--verify quick|full|none]
                                     [--json OUT]

Each DIR is one of accsat's own mini-apps (``tests/apps/NAME``, or ``tests/apps`` for all
of them, described by ``tests/apps/apps.toml``) or a public mini-app fetched outside this
repository (never committed) whose recipe is below: an XSBench or RSBench ``openacc`` /
``openmp-offload`` folder, a minisweep checkout, PolyBench/ACC's ``OpenACC`` folder
(cavazos-lab/PolyBench-ACC: one recipe per benchmark, ``polybench``).  For every source of
the app, accsat rewrites it in this process with the app's preprocessing flags (exact
floating point where they ask for it, as accsat-cc would) and prints, per unit of a hot
function (where the app's arithmetic is): kind, file:line, function, status, reason, loads
before -> after; and each hot function no unit reached.

``--verify`` builds the app through accsat-cc (gcc, host code: ``-foffload=disable``) in a
private copy and runs it: ``quick`` compares its checksum line (accsat's own apps and
PolyBench: everything it printed) and exit status with gcc's build of the original on a
short run; ``full`` runs the app's own check (XSBench and RSBench: the "(Valid)" hash of
the small problem, 45 s and 2 min on a 2-core machine; minisweep: PASS). A run is stopped
after the recipe's seconds. What gcc's build of the original cannot run either (it does not
build, crashes or hangs) is "not checked", with both reasons. The load average is printed
before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parent.parent
OWN = ROOT / "tests" / "apps"
MODEL_FLAGS = {"acc": "-fopenacc", "omp": "-fopenmp"}
BUILD = ["-O2", "-foffload=disable"]
WHOLE_OUTPUT = r"(?s).*(?=\nexit status)"  # a check of everything the program printed
RUN_SECONDS = 300  # an app's run at most, by default


@dataclass
class Recipe:
    name: str
    folder: Path
    sources: list[str]  # relative to the folder, in link order
    flags: list[str]  # preprocessing and language flags of every compile
    model: str  # acc | omp: what accsat reads (both are defined: _OPENACC, _OPENMP)
    build: list[str]  # the model flag of the host build (-fopenmp where gcc rejects the
    # app's OpenACC data clauses: the loops run sequentially, as written or rewritten)
    hot: list[str]  # functions holding the app's arithmetic
    quick: list[str]  # arguments of the short run
    check: str  # regex: the output's checksum, equal in gcc's and accsat-cc's builds
    full: list[str] | None = None  # arguments of the app's own check
    valid: str = ""  # regex its output must match then
    libs: list[str] = field(default_factory=lambda: ["-lm"])
    seconds: int = RUN_SECONDS  # a run that takes longer is stopped (and said so)


_MINISWEEP_SOURCES = [
    f"src/{s}.c"
    for s in [
        "1_base/arguments",
        "1_base/env",
        "1_base/env_assert",
        "1_base/env_cuda",
        "1_base/env_mpi",
        "1_base/pointer",
        "2_sweeper_base/array_operations",
        "2_sweeper_base/dimensions",
        "3_sweeper/faces_kba",
        "3_sweeper/quantities",
        "3_sweeper/stepscheduler_kba",
        "3_sweeper/sweeper",
        "3_sweeper/sweeper_kernels",
        "4_driver/runner",
        "4_driver/sweep",
    ]
]
_LOOKUP_HOT = ["run_event_based_simulation", "calculate_macro_xs", "calculate_micro_xs"]


def public(folder: Path) -> Recipe | None:
    """The recipe of a public mini-app this script knows, from the files it holds."""
    sources = sorted(p.name for p in folder.glob("*.c"))
    if (folder / "XSbench_header.h").exists():
        acc = "pragma acc" in (folder / "Simulation.c").read_text(errors="replace")
        return Recipe(
            f"XSBench ({'openacc' if acc else 'openmp-offload'})",
            folder,
            sources,
            ["-std=gnu99"],
            "acc" if acc else "omp",
            ["-fopenmp"],
            [*_LOOKUP_HOT, "grid_search", "grid_search_nuclide", "pick_mat"],
            ["-s", "small", "-m", "event", "-l", "300000"],
            r"Verification checksum: \d+",
            ["-s", "small", "-m", "event"],
            r"\(Valid\)",
        )
    if (folder / "rsbench.h").exists():
        acc = "pragma acc" in (folder / "simulation.c").read_text(errors="replace")
        return Recipe(
            f"RSBench ({'openacc' if acc else 'openmp-offload'})",
            folder,
            sources,
            ["-std=gnu99"],
            "acc" if acc else "omp",
            ["-fopenmp"],
            [*_LOOKUP_HOT, "calculate_micro_xs_doppler", "calculate_sig_T", "fast_nuclear_W"]
            + ["c_add", "c_sub", "c_mul", "c_div", "c_abs", "fast_exp", "fast_cexp"],
            ["-s", "small", "-m", "event", "-l", "3", "-p", "20000"],
            r"Verification checksum: \d+",
            ["-s", "small", "-m", "event"],
            r"\(Valid\)",
        )
    if (folder / "src" / "3_sweeper" / "sweeper_acc_c.h").exists():
        dims = ["--ncell_x", "8", "--ncell_y", "8", "--ncell_z", "8", "--ne", "16", "--na", "8"]
        return Recipe(
            "minisweep (openacc)",
            folder,
            _MINISWEEP_SOURCES,
            [f"-Isrc/{d}" for d in ("1_base", "2_sweeper_base", "3_sweeper", "4_driver")]
            + ["-DNM_VALUE=4", "-DUSE_ACC"],
            "acc",
            ["-fopenacc"],
            ["Sweeper_sweep", "Sweeper_in_gridcell", "Quantities_solve_inline"]
            + ["Quantities_init_face", "Quantities_scalefactor_space_inline"],
            dims,
            r"Normsq result: \S+",
            dims,
            r"\bPASS\b",
        )
    return None


def own(folder: Path) -> list[Recipe]:
    """accsat's own mini-apps: tests/apps (all of them) or tests/apps/NAME."""
    manifest = folder / "apps.toml" if (folder / "apps.toml").exists() else None
    names = None
    if manifest is None and (folder.parent / "apps.toml").exists():
        manifest, names = folder.parent / "apps.toml", [folder.name]
    if manifest is None:
        return []
    apps = tomllib.loads(manifest.read_text())
    out = []
    for name in names or list(apps):
        app = apps[name]
        for model in app["models"]:
            out.append(
                Recipe(
                    f"{name} ({model})",
                    manifest.parent / name,
                    app["sources"],
                    [],
                    model,
                    [MODEL_FLAGS[model]],
                    app["hot"],
                    [],
                    WHOLE_OUTPUT,
                )
            )
    return out


def polybench(folder: Path) -> list[Recipe]:
    """PolyBench/ACC's OpenACC benchmarks (not its OpenMP, OpenCL ... folders: the sources
    must hold ``#pragma acc``), one recipe each: its ``kernel_*`` function is hot; the mini
    dataset; every array printed as hex floats (``%a``: every bit) and compared with gcc's
    build of the original, with floating-point contraction off (accsat's exact rules only,
    so the outputs must be equal bit for bit). Every benchmark in double (five of them
    are float or int as written). Built with -fopenmp (gcc rejects some of the suite's
    OpenACC clauses: the loops run as written or rewritten, sequentially)."""
    util = folder / "utilities"
    if not (util / "polybench.h").exists():
        return []
    out = []
    for src in sorted(folder.glob("*/*/**/*.c")):
        text = src.read_text(errors="replace")
        if src.stem != src.parent.name or "pragma acc" not in text:
            continue  # (generated files beside a benchmark: rose_*, *.preproc.c)
        rel = src.relative_to(folder)
        kernels = re.findall(r"\bvoid\s+(kernel_\w+)\s*\(", text)
        out.append(
            Recipe(
                f"PolyBench-ACC {src.stem}",
                folder,
                ["utilities/polybench.c", str(rel)],
                ["-Iutilities", f"-I{rel.parent}", "-DMINI_DATASET", "-DPOLYBENCH_DUMP_ARRAYS"]
                + ["-DDATA_TYPE=double", '-DDATA_PRINTF_MODIFIER="%a "', "-ffp-contract=off"],
                "acc",
                ["-fopenmp"],
                kernels,
                [],
                WHOLE_OUTPUT,
                seconds=30,  # a mini run takes under a second; correlation's runs hang
            )
        )
    return out


def recipes(folder: Path) -> list[Recipe]:
    found = own(folder) or polybench(folder) or [r for r in [public(folder)] if r is not None]
    if not found:
        sys.exit(f"{folder}: no recipe for this folder (see {Path(__file__).name} --help)")
    return found


# -- accsat's view -----------------------------------------------------------------------------
@dataclass
class Row:
    app: str
    kind: str
    where: str  # file:line as the report names it
    function: str
    status: str
    reason: str
    loads: tuple[int, int]
    hot: bool


def census(recipe: Recipe, variant: str) -> tuple[list[Row], list[str], list[str]]:
    """(units, hot functions no unit reached, files accsat could not read)."""
    from accsat.errors import AccsatError
    from accsat.frontend.preprocess import PreprocessOptions
    from accsat.options import Options
    from accsat.pipeline import rewrite_file
    from accsat.wrapper.fpflags import exact_because

    rows: list[Row] = []
    failed: list[str] = []
    cwd = os.getcwd()
    os.chdir(recipe.folder)  # the app's -I flags are relative to its folder
    try:
        for source in recipe.sources:
            options = Options(
                variant=variant,
                fp_exact=exact_because(recipe.flags) is not None,
                preprocess=PreprocessOptions(
                    tuple(recipe.flags), recipe.model == "acc", recipe.model == "omp"
                ),
            )
            try:
                done = rewrite_file(Path(source), options)
            except AccsatError as exc:
                failed.append(f"{source}: {exc}")
                continue
            for k in done.kernels:
                rows.append(
                    Row(
                        recipe.name,
                        k.kind,
                        f"{k.file}:{k.line}",
                        k.function,
                        k.status,
                        k.reason,
                        (k.loads["before"], k.loads["after"]),
                        k.function in recipe.hot,
                    )
                )
    finally:
        os.chdir(cwd)
    reached = {r.function for r in rows}
    return rows, [f for f in recipe.hot if f not in reached], failed


# -- the build through accsat-cc ---------------------------------------------------------------
def accsat_cc() -> list[str]:
    launcher = Path(sys.executable).parent / "accsat-cc"
    return [str(launcher)] if launcher.exists() else [sys.executable, "-m", "accsat.wrapper"]


def build_and_run(
    recipe: Recipe, folder: Path, prefix: list[str], args: list[str], env: dict
) -> tuple[str, str]:
    """(the program's output and exit status, or why it could not be built)."""
    cmd = [*prefix, "gcc", *BUILD, *recipe.build, *recipe.flags, *recipe.sources, "-o", "app"]
    done = subprocess.run([*cmd, *recipe.libs], cwd=folder, env=env, capture_output=True)
    if done.returncode:
        return "", "build failed: " + done.stderr.decode(errors="replace").strip()[-300:]
    try:
        ran = subprocess.run(
            ["./app", *args], cwd=folder, env=env, capture_output=True, timeout=recipe.seconds
        )
    except subprocess.TimeoutExpired:
        return "", f"the program ran past {recipe.seconds} s"
    out = ran.stdout.decode(errors="replace") + ran.stderr.decode(errors="replace")
    return f"{out}\nexit status {ran.returncode}\n", ""


def verify(recipe: Recipe, variant: str, mode: str) -> dict:
    """Build through accsat-cc and check, as ``mode`` says."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACCSAT_")}
    env["OMP_NUM_THREADS"] = env.get("OMP_NUM_THREADS", "2")
    with tempfile.TemporaryDirectory(prefix="accsat-apps-") as tmp:
        report = Path(tmp) / "report.jsonl"
        wrapped = dict(
            env,
            ACCSAT_VARIANT=variant,
            ACCSAT_REPORT=str(report),
            ACCSAT_CACHE_DIR=str(Path(tmp) / "cache"),
        )
        out: dict = {"mode": mode}
        start = time.perf_counter()
        args = recipe.full if mode == "full" and recipe.full is not None else recipe.quick
        new_dir = Path(tmp) / "new"
        shutil.copytree(recipe.folder, new_dir)
        new, why = build_and_run(recipe, new_dir, accsat_cc(), args, wrapped)
        rows = (
            [json.loads(line) for line in report.read_text().splitlines()]
            if report.exists()
            else []
        )
        out["rewritten_at_build"] = sum(r["status"] == "rewritten" for r in rows)
        if mode == "full" and recipe.valid and not why:
            ok = re.search(recipe.valid, new) is not None and new.endswith("exit status 0\n")
            out.update(ok=ok, why="" if ok else f"no {recipe.valid!r} in the output")
        else:
            old_dir = Path(tmp) / "orig"
            shutil.copytree(recipe.folder, old_dir)
            old, theirs = build_and_run(recipe, old_dir, [], args, env)
            if theirs:  # nothing to compare with: whatever accsat-cc's build did
                mine = f"; accsat-cc: {why}" if why else ""
                out.update(ok=None, why=f"not checked: gcc's build of the original: {theirs}{mine}")
                return out
            if why:
                out.update(ok=False, why=f"accsat-cc: {why}")
                return out
            # the checksum and the exit status (XSBench exits 1 when a short run's hash is
            # not one it knows)
            want, got = (re.search(recipe.check, o) for o in (old, new))
            ok = want is not None and got is not None and want.group() == got.group()
            ok = ok and old.splitlines()[-1] == new.splitlines()[-1]
            out.update(
                ok=ok, checksum=got.group()[-60:] if got else "", why="" if ok else "output differs"
            )
            last = old.splitlines()[-1]
            if ok and recipe.check == WHOLE_OUTPUT and last != "exit status 0":
                # a crash in both prints the same (nothing, often): no check
                out.update(ok=None, why=f"not checked: both builds end with {last}")
        out["seconds"] = round(time.perf_counter() - start, 1)
        return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("folders", nargs="+", type=Path)
    p.add_argument("--variant", default="accsat")
    p.add_argument("--verify", choices=("quick", "full", "none"), default="quick")
    p.add_argument("--all", action="store_true", help="list every unit, not only hot ones")
    p.add_argument("--json", type=Path, default=None)
    a = p.parse_args()
    load = [os.getloadavg()[0]]
    results = []
    for folder in a.folders:
        for recipe in recipes(folder.resolve()):
            rows, missed, failed = census(recipe, a.variant)
            checked = verify(recipe, a.variant, a.verify) if a.verify != "none" else None
            results.append((recipe, rows, missed, failed, checked))
    load.append(os.getloadavg()[0])
    print(f"variant {a.variant}; load average {load[0]:.2f} -> {load[1]:.2f}")
    for recipe, rows, missed, failed, checked in results:
        shown = [r for r in rows if r.hot or a.all]
        done = sum(r.status == "rewritten" for r in rows)
        print(f"\n== {recipe.name}: {done} of {len(rows)} units rewritten ({recipe.folder})")
        for r in shown:
            before, after = r.loads
            what = r.status if r.status == "rewritten" else f"unchanged: {r.reason}"
            print(
                f"  {r.kind:<9} {r.where:<28} {r.function:<28} loads {before:>4} -> {after:<4} {what}"
            )
        for f in missed:
            print(f"  {'-':<9} {'':<28} {f:<28} no unit reached it")
        for f in failed:
            print(f"  file not read: {f}")
        if checked is not None:
            ok = checked.get("ok")
            state = (
                "verifies" if ok else checked["why"] if ok is None else f"FAILS ({checked['why']})"
            )
            print(
                f"  build through accsat-cc ({checked['mode']}): {state};"
                f" {checked['rewritten_at_build']} units rewritten at build"
            )
    if a.json:
        data = [
            {
                "app": recipe.name,
                "folder": str(recipe.folder),
                "units": [asdict(r) for r in rows],
                "not_reached": missed,
                "not_read": failed,
                "verify": checked,
            }
            for recipe, rows, missed, failed, checked in results
        ]
        a.json.write_text(json.dumps({"variant": a.variant, "load": load, "apps": data}, indent=1))


if __name__ == "__main__":
    main()
