"""The screen kit, part 2: the form editor (validation, saving, "Discard changes?") on a
tiny app driven on a ``Device`` (helpers: ``test_kit``; the Material date and time pickers:
``test_kit_pickers``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pytest
from driving import fill, press, tap
from test_kit import check_accessible, element, ids, render, start

from phone_gym.world import App, Device, Route, Screen
from phone_gym.world.kit import (
    FormEditor,
    FormField,
    FormState,
    check_form,
)
from phone_gym.world.manifest import AppManifest
from phone_gym.world.widgets import Button, Text, TopBar

# --- form editor ------------------------------------------------------------------------------

FIELDS = (
    FormField("name", "Name", required=True),
    FormField("age", "Age", "number", hint="Years"),
    FormField("kind", "Kind", "choice", choices=("Friend", "Family", "Work")),
    FormField("notes", "Notes", "multiline"),
)


def validate(values: Mapping[str, str]) -> dict[str, str]:
    age = values.get("age", "")
    if age.isdigit() and int(age) > 150:
        return {"age": "Age must be at most 150"}
    return {}


@dataclass
class PersonUi:
    form: FormState = field(default_factory=FormState)
    saved: list[dict[str, str]] = field(default_factory=list)


class PersonApp(App):
    manifest = AppManifest("Person", "com.example.person")
    ui: PersonUi

    def initial_ui(self) -> PersonUi:
        return PersonUi()

    def edit(self, values: Mapping[str, object]) -> None:
        self.ui.form = FormState.of(values)
        self.go("edit")

    def save(self, values: dict[str, str]) -> None:
        self.ui.saved.append(values)
        self.back()

    def view(self, route: Route) -> Screen:
        if route.name == "edit":
            return FormEditor("Edit person", FIELDS, self.ui.form, on_save=self.save,
                              on_close=self.back, validate=validate,
                              footer=[Text("Fields marked Name are required", style="caption",
                                           id="form_note")])
        return Screen(top_bar=TopBar("People"), content=[
            Button("New person", lambda: self.edit({}), id="new"),
            Button("Edit Ann", lambda: self.edit({"name": "Ann", "age": 30, "kind": "Friend",
                                                  "notes": None}), id="edit_ann"),
        ])


def person_app(device: Device) -> PersonApp:
    app = device.apps["Person"]
    assert isinstance(app, PersonApp)
    return app


def test_form_shows_its_fields() -> None:
    device = start(PersonApp)
    tap(device, id="edit_ann")
    shown = check_accessible(device)
    assert element(device, "toolbar").text == "Edit person"
    name, age, notes = (element(device, k) for k in ("name", "age", "notes"))
    assert all(f.editable and f.class_name == "android.widget.EditText"
               for f in (name, age, notes))
    assert (name.text, name.content_desc) == ("Ann", "Name")
    assert (age.text, age.hint) == ("30", "Years")
    assert notes.text == "" and notes.hint == "Notes"
    kind = element(device, "kind")
    assert (kind.text, kind.hint, kind.clickable) == ("Kind", "Friend", True)
    save = element(device, "save")
    assert save.content_desc == "Save" and save.clickable
    assert element(device, "form_note").text.startswith("Fields marked")
    assert not [e for e in shown if e.short_id.endswith("_error")]  # no errors before saving
    render(device)


def test_errors_show_under_their_fields_and_block_saving() -> None:
    device = start(PersonApp)
    tap(device, id="new")
    clean = render(device)
    tap(device, id="save")
    app = person_app(device)
    assert app.ui.saved == [] and app.route.name == "edit"
    error = element(device, "name_error")
    assert error.text == "Name is required" and error.class_name == "android.widget.TextView"
    assert element(device, "name").bounds[3] <= error.bounds[1]  # under its field
    assert not np.array_equal(render(device), clean)
    check_accessible(device)
    fill(device, "name", "Bob")
    assert "name_error" not in ids(device)  # re-checked as the fields change, once tried
    fill(device, "age", "old")
    assert element(device, "age_error").text == "Age must be a number"
    fill(device, "age", "200")
    assert element(device, "age_error").text == "Age must be at most 150"  # app's validate
    tap(device, id="save")
    assert app.ui.saved == []
    fill(device, "age", "42")
    assert not [i for i in ids(device) if i.endswith("_error")]
    press(device, "back")  # hide the keyboard
    tap(device, id="save")
    assert app.ui.saved == [{"name": "Bob", "age": "42", "kind": "", "notes": ""}]
    assert app.route.name == "main"


def test_choice_fields_pick_from_a_dialog() -> None:
    device = start(PersonApp)
    tap(device, id="edit_ann")
    tap(device, id="kind")
    assert element(device, "alertTitle").text == "Kind"
    assert element(device, "option_friend").checked
    assert not element(device, "option_work").checked
    tap(device, id="option_work")
    assert element(device, "kind").hint == "Work" and "alertTitle" not in ids(device)
    tap(device, id="kind")
    press(device, "back")  # dismisses the dialog only
    assert "alertTitle" not in ids(device) and person_app(device).route.name == "edit"
    tap(device, id="save")
    assert person_app(device).ui.saved == [
        {"name": "Ann", "age": "30", "kind": "Work", "notes": ""}]


def test_back_with_changes_asks_to_discard() -> None:
    device = start(PersonApp)
    tap(device, id="edit_ann")
    press(device, "back")  # nothing changed: it closes
    assert person_app(device).route.name == "main"
    tap(device, id="edit_ann")
    fill(device, "notes", "Met at work")
    press(device, "back")  # hides the keyboard
    press(device, "back")
    assert element(device, "alertTitle").text == "Discard changes?"
    check_accessible(device)
    assert {"button_keep_editing", "button_discard"} <= ids(device)
    render(device)
    press(device, "back")  # dismisses the question: still editing, changes kept
    assert "alertTitle" not in ids(device) and element(device, "notes").text == "Met at work"
    tap(device, id="navigate_up")  # the up arrow asks too
    tap(device, id="button_keep_editing")
    assert person_app(device).route.name == "edit"
    tap(device, id="navigate_up")
    tap(device, id="button_discard")
    app = person_app(device)
    assert app.route.name == "main" and app.ui.saved == []


def test_check_form_runs_builtin_checks_then_the_apps() -> None:
    values = {"name": " ", "age": "1,000", "kind": "Pet"}
    assert check_form(FIELDS, values, validate) == {
        "name": "Name is required", "kind": "Choose one of: Friend, Family, Work"}
    assert check_form(FIELDS, {"name": "A", "age": "151"}, validate) == {
        "age": "Age must be at most 150"}
    assert check_form(FIELDS, {"name": "A", "age": "2.5"}) == {}
    with pytest.raises(ValueError, match="unknown field kind"):
        FormField("x", "X", "time")


def test_form_state_knows_when_it_is_dirty() -> None:
    form = FormState.of({"name": "Ann", "age": 3, "notes": None})
    assert form.values == {"name": "Ann", "age": "3", "notes": ""} and not form.dirty
    form.values["extra"] = ""
    assert not form.dirty  # a blank new value is no change
    form.values["name"] = "Anne"
    assert form.dirty
