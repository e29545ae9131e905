"""Phone, modelled on Google's dialer: a keypad, the call log (Recents) and the contacts.

The call log is the shared ``calls`` store (``system.calls``: the call-log provider), the
contacts the shared ``contacts`` store; the app keeps only transient UI state (the tab, the
number typed on the keypad, the call in progress). Placing a call (the keypad's call button,
a tap on a recent call or on a contact) shows the in-call screen and adds an outgoing entry
to the call log, named when the number is a contact's; ending it sets the entry's duration.
``tel:`` links (``VIEW`` and ``DIAL`` intents with ``tel:`` data) open the keypad with the
number typed; ``DIAL`` without data opens the keypad.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from urllib.parse import unquote

from ...verifiers.criteria import national
from ...world.app import App, Route
from ...world.data import Listing
from ...world.kit import BottomNav
from ...world.kit.localize import in_locale
from ...world.manifest import Intent
from ...world.system import Call, Contact, SystemState
from ...world.widgets import (
    Button,
    Icon,
    ListItem,
    Node,
    Row,
    Screen,
    Text,
    TopBar,
    VirtualList,
)
from .manifest import MANIFEST

TABS = ("Keypad", "Recents", "Contacts")
#: The bottom bar's icons (Google Phone's dialpad, clock and people).
TAB_ICONS = ("dialpad", "schedule", "people")
KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "*", "0", "#")
KIND_LABELS = {"incoming": "Incoming", "outgoing": "Outgoing", "missed": "Missed",
               "rejected": "Declined", "voicemail": "Voicemail", "blocked": "Blocked"}
KEY_IDS = {"*": "star", "#": "pound"}
MAX_DIGITS = 20


@dataclass
class PhoneUi:
    """Transient state, lost on force-stop."""

    tab: str = "Keypad"
    number: str = ""  # typed on the keypad
    calling: int | None = None  # the call-log id of the call in progress
    started: datetime | None = None


def call_time(now: datetime, minutes_ago: int = 0) -> str:
    """An ISO time ``minutes_ago`` before ``now`` (as call-log dates are stored)."""
    return (now - timedelta(minutes=minutes_ago)).isoformat(timespec="seconds")


def name_for(system: SystemState, number: str) -> str:
    """The name of the contact whose number is ``number`` (national digits compared)."""
    want = national(number)
    for c in system.contacts:
        if want and c.phone and national(c.phone) == want:
            return c.name
    return ""


def place_call(system: SystemState, number: str) -> Call:
    """Add the outgoing call to the call log (its duration is set when it ends)."""
    return system.calls.new(number=number, name=name_for(system, number),
                             date=call_time(system.now), duration=0, kind="outgoing")


def end_call(system: SystemState, call_id: int, started: datetime | None) -> None:
    """Set the call's duration from the simulated clock."""
    call = system.calls.get(call_id)
    if call is None or started is None:
        return
    seconds = max(0, int((system.now - started).total_seconds()))
    if seconds != call.duration:
        system.calls.update(call_id, duration=seconds)


def call_order(c: Call) -> tuple[str, int]:
    return (c.date, c.id)


def contact_order(c: Contact) -> tuple[str, int]:
    return (c.name.casefold(), c.id)


def newest_calls(system: SystemState) -> Listing[Call]:
    """The call log by time: an index kept on every write of the log."""
    return system.calls.index("newest", call_order)


def by_name(system: SystemState) -> Listing[Contact]:
    """The contacts by name (any case), then id: kept on every write."""
    return system.contacts.index("phone_by_name", contact_order)


def recent_calls(system: SystemState) -> Sequence[Call]:
    """The call log, newest first."""
    return newest_calls(system).view(system.calls, reverse=True)


def dialable(number: str) -> bool:
    return len(national(number)) >= 3


