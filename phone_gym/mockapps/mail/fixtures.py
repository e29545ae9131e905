"""Public fixtures of Mail: people who write, distractor mail, and helpers that seed the
app's own data (PhoneWorld only: a mail app keeps its messages privately)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from functools import partial
from typing import Any

import numpy as np

from ...tasks.task import data_catalogue
from ...tasks.vocab import pick
from ...world.locale import DEFAULT_LOCALE
from .app import ATTACHMENTS, Mail, MailApp, add_mail, stamp

COLLECTION = "apps.Mail.messages"
#: The seeded data in zh-CN (``strings/zh-CN.data.json``: people's names, subjects, bodies);
#: addresses and brands stay as they are.
DATA: dict[str, Any] = {"zh-CN": data_catalogue(__file__, "zh-CN")}


def datum(locale: str, text: str) -> str:
    """The seeded text ``text`` in ``locale`` (itself where the catalogue lacks it: an
    address, a brand, a code)."""
    return text if locale == DEFAULT_LOCALE else str(DATA.get(locale, {}).get(text, text))


def locale_of(state: Any) -> str:
    return str(getattr(state, "locale", DEFAULT_LOCALE))

#: People who write to the account: (name, address).
PEOPLE: tuple[tuple[str, str], ...] = (
    ("Olivia Chen", "olivia.chen@northwind.com"), ("Marcus Reid", "marcus.reid@gmail.com"),
    ("Priya Nair", "priya.nair@contoso.org"), ("Daniel Okafor", "d.okafor@outlook.com"),
    ("Sofia Rossi", "sofia.rossi@fabrikam.io"), ("Liam Walsh", "liam.walsh@gmail.com"),
    ("Hannah Berg", "hannah.berg@yahoo.com"), ("Ethan Park", "ethan.park@northwind.com"),
    ("Grace Kim", "grace.kim@contoso.org"), ("Noah Fischer", "noah.fischer@gmx.de"),
    ("Emma Laurent", "emma.laurent@orange.fr"), ("Lucas Silva", "lucas.silva@gmail.com"),
)
#: Addresses nobody on the phone knows (for new mail and external recipients).
STRANGERS = ("jordan.blake@mailbox.org", "casey.tran@protonmail.com",
             "r.moreno@acme-supplies.com", "sam.ito@fastmail.com", "alex.dunn@zoho.com")
#: Everyday subjects and bodies (Primary), none naming a service or a code.
NOTES: tuple[tuple[str, str], ...] = (
    ("Lunch on Thursday?", "Are you free for lunch on Thursday around noon?"),
    ("Photos from the weekend", "Here are a few pictures from Saturday."),
    ("Meeting notes", "Attached are my notes from this morning's sync."),
    ("Quick question", "Do you still have the contact for the plumber?"),
    ("Book club", "The next book is on the shelf by the window."),
    ("Moving boxes", "I can bring the boxes over on Sunday afternoon."),
    ("Draft agenda", "Please take a look at the agenda before Monday."),
    ("Hiking trip", "The trail opens at eight, let's meet at the parking lot."),
    ("Birthday dinner", "Table for six is booked at the Italian place."),
    ("Project timeline", "I moved the review to the week after next."),
    ("Garden plans", "The tomatoes need more sun than the corner gets."),
    ("Concert tickets", "I got two seats in the balcony."),
)
#: Promotions: (sender, address, subject).
PROMOS: tuple[tuple[str, str, str], ...] = (
    ("ShopMart", "deals@shopmart.com", "Weekend sale: 30% off shoes"),
    ("FlyAway", "offers@flyaway.com", "Fares to Lisbon from 89"),
    ("Bean Box", "hello@beanbox.coffee", "Your next roast is here"),
    ("StreamPlus", "news@streamplus.tv", "New this week on StreamPlus"),
    ("GreenGrocer", "promo@greengrocer.com", "Free delivery this weekend"),
    ("TechHub", "sales@techhub.com", "Headphones at their lowest price"),
    ("BookNook", "news@booknook.com", "Three books for the price of two"),
)
#: Social: (sender, address, subject).
SOCIAL: tuple[tuple[str, str, str], ...] = (
    ("LinkedIn", "notifications@linkedin.com", "You appeared in 12 searches"),
    ("Meetup", "info@meetup.com", "New event in your group"),
    ("Strava", "no-reply@strava.com", "Your weekly summary"),
    ("Facebook", "notification@facebookmail.com", "You have 3 new friend suggestions"),
)


def mail_app(state: Any) -> MailApp:
    app = state.app("Mail")
    assert isinstance(app, MailApp)
    return app


def now_of(state: Any) -> datetime:
    return mail_app(state).system.now  # type: ignore[no-any-return]


def ago(state: Any, hours: float) -> str:
    """The date stamp ``hours`` before the phone's clock."""
    return stamp(now_of(state) - timedelta(hours=hours))


