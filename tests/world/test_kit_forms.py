"""The screen kit, part 2: the form editor (validation, saving, "Discard changes?") and the
date and time pickers, each on a tiny app driven on a ``Device`` (helpers: ``test_kit``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date

import numpy as np
import pytest
from driving import fill, press, tap
from test_kit import check_accessible, element, ids, render, start, texts

from phone_gym.world import App, Device, Route, Screen
from phone_gym.world.kit import (
    DateDraft,
    DatePicker,
    FormEditor,
    FormField,
    FormState,
    TimeDraft,
    TimePicker,
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


# --- date and time pickers --------------------------------------------------------------------


@dataclass
class WhenUi:
    date: DateDraft | None = None
    time: TimeDraft | None = None
    day: str = "2024-02-29"
    at: str = "23:59"


class WhenApp(App):
    manifest = AppManifest("When", "com.example.when")
    ui: WhenUi

    def initial_ui(self) -> WhenUi:
        return WhenUi()

    def set_day(self, iso: str) -> None:
        self.ui.day, self.ui.date = iso, None

    def set_at(self, iso: str) -> None:
        self.ui.at, self.ui.time = iso, None

    def close(self) -> None:
        self.ui.date = self.ui.time = None

    def view(self, route: Route) -> Screen:
        ui = self.ui
        dialog = None
        if ui.date is not None:
            dialog = DatePicker(ui.date, on_done=self.set_day, on_cancel=self.close)
        elif ui.time is not None:
            dialog = TimePicker(ui.time, on_done=self.set_at, on_cancel=self.close)
        return Screen(top_bar=TopBar("When"), content=[
            Button(ui.day, lambda: setattr(ui, "date", DateDraft.from_iso(ui.day)), id="day"),
            Button(ui.at, lambda: setattr(ui, "time", TimeDraft.from_iso(ui.at)), id="at"),
        ], dialog=dialog, on_dismiss=self.close)


def when_ui(device: Device) -> WhenUi:
    app = device.apps["When"]
    assert isinstance(app, WhenApp)
    return app.ui


def test_date_picker_fields_steps_and_summary() -> None:
    device = start(WhenApp)
    plain = render(device)
    tap(device, id="day")
    check_accessible(device)
    assert element(device, "alertTitle").text == "Select date"
    assert element(device, "picker_summary").text == "Thu, February 29, 2024"
    for part, value in (("year", "2024"), ("month", "2"), ("day", "29")):
        f = element(device, part)
        assert f.editable and f.text == value and f.content_desc == part.title()
        assert element(device, f"{part}_increase").content_desc == f"Increase {part}"
        assert element(device, f"{part}_decrease").content_desc == f"Decrease {part}"
    ok = element(device, "button_ok")
    assert ok.enabled and ok.clickable
    picked = render(device)
    assert not np.array_equal(picked, plain)
    tap(device, id="year_increase")  # 2025 has no February 29: the day follows
    assert [element(device, p).text for p in ("year", "month", "day")] == ["2025", "2", "28"]
    assert element(device, "picker_summary").text == "Fri, February 28, 2025"
    assert not np.array_equal(render(device), picked)
    for _ in range(11):
        tap(device, id="month_increase")
    tap(device, id="month_increase")  # December wraps to January
    assert element(device, "month").text == "2"
    tap(device, id="month_decrease")
    tap(device, id="day_decrease")
    assert element(device, "day").text == "27"
    tap(device, id="button_ok")
    assert when_ui(device).day == "2025-01-27" and "alertTitle" not in ids(device)
    assert "2025-01-27" in texts(device)


def test_date_picker_validates_typed_values() -> None:
    device = start(WhenApp)
    tap(device, id="day")
    fill(device, "month", "4")
    fill(device, "day", "31")
    press(device, "back")  # hide the keyboard
    error = element(device, "day_error")
    assert error.text == "Enter a day from 1 to 30" and error.class_name.endswith("TextView")
    assert element(device, "picker_summary").text == "Not a valid date"
    ok = element(device, "button_ok")
    assert not ok.enabled and not ok.clickable
    check_accessible(device)
    render(device)
    tap(device, id="button_ok")  # disabled: nothing happens
    assert when_ui(device).date is not None and when_ui(device).day == "2024-02-29"
    fill(device, "year", "1800")
    assert element(device, "year_error").text == "Enter a year from 1900 to 2100"
    fill(device, "year", "2030")
    fill(device, "day", "30")
    press(device, "back")
    assert not [i for i in ids(device) if i.endswith("_error")]
    tap(device, id="button_ok")
    assert when_ui(device).day == "2030-04-30"


def test_date_picker_cancels_and_dismisses() -> None:
    device = start(WhenApp)
    tap(device, id="day")
    tap(device, id="day_increase")
    tap(device, id="button_cancel")
    assert when_ui(device).date is None and when_ui(device).day == "2024-02-29"
    tap(device, id="day")
    press(device, "back")
    assert when_ui(device).date is None and device.current_app is not None


def test_time_picker() -> None:
    device = start(WhenApp)
    tap(device, id="at")
    check_accessible(device)
    assert element(device, "alertTitle").text == "Select time"
    assert [element(device, p).text for p in ("hour", "minute")] == ["23", "59"]
    assert element(device, "picker_summary").text == "23:59"
    before = render(device)
    tap(device, id="minute_increase")  # wraps (the hour stays)
    tap(device, id="hour_increase")
    assert [element(device, p).text for p in ("hour", "minute")] == ["0", "00"]
    assert not np.array_equal(render(device), before)
    fill(device, "hour", "24")
    press(device, "back")
    assert element(device, "hour_error").text == "Enter an hour from 0 to 23"
    assert not element(device, "button_ok").enabled
    fill(device, "hour", "7")
    fill(device, "minute", "5")
    press(device, "back")
    assert element(device, "picker_summary").text == "07:05"
    tap(device, id="button_ok")
    assert when_ui(device).at == "07:05" and when_ui(device).time is None


def test_drafts_parse_step_and_check() -> None:
    d = DateDraft.from_iso("2023-01-31")
    d.step("month", 1)
    assert (d.month, d.day, d.iso()) == ("2", "28", "2023-02-28")
    d.step("month", -2)
    assert d.iso() == "2023-12-28"
    d.step("day", 4)  # wraps within December
    assert d.iso() == "2023-12-01"
    d.year = "2100"
    d.step("year", 1)  # stops at the limit
    assert d.year == "2100"
    d.day = "x"
    assert d.iso() is None and set(d.errors()) == {"day"}
    d.step("day", 1)  # not a number: starts over
    assert d.day == "1"
    assert DateDraft.of(date(2000, 2, 29), min_year=2000).iso() == "2000-02-29"
    with pytest.raises(ValueError):
        DateDraft.from_iso("29/02/2000")
    t = TimeDraft.from_iso("09:30")
    assert (t.hour, t.minute, t.iso()) == ("9", "30", "09:30")
    t.step("hour", -10)
    assert t.iso() == "23:30"
    t.minute = "60"
    assert t.iso() is None and t.errors() == {"minute": "Enter a minute from 0 to 59"}
