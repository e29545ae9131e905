"""Information handoff: a value read in one app is written into another (a WeChat message,
an SMS, a note, an e-mail, a post on X, a calendar event, a playlist).

A template declares data and ``Handoff`` makes the rest, as the families of
``tasks.families`` do:

- the destination: a base (``ToChat``, ``ToSms``, ``ToNote``, ``ToMail``, ``ToPost``) that
  knows the table, the fields of the one new record around its text, and the oracle's step
  that writes it; or a ``collection``, ``fields`` and ``write`` of the template's own;
- the value and its matcher, ``reading(p)``: what the written text must hold, mostly
  ``common.holds(kind, value, names=..., mention=..., decoys=...)`` (exactly that value, so
  a text that dumps every candidate fails, while any wording around the value passes);
- the source reading, ``read(ui, p)``: the oracle's steps in the source app, which return
  the text to write.

The criteria are one counted ``Record`` per stage of the new record (``stages``: its fields,
or milestones of it), so a wrong first try left beside the right record fails on the count;
one added record is allowed, nothing else (near misses derive from these). The oracle reads,
writes and finishes.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Mapping, Sequence
from typing import Any, ClassVar

from ...actions import PhoneAction
from ...mockapps.chat.fixtures import MESSAGES as CHAT_MESSAGES
from ...mockapps.mail.fixtures import COLLECTION as MAILS
from ...mockapps.mail.fixtures import sent
from ...mockapps.messages.fixtures import COLLECTION as SMS
from ...mockapps.messages.fixtures import send_sms
from ...mockapps.notes.fixtures import COLLECTION as NOTES
from ...mockapps.social.fixtures import ME as SOCIAL_ME
from ...mockapps.social.fixtures import POSTS as SOCIAL_POSTS
from ...tasks.driver import Driver
from ...tasks.families import CreateRecord, record_keys
from ...verifiers import Criterion, Record, same_text
from ..common import ChatTarget, SmsTarget, compose_mail, new_note

#: What ``read`` is: oracle steps that return the text read.
Read = Generator[PhoneAction, None, str]


class Handoff(CreateRecord):
    """Read a value in one app and write it into a new record of ``collection`` in another
    (see the module)."""

    tags: ClassVar[frozenset[str]] = frozenset({"handoff"})

    def reading(self, params: Mapping[str, Any]) -> Any:
        """What the written text must hold (a matcher)."""
        raise NotImplementedError

    def stages(self, params: Mapping[str, Any],
               initial: Mapping[str, Any]) -> Sequence[Mapping[str, Any]]:
        """The new record's fields at each milestone, a criterion each (default: ``fields``)."""
        return [self.fields(params)]

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Record(self.collection, fields,
                       count=len(record_keys(initial, self.collection, fields)) + 1)
                for fields in self.stages(params, initial)]

    def read(self, ui: Driver, params: Mapping[str, Any]) -> Read:
        """The oracle's steps in the source app; returns the text to write."""
        raise NotImplementedError

    def write(self, ui: Driver, params: Mapping[str, Any], text: str) -> Iterator[PhoneAction]:
        """The oracle's steps that write ``text`` into the destination."""
        raise NotImplementedError

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        text = yield from self.read(ui, params)
        yield from self.write(ui, params, text)
        yield from ui.finish()


class ToChat(ChatTarget, Handoff):
    """A WeChat message to ``p["friend"]`` (``ChatTarget``: params, seeding)."""

    collection = CHAT_MESSAGES

    def fields(self, params: Mapping[str, Any]) -> Mapping[str, Any]:
        return self.chat_fields(params, self.reading(params))

    def write(self, ui: Driver, params: Mapping[str, Any], text: str) -> Iterator[PhoneAction]:
        return self.tell(ui, params, text)


class ToSms(SmsTarget, Handoff):
    """An SMS to the contact ``p["person"]`` (``SmsTarget``: params, seeding)."""

    collection = SMS

    def fields(self, params: Mapping[str, Any]) -> Mapping[str, Any]:
        return self.sms_fields(params, self.reading(params))

    def write(self, ui: Driver, params: Mapping[str, Any], text: str) -> Iterator[PhoneAction]:
        return send_sms(ui, params["person"], text)


class ToNote(Handoff):
    """A new note titled ``p["title"]``."""

    collection = NOTES

    def fields(self, params: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"title": same_text(params["title"]), "body": self.reading(params)}

    def write(self, ui: Driver, params: Mapping[str, Any], text: str) -> Iterator[PhoneAction]:
        return new_note(ui, params["title"], text)


class ToMail(Handoff):
    """An e-mail sent to ``p["to"]`` with the subject ``p["subject"]``."""

    collection = MAILS

    def fields(self, params: Mapping[str, Any]) -> Mapping[str, Any]:
        return sent(params["to"], same_text(params["subject"]), self.reading(params))

    def write(self, ui: Driver, params: Mapping[str, Any], text: str) -> Iterator[PhoneAction]:
        return compose_mail(ui, params["to"], params["subject"], text)


class ToPost(Handoff):
    """A new post on X (not a reply)."""

    collection = SOCIAL_POSTS

    def fields(self, params: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"author": SOCIAL_ME, "reply_to": 0, "text": self.reading(params)}

    def write(self, ui: Driver, params: Mapping[str, Any], text: str) -> Iterator[PhoneAction]:
        yield from ui.open_app("Social")
        yield from ui.tap(id="nav_main")
        yield from ui.tap(id="compose")
        yield from ui.fill("post_text", text)
        yield from ui.tap(id="send")
