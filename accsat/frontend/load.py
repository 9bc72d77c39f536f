"""Loading a C file: preprocess, parse, find its kernels and symbols.

The one home of front-end loading. The pipeline and translation validation
both start here; a file checked right after it is rewritten (``accsat check``,
``--verify``) is parsed once, the cache keyed on the preprocessed text so that
an edited header is never served stale.
"""

from __future__ import annotations

import hashlib
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from pycparser import c_ast

from ..errors import AccsatError
from . import ctypes as ct
from .conditional import marked
from .depth import deep_recursion
from .headers import Header, content, substituted, with_directives
from .kernels import Kernel, find_kernels
from .linemap import LineMap, blanked, line_map
from .parse import parse_attributed
from .preprocess import PreprocessOptions, c_string, preprocess, preprocess_copy
from .source_map import BodySpan, SourceMap
from .symbols import FileSymbols
from .target import read_target

_CACHE_SIZE = 8


@dataclass(frozen=True)
class LoadedFile:
    """A file as the rest of accsat sees it (read-only: shared through the cache)."""

    path: Path
    text: str  # the user's text, as written
    ast: c_ast.FileAST
    source: SourceMap
    kernels: list[Kernel]
    symbols: FileSymbols
    defined: frozenset[str]  # the functions the file defines (a call to one is not pure)
    seconds: float  # what loading cost (a cache hit: preprocessing only)
    # the text's and its preprocessed form's: two loads with the same digest read the same
    # program, headers included (the compile server's two processes compare it)
    digest: bytes = b""
    # what the compiler's flags make of C's types (plain char, enums, overflow...): every
    # stage that reads this file's types or folds its constants runs under it (ct.targeting)
    target: ct.Target = ct.DEFAULT_TARGET
    # the lines the text's own #line directives give its lines (None: it has none); the
    # parse, the kernels and their spans use the text's own lines (linemap.py)
    lines: LineMap | None = None
    # the user's headers that hold directives, by name (frontend/headers.py), and what the
    # preprocessed text says (headers.content: a header's copy must not change it)
    headers: dict[str, Header] = field(default_factory=dict)
    content: bytes = b""

    def source_of(self, kernel: Kernel) -> SourceMap:
        """The map of the text that holds ``kernel``: the file's, or its header's."""
        return self.headers[kernel.header].source if kernel.header else self.source

    def text_of(self, kernel: Kernel) -> str:
        return self.headers[kernel.header].text if kernel.header else self.text


def read_source(path: Path) -> str:
    """The file's text exactly as its bytes are: undecodable bytes as surrogates
    (``surrogateescape``), line ends untranslated, so what is not rewritten is written
    back byte for byte."""
    try:
        return path.read_bytes().decode("utf-8", "surrogateescape")
    except OSError as exc:
        raise AccsatError(f"cannot read: {exc.strerror or exc}", str(path)) from None


def defined_functions(ast: c_ast.FileAST) -> frozenset[str]:
    return frozenset(e.decl.name for e in ast.ext if isinstance(e, c_ast.FuncDef))


_cache: OrderedDict[tuple, LoadedFile] = OrderedDict()


