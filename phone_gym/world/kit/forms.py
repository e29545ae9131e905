"""A form editor: fields, validation shown under the fields, save only when valid, and
"Discard changes?" on back when there are unsaved changes."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import partial

from ..widgets import Handler, Icon, ListItem, Node, Screen, Text, TextField, TopBar
from .dialogs import ChoiceDialog, ConfirmDialog
from .lists import Chips
from .pickers import CalendarState, MaterialDatePicker

Validate = Callable[[Mapping[str, str]], Mapping[str, str]]

FIELD_KINDS = ("text", "number", "multiline", "choice", "chips", "date")


@dataclass(frozen=True)
class FormField:
    """One field of a form: ``key`` (also the field's id), its ``label``, ``kind`` (text,
    number, multiline, choice: one of ``choices``, picked in a dialog, or chips: picked
    among ``choices`` shown as chips under a caption), a ``hint``, and whether it is
    ``required``; ``id`` names a chips field's chip group (default ``<key>_chips``)."""

    key: str
    label: str
    kind: str = "text"
    hint: str = ""
    choices: Sequence[str] = ()
    required: bool = False
    id: str = ""

    def __post_init__(self) -> None:
        if self.kind not in FIELD_KINDS:
            raise ValueError(f"unknown field kind {self.kind!r}; use one of {FIELD_KINDS}")


@dataclass
class FormState:
    """A form's transient state: keep it in the app's ``ui`` (``FormState.of(values)`` when
    the form opens); ``FormEditor``'s handlers update it. ``errors`` are shown once a save
    was tried (``tried``), and kept up to date as the fields change from then on."""

    values: dict[str, str] = field(default_factory=dict)
    initial: dict[str, str] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    tried: bool = False
    confirm_discard: bool = False
    picking: str | None = None  # the choice (or date) field whose dialog is open
    calendar: CalendarState | None = None  # the open date picker's state

    @classmethod
    def of(cls, values: Mapping[str, object]) -> FormState:
        """A form opened on ``values`` (None reads as empty)."""
        plain = {k: "" if v is None else str(v) for k, v in values.items()}
        return cls(values=dict(plain), initial=dict(plain))

    def get(self, key: str) -> str:
        return self.values.get(key, "")

    @property
    def dirty(self) -> bool:
        """Whether a value differs from what the form opened with."""
        keys = self.values.keys() | self.initial.keys()
        return any(self.values.get(k, "") != self.initial.get(k, "") for k in keys)


def _is_number(text: str) -> bool:
    try:
        float(text.replace(",", ""))
    except ValueError:
        return False
    return True


def check_form(fields: Sequence[FormField], values: Mapping[str, str],
               validate: Validate | None = None) -> dict[str, str]:
    """The errors of ``values`` by field key: required fields left blank, numbers that are
    not numbers, choices not among the choices, then whatever ``validate`` finds (the
    first error of a field wins)."""
    errors: dict[str, str] = {}
    for f in fields:
        value = values.get(f.key, "").strip()
        if not value:
            if f.required:
                errors[f.key] = f"{f.label} is required"
        elif f.kind == "number" and not _is_number(value):
            errors[f.key] = f"{f.label} must be a number"
        elif f.kind == "choice" and f.choices and value not in f.choices:
            errors[f.key] = f"Choose one of: {', '.join(f.choices)}"
    if validate is not None:
        for key, message in validate(values).items():
            if message:
                errors.setdefault(key, message)
    return errors


