"""AndroidWorld counterparts as hard as the originals (issue 26, items 7-9): the Markor
renames, AndroidWorld's seeded data sizes, the browser tasks' route through Files' "Open
with" sheet, and OsmAnd places given as raw coordinates half the time."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

import numpy as np
import pytest
from driving import Driver, fill, long_press, open_app, shown, tap

from phone_gym.mockapps import APPS, REGISTRY
from phone_gym.mockapps.calendar import fixtures as calendar
from phone_gym.mockapps.chrome.manifest import MANIFEST as CHROME
from phone_gym.mockapps.markor.app import MARKOR_DIR
from phone_gym.mockapps.markor.tasks import MarkorAddNoteHeader, MarkorChangeNoteContent
from phone_gym.tasks.aw import AW_START
from phone_gym.tasks.task import Episode
from phone_gym.world import Device


@pytest.fixture(scope="module")
def device() -> Device:
    return Device(APPS)


def episode(task_id: str, device: Device, seed: int = 0) -> Episode:
    return Episode(REGISTRY.template(task_id), device, np.random.default_rng(seed))


def passes(ep: Episode) -> bool:
    return ep.verify(None, "success").success


def files(device: Device) -> dict[str, str]:
    return {f.path: f.content for f in device.system.files}


# --- item 7: the Markor renames --------------------------------------------------------------
def edit_in_place(device: Device, name: str, text: str) -> None:
    """Open note ``name``, replace its text with ``text``, save and go back."""
    open_app(device, "Markor")
    tap(device, name, kind="list_item")
    fill(device, "editor_body", text)
    tap(device, id="navigate_up")


def rename(device: Device, name: str, new_name: str) -> None:
    """Rename note ``name`` to ``new_name`` through Markor's rename dialog."""
    open_app(device, "Markor")
    long_press(device, name, kind="list_item")
    tap(device, id="rename")
    fill(device, "rename_field", new_name)
    tap(device, id="button_ok")


@pytest.mark.parametrize("task_id", ["MarkorAddNoteHeader", "MarkorChangeNoteContent"])
def test_the_note_must_also_be_renamed(task_id: str, device: Device) -> None:
    """AndroidWorld's instruction names the new name and its checker wants the old one gone:
    the edit alone fails, the rename alone fails, both pass (in either order)."""
    task = REGISTRY.template(task_id)
    assert isinstance(task, (MarkorAddNoteHeader, MarkorChangeNoteContent))
    for seed in range(3):
        ep = episode(task_id, device, seed)
        p = ep.params
        old, new = p["file_name"], p["new_name"]
        assert f'rename the note to "{new}"' in ep.instruction
        assert new != old and f"{MARKOR_DIR}/{new}" not in files(device)
        text = task.texts(p)[0]
        edit_in_place(device, old, text)
        assert files(device)[f"{MARKOR_DIR}/{old}"] == text
        assert not passes(ep), "edited in place, not renamed"
        rename(device, old, new)
        assert passes(ep)
        ep = episode(task_id, device, seed)
        rename(device, old, new)
        assert not passes(ep), "renamed, not edited"
        edit_in_place(device, new, text)
        assert passes(ep)


def test_a_renamed_note_with_the_old_text_fails(device: Device) -> None:
    ep = episode("MarkorAddNoteHeader", device, 4)
    rename(device, ep.params["file_name"], ep.params["new_name"])
    edit_in_place(device, ep.params["new_name"], ep.params["header"])  # header only
    assert not passes(ep)


# --- item 8: AndroidWorld's data sizes -------------------------------------------------------
CALENDAR_QUESTIONS = ("SimpleCalendarEventsOnDate", "SimpleCalendarNextEvent",
                      "SimpleCalendarEventOnDateAtTime", "SimpleCalendarAnyEventsOnDate",
                      "SimpleCalendarNextMeetingWithPerson", "SimpleCalendarLocationOfEvent",
                      "SimpleCalendarEventsInNextWeek", "SimpleCalendarFirstEventAfterStartTime",
                      "SimpleCalendarEventsInTimeRange")


def events(device: Device) -> list[Any]:
    return list(device.system.events)


