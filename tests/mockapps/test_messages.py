"""SMS Messenger driven through phone actions: conversations, threads, new conversations,
copy and forward, deleting; its verifiers against wrong ends; and the Contacts editor's
unsaved draft (ContactsNewContactDraft, AndroidWorld's task of this group)."""

from __future__ import annotations

import numpy as np
import pytest
from driving import Driver, act, drive, fill, long_press, press, shown, tap, type_text

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import TEMPLATES, Episode
from phone_gym.mockapps.contacts import ContactsApp
from phone_gym.mockapps.messages import MessagesApp
from phone_gym.mockapps.messages.app import conversations, resolve_recipient, thread_key
from phone_gym.mockapps.messages.tasks import send_sms
from phone_gym.mockapps.phone import PhoneApp
from phone_gym.testing import check_app
from phone_gym.world import Device
from phone_gym.world.system import SystemState

PACKAGE = "com.simplemobiletools.smsmessenger"


def rows(device: Device) -> list[str]:
    return [p.node.text for p in device.frame().items if p.node.kind == "list_item"]


def sms(system: SystemState, address: str, body: str, date: str, box: str = "inbox",
        read: bool = True) -> None:
    system.messages.new(address=address, body=body, date=date, box=box, read=read)


@pytest.fixture
def device() -> Device:
    """A phone with a contact (Maria Garcia) and three conversations, on SMS Messenger."""
    dev = Device([MessagesApp, ContactsApp, PhoneApp])
    s = dev.system
    s.add_contact("Maria Garcia", "+1 415-555-0101")
    sms(s, "+14155550101", "Lunch tomorrow?", "2023-10-15T09:00:00")
    sms(s, "+12125550177", "On my way!", "2023-10-15T11:00:00", read=False)
    sms(s, "4155550101", "Sure, noon works.", "2023-10-15T10:00:00", box="sent")
    sms(s, "+13125550150", "1482 Maple Grove Ave", "2023-10-15T08:00:00")
    dev.invalidate()
    act(dev, PhoneAction("open_app", app="Messages"))
    return dev


# --- the app -----------------------------------------------------------------------------------
def test_conversations_group_by_number_newest_first_with_contact_names(device: Device) -> None:
    assert rows(device) == ["+12125550177 (1)", "Maria Garcia", "+13125550150"]
    maria = conversations(device.system)[1]
    assert maria.key == thread_key("+1 (415) 555-0101") and len(maria.messages) == 2
    assert shown(device, "You: Sure, noon works. · Oct 15") is False  # times of today
    item = Driver(device).find("Maria Garcia", kind="list_item")
    assert item is not None and item.node.hint.startswith("You: Sure, noon works.")


def test_opening_a_thread_marks_it_read_and_shows_bubbles(device: Device) -> None:
    tap(device, "+12125550177 (1)", kind="list_item")
    assert shown(device, "On my way!", kind="bubble")
    assert all(m.read for m in device.system.messages)
    press(device, "back")
    assert rows(device)[0] == "+12125550177"


def test_sending_in_a_thread_stores_a_sent_message(device: Device) -> None:
    tap(device, "Maria Garcia", kind="list_item")
    assert shown(device, "4155550101", id="thread_address")  # as the newest text has it
    fill(device, "composer", "See you at noon")
    tap(device, id="send")
    last = device.system.messages.values()[-1]
    assert (last.address, last.body, last.box, last.read) == ("4155550101", "See you at noon",
                                                              "sent", True)
    assert last.date[:10] == device.system.now.date().isoformat()
    assert shown(device, "See you at noon", kind="bubble")
    tap(device, id="navigate_up")
    assert rows(device)[0] == "Maria Garcia"


def test_a_new_conversation_with_a_number_or_a_contact(device: Device) -> None:
    tap(device, id="new_conversation")
    tap(device, id="recipient", kind="text_field")
    type_text(device, "mar")
    tap(device, "Maria Garcia", kind="list_item")  # a suggestion
    fill(device, "composer", "Hello")
    tap(device, id="send")
    assert device.system.messages.values()[-1].address == "+1 415-555-0101"
    assert shown(device, "Hello", kind="bubble")
    press(device, "back")
    drive(device, send_sms(Driver(device), "+16465550123", "Hi there"))
    assert device.system.messages.values()[-1].address == "+16465550123"
    assert rows(device) == []  # the thread is open
    press(device, "back")
    assert rows(device)[0] == "+16465550123"


def test_a_recipient_that_is_no_number_sends_nothing(device: Device) -> None:
    before = len(device.system.messages)
    tap(device, id="new_conversation")
    fill(device, "recipient", "nobody")
    fill(device, "composer", "Hello")
    tap(device, id="send")
    assert len(device.system.messages) == before and shown(device, "New conversation")
    assert resolve_recipient(device.system, "maria garcia") == "+1 415-555-0101"
    assert resolve_recipient(device.system, "12") is None


def test_copy_and_forward_a_bubble(device: Device) -> None:
    tap(device, "+13125550150", kind="list_item")
    long_press(device, "1482 Maple Grove Ave", kind="bubble")
    tap(device, "Copy", kind="menu_item")
    assert device.system.clipboard == "1482 Maple Grove Ave"
    long_press(device, "1482 Maple Grove Ave", kind="bubble")
    tap(device, "Forward", kind="menu_item")
    found = Driver(device).find(id="composer", kind="text_field")
    assert found is not None and found.node.text == "1482 Maple Grove Ave"
    fill(device, "recipient", "Maria Garcia")
    tap(device, id="send")
    last = device.system.messages.values()[-1]
    assert (last.address, last.body, last.box) == ("+1 415-555-0101", "1482 Maple Grove Ave",
                                                   "sent")


