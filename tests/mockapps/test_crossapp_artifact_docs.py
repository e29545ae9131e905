"""What the artifact_docs cross-app templates rely on: Mail's download button saves a received
attachment (kept in the app's private storage) into ``/sdcard/Download``, a second download
of the same name gets " (1)", and Files then sees the saved file."""

from __future__ import annotations

from driving import act, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps.files.app import FilesApp
from phone_gym.mockapps.mail.app import ATTACHMENTS, MailApp, add_mail
from phone_gym.world import Device


def device() -> Device:
    dev = Device([MailApp, FilesApp])
    app = dev.apps["Mail"]
    assert isinstance(app, MailApp)
    path = f"{ATTACHMENTS}/0/invoice_2231.pdf"
    dev.system.write_file(path, "Invoice 2231\nTotal due: $240", "application/pdf")
    add_mail(app.data, "Olivia Chen", "olivia.chen@northwind.com", "Invoice",
             "Attached.", date="2026-03-01 10:00", attachments=[path])
    act(dev, PhoneAction("open_app", app="Mail"))
    tap(dev, id="button_no_thanks")
    return dev


def test_download_saves_the_attachment_into_download() -> None:
    dev = device()
    tap(dev, id="mail_1")
    assert shown(dev, "invoice_2231.pdf")
    tap(dev, desc="Download invoice_2231.pdf")
    saved = dev.system.files.get("/sdcard/Download/invoice_2231.pdf")
    assert saved is not None and saved.content.startswith("Invoice 2231")
    assert saved.mime == "application/pdf"
    tap(dev, desc="Download invoice_2231.pdf")
    assert "/sdcard/Download/invoice_2231 (1).pdf" in dev.system.files
    act(dev, PhoneAction("open_app", app="Files"))
    tap(dev, "Download", kind="list_item")
    assert shown(dev, "invoice_2231.pdf") and shown(dev, "invoice_2231 (1).pdf")


def test_private_attachments_are_not_offered_by_the_picker() -> None:
    dev = device()
    tap(dev, id="compose")
    tap(dev, id="attach")
    assert not shown(dev, "invoice_2231.pdf")