def write_mail(state: Any, sender: str, addr: str, subject: str, body: str = "", *,
               hours: float = 5.0, **more: Any) -> Mail:
    """Add a mail to the account, ``hours`` old (``seed_mail`` writes its texts in the
    phone's locale; this one as given)."""
    return add_mail(mail_app(state).data, sender, addr, subject, body,
                    date=ago(state, hours), **more)


def people(rng: np.random.Generator, k: int, avoid: Sequence[str] = ()) -> list[tuple[str, str]]:
    """``k`` different people, none named in ``avoid``."""
    pool = [p for p in PEOPLE if p[0] not in avoid]
    order = rng.permutation(len(pool))[:k]
    return [pool[int(i)] for i in order]


def seed_mail(state: Any, rng: np.random.Generator, k: int, *, avoid: Sequence[str] = (),
              promos: int = 2, social: int = 1, hours: tuple[int, int] = (30, 300)) -> None:
    """``k`` distractor mails in Primary from people not in ``avoid`` (older than ``hours[0]``
    hours), plus ``promos`` read promotions and ``social`` social updates."""
    z = partial(datum, locale_of(state))
    avoid = [*avoid, *(name for name, _ in PEOPLE if z(name) in avoid)]
    notes = pick(rng, list(NOTES), k) if k else []
    for (name, addr), (subject, body) in zip(people(rng, k, avoid), notes, strict=False):
        write_mail(state, z(name), addr, z(subject), z(body),
                   hours=float(rng.integers(hours[0], hours[1])),
                   read=bool(rng.random() < 0.6))
    for sender, addr, subject in pick(rng, list(PROMOS), promos) if promos else []:
        write_mail(state, sender, addr, z(subject), z("See the offer inside."),
                   hours=float(rng.integers(hours[0], hours[1])), category="Promotions",
                   read=True)
    for sender, addr, subject in pick(rng, list(SOCIAL), social) if social else []:
        write_mail(state, sender, addr, z(subject), z("Open the app to see more."),
                   hours=float(rng.integers(hours[0], hours[1])), category="Social", read=True)


def write_files(state: Any, names: Sequence[str], folder: str = "/sdcard/Download") -> list[str]:
    """Write text files into shared storage; returns their paths."""
    paths = []
    for name in names:
        path = f"{folder}/{name}"
        state.write_file(path, f"Contents of {name}\n".encode())
        paths.append(path)
    return paths


def write_attachment(state: Any, name: str, content: str, mime: str = "text/plain",
                     box: int = 0) -> str:
    """Store a received attachment in the app's private storage (not in shared storage until
    the user downloads it); returns its path, for ``write_mail(..., attachments=[...])``.
    ``box`` keeps two attachments of the same name apart."""
    path = f"{ATTACHMENTS}/{box}/{name}"
    state.system.write_file(path, content, mime)  # PhoneWorld only (app-private)
    return path


#: What of ``tasks`` other apps' and cross-app tasks use: this module is the app's public
#: API, and ``tasks`` imports it, so these are looked up when first read.
_FROM_TASKS = frozenset({"go_folder", "sent", "settle", "start"})


def __getattr__(name: str) -> Any:
    if name in _FROM_TASKS:
        from . import tasks

        return getattr(tasks, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
