"""A chat thread: message bubbles (outgoing at the right), their times and senders, the
senders' avatars (optional: initials on a colour disc beside incoming bubbles), and a
composer: a field with a Send button, inline under the thread or docked at the bottom of
the screen (``Composer`` as ``Screen(dock=...)``) with an emoji button and a button that
is "more" (attach) while the draft is empty and Send once it holds text, as WeChat's."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .. import theme as T
from ..layout import bubble_height
from ..painter import Look, Painter
from ..widgets import (
    Handler,
    Icon,
    ListView,
    MenuItem,
    Node,
    Row,
    TextField,
    TextHandler,
    VirtualList,
)
from ..widgets_draw import DRAW, avatar_color
from .common import tall, weighted

RGB = tuple[int, int, int]

#: Threads of this many messages or more are virtual lists: only the bubbles on screen are
#: built, every row two lines of text tall (longer messages are cut short on screen; their
#: whole text stays in the accessibility tree).
VIRTUAL_FROM = 60
ROW_LINES = 2


@dataclass(frozen=True)
class ChatMessage:
    """One message: its text, whether the user sent it, who sent it (shown on incoming
    messages; leave it blank in a one-to-one chat) and when (as shown, e.g. ``09:41``)."""

    text: str
    outgoing: bool = False
    sender: str = ""
    time: str = ""


def Bubble(message: ChatMessage, *, id: str = "", menu: list[MenuItem] | None = None) -> Node:
    """A message bubble: its text, its time (the hint) and its sender (the description:
    ``You`` for outgoing ones); long press copies it (and shows ``menu``)."""
    m = message
    return Node("bubble", text=m.text, hint=m.time, desc="You" if m.outgoing else m.sender,
                style="out" if m.outgoing else "in", copyable=True, menu=menu, id=id)


#: An avatar's diameter and the share of the thread's width its column takes.
AVATAR_D = 112
AVATAR_SHARE = 0.14
#: What the emoji button of a composer inserts.
EMOJI = "🙂"


def initials(name: str) -> str:
    """Up to two initials of ``name`` ("Li Wei" -> "LW"); "#" for a phone number."""
    words = [w for w in name.replace("_", " ").split() if w[:1].isalpha()]
    return "".join(w[0] for w in words[:2]).upper() or "#"  # a number: "#"


def Avatar(name: str, *, id: str = "", color: RGB | None = None) -> Node:
    """A person's avatar: their initials on a colour disc (the colour follows the name),
    described ``Avatar of <name>`` (an ImageView)."""
    if not name.strip():
        raise ValueError("an avatar needs a name: expected a non-blank sender")
    glyph = initials(name)
    return Node("picture", style="avatar", glyph=glyph, desc=f"Avatar of {name}", id=id,
                color=color or avatar_color(name, None), height=AVATAR_D + 8)


def _draw_avatar(p: Painter, k: Look) -> None:
    d = min(k.lw - 8, AVATAR_D)
    p.avatar(d / 2 + 4, d / 2 + 4, d, k.glyph, k.color or k.pal.primary, k.bg)


def _draw_send(p: Painter, k: Look) -> None:
    """Send: an arrow on an accent disc when there is something to send, else greyed."""
    r = min(k.lw, k.lh) * 0.34
    cx, cy = k.lw / 2, k.lh / 2
    if not k.enabled:
        p.glyph(cx, cy, k.glyph, r * 2, k.pal.hint, k.bg, fallback=k.desc)
        return
    p.circle(cx, cy, r, k.pal.primary)
    p.glyph(cx + r * 0.08, cy, k.glyph, r * 1.5, k.pal.on_primary, k.pal.primary, fallback=k.desc)


DRAW["picture:avatar"] = _draw_avatar
DRAW["icon:send"] = _draw_send


def Composer(draft: str, on_draft: TextHandler, on_send: Callable[[str], None], *,
             hint: str = "Message", on_more: Handler | None = None,
             more_desc: str = "Attach", more_id: str = "attach", emoji: bool = True,
             id: str = "composer_bar") -> Node:
    """A composer bar: an Emoji button (id ``emoji``: adds ``EMOJI`` to the draft) when
    ``emoji``, the field (id ``composer``), and Send (id ``send``: calls
    ``on_send(draft.strip())``, as enter in the field does). With ``on_more`` the last
    button is the "more" button (``more_id``, described ``more_desc``) while the draft is
    blank and becomes Send once it holds text; without it Send is disabled while blank."""
    def send() -> None:
        if draft.strip():
            on_send(draft.strip())

    field = TextField(draft, on_draft, hint=hint, id="composer", label=hint, on_submit=send)
    h = T.HEIGHTS["text_field"]
    if on_more is not None and not draft.strip():
        last = Icon("+", more_desc, on_more, id=more_id)
    else:
        last = Icon("▶", "Send", send, id="send")
        last.enabled = bool(draft.strip())
        last.style = "send"
    kids = [weighted(tall(Icon("☺", "Emoji", lambda: on_draft(draft + EMOJI), id="emoji"), h),
                     0.14)] if emoji else []
    kids += [field, weighted(tall(last, h), 0.16)]
    return Row(kids, id=id)


def ChatThread(
    messages: Sequence[ChatMessage], *, draft: str, on_draft: TextHandler,
    on_send: Callable[[str], None], id: str = "thread", hint: str = "Message",
    menu: Callable[[int], list[MenuItem]] | None = None, empty_text: str = "No messages yet",
    composer: bool = True, avatars: bool = False, peer: str = "",
) -> list[Node]:
    """Content: the messages, oldest first (bubbles with ids ``message_<i>``; a virtual list
    from ``VIRTUAL_FROM`` messages), then, when ``composer``, the composer: a field (id
    ``composer``) and a Send icon (id ``send``, enabled when the draft is not blank) that
    calls ``on_send(draft.strip())``, as does enter in the field (leave ``composer`` off to
    dock a ``Composer`` instead). ``menu(i)`` gives extra long-press items for message
    ``i``. With ``avatars``, incoming bubbles sit beside their sender's ``Avatar`` (ids
    ``avatar_<i>``; ``peer`` names the sender of a one-to-one chat's messages). The screen
    opens at its top, so in a thread taller than the screen an inline composer is reached
    by scrolling down."""

    def bubble(i: int) -> Node:
        node = Bubble(messages[i], id=f"message_{i}", menu=menu(i) if menu else None)
        name = messages[i].sender or peer
        if not avatars or messages[i].outgoing or not name.strip():
            return node
        face = weighted(Avatar(name, id=f"avatar_{i}"), AVATAR_SHARE)
        return Row([face, weighted(node, 1 - AVATAR_SHARE)], id=f"row_{i}")

    if len(messages) >= VIRTUAL_FROM:
        sample = Node("bubble", text="\n".join(["x"] * ROW_LINES), hint="00:00", desc="x")
        row_h = bubble_height(sample, T.SCREEN_W - 2 * T.PAD)
        thread = VirtualList(len(messages), bubble, id=id, row_height=row_h,
                             empty_text=empty_text)
    else:
        thread = ListView([bubble(i) for i in range(len(messages))], id=id,
                          empty_text=empty_text)
    if not composer:
        return [thread]
    return [thread, Composer(draft, on_draft, on_send, hint=hint, emoji=False)]
