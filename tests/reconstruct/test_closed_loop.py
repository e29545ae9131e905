"""The closed loop of issue 17: record traces from the virtual adb device while the oracles of
several Contacts tasks run (through adb, exactly as from a phone), rebuild the app from the
traces, load it and replay the traces in it: at least 90% of the recorded transitions reach a
screen whose texts match, and the report shows the figure. No adb binary, no phone:
127.0.0.1 only."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("adbutils")
# the module's traces (over a socket, with frames) take ~20 s: the full tier runs it; the
# fast tier has test_loop_recording's cheaper in-process records
pytestmark = pytest.mark.slow

from phone_gym.actions import to_action  # noqa: E402
from phone_gym.cli import main  # noqa: E402
from phone_gym.envs.real_phone import RealPhoneEnv  # noqa: E402
from phone_gym.real.backend import AdbBackend  # noqa: E402
from phone_gym.reconstruct.build import state_key, structure  # noqa: E402
from phone_gym.reconstruct.fidelity import MATCH, Rebuilt, load_app, text_overlap  # noqa: E402
from phone_gym.reconstruct.recorder import Recorder  # noqa: E402
from phone_gym.reconstruct.trace import app_elements, load_traces, screen_texts  # noqa: E402
from phone_gym.tasks.registry import Registry  # noqa: E402
from phone_gym.virtual import VirtualAdbServer, VirtualPhone  # noqa: E402

SERIAL = "loop-phone"
#: (template, seed): the Contacts templates that run on a phone over adb, one twice
EPISODES = [("ContactsCreate", 0), ("ContactsCreate", 1), ("ContactsDelete", 0),
            ("ContactsLookupPhone", 0)]


@pytest.fixture(scope="module", autouse=True)
def no_adb_binary() -> Iterator[None]:
    # adbutils runs `adb start-server` when it cannot connect; it reads this when it does so
    mp = pytest.MonkeyPatch()
    mp.setenv("ADBUTILS_ADB_PATH", "/bin/false")
    yield
    mp.undo()


@pytest.fixture(scope="module")
def server() -> Iterator[VirtualAdbServer]:
    with VirtualAdbServer([VirtualPhone(SERIAL)]) as srv:
        yield srv


def make_env(server: VirtualAdbServer) -> RealPhoneEnv:
    return RealPhoneEnv(task=EPISODES[0][0], serial=SERIAL, port=server.port, settle=0.0,
                        timeout=5.0)


@pytest.fixture(scope="module")
def traces(server: VirtualAdbServer, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One trace per episode: the oracle plays through RealPhoneEnv; a recorder on its own
    adb connection records the phone after each of its actions (the actions given)."""
    root = tmp_path_factory.mktemp("traces")
    env = make_env(server)
    backend = AdbBackend(SERIAL, port=server.port, timeout=5.0)
    try:
        for task, seed in EPISODES:
            env.reset(seed=seed, options={"task": task})
            recorder = Recorder(backend, root / f"{task}_{seed}")
            recorder.capture()
            done, info = False, dict[str, Any]()
            while not done:
                action = env.oracle_action()
                _, _, terminated, truncated, info = env.step(action)
                done = terminated or truncated
                if action.type not in ("answer", "finish"):
                    recorder.capture(action)
            assert info["success"], (task, seed)
    finally:
        env.close()
    return root


