"""The kit's built-in strings in another locale: ``localize_tree`` shows the English UI
strings that shared widgets draw (a search field's hint, a capsule menu's "Back to WeChat",
a pay sheet's payee, "No results for ...") in an app's catalogue words, so that any app built
on the kit runs in zh-CN without re-stating them."""

from __future__ import annotations

from typing import Any

from ..widgets import Node, Screen

#: Texts the shared kit draws with a field (the capsule menu's "Back to WeChat", the pay
#: sheet's payee, a search without results): (English prefix, catalogue key, suffix).
TREE_PATTERNS = (("Back to ", "Back to {value}", ""), ("To ", "To {value}", ""),
                ('No results for "', 'No results for "{value}"', '"'))


def localize_tree(node: Node, strings: dict[str, str]) -> None:
    """Show the English UI strings in ``node``'s tree (the kit's included, and the rows its
    virtual lists build) in the catalogue ``strings``' words; data is left as it is. For an
    app whose catalogue holds the kit's strings it shows (WeChat's own ``localize_kit``
    uses a fixed list)."""
    for attr in ("text", "hint", "desc"):
        value = getattr(node, attr)
        if value in strings:
            setattr(node, attr, strings[value])
            continue
        for prefix, key, suffix in TREE_PATTERNS:
            if value.startswith(prefix) and value.endswith(suffix) and len(value) > len(prefix) \
                    and key in strings:
                inner = value[len(prefix):len(value) - len(suffix) if suffix else None]
                setattr(node, attr, strings[key].format(value=inner))
                break
    for child in node.children:
        localize_tree(child, strings)
    if node.rows is not None:
        build = node.rows.build

        def built(i: int, build: Any = build) -> Node:
            row = build(i)
            localize_tree(row, strings)
            return row
        node.rows.build = built


def localize_screen(screen: Screen, strings: dict[str, str]) -> Screen:
    """``screen`` with ``localize_tree`` applied to its content, top bar, bottom bar and
    dialog (what an app's ``view`` returns in a locale other than en-US)."""
    for part in (*screen.content, screen.top_bar, screen.bottom, screen.dialog):
        if part is not None:
            localize_tree(part, strings)
    return screen


__all__ = ["TREE_PATTERNS", "localize_screen", "localize_tree"]
