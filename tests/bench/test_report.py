"""The bench HTML report (``phone_gym.bench.report``): pages, charts, escaping, and a headless
Chromium check (Playwright with the system's Chromium) that the report works from disk.

The run folders are hand-made in the runner's results layout, with frames rendered from
PhoneWorld (the oracle's episode, and a failing one with every kind of action), so these
tests do not depend on the runner.
"""

from __future__ import annotations

import json
import re
import shutil
from html import escape
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest
from PIL import Image

import phone_gym  # noqa: F401 - registers the ids
from phone_gym.actions import PhoneAction
from phone_gym.bench.report import load_records, write_report

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
INJECTED = "<script>window.__pwned = 1; alert(1)</script>"
SIZE = (270, 600)


def _episode(run: Path, task: str, seed: int, steps: list[Any] | None, **fields: Any) -> dict:
    """Play one PhoneWorld episode (the oracle's when ``steps`` is None, else these actions:
    a PhoneAction, or raw model text), save its frames, return its record."""
    env = gym.make("PhoneWorld-v0", task=task, obs_size=SIZE)
    obs, info = env.reset(seed=seed)
    world: Any = env.unwrapped  # PhoneWorldEnv: oracle_action
    folder = f"episodes/{task}_{seed}/"
    (run / folder).mkdir(parents=True)
    actions: list[dict[str, Any]] = []
    done, reward = False, 0.0
    todo = list(steps) if steps is not None else None
    while not done and (todo is None or todo):
        Image.fromarray(obs["screenshot"]).save(run / folder / f"step_{len(actions):03d}.png")
        action = world.oracle_action() if todo is None else todo.pop(0)
        obs, step_reward, terminated, truncated, info = env.step(action)
        reward = float(step_reward)
        done = terminated or truncated
        parsed = action.to_dict() if isinstance(action, PhoneAction) else None
        actions.append({"step": len(actions), "text": str(action), "action": parsed,
                        "error": info.get("action_error")})
    Image.fromarray(obs["screenshot"]).save(run / folder / f"step_{len(actions):03d}.png")
    success = bool(info.get("success", False))
    record = {
        "suite": "phoneworld", "task": task, "seed": seed, "apps": [], "category": "single",
        "difficulty": 1, "success": success, "reward": float(reward), "steps": len(actions),
        "max_steps": info["max_steps"], "tokens_in": 1000 * len(actions),
        "tokens_out": 20 * len(actions), "latency_s": 0.5, "time_s": 1.5,
        "failure": None if success else "budget", "failure_detail": None,
        "instruction": obs["instruction"], "verdict": str(info.get("verdict", "")),
        "frames": folder, "actions": actions,
    }
    record.update(fields)
    env.close()
    return record


