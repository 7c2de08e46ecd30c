"""``conformance init``: a working adapter skeleton in a folder, and what to do next.

The skeletons are package data (``conformance/templates/``), so the one the
docs point at is the one a wheel ships.  Each certifies as written: it claims
the chosen rulesets (``init --ruleset NAME``, repeatable; the others' items are
deselected, not run), declares the latest vocabulary version of each, and maps
nothing, so every item is skipped with a reason and the verdict is an honest
"no verdict" (exit 5; ``--allow-no-verdict`` while you start out), never a pass.
"""

from __future__ import annotations

import dataclasses
import json
import re
import shlex
from collections.abc import Callable
from importlib import resources
from pathlib import Path

from conformance import vocabulary
from conformance._errors import UsageError


@dataclasses.dataclass(frozen=True)
class Language:
    template: str    # in conformance/templates/
    filename: str    # what it is written as
    spec: str        # the --engine spec that runs it from its folder
    needs: str       # what must be installed


LANGUAGES = {
    "python": Language("skeleton_adapter.py", "engine_adapter.py",
                       "python:engine_adapter:create", "nothing more: it runs in-process"),
    "node": Language("skeleton-engine.js", "engine.js", "cmd:node engine.js",
                     "Node.js (`node --version`): it runs as a subprocess speaking JSON Lines"),
}

#: The one line of each template that names the claimed rulesets.
_RULESETS_LINE = re.compile(r"^((?:const )?RULESETS = )\[[^\]]*\]", re.MULTILINE)
#: The one line that declares the vocabulary version spoken per claimed ruleset.
_VOCABULARY_LINE = re.compile(r"^((?:const )?VOCABULARY = )\{[^}]*\}", re.MULTILINE)


def init(folder: Path, lang: str, rulesets: list[str], *, force: bool = False) -> list[Path]:
    """Write the ``lang`` skeleton claiming ``rulesets`` and the next-steps note into
    ``folder``; returns the paths written.  Existing files are kept unless ``force``."""
    language = LANGUAGES[lang]
    text = (resources.files("conformance") / "templates" / language.template).read_text("utf-8")
    claimed = json.dumps(rulesets)
    speaks = json.dumps({r: vocabulary.history(r).latest for r in rulesets})
    for line, value in ((_RULESETS_LINE, claimed), (_VOCABULARY_LINE, speaks)):
        text, n = line.subn(_put(value), text, count=1)
        if n != 1:   # a broken install, not a user error
            raise RuntimeError(f"template {language.template} has no {line.pattern} line")
    files = {folder / language.filename: text,
             folder / "CONFORMANCE.md": next_steps(language, rulesets)}
    existing = [p for p in files if p.exists()]
    if existing and not force:
        raise UsageError(f"{', '.join(str(p) for p in existing)} already exist(s); "
                         "pick an empty folder, or pass --force to overwrite")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for path, content in files.items():
            path.write_text(content, "utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write the skeleton to {folder}: {exc}") from None
    return list(files)


def _put(value: str) -> Callable[[re.Match[str]], str]:
    """A replacement that keeps a template line's head and puts ``value`` after it."""
    return lambda m: m.group(1) + value


def next_steps(language: Language, rulesets: list[str]) -> str:
    """The README snippet: how to certify the skeleton, then grow it."""
    spec = shlex.quote(language.spec)
    docs = ", ".join(f"docs/rulesets/{r}.md" for r in rulesets)
    return f"""# Certifying this engine with card-conformance

`{language.filename}` is a skeleton that claims {", ".join(rulesets)} and maps nothing
yet; it needs {language.needs}. From this folder:

```sh
conformance doctor --engine {spec}
conformance certify --engine {spec} --allow-no-verdict --out out/
```

`doctor` checks the handshake and one round trip in seconds. `certify` runs
every case and property: each is skipped with the reason the skeleton gives,
so the verdict is "no verdict" (exit 5 without `--allow-no-verdict`), never a
pass. Then, step by step:

1. Map the canonical setup onto your engine in `start` (the vocabulary:
   {docs} in the suite's repository; `conformance/rulesets/<ruleset>/vocabulary.json`
   as a JSON Schema).
2. Map actions in `act` and the state in `observe`; answer "skipped"
   (`Unsupported` in Python) for what you have not mapped. The summary lists
   the skip reasons, most frequent first: what to map next.
3. Rerun one item with the command printed for it
   (`conformance run --engine {spec} --select ID`).
4. When nothing is skipped for lack of mapping any more, drop
   `--allow-no-verdict`, and gate CI with `--fail-under N` (docs/ci.md).
"""
