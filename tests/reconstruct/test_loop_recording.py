"""Issue 32: ``loop.record_episodes`` records PhoneWorld-only templates (a media app, a
mini-program) in process, through a ``VirtualPhone`` wrapped around ``PhoneWorldEnv``'s
device: the same trace a phone gives over adb (UI dump, screenshot, focused activity, the
action and the element it landed on). On Contacts, which both paths can record, the traces
agree from the app's first screen on."""

from __future__ import annotations

from pathlib import Path

import pytest

from phone_gym.reconstruct.build import state_key, structure
from phone_gym.reconstruct.loop import APPS, record_episodes
from phone_gym.reconstruct.trace import Step, app_elements, load_traces


def _from_app(steps: tuple[Step, ...], package: str) -> list[Step]:
    first = next(i for i, s in enumerate(steps) if s.package == package)
    return list(steps[first + 1:])


@pytest.mark.slow
def test_in_process_trace_matches_the_adb_one(tmp_path: Path) -> None:
    adb = load_traces(record_episodes(["ContactsCreate:0"], tmp_path / "adb",
                                      in_process=False))[0]
    local = load_traces(record_episodes(["ContactsCreate:0"], tmp_path / "local",
                                        in_process=True, frames=True))[0]
    for trace in (adb, local):
        first, *rest = trace.steps
        assert first.action is None and rest and all(s.source == "given" for s in rest)
    frames = tmp_path / "local" / local.name / "frames"  # screencap -p, as a phone gives
    assert all((frames / f"{s.index:04d}.png").stat().st_size > 1000 for s in local.steps)
    # the launcher is reached otherwise (open_app over adb, its icon in PhoneWorld); from the
    # app's first screen on, the same actions land on the same elements and screens
    a, b = (_from_app(t.steps, "com.android.contacts") for t in (adb, local))
    assert len(a) == len(b) >= 6
    for x, y in zip(a, b, strict=True):
        assert (x.package, x.activity, x.action, x.target) == (
            y.package, y.activity, y.action, y.target)
        assert (structure(state_key(app_elements(x.elements(), x.package)))
                == structure(state_key(app_elements(y.elements(), y.package))))


@pytest.mark.parametrize("spec, package", [
    ("VlcCreatePlaylist:0", "org.videolan.vlc"),
    ("RideMiniCancelCurrent:0", "com.tencent.mm.miniprogram.ride")])
def test_phoneworld_only_templates_record_in_process(spec: str, package: str,
                                                     tmp_path: Path) -> None:
    [folder] = record_episodes([spec], tmp_path)
    [trace] = load_traces([folder])
    first, *rest = trace.steps
    assert first.action is None and all(s.source == "given" for s in rest)
    assert any(s.package == package and s.activity for s in rest)
    taps = [s for s in rest if s.action and s.action["action"] in ("click", "long_press")
            and s.package == package]
    assert len(taps) >= 3 and all(s.target is not None for s in taps)


def test_loop_holds_a_media_app_and_a_mini_program() -> None:
    assert any("media" in k for k in APPS) and any("mini-program" in k for k in APPS)


def test_unknown_template_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="phone-gym tasks"):
        record_episodes(["NoSuchTemplate:0"], tmp_path)


@pytest.mark.slow
def test_media_app_templates_pass_check_task(tmp_path: Path) -> None:
    """VLC rebuilt from its training episodes: each generated create (select videos, add
    them to a new playlist) passes ``check_task`` on 20 seeds, though the videos the traces
    selected are other seeds' (the oracle selects videos the fresh app shows) and a trace
    saved twice (the second save's path starts after the first)."""
    from phone_gym.reconstruct.fidelity import load_app
    from phone_gym.reconstruct.loop import closed_loop
    from phone_gym.testing import check_task

    train, _ = APPS["vlc (media: playlists)"]
    rep = closed_loop(record_episodes(train, tmp_path / "train"), [tmp_path / "train"],
                      tmp_path / "rebuilt")
    module = load_app(rep["folder"])
    kinds = [t.spec["kind"] for t in module.TEMPLATES]
    assert kinds and set(kinds) == {"create"}
    for t in module.TEMPLATES:
        report = check_task(t, 20, apps=[module.APP])
        assert report.solved == 20 and not report.problems, (t.id, report.problems)


@pytest.mark.slow
def test_rebuilt_selection_counts_rows_and_scroll_lands_on_recorded_rows(tmp_path: Path) -> None:
    """In VLC rebuilt from one trace: a long press on a video starts a selection whose title
    counts the rows selected, whichever and however many (no trace selected these); a tap
    lets one go; the last let go ends it. A replayed scroll shows the rows where the
    recorded screen showed them."""
    from phone_gym.actions import to_action
    from phone_gym.reconstruct import reconstruct
    from phone_gym.reconstruct.build import build_model
    from phone_gym.reconstruct.fidelity import Rebuilt, load_app, nearest_screen, trace_rows
    from phone_gym.reconstruct.trace import screen_texts

    [folder] = record_episodes(["VlcCreatePlaylist:0"], tmp_path / "t")
    out = tmp_path / "rebuilt"
    reconstruct([folder], out)
    module = load_app(next(p for p in out.iterdir() if (p / "app.py").exists()))
    phone = Rebuilt(module.APP)
    phone.device.open_app(module.APP.name)
    dev = phone.device

    def press(text: str, long: bool = False) -> None:
        e = next(e for e in phone.elements() if e.text == text)
        dev.step(to_action({"action": "long_press" if long else "click", "x": 0, "y": 0}),
                 px=((e.bounds[0] + e.bounds[2]) // 2, (e.bounds[1] + e.bounds[3]) // 2))

    if "Video" in screen_texts(phone.elements()) and not any(
            e.short_id.startswith("video_") for e in phone.elements()):
        press("Video")
    rows = [e.text for e in phone.elements() if e.short_id.startswith("video_")]
    assert len(rows) >= 5
    press(rows[4], long=True)
    assert "1 selected" in screen_texts(phone.elements())
    for r in (rows[0], rows[2], rows[3]):
        press(r)
    assert "4 selected" in screen_texts(phone.elements())
    assert sum(e.selected for e in phone.elements() if e.short_id.startswith("video_")) == 4
    for r in (rows[0], rows[2]):
        press(r)
    assert "2 selected" in screen_texts(phone.elements())
    press(rows[3])
    press(rows[4])
    assert not any("selected" in t for t in screen_texts(phone.elements()))
    # the recorded scroll: the rows land where the trace shows them
    [trace] = load_traces([folder])
    model = build_model([trace])
    phone = Rebuilt(module.APP, model)
    i = next(i for i, s in enumerate(trace.steps) if s.action
             and s.action["action"] == "scroll" and s.package == "org.videolan.vlc")
    before, after = trace.steps[i - 1], trace.steps[i]
    rec_before = app_elements(before.elements(), before.package)
    phone.show(nearest_screen(model, rec_before), rec_before,
               trace_rows(trace, "org.videolan.vlc"))  # the rows the trace showed
    assert after.action is not None
    assert phone.act(after.action, after.target, after.size) is None
    phone.align(app_elements(after.elements(), after.package))
    want = [(e.text, e.bounds[1]) for e in app_elements(after.elements(), after.package)
            if e.short_id.startswith("video_") and e.bounds[3] - e.bounds[1] > 200]
    got = {(e.text, e.bounds[1]) for e in phone.elements()}
    assert want and all(w in got for w in want), (want, sorted(got, key=lambda g: g[1]))