class PhoneApp(App):
    manifest = MANIFEST

    ui: PhoneUi

    def initial_ui(self) -> PhoneUi:
        return PhoneUi()

    @classmethod
    def index_system(cls, system: SystemState) -> None:
        newest_calls(system)
        by_name(system)

    # links
    def open_link(self, uri: str) -> None:
        """``tel:<number>`` (URL-encoded: ``tel:%2B1...``): the keypad with the number typed."""
        self.stack = [Route("main")]
        self.ui.tab, self.ui.number = "Keypad", unquote(uri[len("tel:"):])[:MAX_DIGITS]

    def handle_intent(self, intent: Intent) -> bool:
        """``DIAL`` (Android's dialer answers it with or without a ``tel:`` number)."""
        if intent.data and intent.data.startswith("tel:"):
            self.open_link(intent.data)
        else:
            self.stack, self.ui.tab = [Route("main")], "Keypad"
        return True

    # updates
    def select(self, tab: str) -> None:
        self.ui.tab = tab

    def press_key(self, key: str) -> None:
        if len(self.ui.number) < MAX_DIGITS:
            self.ui.number += key

    def delete_key(self) -> None:
        self.ui.number = self.ui.number[:-1]

    def call(self, number: str) -> None:
        if not dialable(number):
            self.toast(self.t("Enter a number to call"))
            return
        call = place_call(self.system, number)
        self.ui.calling, self.ui.started = call.id, self.system.now
        self.go("call", call.id)

    def hang_up(self) -> None:
        if self.ui.calling is not None:
            end_call(self.system, self.ui.calling, self.ui.started)
        self.ui.calling, self.ui.started = None, None
        if self.route.name == "call":
            self.back()

    # views
    def view(self, route: Route) -> Screen:
        if route.name == "call":
            screen = self.in_call(route.arg)
        else:
            if self.ui.tab == "Recents":
                content = self.recents()
            elif self.ui.tab == "Contacts":
                content = self.contacts()
            else:
                content = self.keypad()
            screen = Screen(top_bar=TopBar(MANIFEST.look.title), content=content,
                            bottom=BottomNav(TABS, TAB_ICONS, self.ui.tab, self.select))
        return in_locale(self, screen)

    def keypad(self) -> list[Node]:
        number = self.ui.number
        keys = [Button(k, partial(self.press_key, k), id=f"dial_{KEY_IDS.get(k, k)}",
                       style="secondary") for k in KEYS]
        rows = [Row(keys[i:i + 3], id=f"keypad_row_{i // 3}") for i in range(0, 12, 3)]
        delete = Icon("⌫", "Delete digit", self.delete_key, id="delete_digit")
        delete.enabled = bool(number)
        return [
            Row([Text(number or "Enter a number", style="big" if number else "caption",
                      id="digits"), delete], id="display"),
            *rows,
            Button("Call", lambda: self.call(number), id="call", enabled=dialable(number)),
        ]

    def recent_row(self, c: Call) -> Node:
        when = c.date.replace("T", " ")[:16]
        label = self.t(KIND_LABELS.get(c.kind, c.kind.capitalize()))
        return ListItem(c.name or c.number, f"{label} · {when}", id=f"call_{c.id}",
                        glyph=(c.name[:1] or "#").upper(),
                        on_click=lambda: self.call(c.number),
                        trailing=Icon("📞", self.t("Call {who}", who=c.name or c.number),
                                      lambda: self.call(c.number), id=f"call_back_{c.id}"))

    def recents(self) -> list[Node]:
        calls = recent_calls(self.system)
        return [VirtualList(len(calls), lambda i: self.recent_row(calls[i]), id="recents",
                            empty_text="No recent calls")]

    def contact_row(self, c: Contact) -> Node:
        return ListItem(c.name, c.phone or "No number", id=f"contact_{c.id}",
                        glyph=(c.name[:1] or "#").upper(),
                        on_click=(lambda: self.call(c.phone)) if c.phone else None)

    def contacts(self) -> list[Node]:
        contacts = self.system.contacts
        people = by_name(self.system).view(contacts)
        return [VirtualList(len(people), lambda i: self.contact_row(people[i]),
                            id="contacts", empty_text="No contacts")]

    def in_call(self, call_id: int) -> Screen:
        call = self.system.calls.get(call_id)
        who = (call.name or call.number) if call is not None else "Call ended"
        number = call.number if call is not None and call.name else ""

        def back() -> bool:
            self.hang_up()
            return True

        return Screen(
            content=[Text(who, style="title", id="callee"),
                     *([Text(number, id="callee_number")] if number else []),
                     Text("Calling…", style="caption", id="call_state"),
                     Button("End call", self.hang_up, id="end_call", style="danger")],
            on_back=back,
        )
