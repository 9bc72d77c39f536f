"""The records of a build as one static HTML page: no server, no script, no file beside it.

The summary table comes once per order (table.ORDERS: file order, loads saved, cost
saved, operations saved); radio buttons and CSS show the one chosen, so the page
sorts in any browser with scripts off and a test reads each order as it is. Each
kernel then has its section: its figures before -> after, the reason where it was
left as written, and its lines as written beside its lines as rewritten, each
changed line marked (a line diff: changed, removed, added).
"""

from __future__ import annotations

import difflib
import html.parser
from dataclasses import dataclass
from importlib import resources

from . import Kernel
from .table import ORDERS, ordered, totals

ORDER_NAMES = {
    "file": "file order",
    "loads": "loads saved",
    "cost": "cost saved",
    "ops": "operations saved",
}


@dataclass(frozen=True)
class Row:
    """One line of the side-by-side view: the line as written (its number) and as
    rewritten; ``mark``: same, changed, removed (only left), added (only right)."""

    number: int | None
    left: str | None
    right: str | None
    mark: str


def side_by_side(first: int, original: str, rewritten: str) -> list[Row]:
    a, b = original.splitlines(), rewritten.splitlines()
    rows: list[Row] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            rows += [
                Row(first + i, a[i], b[j], "same")
                for i, j in zip(range(i1, i2), range(j1, j2), strict=True)
            ]
            continue
        for n in range(max(i2 - i1, j2 - j1)):
            i, j = i1 + n, j1 + n
            left = a[i] if i < i2 else None
            right = b[j] if j < j2 else None
            mark = (
                "changed"
                if left is not None and right is not None
                else ("removed" if right is None else "added")
            )
            rows.append(Row(first + i if left is not None else None, left, right, mark))
    return rows


def page(kernels: list[Kernel], title: str = "accsat: optimization records") -> str:
    import jinja2

    source = resources.files(__package__).joinpath("templates/page.html.j2").read_text()
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    env.filters["arrow"] = lambda pair: "" if pair is None else f"{pair[0]} \u2192 {pair[1]}"
    index = {id(k): n for n, k in enumerate(kernels)}
    sections = []
    for n, k in enumerate(kernels):
        bodies = k.bodies
        sections.append(
            {
                "id": f"k{n}",
                "kernel": k,
                "rows": side_by_side(*bodies) if bodies is not None else None,
                "changed": 0 if bodies is None else _changed(bodies[1], bodies[2]),
            }
        )
    orders = [
        (name, ORDER_NAMES[name], [index[id(k)] for k in ordered(kernels, name)]) for name in ORDERS
    ]
    return env.from_string(source).render(
        title=title, totals=totals(kernels), sections=sections, orders=orders
    )


def _changed(original: str, rewritten: str) -> int:
    """Lines removed plus lines added."""
    a, b = original.splitlines(), rewritten.splitlines()
    ops = difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    return sum((i2 - i1) + (j2 - j1) for op, i1, i2, j1, j2 in ops if op != "equal")


class Outline(html.parser.HTMLParser):
    """What a reader of a page finds (``outline``): each summary table's rows in order
    (their attributes), each kernel's section (its lines as written and as rewritten,
    its figures), the order buttons, and anything fetched or run (none should be)."""

    def __init__(self):
        super().__init__()
        self.orders: dict[str, list[dict]] = {}
        self.sections: dict[str, dict] = {}
        self.radios: list[dict] = []
        self.external: list[str] = []
        self.scripts = 0
        self._table: str | None = None
        self._section: str | None = None
        self._cell: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for ref in (a.get("src"), a.get("href")):
            if ref and not ref.startswith("#"):
                self.external.append(ref)
        if tag == "script":
            self.scripts += 1
        if tag == "input" and a.get("type") == "radio":
            self.radios.append(a)
        if tag == "table" and "order" in (a.get("class") or "").split():
            self._table = a["data-order"]
            self.orders[self._table] = []
        if tag == "tr" and self._table is not None and "data-kernel" in a:
            self.orders[self._table].append(a)
        if tag == "section":
            self._section = a["id"]
            self.sections[self._section] = {"left": [], "right": [], "figures": []}
        if tag == "td" and self._section is not None:
            classes = (a.get("class") or "").split()
            self._cell = next((c for c in ("left", "right") if c in classes), None)
            if {"before", "after"} & set(classes):
                self._cell = "figures"
            self._text = []

    def handle_data(self, data):
        if self._cell is not None:
            self._text.append(data)

    def handle_endtag(self, tag):
        if tag == "table":
            self._table = None
        if tag == "td" and self._cell is not None and self._section is not None:
            self.sections[self._section][self._cell].append("".join(self._text))
            self._cell = None
        if tag == "section":
            self._section = None


def outline(text: str) -> Outline:
    """The outline of a page ``page`` wrote (tests and benchmarks/npb_remarks.py check it)."""
    found = Outline()
    found.feed(text)
    return found
