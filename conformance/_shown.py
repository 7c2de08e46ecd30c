"""Text an engine or a pack controls, made safe to print on a terminal or in a CI log.

An engine's messages, skip reasons, stderr, hello (name, version, mutants) and a
pack's exception text are someone else's bytes.  Printed raw, one of them could
start a line of its own (``verdict: pass``), move the cursor or clear a line
(``\\x1b[2K``, ``\\r``), or run a GitHub Actions workflow command: the runner
takes a line whose first non-blank characters are ``::`` (``::error::``,
``::stop-commands::``, ``::add-mask::``) or that holds ``##[`` anywhere as a
command.  `shown` is the one function every such text goes through before it
reaches the terminal (the reports have their own escaping, per format).
"""

from __future__ import annotations

import re

#: The longest engine text one printed field shows.
LIMIT = 500

# Every C0 control (newlines and tabs too: one field is one line), DEL, the C1
# controls (U+0085 is a newline to some terminals, U+009B a CSI), lone surrogates,
# the Unicode line and paragraph separators and the bidirectional overrides and
# isolates (text that reads otherwise than it is).
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"
                     "\ud800-\udfff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    return _NAMED.get(char) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def escaped(text: str, keep: str = "") -> str:
    """Every character `shown` escapes, but those in ``keep`` (a format with an escape of
    its own for them: a GitHub annotation's ``%0A``), and ``##[`` broken."""
    def escape(match: re.Match[str]) -> str:
        return match.group() if match.group() in keep else _escape(match)
    return _UNSAFE.sub(escape, text).replace("##[", "#\\x23[")


def shown(text: object, limit: int = LIMIT) -> str:
    r"""``text`` on one line, safe to print: every control character written as a
    visible escape (``\n``, ``\x1b``), a leading ``::`` and any ``##[`` broken
    (``\x3a:``, ``#\x23[``) so that no workflow command can start, and cut to
    ``limit`` characters with a marker saying how many more there were."""
    try:
        line = escaped(str(text))
    except Exception:   # an engine's or pack's exception whose __str__ raises too
        line = f"(a {type(text).__name__} that cannot be shown)"
    line = _no_command(line)
    if len(line) > limit:
        line = f"{line[:limit]}… [{len(line) - limit} more characters cut]"
    return line


def shown_lines(text: str, last: int, limit: int = LIMIT) -> list[str]:
    """The last ``last`` lines of a multi-line text (an engine's stderr), each `shown`."""
    return [shown(line, limit) for line in text.strip().splitlines()[-last:]]


#: The first words of the suite's own summary lines (the terminal report): a line of
#: engine text that starts with one poses as the suite's verdict.
_POSING = ("verdict:", "seed rules passed:", "coverage:", "sha256 ")


def log_safe(text: str) -> str:
    r"""A multi-line text (a whole report printed to stdout) with every line a CI runner
    would take as a workflow command broken as `shown` breaks it: a leading ``::``
    becomes ``\x3a:``, each ``##[`` becomes ``#\x23[``; and a line that poses as one of
    the suite's own summary lines (``verdict: pass ...``, from an engine's stderr in a
    code block) gets ``| `` in front.  Every other line, and every line ending, is left
    as it was."""
    out = []
    for line in text.splitlines(keepends=True):
        line = _no_command(line)
        if line.lstrip().startswith(_POSING):
            line = "| " + line
        out.append(line.replace("##[", "#\\x23["))
    return "".join(out)


def _no_command(line: str) -> str:
    r"""``line`` with a leading ``::`` (after blanks) written ``\x3a:``: a CI runner takes
    no workflow command from it."""
    body = line.lstrip()
    if body.startswith("::"):
        return line[: len(line) - len(body)] + "\\x3a" + body[1:]
    return line
