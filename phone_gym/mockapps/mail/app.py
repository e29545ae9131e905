"""Mail: a Gmail-like e-mail client.

The inbox has Primary, Promotions and Social categories; the navigation drawer (the top bar's
menu icon, or a drag from the left edge) opens them, the other folders (Starred, Sent, Drafts,
All mail, Trash) and the user's labels, as Gmail's. A message view shows the sender, the
recipients, the date, the body and the attachments (files of shared storage, ``/sdcard/...``,
or the app's private copies of received ones under ``ATTACHMENTS``; listed by name, each with
a download button that saves a copy into ``/sdcard/Download``), with archive, delete, star,
mark unread, move to a label, reply, reply all and forward. Compose has To, Cc, Subject and
the body, and attaches files through a picker.
Emptying the trash asks first. On start a "Turn on notifications?" prompt shows once, and a
folder opened for the first time loads for a moment (a ``wait`` lets it finish). A
``mailto:`` link, ``SENDTO`` one, or a ``SEND`` (a share of text) opens compose filled in.

State: ``MailData`` (persistent: a ``Table`` of frozen ``Mail`` records, snapshot
``apps.Mail.messages.<id>``) and ``MailUi`` (transient: folder, tab, draft, dialogs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial
from urllib.parse import parse_qs, unquote

from ...world.app import App, Route
from ...world.data import Store, Table
from ...world.kit import (
    BottomSheet,
    ChoiceDialog,
    ConfirmDialog,
    Destination,
    NavigationDrawer,
    SearchList,
    slug,
    with_drawer,
)
from ...world.kit.localize import in_locale
from ...world.manifest import Intent
from ...world.widgets import (
    Button,
    Dialog,
    DialogButton,
    Fab,
    Icon,
    ListItem,
    MenuItem,
    Node,
    Row,
    Screen,
    Text,
    TextField,
    TopBar,
    VirtualList,
)
from .manifest import MANIFEST

#: The account's own address (the sender of sent mail).
ME = "alex.morgan@gmail.com"
TABS = ("Primary", "Promotions", "Social")
FOLDERS = ("Inbox", "Starred", "Sent", "Drafts", "All mail", "Trash")
#: The drawer's icons (Material names, as Gmail's drawer) of the categories and folders.
DRAWER_ICONS = {"Primary": "inbox", "Promotions": "sell", "Social": "group", "Starred": "star",
                "Sent": "send", "Drafts": "insert_drive_file", "All mail": "all_inbox",
                "Trash": "delete"}
LABELS = ("Work", "Family", "Travel", "Receipts", "Finance")
#: How long a folder takes to load the first time it is opened.
LOAD_SECONDS = 2.0
LOADING = "Loading…"
PROMPT = "Turn on notifications?"
#: Where a downloaded attachment goes, and where the app keeps received attachments (its
#: private storage: not in shared storage until downloaded).
DOWNLOADS = "/sdcard/Download"
ATTACHMENTS = "/data/data/com.google.android.gm/files/attachments"


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Mail:
    """One message. ``folder``: inbox, archive, sent, drafts or trash; ``category``: the
    inbox tab; ``label``: a user label ("" for none); ``attachments``: shared-storage
    paths; ``date``: ``YYYY-MM-DD HH:MM``."""

    id: int
    sender: str
    sender_addr: str
    to: str = ""
    cc: str = ""
    subject: str = ""
    body: str = ""
    date: str = ""
    folder: str = "inbox"
    category: str = "Primary"
    label: str = ""
    attachments: tuple[str, ...] = ()
    starred: bool = False
    read: bool = False


@dataclass
class MailData(Store):
    """What the app stores on disk: verifiers compare this (``apps.Mail.messages.<id>``)."""

    messages: Table[Mail] = field(default_factory=lambda: Table(kind=Mail))


@dataclass
class Draft:
    """The compose form while it is open."""

    to: str = ""
    cc: str = ""
    subject: str = ""
    body: str = ""
    attachments: tuple[str, ...] = ()

    def empty(self) -> bool:
        return not (self.to.strip() or self.cc.strip() or self.subject.strip()
                    or self.body.strip() or self.attachments)


@dataclass
class MailUi:
    """Transient state: the folder and tab shown, when each folder was first opened (it
    loads for ``LOAD_SECONDS``), the notifications prompt, the drawer, the search query,
    the draft and the open dialogs."""

    folder: str = "Inbox"
    tab: str = "Primary"
    opened: dict[str, datetime] = field(default_factory=dict)
    prompted: bool = False
    drawer: bool = False
    query: str = ""
    draft: Draft = field(default_factory=Draft)
    picking: bool = False
    moving: int | None = None
    emptying: bool = False


# --- updates -------------------------------------------------------------------------------
def stamp(when: datetime) -> str:
    return when.strftime("%Y-%m-%d %H:%M")


def add_mail(data: MailData, sender: str, sender_addr: str, subject: str, body: str = "", *,
             to: str = ME, cc: str = "", date: str = "", folder: str = "inbox",
             category: str = "Primary", label: str = "",
             attachments: Sequence[str] = (), starred: bool = False,
             read: bool = False) -> Mail:
    return data.messages.new(sender=sender, sender_addr=sender_addr, to=to, cc=cc,
                             subject=subject, body=body, date=date, folder=folder,
                             category=category, label=label, attachments=tuple(attachments),
                             starred=starred, read=read)


def newest_first(mail: Mail) -> tuple[str, int]:
    return (mail.date, mail.id)


def in_folder(mail: Mail, folder: str, tab: str) -> bool:
    """Whether ``mail`` shows in ``folder`` (for the inbox: on ``tab``)."""
    if folder == "Inbox":
        return mail.folder == "inbox" and mail.category == tab
    if folder == "Starred":
        return mail.starred and mail.folder != "trash"
    if folder == "Sent":
        return mail.folder == "sent"
    if folder == "Drafts":
        return mail.folder == "drafts"
    if folder == "All mail":
        return mail.folder in ("inbox", "archive", "sent")
    if folder == "Trash":
        return mail.folder == "trash"
    return mail.label == folder and mail.folder != "trash"


def listed(data: MailData, folder: str, tab: str) -> list[Mail]:
    """The mails a folder shows, newest first."""
    return sorted((m for m in data.messages if in_folder(m, folder, tab)),
                  key=newest_first, reverse=True)


def matches(mail: Mail, query: str) -> bool:
    """Whether the sender, its address, the subject or the body contains ``query``."""
    q = query.strip().lower()
    return bool(q) and mail.folder != "trash" and any(
        q in s.lower() for s in (mail.sender, mail.sender_addr, mail.subject, mail.body))


def quote_subject(prefix: str, subject: str) -> str:
    """``Re: subject`` / ``Fwd: subject`` (no second prefix)."""
    return subject if subject.lower().startswith(prefix.lower()) else f"{prefix} {subject}"


def unread_count(data: MailData, tab: str) -> int:
    return sum(1 for m in data.messages
               if m.folder == "inbox" and m.category == tab and not m.read)


# --- the app -------------------------------------------------------------------------------
class MailApp(App):
    manifest = MANIFEST

    data: MailData
    ui: MailUi

    def initial_data(self) -> MailData:
        return MailData()

    def initial_ui(self) -> MailUi:
        return MailUi()

    # --- folders and loading ----------------------------------------------------------------
    @property
    def shown_key(self) -> str:
        return self.ui.tab if self.ui.folder == "Inbox" else self.ui.folder

    def loading(self) -> bool:
        """Whether the folder shown is still loading (the Primary inbox never is)."""
        key = self.shown_key
        if key == "Primary":
            return False
        since = self.ui.opened.get(key)
        return since is not None and self.system.now < since + timedelta(seconds=LOAD_SECONDS)

    @property
    def ticking(self) -> bool:
        return self.route.name == "main" and self.loading()

    def show(self, folder: str, tab: str = "Primary") -> None:
        """Open a folder (or an inbox tab); the first time, it loads for a moment."""
        self.ui.folder, self.ui.tab, self.ui.drawer = folder, tab, False
        key = self.shown_key
        if key not in self.ui.opened:
            self.ui.opened[key] = self.system.now
        self.stack = [Route("main")]

    def set_drawer(self, on: bool) -> None:
        self.ui.drawer = on

    def dismiss_prompt(self) -> None:
        self.ui.prompted = True

    # --- message actions --------------------------------------------------------------------
    def mail(self, mail_id: int) -> Mail | None:
        return self.data.messages.get(mail_id)

    def open_mail(self, mail_id: int) -> None:
        mail = self.mail(mail_id)
        if mail is None:
            return
        if mail.folder == "drafts":
            self.open_compose(Draft(mail.to, mail.cc, mail.subject, mail.body,
                                    mail.attachments), from_draft=mail_id)
            return
        self.go("read", mail_id)

    def set_fields(self, mail_id: int, toast: str, **changes: object) -> None:
        mail = self.mail(mail_id)
        if mail is None:
            return
        self.data.messages.update(mail_id, **changes)
        self.toast(self.t(toast))

    def toggle_star(self, mail_id: int) -> None:
        mail = self.mail(mail_id)
        if mail is not None:
            self.data.messages.update(mail_id, starred=not mail.starred)

    def archive(self, mail_id: int) -> None:
        self.set_fields(mail_id, "Archived", folder="archive")
        self.leave_read(mail_id)

    def trash(self, mail_id: int) -> None:
        self.set_fields(mail_id, "Moved to Trash", folder="trash")
        self.leave_read(mail_id)

    def restore(self, mail_id: int) -> None:
        self.set_fields(mail_id, "Moved to Inbox", folder="inbox")

    def delete_forever(self, mail_id: int) -> None:
        if self.data.messages.remove(mail_id) is not None:
            self.toast(self.t("Deleted forever"))
        self.leave_read(mail_id)

    def mark_unread(self, mail_id: int) -> None:
        self.set_fields(mail_id, "Marked unread", read=False)
        self.leave_read(mail_id)

    def move_to(self, mail_id: int, label: str) -> None:
        self.ui.moving = None
        if self.mail(mail_id) is not None:
            self.data.messages.update(mail_id, label=label)
            self.toast(self.t("Moved to {label}", label=self.label_name(label)))

    def ask_move(self, mail_id: int | None) -> None:
        self.ui.moving = mail_id

    def leave_read(self, mail_id: int) -> None:
        """Back to the list when the message shown was just put away."""
        if self.route == Route("read", mail_id):
            self.back()

    def ask_empty(self, on: bool) -> None:
        self.ui.emptying = on

    def empty_trash(self) -> None:
        for mail in [m for m in self.data.messages if m.folder == "trash"]:
            self.data.messages.remove(mail.id)
        self.ui.emptying = False
        self.toast(self.t("Trash emptied"))

    def download(self, path: str) -> None:
        """Save an attachment into ``/sdcard/Download`` under its name; a name already there
        gets " (1)", " (2)"... before its extension, as Android's download manager does."""
        source = self.system.files.get(path)
        name = path.rsplit("/", 1)[-1]
        stem, dot, ext = name.rpartition(".")
        if not dot:
            stem, ext = name, ""
        target, n = f"{DOWNLOADS}/{name}", 0
        while target in self.system.files:
            n += 1
            target = f"{DOWNLOADS}/{stem} ({n}){dot}{ext}"
        self.system.write_file(target, source.content if source else "",
                               source.mime if source else "application/octet-stream")
        self.toast(self.t("Saved to Download: {name}", name=target.rsplit('/', 1)[-1]))

    # --- compose ----------------------------------------------------------------------------
    def open_compose(self, draft: Draft | None = None, from_draft: int | None = None) -> None:
        self.ui.draft = draft or Draft()
        self.ui.picking = False
        self.go("compose", from_draft)

    def open_link(self, uri: str) -> None:
        """``mailto:ADDRESS[?subject=...&body=...]``: a new message to it."""
        to, _, query = uri.partition(":")[2].partition("?")
        fields = {k: v[0] for k, v in parse_qs(query).items()}
        self.stack = [Route("main")]
        self.open_compose(Draft(to=unquote(to), subject=fields.get("subject", ""),
                                body=fields.get("body", "")))

    def handle_intent(self, intent: Intent) -> bool:
        """``SENDTO mailto:``, or ``SEND`` (a share: ``android.intent.extra.TEXT``,
        ``.SUBJECT`` and ``.EMAIL``): a new message, not sent until Send is tapped."""
        if intent.data:
            self.open_link(intent.data)
            return True
        extras = intent.extras
        emails = extras.get("android.intent.extra.EMAIL") or []
        self.stack = [Route("main")]
        self.open_compose(Draft(
            to=", ".join(emails) if isinstance(emails, list) else str(emails),
            subject=str(extras.get("android.intent.extra.SUBJECT") or ""),
            body=str(extras.get("android.intent.extra.TEXT") or "")))
        return True

    def respond(self, mail_id: int, how: str) -> None:
        """Reply, reply all or forward ``mail_id``."""
        mail = self.mail(mail_id)
        if mail is None:
            return
        if how == "forward":
            body = self.t("---------- Forwarded message ---------\nFrom: {sender} <{addr}>\n"
                          "Subject: {subject}\n\n{body}", sender=mail.sender,
                          addr=mail.sender_addr, subject=mail.subject, body=mail.body)
            self.open_compose(Draft(subject=quote_subject("Fwd:", mail.subject), body=body,
                                    attachments=mail.attachments))
            return
        cc = ""
        if how == "reply_all":
            others = [a.strip() for a in f"{mail.to},{mail.cc}".split(",")
                      if a.strip() and a.strip() != ME]
            cc = ", ".join(others)
        self.open_compose(Draft(to=mail.sender_addr, cc=cc,
                                subject=quote_subject("Re:", mail.subject)))

    def set_draft(self, name: str, value: str) -> None:
        setattr(self.ui.draft, name, value)

    def set_picking(self, on: bool) -> None:
        self.ui.picking = on

    def attach(self, path: str) -> None:
        draft = self.ui.draft
        if path not in draft.attachments:
            draft.attachments = (*draft.attachments, path)
        self.ui.picking = False

    def detach(self, path: str) -> None:
        self.ui.draft.attachments = tuple(p for p in self.ui.draft.attachments if p != path)

    def send(self) -> None:
        draft, from_draft = self.ui.draft, self.route.arg
        if not draft.to.strip():
            self.toast(self.t("Add at least one recipient"))
            return
        add_mail(self.data, "Me", ME, draft.subject.strip(), draft.body, to=draft.to.strip(),
                 cc=draft.cc.strip(), date=stamp(self.system.now), folder="sent",
                 attachments=draft.attachments, read=True)
        if from_draft is not None and self.mail(from_draft) is not None:
            self.data.messages.remove(from_draft)
        self.ui.draft = Draft()
        self.toast(self.t("Sent"))
        self.back()

    def close_compose(self) -> None:
        """Back from compose: a non-empty draft is kept in Drafts."""
        draft, from_draft = self.ui.draft, self.route.arg
        if not draft.empty():
            fields = dict(to=draft.to, cc=draft.cc, subject=draft.subject, body=draft.body,
                          attachments=draft.attachments)
            if from_draft is not None and self.mail(from_draft) is not None:
                old = self.mail(from_draft)
                assert old is not None
                if any(getattr(old, k) != v for k, v in fields.items()):
                    self.data.messages.update(from_draft, **fields)
            else:
                add_mail(self.data, "Me", ME, draft.subject, draft.body, to=draft.to,
                         cc=draft.cc, date=stamp(self.system.now), folder="drafts",
                         attachments=draft.attachments, read=True)
                self.toast(self.t("Saved as draft"))
        self.ui.draft = Draft()
        self.ui.picking = False
        self.back()

    def set_query(self, query: str) -> None:
        self.ui.query = query

    # --- views ------------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        screen = self.screen(route)
        return in_locale(self, screen)

    def screen(self, route: Route) -> Screen:
        if route.name == "read" and self.mail(route.arg) is not None:
            return self.reader(route.arg)
        if route.name == "compose":
            return self.compose()
        if route.name == "search":
            return self.search()
        return self.inbox()

    def label_name(self, label: str) -> str:
        """A label as the drawer shows it (Gmail's own labels in the phone's locale)."""
        return self.t(label) if label in LABELS else label

    def row_menu(self, m: Mail) -> list[MenuItem]:
        if m.folder == "trash":
            menu: list[MenuItem] = [("Move to Inbox", partial(self.restore, m.id)),
                                    ("Delete forever", partial(self.delete_forever, m.id))]
            return [(self.t(k), f) for k, f in menu]
        menu = [
            ("Remove star" if m.starred else "Add star", partial(self.toggle_star, m.id)),
            ("Mark unread" if m.read else "Mark read",
             partial(self.set_fields, m.id, "Done", read=not m.read)),
            ("Move to", partial(self.ask_move, m.id)),
        ]
        if m.folder in ("inbox", "archive", "sent"):
            if m.folder == "inbox":
                menu.insert(1, ("Archive", partial(self.archive, m.id)))
            menu.insert(2, ("Delete", partial(self.trash, m.id)))
        return [(self.t(k), f) for k, f in menu]

    def mail_row(self, m: Mail) -> Node:
        """A row: the sender (or the recipients, for sent mail), the subject and the date."""
        who = self.t("To: {to}", to=m.to) if m.folder in ("sent", "drafts") else m.sender
        if not m.read:
            who = self.t("{who} (unread)", who=who)
        return ListItem(
            who, m.subject or self.t("(no subject)"), id=f"mail_{m.id}",
            glyph="★" if m.starred else (m.sender[:1] or "?"),
            parts=[("subject", m.subject or self.t("(no subject)")), ("date", m.date[:10])],
            on_click=partial(self.open_mail, m.id),
            menu=self.row_menu(m),
        )

    def move_dialog(self) -> Node | None:
        mail = self.mail(self.ui.moving) if self.ui.moving is not None else None
        if mail is None:
            return None
        return ChoiceDialog("Move to", LABELS, mail.label, partial(self.move_to, mail.id),
                            lambda: self.ask_move(None), id="labels")

    def drawer(self) -> Node:
        """Gmail's drawer: the inbox categories (ids ``tab_<category>``; Primary with its
        unread count, as Gmail's), the other folders (``option_<folder>``) and the labels
        (``option_<label>``); the Inbox is its categories, as in Gmail with categories on."""
        ui = self.ui
        shown = ui.tab if ui.folder == "Inbox" else ui.folder
        items: list[Destination | str] = [
            Destination(t, DRAWER_ICONS[t], partial(self.show, "Inbox", t), id=f"tab_{slug(t)}",
                        badge=str(unread_count(self.data, t) or "" if t == "Primary" else ""))
            for t in TABS]
        items.append("All labels")
        items += [Destination(f, DRAWER_ICONS[f], partial(self.show, f), id=f"option_{slug(f)}")
                  for f in FOLDERS if f != "Inbox"]
        items.append("Labels")
        items += [Destination(label, "label", partial(self.show, label),
                              id=f"option_{slug(label)}") for label in LABELS]
        return NavigationDrawer(items, selected=shown, title="Gmail", dense=True,
                                on_close=lambda: self.set_drawer(False))

    def inbox(self) -> Screen:
        ui = self.ui
        content: list[Node] = []
        title = ui.folder
        if ui.folder == "Inbox":
            title = ui.tab
        if self.loading():
            content.append(Text(LOADING, style="title", id="loading"))
        else:
            shown = listed(self.data, ui.folder, ui.tab)
            if ui.folder == "Trash" and shown:
                content.append(Button("Empty trash now", lambda: self.ask_empty(True),
                                      id="empty_trash", style="secondary"))
            content.append(VirtualList(len(shown), lambda i: self.mail_row(shown[i]),
                                       id="mail_list",
                                       empty_text=self.t("Nothing in {title}",
                                                         title=self.t(title))))
        dialog: Node | None = None
        dismiss = None
        if not ui.prompted:
            dialog = Dialog(PROMPT, "Get notified when new mail arrives.", [
                DialogButton("No thanks", self.dismiss_prompt, id="button_no_thanks"),
                DialogButton("Turn on", self.dismiss_prompt, id="button_turn_on"),
            ])
            dismiss = self.dismiss_prompt
        elif ui.emptying:
            dialog = ConfirmDialog("Empty trash?", "All messages in Trash will be deleted "
                                   "forever.", on_confirm=self.empty_trash,
                                   on_cancel=lambda: self.ask_empty(False),
                                   confirm="Empty", destructive=True)
            dismiss = lambda: self.ask_empty(False)  # noqa: E731
        elif ui.moving is not None:
            dialog = self.move_dialog()
            dismiss = lambda: self.ask_move(None)  # noqa: E731
        screen = Screen(
            top_bar=TopBar(title, on_menu=lambda: self.set_drawer(True), actions=[
                Icon("⌕", "Search mail", lambda: self.go("search"), id="search_mail"),
            ]),
            content=content,
            fab=Fab("✎", "Compose", lambda: self.open_compose(), id="compose"),
            dialog=dialog,
            on_dismiss=dismiss,
        )
        return with_drawer(screen, self.drawer() if ui.drawer else None,
                           lambda: self.set_drawer(False))

    def search(self) -> Screen:
        q = self.ui.query
        shown = sorted((m for m in self.data.messages if matches(m, q)), key=newest_first,
                       reverse=True)
        return Screen(
            top_bar=TopBar("Search", on_back=self.back),
            content=SearchList(q, self.set_query, len(shown), lambda i: self.mail_row(shown[i]),
                               id="results", hint="Search in mail",
                               empty_text="Search by sender, subject or text"),
            dialog=self.move_dialog(),
            on_dismiss=lambda: self.ask_move(None),
        )

    def reader(self, mail_id: int) -> Screen:
        m = self.mail(mail_id)
        assert m is not None
        actions: list[Node] = []
        if m.folder == "trash":
            actions += [Icon("↩", "Move to Inbox", partial(self.restore, mail_id), id="restore"),
                        Icon("🗑", "Delete forever", partial(self.delete_forever, mail_id),
                             id="delete_forever")]
        else:
            if m.folder == "inbox":
                actions.append(Icon("⬇", "Archive", partial(self.archive, mail_id),
                                    id="archive"))
            actions += [Icon("🗑", "Delete", partial(self.trash, mail_id), id="delete"),
                        Icon("✉", "Mark unread", partial(self.mark_unread, mail_id),
                             id="mark_unread"),
                        Icon("🏷", "Move to", partial(self.ask_move, mail_id), id="move")]
        actions.append(Icon("★" if m.starred else "☆", "Unstar" if m.starred else "Star",
                            partial(self.toggle_star, mail_id), id="star"))
        content: list[Node] = [
            Text(m.subject or self.t("(no subject)"), style="title", id="subject"),
            Text(self.t("From: {sender} <{addr}>", sender=m.sender, addr=m.sender_addr),
                 id="from", copyable=True),
            Text(self.t("To: {to}", to=m.to), id="to", copyable=True),
        ]
        if m.cc:
            content.append(Text(self.t("Cc: {cc}", cc=m.cc), id="cc", copyable=True))
        if m.label:
            content.append(Text(self.t("Label: {label}", label=self.label_name(m.label)),
                                style="caption", id="label"))
        content += [Text(m.date, style="caption", id="date"),
                    Text(m.body, id="body", copyable=True)]
        for i, path in enumerate(m.attachments):
            name = path.rsplit("/", 1)[-1]
            content.append(ListItem(name, "Attachment", glyph="📎", id=f"attachment_{i}",
                                    menu=[(self.t("Download"), partial(self.download, path))],
                                    trailing=Icon("⬇", self.t("Download {name}", name=name),
                                                  partial(self.download, path),
                                                  id=f"download_{i}")))
        content.append(Row([
            Button("Reply", partial(self.respond, mail_id, "reply"), id="reply",
                   style="secondary"),
            Button("Reply all", partial(self.respond, mail_id, "reply_all"), id="reply_all",
                   style="secondary"),
            Button("Forward", partial(self.respond, mail_id, "forward"), id="forward",
                   style="secondary"),
        ], id="respond"))
        return Screen(top_bar=TopBar("", on_back=self.back, actions=actions), content=content,
                      dialog=self.move_dialog(), on_dismiss=lambda: self.ask_move(None))

    def picker(self) -> Node:
        files = sorted((f for f in self.system.files if f.path.startswith("/sdcard/")),
                       key=lambda f: f.path)
        options = [(f.name, partial(self.attach, f.path)) for f in files[:12]]
        return BottomSheet("Attach a file", options, id="picker")

    def compose(self) -> Screen:
        d = self.ui.draft
        content: list[Node] = [
            TextField(d.to, partial(self.set_draft, "to"), hint="To", id="to", label="To"),
            TextField(d.cc, partial(self.set_draft, "cc"), hint="Cc", id="cc", label="Cc"),
            TextField(d.subject, partial(self.set_draft, "subject"), hint="Subject",
                      id="subject", label="Subject"),
            TextField(d.body, partial(self.set_draft, "body"), hint="Compose email", id="body",
                      label="Body", multiline=True),
        ]
        for path in d.attachments:
            name = path.rsplit("/", 1)[-1]
            content.append(ListItem(name, "Attachment", glyph="📎", id=f"attached_{slug(name)}",
                                    menu=[(self.t("Remove"), partial(self.detach, path))]))

        def back() -> bool:
            if self.ui.picking:
                self.set_picking(False)
            else:
                self.close_compose()
            return True

        return Screen(
            top_bar=TopBar("Compose", on_back=self.close_compose, actions=[
                Icon("📎", "Attach file", lambda: self.set_picking(True), id="attach"),
                Icon("➤", "Send", self.send, id="send"),
            ]),
            content=content,
            dialog=self.picker() if self.ui.picking else None,
            on_dismiss=lambda: self.set_picking(False),
            on_back=back,
        )
