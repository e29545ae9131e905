"""SMS Messenger, modelled on Simple SMS Messenger: conversations, threads and new messages.

Messages live in the shared SMS store (``system.messages``, Telephony's semantics: ``box``
inbox, sent, draft or outbox), not in the app's own data, so verifiers read them at
``messages.<id>`` on PhoneWorld and real phones alike. The app keeps only transient UI state:
the search query, the thread's composer, the new-conversation form and open dialogs.

Screens:

- the conversation list: one row per address (numbers compare by their national digits, so
  ``+1 415-555-0123`` and ``4155550123`` are one thread), newest first, titled with the
  contact's name when the number is a contact's; a search field; long press to delete a
  conversation (after a confirmation); the + button starts a new conversation;
- a thread: the bubbles (oldest first; long press to copy or forward one) and a composer;
  opening it marks its unread messages read;
- a new conversation: a recipient field (a number, or a contact picked from the suggestions
  it shows), the message and Send, which stores the message in the sent box and opens its
  thread.

Intents (the manifest's): ``SENDTO`` or ``VIEW`` of ``smsto:NUMBER`` / ``sms:NUMBER`` open a
new conversation to that number, the text from the ``sms_body`` extra (or ``?body=``); a
``SEND`` (a share) opens one with its ``android.intent.extra.TEXT``. Nothing is sent until
Send is tapped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import parse_qs, unquote

from ...verifiers.criteria import national
from ...world.app import App, Route
from ...world.data import Grouping, Mapped
from ...world.kit import ChatMessage, ChatThread, Composer, ConfirmDialog, SearchList
from ...world.kit.localize import in_locale
from ...world.locale import DEFAULT_LOCALE, format_date
from ...world.manifest import Intent
from ...world.system import Contact, Message, SystemState, thread_key
from ...world.widgets import (
    Fab,
    ListItem,
    ListView,
    MenuItem,
    Node,
    Screen,
    Text,
    TextField,
    TopBar,
)
from .manifest import MANIFEST

MIN_DIGITS = 3  # a recipient with fewer digits (and no contact of that name) is refused


# --- state -------------------------------------------------------------------------------
@dataclass
class MessagesUi:
    """Transient state, lost on force-stop."""

    query: str = ""
    draft: str = ""  # the open thread's composer
    recipient: str = ""  # the new-conversation screen's fields
    new_text: str = ""
    deleting: str | None = None  # the key of the conversation a delete dialog asks about


@dataclass(frozen=True)
class Conversation:
    """The messages of one address: ``key`` its national digits (the address itself when it
    has none), ``address`` as its newest message gives it, ``name`` the contact's name or the
    address, and the messages oldest first."""

    key: str
    address: str
    name: str
    messages: tuple[Message, ...]

    @property
    def last(self) -> Message:
        return self.messages[-1]

    @property
    def unread(self) -> int:
        return sum(1 for m in self.messages if m.box == "inbox" and not m.read)


# --- reading and writing the SMS store ---------------------------------------------------------
def threads(system: SystemState) -> Grouping[Message]:
    """The messages by conversation (the SMS store's thread index, kept on every write):
    each thread oldest first, the threads by their newest message."""
    return system.threads()


def numbers(system: SystemState) -> Grouping[Contact]:
    """The contacts by the conversation their number names, in the store's order."""
    return system.numbers()


def contact_for(system: SystemState, address: str) -> Contact | None:
    """The contact whose number is ``address`` (national digits compared), if any: the
    first in the store's order."""
    found = numbers(system).members(thread_key(address))
    return found[0] if found else None


def name_for(system: SystemState, key: str, address: str) -> str:
    """The conversation's title: the name of the last contact (in the store's order) with
    its number, else the address."""
    contact = numbers(system).last(key)
    return contact.name if contact is not None else address


def conversation(system: SystemState, key: str) -> Conversation | None:
    """The conversation ``key`` (its messages read from the thread index), if any."""
    found = threads(system).members(key)
    if not found:
        return None
    address = found[-1].address
    return Conversation(key, address, name_for(system, key, address), tuple(found))


def conversations(system: SystemState) -> Sequence[Conversation]:
    """Every conversation, the one with the newest message first (drafts aside), built
    row by row as the list shows them."""

    def built(key: str) -> Conversation:
        found = conversation(system, key)
        assert found is not None
        return found

    return Mapped(threads(system).ranked(), built)


def send_message(system: SystemState, address: str, body: str) -> Message:
    """Store an SMS the user sends: the sent box, read, dated now."""
    return system.messages.new(address=address.strip(), body=body,
                               date=system.now.isoformat(timespec="seconds"), box="sent",
                               read=True)


def mark_read(system: SystemState, key: str) -> None:
    """Mark the conversation's unread incoming messages read (only those: a read message is
    not written again)."""
    for m in threads(system).members(key):
        if m.box == "inbox" and not m.read:
            system.messages.update(m.id, read=True)


def delete_conversation(system: SystemState, key: str) -> None:
    """Delete every message of the conversation (drafts to its address too)."""
    for m in list(system.messages):
        if thread_key(m.address) == key:
            system.messages.remove(m.id)


def resolve_recipient(system: SystemState, text: str) -> str | None:
    """The address a typed recipient stands for: a contact's number (by the contact's name,
    any case), or the text itself when it is a number; None otherwise."""
    wanted = text.strip()
    for c in system.contacts:
        if c.phone and c.name.casefold() == wanted.casefold():
            return c.phone
    if len(national(wanted)) >= MIN_DIGITS and not any(ch.isalpha() for ch in wanted):
        return wanted
    return None


def suggestions(system: SystemState, text: str) -> list[Contact]:
    """Contacts with a number whose name or digits contain ``text`` (none for blank text)."""
    q = text.strip().casefold()
    if not q:
        return []
    digits = national(q)
    found = [c for c in system.contacts if c.phone and (
        q in c.name.casefold() or (digits and digits in national(c.phone)))]
    return sorted(found, key=lambda c: (c.name.casefold(), c.id))


def short_time(iso: str, now: datetime) -> str:
    """``15:02`` for today, ``Oct 14`` for another day (as the list and bubbles show it)."""
    try:
        when = datetime.fromisoformat(iso)
    except ValueError:
        return ""
    if when.date() == now.date():
        return when.strftime("%H:%M")
    return when.strftime("%b %-d")


def matches(c: Conversation, query: str) -> bool:
    q = query.strip().casefold()
    return not q or q in c.name.casefold() or q in c.address.casefold() or any(
        q in m.body.casefold() for m in c.messages)


# --- the app -------------------------------------------------------------------------------
class MessagesApp(App):
    manifest = MANIFEST

    ui: MessagesUi

    def initial_ui(self) -> MessagesUi:
        return MessagesUi()

    @classmethod
    def index_system(cls, system: SystemState) -> None:
        threads(system)
        numbers(system)

    # navigation with side effects
    def open_thread(self, key: str) -> None:
        self.ui.draft = ""
        mark_read(self.system, key)
        self.go("thread", key)

    def start_new(self, text: str = "") -> None:
        """The new-conversation screen (``text``: a message being forwarded)."""
        self.ui.recipient, self.ui.new_text = "", text
        self.go("new")

    def compose(self, recipient: str, text: str) -> None:
        """A new conversation over the list, filled in (what an intent opens)."""
        self.stack = [Route("main")]
        self.start_new(text)
        self.ui.recipient = recipient

    def open_link(self, uri: str) -> None:
        """``sms:``/``smsto:NUMBER[?body=TEXT]``."""
        number, _, query = uri.partition(":")[2].partition("?")
        self.compose(unquote(number), parse_qs(query).get("body", [""])[0])

    def handle_intent(self, intent: Intent) -> bool:
        """``SENDTO`` an ``smsto:`` number (``sms_body``: the text), or ``SEND`` a text."""
        if intent.action == "android.intent.action.SEND":
            self.compose("", str(intent.extras.get("android.intent.extra.TEXT") or ""))
        elif intent.data:
            self.open_link(intent.data)
            body = intent.extras.get("sms_body")
            if body is not None:
                self.ui.new_text = str(body)
        return True

    def send_in_thread(self, key: str, body: str) -> None:
        found = conversation(self.system, key)
        if found is None or not body.strip():
            return
        sent = send_message(self.system, found.address, body.strip())
        self.log(f"sent message {sent.id} in thread {found.key}", tag="SmsSender")
        self.ui.draft = ""

    def send_new(self, body: str) -> None:
        address = resolve_recipient(self.system, self.ui.recipient)
        if address is None:
            self.toast(self.t("Enter a valid number or pick a contact"))
            return
        if not body.strip():
            return
        sent = send_message(self.system, address, body.strip())
        self.log(f"sent message {sent.id} in a new thread", tag="SmsSender")
        self.ui.recipient, self.ui.new_text, self.ui.draft = "", "", ""
        self.replace("thread", thread_key(address))

    def pick_contact(self, contact: Contact) -> None:
        self.ui.recipient = contact.name

    def set_ui(self, **changes: str) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    def ask_delete(self, key: str | None) -> None:
        self.ui.deleting = key

    def confirm_delete(self, key: str) -> None:
        delete_conversation(self.system, key)
        self.ui.deleting = None
        if self.route.name == "thread":
            self.back()
        self.toast(self.t("Conversation deleted"))

    # views
    def view(self, route: Route) -> Screen:
        if route.name == "thread":
            screen = self.thread(route.arg)
        elif route.name == "new":
            screen = self.new_conversation()
        else:
            screen = self.conversation_list()
        return in_locale(self, screen)

    def when(self, iso: str) -> str:
        """A message's time as the list and bubbles show it: "15:02" today, else "Oct 14"
        (10月14日)."""
        text = short_time(iso, self.system.now)
        if self.system.locale == DEFAULT_LOCALE or ":" in text or not text:
            return text
        return format_date(datetime.fromisoformat(iso).date(), self.system.locale, year=False)

    def delete_dialog(self) -> Node | None:
        if self.ui.deleting is None:
            return None
        key = self.ui.deleting
        return ConfirmDialog("Delete conversation?",
                             "All messages of this conversation will be deleted.",
                             on_confirm=lambda: self.confirm_delete(key),
                             on_cancel=lambda: self.ask_delete(None), confirm="Delete",
                             destructive=True)

    def row(self, c: Conversation) -> Node:
        preview = (self.t("You: ") if c.last.box == "sent" else "") + c.last.body.split("\n")[0]
        title = f"{c.name} ({c.unread})" if c.unread else c.name
        return ListItem(title, f"{preview} · {self.when(c.last.date)}",
                        id=f"thread_{c.key}", glyph=(c.name.strip()[:1] or "#").upper(),
                        on_click=lambda: self.open_thread(c.key),
                        menu=[(self.t("Delete"), lambda: self.ask_delete(c.key))])

    def conversation_list(self) -> Screen:
        every = conversations(self.system)
        shown = [c for c in every if matches(c, self.ui.query)] if self.ui.query.strip() \
            else every
        return Screen(
            top_bar=TopBar("SMS Messenger"),
            content=SearchList(self.ui.query, lambda v: self.set_ui(query=v), len(shown),
                               lambda i: self.row(shown[i]), id="conversations",
                               hint="Search messages", empty_text="No conversations yet"),
            fab=Fab("+", "Start a conversation", lambda: self.start_new(), id="new_conversation"),
            dialog=self.delete_dialog(),
            on_dismiss=lambda: self.ask_delete(None),
        )

    def bubble_menu(self, messages: Sequence[Message], i: int) -> list[MenuItem]:
        body = messages[i].body
        return [(self.t("Forward"), lambda: self.start_new(body))]

    def thread(self, key: str) -> Screen:
        c = conversation(self.system, key)
        if c is None:
            return Screen(top_bar=TopBar("Conversation", on_back=self.back),
                          content=[Text("No messages", id="empty")])
        bubbles = [ChatMessage(m.body, outgoing=m.box != "inbox",
                               time=self.when(m.date)) for m in c.messages]
        subtitle = [Text(c.address, style="caption", id="thread_address")] \
            if c.name != c.address else []
        on_draft = lambda v: self.set_ui(draft=v)  # noqa: E731
        on_send = lambda body: self.send_in_thread(key, body)  # noqa: E731
        return Screen(
            top_bar=TopBar(c.name, on_back=self.back),
            content=[*subtitle, *ChatThread(
                bubbles, draft=self.ui.draft, on_draft=on_draft, on_send=on_send,
                hint="Type a message", menu=lambda i: self.bubble_menu(c.messages, i),
                composer=False, avatars=True, peer=c.name)],
            dock=Composer(self.ui.draft, on_draft, on_send, hint="Type a message",
                          emoji=False),
            dialog=self.delete_dialog(),
            on_dismiss=lambda: self.ask_delete(None),
        )

    def suggestion(self, contact: Contact) -> Node:
        return ListItem(contact.name, contact.phone, id=f"suggestion_{contact.id}",
                        glyph=(contact.name[:1] or "#").upper(),
                        on_click=lambda: self.pick_contact(contact))

    def new_conversation(self) -> Screen:
        found = [] if resolve_recipient(self.system, self.ui.recipient) and any(
            c.name.casefold() == self.ui.recipient.strip().casefold()
            for c in self.system.contacts) else suggestions(self.system, self.ui.recipient)
        return Screen(
            top_bar=TopBar("New conversation", on_back=self.back),
            content=[
                TextField(self.ui.recipient, lambda v: self.set_ui(recipient=v),
                          hint="Add contact or number", id="recipient", label="Recipient"),
                ListView([self.suggestion(c) for c in found[:6]], id="suggestions",
                         empty_text="Type a name or a number"),
            ],
            dock=Composer(self.ui.new_text, lambda v: self.set_ui(new_text=v), self.send_new,
                          hint="Type a message", emoji=False),
        )
