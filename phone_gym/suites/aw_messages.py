"""AndroidWorld's Simple SMS Messenger tasks and ContactsNewContactDraft, mapped to the SMS
Messenger (``mockapps.messages``) and Contacts templates."""

from __future__ import annotations

_SENT = ("exactly one new sent message is counted (a wrong text left beside the right one, or "
         "a second copy, fails) and every other change fails; SMS Messenger must be on screen at "
         "the end on PhoneWorld (a real phone's snapshot does not show it); no 5-minute window "
         "(the clock is simulated)")

MAPPED: dict[str, tuple[str, str]] = {
    "SimpleSmsSend": (
        "SimpleSmsSend",
        f"same check (a sent SMS with that text to that number); {_SENT}"),
    "SimpleSmsReply": (
        "SimpleSmsReply",
        f"same seeding (1-5 incoming texts, at least one from the number); {_SENT}"),
    "SimpleSmsReplyMostRecent": (
        "SimpleSmsReplyMostRecent",
        f"same seeding (0-5 earlier texts, the newest from the number); {_SENT}"),
    "SimpleSmsResend": (
        "SimpleSmsResend",
        "same check (one new sent message equal to the last one sent to the contact); an "
        "older, different text to that contact is seeded too, so resending it fails; "
        + _SENT.split("; ", 1)[1]),
    "SimpleSmsSendClipboardContent": (
        "SimpleSmsSendClipboardContent",
        f"the clipboard is seeded directly (no Clipper app), so PhoneWorld only; {_SENT}"),
    "SimpleSmsSendReceivedAddress": (
        "SimpleSmsSendReceivedAddress",
        "the text to the first contact must contain the address just received and no other "
        "address (the contact sent an older address too: pasting both fails); "
        + _SENT.split("; ", 1)[1]),
    "ContactsNewContactDraft": (
        "ContactsNewContactDraft",
        "AndroidWorld reads the unsaved form off the screen; here the contacts editor keeps "
        "the open form in the app's data and the check reads that state (name as one field, "
        "number by digits, phone type), fails if a contact was saved, and needs Contacts on "
        "screen; PhoneWorld only"),
}
