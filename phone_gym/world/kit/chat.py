"""A chat thread: message bubbles (outgoing at the right), their times and senders, and a
composer with a send button."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .. import theme as T
from ..layout import bubble_height
from ..widgets import Icon, ListView, MenuItem, Node, Row, TextField, TextHandler, VirtualList
from .common import tall, weighted

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


def ChatThread(
    messages: Sequence[ChatMessage], *, draft: str, on_draft: TextHandler,
    on_send: Callable[[str], None], id: str = "thread", hint: str = "Message",
    menu: Callable[[int], list[MenuItem]] | None = None, empty_text: str = "No messages yet",
) -> list[Node]:
    """Content: the messages, oldest first (bubbles with ids ``message_<i>``; a virtual list
    from ``VIRTUAL_FROM`` messages), then the composer: a field (id ``composer``) and a Send
    icon (id ``send``, enabled when the draft is not blank) that calls
    ``on_send(draft.strip())``, as does enter in the field. ``menu(i)`` gives extra
    long-press items for message ``i``. The screen opens at its top, so in a thread taller
    than the screen the composer is reached by scrolling down."""

    def bubble(i: int) -> Node:
        return Bubble(messages[i], id=f"message_{i}", menu=menu(i) if menu else None)

    if len(messages) >= VIRTUAL_FROM:
        sample = Node("bubble", text="\n".join(["x"] * ROW_LINES), hint="00:00", desc="x")
        row_h = bubble_height(sample, T.SCREEN_W - 2 * T.PAD)
        thread = VirtualList(len(messages), bubble, id=id, row_height=row_h,
                             empty_text=empty_text)
    else:
        thread = ListView([bubble(i) for i in range(len(messages))], id=id,
                          empty_text=empty_text)

    def send() -> None:
        if draft.strip():
            on_send(draft.strip())

    field = TextField(draft, on_draft, hint=hint, id="composer", label=hint, on_submit=send)
    button = Icon("▶", "Send", send, id="send")
    button.enabled = bool(draft.strip())
    composer = Row([field, weighted(tall(button, T.HEIGHTS["text_field"]), 0.16)],
                   id="composer_bar")
    return [thread, composer]