def _write_run(run: Path, records: list[dict]) -> None:
    with (run / "results.jsonl").open("w", encoding="utf-8") as out:
        for record in records:
            out.write(json.dumps(record) + "\n")
    ok = sum(r["success"] for r in records)
    (run / "summary.json").write_text(json.dumps({
        "suite": "phoneworld", "agent": "oracle", "episodes": len(records),
        "success_rate": ok / len(records), "time_s": 12.0,
    }))
    (run / "run.json").write_text(json.dumps({"suite": "phoneworld", "agent": "oracle"}))


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run of two episodes: the oracle solving NotesDeleteNote, and a failing ClockDisableAlarm
    with a click, long press, double click, scroll, drag, typing, a press, an invalid model
    output carrying a script, and an answer."""
    run = tmp_path_factory.mktemp("run")
    solved = _episode(run, "NotesDeleteNote", 0, None, apps=["Notes"])
    failed = _episode(
        run, "ClockDisableAlarm", 3,
        [PhoneAction("open_app", app="Clock"), PhoneAction("long_press", x=300, y=400),
         PhoneAction("double_click", x=700, y=200),
         PhoneAction("scroll", x=500, y=600, direction="down"),
         PhoneAction("drag", x=200, y=800, x2=800, y2=300),
         PhoneAction("type", text="hello <b>world</b>"), PhoneAction("press", button="back"),
         INJECTED, PhoneAction("click", x=100, y=950),
         PhoneAction("answer", text="7:30")],
        apps=["Clock", "Notes"], category="cross-app", difficulty=2, failure="wrong_answer",
        instruction="Turn off the alarm " + INJECTED, failure_detail=INJECTED,
    )
    _write_run(run, [solved, failed])
    write_report(run)
    return run


def _html(run: Path) -> dict[str, str]:
    return {str(p.relative_to(run)): p.read_text(encoding="utf-8")
            for p in (run / "report").rglob("*.html")}


def test_pages_charts_and_table(run_dir: Path) -> None:
    pages = _html(run_dir)
    assert set(pages) == {"report/index.html", "report/episodes/NotesDeleteNote_0.html",
                          "report/episodes/ClockDisableAlarm_3.html"}
    index = pages["report/index.html"]
    assert index.count('<svg class="bars"') == 4  # suite, app, category, difficulty
    assert "50.0%" in index and "1/2 solved" in index  # success rate, episodes
    # by app: Notes is in both episodes (one solved), Clock in the failed one
    assert re.search(r"<title>Notes: 1/2</title>", index)
    assert re.search(r"<title>Clock: 0/1</title>", index)
    assert re.search(r"<title>cross-app: 0/1</title>", index)
    widths = [float(w) for w in re.findall(r'class="bar" x="\d+" y="\d+" width="([\d.]+)"',
                                            index)]
    assert max(widths) > 0 and min(widths) == 0
    assert 'href="episodes/ClockDisableAlarm_3.html"' in index
    assert "wrong_answer" in index and "12.0 s" in index  # failure column, wall time
    records = [json.loads(line) for line in
               (run_dir / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    steps = sum(len(r["actions"]) for r in records)  # the oracle's route, and 10 others
    assert f"{steps * 1000:,} / {steps * 20}" in index  # tokens in / out
    assert "<script" not in index.lower()
    links = re.findall(r'(?:src|href)="([^"]*)"', index)
    assert links and not [link for link in links if ":" in link]  # all relative, no network


def test_episode_page_draws_every_action(run_dir: Path) -> None:
    page = _html(run_dir)["report/episodes/ClockDisableAlarm_3.html"]
    frames = sorted((run_dir / "episodes" / "ClockDisableAlarm_3").glob("step_*.png"))
    assert len(frames) == 11 and page.count("<img ") == 11  # 10 actions and the final screen
    assert 'src="../../episodes/ClockDisableAlarm_3/step_000.png"' in page
    w, h = SIZE
    # long press at (300, 400) of the 1000-grid, drawn in frame pixels
    assert f'class="touch" cx="{300 * w / 1000:.1f}" cy="{400 * h / 1000:.1f}"' in page
    assert page.count('class="touch"') == 3  # long press, double click, click
    # drag from (200, 800) to (800, 300); scroll down from (500, 600) by a quarter screen
    assert (f'class="swipe" x1="{200 * w / 1000:.1f}" y1="{800 * h / 1000:.1f}" '
            f'x2="{800 * w / 1000:.1f}" y2="{300 * h / 1000:.1f}"') in page
    assert f'y1="{600 * h / 1000:.1f}" x2="{500 * w / 1000:.1f}" y2="{850 * h / 1000:.1f}"' in page
    for caption in ('type "hello <b>world</b>"', "press back", "open_app Clock",
                    'answer "7:30"', "invalid action", "final screen", "drag (200, 800)"):
        assert escape(caption) in page, caption
    assert 'class="banner"' in page


def test_run_text_is_escaped(run_dir: Path) -> None:
    for name, page in _html(run_dir).items():
        assert "<script" not in page.lower(), name
        assert "<b>world" not in page, name
    page = _html(run_dir)["report/episodes/ClockDisableAlarm_3.html"]
    assert page.count("&lt;script&gt;window.__pwned = 1; alert(1)&lt;/script&gt;") >= 3


def test_records_truncated_line_bad_line_and_missing(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="phone-gym bench run"):
        write_report(tmp_path)
    element_click = {"step": 0, "text": "click(index=3)", "error": None,
                     "action": {"action": "click", "x": None, "y": None, "index": 3}}
    line = {"suite": "s", "task": "T", "seed": 1, "success": True, "frames": "../../etc/",
            "actions": [element_click]}
    # a re-run of the same episode (resume) counts once, the last record wins
    text = json.dumps({**line, "success": False}) + "\n" + json.dumps(line) + "\n"
    (tmp_path / "results.jsonl").write_text(text + '{"task": "cut off')
    records = load_records(tmp_path)
    assert [r["success"] for r in records] == [True]
    index = write_report(tmp_path)
    assert "100.0%" in index.read_text()
    page = (tmp_path / "report" / "episodes" / "T_1.html").read_text()
    assert "<img" not in page and "no frames were recorded" in page  # outside the run: ignored
    assert "0: click [element 3]" in page  # an element-index action: no point to draw
    (tmp_path / "results.jsonl").write_text("not json\n" + text)
    with pytest.raises(ValueError, match=r"results.jsonl:1: not a JSON record"):
        load_records(tmp_path)


def test_report_in_headless_chromium(run_dir: Path, tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    run = tmp_path / "moved run"  # a space in the path: links are URL-quoted
    shutil.copytree(run_dir, run)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        problems: list[str] = []
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: problems.append(str(e)))

        def on_dialog(dialog: Any) -> None:  # an alert() would mean the injected script ran
            problems.append("dialog " + dialog.message)
            dialog.dismiss()

        page.on("dialog", on_dialog)
        page.on("requestfailed", lambda r: problems.append("failed " + r.url))
        page.goto((run / "report" / "index.html").as_uri())
        bars = page.locator("svg.bars rect.bar")
        assert page.locator("svg.bars").count() == 4
        sizes = [bars.nth(i).bounding_box() for i in range(bars.count())]
        assert any(box is not None and box["width"] > 1 and box["height"] > 1 for box in sizes)
        page.click("text=ClockDisableAlarm")
        page.wait_for_load_state("load")
        assert page.url.endswith("/episodes/ClockDisableAlarm_3.html")
        images = page.locator(".shot img")
        assert images.count() == 11
        widths = page.eval_on_selector_all(".shot img", "imgs => imgs.map(i => i.naturalWidth)")
        assert widths == [SIZE[0]] * 11
        captions = page.locator(".caption").all_inner_texts()
        assert any("long_press (300, 400)" in c for c in captions)
        assert any('type "hello <b>world</b>"' in c for c in captions)
        assert page.locator("circle.touch").first.bounding_box() is not None
        assert "Turn off the alarm <script>" in page.inner_text("body")  # shown as text
        assert page.evaluate("() => window.__pwned === undefined")
        page.click("text=all episodes")
        page.wait_for_load_state("load")
        assert page.url.endswith("/report/index.html")
        browser.close()
    assert problems == []
