"""Reading catalogue YAML: safely, fast, with line numbers.

* Safe loading only, and no anchors or aliases: cases are plain data, and
  aliases only make "billion laughs" documents and shared mutable structure.
* No key twice in one mapping: plain PyYAML keeps the last and drops the
  first without a word (a second ``expect:`` erases the first's checks), so
  a duplicate is a `DuplicateKeyError` at the second key's line.  Keys are
  compared as loaded (``1`` and ``0x1`` are one key), as the dict would.
* libyaml parses when PyYAML has it; any problem is re-read by the
  pure-Python loader, so the error a catalogue author reads is the same
  either way.
* What the loader keeps of the node tree is a `Lines` table (path -> line),
  enough to point an error at its line.
"""

from __future__ import annotations

from typing import Any

import yaml

KeyPath = tuple[Any, ...]


class AliasError(yaml.composer.ComposerError):
    """The document uses an alias (``*name``)."""


class Lines:
    """1-based line numbers of a document's nodes, by path (mapping keys, list indexes)."""

    def __init__(self, table: dict[KeyPath, int]) -> None:
        self.table = table

    def line(self, path: list[Any]) -> int | None:
        """The line of the node at ``path``, or of its nearest ancestor in the document."""
        best = self.table.get(())
        for end in range(1, len(path) + 1):
            found = self.table.get(tuple(path[:end]))
            if found is None:
                break
            best = found
        return best


class DuplicateKeyError(yaml.constructor.ConstructorError):
    """A mapping has the same key twice; ``problem_mark`` is the second, ``context_mark``
    the first."""

    def __init__(self, key: Any, first: yaml.Mark, second: yaml.Mark) -> None:
        named = repr(key) if len(repr(key)) <= 80 else repr(key)[:80] + "…"
        super().__init__(f"while reading a mapping (its first {named} is at line "
                         f"{first.line + 1})", first, f"duplicate key {named}", second)
        self.named = named
        self.key = key
        self.first_line = first.line + 1


class _UniqueKeys(yaml.constructor.SafeConstructor):
    """A safe constructor that refuses a mapping key met twice (merge keys ``<<``,
    which may repeat what they merge, aside)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, yaml.Mark] = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue
            key = self.construct_object(key_node, deep=True)
            try:
                first = seen.setdefault(key, key_node.start_mark)
            except TypeError:
                continue   # unhashable: SafeConstructor says so, at its line
            if first is not key_node.start_mark:
                raise DuplicateKeyError(key, first, key_node.start_mark)
        return super().construct_mapping(node, deep=deep)


class _PlainLoader(yaml.SafeLoader, _UniqueKeys):
    """The pure-Python safe loader, refusing aliases and duplicate keys where they are."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()  # type: ignore[no-untyped-call]  # unannotated in types-PyYAML
            raise AliasError(None, None, "aliases (*name) are not allowed", event.start_mark)
        return super().compose_node(parent, index)


def _fast_loader() -> Any:
    """libyaml's parser (several times faster) with the same constructor, when PyYAML
    was built with it; else None."""
    base = getattr(yaml, "CSafeLoader", None)
    if base is None:
        return None
    return type("_FastLoader", (base, _UniqueKeys), {})


_FastLoader: Any = _fast_loader()


def parse(text: str) -> tuple[Any, Lines]:
    """The data of one YAML document and its line table.

    Raises what PyYAML raises for bad YAML (and `AliasError`, RecursionError)
    with the pure-Python loader's marks.
    """
    if _FastLoader is not None:
        try:
            return parse_with(_FastLoader, text)
        except (yaml.YAMLError, RecursionError):
            pass  # explained below, by the loader whose messages the docs show
    return parse_with(_PlainLoader, text)


def parse_with(loader_class: Any, text: str) -> tuple[Any, Lines]:
    """Parse with one loader class: `AliasError` for a node met twice, before it is
    built (libyaml hands an alias back as the anchored node itself)."""
    loader = loader_class(text)
    try:
        node = loader.get_single_node()
        lines = _lines(node)
        data = loader.construct_document(node) if node is not None else None
    finally:
        loader.dispose()
    return data, lines


def _lines(root: yaml.Node | None) -> Lines:
    """The line table of a node tree; `AliasError` if a node is reachable twice.

    A mapping entry's line is its key's, a list item's its own; the first of
    two equal keys wins, as when the tree itself was searched.
    """
    table: dict[KeyPath, int] = {}
    if root is None:
        return Lines(table)
    seen: set[int] = set()
    # (node, its path, or None below a key that no path can name)
    pending: list[tuple[yaml.Node, KeyPath | None]] = [(root, ())]
    table[()] = root.start_mark.line + 1
    while pending:
        node, path = pending.pop()
        # each child, the node whose line it is known by (a key, or the item) and its name
        children: list[tuple[yaml.Node, yaml.Node, Any]] = []
        if isinstance(node, yaml.SequenceNode):
            children = [(item, item, i) for i, item in enumerate(node.value)]
        elif isinstance(node, yaml.MappingNode):
            children = [(value, key, key.value if isinstance(key, yaml.ScalarNode) else None)
                        for key, value in node.value]
        # the node and its keys, each met once: a node met twice is libyaml's alias
        for met in (node, *(key for child, key, _ in children if key is not child)):
            if id(met) in seen:
                raise AliasError(None, None, "aliases (*name) are not allowed", met.start_mark)
            seen.add(id(met))
        for child, key, name in children:
            at = None if path is None or name is None else (*path, name)
            if at in table:
                at = None   # the first of two equal keys wins
            elif at is not None:
                table[at] = key.start_mark.line + 1
            pending.append((child, at))
    return Lines(table)

