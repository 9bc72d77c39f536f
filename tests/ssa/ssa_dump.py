"""A readable, deterministic text dump of an ``SSAKernel`` (for golden tests).

Sections:
- ``terms``: every term by id: ``tN = Op type [attrs] (args)``; a type ``T@kC``
  is pinned to control context kC (it may trap, so it is never computed
  outside it);
- ``leaves``: where each leaf value exists (position, context), the variable
  that holds it, and for loads the memory access and the first later event
  that may change the location (``kill``);
- ``contexts``: the context tree (``inline``: an operand of ``&&``/``||``/``?:``);
- ``body``: the statement tree, ``@pos`` numbering statements in program order;
- ``assigns``, ``roots``, ``names``, ``stats``.
"""

from __future__ import annotations

from accsat.ssa import ir
from accsat.ssa.memory import Access
from accsat.ssa.state import SSAKernel


def dump(ssa: SSAKernel) -> str:
    out: list[str] = ["terms:"]
    for tid, term in enumerate(ssa.terms.terms):
        attrs = " ".join(_quote(a) for a in term.attrs)
        args = " ".join(f"t{a}" for a in term.args)
        line = f"  t{tid} = {term.op}"
        if term.ty:
            line += f" {term.ty}"
        if attrs:
            line += f" [{attrs}]"
        if args:
            line += f" ({args})"
        out.append(line)

    out.append("leaves:")
    for tid in sorted(ssa.leaves):
        info = ssa.leaves[tid]
        line = f"  t{tid}: pos {_num(info.pos)} ctx {info.ctx}"
        if info.holder is not None:
            line += f" held by {info.holder.name}"
        if info.access is not None:
            line += f" access {_access(info.access)}"
        if info.kill is not None:
            line += f" kill {_num(info.kill)}"
        out.append(line)

    out.append("contexts:")
    for ctx in sorted(ssa.ctx_parent, key=lambda c: int(c[1:])):
        parent = ssa.ctx_parent[ctx]
        line = f"  {ctx}" + (f" in {parent}" if parent else "")
        if ctx in ssa.inline_ctxs:
            line += " inline"
        out.append(line)

    out.append("body:")
    _block(ssa.body, "  ", out)

    out.append("assigns:")
    for sym, positions in sorted(ssa.assigns.items(), key=lambda kv: (kv[0].name, kv[1])):
        out.append(f"  {sym.name}: {' '.join(_num(p) for p in positions)}")
    out.append(f"roots: {' '.join(f't{r}' for r in ssa.roots)}")
    out.append(f"names: {' '.join(sorted(ssa.names))}")
    s = ssa.stats
    out.append(f"stats: statements {s.statements} loads {s.loads} ops {s.ops} cost {_num(s.cost)}")
    return "\n".join(out) + "\n"


def _block(block: ir.Block, indent: str, out: list[str]) -> None:
    out.append(f"{indent}block {block.ctx}")
    for stmt in block.stmts:
        _stmt(stmt, indent + "  ", out)


def _stmt(stmt: ir.Stmt, indent: str, out: list[str]) -> None:
    head = f"{indent}@{stmt.pos} line {stmt.line}: "
    if isinstance(stmt, ir.Assign):
        decl = f" (declares {stmt.decl!r})" if stmt.decl else ""
        out.append(f"{head}{stmt.sym.name} = t{stmt.value}{decl}")
    elif isinstance(stmt, ir.Store):
        idx = ", ".join(f"t{i}" for i in stmt.indices)
        out.append(f"{head}store t{stmt.base} {stmt.template!r} [{idx}] = t{stmt.value}")
    elif isinstance(stmt, ir.Eval):
        args = ", ".join(f"t{a}" for a in stmt.args)
        res = f"t{stmt.result} = " if stmt.result is not None else ""
        out.append(f"{head}{res}call {stmt.callee}({args}) -> {stmt.result_type}")
    elif isinstance(stmt, ir.Verbatim):
        decl = f" (declares {stmt.declares.name})" if stmt.declares is not None else ""
        out.append(f"{head}verbatim {stmt.text!r}{decl}")
    elif isinstance(stmt, ir.Braced):
        out.append(f"{head}braced end {_num(stmt.end)}")
        _block(stmt.block, indent + "  ", out)
    elif isinstance(stmt, ir.If):
        out.append(f"{head}if t{stmt.cond} end {_num(stmt.end)}{_phis('phis', stmt.phis)}")
        _block(stmt.then, indent + "  ", out)
        if stmt.orelse is not None:
            out.append(f"{indent}else")
            _block(stmt.orelse, indent + "  ", out)
    elif isinstance(stmt, ir.Loop):
        trailer = f" {stmt.trailer!r}" if stmt.trailer else ""
        assigned = " ".join(sorted(s.name for s in stmt.assigned))
        out.append(
            f"{head}loop {stmt.header!r}{trailer} end {_num(stmt.end)}"
            f" assigned {{{assigned}}}{_phis('head', stmt.head_phis)}"
            f"{_phis('exit', stmt.exit_phis)}"
        )
        _block(stmt.body, indent + "  ", out)
    else:  # pragma: no cover - a new statement kind: make the dump say so
        out.append(f"{head}{stmt!r}")


def _phis(label: str, phis: dict) -> str:
    if not phis:
        return ""
    items = ", ".join(f"{s.name}: t{t}" for s, t in sorted(phis.items(), key=lambda kv: kv[1]))
    return f" {label} {{{items}}}"


def _access(a: Access) -> str:
    region = a.region.kind + (f":{a.region.key}" if a.region.key else "")
    root = "?" if a.root is None else f"t{a.root}"
    if a.offset is None:
        offset = "?"
    else:
        terms = [str(c) if not m else f"{c}*" + "*".join(f"t{x}" for x in m) for m, c in a.offset]
        offset = " + ".join(terms) if terms else "0"
    return f"{region} root {root} offset {offset} size {a.size} {a.ctype}"


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def _quote(text: str) -> str:
    return text if text and all(c.isalnum() or c in "_.-+" for c in text) else repr(text)