def FormEditor(
    title: str, fields: Sequence[FormField], form: FormState, *,
    on_save: Callable[[dict[str, str]], None], on_close: Handler,
    validate: Validate | None = None, actions: Sequence[Node] = (),
    footer: Sequence[Node] = (), today: date | None = None,
) -> Screen:
    """An editing screen: ``title``, ``actions`` and a Save icon (id ``save``) in the top
    bar, one widget per field (a text field with id ``key``; for a choice a row that opens a
    ``ChoiceDialog``; for a date a row that opens a ``MaterialDatePicker`` on the field's
    ``YYYY-MM-DD``, or ``today``; for chips a caption, id ``<key>_label``, above ``Chips``), each
    field's error under it (``<key>_error``), then ``footer``.

    Save checks the values (``check_form``: built-in checks, then ``validate(values)``
    returning messages by key); when valid it calls ``on_save(values)`` with every field's
    value by key (it usually stores them and leaves), else it shows the errors. Back (or
    the up arrow) calls ``on_close`` when nothing changed, else asks "Discard changes?"
    (Keep editing / Discard, which calls ``on_close``)."""

    def revalidate() -> None:
        if form.tried:
            form.errors = check_form(fields, form.values, validate)

    def change(key: str) -> Callable[[str], None]:
        def set_value(value: str) -> None:
            form.values[key] = value
            revalidate()
        return set_value

    def open_choice(key: str) -> None:
        form.picking = key

    if today is None and any(f.kind == "date" for f in fields):
        raise ValueError("a form with a date field needs today= (the phone's date)")

    def open_date(key: str) -> None:
        day = today or date.min  # (never: checked above)
        try:
            form.calendar = CalendarState.of(form.get(key).strip(), today=day)
        except ValueError:
            form.calendar = CalendarState(day, day)
        form.picking = key

    def pick(key: str, option: str) -> None:
        form.values[key] = option
        form.picking = None
        revalidate()

    def save() -> None:
        form.tried = True
        form.errors = check_form(fields, form.values, validate)
        if not form.errors:
            form.initial = dict(form.values)
            on_save({f.key: form.get(f.key) for f in fields})

    def back() -> bool:
        if form.dirty:
            form.confirm_discard = True
        else:
            on_close()
        return True

    def discard() -> None:
        form.confirm_discard = False
        form.values = dict(form.initial)
        on_close()

    def dismiss() -> None:
        form.confirm_discard = False
        form.picking = None

    content: list[Node] = []
    for f in fields:
        value = form.get(f.key)
        if f.kind == "choice":
            content.append(ListItem(f.label, value or "Not set", id=f.key,
                                    on_click=partial(open_choice, f.key)))
        elif f.kind == "date":
            content.append(ListItem(f.label, parts=[(f"{f.key}_value", value or "Not set")],
                                    id=f.key, on_click=partial(open_date, f.key)))
        elif f.kind == "chips":
            content += [Text(f.label, style="caption", id=f"{f.key}_label"),
                        Chips(f.choices, {value}, change(f.key), id=f.id or f"{f.key}_chips")]
        else:
            content.append(TextField(value, change(f.key), hint=f.hint or f.label, id=f.key,
                                     label=f.label, multiline=f.kind == "multiline"))
        if f.key in form.errors:
            content.append(Text(form.errors[f.key], style="error", id=f"{f.key}_error"))
    content.extend(footer)

    dialog: Node | None = None
    choice = next((f for f in fields if f.key == form.picking), None)
    if form.confirm_discard:
        dialog = ConfirmDialog("Discard changes?", "Your changes will not be saved.",
                               confirm="Discard", cancel="Keep editing", destructive=True,
                               on_confirm=discard, on_cancel=dismiss)
    elif choice is not None and choice.kind == "date" and form.calendar is not None:
        dialog = MaterialDatePicker(form.calendar, on_done=lambda day: pick(choice.key, day),
                                    on_cancel=dismiss)
    elif choice is not None:
        dialog = ChoiceDialog(choice.label, choice.choices, form.get(choice.key),
                              lambda option: pick(choice.key, option), dismiss)
    return Screen(
        top_bar=TopBar(title, on_back=back, actions=[*actions, Icon("✓", "Save", save,
                                                                   id="save")]),
        content=content, dialog=dialog, on_dismiss=dismiss, on_back=back,
    )
