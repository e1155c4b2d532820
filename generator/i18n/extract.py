"""Babel's extractor for layouts: the messages of their text templates, of their notes boxes' labels and of a
sheet layout's `words` (every word under it, as the sheet engine looks each up), its `name` (said in messages about
a filled sheet: "a filled castle sheet") and the `why` of each of its fields' `needs` (said beside a box left
unticked, or a photo's marks the rules say cannot be).

A layout is YAML whose strings may be jinja2 templates: `text: "{{ _('Floor tile') }} {{ tile.id }}"`. Each
string is parsed as a template and its `_()`/`ngettext()` calls extracted as jinja2's own extractor does; the
values of a notes box's `labels` (what the small print calls a value) are messages as they are. Lines are
those of the YAML file (the line of the string's key).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any

#: What Babel's extractors yield: line, function name, message(s), comments.
Found = tuple[int, str, Any, list[str]]


def extract_layout(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any) -> Iterator[Found]:
    import yaml
    from jinja2 import Environment
    from jinja2.ext import extract_from_ast

    env = Environment()
    root = yaml.compose(fileobj.read().decode("utf-8"), Loader=yaml.SafeLoader)

    def walk(node: Any, key: str | None, in_labels: bool, in_words: bool = False, in_needs: bool = False
             ) -> Iterator[Found]:
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                said = (node is root and k.value in ("words", "name")) or (in_needs and k.value == "why")
                yield from walk(v, k.value, key == "labels", in_words or said, k.value == "needs")
        elif isinstance(node, yaml.SequenceNode):
            for item in node.value:
                yield from walk(item, key, False, in_words, in_needs)
        elif isinstance(node, yaml.ScalarNode) and isinstance(node.value, str):
            line = node.start_mark.line + 1
            if in_labels or in_words:
                yield line, "_", node.value, []
            elif "_(" in node.value or "ngettext(" in node.value:
                for lineno, function, message in extract_from_ast(env.parse(node.value), keywords):
                    yield line + lineno - 1, function, message, []

    if root is not None:
        yield from walk(root, None, False)
