"""The rulesets of ``rules/``: read the manifest, pick what a run uses."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import AccsatError
from ..options import Options
from ..resources import data_dir, tomllib


@dataclass(frozen=True)
class RuleSet:
    name: str
    fp_changing: bool
    default: bool
    description: str
    file: Path | None = None  # egglog rules; None for a builtin
    builtin: str | None = None
    every_variant: bool = False  # exact: runs in the variants without rules too
    first: bool = False  # runs to saturation before every iteration of the others


def load_manifest(folder: Path | None = None) -> list[RuleSet]:
    folder = folder or data_dir("rules")
    path = folder / "rules.toml"
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise AccsatError(f"cannot read the rules manifest: {exc}", str(path)) from None
    out = []
    for entry in data.get("ruleset", []):
        file = folder / entry["file"] if "file" in entry else None
        rs = RuleSet(
            entry["name"],
            bool(entry.get("fp_changing", False)),
            bool(entry.get("default", True)),
            entry.get("description", ""),
            file,
            entry.get("builtin"),
            bool(entry.get("every_variant", False)),
            bool(entry.get("first", False)),
        )
        if rs.every_variant and rs.fp_changing:
            raise AccsatError(
                f"ruleset '{rs.name}' runs in every variant, so it must not "
                f"change floating-point results",
                str(path),
            )
        out.append(rs)
    return out


def select(
    manifest: list[RuleSet],
    names: list[str] | None = None,
    disabled: Sequence[str] = (),
    fp_exact: bool = False,
) -> list[RuleSet]:
    """The rulesets to run: ``names`` (or the defaults), less ``disabled`` and,
    with ``fp_exact``, less every ruleset that can change a floating-point result."""
    known = {r.name: r for r in manifest}
    for name in list(names or []) + list(disabled):
        if name not in known:
            raise AccsatError(f"unknown ruleset '{name}' (known: {', '.join(known)})")
    chosen = [known[n] for n in names] if names is not None else [r for r in manifest if r.default]
    return [r for r in chosen if r.name not in disabled and not (fp_exact and r.fp_changing)]


def egglog_text(rulesets: list[RuleSet]) -> str:
    """The rule files of the chosen rulesets, each file once."""
    files: list[Path] = []
    for r in rulesets:
        if r.file is not None and r.file not in files:
            files.append(r.file)
    parts = []
    for f in files:
        try:
            parts.append(f.read_text())
        except OSError as exc:
            raise AccsatError(f"cannot read rules: {exc}", str(f)) from None
    return "\n".join(parts)


def rulesets_for(options: Options) -> list[RuleSet]:
    """The rule sets a run saturates with: for the variants without rules, only
    the exact ones marked ``every_variant`` (identities, integer folding)."""
    manifest = load_manifest()
    if not options.spec.rules:
        exact = [r.name for r in manifest if r.every_variant]
        return select(manifest, exact, list(options.disabled_rules), options.fp_exact)
    return select(
        manifest,
        list(options.rules) if options.rules is not None else None,
        list(options.disabled_rules),
        options.fp_exact,
    )
