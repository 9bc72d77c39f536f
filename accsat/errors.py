"""Errors that reach users as one line: ``file:line: message``."""

from __future__ import annotations


class AccsatError(Exception):
    """A user-facing error about an input file (bad input, parse failure...)."""

    def __init__(self, message: str, file: str | None = None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line

    def __str__(self) -> str:
        where = self.file or "<input>"
        if self.line:
            where = f"{where}:{self.line}"
        return f"{where}: {self.message}"


class Unsupported(Exception):
    """A construct accsat does not rewrite; the kernel is left as written."""

    def __init__(self, reason: str, line: int | None = None):
        super().__init__(reason)
        self.reason = reason
        self.line = line


class Opaque(Unsupported):
    """A value accsat does not model (a struct value: a call that returns one, a compound
    literal): the simple statement holding it is kept as written, ordered like a call,
    and the rest of the body is rewritten (ssa/statements.py ``kept_statement``)."""
