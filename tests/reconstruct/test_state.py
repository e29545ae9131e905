"""Issue 32: state recovered from traces. Contacts traces recorded in-process (the oracles
of ContactsCreate and ContactsDelete played through ``RealPhoneEnv`` on a ``LocalBackend``
virtual phone) rebuild an app whose form saves records, whose list shows them, and whose
recorded delete removes the record opened: sequences no trace holds work."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from phone_gym.actions import to_action
from phone_gym.envs.real_phone import RealPhoneEnv
from phone_gym.reconstruct import reconstruct
from phone_gym.reconstruct.build import build_model
from phone_gym.reconstruct.fidelity import Rebuilt, load_app
from phone_gym.reconstruct.model import infer_state
from phone_gym.reconstruct.recorder import Recorder
from phone_gym.reconstruct.trace import load_traces, screen_texts
from phone_gym.virtual import VirtualPhone
from phone_gym.virtual.local import LocalBackend

pytestmark = pytest.mark.slow
EPISODES = [("ContactsCreate", 0), ("ContactsDelete", 0)]


@pytest.fixture(scope="module")
def traces(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("traces")
    backend = LocalBackend(VirtualPhone("state"))
    env = RealPhoneEnv(task=EPISODES[0][0], backend=backend, settle=0.0, timeout=5.0)
    try:
        for task, seed in EPISODES:
            env.reset(seed=seed, options={"task": task})
            rec = Recorder(backend, root / f"{task}_{seed}", frames=False)
            rec.capture()
            done, info = False, dict[str, Any]()
            while not done:
                action = env.oracle_action()
                _, _, term, trunc, info = env.step(action)
                done = term or trunc
                if action.type not in ("answer", "finish"):
                    rec.capture(action)
            assert info["success"], task
    finally:
        env.close()
    return root


def test_state_model_finds_the_form_and_the_delete(traces: Path) -> None:
    loaded = load_traces([traces])
    state = infer_state(build_model(loaded), loaded)
    (form,) = {f["save"]: f for f in state.forms.values()}.values()
    assert form["collection"] == "contacts_list"
    assert form["fields"] == {"name": "text", "phone": "phone"}
    kinds = sorted(c.kind for c in state.changes)
    assert kinds == ["create", "delete"]
    delete = next(c for c in state.changes if c.kind == "delete")
    assert delete.collection == "contacts_list" and delete.record  # the contact long-pressed
    assert list(state.deletes.values()) == ["contacts_list"]


def tap(phone: Rebuilt, pick: Any) -> None:
    e = next(e for e in phone.elements() if pick(e))
    assert phone.device.step(to_action({"action": "click", "x": 0, "y": 0}), px=(
        (e.bounds[0] + e.bounds[2]) // 2, (e.bounds[1] + e.bounds[3]) // 2)) is None


def add(phone: Rebuilt, name: str, number: str) -> None:
    tap(phone, lambda e: e.content_desc == "Create contact")
    for desc, text in (("Name", name), ("Phone", number)):
        tap(phone, lambda e, d=desc: e.editable and e.content_desc == d)
        assert phone.device.step(to_action({"action": "type", "text": text})) is None
    tap(phone, lambda e: e.content_desc == "Save")


def test_rebuilt_app_keeps_records_no_trace_made(traces: Path, tmp_path: Path) -> None:
    rep = reconstruct([traces], tmp_path / "out")
    module = load_app(Path(rep["folder"]))
    phone = Rebuilt(module.APP)
    phone.device.open_app(module.APP.name)
    app: Any = phone.device.apps[module.APP.package]
    before = len(app.data.records.where(list="contacts_list"))
    add(phone, "Zed One", "+1 555-000-0001")
    assert {"Zed One", "+1 555-000-0001"} <= set(screen_texts(phone.elements()))
    phone.device.step(to_action({"action": "press", "button": "back"}))
    add(phone, "Zed Two", "+1 555-000-0002")
    # the screen the save led to shows the saved record, not the recorded one
    assert {"Zed Two", "+1 555-000-0002"} <= set(screen_texts(phone.elements()))
    rows = app.data.records.where(list="contacts_list")
    assert len(rows) == before + 2
    zed = {r.text: dict(r.values) for r in rows if r.text.startswith("Zed")}
    assert zed == {"Zed One": {"name": "Zed One", "phone": "+1 555-000-0001"},
                   "Zed Two": {"name": "Zed Two", "phone": "+1 555-000-0002"}}
    # the list shows them (a record opened from it is current; the recorded delete removes it)
    phone.device.step(to_action({"action": "press", "button": "back"}))
    assert "contacts_list" in {e.short_id for e in phone.elements()}
    app.open_row(app.stack[-1].name, "contacts_list",
                 next(r for r in rows if r.text == "Zed Two"), "x")
    assert app.ui.current == next(r.id for r in rows if r.text == "Zed Two")
    state = sys.modules[module.__name__ + ".fixtures"].STATE
    ((route, ref, _),) = state["deletes"]
    app.act(route, ref)
    assert [r.text for r in app.data.records.where(list="contacts_list")
            if r.text.startswith("Zed")] == ["Zed One"]


def test_held_out_settings_traces_replay_with_switch_state(tmp_path: Path) -> None:
    """Settings rebuilt from five switch episodes replays three episodes it never saw, seeds
    and switches other than the training ones: every step reaches the recorded screen and
    each switch flipped there flips in the rebuilt store."""
    from phone_gym.reconstruct.loop import APPS, closed_loop, record_episodes

    train, held = APPS["settings (switches)"]
    rep = closed_loop(record_episodes(train, tmp_path / "train"),
                      record_episodes(held, tmp_path / "held"), tmp_path / "rebuilt")
    assert rep["recovered"]["toggles"] >= 4 and rep["recovered"]["changes"] == ["toggle"]
    assert rep["transitions"] >= 6 and rep["rate"] >= 0.9, rep["steps"]
    assert rep["changes"] == 3 and rep["state_agreement"] == 1.0
    assert rep["mean_iou"] >= 0.9