@pytest.mark.parametrize("task_id", CALENDAR_QUESTIONS)
def test_calendar_questions_add_75_random_events(task_id: str, device: Device) -> None:
    for seed in range(3):
        ep = episode(task_id, device, seed)
        seeded = {e[0] for e in ep.params["events"]}
        rows = events(device)
        random = [e for e in rows if e.title not in seeded]
        assert len(rows) == len(ep.params["events"]) + 75 == len(random) + len(
            ep.params["events"])
        leads = tuple(f"{lead} " for lead in calendar.RANDOM_LEADS)
        assert all(e.title.startswith(leads) for e in random)
        window = (AW_START - timedelta(days=15), AW_START + timedelta(days=15))
        assert all(window[0] <= datetime.fromisoformat(e.start) <= window[1] for e in random)
        assert len({e.start[:10] for e in random}) > 15  # spread over the month


def test_random_events_keep_the_answer(device: Device) -> None:
    """Each question's exclusion: nothing random on the day asked about, under way at the
    time asked, or naming the person before the meeting."""
    for seed in range(5):
        ep = episode("SimpleCalendarEventsOnDate", device, seed)
        day = ep.params["day"]
        on_day = [e.title for e in events(device) if e.start[:10] <= day <= e.end[:10]]
        assert sorted(on_day) == sorted(ep.params["targets"])
        ep = episode("SimpleCalendarEventOnDateAtTime", device, seed)
        when = f"{ep.params['day']}T{ep.params['time']}"
        under_way = [e.title for e in events(device) if e.start[:16] <= when < e.end[:16]]
        assert under_way == [ep.params["target"]]
        ep = episode("SimpleCalendarNextMeetingWithPerson", device, seed)
        person, meeting = ep.params["person"], f"{ep.params['date']}T{ep.params['time']}"
        soon = [e for e in events(device) if re.search(rf"\b{person}\b", e.title)
                and (AW_START - timedelta(hours=1)).isoformat() <= e.start[:16] <= meeting]
        assert [e.start[:16] for e in soon] == [meeting]


def test_random_titles_never_hold_a_seeded_title() -> None:
    from phone_gym.tasks.vocab import FIRST_NAMES

    randoms = [f"{lead} {who}" for lead in calendar.RANDOM_LEADS
               for who in (FIRST_NAMES if lead.endswith(" with") else calendar.RANDOM_SUBJECTS)]
    seeded = [*calendar.TITLES, *calendar.EVENING,
              *(calendar.meeting_title(p) for p in calendar.PEOPLE)]
    for r in randoms:
        assert not any(s.lower() in r.lower() or r.lower() in s.lower() for s in seeded), r


def test_expense_from_markor_seeds_100_other_rows(device: Device) -> None:
    ep = episode("ExpenseAddMultipleFromMarkor", device, 2)
    app = device.app("Expense")
    assert app is not None
    rows = list(app.data.expenses)
    assert len(rows) == 100
    names = {e["name"] for e in ep.params["expenses"]}
    assert not names & {r.name for r in rows}
    lines = files(device)[f"{MARKOR_DIR}/my_expenses.txt"].strip().split("\n")
    assert len(lines) == 1 + 102 and sum("Reimbursable." in line for line in lines) == 2


def test_recipes_from_markor2_seed_40_others(device: Device) -> None:
    ep = episode("RecipeAddMultipleRecipesFromMarkor2", device, 3)
    app = device.app("Broccoli")
    assert app is not None and len(app.data.recipes) == 40
    text = files(device)[f"{MARKOR_DIR}/recipes.txt"]
    assert all(r["title"] in text for r in ep.params["recipes"])
    assert text.count(ep.params["prep_time"]) == 3


@pytest.mark.parametrize(("task_id", "key", "least"), [
    ("TasksDueOnDate", "rows", 21), ("TasksHighPriorityTasks", "rows", 21),
    ("SportsTrackerLongestDistanceActivity", "rows", 21),
    ("SportsTrackerActivitiesCountForWeek", "rows", 21),
    ("NotesIsTodo", "rows", 104), ("NotesTodoItemCount", "rows", 101),
])
def test_information_retrieval_decoys_are_androidworlds(task_id: str, key: str,
                                                        least: int) -> None:
    """20 random decoys for Tasks and OpenTracks, 100 noise notes for Joplin."""
    task = REGISTRY.template(task_id)
    for seed in range(3):
        assert len(task.sample_params(np.random.default_rng(seed))[key]) >= least


