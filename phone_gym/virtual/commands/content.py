"""``content``: the phone's content providers from the shell (AOSP ``cmds/content``).

``content query|insert|delete --uri URI [--projection A:B] [--where W] [--sort S]
[--bind COL:TYPE:VALUE]`` on ``content://com.android.contacts/{contacts,raw_contacts,data,
data/phones,data/emails}``, the legacy ``content://contacts/people[/<id>]`` (the Android 1.x
``Contacts.People`` API, which ``ContactsProvider2`` still serves under its second authority
``contacts``), ``content://settings/{global,system,secure}`` and the providers of
``providers.py`` (SMS, call log, calendar). Rows are computed from the device's stores when
asked; inserts and deletes change those. The ``--where``/``--sort`` SQL is in ``sql.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...world.system import Contact
from ..sh import IO
from .base import Commands
from .providers import PROVIDERS, Provider, ProviderError, Target, row_id, unknown_url
from .sql import SQLiteError, Where, sort_rows
from .system import NAMESPACES, settings_table

if TYPE_CHECKING:
    from ..phone import VirtualPhone

CONTENT_USAGE = ("usage: adb shell content [subcommand] [options]\n"
                 "  content query|insert|delete --uri <URI> [--projection <PROJECTION>] "
                 "[--where <WHERE>] [--sort <SORT_ORDER>] [--bind <COL>:<TYPE>:<VALUE>]")
MIME_NAME = "vnd.android.cursor.item/name"
MIME_PHONE = "vnd.android.cursor.item/phone_v2"
MIME_EMAIL = "vnd.android.cursor.item/email_v2"
DATA_COLUMNS = ("_id", "raw_contact_id", "contact_id", "mimetype", "display_name", "data1",
                "data2")
CONTACT_COLUMNS: dict[str, tuple[str, ...]] = {
    "contacts": ("_id", "display_name", "starred", "has_phone_number"),
    "raw_contacts": ("_id", "contact_id", "display_name", "account_type", "account_name",
                     "deleted", "starred"),
    "data": DATA_COLUMNS, "data/phones": DATA_COLUMNS, "data/emails": DATA_COLUMNS,
}


class Content(Commands):
    """``content``."""

    def __init__(self, phone: VirtualPhone) -> None:
        super().__init__(phone)
        kinds: tuple[type[Provider], ...] = (ContactsProvider, LegacyContactsProvider,
                                             SettingsProvider, *PROVIDERS)
        self.providers: dict[str, Provider] = {p.authority: p(phone) for p in kinds}

    def cmd_content(self, args: list[str], io: IO) -> int:
        verb = args[0] if args else ""
        if verb not in ("query", "insert", "delete"):
            return io.fail(CONTENT_USAGE)
        try:
            opts = ContentArgs.parse(args[1:])
        except ValueError as exc:  # Content.Parser.parseCommand: usage, then the error
            io.print(f"{CONTENT_USAGE}\n[ERROR] {exc}")  # on stdout; the command exits 0
            return 0
        if not opts.uri:
            return io.fail("[ERROR] Content provider URI not specified. Did you specify "
                           "--uri argument?")
        authority, path = split_uri(opts.uri)
        provider = self.providers.get(authority)
        try:
            target = provider.resolve(path) if provider is not None else None
            if provider is None or target is None:
                raise unknown_url(opts.uri)
            getattr(self, f"_content_{verb}")(provider, target, opts, io)
        except (ProviderError, SQLiteError) as exc:
            return io.fail(f"Error while accessing provider:{authority}\n{exc}")
        return 0

    def _select(self, provider: Provider, target: Target, where: str | None,
                ) -> list[dict[str, Any]]:
        rows = [r for r in provider.rows(target.table)
                if all(r.get(k) == v for k, v in target.match.items())]
        if not where:
            return rows
        predicate = Where(where, provider.columns(target.table)).parse()
        return [r for r in rows if predicate(r)]

    def _content_query(self, provider: Provider, target: Target, opts: ContentArgs,
                       io: IO) -> None:
        columns = provider.columns(target.table)
        projection = opts.projection or list(columns)
        bad = [c for c in projection if c not in columns]
        if bad:
            raise ProviderError(f"java.lang.IllegalArgumentException: Invalid column {bad[0]}")
        sort = opts.sort or provider.default_sort(target.table)
        rows = sort_rows(self._select(provider, target, opts.where), sort, columns)
        if not rows:
            io.print("No result found.")
        for k, row in enumerate(rows):
            io.print(f"Row: {k} " + ", ".join(f"{c}={cell(row.get(c))}" for c in projection))

    def _content_insert(self, provider: Provider, target: Target, opts: ContentArgs,
                        io: IO) -> None:
        provider.insert(target, opts.binds, opts.uri)

    def _content_delete(self, provider: Provider, target: Target, opts: ContentArgs,
                        io: IO) -> None:
        provider.delete(target, self._select(provider, target, opts.where), opts.uri)


class ContactsProvider(Provider):
    """``content://com.android.contacts/{contacts,raw_contacts,data,data/phones,data/emails}``
    (AOSP ``ContactsProvider2``; a contact is one raw contact with its data rows)."""

    authority = "com.android.contacts"

    def resolve(self, path: str) -> Target | None:
        return Target(path) if path in CONTACT_COLUMNS else None

    def columns(self, table: str) -> tuple[str, ...]:
        return CONTACT_COLUMNS[table]

    def rows(self, table: str) -> list[dict[str, Any]]:
        system = self.system
        if table == "contacts":
            return [{"_id": c.id, "display_name": c.name or None, "starred": int(c.starred),
                     "has_phone_number": int(bool(c.phone))} for c in system.contacts]
        if table == "raw_contacts":
            return [{"_id": c.id, "contact_id": c.id, "display_name": c.name or None,
                     "account_type": None, "account_name": None, "deleted": 0,
                     "starred": int(c.starred)} for c in system.contacts]
        rows = [row for c in system.contacts for row in data_rows(c)]
        kind = {"data/phones": MIME_PHONE, "data/emails": MIME_EMAIL}.get(table)
        return [r for r in rows if kind is None or r["mimetype"] == kind]

    def insert(self, target: Target, values: dict[str, Any], uri: str) -> None:
        if target.table == "raw_contacts":
            self.system.contacts.new(name="", starred=bool(values.get("starred")))
        elif target.table == "data":
            self._insert_data(values)
        else:
            super().insert(target, values, uri)

    def _insert_data(self, values: dict[str, Any]) -> None:
        raw = values.get("raw_contact_id")
        contact = self.system.contact(int(raw)) if isinstance(raw, int) else None
        if contact is None:
            raise ProviderError(f"java.lang.IllegalArgumentException: raw_contact_id {raw} "
                                "does not exist")
        mime, value = values.get("mimetype"), values.get("data1")
        if mime is None:
            raise ProviderError("java.lang.IllegalArgumentException: mimetype is required")
        contacts = self.system.contacts
        if mime == MIME_NAME:
            parts = [str(values[k]) for k in ("data4", "data2", "data5", "data3", "data6")
                     if values.get(k)]
            contacts.update(contact.id, name=str(value) if value else " ".join(parts))
        elif mime == MIME_PHONE:
            contacts.update(contact.id, phone="" if value is None else str(value))
        elif mime == MIME_EMAIL:
            contacts.update(contact.id, email="" if value is None else str(value))

    def delete(self, target: Target, rows: list[dict[str, Any]], uri: str) -> None:
        system = self.system
        if target.table in ("contacts", "raw_contacts"):
            for row in rows:
                system.contacts.remove(row["_id"])
            return
        fields = {MIME_NAME: "name", MIME_PHONE: "phone", MIME_EMAIL: "email"}
        for row in rows:
            if system.contact(row["raw_contact_id"]) is not None:
                system.contacts.update(row["raw_contact_id"], **{fields[row["mimetype"]]: ""})


#: The columns of ``content://contacts/people`` without a projection, in the order Android
#: prints them: ``LegacyApiSupport`` queries ``view_v1_people`` through the projection map
#: ``sPeopleProjectionMap`` (a ``java.util.HashMap``), whose keys ``SQLiteQueryBuilder``
#: lists in the map's iteration order, which is this one (String hash codes in a 32-bucket
#: table; the map is a copy of a 12-entry one plus 10 keys).
PEOPLE_COLUMNS = ("phonetic_name", "last_time_contacted", "send_to_voicemail", "custom_ringtone",
                  "notes", "im_handle", "label", "display_name", "type", "number_key",
                  "primary_phone", "mode", "number", "im_protocol", "starred", "im_account",
                  "name", "times_contacted", "primary_organization", "primary_email", "_id",
                  "status")


class LegacyContactsProvider(Provider):
    """``content://contacts/people[/<id>]``: AOSP ``ContactsProvider2`` answers its legacy
    authority ``contacts`` (its manifest: ``android:authorities="contacts;com.android.
    contacts"``) through ``LegacyApiSupport``, whose ``sUriMatcher`` maps ``people`` and
    ``people/#`` to the view ``view_v1_people``: one row per raw contact (not deleted) of
    the default account (none: local contacts), ``name`` from its structured name,
    ``number``/``type``/``primary_phone`` from its primary phone and ``primary_email``
    from its primary email (a PhoneWorld contact's only phone and email), presence and
    IM columns NULL. Deletes remove the contact, as ``LegacyApiSupport.delete`` does;
    inserts make a contact from ``name`` and ``starred`` (``insertPeople``)."""

    authority = "contacts"

    def resolve(self, path: str) -> Target | None:
        if path == "people":
            return Target("people")
        contact_id = row_id(path, "people")
        return Target("people", {"_id": contact_id}) if contact_id is not None else None

    def columns(self, table: str) -> tuple[str, ...]:
        return PEOPLE_COLUMNS

    def rows(self, table: str) -> list[dict[str, Any]]:
        return [people_row(c) for c in self.system.contacts]

    def insert(self, target: Target, values: dict[str, Any], uri: str) -> None:
        if target.match:  # people/<id>: no insert there (LegacyApiSupport.insert's default)
            super().insert(target, values, uri)
            return
        name = values.get("name")
        self.system.contacts.new(name="" if name is None else str(name),
                                 starred=bool(values.get("starred")))

    def delete(self, target: Target, rows: list[dict[str, Any]], uri: str) -> None:
        for row in rows:
            self.system.contacts.remove(row["_id"])


class SettingsProvider(Provider):
    """``content://settings/{global,system,secure}`` (AOSP ``SettingsProvider``)."""

    authority = "settings"

    def resolve(self, path: str) -> Target | None:
        return Target(path) if path in NAMESPACES else None

    def columns(self, table: str) -> tuple[str, ...]:
        return ("_id", "name", "value")

    def rows(self, table: str) -> list[dict[str, Any]]:
        values = sorted(settings_table(self.system, table).items())
        return [{"_id": k + 1, "name": name, "value": value}
                for k, (name, value) in enumerate(values)]

    def insert(self, target: Target, values: dict[str, Any], uri: str) -> None:
        if not values.get("name"):
            raise ProviderError("java.lang.IllegalArgumentException: name must not be empty")
        value = values.get("value")
        self.system.put_setting(target.table, str(values["name"]),
                                "" if value is None else str(value))

    def delete(self, target: Target, rows: list[dict[str, Any]], uri: str) -> None:
        for row in rows:
            self.system.settings.delete(target.table, row["name"])


@dataclass
class ContentArgs:
    """The options of ``content query|insert|delete``."""

    uri: str = ""
    projection: list[str] | None = None
    where: str | None = None
    sort: str | None = None
    binds: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def parse(cls, args: Sequence[str]) -> ContentArgs:
        opts, it = cls(), iter(args)
        for arg in it:
            value = next(it, None)
            if value is None:
                raise ValueError(f"Missing argument for {arg}")
            if arg == "--uri":
                opts.uri = value
            elif arg == "--projection":
                opts.projection = [c for c in value.split(":") if c]
            elif arg == "--where":
                opts.where = value
            elif arg == "--sort":
                opts.sort = value
            elif arg == "--bind":
                column, bound = parse_bind(value)
                opts.binds[column] = bound
            elif arg != "--user":
                raise ValueError(f"Unsupported argument: {arg}")
        return opts


def split_with_escaping(text: str, split: str = ":") -> list[str]:
    """AOSP ``Content.Parser.splitWithEscaping`` (``cmds/content/.../Content.java``, Android
    14): split at every ``split`` not escaped; a backslash escapes the next character (and is
    dropped); a trailing backslash is "Invalid escaping"."""
    parts, current, chars = [], [], iter(text)
    for c in chars:
        if c == "\\":
            escaped = next(chars, None)
            if escaped is None:
                raise ValueError("Invalid escaping")
            current.append(escaped)
        elif c == split:
            parts.append("".join(current))
            current = []
        else:
            current.append(c)
    parts.append("".join(current))
    return parts


def parse_bind(text: str) -> tuple[str, Any]:
    """``COLUMN:TYPE:VALUE`` (types s, i, l, f, d, b, n) as ``(column, value)``, as Android
    14's ``Content.Parser.parseBindValue`` reads it: split with ``split_with_escaping`` into
    exactly three parts (an unescaped ``:`` in the value is "Binding not well formed"); the
    type ``s`` exactly, the others in any case; bad numbers fail as ``Integer.parseInt``
    does."""
    parts = split_with_escaping(text) if text else []
    if len(parts) != 3:
        raise ValueError(f"Binding not well formed: {text}")
    column, kind, value = parts
    if kind == "s":
        return column, value
    kind = kind.lower()
    try:
        if kind in ("i", "l"):
            return column, int(value)
        if kind in ("f", "d"):
            return column, float(value)
    except ValueError:
        raise ValueError(f'For input string: "{value}"') from None
    if kind == "b":
        return column, int(value.lower() == "true")
    if kind == "n":
        return column, None
    raise ValueError(f"Unsupported type: {parts[1]}")


def split_uri(uri: str) -> tuple[str, str]:
    """``content://AUTHORITY/PATH?QUERY`` as ``(authority, path)`` (no slashes around the
    path; the query, e.g. ``caller_is_syncadapter=true``, is ignored)."""
    rest = uri.partition("://")[2] if uri.startswith("content://") else ""
    rest = rest.partition("?")[0]
    authority, _, path = rest.partition("/")
    return authority, path.strip("/")


def people_row(contact: Contact) -> dict[str, Any]:
    """A contact as a row of ``view_v1_people`` (see ``LegacyContactsProvider``; the data
    row ids are those of ``data_rows``). ``phonetic_name`` is the view's trimmed join of
    three NULL phonetic names, '' (the view's ``PHONETIC_NAME_SQL``)."""
    phone, email = bool(contact.phone), bool(contact.email)
    return {
        "_id": contact.id, "name": contact.name or None, "display_name": contact.name or None,
        "phonetic_name": "", "notes": None, "times_contacted": 0, "last_time_contacted": 0,
        "custom_ringtone": None, "send_to_voicemail": 0, "starred": int(contact.starred),
        "primary_organization": None,
        "primary_email": contact.id * 10 + 3 if email else None,
        "primary_phone": contact.id * 10 + 2 if phone else None,
        "number": contact.phone or None, "type": 2 if phone else None, "label": None,
        "number_key": None, "im_protocol": None, "im_handle": None, "im_account": None,
        "mode": None, "status": None,
    }


def data_rows(contact: Contact) -> list[dict[str, Any]]:
    """The contacts provider's data rows of one contact: name, phone, email."""
    base = {"raw_contact_id": contact.id, "contact_id": contact.id,
            "display_name": contact.name or None, "data2": None}
    rows = []
    for k, (mime, value, kind) in enumerate(((MIME_NAME, contact.name, None),
                                             (MIME_PHONE, contact.phone, 2),
                                             (MIME_EMAIL, contact.email, 1)), 1):
        if value:
            rows.append({**base, "_id": contact.id * 10 + k, "mimetype": mime, "data1": value,
                         "data2": kind})
    return rows


def cell(value: Any) -> str:
    return "NULL" if value is None else str(value)