@pytest.fixture(scope="module")
def rebuilt(traces: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("rebuilt") / "contacts_app"
    assert main(["reconstruct", str(traces), "--out", str(out)]) == 0
    return out


def test_traces_hold_what_a_phone_gives(traces: Path) -> None:
    loaded = load_traces([traces])
    assert [t.name for t in loaded] == [f"{t}_{s}" for t, s in sorted(EPISODES)]
    for t in loaded:
        first, *rest = t.steps
        assert first.action is None and all(s.source == "given" for s in rest)
        assert all(s.package for s in t.steps)
        assert any(s.package == "com.android.contacts" for s in t.steps)
        assert any(s.activity.endswith("MainActivity") for s in t.steps)
        assert all((traces / t.name / "frames" / f"{s.index:04d}.png").stat().st_size > 1000
                   for s in t.steps)
        # every tap on the app names the element it landed on
        taps = [s for s in rest if s.action and s.action["action"] in ("click", "long_press")]
        assert taps and all(s.target is not None for s in taps)
        typed = [s for s in rest if s.action and s.action["action"] == "type"]
        assert all(s.target and s.target["editable"] for s in typed)


def test_rebuilt_app_replays_at_least_90_percent(rebuilt: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    report: dict[str, Any] = json.loads((rebuilt / "fidelity.json").read_text())
    r = report["replay"]
    assert report["app"]["package"] == "com.android.contacts"
    assert r["transitions"] >= 20 and r["replayed"] / r["transitions"] >= 0.9, r
    md = (rebuilt / "fidelity.md").read_text()
    figure = f"transitions replayed: {r['replayed']}/{r['transitions']} ({r['rate']:.1%})"
    assert figure in md
    print(f"\nclosed loop: {figure}; screens: mean text overlap "
          f"{report['screen_fidelity']['mean_text_overlap']}, mean element-box IoU "
          f"{report['screen_fidelity']['mean_layout_iou']}")
    # what the skeleton only imitates is reported: typing, and data that changed
    kinds = {s["kind"] for s in report["static"]}
    assert {"typed text", "data changed"} <= kinds
    assert "## Still static" in md


def test_rebuilt_app_is_a_plugin_app_and_runs(rebuilt: Path, traces: Path) -> None:
    module = load_app(rebuilt / "contacts")
    assert (rebuilt / "pyproject.toml").read_text().count('"phone_gym.apps"') == 1
    registry = Registry()
    registry.add_module(module, builtin=False)  # what discovery does with an entry point
    registry.validate()
    assert [p.manifest.package for p in registry.packages] == ["com.android.contacts"]
    # list contents are seeded data: every contact row any list showed, once
    fixtures = sys.modules["contacts.fixtures"]
    rows = fixtures.RECORDS["contacts_list"]
    assert len(rows) == len({(r["id"], r["text"]) for r in rows}) > 10
    seen = {(e.short_id, e.text) for t in load_traces([traces]) for s in t.steps
            for e in s.elements() if e.short_id.startswith("contact_") and e.text}
    assert {(r["id"], r["text"]) for r in rows} == seen
    # opened on a PhoneWorld phone, it shows the first recorded screen of the app
    phone = Rebuilt(module.APP)
    phone.device.open_app(module.APP.name)
    first = next(s for t in load_traces([traces]) for s in t.steps
                 if s.package == "com.android.contacts")
    recorded = screen_texts(app_elements(first.elements(), first.package))
    assert text_overlap(screen_texts(phone.elements()), recorded) >= MATCH
    # the skeleton runs as any app does: a tap on a recorded link goes where it led, and
    # text no trace typed stays in its field
    device = phone.device
    create = next(e for e in phone.elements() if e.content_desc == "Create contact")
    assert device.step(to_action({"action": "click", "x": 0, "y": 0}),
                       px=((create.bounds[0] + create.bounds[2]) // 2,
                           (create.bounds[1] + create.bounds[3]) // 2)) is None
    name = next(e for e in phone.elements() if e.editable and e.content_desc == "Name")
    assert "Create contact" in screen_texts(phone.elements())
    device.step(to_action({"action": "click", "x": 0, "y": 0}),
                px=((name.bounds[0] + name.bounds[2]) // 2, (name.bounds[1] + name.bounds[3]) // 2))
    assert device.step(to_action({"action": "type", "text": "Zed Unseen"})) is None
    assert "Zed Unseen" in screen_texts(phone.elements())


def test_record_cli_runs_given_actions_as_a_phone_would(server: VirtualAdbServer, traces: Path,
                                                        tmp_path: Path) -> None:
    """``phone-gym record --real --actions`` runs the recorded oracle's actions again on the
    same task and seed and records the same screens."""
    source = load_traces([traces / "ContactsCreate_0"])[0]
    actions = tmp_path / "actions.jsonl"
    actions.write_text("".join(json.dumps(s.action) + "\n" for s in source.steps[1:]))
    env = make_env(server)
    try:
        env.reset(seed=0, options={"task": "ContactsCreate"})
    finally:
        env.close()
    out = tmp_path / "again"
    assert main(["record", "--real", "--port", str(server.port), "--serial", SERIAL,
                 "--actions", str(actions), "--out", str(out), "--settle", "0",
                 "--no-frames"]) == 0
    again = load_traces([out])[0]
    assert len(again.steps) == len(source.steps)
    assert not (out / "frames").exists()
    for a, b in zip(source.steps, again.steps, strict=True):
        assert a.package == b.package and a.action == b.action and a.target == b.target
        # the same screens (the phone's other data may differ: compare their shapes)
        assert (structure(state_key(app_elements(a.elements(), a.package)))
                == structure(state_key(app_elements(b.elements(), b.package))))


def test_rebuilt_app_installs_with_pip_and_opens_in_phoneworld(
        traces: Path, tmp_path: Path) -> None:
    """Renamed (``--name``, ``--app-package``: the built-in Contacts holds the recorded ones),
    the rebuilt app installs with pip (no network, no index, as tests/test_plugins.py does)
    and PhoneWorld finds it through the ``phone_gym.apps`` entry point."""
    out, site = tmp_path / "renamed", tmp_path / "site"
    assert main(["reconstruct", str(traces), "--out", str(out), "--name", "ContactsRebuilt",
                 "--app-package", "com.example.contactsrebuilt"]) == 0
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--no-index", "--no-build-isolation", "--target", str(site), str(out)],
                   check=True, timeout=300, cwd=tmp_path, env={**os.environ, "PIP_NO_INPUT": "1"})
    code = textwrap.dedent("""
        import gymnasium as gym
        import phone_gym
        from phone_gym.tasks.registry import discover

        registry = discover()
        print("plugins:", [p.manifest.name for p in registry.packages if not p.builtin],
              registry.errors)
        env = gym.make("PhoneWorld-v0", task="ContactsCreate")
        env.reset(seed=0)
        *_, info = env.step('open_app(app="ContactsRebuilt")')
        print("error:", info["action_error"])
        print("package:", sorted({e["package"] for e in info["ui_elements"]}))
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, env={**os.environ, "PYTHONPATH": str(site)})
    assert proc.returncode == 0, proc.stderr
    assert "plugins: ['ContactsRebuilt'] []" in proc.stdout
    assert "error: None" in proc.stdout
    assert "com.example.contactsrebuilt" in proc.stdout