def test_paste_the_clipboard_into_a_new_message(device: Device) -> None:
    device.system.clipboard = "From the clipboard"
    tap(device, id="new_conversation")
    fill(device, "recipient", "+16465550123")
    long_press(device, id="composer", kind="text_field")
    tap(device, "Paste", kind="menu_item")
    tap(device, id="send")
    assert device.system.messages.values()[-1].body == "From the clipboard"


def test_search_and_delete_a_conversation(device: Device) -> None:
    fill(device, "search", "maple")
    assert rows(device) == ["+13125550150"]
    fill(device, "search", "")
    long_press(device, "Maria Garcia", kind="list_item")
    tap(device, "Delete", kind="menu_item")
    tap(device, id="button_cancel")
    assert "Maria Garcia" in rows(device)
    long_press(device, "Maria Garcia", kind="list_item")
    tap(device, "Delete", kind="menu_item")
    tap(device, id="button_delete")
    assert "Maria Garcia" not in rows(device)
    assert all(thread_key(m.address) != "4155550101" for m in device.system.messages)
    assert len(device.system.contacts) == 1  # the contact stays


def test_check_app() -> None:
    report = check_app(MessagesApp, 3000)
    assert not report.problems, report.problems


# --- the verifiers -------------------------------------------------------------------------------
def episode(task_id: str, seed: int = 0) -> tuple[Device, Episode]:
    from phone_gym.mockapps import APPS

    dev = Device(APPS)
    return dev, Episode(TEMPLATES[task_id], dev, np.random.default_rng(seed))


def solved(dev: Device, ep: Episode) -> Episode:
    ep.solve()
    return ep


@pytest.mark.parametrize("task_id", ["SimpleSmsResend", "SimpleSmsSendReceivedAddress",
                                     "SimpleSmsSend"])
def test_a_wrong_text_left_beside_the_right_one_fails(task_id: str) -> None:
    dev, ep = episode(task_id)
    drive(dev, send_sms(Driver(dev), ep.params["number"], "Sorry, wrong text"))
    press(dev, "home")
    ep.restart_oracle()
    solved(dev, ep)
    assert not ep.verify(None, "success").success


def test_sending_the_right_text_twice_fails() -> None:
    dev, ep = episode("SimpleSmsReply")
    solved(dev, ep)
    assert ep.verify(None, "success").success
    fill(dev, "composer", ep.params["message"])
    tap(dev, id="send")
    assert not ep.verify(None, "success").success


def test_the_sms_app_must_be_on_screen_at_the_end() -> None:
    dev, ep = episode("SimpleSmsSend")
    solved(dev, ep)
    assert ep.verify(None, "success").success
    press(dev, "home")
    assert dev.foreground_package() != PACKAGE
    assert not ep.verify(None, "success").success


def test_resending_the_older_text_fails() -> None:
    dev, ep = episode("SimpleSmsResend", 3)
    drive(dev, send_sms(Driver(dev), ep.params["number"], ep.params["older"]))
    assert not ep.verify(None, "success").success


def test_every_address_pasted_into_one_text_fails() -> None:
    dev, ep = episode("SimpleSmsSendReceivedAddress", 1)
    p = ep.params
    both = f"{p['old_address']} or {p['address']}"
    drive(dev, send_sms(Driver(dev), p["number"], both))
    assert not ep.verify(None, "success").success
    dev2, ep2 = episode("SimpleSmsSendReceivedAddress", 1)
    drive(dev2, send_sms(Driver(dev2), p["number"], f"Here it is: {p['address']}"))
    assert ep2.verify(None, "success").success  # AndroidWorld accepts the address in a text


def test_replying_to_the_top_thread_of_another_number_fails() -> None:
    dev, ep = episode("SimpleSmsReplyMostRecent", 2)
    others = ep.params["earlier"]
    assert others, "seed 2 has earlier texts"
    drive(dev, send_sms(Driver(dev), others[-1], ep.params["message"]))
    assert not ep.verify(None, "success").success


# --- Contacts: the unsaved new-contact form ------------------------------------------------------
def test_the_contacts_editor_keeps_its_open_form_until_saved_or_closed() -> None:
    dev = Device([ContactsApp])
    act(dev, PhoneAction("open_app", app="Contacts"))
    app = dev.apps["Contacts"]
    assert isinstance(app, ContactsApp)
    tap(dev, id="create_contact")
    assert app.data.draft is None
    fill(dev, "name", "Ana Lopez")
    tap(dev, id="phone_type")
    tap(dev, "Work", kind="radio")
    assert app.data.draft is not None
    assert (app.data.draft.name, app.data.draft.label) == ("Ana Lopez", "Work")
    press(dev, "home")
    assert app.data.draft is not None  # the editor is still open behind the home screen
    act(dev, PhoneAction("close_app", app="Contacts"))
    assert app.data.draft is None  # force-stopped
    act(dev, PhoneAction("open_app", app="Contacts"))
    tap(dev, id="create_contact")
    fill(dev, "name", "Ana Lopez")
    tap(dev, id="save")
    assert app.data.draft is None and len(dev.system.contacts) == 1
    tap(dev, id="edit")  # editing a saved contact keeps no draft
    fill(dev, "name", "Ana M. Lopez")
    assert app.data.draft is None


def test_a_saved_contact_fails_the_draft_task() -> None:
    dev, ep = episode("ContactsNewContactDraft", 4)
    solved(dev, ep)
    assert ep.verify(None, "success").success
    tap(dev, id="save")
    assert not ep.verify(None, "success").success


def test_the_draft_task_needs_the_form_left_open() -> None:
    dev, ep = episode("ContactsNewContactDraft", 5)
    solved(dev, ep)
    press(dev, "back")
    tap(dev, id="button_discard")
    assert not ep.verify(None, "success").success
