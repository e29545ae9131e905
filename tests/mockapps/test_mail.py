"""The Mail app driven through phone actions: the notifications prompt, the navigation
drawer's categories, folders and labels, folders that load, reading, starring, archiving,
labels, the trash and its confirmation, search, compose with an attachment, reply all and
forward, drafts, and ``check_app``."""

from __future__ import annotations

import pytest
from driving import Driver, act, fill, long_press, press, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps.mail.app import ME, Mail, MailApp, add_mail, listed, unread_count
from phone_gym.testing import check_app
from phone_gym.world import Device


def mail_of(device: Device) -> MailApp:
    app = device.apps["Mail"]
    assert isinstance(app, MailApp)
    return app


def message(device: Device, mail_id: int) -> Mail:
    found = mail_of(device).data.messages.get(mail_id)
    assert found is not None, mail_id
    return found


def sent(device: Device) -> list[Mail]:
    return [m for m in mail_of(device).data.messages if m.folder == "sent"]


@pytest.fixture
def device() -> Device:
    """Mail with four messages (ids 1..4) and a file in Downloads, opened, prompt dismissed."""
    dev = Device([MailApp])
    data = mail_of(dev).data
    add_mail(data, "Olivia Chen", "olivia.chen@northwind.com", "Lunch on Thursday?",
             "Are you free?", date="2026-03-01 10:00", cc="ethan.park@northwind.com")
    add_mail(data, "ShopMart", "deals@shopmart.com", "Weekend sale", "30% off",
             date="2026-03-02 10:00", category="Promotions")
    add_mail(data, "Marcus Reid", "marcus.reid@gmail.com", "Photos", "See attached.",
             date="2026-03-03 10:00", attachments=["/sdcard/Download/beach.jpg"], read=True)
    add_mail(data, "Grace Kim", "grace.kim@contoso.org", "Old thread", "Bye",
             date="2026-02-01 10:00", folder="trash", read=True)
    dev.system.write_file("/sdcard/Download/report.pdf", "report")
    act(dev, PhoneAction("open_app", app="Mail"))
    assert shown(dev, "Turn on notifications?")
    tap(dev, id="button_no_thanks")
    return dev


def test_inbox_lists_primary_newest_first_and_tabs_load(device: Device) -> None:
    app = mail_of(device)
    assert [m.id for m in listed(app.data, "Inbox", "Primary")] == [3, 1]
    assert shown(device, id="mail_3") and not shown(device, id="mail_2")
    assert unread_count(app.data, "Promotions") == 1
    tap(device, desc="Open navigation drawer")
    tap(device, id="tab_promotions")
    assert shown(device, id="loading") and not shown(device, id="mail_2")
    act(device, PhoneAction("wait", seconds=2))
    assert shown(device, id="mail_2") and not shown(device, id="loading")
    tap(device, desc="Open navigation drawer")
    tap(device, id="tab_primary")  # the Primary inbox never loads
    assert shown(device, id="mail_1")


def test_the_drawer_holds_gmails_categories_folders_and_labels(device: Device) -> None:
    assert not shown(device, id="tab_primary")  # no top tabs: the categories are in the drawer
    tap(device, desc="Open navigation drawer")
    placed = Driver(device).find(id="navigation_drawer")
    assert placed is not None
    rows = [(n.text, n.id, n.hint, n.selected) for n in placed.node.children
            if n.kind == "drawer_item"]
    assert rows[:3] == [("Primary", "tab_primary", "1", True),
                        ("Promotions", "tab_promotions", "", False),
                        ("Social", "tab_social", "", False)]
    assert [r[0] for r in rows[3:]] == ["Starred", "Sent", "Drafts", "All mail", "Trash",
                                        "Work", "Family", "Travel", "Receipts", "Finance"]
    assert [r[1] for r in rows[3:5]] == ["option_starred", "option_sent"]
    assert shown(device, id="option_finance")  # the last label fits on the screen
    press(device, "back")
    assert not shown(device, id="navigation_drawer") and shown(device, id="mail_3")
    act(device, PhoneAction("drag", x=10, y=500, x2=700, y2=510))  # the edge swipe too
    tap(device, id="option_trash")
    act(device, PhoneAction("wait", seconds=2))
    assert shown(device, id="mail_4") and shown(device, "Trash", kind="top_bar")


