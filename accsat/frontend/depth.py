"""How deep accsat's recursive code may go: parsing, and each stage of one kernel.

pycparser 3 parses by recursive descent (about 8 Python frames per level of
parentheses, so Python's default limit of 1000 frames stops it near 120 levels),
and our stages walk expressions recursively (4 to 10 frames per level). Both run
under ``deep_recursion()``, which raises the limit to ``_frames()``; a kernel
whose syntax tree is deeper than ``MAX_DEPTH`` is left as written with the
reason; a ``RecursionError`` that still happens is the kernel's reason too
(``pipeline``), never a traceback; one in the parser is a one-line error.

``_frames()`` is measured, with a margin: Python 3.11 and later run Python calls
without the C stack (pycparser parsed 32,000 levels of parentheses, 260,000
frames, on 3.11 to 3.13), so only memory bounds them. Python 3.10 keeps each
frame on the C stack too, about 400 bytes: pycparser crashed an 8 MiB stack at
2,510 levels (20,500 frames), so there we allow half of what the stack holds.
``MAX_DEPTH`` is measured likewise (``python benchmarks/recursion_depth.py``):
``accsat check`` (rewrite, then validation, which reparses the new body with
pycparser) takes at most 10.2 frames per level (``-(-(...))``; sums 5.1, calls
and subscripts 7.2), so 3.10's 10,485 frames with an 8 MiB stack hold 1,028
levels, twice ``MAX_DEPTH``; 3.11's 50,000 hold ten times it. The kernels of
tests/kernels (NPB's shapes among them) are at most 22 levels deep.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Iterator

from pycparser import c_ast

_BYTES_PER_FRAME = 400  # Python 3.10's C stack per Python frame (measured with pycparser)
MAX_DEPTH = 500  # syntax-tree levels of a kernel accsat rewrites


def _frames() -> int:
    """The recursion limit the stack of this thread measurably allows."""
    if sys.version_info >= (3, 11):
        return 50_000
    if threading.current_thread() is not threading.main_thread():
        return sys.getrecursionlimit()  # a thread's stack size is unknown here: as it is
    import resource

    soft, _ = resource.getrlimit(resource.RLIMIT_STACK)
    stack = 8 << 20 if soft == resource.RLIM_INFINITY or soft <= 0 else soft
    return max(1000, stack // (2 * _BYTES_PER_FRAME))


_lock = threading.Lock()
_holders = 0  # deep_recursion() blocks running now, in any thread
_before = 0  # the limit the first of them found


@contextlib.contextmanager
def deep_recursion() -> Iterator[None]:
    """Python's recursion limit raised to what the stack measurably allows, meanwhile
    (the limit is the interpreter's: the last block to end, in any thread, restores it)."""
    global _holders, _before
    with _lock:
        if _holders == 0:
            _before = sys.getrecursionlimit()
        _holders += 1
        sys.setrecursionlimit(max(sys.getrecursionlimit(), _frames()))
    try:
        yield
    finally:
        with _lock:
            _holders -= 1
            if _holders == 0:
                sys.setrecursionlimit(_before)


def ast_depth(node: c_ast.Node) -> int:
    """Levels of the syntax tree under ``node`` (iterative: the tree may be deeper than
    Python's recursion limit)."""
    deepest = 0
    stack = [(node, 1)]
    while stack:
        n, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for _, child in n.children())
    return deepest


def too_deep(node: c_ast.Node) -> str | None:
    """Why a kernel is too deep to rewrite, or None."""
    depth = ast_depth(node)
    if depth > MAX_DEPTH:
        return f"expression too deep: depth {depth} > limit {MAX_DEPTH}"
    return None
