"""Put rewritten loop bodies back into the user's text, touching nothing else."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Replacement:
    start: int  # offsets into the original text
    end: int
    text: str
    last_line: int  # line of the original text where the replaced span ends


def splice(source: str, replacements: list[Replacement], filename: str | None = None) -> str:
    """``source`` with each span replaced; with ``filename``, a ``#line`` after each
    replacement puts the following lines back on their original numbers."""
    out: list[str] = []
    pos = 0
    for r in sorted(replacements, key=lambda r: r.start):
        if r.start < pos:
            raise ValueError("overlapping replacements")
        out.append(source[pos:r.start])
        out.append(r.text)
        if filename is not None:
            rest_of_line = source.find("\n", r.end)
            if rest_of_line < 0:
                rest_of_line = len(source)
            # finish the original line, then resume numbering at the next one
            out.append(source[r.end:rest_of_line])
            out.append("\n" + line_directive(r.last_line + 1, filename).rstrip("\n"))
            pos = rest_of_line
        else:
            pos = r.end
    out.append(source[pos:])
    return "".join(out)


def line_directive(line: int, filename: str) -> str:
    return f'#line {line} "{_escape(filename)}"\n'


def _escape(name: str) -> str:
    """``name`` inside a C string, as cpp's own line markers spell it."""
    return name.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
