"""AndroidWorld's multi-app tasks (``crossapp/androidworld.py``): the sources show their
values only in pixels or in a file (never in the instruction), a user who does the task
another way passes, and over-doing it (every candidate entered) fails."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from driving import act, open_app, tap

from phone_gym.actions import PhoneAction
from phone_gym.crossapp.androidworld import (
    TEMPLATES,
    ExpenseAddMultipleFromGallery,
    ExpenseAddMultipleFromMarkor,
    MarkorCreateNoteAndSms,
    MarkorTranscribeReceipt,
    MarkorTranscribeVideo,
    RecipeAddMultipleRecipesFromImage,
    RecipeAddMultipleRecipesFromMarkor2,
)
from phone_gym.mockapps import APPS
from phone_gym.mockapps.broccoli.fixtures import broccoli_app, write_recipe
from phone_gym.mockapps.expense.fixtures import expense_app, write_expense
from phone_gym.mockapps.markor.fixtures import write_note
from phone_gym.tasks.task import Episode, WorldHost
from phone_gym.world import Device
from phone_gym.world.a11y import ui_elements
from phone_gym.world.state import WorldState


@pytest.fixture(scope="module")
def device() -> Device:
    return Device(APPS)


def episode(task: Any, device: Device, seed: int = 0) -> Episode:
    return Episode(task, device, np.random.default_rng(seed))


def verdict(ep: Episode) -> Any:
    return ep.verify(None, "success")


def screen_text(device: Device) -> str:
    """Everything the accessibility tree shows now."""
    return " ".join(str(e.to_dict()) for e in ui_elements(device.frame()))


def test_every_template_starts_on_androidworlds_date_within_its_budget() -> None:
    for task in TEMPLATES:
        assert task.start.year == 2023 and task.start.month == 10 and task.start.day == 15
        assert 1 <= task.complexity <= 5 and task.max_steps in (18, 20, 60)


def test_receipt_is_in_pixels_only_and_bare_commas_pass(device: Device) -> None:
    ep = episode(MarkorTranscribeReceipt(), device, 1)
    items = [line.split(", ")[1] for line in ep.params["lines"][1:]]
    assert not any(i in ep.instruction for i in items)
    open_app(device, "Gallery")
    tap(device, "DCIM", kind="thumb")
    tap(device, ep.params["image"])
    picture = [p.node for p in device.frame().items if p.node.kind == "picture"]
    assert picture and items[0] in picture[0].text
    assert not any(i in screen_text(device) for i in items)
    assert not verdict(ep).success  # nothing done yet
    state = WorldState(device)
    write_note(state, ep.params["file_name"], "\n".join(ep.params["lines"]).replace(", ", ","))
    assert verdict(ep).success
    write_note(state, ep.params["file_name"], "\n".join(ep.params["lines"][1:]))  # no header
    assert not verdict(ep).success


def test_video_shows_each_name_for_eight_seconds(device: Device) -> None:
    ep = episode(MarkorTranscribeVideo(), device, 2)
    names = ep.params["names"]
    assert not any(n in ep.instruction for n in names)
    open_app(device, "VLC")
    tap(device, ep.params["video"], kind="list_item")
    seen = []
    for _ in range(len(names)):
        frame = [p.node for p in device.frame().items if p.node.id == "video_frame"]
        seen.append(frame[0].text)
        assert not any(n in screen_text(device) for n in names)
        for _ in range(8):
            tap(device, id="next_frame")
    assert seen == names
    state = WorldState(device)
    write_note(state, ep.params["file_name"], ",".join(names) + "\n")
    assert verdict(ep).success
    write_note(state, ep.params["file_name"], ", ".join(reversed(names)))
    assert not verdict(ep).success


def test_note_and_sms_progress_is_the_share_done(device: Device) -> None:
    task = MarkorCreateNoteAndSms()
    ep = episode(task, device, 3)
    state = WorldState(device)
    write_note(state, ep.params["file_name"], ep.params["text"])
    half = verdict(ep)
    assert not half.success and half.progress == pytest.approx(0.5)
    state.add_message(ep.params["number"], ep.params["text"], box="sent")
    open_app(device, "Messages")
    done = WorldHost(device).snapshot(task)
    assert task.verify(ep.initial, done, ep.params, None).success
    assert not task.verify(ep.initial, {**done, "foreground": "com.android.launcher3"},
                           ep.params, None).success


def test_expenses_from_gallery_decoys_are_entered_already(device: Device) -> None:
    ep = episode(ExpenseAddMultipleFromGallery(), device, 4)
    assert not any(e["name"] in ep.instruction for e in ep.params["expenses"])
    state = WorldState(device)
    for expense in ep.params["expenses"][:2]:
        write_expense(state, expense)
    partial = verdict(ep)
    assert not partial.success and partial.progress == pytest.approx(2 / 3)
    write_expense(state, ep.params["expenses"][2])
    assert verdict(ep).success
    write_expense(state, ep.params["noise"][0])  # one more: over-doing fails
    assert not verdict(ep).success


def test_reimbursable_tag_may_be_kept_and_untagged_rows_fail(device: Device) -> None:
    task = ExpenseAddMultipleFromMarkor()
    ep = episode(task, device, 5)
    state = WorldState(device)
    first, second = ep.params["expenses"]
    write_expense(state, {**first, "note": f"{first['note']} {task.tag}"})
    write_expense(state, second)
    assert verdict(ep).success
    ep = episode(task, device, 5)
    state = WorldState(device)
    noise = [vars(e) for e in expense_app(state).data.expenses]
    assert len(noise) == 100  # AndroidWorld's other rows, in the tracker already
    for expense in [*ep.params["expenses"], *noise]:  # every row of the file entered
        write_expense(state, expense)
    assert not verdict(ep).success


def test_recipes_with_other_prep_times_must_not_be_entered(device: Device) -> None:
    ep = episode(RecipeAddMultipleRecipesFromMarkor2(), device, 6)
    prep = ep.params["prep_time"]
    assert all(r["preparation_time"] == prep for r in ep.params["recipes"])
    state = WorldState(device)
    noise = [vars(r) for r in broccoli_app(state).data.recipes]
    assert len(noise) == 40 and all(r["preparation_time"] != prep for r in noise)
    for recipe in ep.params["recipes"]:
        write_recipe(state, recipe)
    assert verdict(ep).success
    write_recipe(state, noise[-1])  # a row of the file with another prep time, twice
    assert not verdict(ep).success


def test_recipe_picture_scrolls_to_its_last_line(device: Device) -> None:
    ep = episode(RecipeAddMultipleRecipesFromImage(), device, 7)
    last = ep.params["recipes"][-1]["title"]
    open_app(device, "Gallery")
    tap(device, "Pictures", kind="thumb")
    tap(device, ep.params["image"])
    act(device, PhoneAction("scroll", x=500, y=500, direction="down"))
    placed = [p for p in device.frame().items if p.node.kind == "picture"]
    assert placed and f"Title: {last}" in placed[0].node.text
    assert last not in screen_text(device)
