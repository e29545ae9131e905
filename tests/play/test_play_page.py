"""The play page end to end in headless Chromium (Playwright driving the system's Chromium,
never a downloaded browser), opened at the URL the server prints (with its token): solve a
task by clicking and typing on the page, see the verdict, find the recorded episode on disk,
replay it; then every kind of pointer input (drag, press and hold, the wheel) and the
buttons, and the replay's arrow for a drag; then two tabs, each with its own episode and
recording, and a tab whose session closed while it idled."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from play_support import CHROMIUM, CHROMIUM_ARGS, SIZE, TASK, oracle_plan

from phone_gym.actions import parse_action
from phone_gym.play.cli import make_sessions
from phone_gym.play.sessions import PlaySessions
from phone_gym.trajectory.store import load_episodes

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


#: This tab's session id, as the page keeps it.
TAB_SESSION = "sessionStorage.getItem('phone-gym-play-session')"


class Served:
    """A play server on a free port: its address, the URL it prints (with the token), the
    recording folder and its sessions."""

    def __init__(self, server: ServerThread, sessions: PlaySessions) -> None:
        self.url, self.page_url, self.out = server.url, server.page_url(), sessions.out
        self.sessions = sessions


@pytest.fixture
def clock() -> list[float]:
    return [0.0]


@pytest.fixture
def served(tmp_path: Path, clock: list[float]) -> Iterator[Served]:
    sessions = make_sessions(task=TASK, seed=0, out=tmp_path / "play", size=SIZE)
    sessions.clock = lambda: clock[0]  # idle time passes when a test says so
    with ServerThread(sessions) as server:
        yield Served(server, sessions)
    sessions.close()


@pytest.fixture
def browser() -> Iterator[Any]:
    if not CHROMIUM.is_file():
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1100, "height": 800})
        errors: list[str] = []
        context.on("weberror", lambda error: errors.append(str(error.error)))
        yield context
        browser.close()
        assert not errors, errors


@pytest.fixture
def page(browser: Any) -> Any:
    return browser.new_page()


def _loaded(page: Any, steps: int) -> None:
    """Wait until the page shows ``steps`` steps and their frame has loaded."""
    page.wait_for_function(f"document.getElementById('step').textContent === '{steps}'")
    page.wait_for_function("(() => { const i = document.getElementById('phone'); "
                           "return i.complete && i.naturalWidth > 0; })()")


def _at(page: Any, x: int, y: int) -> tuple[float, float]:
    """The page pixel of phone point (x, y) in [0, 1000]."""
    box = page.locator("#phone").bounding_box()
    return box["x"] + (x + 0.5) * box["width"] / 1000, box["y"] + (y + 0.5) * box["height"] / 1000


def _state(page: Any) -> dict[str, Any]:
    """What the server holds for the page's tab (its session, its cookie)."""
    return json.loads(page.evaluate(
        f"fetch('/api/state', {{headers: {{'X-Play-Session': {TAB_SESSION}}}}})"
        ".then(r => r.text())"))


def test_solve_a_task_on_the_page_then_replay_it(served: Served, page: Any) -> None:
    url, out = served.url, served.out
    page.goto(served.page_url)
    _loaded(page, 0)
    assert page.url == f"{url}/"  # the token left the address bar (a cookie holds it)
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
        state = _state(page)
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


def test_pointer_gestures_and_buttons_become_actions(served: Served, page: Any) -> None:
    url, out = served.url, served.out
    page.goto(served.page_url)
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
    bad = page.evaluate(f"""fetch('/api/action', {{method: 'POST', headers: {{
        'Content-Type': 'application/json', 'X-Play-Session': {TAB_SESSION}}},
        body: JSON.stringify({{action: 'tap', x: 1}})}}).then(r => r.json())""")
    assert "accepted: click" in bad["error"]
    plain = page.evaluate(f"""fetch('/api/action', {{method: 'POST', headers: {{
        'X-Play-Session': {TAB_SESSION}}}, body: JSON.stringify({{action: 'finish',
        status: 'success'}})}}).then(r => r.status)""")  # a string body is text/plain
    assert plain == 415
    # the replay draws an arrow on the drag
    page.goto(f"{url}/replay?episode={ep.episode_id}")
    page.wait_for_function(
        f"document.getElementById('canvas').dataset.drawn === '{ep.episode_id}:0'")
    assert page.evaluate(MARKED) > 20
    # a new episode: the next seed, a fresh step counter
    page.goto(f"{url}/")  # the tab keeps its session (and the cookie its token)
    page.click("#new")
    _loaded(page, 0)
    state = _state(page)
    assert state["seed"] == 1 and not state["done"] and state["verdict"] is None
    assert page.locator("#verdict").is_hidden()


@pytest.mark.slow  # the server side runs in the fast tier: test_play_server.py
def test_two_tabs_play_their_own_episodes(served: Served, browser: Any,
                                          clock: list[float]) -> None:
    first, second = browser.new_page(), browser.new_page()
    for tab in (first, second):
        tab.goto(served.page_url)
        _loaded(tab, 0)
    one, two = _state(first), _state(second)
    assert (one["seed"], two["seed"]) == (0, 1) and one["episode_id"] != two["episode_id"]
    first.click("#home")
    _loaded(first, 1)
    second.click("#back")
    _loaded(second, 1)
    second.click("#new")  # a new episode in one tab leaves the other's alone
    _loaded(second, 0)
    first.click("#recents")
    _loaded(first, 2)
    second.click("#home")
    _loaded(second, 1)
    first.reload()  # a reload keeps the tab's session and episode
    _loaded(first, 2)
    first.click("#finish")
    second.click("#infeasible")
    for tab in (first, second):
        tab.locator("#verdict").wait_for(state="visible")
    episodes = {e.episode_id: e for e in load_episodes(served.out, frames=False)}
    actions = {k: [s.action for s in e.steps] for k, e in episodes.items()}
    assert actions == {
        one["episode_id"]: ['press(button="home")', 'press(button="recents")',
                            'finish(status="success")'],
        _state(second)["episode_id"]: ['press(button="home")', 'finish(status="infeasible")']}
    assert episodes[one["episode_id"]].steps[0].seed == 0
    # a session unused past the idle timeout closes; its tab gets a new one at its next act
    clock[0] += served.sessions.idle_timeout_s + 1
    assert len(served.sessions.reap()) == 2
    first.click("#new")
    first.locator("#error").filter(has_text="session is closed").wait_for()
    _loaded(first, 0)
    assert _state(first)["seed"] == 3 and len(served.sessions) == 1


@pytest.mark.slow
def test_a_tab_takes_over_when_every_session_is_taken(tmp_path: Path, browser: Any) -> None:
    """One session at a time, as on a real phone: a second tab says so and may take over."""
    sessions = make_sessions(task=TASK, out=tmp_path, size=SIZE, max_sessions=1)
    with ServerThread(sessions) as server:
        first, second = browser.new_page(), browser.new_page()
        first.goto(server.page_url())
        _loaded(first, 0)
        second.goto(server.page_url())
        second.locator("#error").filter(has_text="all 1 play session(s) are in use").wait_for()
        second.click("#take-over")
        _loaded(second, 0)
        assert second.locator("#take-over").is_hidden() and _state(second)["seed"] == 1
        first.click("#home")  # its session was taken: it says so, and offers to take it back
        first.locator("#take-over").wait_for(state="visible")
        assert "in use" in first.locator("#error").inner_text()
        second.click("#home")
        _loaded(second, 1)
    sessions.close()
