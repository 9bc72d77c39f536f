"""The table printed at the end of a sweep: orig's time, each variant's speedup, geomeans."""

from __future__ import annotations

from .results import Result, geomean, speedups

_SHORT = {"verification failed": "VERIFY", "build failed": "BUILD", "run failed": "RUN",
          "timeout": "TIMEOUT", "compiler not found": "no cc", "unsupported": "unsup.",
          "no gpu": "no gpu", "harness error": "ERROR"}


def speedup_table(results: list[Result], size_label: str = "class") -> str:
    """One block per (compiler, target, size); rows benchmarks, columns variants."""
    sp = speedups(results)
    blocks = []
    groups: dict[tuple[str, str, str], list[Result]] = {}
    for r in results:
        groups.setdefault((r.cell.compiler, r.cell.target, r.cell.size), []).append(r)
    for (compiler, target, size), rs in groups.items():
        variants = list(dict.fromkeys(r.cell.variant for r in rs))
        benches = list(dict.fromkeys(r.cell.benchmark for r in rs))
        at = {(r.cell.benchmark, r.cell.variant): r for r in rs}
        width = max(9, *(len(v) + 1 for v in variants))
        title = (f"{compiler} {target}, {size_label} {size}: orig = best time in seconds, "
                 f"variants = speedup over orig (higher is faster)")
        head = f"{'benchmark':14}" + "".join(f"{v:>{width}}" for v in variants)
        lines = [title, head, "-" * len(head)]
        for b in benches:
            cells = []
            for v in variants:
                r = at.get((b, v))
                if r is None:
                    cells.append("")
                elif not r.ok:
                    cells.append(_SHORT.get(r.status, r.status[:8]))
                elif v == "orig":
                    cells.append(f"{r.seconds:.3g}" if r.seconds is not None else "?")
                else:
                    s = sp.get(r.cell)
                    cells.append(f"{s:.3f}" if s is not None else "n/a")
            lines.append(f"{b:14}" + "".join(f"{c:>{width}}" for c in cells))
        gm = []
        for v in variants:
            if v == "orig":
                gm.append("")
                continue
            g = geomean([sp[r.cell] for r in rs if r.cell.variant == v and r.cell in sp])
            gm.append(f"{g:.3f}" if g is not None else "n/a")
        lines.append(f"{'geomean':14}" + "".join(f"{c:>{width}}" for c in gm))
        blocks.append("\n".join(lines))
    failures = [r for r in results if not r.ok]
    if failures:
        lines = [f"{len(failures)} cell(s) without a verified time:"]
        lines += [f"  {r.cell.key}: {r.status}" + (f": {r.message}" if r.message else "")
                  for r in failures]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)
