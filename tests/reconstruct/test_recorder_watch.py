"""``Recorder.watch``: record a phone while a person uses it, inferring each action from two
consecutive UI dumps (the virtual adb device stands in for the phone and the person's taps
are adb ``input`` commands); and the commands' one-line errors."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("adbutils")

from phone_gym.cli import main  # noqa: E402
from phone_gym.real.backend import AdbBackend  # noqa: E402
from phone_gym.reconstruct.recorder import Recorder, parse_activity, read_actions  # noqa: E402
from phone_gym.reconstruct.trace import load_traces  # noqa: E402
from phone_gym.virtual import VirtualAdbServer, VirtualPhone  # noqa: E402

SERIAL = "watch-phone"
CONTACTS = "com.android.contacts"


@pytest.fixture
def backend(monkeypatch: pytest.MonkeyPatch) -> Iterator[AdbBackend]:
    monkeypatch.setenv("ADBUTILS_ADB_PATH", "/bin/false")  # never start a real adb server
    with VirtualAdbServer([VirtualPhone(SERIAL)]) as srv:
        yield AdbBackend(SERIAL, port=srv.port, timeout=5.0)


def center(backend: AdbBackend, **attrs: object) -> tuple[int, int]:
    """The centre of the node of the current dump whose attributes are ``attrs``."""
    from phone_gym.world.a11y import parse_xml

    for e in parse_xml(backend.dump_ui(), *backend.window_size()):
        if all(getattr(e, k) == v for k, v in attrs.items()):
            return (e.bounds[0] + e.bounds[2]) // 2, (e.bounds[1] + e.bounds[3]) // 2
    raise AssertionError(f"no node with {attrs}")


def test_watch_infers_launch_tap_back_focus_and_typing(backend: AdbBackend,
                                                       tmp_path: Path) -> None:
    rec = Recorder(backend, tmp_path / "t", frames=False)

    def watch(steps: int) -> None:
        rec.watch(max_steps=steps, poll=0.05, timeout=10)
        assert len(rec.steps) == steps, "the screen did not change"

    watch(1)  # the home screen
    assert rec.watch(max_steps=2, poll=0.05, timeout=0.3) == 1  # no change: nothing recorded
    backend.shell(f"monkey -p {CONTACTS} -c android.intent.category.LAUNCHER 1")
    watch(2)
    create = center(backend, content_desc="Create contact", clickable=True)
    backend.shell("input tap {} {}".format(*create))
    watch(3)
    backend.shell("input keyevent 4")
    watch(4)
    backend.shell("input tap {} {}".format(*create))
    watch(5)
    x, y = center(backend, content_desc="Name", editable=True)
    backend.shell(f"input tap {x} {y}")
    watch(6)
    backend.shell("input text Bob")
    watch(7)
    trace = load_traces([tmp_path / "t"])[0]
    home, opened, tapped, back, again, focused, typed = trace.steps
    assert home.package != CONTACTS and opened.package == CONTACTS
    assert opened.action == {"action": "open_app", "app": CONTACTS}
    assert opened.source == "inferred" and opened.activity.endswith("MainActivity")
    for step in (tapped, again):
        assert step.action is not None and step.action["action"] == "click"
        assert step.target is not None and step.target["desc"] == "Create contact"
    assert back.action == {"action": "press", "button": "back"} and back.source == "inferred"
    assert focused.action is not None and focused.action["action"] == "click"
    assert focused.target is not None and focused.target["desc"] == "Name"
    assert typed.action == {"action": "type", "text": "Bob"}
    assert typed.target is not None and typed.target["id"] == "name"


def test_parse_activity_reads_the_focused_window() -> None:
    out = "  mCurrentFocus=Window{2174f03 u0 com.android.contacts/com.android.contacts.Main}\n"
    assert parse_activity(out) == "com.android.contacts.Main"
    assert parse_activity("mCurrentFocus=null") == ""


def test_read_actions_takes_dicts_and_calls(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    path.write_text(json.dumps({"action": "click", "x": 1, "y": 2}) + "\n\n"
                    + json.dumps('press(button="back")') + "\n")
    assert [a.type for a in read_actions(path)] == ["click", "press"]
    path.write_text('{"action": "fly"}\n')
    with pytest.raises(ValueError, match=r"a.jsonl:1: not an action"):
        read_actions(path)


def test_command_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["record", "--out", str(tmp_path / "x")]) == 2
    assert "pass --real" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    assert main(["record", "--real", "--actions", str(bad), "--out", str(tmp_path / "y")]) == 2
    err = capsys.readouterr().err
    assert "bad.jsonl:1: not an action" in err and len(err.strip().splitlines()) == 1
    assert main(["reconstruct", str(tmp_path), "--out", str(tmp_path / "app")]) == 2
    assert "no traces" in capsys.readouterr().err
    assert main(["reconstruct", str(tmp_path / "missing"), "--out", str(tmp_path / "a")]) == 2
    assert "phone-gym record" in capsys.readouterr().err
