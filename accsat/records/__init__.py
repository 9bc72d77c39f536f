"""Optimization records: what accsat did to each kernel of a build, for people to read.

A record is one JSON line per kernel: the kernel's report (accsat/report.py) with its
lines as written and as rewritten (``bodies``). ``accsat rewrite --record PATH`` and
accsat-cc with ``ACCSAT_RECORD=PATH`` append them (whole lines under a lock: a
parallel build's compilers may append at once); ``accsat report PATH...`` turns the
records of a whole build into a table on the terminal (table.py) and a static HTML
page (page.py), as clang's ``-fsave-optimization-record`` files and opt-viewer do.
A report file (``--report``, ``ACCSAT_REPORT``) reads as records without bodies.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..fileio import append_lines


def write(path: str, kernels: Iterable[Mapping[str, Any]]) -> None:
    """Append the records of ``kernels`` (KernelReport fields, bodies included)."""
    text = "".join(json.dumps(dict(k), ensure_ascii=False) + "\n" for k in kernels)
    if text:
        append_lines(path, text)


@dataclass(frozen=True)
class Kernel:
    """One kernel's record, read back, with the figures a reader compares."""

    fields: Mapping[str, Any]

    def _pair(self, name: str) -> tuple[int, int]:
        got = self.fields.get(name) or {}
        return int(got.get("before", 0)), int(got.get("after", 0))

    @property
    def where(self) -> str:
        f = self.fields
        column = f.get("column") or 0
        return f"{f.get('file', '?')}:{f.get('line', 0)}" + (f":{column}" if column else "")

    @property
    def key(self) -> tuple:
        """Which kernel it is: a later record of it replaces an earlier one."""
        f = self.fields
        return (f.get("file"), f.get("line"), f.get("column"), f.get("function"))

    @property
    def rewritten(self) -> bool:
        return self.fields.get("status") == "rewritten"

    @property
    def measured(self) -> bool:
        """Whether its loads and operations were counted (not where its body was left
        before it was read: a construct accsat does not rewrite)."""
        return self.rewritten or int(self.fields.get("statements") or 0) > 0

    @property
    def loads(self) -> tuple[int, int]:
        return self._pair("loads")

    @property
    def ops(self) -> tuple[int, int]:
        return self._pair("ops")

    @property
    def loads_saved(self) -> int:
        before, after = self.loads
        return before - after

    @property
    def ops_saved(self) -> int:
        before, after = self.ops
        return before - after

    @property
    def fma(self) -> int:
        return int(self.fields.get("fma") or 0)

    @property
    def registers(self) -> tuple[int, int] | None:
        """accsat's model's registers as written and as rewritten, under a budget."""
        budget = self.fields.get("registers")
        if not budget:
            return None
        return int(budget.get("written", 0)), int(budget.get("after", 0))

    @property
    def cost_saved(self) -> float:
        """What the cost model saves, as a share of the body as written (0: none)."""
        cost = self.fields.get("cost") or {}
        original, printed = float(cost.get("original", 0)), float(cost.get("printed", 0))
        if not self.rewritten or original <= 0:
            return 0.0
        return (original - printed) / original

    @property
    def reason(self) -> str:
        from ..remarks import message

        return "" if self.rewritten else message(self.fields).removeprefix("left as written: ")

    @property
    def summary(self) -> str:
        """The remark's message (accsat/remarks.py)."""
        from ..remarks import message

        return message(self.fields)

    @property
    def bodies(self) -> tuple[int, str, str] | None:
        """(first line, the lines as written, as rewritten); None in a report."""
        b = self.fields.get("bodies")
        if not isinstance(b, Mapping):
            return None
        return int(b.get("line", 1)), str(b.get("original", "")), str(b.get("rewritten", ""))


class RecordError(Exception):
    """A records file that cannot be read (one line, naming it)."""


def read(paths: Iterable[str | Path]) -> tuple[list[Kernel], int]:
    """The kernels of the records in ``paths`` (the last record of each kernel), in the
    order of their files and lines, and how many lines were not records."""
    found: dict[tuple, Kernel] = {}
    bad = 0
    for path in paths:
        try:
            text = Path(path).read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            raise RecordError(f"{path}: cannot read: {exc.strerror or exc}") from None
        for line in text.splitlines():
            try:
                fields = json.loads(line)
            except ValueError:
                bad += bool(line.strip())
                continue
            if not isinstance(fields, dict) or "file" not in fields or "line" not in fields:
                bad += 1
                continue
            kernel = Kernel(fields)
            found.pop(kernel.key, None)  # a later build's record comes last
            found[kernel.key] = kernel
    return sorted(found.values(), key=_place), bad


def _place(k: Kernel) -> tuple:
    f = k.fields
    return (str(f.get("file")), int(f.get("line") or 0), int(f.get("column") or 0))
