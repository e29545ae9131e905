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


def test_deliveries_are_written_once_for_the_checker_and_the_oracle() -> None:
    """``sends`` reads one view: the checker's puts what the oracle reads off the screens
    (``shown``) over the params; the oracle's puts what it saw there instead, and reads the
    ``checked`` params (the sender's address, the file's digest) as None without touching
    them."""
    import numpy as np

    from phone_gym.crossapp.artifact_docs import CrossMailQuoteDecide, amount_of
    from phone_gym.crossapp.families.artifact import Mail

    task = CrossMailQuoteDecide()
    p = task.sample_params(np.random.default_rng(0))
    checker = task.view(p)
    assert checker["name"] == p["doc"]["name"] and checker["sha1"]
    assert checker["amount"] == amount_of(p["doc"]["content"]) > 0
    read: list[str] = []

    class Watched(dict):  # type: ignore[type-arg]
        def __getitem__(self, key: str) -> object:
            read.append(key)
            return super().__getitem__(key)

    seen = {"name": "quote_1.pdf", "amount": p["budget"] + 1}
    (reply,) = task.sends(task.view(Watched(p), seen))
    assert isinstance(reply, Mail) and reply.to is None and reply.reply == p["mail_subject"]
    assert "addr" not in read and "doc" not in read
    (mail,) = task.sends(task.view(p, {**seen, "amount": p["budget"]}))
    assert isinstance(mail, Mail)
    assert [f.path for f in mail.files] == ["/sdcard/Download/quote_1.pdf"]