def test_reading_shows_details_and_changes_nothing(device: Device) -> None:
    before = message(device, 1)
    tap(device, id="mail_1")
    assert shown(device, "From: Olivia Chen <olivia.chen@northwind.com>")
    assert shown(device, "Are you free?")
    assert message(device, 1) == before
    press(device, "back")
    tap(device, id="mail_3")
    assert shown(device, "beach.jpg", kind="list_item")


def test_star_archive_mark_unread_and_move_to_label(device: Device) -> None:
    tap(device, id="mail_1")
    tap(device, id="star")
    assert message(device, 1).starred
    tap(device, id="move")
    tap(device, id="option_travel")
    assert message(device, 1).label == "Travel"
    tap(device, id="archive")
    assert message(device, 1).folder == "archive"
    assert not shown(device, id="mail_1")
    long_press(device, id="mail_3")
    tap(device, "Mark unread", kind="menu_item")
    assert not message(device, 3).read


def test_trash_delete_forever_and_empty_with_confirmation(device: Device) -> None:
    long_press(device, id="mail_1")
    tap(device, "Delete", kind="menu_item")
    assert message(device, 1).folder == "trash"
    tap(device, desc="Open navigation drawer")
    tap(device, id="option_trash")
    act(device, PhoneAction("wait", seconds=2))
    long_press(device, id="mail_4")
    tap(device, "Delete forever", kind="menu_item")
    assert mail_of(device).data.messages.get(4) is None
    tap(device, id="empty_trash")
    tap(device, id="button_cancel")
    assert message(device, 1).folder == "trash"
    tap(device, id="empty_trash")
    tap(device, id="button_empty")
    assert mail_of(device).data.messages.get(1) is None


def test_search_finds_by_sender_and_text(device: Device) -> None:
    tap(device, id="search_mail")
    fill(device, "search", "marcus")
    assert shown(device, id="mail_3") and not shown(device, id="mail_1")
    fill(device, "search", "Bye")  # in the trash: not found
    assert shown(device, 'No results for "Bye"')


def test_compose_with_attachment_and_send(device: Device) -> None:
    tap(device, id="compose")
    fill(device, "to", "sam.ito@fastmail.com")
    fill(device, "subject", "Report")
    fill(device, "body", "Here it is.")
    tap(device, id="attach")
    tap(device, "report.pdf", kind="list_item")
    tap(device, id="send")
    (mail,) = sent(device)
    assert (mail.to, mail.subject, mail.body, mail.attachments, mail.sender_addr) == (
        "sam.ito@fastmail.com", "Report", "Here it is.", ("/sdcard/Download/report.pdf",), ME)


def test_send_needs_a_recipient_and_back_keeps_a_draft(device: Device) -> None:
    tap(device, id="compose")
    fill(device, "subject", "Half written")
    tap(device, id="send")
    assert not sent(device)
    press(device, "back")  # hides the keyboard
    press(device, "back")
    drafts = [m for m in mail_of(device).data.messages if m.folder == "drafts"]
    assert [m.subject for m in drafts] == ["Half written"]


def test_reply_all_and_forward_prefill(device: Device) -> None:
    tap(device, id="mail_1")
    tap(device, id="reply_all")
    draft = mail_of(device).ui.draft
    assert (draft.to, draft.cc, draft.subject) == (
        "olivia.chen@northwind.com", "ethan.park@northwind.com", "Re: Lunch on Thursday?")
    press(device, "back")  # a reply with nothing typed is still a draft: it has recipients
    press(device, "back")
    tap(device, id="mail_3")
    tap(device, id="forward")
    fill(device, "to", "casey.tran@protonmail.com")
    tap(device, id="send")
    fwd = [m for m in sent(device) if m.subject == "Fwd: Photos"]
    assert len(fwd) == 1 and fwd[0].attachments == ("/sdcard/Download/beach.jpg",)


def test_the_prompt_comes_back_after_a_force_stop_but_data_stays(device: Device) -> None:
    tap(device, id="mail_1")
    tap(device, id="star")
    act(device, PhoneAction("close_app", app="Mail"))
    act(device, PhoneAction("open_app", app="Mail"))
    assert shown(device, "Turn on notifications?")
    assert message(device, 1).starred


def test_check_app() -> None:
    report = check_app(MailApp, 3000)
    assert report.steps == 3000
