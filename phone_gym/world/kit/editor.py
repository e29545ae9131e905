"""A full-screen Markdown editor, as Markor's: a borderless text area that draws its text
highlighted (headings larger and bold in the accent colour, ``**bold**``, ``_italic_``,
list and checkbox markers, ``[links](...)``, ``code``), and a formatting bar docked above
the keyboard whose buttons edit the text.

The accessibility tree shows the editor as Android does: one ``EditText`` holding the
whole text (the highlighting is in the pixels only). The device's text model keeps the
cursor at the end of the text, so the formatting actions work on the last word or the
last line, as Markor's do at a cursor there:

* Bold, Italic, Code, Link wrap the last word (``**w**``, ``_w_``, `` `w` ``, ``[w]()``),
  unwrap it when it is wrapped already, or insert an empty pair when there is no word.
* Header, List, Checkbox toggle the last line's prefix (``# ``, ``- ``, ``- [ ] ``).
* Undo and Redo step through an ``EditHistory`` the app keeps in its ``ui``.

Use it as ``Screen(content=[EditorView(ui.text, set_text, ui.history, id=...)],
dock=FormatBar(ui.text, set_text, ui.history), fill=True)``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from .. import theme as T
from ..painter import Look, Painter
from ..theme import luminance, mix
from ..widgets import Icon, Node, Row, TextField, TextHandler
from ..widgets_draw import DRAW
from .common import when

#: The style of the editor's ``text_field`` node (its draw function is registered for it).
STYLE = "markdown"
#: Undo steps an ``EditHistory`` keeps.
HISTORY = 100

_WORD = re.compile(r"(\S+)$")
_HEADING = re.compile(r"^(#{1,6})\s")
_PREFIX = re.compile(r"^(\s*)(- \[[ xX]\] |[-*+] |\d+[.)] |> )")
_INLINE = re.compile(
    r"(\*\*[^*\s](?:[^*]*[^*\s])?\*\*"  # **bold**
    r"|__[^_\s](?:[^_]*[^_\s])?__"  # __bold__
    r"|`[^`]+`"  # `code`
    r"|\[[^\]]*\]\([^)]*\)"  # [link](url)
    r"|\*[^*\s](?:[^*]*[^*\s])?\*"  # *italic*
    r"|(?<!\w)_[^_\s](?:[^_]*[^_\s])?_(?!\w))"  # _italic_
)


# --- highlighting ------------------------------------------------------------------------------
def heading_level(line: str) -> int:
    """The level of a Markdown heading line (``## Title``: 2), 0 for other lines."""
    m = _HEADING.match(line)
    return len(m.group(1)) if m else 0


def markdown_runs(line: str) -> list[tuple[str, str]]:
    """One line of Markdown as ``(text, kind)`` runs that join back to ``line``. Kinds:
    ``heading`` (the whole line), ``marker`` (a list, checkbox or quote prefix), ``bold``,
    ``italic``, ``code``, ``link`` and ``plain``."""
    if heading_level(line):
        return [(line, "heading")]
    runs: list[tuple[str, str]] = []
    m = _PREFIX.match(line)
    if m:
        runs.append((m.group(0), "marker"))
        line = line[m.end():]
    at = 0
    for span in _INLINE.finditer(line):
        if span.start() > at:
            runs.append((line[at:span.start()], "plain"))
        token = span.group(0)
        kind = ("bold" if token[:2] in ("**", "__") else "code" if token[0] == "`"
                else "link" if token[0] == "[" else "italic")
        runs.append((token, kind))
        at = span.end()
    if at < len(line):
        runs.append((line[at:], "plain"))
    return runs


#: Font size of a heading of each level (logical pixels); body text is ``T.FONT["body"]``.
HEADING_SIZE = {1: 62, 2: 56, 3: 50}
CODE_BG = (232, 234, 240)
LINE_PITCH = 1.35


def line_size(line: str) -> int:
    level = heading_level(line)
    return HEADING_SIZE.get(level, T.FONT["body"] + 2) if level else T.FONT["body"]


def editor_lines(text: str, width: int) -> list[str]:
    """The text wrapped into the lines the editor draws (headings wrap at their size)."""
    out: list[str] = []
    for para in text.split("\n"):
        size = line_size(para)
        wrapped = T.wrap_text(para, width, size)
        if heading_level(para):  # a heading's continuation lines stay headings
            wrapped = [wrapped[0], *(f"{'#' * heading_level(para)} {w}" for w in wrapped[1:])]
        out.extend(wrapped)
    return out


def _draw_editor(p: Painter, k: Look) -> None:
    """A borderless editor: highlighted lines from the top; when focused, the lines that end
    at the cursor (the end of the text) and the cursor."""
    pad, top = 8, 16
    dark = luminance(k.bg) < 128
    fg = (236, 238, 242) if dark else k.pal.text
    accent = k.pal.primary if not dark else (138, 180, 248)
    if not k.text:
        if k.hint:
            p.text(pad, top + T.FONT["body"] * LINE_PITCH / 2, k.hint, T.FONT["body"], k.pal.hint,
                   max_w=k.lw - 2 * pad)
        if k.focused:
            _cursor(p, pad, top + T.FONT["body"] * LINE_PITCH / 2, T.FONT["body"], accent)
        return
    lines = editor_lines(k.text, k.lw - 2 * pad - 8)
    pitches = [int(line_size(line) * LINE_PITCH) for line in lines]
    first = 0
    if k.focused:  # keep the end of the text (the cursor) in view
        room, used = k.lh - top, 0
        first = len(lines)
        while first > 0 and used + pitches[first - 1] <= room:
            first -= 1
            used += pitches[first]
    y = float(top)
    end_x, end_y, end_size = float(pad), y, T.FONT["body"]
    for line, pitch in zip(lines[first:], pitches[first:], strict=True):
        if y + pitch > k.lh + pitch / 2:
            break
        size = line_size(line)
        cy = y + pitch / 2
        x = float(pad)
        for run, kind in markdown_runs(line):
            if kind == "heading":
                x = p.text(x, cy, run, size, accent, bold=True, max_w=k.lw - x - pad)
            elif kind == "code":
                w = p.width(run, size)
                p.rect(x, cy - size * 0.62, x + w + 4, cy + size * 0.62,
                       mix(CODE_BG, k.bg, 0.85) if dark else CODE_BG, radius=6)
                x = p.text(x + 2, cy, run, size, (200, 40, 90) if not dark else (255, 138, 170),
                           bg=CODE_BG) + 2
            else:
                color = {"marker": accent, "link": accent, "bold": fg,
                         "italic": mix(fg, accent, 0.45)}.get(kind, fg)
                start = x
                x = p.text(x, cy, run, size, color, bold=kind in ("bold", "marker"))
                if kind == "link":
                    p.hline(start, x, cy + size * 0.62, 3, accent)
        end_x, end_y, end_size = x, cy, size
        y += pitch
    if k.focused and k.enabled:
        _cursor(p, end_x + 3, end_y, end_size, accent)


def _cursor(p: Painter, x: float, cy: float, size: float, color: tuple[int, int, int]) -> None:
    p.rect(x, cy - size * 0.58, x + 4, cy + size * 0.58, color)


DRAW[f"text_field:{STYLE}"] = _draw_editor


# --- editing -----------------------------------------------------------------------------------
def _wrap_last_word(text: str, left: str, right: str) -> str:
    """Wrap the last word of ``text`` in ``left``/``right``; unwrap it when it is wrapped; an
    empty pair at the end when the text does not end with a word."""
    m = _WORD.search(text)
    if m is None:
        return text + left + right
    word = m.group(1)
    if len(word) > len(left) + len(right) and word.startswith(left) and word.endswith(right):
        return text[:m.start()] + word[len(left):len(word) - len(right)]
    return text[:m.start()] + left + word + right


def _toggle_prefix(text: str, prefix: str, pattern: re.Pattern[str]) -> str:
    """Toggle ``prefix`` at the start of the last line (replacing another prefix that
    ``pattern`` matches there)."""
    head, sep, line = text.rpartition("\n")
    m = pattern.match(line)
    if m and m.group(0).strip() == prefix.strip():
        line = line[m.end():]
    else:
        line = prefix + (line[m.end():] if m else line)
    return head + sep + line


def bold(text: str) -> str:
    """The last word in bold (``**word**``), or back to plain."""
    return _wrap_last_word(text, "**", "**")


def italic(text: str) -> str:
    """The last word in italics (``_word_``, as Markor writes them), or back to plain."""
    return _wrap_last_word(text, "_", "_")


def code(text: str) -> str:
    """The last word as inline code (`` `word` ``), or back to plain."""
    return _wrap_last_word(text, "`", "`")


def link(text: str) -> str:
    """The last word as a link's text (``[word]()``), or an empty link."""
    return _wrap_last_word(text, "[", "]()")


def header(text: str) -> str:
    """The last line as a heading (``# ``), or back to a paragraph."""
    return _toggle_prefix(text, "# ", re.compile(r"^#{1,6} "))


def bullet(text: str) -> str:
    """The last line as a list item (``- ``), or back to a paragraph."""
    return _toggle_prefix(text, "- ", re.compile(r"^(- \[[ xX]\] |[-*+] )"))


def checkbox(text: str) -> str:
    """The last line as a to-do item (``- [ ] ``), or back to a paragraph."""
    return _toggle_prefix(text, "- [ ] ", re.compile(r"^(- \[[ xX]\] |[-*+] )"))


#: The formatting bar's text actions: content description -> (id, glyph, edit).
FORMATS: dict[str, tuple[str, str, Callable[[str], str]]] = {
    "Bold": ("format_bold", "B", bold),
    "Italic": ("format_italic", "I", italic),
    "Header": ("format_header", "H", header),
    "List": ("format_list", "≡", bullet),
    "Checkbox": ("format_checkbox", "☑", checkbox),
    "Code": ("format_code", "<>", code),
    "Link": ("format_link", "🔗", link),
}


def apply_format(name: str, text: str) -> str:
    """``text`` after the formatting action ``name`` (a key of ``FORMATS``)."""
    if name not in FORMATS:
        raise ValueError(f"unknown format {name!r}: expected one of {', '.join(FORMATS)}")
    return FORMATS[name][2](text)


@dataclass
class EditHistory:
    """The editor's undo and redo stacks (texts before each change, newest last)."""

    undo: list[str] = field(default_factory=list)
    redo: list[str] = field(default_factory=list)

    def record(self, before: str, after: str) -> None:
        """Note a change from ``before`` to ``after`` (a new change forgets the redo steps)."""
        if before == after:
            return
        self.undo = [*self.undo, before][-HISTORY:]
        self.redo = []

    def step_back(self, current: str) -> str:
        """The text before the last change (``current`` when there is none)."""
        if not self.undo:
            return current
        self.redo = [*self.redo, current]
        *self.undo, before = self.undo
        return before

    def step_forward(self, current: str) -> str:
        """The text of the last undone change (``current`` when there is none)."""
        if not self.redo:
            return current
        self.undo = [*self.undo, current]
        *self.redo, after = self.redo
        return after


def tracked(text: str, on_change: TextHandler, history: EditHistory) -> TextHandler:
    """``on_change`` that first records the change in ``history``."""
    def change(new: str) -> None:
        history.record(text, new)
        on_change(new)
    return change


def EditorView(text: str, on_change: TextHandler, history: EditHistory | None = None, *,
               id: str = "editor", label: str = "", hint: str = "") -> Node:
    """The editor: a borderless ``text_field`` (style ``markdown``) drawing ``text``
    highlighted; typing calls ``on_change`` (recorded in ``history`` when given). Show it
    as a screen's last content node with ``Screen(fill=True)`` to fill the screen."""
    handler = tracked(text, on_change, history) if history is not None else on_change
    node = TextField(text, handler, id=id, label=label, hint=hint, multiline=True)
    node.style = STYLE
    node.height = 1200
    return node


def FormatBar(text: str, on_change: TextHandler, history: EditHistory, *,
              id: str = "format_bar") -> Node:
    """The formatting bar: one icon per ``FORMATS`` action (ids ``format_<name>``, described
    by the action's name), then Undo and Redo (ids ``undo``/``redo``, enabled when there is
    a step)."""
    def act(name: str) -> Callable[[], None]:
        def run() -> None:
            new = apply_format(name, text)
            history.record(text, new)
            on_change(new)
        return run

    def undo() -> None:
        on_change(history.step_back(text))

    def redo() -> None:
        on_change(history.step_forward(text))

    icons = [Icon(glyph, name, act(name), id=nid) for name, (nid, glyph, _) in FORMATS.items()]
    icons += [when(bool(history.undo), Icon("↶", "Undo", undo, id="undo")),
              when(bool(history.redo), Icon("↷", "Redo", redo, id="redo"))]
    return Row(icons, id=id)
