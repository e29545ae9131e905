"""Artifact transfer: a file made or obtained in one app (a note, a photo, a recording, a
download) and used in another (attached to an e-mail, sent in a chat, posted on X).

A template declares data: ``files(v)``, the files it makes and where they must end up
(``File``: its folder and name, or a matcher of names for a file named when it is made; what
more of it is checked; how many; the old place a rename or a move leaves), and ``sends(v)``,
where the artifact must be delivered (``Mail``, ``Chat``, ``Post``: one record each). Both
read a view ``v`` of the params, written once for the checker and the oracle: the checker's
view puts over the params ``shown(p)``, the values the oracle reads off the screens (which
note is the newest, a saved file's name), computed from the params; the oracle's view puts
over them what its ``make`` steps returned instead, and reads as None the ``checked`` params
(an address the instruction never gives, a file's digest), which only the checker uses.
The family turns them into criteria (a record per file and per delivery, counted), allowed
changes (those files added, one record per delivery, a rename's old file removed), near
misses (derived from the criteria) and the oracle: the template's ``make`` steps (which skip
what the screen shows made already), each delivery, then finish. ``draws`` and ``seeds``
list the steps of ``sample_params`` and ``setup``, in order.

    class CrossCameraPhotoToChat(Shot):
        template = "Take a photo with the camera and send it to {friend} on WeChat."
        draws, seeds = (friends_params, camera_params), (seed_friends, seed_camera)
        def sends(self, v): return [Chat(v["friend"], self.shot(v))]
"""

from __future__ import annotations

import re
from collections import ChainMap
from collections.abc import Callable, Generator, Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, cast

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
from ...world.a11y import UIElement

