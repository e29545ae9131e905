"""Information handoff: a value read in one app is written into another (a WeChat message,
an SMS, a note, an e-mail, a post on X, a calendar event, a playlist).

A template declares data, as with ``tasks.families``, and ``Handoff`` makes the criteria, the
allowed changes (so the near misses) and the oracle. The data:

- the destination: a base (``ToChat``, ``ToSms``, ``ToNote``, ``ToMail``, ``ToPost``,
  ``ToDoc``: a new 腾讯文档 document holding the value alone) that
  knows the table, the new record's fields and the oracle's step that writes it, or the
  template's own ``collection``, ``fields`` and ``write``;
- the value and its matcher, ``reading(p)``: mostly ``common.holds`` (exactly that value, so
  a dump of every candidate fails while any wording around it passes);
- the source reading, ``read(ui, p)``: the oracle's steps in the source app, which return
  the text to write;
- ``also``: values the task sets on the way (a permission denied).

Criteria: ``also``, then one counted ``Record`` per stage (``stages``: the record's fields,
or milestones of it), so a wrong first try left beside the record fails on the count.
Allowed: one added record, and ``also``. The oracle reads, writes and finishes."""

from __future__ import annotations

import copy
from collections.abc import Generator, Iterator, Mapping, Sequence
from typing import Any, ClassVar

from ...actions import PhoneAction
from ...mockapps.chat.fixtures import MESSAGES as CHAT_MESSAGES
from ...mockapps.docs import fixtures as docs
from ...mockapps.mail.fixtures import COLLECTION as MAILS
from ...mockapps.mail.fixtures import sent
from ...mockapps.messages.fixtures import COLLECTION as SMS
from ...mockapps.messages.fixtures import send_sms
from ...mockapps.notes.fixtures import COLLECTION as NOTES
from ...mockapps.social.fixtures import ME as SOCIAL_ME
from ...mockapps.social.fixtures import POSTS as SOCIAL_POSTS
from ...tasks.driver import Driver
from ...tasks.families import CreateRecord, RecordTask, record_keys
from ...verifiers import (
    Allow,
    Allowed,
    Becomes,
    Criterion,
    NearMiss,
    Record,
    Value,
    matching,
    same_text,
)
from ..common import ChatTarget, SmsTarget, compose_mail, new_note
from .artifact import POSTED

#: What ``read`` is: oracle steps that return the text read.
Read = Generator[PhoneAction, None, str]


def rewritten(state: Mapping[str, Any], collection: str, where: Mapping[str, Any],
              name: str, value: Any, why: str) -> NearMiss:
    """A near miss: ``state`` with the field ``name`` of each record of ``collection``
    matching ``where`` set to ``value`` (another value written, the value with words)."""
    wrong = copy.deepcopy(dict(state))
    for record in matching(wrong, collection, where):
        record[name] = value  # type: ignore[index]
    return NearMiss(wrong, None, why)


class Handoff(RecordTask):
    """Read a value in one app and write it into a new record of ``collection`` in another
    (see the module). ``CreateRecord``'s checks, but not one: the sentence names only what
    is on the phone (a friend, a city), not the record; ``ToNote`` and ``ToMail``, whose
    sentences name it (a title, a subject), are ``CreateRecord``s too."""

    tags: ClassVar[frozenset[str]] = frozenset({"handoff"})
    #: Paths the task sets on the way, and the value each must end with.
    also: ClassVar[Mapping[str, Any]] = {}
    #: What the added record must be like when it is added (default: anything).
    added: ClassVar[Mapping[str, Any]] = {}

    def reading(self, params: Mapping[str, Any]) -> Any:
        """What the written text must hold (a matcher)."""
        raise NotImplementedError

    def fields(self, params: Mapping[str, Any]) -> Mapping[str, Any]:
        """The new record's fields (the destination's, around ``reading``)."""
        raise NotImplementedError

    def stages(self, params: Mapping[str, Any],
               initial: Mapping[str, Any]) -> Sequence[Mapping[str, Any]]:
        """The new record's fields at each milestone, a criterion each (default: ``fields``)."""
        return [self.fields(params)]

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [*(Value(path, value) for path, value in self.also.items()),
                *(Record(self.collection, fields,
                         count=len(record_keys(initial, self.collection, fields)) + 1)
                  for fields in self.stages(params, initial))]

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [*(Becomes(path, value) for path, value in self.also.items()),
                Allow(self.collection, "added", max=1, where=self.added)]

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


class ToNote(Handoff, CreateRecord):
    """A new note titled ``p["title"]`` (a ``CreateRecord``: the sentence names it)."""

    collection = NOTES

    def fields(self, params: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"title": same_text(params["title"]), "body": self.reading(params)}

    def write(self, ui: Driver, params: Mapping[str, Any], text: str) -> Iterator[PhoneAction]:
        return new_note(ui, params["title"], text)


class ToMail(Handoff, CreateRecord):
    """An e-mail sent to ``p["to"]`` with the subject ``p["subject"]`` (a ``CreateRecord``:
    the sentence names it)."""

    collection = MAILS

    def fields(self, params: Mapping[str, Any]) -> Mapping[str, Any]:
        return sent(params["to"], same_text(params["subject"]), self.reading(params))

    def write(self, ui: Driver, params: Mapping[str, Any], text: str) -> Iterator[PhoneAction]:
        return compose_mail(ui, params["to"], params["subject"], text)


class ToPost(Handoff):
    """A new post on X (not a reply)."""

    collection = SOCIAL_POSTS
    added = POSTED

    def fields(self, params: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"author": SOCIAL_ME, "reply_to": 0, "text": self.reading(params)}

    def write(self, ui: Driver, params: Mapping[str, Any], text: str) -> Iterator[PhoneAction]:
        yield from ui.open_app("Social")
        yield from ui.tap(id="nav_main")
        yield from ui.tap(id="compose")
        yield from ui.fill("post_text", text)
        yield from ui.tap(id="send")


class ToDoc(Handoff):
    """A new 腾讯文档 document titled ``p["doc_title"]`` whose body is ``value(p, initial)``
    alone (``same_text``); ``wrong(p)``: bodies beside it that must fail (another record's
    value, the value with its name), each a declared near miss."""

    collection = docs.COLLECTION

    def value(self, params: Mapping[str, Any], initial: Mapping[str, Any]) -> str:
        """The text the body must be: read off the params, or the initial state."""
        raise NotImplementedError

    def wrong(self, params: Mapping[str, Any]) -> Sequence[tuple[str, str]]:
        """Wrong bodies and why each is wrong."""
        return ()

    def stages(self, params: Mapping[str, Any],
               initial: Mapping[str, Any]) -> Sequence[Mapping[str, Any]]:
        return [{"title": same_text(params["doc_title"]),
                 "body": same_text(self.value(params, initial))}]

    def declared_near_misses(self, initial: Any, final: Any, params: Mapping[str, Any],
                             answer: str | None) -> list[NearMiss]:
        mine = {"title": same_text(params["doc_title"])}
        return [rewritten(final, self.collection, mine, "body", body, why)
                for body, why in self.wrong(params)]

    def write(self, ui: Driver, params: Mapping[str, Any], text: str) -> Iterator[PhoneAction]:
        return docs.new_doc(ui, params["doc_title"], text)