@pytest.mark.parametrize("task_id", ["MarkorDeleteNote", "MarkorEditNote",
                                     "MarkorCreateFolder", "MarkorMoveNote"])
def test_markor_note_tasks_seed_1_to_20_bystanders(task_id: str) -> None:
    task = REGISTRY.template(task_id)
    counts = [len(task.sample_params(np.random.default_rng(s))["notes"]) for s in range(40)]
    assert max(counts) > 12 and max(counts) <= 26


# --- item 9: the browser tasks through Files, OsmAnd's coordinates ---------------------------
@pytest.mark.parametrize("task_id", ["BrowserDraw", "BrowserMaze", "BrowserMultiply"])
def test_browser_page_opens_from_files_with_chrome(task_id: str, device: Device) -> None:
    ep = episode(task_id, device, 1)
    assert ep.instruction.startswith("Open the file task.html in Downloads in the file "
                                     "manager; when prompted open it with Chrome.")
    open_app(device, "Files")
    tap(device, id="folder_download")
    tap(device, "task.html", kind="list_item")
    assert shown(device, id="resolver")  # "Open with": Chrome or HTML Viewer
    assert shown(device, "Chrome", kind="list_item")
    assert shown(device, "HTML Viewer", kind="list_item")
    tap(device, id="open_with_chrome")
    tap(device, id="button_once")
    chrome = device.app("Chrome")
    assert chrome is not None and device.foreground == "Chrome"
    assert chrome.ui.url == "file:///sdcard/Download/task.html"
    assert chrome.page() is not None and not passes(ep)


def test_browser_task_needs_chrome_on_screen_at_the_end(device: Device) -> None:
    ep = episode("BrowserMaze", device, 2)
    answer, _ = ep.solve()
    assert passes(ep)
    device.press("home")
    verdict = ep.verify(answer, "success")
    assert not verdict.success and CHROME.package in verdict.reason


def test_html_viewer_shows_the_source(device: Device) -> None:
    episode("BrowserDraw", device, 3)
    open_app(device, "Files")
    tap(device, id="folder_download")
    tap(device, "task.html", kind="list_item")
    tap(device, id="open_with_html_viewer")
    tap(device, id="button_once")
    assert device.foreground == "Files" and shown(device, id="file_text")
    source = Driver(device).find(id="file_text")
    assert source is not None and "<html" in source.node.text.lower()
    tap(device, id="navigate_up")
    tap(device, "task.html", kind="list_item")  # asked again: no "Always"
    assert shown(device, id="resolver")


def test_the_resolver_waits_for_a_choice(device: Device) -> None:
    episode("BrowserMultiply", device, 4)
    open_app(device, "Files")
    tap(device, id="folder_download")
    tap(device, "task.html", kind="list_item")
    tap(device, id="button_once")  # nothing chosen yet: nothing happens
    assert shown(device, id="resolver") and device.foreground == "Files"


@pytest.mark.parametrize("task_id", ["OsmAndMarker", "OsmAndFavorite"])
def test_osmand_places_are_raw_coordinates_half_the_time(task_id: str, device: Device) -> None:
    task = REGISTRY.template(task_id)
    coords = re.compile(r"^-?\d+\.\d+, -?\d+\.\d+$")
    locations = [task.sample_params(np.random.default_rng(s))["location"] for s in range(200)]
    share = sum(bool(coords.match(x)) for x in locations) / len(locations)
    assert 0.35 < share < 0.65
    seed = next(s for s, x in enumerate(locations) if coords.match(x))
    ep = episode(task_id, device, seed)
    assert re.search(r'"-?\d+\.\d+, -?\d+\.\d+"', ep.instruction)
    answer, _ = ep.solve()
    assert ep.verify(answer, "success").success