FILES = "files"
#: A template's params.
Params = Mapping[str, Any]
#: A step of ``sample_params``: some of the params, drawn from ``rng``.
Draw = Callable[[np.random.Generator], dict[str, Any]]
#: A step of ``setup``: ``(state, params, rng)``.
Seed = Callable[[Any, Params, np.random.Generator], None]
#: What ``make`` read off the screens for the deliveries (a file's name it saw), if any.
Seen = Mapping[str, Any]
#: The view of the params ``files`` and ``sends`` read (see the module).
View = Mapping[str, Any]
#: ``make``'s steps, returning what it saw.
Made = Generator[PhoneAction, None, Seen | None]


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
    ``alone``: a where-clause exactly one file matches at the end (moved, not copied);
    ``newest``: for a file named when it is made, the names the oracle picks the newest of
    in a picker (a camera's ``IMG_<date>_<time>.jpg``)."""

    folder: str
    name: str | Matcher
    fields: Mapping[str, Any] = field(default_factory=dict)
    count: int | None = None
    new: bool = False
    gone: Mapping[str, Any] | None = None
    alone: Mapping[str, Any] | None = None
    newest: re.Pattern[str] | None = None

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
        """The name to tap in the picker on screen: for a file named when it was made, the
        newest of the names the picker lists that ``newest`` matches (names carry the time
        they were taken, so the latest sorts last)."""
        if isinstance(self.name, str):
            return self.name
        pattern = self.newest
        names = sorted(e.text for e in ui.find_all(kind="list_item")
                       if e.text and pattern is not None and pattern.fullmatch(e.text))
        if not names:
            raise OracleError(f"no file the picker lists is the one made in {self.folder}")
        ui.why(f"{names[-1]} is the newest in the picker: the one just made")
        return names[-1]


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
            ui.why(f'Opening the mail "{self.reply}" to reply to it')
            yield from open_received(ui, subject=self.reply)
            yield from ui.tap(id="reply")
        else:
            ui.why(f'Writing the mail to {self.to} with the subject "{self.subject or ""}"')
            yield from mail.start(ui)
            ui.why(f'Mail is open: composing the mail to {self.to}')
            yield from ui.tap(id="compose")
            yield from ui.fill("to", self.to)
            yield from ui.fill("subject", self.subject or "")
        for file in self.files:
            ui.why("Attaching the file the task names" if isinstance(file.name, Matcher)
                   else f"Attaching {file.name}")
            yield from ui.tap(id="attach")
            yield from ui.tap(file.shown(ui), kind="list_item")
        if self.body is not None:
            ui.why(f'Writing "{self.body}" in the mail')
            yield from ui.fill("body", self.body)
        ui.why("Everything is in the mail: sending it")
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
        ui.why(f"Opening the chat with {self.title} to send the {self.kind} there")
        yield from open_thread(ui, self.title)
        ui.why(f"Picking the {self.kind} to send from WeChat's picker")
        yield from ui.tap(id="attach")
        tab = "tab_album" if self.kind == "image" else "tab_file"
        if not ui.must(id=tab, kind="tab").selected:
            yield from ui.tap(id=tab, kind="tab")
        yield from ui.tap(self.file.shown(ui), kind="list_item")


#: A new post as posted: liking, reposting or bookmarking it too is over-doing.
POSTED = {"liked": False, "reposted": False, "bookmarked": False}


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
        return [Allow(social.POSTS, "added", where=POSTED),
                Becomes("apps.Social.photos_access", "allowed")]

    def send(self, ui: Driver) -> Iterator[PhoneAction]:
        ui.why(f'Writing a post on X with the caption "{self.text}"')
        yield from ui.open_app("Social")
        ui.why(f'X is open: composing a post with the caption "{self.text}"')
        yield from ui.tap(id="nav_main")
        yield from ui.tap(id="compose")
        yield from ui.fill("post_text", self.text)
        ui.why("Adding the picture to the post")
        yield from ui.tap(id="add_image")
        if ui.find(id="button_allow") is not None:
            yield from ui.tap(id="button_allow")
        yield from ui.tap(self.file.shown(ui), kind="list_item")
        ui.why("The caption and the picture are in: posting")
        yield from ui.tap(id="send")


Delivery = Mail | Chat | Post


# --- the family ------------------------------------------------------------------------------
class ArtifactTask(Task):
    """Make ``files(v)`` and deliver them as ``sends(v)`` says, nothing else changed."""

    tags: ClassVar[frozenset[str]] = frozenset({"artifact"})
    draws: ClassVar[tuple[Draw, ...]] = ()
    seeds: ClassVar[tuple[Seed, ...]] = ()

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        return {k: v for draw in self.draws for k, v in draw(rng).items()}

    def setup(self, state: Any, params: Params, rng: np.random.Generator) -> None:
        for seed in self.seeds:
            seed(state, params, rng)

    #: Params only the checker reads (the oracle's view reads them as None).
    checked: ClassVar[tuple[str, ...]] = ()

    def shown(self, p: Params) -> dict[str, Any]:
        """What ``make`` reads off the screens, as the params give it (the checker's view)."""
        return {}

    def view(self, p: Params, seen: Seen | None = None) -> View:
        """The checker's view of ``p`` (``seen`` None), or the oracle's (see the module)."""
        params = cast(MutableMapping[str, Any], p)  # read, never written
        if seen is None:
            return ChainMap(self.shown(p), params)
        return ChainMap(dict(seen), dict.fromkeys(self.checked), params)

    def files(self, v: View) -> Sequence[File]:
        """The files the task makes: by default the ones its deliveries carry."""
        return list({f.path: f for d in self.sends(v) for f in d.files}.values())

    def sends(self, v: View) -> Sequence[Delivery]:
        return ()

    def criteria(self, p: Params, initial: Params) -> Sequence[Criterion]:
        v = self.view(p)
        return [*(c for f in self.files(v) for c in f.criteria(initial)),
                *(d.criterion(initial) for d in self.sends(v))]

    def allowed(self, p: Params, initial: Params) -> Sequence[Allowed]:
        v = self.view(p)
        return [*(a for f in self.files(v) for a in f.allowed()),
                *(a for d in self.sends(v) for a in d.allowed())]

    def make(self, ui: Driver, p: Params) -> Made:
        """The oracle's steps that make the files; they return what they read off the
        screens that the deliveries need (the keys of ``shown``)."""
        yield from ()
        return None

    def oracle(self, ui: Driver, p: Params) -> Iterator[PhoneAction]:
        seen = yield from self.make(ui, p)
        for delivery in self.sends(self.view(p, seen or {})):
            yield from delivery.send(ui)
        ui.why("Everything the task asks is done")
        yield from ui.finish()


# --- oracle steps ----------------------------------------------------------------------------
def mail_row(ui: Driver, subject: str | None = None, sender: str | None = None
             ) -> UIElement | None:
    """The topmost (newest) received-mail row on screen titled ``subject`` and/or from
    ``sender`` (as the rows show them: the sender, then the subject), or None."""
    subjects = ui.find_all(id="subject")
    rows = sorted((e for e in ui.find_all(kind="list_item") if e.short_id.startswith("mail_")),
                  key=lambda e: e.bounds[1])
    for row in rows:
        if row.text.startswith("To: "):
            continue
        if sender is not None and row.text.removesuffix(" (unread)") != sender:
            continue
        if subject is not None and not any(
                s.text == subject and row.bounds[1] <= s.bounds[1] < row.bounds[3]
                for s in subjects):
            continue
        return row
    return None


def find_mail(ui: Driver, subject: str | None, sender: str | None
              ) -> Generator[PhoneAction, None, UIElement | None]:
    """The first row ``mail_row`` accepts, scrolled fully on screen (down first, then
    up), or None."""
    for direction in ("down", "up"):
        for _ in range(30):
            row = mail_row(ui, subject, sender)
            if row is not None and ui.usable(row):
                return row
            before = [(e.text, e.bounds) for e in ui.elements()]
            yield PhoneAction("scroll", x=500, y=500, direction=direction)
            if [(e.text, e.bounds) for e in ui.elements()] == before:
                break
    return mail_row(ui, subject, sender)


def open_received(ui: Driver, subject: str | None = None, sender: str | None = None
                  ) -> Generator[PhoneAction, None, str]:
    """Open Mail on its list and the newest received mail titled ``subject`` and/or from
    ``sender``, looking in the inbox, then in all mail (where a first try may have
    archived it); returns its subject, as its row showed it."""
    what = " ".join(x for x in (f'"{subject}"' if subject else "",
                                f"from {sender}" if sender else "") if x)
    yield from mail.start(ui)
    ui.why(f"Mail is open: going to its list to find the mail {what}")
    while ui.find(id="drawer_toggle") is None and ui.find(desc="Back") is not None:
        yield from ui.press("back")
    for folder in ("", "All mail"):
        if folder:
            ui.why(f"The mail {what} is not in this list: looking in All mail")
            yield from mail.go_folder(ui, folder)
        row = yield from find_mail(ui, subject, sender)
        if row is not None and ui.usable(row):
            title = next((e.text for e in ui.find_all(id="subject")
                          if row.bounds[1] <= e.bounds[1] < row.bounds[3]), subject or "")
            ui.why(f'The newest mail {what} is listed ("{title}"): opening it')
            x, y = row.center_norm
            yield PhoneAction("click", x=x, y=y)
            return title
    raise OracleError(f"no mail {what} in the list")


def open_thread(ui: Driver, title: str) -> Iterator[PhoneAction]:
    """Open Chat on its Chats tab and the thread titled ``title``."""
    yield from ui.open_app("Chat")
    ui.why(f"WeChat is open: going to the chat with {title}")
    while ui.find(id="tab_chats") is None and ui.find(desc="Back") is not None:
        yield from ui.press("back")
    if ui.find(id="tab_chats") is None:
        yield from ui.open_app("Chat")
    yield from ui.tap(id="tab_chats")
    yield from ui.tap(title, kind="list_item")
