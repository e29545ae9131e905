"""Contacts: the phone's address book, kept in the shared contacts provider.

Contacts live in ``system.contacts`` (not in the app's own data), so every app sees them and
verifiers read them at ``system.contacts.<id>.<field>``. The app keeps only transient UI
state: the search query, the create/edit form, and which dialog is open.

Screens: the list (sorted by name, searchable, with a Favorites tab), a contact's details
(copyable phone and email; Edit, Favorite and Delete icons) and the create/edit form. Back
from a form with changes asks "Discard changes?"; back from an unchanged form just closes it.
A contact needs a name: saving a form without one shows a toast and keeps the form open.

The new-contact editor keeps what is typed into it in the app's data (``apps.Contacts.draft``,
None while it is closed or empty), as Android's contacts editor keeps its state while it is
open: a verifier can then read an unsaved form (AndroidWorld's ContactsNewContactDraft). Saving,
discarding, leaving the form and a force-stop clear it. The phone type (Mobile, Home, Work,
Other) is chosen in a dialog; the contacts provider of PhoneWorld keeps no phone type, so it
lives only in the form.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ...world import pictures
from ...world.app import App, Route
from ...world.data import Listing, Store
from ...world.kit import ChoiceDialog, ValueRow
from ...world.kit.localize import in_locale
from ...world.kit.searchbar import SearchAppBar, SearchField
from ...world.system import Contact, SystemState
from ...world.widgets import (
    Dialog,
    DialogButton,
    Fab,
    Icon,
    ListItem,
    Node,
    Screen,
    Tab,
    TabBar,
    Text,
    TextField,
    TopBar,
    VirtualList,
)
from .manifest import MANIFEST

FAVORITES = "favorites"  # the route arg of the list's Favorites tab
PHONE_TYPES = ("Mobile", "Home", "Work", "Other")


# --- state -------------------------------------------------------------------------------
@dataclass
class Form:
    """The fields of the create/edit form."""

    name: str = ""
    phone: str = ""
    email: str = ""
    label: str = PHONE_TYPES[0]  # the phone type


@dataclass(frozen=True)
class Draft:
    """The new-contact form while it is open and not empty (``ContactsData.draft``)."""

    name: str = ""
    phone: str = ""
    email: str = ""
    label: str = PHONE_TYPES[0]


@dataclass
class ContactsData(Store):
    """What the app keeps itself (contacts are the provider's): the open new-contact form."""

    draft: Draft | None = None


@dataclass
class ContactsUi:
    """Transient state, lost on force-stop."""

    query: str = ""
    form: Form = field(default_factory=Form)
    original: Form = field(default_factory=Form)  # the form as opened, to spot changes
    confirm_delete: int | None = None  # id of the contact a delete dialog asks about
    confirm_discard: bool = False
    choosing_label: bool = False


# --- updates -------------------------------------------------------------------------------
def sorted_contacts(system: SystemState, query: str = "", *,
                    starred_only: bool = False) -> list[Contact]:
    """Contacts whose name contains ``query`` (any case), sorted by name."""
    wanted = query.strip().casefold()
    found = [c for c in system.contacts
             if wanted in c.name.casefold() and (c.starred or not starred_only)]
    return sorted(found, key=lambda c: (c.name.casefold(), c.id))


def toggle_star(system: SystemState, contact_id: int) -> None:
    contact = system.contact(contact_id)
    if contact is not None:
        system.contacts.update(contact_id, starred=not contact.starred)


def save_form(system: SystemState, form: Form, contact_id: int | None) -> Contact | None:
    """Write the form into its contact (or a new one); None when it has no name."""
    name, phone, email = form.name.strip(), form.phone.strip(), form.email.strip()
    if not name:
        return None
    contact = system.contact(contact_id) if contact_id is not None else None
    if contact is None:
        return system.add_contact(name, phone, email)
    return system.contacts.update(contact.id, name=name, phone=phone, email=email)


def by_name(c: Contact) -> tuple[str, int]:
    return (c.name.casefold(), c.id)


def contact_name(c: Contact) -> str:
    return c.name


def starred(c: Contact) -> bool:
    return c.starred


def contact_index(system: SystemState, favorites: bool) -> Listing[Contact]:
    """The contacts sorted by name (only the starred ones, for the Favorites tab): a table
    index, kept sorted on every write, so a list of thousands costs little."""
    if favorites:
        return system.contacts.index("favorites_by_name", by_name, contact_name, starred)
    return system.contacts.index("by_name", by_name, contact_name)


def initial_letter(name: str) -> str:
    return name.strip()[:1].upper() or "?"


# --- the app -------------------------------------------------------------------------------
class ContactsApp(App):
    manifest = MANIFEST

    ui: ContactsUi
    data: ContactsData

    def initial_ui(self) -> ContactsUi:
        return ContactsUi()

    def initial_data(self) -> ContactsData:
        return ContactsData()

    def stop(self) -> None:
        """Force-stop: the editor (and its draft) is gone."""
        super().stop()
        self.keep_draft(None)

    def keep_draft(self, form: Form | None) -> None:
        """Keep the new-contact form in the app's data (None: closed, or nothing typed)."""
        draft = None
        if form is not None and form != Form():
            draft = Draft(form.name, form.phone, form.email, form.label)
        if self.data.draft != draft:
            self.data.draft = draft

    # navigation with side effects on the form and dialogs
    def open_form(self, contact_id: int | None) -> None:
        contact = self.system.contact(contact_id) if contact_id is not None else None
        form = Form(contact.name, contact.phone, contact.email) if contact else Form()
        self.ui.form, self.ui.original = form, Form(form.name, form.phone, form.email)
        self.ui.confirm_discard = self.ui.choosing_label = False
        self.keep_draft(None)
        self.go("edit", contact.id if contact else None)

    def submit_form(self) -> None:
        contact = save_form(self.system, self.ui.form, self.route.arg)
        if contact is None:
            self.toast(self.t("Enter a name"))
            return
        self.toast(self.t("Contact saved"))
        self.keep_draft(None)
        if self.route.arg is None:
            self.replace("detail", contact.id)  # a new contact opens on its details
        else:
            self.back()

    def leave_form(self) -> None:
        """Back from the form: ask first when something was typed."""
        if self.ui.form != self.ui.original:
            self.ui.confirm_discard = True
        else:
            self.keep_draft(None)
            self.back()

    def discard(self) -> None:
        self.ui.confirm_discard = False
        self.keep_draft(None)
        self.back()

    def set_form(self, **changes: str) -> None:
        for key, value in changes.items():
            setattr(self.ui.form, key, value)
        if self.route.name == "edit" and self.route.arg is None:
            self.keep_draft(self.ui.form)

    def choose_label(self, open_: bool) -> None:
        self.ui.choosing_label = open_

    def pick_label(self, label: str) -> None:
        self.ui.choosing_label = False
        self.set_form(label=label)

    def set_query(self, query: str) -> None:
        self.ui.query = query

    def ask_delete(self, contact_id: int | None) -> None:
        self.ui.confirm_delete = contact_id

    def delete(self, contact_id: int) -> None:
        self.system.delete_contact(contact_id)
        self.ui.confirm_delete = None
        if self.route.name == "detail":
            self.back()
        self.toast(self.t("Contact deleted"))

    def star(self, contact_id: int) -> None:
        toggle_star(self.system, contact_id)
        contact = self.system.contact(contact_id)
        if contact is not None:
            self.toast(self.t("Added to favorites" if contact.starred
                              else "Removed from favorites"))

    # views
    def view(self, route: Route) -> Screen:
        if route.name == "detail":
            screen = self.details(route.arg)
        elif route.name == "edit":
            screen = self.form(route.arg)
        else:
            screen = self.contact_list(favorites=route.arg == FAVORITES)
        return in_locale(self, screen)

    def delete_dialog(self) -> Node | None:
        contact = self.system.contact(self.ui.confirm_delete or -1)
        if contact is None:
            return None
        return Dialog("Delete contact?",
                      self.t("{name} will be deleted from this phone.", name=contact.name), [
            DialogButton("Cancel", lambda: self.ask_delete(None), id="button_cancel"),
            DialogButton("Delete", lambda: self.delete(contact.id), id="button_delete"),
        ])

    def row(self, c: Contact) -> Node:
        star_label = "Remove from favorites" if c.starred else "Add to favorites"
        return ListItem(
            c.name, c.phone, id=f"contact_{c.id}", glyph=initial_letter(c.name),
            picture=pictures.encode("avatar", pictures.seed_of(c.name)),
            on_click=lambda: self.go("detail", c.id),
            menu=[(self.t(star_label), lambda: self.star(c.id)),
                  (self.t("Edit"), lambda: self.open_form(c.id)),
                  (self.t("Delete"), lambda: self.ask_delete(c.id))],
            trailing=Icon("★", "Favorite", id="starred") if c.starred else None,
        )

    @classmethod
    def index_system(cls, system: SystemState) -> None:
        contact_index(system, False)
        contact_index(system, True)

    def index(self, favorites: bool) -> Listing[Contact]:
        return contact_index(self.system, favorites)

    def shown(self, favorites: bool) -> Sequence[Contact]:
        """The list's contacts, sorted and filtered by the search query."""
        return self.index(favorites).view(self.system.contacts, self.ui.query)

    def contact_list(self, *, favorites: bool) -> Screen:
        shown = self.shown(favorites)
        if self.ui.query.strip():
            empty = "No contacts found"
        else:
            empty = "No favorites yet" if favorites else "No contacts yet"
        tabs = TabBar([
            Tab("Contacts", not favorites, lambda: self.replace("main"), id="tab_contacts"),
            Tab("Favorites", favorites, lambda: self.replace("main", FAVORITES),
                id="tab_favorites"),
        ])
        return Screen(
            # Google Contacts: no title, a search bar as the app bar
            top_bar=SearchAppBar(SearchField(self.ui.query, self.set_query,
                                             hint="Search contacts", id="search")),
            content=[
                Text(self.t("{n} contact", n=len(shown)) if len(shown) == 1
                     else self.t("{n} contacts", n=len(shown)), style="caption", id="count"),
                VirtualList(len(shown), lambda i: self.row(shown[i]), id="contacts_list",
                            empty_text=empty),
            ],
            bottom=tabs,
            fab=Fab("+", "Create contact", lambda: self.open_form(None), id="create_contact"),
            dialog=self.delete_dialog(),
            on_dismiss=lambda: self.ask_delete(None),
        )

    def details(self, contact_id: int) -> Screen:
        c = self.system.contact(contact_id)
        if c is None:
            return Screen(top_bar=TopBar("Contact", on_back=self.back),
                          content=[Text("Contact not found", id="empty")])
        star_label = "Remove from favorites" if c.starred else "Add to favorites"
        content = [
            Text(c.name, style="title", id="name"),
            Text("Phone", style="caption", id="phone_label"),
            Text(c.phone, id="phone", copyable=True) if c.phone
            else Text("No phone number", style="caption", id="phone_empty"),
        ]
        if c.email:
            content += [Text("Email", style="caption", id="email_label"),
                        Text(c.email, id="email", copyable=True)]
        if c.starred:
            content.append(Text("In favorites", style="caption", id="favorite_label"))
        favorite = Icon("★" if c.starred else "☆", star_label, lambda: self.star(c.id),
                        id="favorite")
        favorite.selected = c.starred
        return Screen(
            top_bar=TopBar("Contact", on_back=self.back, actions=[
                Icon("✎", "Edit", lambda: self.open_form(c.id), id="edit"),
                favorite,
                Icon("🗑", "Delete", lambda: self.ask_delete(c.id), id="delete"),
            ]),
            content=content,
            dialog=self.delete_dialog(),
            on_dismiss=lambda: self.ask_delete(None),
        )

    def form(self, contact_id: int | None) -> Screen:
        f = self.ui.form
        dialog = None
        if self.ui.choosing_label:
            dialog = ChoiceDialog("Phone type", PHONE_TYPES, f.label, self.pick_label,
                                  lambda: self.choose_label(False), id="phone_types")
        if self.ui.confirm_discard:
            dialog = Dialog("Discard changes?", "Your changes will not be saved.", [
                DialogButton("Keep editing", self.keep_editing, id="button_keep"),
                DialogButton("Discard", self.discard, id="button_discard"),
            ])

        def back() -> bool:
            self.leave_form()
            return True

        return Screen(
            top_bar=TopBar("Edit contact" if contact_id is not None else "Create contact",
                           on_back=self.leave_form,
                           actions=[Icon("✓", "Save", self.submit_form, id="save")]),
            content=[
                TextField(f.name, lambda v: self.set_form(name=v), hint="Name", id="name",
                          label="Name"),
                TextField(f.phone, lambda v: self.set_form(phone=v), hint="Phone", id="phone",
                          label="Phone"),
                ValueRow("Phone type", self.t(f.label), lambda: self.choose_label(True),
                         id="phone_type"),
                TextField(f.email, lambda v: self.set_form(email=v), hint="Email", id="email",
                          label="Email"),
            ],
            dialog=dialog,
            on_dismiss=self.keep_editing,
            on_back=back,
        )

    def keep_editing(self) -> None:
        self.ui.confirm_discard = self.ui.choosing_label = False
