"""Artifact transfer: a file made or obtained in one app (a note, a photo, a recording, a
download) and used in another (attached to an e-mail, sent in a chat, posted on X).

A template declares data: ``files(p)``, the files it makes and where they must end up
(``File``: its folder and name, or a matcher of names for a file named when it is made; what
more of it is checked; how many; the old place a rename or a move leaves), and ``sends(p)``,
where the artifact must be delivered (``Mail``, ``Chat``, ``Post``: one record each). The
family turns them into criteria (a record per file and per delivery, counted), allowed
changes (those files added, one record per delivery, a rename's old file removed), near
misses (derived from the criteria) and the oracle: the template's ``make`` steps (which skip
what is made already), each delivery's steps, then finish. ``draws`` and ``seeds`` list the
steps of ``sample_params`` and ``setup``, in order.

    class CrossCameraPhotoToChat(Shot):
        template = "Take a photo with the camera and send it to {friend} on WeChat."
        draws, seeds = (friends_params, camera_params), (seed_friends, seed_camera)
        def sends(self, p): return [Chat(p["friend"], self.shot(p))]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...mockapps.chat import fixtures as chat
from ...mockapps.mail import fixtures as mail
from ...mockapps.social import fixtures as social
from ...tasks.driver import Driver, OracleError
from ...tasks.families import record_keys
from ...tasks.task import Task
from ...verifiers import (
    Allow,
    Allowed,
    Becomes,
    Criterion,
    Matcher,
    NoRecord,
    Record,
    matching,
    same_text,
)

FILES = "files"
#: A template's params.
Params = Mapping[str, Any]
#: A step of ``sample_params``: some of the params, drawn from ``rng``.
Draw = Callable[[np.random.Generator], dict[str, Any]]
#: A step of ``setup``: ``(state, params, rng)``.
Seed = Callable[[Any, Params, np.random.Generator], None]


# --- matchers --------------------------------------------------------------------------------
def attached(*paths: str) -> Matcher:
    """Attachments: exactly ``paths`` (each once, any order)."""
    want = sorted(paths)
    return Matcher(lambda v: sorted(v or ()) == want, f"exactly the attachments {want}")


NO_ATTACHMENT = Matcher(lambda v: not v, "no attachment")


def one_path(folder: str, name: Matcher) -> Matcher:
    """Attachments: exactly one path, in ``folder``, whose name ``name`` accepts."""
    def test(v: Any) -> bool:
        items = list(v or ())
        return (len(items) == 1 and isinstance(items[0], str)
                and items[0].rsplit("/", 1)[0] == folder and name(items[0].rsplit("/", 1)[-1]))
    return Matcher(test, f"one attachment in {folder}")


def in_folder(folder: str, name: Matcher) -> Matcher:
    """A path in ``folder`` whose name ``name`` accepts."""
    return Matcher(lambda v: isinstance(v, str) and v.rsplit("/", 1)[0] == folder
                   and name(v.rsplit("/", 1)[-1]), f"a picture in {folder}")


# --- what is made ----------------------------------------------------------------------------
@dataclass(frozen=True)
class File:
    """A file the task makes (writes, takes, saves, downloads, renames, moves) or uses, at
    ``folder``/``name``; ``name`` is a matcher for a file named when it is made (a photo).
    ``fields``: more of it checked (``sha1``, ``size``); ``count``: how many such files the
    end holds (``new``: one more than the start); ``gone``: a where-clause of files no
    longer there (a rename's or a move's old place: removing one there is allowed);
    ``alone``: a where-clause exactly one file matches at the end (moved, not copied)."""

    folder: str
    name: str | Matcher
    fields: Mapping[str, Any] = field(default_factory=dict)
    count: int | None = None
    new: bool = False
    gone: Mapping[str, Any] | None = None
    alone: Mapping[str, Any] | None = None

    @property
    def path(self) -> str:
        return f"{self.folder}/{self.name}"

    @property
    def place(self) -> dict[str, Any]:
        return {"folder": self.folder, "name": self.name}

    def criteria(self, initial: Params) -> list[Criterion]:
        where = {**self.place, **self.fields}
        count = len(record_keys(initial, FILES, where)) + 1 if self.new else self.count
        out: list[Criterion] = [Record(FILES, where, count=count)]
        if self.alone is not None:
            out.append(Record(FILES, self.alone, count=1))
        if self.gone is not None:
            out.append(NoRecord(FILES, self.gone))
        return out

    def allowed(self) -> list[Allowed]:
        gone = [Allow(FILES, "removed", where=self.gone)] if self.gone is not None else []
        return [*gone, Allow(FILES, "added", where=self.place)]

    def shown(self, ui: Driver) -> str:
        """The name a picker shows (for a matcher: the last of the folder's files it
        accepts, planning from state)."""
        if isinstance(self.name, str):
            return self.name
        return sorted(n for n in ui.state.list_dir(self.folder) if self.name(n))[-1]


# --- where it ends up: one record each, the changes that allows, the oracle steps -------------
@dataclass(frozen=True)
class Mail:
    """An e-mail sent to ``to``, with ``subject`` and ``body`` when given, and exactly the
    attachments ``files`` (their paths; ``named``: one attachment in the file's folder named
    like it, case aside). ``reply``: the subject of the received mail it answers."""

    to: str
    subject: str | None = None
    files: Sequence[File] = ()
    body: str | None = None
    reply: str | None = None
    named: bool = False

    def attachments(self) -> Matcher:
        if not self.files:
            return NO_ATTACHMENT
        if self.named:
            name = self.files[0].name
            return one_path(self.files[0].folder,
                            name if isinstance(name, Matcher) else same_text(name))
        return attached(*(f.path for f in self.files))

    def criterion(self, initial: Params) -> Criterion:
        fields: dict[str, Any] = {"folder": "sent", "to": same_text(self.to)}
        if self.subject is not None:
            fields["subject"] = same_text(self.subject)
        if self.body is not None:
            fields["body"] = same_text(self.body)
        return Record(mail.COLLECTION, {**fields, "attachments": self.attachments()}, count=1)

    def allowed(self) -> list[Allowed]:
        return [Allow(mail.COLLECTION, "added", where={"folder": "sent"})]

    def send(self, ui: Driver) -> Iterator[PhoneAction]:
        if self.reply is not None:
            yield from open_received(ui, mail_id(ui, self.reply))
            yield from ui.tap(id="reply")
        else:
            yield from mail.start(ui)
            yield from ui.tap(id="compose")
            yield from ui.fill("to", self.to)
            yield from ui.fill("subject", self.subject or "")
        for file in self.files:
            yield from ui.tap(id="attach")
            yield from ui.tap(file.shown(ui), kind="list_item")
        if self.body is not None:
            yield from ui.fill("body", self.body)
        yield from ui.tap(id="send")


@dataclass(frozen=True)
class Chat:
    """``file`` sent in the WeChat chat titled ``title`` (a group's when ``group``), as a
    picture or, ``kind="file"``, as a file."""

    title: str
    file: File
    kind: str = "image"
    group: bool = False

    @property
    def files(self) -> tuple[File]:
        return (self.file,)

    def criterion(self, initial: Params) -> Criterion:
        found = matching(initial, "apps.Chat.chats", {"title": self.title, "group": self.group})
        return Record(chat.MESSAGES, {"chat": int(found[0]["id"]) if found else -1,
                                      "sender": chat.ME, "kind": self.kind,
                                      "text": self.file.name}, count=1)

    def allowed(self) -> list[Allowed]:
        return [Allow(chat.MESSAGES, "added")]

    def send(self, ui: Driver) -> Iterator[PhoneAction]:
        yield from open_thread(ui, self.title)
        yield from ui.tap(id="attach")
        tab = "tab_album" if self.kind == "image" else "tab_file"
        if not ui.must(id=tab, kind="tab").selected:
            yield from ui.tap(id=tab, kind="tab")
        yield from ui.tap(self.file.shown(ui), kind="list_item")


@dataclass(frozen=True)
class Post:
    """The picture ``file`` posted on X with the caption ``text``."""

    text: str
    file: File

    @property
    def files(self) -> tuple[File]:
        return (self.file,)

    def criterion(self, initial: Params) -> Criterion:
        name = self.file.name
        image = in_folder(self.file.folder, name) if isinstance(name, Matcher) else self.file.path
        return Record(social.POSTS, {"author": social.ME, "image": image,
                                     "text": same_text(self.text), "reply_to": 0}, count=1)

    def allowed(self) -> list[Allowed]:
        # the new post as posted: liking, reposting or bookmarking it too is over-doing
        untouched = {"liked": False, "reposted": False, "bookmarked": False}
        return [Allow(social.POSTS, "added", where=untouched),
                Becomes("apps.Social.photos_access", "allowed")]

    def send(self, ui: Driver) -> Iterator[PhoneAction]:
        yield from ui.open_app("Social")
        yield from ui.tap(id="nav_main")
        yield from ui.tap(id="compose")
        yield from ui.fill("post_text", self.text)
        yield from ui.tap(id="add_image")
        if ui.find(id="button_allow") is not None:
            yield from ui.tap(id="button_allow")
        yield from ui.tap(self.file.shown(ui), kind="list_item")
        yield from ui.tap(id="send")


Delivery = Mail | Chat | Post


# --- the family ------------------------------------------------------------------------------
class ArtifactTask(Task):
    """Make ``files(p)`` and deliver them as ``sends(p)`` says, nothing else changed."""

    tags: ClassVar[frozenset[str]] = frozenset({"artifact"})
    draws: ClassVar[tuple[Draw, ...]] = ()
    seeds: ClassVar[tuple[Seed, ...]] = ()

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {k: v for draw in self.draws for k, v in draw(rng).items()}

    def setup(self, state: Any, params: Params, rng: np.random.Generator) -> None:
        for seed in self.seeds:
            seed(state, params, rng)

    def files(self, p: Params) -> Sequence[File]:
        """The files the task makes: by default the ones its deliveries carry."""
        return list({f.path: f for d in self.sends(p) for f in d.files}.values())

    def sends(self, p: Params) -> Sequence[Delivery]:
        return ()

    def criteria(self, p: Params, initial: Params) -> Sequence[Criterion]:
        return [*(c for f in self.files(p) for c in f.criteria(initial)),
                *(d.criterion(initial) for d in self.sends(p))]

    def allowed(self, p: Params, initial: Params) -> Sequence[Allowed]:
        return [*(a for f in self.files(p) for a in f.allowed()),
                *(a for d in self.sends(p) for a in d.allowed())]

    def make(self, ui: Driver, p: Params) -> Iterator[PhoneAction]:
        yield from ()

    def oracle(self, ui: Driver, p: Params) -> Iterator[PhoneAction]:
        yield from self.make(ui, p)
        for delivery in self.sends(p):
            yield from delivery.send(ui)
        yield from ui.finish()


# --- oracle steps ----------------------------------------------------------------------------
def mail_id(ui: Driver, subject: str) -> int:
    """The id of the received mail titled ``subject`` (planning from state)."""
    found = [m.id for m in ui.state.app("Mail").data.messages
             if m.subject == subject and m.folder not in ("sent", "drafts")]
    if not found:
        raise OracleError(f"no mail {subject!r}")
    return int(found[0])


def open_received(ui: Driver, mid: int) -> Iterator[PhoneAction]:
    """Open Mail on its list and the received mail ``mid``, wherever a first try put it
    (the inbox, the archive, the trash)."""
    yield from mail.start(ui)
    while ui.find(id="drawer_toggle") is None and ui.find(desc="Back") is not None:
        yield from ui.press("back")
    if ui.find(id=f"mail_{mid}") is None:
        found = ui.state.app("Mail").data.messages.get(mid)
        folder = found.folder if found is not None else "inbox"
        yield from mail.go_folder(ui, {"inbox": "Primary", "trash": "Trash"}.get(folder,
                                                                                 "All mail"))
    yield from ui.tap(id=f"mail_{mid}")


def open_thread(ui: Driver, title: str) -> Iterator[PhoneAction]:
    """Open Chat on its Chats tab and the thread titled ``title``."""
    yield from ui.open_app("Chat")
    while ui.find(id="tab_chats") is None and ui.find(desc="Back") is not None:
        yield from ui.press("back")
    if ui.find(id="tab_chats") is None:
        yield from ui.open_app("Chat")
    yield from ui.tap(id="tab_chats")
    yield from ui.tap(title, kind="list_item")