def load(
    path: Path,
    options: PreprocessOptions | None = None,
    *,
    text: str | None = None,
    main: str | None = None,
    cache: bool = True,
    meanwhile: Callable[[], object] | None = None,
) -> LoadedFile:
    """``path`` preprocessed with ``options`` and parsed; its kernels mapped onto ``text``
    (default: the file's own text) and attributed to the file called ``main`` (default:
    ``path``; the wrapper names the user's file when it works on a copy). ``cache=False``
    for a file that will not be loaded again (a temporary copy). ``meanwhile``: work
    of the caller's done while the preprocessor runs.

    The ``#line`` directives of a file accsat was given to read (``main`` not given) are
    blanked before it is parsed (``linemap.py``): its kernels keep the file's own lines,
    and ``LoadedFile.lines`` says what the compiler calls them. A text loaded for another
    file (``main`` given: accsat's output, read again) is read with its directives: they
    name that file's lines."""
    start = time.perf_counter()
    path = Path(path)
    text = read_source(path) if text is None else text
    options = options or PreprocessOptions()
    lines = line_map(text, str(path)) if main is None else None
    parsed = text if lines is None else blanked(text)  # the same offsets and lines
    if lines is None:
        pre = preprocess(path, options, meanwhile)
    else:  # its first line named as gcc names the file itself
        first = f"#line 1 {c_string(str(path))}\n"
        pre = preprocess_copy(path, first + parsed, options, meanwhile)
    given, main = main, main or str(path)
    target = read_target(pre, options.flags)
    key = (
        str(path),
        main,
        hashlib.sha256(pre.encode("utf-8", "surrogateescape")).digest(),
        hashlib.sha256(text.encode("utf-8", "surrogateescape")).digest(),
        repr(target).encode(),
    )
    digest = hashlib.sha256(b"".join(key[2:])).digest()
    hit = _cache.get(key)
    if hit is not None:
        _cache.move_to_end(key)
        return replace(hit, seconds=time.perf_counter() - start)
    source = SourceMap(text)
    # a file accsat was given: its headers' kernels too
    headers = with_directives(pre, main, text, options.flags) if given is None else {}
    maps = {name: h.source for name, h in headers.items()}
    with deep_recursion(), ct.targeting(target):
        ast, attributes = parse_attributed(pre, str(path))
        try:
            # accsat's output read again: the loops its own #line directives name are its
            named = frozenset() if given is None else _named_files(text, main)
            kernels, symbols = find_kernels(ast, source, main, attributes, maps, named)
            _unmarkable(kernels, headers)
            if any(isinstance(k.span, BodySpan) and k.span.groups for k in kernels):
                ast, kernels, symbols = _with_groups_marked(
                    path, parsed, options, source, main, (ast, kernels, symbols), headers
                )
        except RecursionError:  # statements or declarations deeper than the stack allows
            raise AccsatError("nested too deeply to read its declarations", main) from None
    loaded = LoadedFile(
        path,
        text,
        ast,
        source,
        kernels,
        symbols,
        defined_functions(ast),
        time.perf_counter() - start,
        digest,
        target,
        lines,
        headers,
        content(pre) if headers else b"",
    )
    if lines is not None:
        _name_lines(kernels, lines)
    if cache:
        _cache[key] = loaded
        if len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return loaded


def _named_files(text: str, main: str) -> frozenset[str]:
    """The files other than ``main`` that the text's ``#line`` directives name."""
    lines = line_map(text, main)
    return frozenset() if lines is None else lines.files - {main}


def _name_lines(kernels: list[Kernel], lines: LineMap) -> None:
    """Each kernel's place as the compiler names it; a kernel after a directive accsat
    cannot read stays as written (its diagnostics would name lines accsat cannot tell)."""
    for k in kernels:
        k.named = lines.presumed(k.line)
        if k.named is None and isinstance(k.span, BodySpan):
            k.span = "after a #line directive whose operands accsat cannot read"


def _unmarkable(kernels: list[Kernel], headers: dict[str, Header]) -> None:
    """The kernels with conditional groups in a header whose copy cannot be read in its
    place (not included by the file with quotes): left as written."""
    for k in kernels:
        grouped = isinstance(k.span, BodySpan) and bool(k.span.groups)
        if k.header and grouped and headers[k.header].spelling is None:
            k.span = "a conditional group inside a loop body in a header not included with quotes"


def _with_groups_marked(
    path: Path,
    text: str,
    options: PreprocessOptions | None,
    source: SourceMap,
    main: str,
    plain: tuple[c_ast.FileAST, list[Kernel], FileSymbols],
    headers: dict[str, Header],
) -> tuple[c_ast.FileAST, list[Kernel], FileSymbols]:
    """The file parsed again with each body's conditional groups between marker
    statements (frontend/conditional.py), so that the statements of a group are known;
    a header's marked in a copy read in its place (headers.substituted).
    If that does not parse, the first reading, with those kernels left as written."""
    grouped: dict[str, list[BodySpan]] = {}  # by the text that holds them ("": the file's)
    for k in plain[1]:
        if isinstance(k.span, BodySpan) and k.span.groups:
            grouped.setdefault(k.header, []).append(k.span)
    maps = {name: h.source for name, h in headers.items()}
    try:
        text_marked = marked(text, [list(s.groups) for s in grouped.pop("", [])], main)
        copies = {}
        for name, spans in grouped.items():
            header = headers[name]
            assert header.spelling is not None  # else _unmarkable left its kernels
            copies[header.spelling] = (
                name,
                marked(header.text, [list(s.groups) for s in spans], name),
            )
        if copies:
            pre = substituted(path, text_marked, options or PreprocessOptions(), copies)
        else:
            pre = preprocess_copy(path, text_marked, options)
        ast, attributes = parse_attributed(pre, str(path))
        kernels, symbols = find_kernels(ast, source, main, attributes, maps)
        _unmarkable(kernels, headers)
    except AccsatError:
        why = "a conditional group inside the loop body that the parser cannot delimit"
        for k in plain[1]:
            if isinstance(k.span, BodySpan) and k.span.groups:
                k.span = why
        return plain
    return ast, kernels, symbols


def clear_cache() -> None:
    _cache.clear()
