"""The play page end to end in headless Chromium (Playwright driving the system's Chromium,
never a downloaded browser): solve a task by clicking and typing on the page, see the
verdict, find the recorded episode on disk, replay it; then every kind of pointer input
(drag, press and hold, the wheel) and the buttons, and the replay's arrow for a drag."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from play_support import CHROMIUM, CHROMIUM_ARGS, SIZE, TASK, oracle_plan

from phone_gym.actions import parse_action
from phone_gym.play.cli import make_session
from phone_gym.trainer.export import load_episodes

pytest.importorskip("aiohttp", reason="the play extra (aiohttp) is not installed")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from phone_gym.play.server import ServerThread  # noqa: E402 - needs aiohttp

#: The replay's mark colour (replay.js: rgb(230, 30, 60)), counted on the canvas.
MARKED = """() => {
  const c = document.getElementById('canvas');
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let i = 0; i < d.length; i += 4)
    if (d[i] === 230 && d[i + 1] === 30 && d[i + 2] === 60) n++;
  return n;
}"""


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    session = make_session(task=TASK, seed=0, out=tmp_path / "play", size=SIZE)
    with ServerThread(session) as server:
        yield server.url, session.out
    session.close()


@pytest.fixture
def page(served: tuple[str, Path]) -> Iterator[Any]:
    if not CHROMIUM.is_file():
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1100, "height": 800})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        yield page
        browser.close()
        assert not errors, errors


def _loaded(page: Any, steps: int) -> None:
    """Wait until the page shows ``steps`` steps and their frame has loaded."""
    page.wait_for_function(f"document.getElementById('step').textContent === '{steps}'")
    page.wait_for_function("(() => { const i = document.getElementById('phone'); "
                           "return i.complete && i.naturalWidth > 0; })()")


def _at(page: Any, x: int, y: int) -> tuple[float, float]:
    """The page pixel of phone point (x, y) in [0, 1000]."""
    box = page.locator("#phone").bounding_box()
    return box["x"] + (x + 0.5) * box["width"] / 1000, box["y"] + (y + 0.5) * box["height"] / 1000


def _state(page: Any, url: str) -> dict[str, Any]:
    return json.loads(page.evaluate(f"fetch('{url}/api/state').then(r => r.text())"))


def test_solve_a_task_on_the_page_then_replay_it(served: tuple[str, Path], page: Any) -> None:
    url, out = served
    page.goto(f"{url}/")
    _loaded(page, 0)
    instruction, plan = oracle_plan()
    assert page.locator("#instruction").inner_text() == instruction
    box = page.locator("#phone").bounding_box()  # the phone's real aspect ratio
    assert abs(box["width"] / box["height"] - SIZE[0] / SIZE[1]) < 0.01
    for steps, action in enumerate(plan, 1):
        if action.type == "click":
            page.mouse.click(*_at(page, *action.point))
        elif action.type == "type":  # keys while the phone has the focus
            page.locator("#phone-box").focus()
            page.keyboard.type(action.text)
        elif action.type == "finish":
            page.click("#finish")
        else:
            raise AssertionError(f"the oracle did {action}: extend this test")
        _loaded(page, steps)
        state = _state(page, url)
        assert state["action_error"] is None, state
        if action.type == "type":
            assert state["action"] == f'type(text="{action.text}")'
    steps = len(plan)
    verdict = page.locator("#verdict")
    verdict.wait_for(state="visible")
    assert "success" in (verdict.get_attribute("class") or "")
    assert verdict.inner_text().startswith("Success")
    assert "reward 1" in verdict.inner_text()
    # the recorded episode: the trainer's export format, frames included
    episodes = load_episodes(out)
    assert len(episodes) == 1 and episodes[0].success and len(episodes[0]) == steps
    episode = episodes[0]
    assert [s.step for s in episode.steps] == list(range(steps))
    assert episode.steps[0].task_id == TASK and episode.steps[0].source == "play"
    assert episode.steps[0].frame is not None and episode.steps[0].frame.shape == (600, 270, 3)
    assert any(s.action.startswith("type(") for s in episode.steps if s.action)
    assert (out / "frames" / episode.episode_id / "final.png").is_file()
    assert episode.episode_id in page.locator("#recorded").inner_text()
    # replay it: the list, then its steps, a circle drawn on the first tap
    page.goto(f"{url}/replay")
    row = page.locator(f"tr[data-episode='{episode.episode_id}']")
    row.wait_for()
    assert "success" in row.inner_text()
    row.click()
    page.wait_for_function(
        f"document.getElementById('canvas').dataset.drawn === '{episode.episode_id}:0'")
    assert page.locator("#count").inner_text() == str(steps)
    assert page.locator("#action").inner_text() == episode.steps[0].action
    assert page.evaluate(MARKED) > 20  # the tap's circle
    for k in range(1, steps + 1):
        page.click("#next")
        page.wait_for_function(
            f"document.getElementById('canvas').dataset.drawn === '{episode.episode_id}:{k}'")
    assert page.locator("#step").inner_text() == "end"  # the screen after the last action
    assert page.evaluate(MARKED) == 0


def test_pointer_gestures_and_buttons_become_actions(served: tuple[str, Path],
                                                     page: Any) -> None:
    url, out = served
    page.goto(f"{url}/")
    _loaded(page, 0)
    x, y = _at(page, 500, 700)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y - 80, steps=5)
    page.mouse.up()
    _loaded(page, 1)
    assert page.locator("#last-action").inner_text().startswith("drag(x=500, y=700")
    page.mouse.move(x, y)
    page.mouse.down()
    page.wait_for_timeout(700)  # press and hold
    page.mouse.up()
    _loaded(page, 2)
    assert page.locator("#last-action").inner_text() == "long_press(x=500, y=700)"
    page.click("#home")
    _loaded(page, 3)
    assert page.locator("#last-action").inner_text() == 'press(button="home")'
    page.mouse.move(x, y)
    page.mouse.wheel(0, 300)
    _loaded(page, 4)
    scroll = parse_action(page.locator("#last-action").inner_text())
    # wheel events carry whole CSS pixels: the point is within a pixel of (500, 700)
    assert scroll.type == "scroll" and scroll.direction == "down"
    x_, y_ = scroll.point
    assert abs(x_ - 500) <= 4 and abs(y_ - 700) <= 4
    page.fill("#answer-text", "not a question")
    page.click("#answer")
    page.locator("#verdict").wait_for(state="visible")
    assert page.locator("#verdict").inner_text().startswith("Failure")
    ep = load_episodes(out, frames=False)[0]
    assert [s.action.split("(")[0] for s in ep.steps if s.action] == [
        "drag", "long_press", "press", "scroll", "answer"]
    # a bad request gets a clear error, and the page stays usable
    bad = page.evaluate(f"""fetch('{url}/api/action', {{method: 'POST',
        body: JSON.stringify({{action: 'tap', x: 1}})}}).then(r => r.json())""")
    assert "accepted: click" in bad["error"]
    # the replay draws an arrow on the drag
    page.goto(f"{url}/replay?episode={ep.episode_id}")
    page.wait_for_function(
        f"document.getElementById('canvas').dataset.drawn === '{ep.episode_id}:0'")
    assert page.evaluate(MARKED) > 20
    # a new episode: the next seed, a fresh step counter
    page.goto(f"{url}/")
    page.click("#new")
    _loaded(page, 0)
    state = _state(page, url)
    assert state["seed"] == 1 and not state["done"] and state["verdict"] is None
    assert page.locator("#verdict").is_hidden()
