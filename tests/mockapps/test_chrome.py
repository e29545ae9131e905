"""The Chrome app driven through phone actions: Downloads, the address bar, plain pages,
and the three task pages (their progress kept as app data)."""

from __future__ import annotations

import pytest
from driving import act, fill, open_app, press, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps.chrome import ChromeApp
from phone_gym.mockapps.chrome.pages import (
    MAZE_MOVES,
    draw_colors,
    maze_path,
    maze_walls,
    numbers,
    product,
    task_html,
    task_of,
)
from phone_gym.world import Device
from phone_gym.world.a11y import ui_elements

D = "/sdcard/Download/"


def canvas_box(device: Device) -> tuple[int, int, int, int]:
    """The canvas's visible bounds in 0..1000 of the screen."""
    (canvas,) = [e for e in ui_elements(device.frame()) if e.short_id == "canvas"]
    return canvas.bounds_norm


@pytest.fixture
def device() -> Device:
    d = Device([ChromeApp])
    d.system.write_file(D + "draw_task.html", task_html("draw", 7))
    d.system.write_file(D + "maze_task.html", task_html("maze", 11))
    d.system.write_file(D + "multiply_task.html", task_html("multiply", 5))
    d.system.write_file(D + "menu.html", "<html><body><h1>Lunch</h1><p>Soup.</p></body></html>")
    d.system.write_file(D + "notes.txt", "text")
    open_app(d, "Chrome")
    return d


def page(device: Device) -> dict[str, object]:
    app = device.apps["Chrome"]
    assert isinstance(app, ChromeApp)
    found = app.page()
    assert found is not None
    return {"solved": found.solved, "at": found.at, "revealed": found.revealed}


def open_download(device: Device, name: str) -> None:
    tap(device, desc="Downloads")
    tap(device, name, kind="list_item")


def test_pages_follow_their_seed() -> None:
    assert task_of(task_html("maze", 42)) == ("maze", 42) and task_of("<html>") is None
    assert len(set(draw_colors(3))) == 3 and draw_colors(3) == draw_colors(3)
    for seed in range(20):
        path = maze_path(maze_walls(seed))
        assert path is not None and MAZE_MOVES[0] <= len(path) <= MAZE_MOVES[1]
    assert len(numbers(9)) == 5 and product([2, 3, 4]) == 24


def test_a_plain_page_and_the_address_bar(device: Device) -> None:
    open_download(device, "menu.html")
    assert shown(device, "Lunch") and shown(device, "Soup.")
    bar = [e for e in ui_elements(device.frame()) if e.short_id == "url_bar"]
    assert bar and bar[0].bounds[1] < 400  # the omnibox is the top bar
    assert not shown(device, "Chrome")  # no title, as the real Chrome
    fill(device, "url_bar", "file:///sdcard/Download/nothing.html")
    press(device, "enter")  # the keyboard's enter goes, as in Chrome's omnibox
    assert shown(device, "This site can't be reached")
    fill(device, "url_bar", "file:///sdcard/Download/maze_task.html")
    press(device, "enter")
    assert shown(device, "Maze task")


def test_the_maze_is_solved_by_moving_to_the_goal(device: Device) -> None:
    open_download(device, "maze_task.html")
    assert page(device)["solved"] is False
    for move in maze_path(maze_walls(11)) or []:
        tap(device, id=f"move_{move.lower()}")
    assert page(device)["solved"] is True and shown(device, "Success!")
    tap(device, id="move_up")  # a solved page no longer changes
    assert page(device)["at"] == "3,3"


def test_draw_needs_all_three_colors(device: Device) -> None:
    open_download(device, "draw_task.html")
    x0, y0, x1, y1 = canvas_box(device)
    mid = (y0 + y1) // 2
    act(device, PhoneAction("drag", x=x0 + 20, y=mid, x2=x1 - 20, y2=mid))
    tap(device, "Submit")
    assert page(device)["solved"] is False and shown(device, "Not yet: use all three colors")
    for i in (1, 2):
        tap(device, id=f"swatch_{i}")
        act(device, PhoneAction("drag", x=x0 + 20, y=mid + 20, x2=x1 - 20, y2=mid + 20))
    tap(device, "Submit")
    assert page(device)["solved"] is True


def test_multiply_needs_five_numbers_and_the_product(device: Device) -> None:
    open_download(device, "multiply_task.html")
    values = numbers(5)
    tap(device, id="generate")
    fill(device, "product", str(values[0]))
    tap(device, "Submit")
    assert page(device)["solved"] is False
    for _ in range(4):
        tap(device, id="generate")
    assert page(device)["revealed"] == 5 and shown(device, f"Number 5: {values[4]}")
    fill(device, "product", str(product(values)))
    tap(device, "Submit")
    assert page(device)["solved"] is True


def test_non_html_downloads_do_not_open(device: Device) -> None:
    tap(device, desc="Downloads")
    tap(device, "notes.txt", kind="list_item")
    assert shown(device, "notes.txt")  # still on Downloads


def test_check_app() -> None:
    from phone_gym.testing import check_app

    check_app("Chrome", 300)


def test_a_view_intent_opens_a_local_page(device: Device) -> None:
    from phone_gym.world.manifest import Intent

    device.start_intent(Intent("android.intent.action.VIEW",
                               data="file:///sdcard/Download/maze_task.html"))
    assert shown(device, "Maze task")
