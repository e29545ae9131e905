"""Typing on real phones (``real.commands.type_text``) against the virtual adb device:
printable ASCII through ``input text``, any other text through ADBKeyboard's broadcast when
it is the selected input method (the virtual device's ``ime`` and ``am broadcast``) or
uiautomator2's ``send_keys``, else a clear action error; text PhoneWorld's fonts cannot
draw is refused with the same message in both envs. No adb binary, no phone: 127.0.0.1."""

from __future__ import annotations

import base64
import shlex
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("adbutils")

import adbutils  # noqa: E402

from phone_gym.actions import ActionError  # noqa: E402
from phone_gym.envs import PhoneWorldEnv  # noqa: E402
from phone_gym.envs.real_phone import RealPhoneEnv  # noqa: E402
from phone_gym.mockapps.contacts.tasks import ContactsCreate  # noqa: E402
from phone_gym.real.commands import (  # noqa: E402
    ADB_KEYBOARD,
    IME_QUERY,
    selected_ime,
    type_commands,
)
from phone_gym.virtual import VirtualAdbServer, VirtualPhone  # noqa: E402
from phone_gym.virtual.commands import ime  # noqa: E402
from phone_gym.world.glyphs import CJK_ENV, typing_error  # noqa: E402

NAME = "Zoë Ωμέγα Жук"
KEYBOARD = ime.KEYBOARD


@pytest.fixture(autouse=True)
def no_adb_binary(monkeypatch: pytest.MonkeyPatch) -> None:
    # adbutils runs `adb start-server` when it cannot connect; it reads this when it does so
    monkeypatch.setenv("ADBUTILS_ADB_PATH", "/bin/false")


@pytest.fixture(scope="module")
def keyboard_phone() -> VirtualPhone:
    return VirtualPhone("kbd-phone", adb_keyboard=True)


@pytest.fixture(scope="module")
def plain_phone() -> VirtualPhone:
    return VirtualPhone("plain-phone")


@pytest.fixture(scope="module")
def server(keyboard_phone: VirtualPhone, plain_phone: VirtualPhone) -> Iterator[VirtualAdbServer]:
    with VirtualAdbServer([keyboard_phone, plain_phone]) as srv:
        yield srv


def adb_shell(server: VirtualAdbServer, serial: str, command: str) -> str:
    """``adb -s SERIAL shell COMMAND`` through adbutils, as a person sets a phone up."""
    device = adbutils.AdbClient("127.0.0.1", server.port, socket_timeout=10).device(serial)
    return str(device.shell(command))


def select_adb_keyboard(server: VirtualAdbServer, serial: str) -> None:
    out = adb_shell(server, serial, f"ime enable {ADB_KEYBOARD}")
    assert out.strip() in (f"Input method {ADB_KEYBOARD}: now enabled for user #0",
                           f"Input method {ADB_KEYBOARD}: already enabled for user #0")
    out = adb_shell(server, serial, f"ime set {ADB_KEYBOARD}")
    assert out.strip() == f"Input method {ADB_KEYBOARD} selected for user #0"


def make(server: VirtualAdbServer, serial: str, **kwargs: Any) -> RealPhoneEnv:
    kwargs.setdefault("task", "ContactsCreate")
    return RealPhoneEnv(serial=serial, port=server.port, settle=0.0, timeout=3.0,
                        privileged_info=True, **kwargs)


def center(info: dict[str, Any], text: str) -> dict[str, int]:
    found = [e for e in info["ui_elements"] if text in (e["text"], e["content_desc"])]
    assert found, f"{text!r} not on screen: {[e['text'] for e in info['ui_elements']]}"
    x, y = found[-1]["center_norm"]
    return {"x": x, "y": y}


def texts(info: dict[str, Any]) -> list[str]:
    return [e["text"] for e in info["ui_elements"]]


def name_field(env: RealPhoneEnv | PhoneWorldEnv) -> dict[str, Any]:
    """Contacts' new-contact form with its name field focused (the env already reset)."""
    _, _, _, _, info = env.step('open_app(app="Contacts")')
    _, _, _, _, info = env.step({"action": "click", **center(info, "Create contact")})
    _, _, _, _, info = env.step({"action": "click", **center(info, "Name")})
    assert info["action_error"] is None
    return info


def since(phone: VirtualPhone, mark: int) -> list[list[str]]:
    return list(phone.shell_log)[mark:]


# --- the commands -----------------------------------------------------------------------------
def test_adb_keyboard_broadcast_carries_any_text_as_one_ascii_word() -> None:
    for text in (NAME, "100%sure", "it's \"Zoë\" $(reboot)\n"):
        (line,) = type_commands(text, ADB_KEYBOARD)
        words = shlex.split(line)
        assert words[:5] == ["am", "broadcast", "-a", "ADB_INPUT_B64", "--es"]
        assert words[5] == "msg" and len(words) == 7 and line.isascii()
        assert base64.b64decode(words[6]).decode("utf-8") == text
    assert type_commands("plain ascii", ADB_KEYBOARD) == ["input text plain%sascii"]


def test_without_adb_keyboard_the_error_says_what_would_type_it() -> None:
    for ime_id in (None, KEYBOARD):
        with pytest.raises(ActionError) as exc:
            type_commands(NAME, ime_id)
        message = str(exc.value)
        assert "printable ASCII" in message and "backend='u2'" in message
        assert f"ime enable {ADB_KEYBOARD}" in message and f"ime set {ADB_KEYBOARD}" in message


@pytest.mark.parametrize(("output", "selected"), [
    (f"{KEYBOARD}\n{ADB_KEYBOARD}\n{ADB_KEYBOARD}\n", ADB_KEYBOARD),
    (f"{KEYBOARD}\n{ADB_KEYBOARD}\n{KEYBOARD}\n", KEYBOARD),
    (f"{KEYBOARD}\nnull\n", None),  # no default_input_method
    (f"/system/bin/sh: ime: not found\n{ADB_KEYBOARD}\n", None),  # selected, not enabled
    ("", None),
])
def test_the_selected_input_method_is_read_from_the_phones_answer(output: str,
                                                                  selected: str | None) -> None:
    assert selected_ime(output) == selected


# --- the virtual device's input methods -------------------------------------------------------
def test_ime_command_answers_as_android_does() -> None:
    phone = VirtualPhone("ime-phone", adb_keyboard=True)
    assert phone.shell("ime list -s") == (0, f"{KEYBOARD}\n".encode(), b"")
    assert phone.shell("ime list -a -s")[1].decode().split() == [KEYBOARD, ADB_KEYBOARD]
    code, out, _ = phone.shell("ime list -a")
    assert code == 0 and f"{ADB_KEYBOARD}:\n  mId={ADB_KEYBOARD} " in out.decode()
    assert "packageName=com.android.adbkeyboard" in out.decode()
    assert phone.shell(f"ime set {ADB_KEYBOARD}") == (
        255, b"", f"Unknown input method {ADB_KEYBOARD} cannot be selected for user #0\n".encode())
    assert phone.shell(f"ime enable {ADB_KEYBOARD}")[1] == (
        f"Input method {ADB_KEYBOARD}: now enabled for user #0\n".encode())
    assert phone.shell(f"ime enable --user 0 {ADB_KEYBOARD}")[1] == (
        f"Input method {ADB_KEYBOARD}: already enabled for user #0\n".encode())
    assert phone.shell(f"ime set {ADB_KEYBOARD}")[:2] == (
        0, f"Input method {ADB_KEYBOARD} selected for user #0\n".encode())
    assert phone.shell(IME_QUERY)[1].decode().split() == [KEYBOARD, ADB_KEYBOARD, ADB_KEYBOARD]
    assert phone.shell(f"ime disable {ADB_KEYBOARD}")[1] == (
        f"Input method {ADB_KEYBOARD}: now disabled for user #0\n".encode())
    # the selected one was disabled: Android switches to another enabled one
    assert phone.shell("settings get secure default_input_method")[1] == f"{KEYBOARD}\n".encode()
    code, out, err = phone.shell("ime set")
    assert code == 255 and b'Argument expected after "set"' in err
    assert phone.shell("ime frobnicate")[:2] == (255, b"Unknown command: frobnicate\n")
    assert phone.shell("ime")[1].startswith(b"ime <command>:\n  list [-a] [-s]\n")
    reset = phone.shell("ime reset")[1].decode()
    assert reset.startswith("Reset current and enabled IMEs for user #0\n  Selected: ")


def test_a_phone_without_adb_keyboard_cannot_enable_it() -> None:
    phone = VirtualPhone("no-kbd")
    assert phone.shell("ime list -a -s")[1] == f"{KEYBOARD}\n".encode()
    code, out, err = phone.shell(f"ime enable {ADB_KEYBOARD}")
    assert code == 255 and out == b""
    assert err == f"Unknown input method {ADB_KEYBOARD} cannot be enabled for user #0\n".encode()


def focused_contacts_form(phone: VirtualPhone) -> str:
    """Opens Contacts' new-contact form on ``phone`` and taps its name field; the field's id."""
    phone.shell("monkey -p com.android.contacts 1")
    for node_id in ("create_contact", "name"):
        (placed,) = [p for p in phone.device.frame().items if p.node.id == node_id]
        x0, y0, x1, y1 = placed.rect
        phone.shell(f"input tap {(x0 + x1) // 2} {(y0 + y1) // 2}")
    assert phone.device.focus == "name"
    return "name"


def field_text(phone: VirtualPhone, node_id: str) -> str:
    (field,) = [p for p in phone.device.frame().items if p.node.id == node_id]
    return field.node.text


def test_adb_keyboard_broadcasts_type_only_while_it_is_selected() -> None:
    phone = VirtualPhone("bcast", adb_keyboard=True)
    field = focused_contacts_form(phone)
    b64 = base64.b64encode("Жук".encode()).decode()
    code, out, _ = phone.shell(f"am broadcast -a ADB_INPUT_B64 --es msg {b64}")
    assert code == 0 and out.decode().endswith("Broadcast completed: result=0\n")
    assert field_text(phone, field) == ""  # nobody received it: ADBKeyboard is not selected
    phone.shell(f"ime enable {ADB_KEYBOARD}")
    phone.shell(f"ime set {ADB_KEYBOARD}")
    phone.shell(f"am broadcast -a ADB_INPUT_B64 --es msg {b64}")
    phone.shell("am broadcast -a ADB_INPUT_TEXT --es msg ' Ωμέγα'")
    phone.shell("am broadcast -a ADB_INPUT_CHARS --eia chars 32,90,111,235")
    assert field_text(phone, field) == "Жук Ωμέγα Zoë"
    # what AdbIME's receiver fails on types nothing: bad base64, no msg, a bad code point
    phone.shell("am broadcast -a ADB_INPUT_B64 --es msg abcde")  # 5 digits: bad length
    phone.shell("am broadcast -a ADB_INPUT_B64")
    phone.shell("am broadcast -a ADB_INPUT_CHARS --eia chars 1114112")
    assert field_text(phone, field) == "Жук Ωμέγα Zoë"
    # bytes that are not UTF-8 become U+FFFD, as Java's new String(bytes, "UTF-8") makes them
    not_utf8 = base64.b64encode(b"!\xff").decode()
    phone.shell(f"am broadcast -a ADB_INPUT_B64 --es msg {not_utf8}")
    assert field_text(phone, field) == "Жук Ωμέγα Zoë!\ufffd"


def test_adb_keyboard_with_no_focused_field_types_nothing() -> None:
    phone = VirtualPhone("nofocus", adb_keyboard=True)
    phone.shell(f"ime enable {ADB_KEYBOARD}")
    phone.shell(f"ime set {ADB_KEYBOARD}")
    before = phone.device.system.snapshot()
    code, _, _ = phone.shell("am broadcast -a ADB_INPUT_TEXT --es msg hi")
    assert code == 0 and phone.last_input_error and "focus" in phone.last_input_error
    assert phone.device.system.snapshot() == before


# --- RealPhone-v0 end to end ------------------------------------------------------------------
@pytest.fixture
def named_task(monkeypatch: pytest.MonkeyPatch) -> None:
    """ContactsCreate asks for a contact named ``NAME``."""
    sample = ContactsCreate.sample_params
    monkeypatch.setattr(ContactsCreate, "sample_params",
                        lambda self, rng: {**sample(self, rng), "name": NAME})


def test_adb_keyboard_types_any_script_and_the_verifier_sees_it(
        server: VirtualAdbServer, keyboard_phone: VirtualPhone, named_task: None) -> None:
    env = make(server, keyboard_phone.serial)
    _, info = env.reset(seed=0)
    assert info["params"]["name"] == NAME
    select_adb_keyboard(server, keyboard_phone.serial)
    mark = len(keyboard_phone.shell_log)
    while True:
        action = env.oracle_action()
        _, reward, terminated, truncated, info = env.step(action)
        assert info["action_error"] is None, (action, info["action_error"])
        if action.type == "type" and action.text == NAME:
            assert NAME in texts(info)
        if terminated or truncated:
            break
    assert reward == 1.0 and info["success"], info["verdict"]
    assert keyboard_phone.device.system.find_contact(NAME) is not None
    ran = [" ".join(argv) for argv in since(keyboard_phone, mark)]
    b64 = base64.b64encode(NAME.encode()).decode()
    assert f"am broadcast -a ADB_INPUT_B64 --es msg {b64}" in ran
    assert not any(line.startswith("input text") and "Zo" in line for line in ran)


def test_without_adb_keyboard_non_ascii_is_a_clear_no_op_action_error(
        server: VirtualAdbServer, plain_phone: VirtualPhone) -> None:
    env = make(server, plain_phone.serial)
    env.reset(seed=0)
    name_field(env)
    mark = len(plain_phone.shell_log)
    _, reward, terminated, truncated, info = env.step({"action": "type", "text": NAME})
    error = info["action_error"]
    assert error and "printable ASCII" in error and "ADBKeyboard" in error, error
    assert "backend='u2'" in error
    assert (reward, terminated, truncated) == (0.0, False, False)
    assert NAME not in texts(info) and plain_phone.device.focus == "name"
    assert not any(argv[0] in ("input", "am") for argv in since(plain_phone, mark))
    _, _, _, _, info = env.step({"action": "type", "text": "Zoe"})  # ASCII still types
    assert info["action_error"] is None and "Zoe" in texts(info)


def test_adb_keyboard_installed_but_not_selected_is_the_same_error(
        server: VirtualAdbServer, keyboard_phone: VirtualPhone) -> None:
    env = make(server, keyboard_phone.serial)
    env.reset(seed=0)
    adb_shell(server, keyboard_phone.serial, f"ime set {KEYBOARD}")
    name_field(env)
    _, _, _, _, info = env.step({"action": "type", "text": NAME})
    assert info["action_error"] and "ADBKeyboard" in info["action_error"]
    assert NAME not in texts(info)


def test_u2_backend_types_any_script() -> None:
    pytest.importorskip("uiautomator2")
    from phone_gym.virtual.u2 import attach_u2

    phone = attach_u2(VirtualPhone("u2-typing"))
    with VirtualAdbServer([phone]) as srv:
        env = RealPhoneEnv(serial=phone.serial, port=srv.port, backend="u2", settle=0.0,
                           task="ContactsCreate", timeout=5.0)
        env.reset(seed=0)
        name_field(env)
        _, _, _, _, info = env.step({"action": "type", "text": NAME})
        assert info["action_error"] is None and NAME in texts(info)
        _, _, _, _, info = env.step({"action": "type", "text": "\ue000"})
        assert info["action_error"] == typing_error("\ue000")


# --- the same refusal in both envs ------------------------------------------------------------
def both_envs_refuse(server: VirtualAdbServer, phone: VirtualPhone, text: str) -> str:
    """Types ``text`` into the name field in PhoneWorld and in RealPhone-v0 (ADBKeyboard
    selected, so that the phone could type it); both must refuse it alike, typing nothing.
    Returns the error."""
    world = PhoneWorldEnv(task="ContactsAddContact")
    world.reset(seed=0)
    name_field(world)
    _, _, _, _, world_info = world.step({"action": "type", "text": text})
    real = make(server, phone.serial)
    real.reset(seed=0)
    select_adb_keyboard(server, phone.serial)
    name_field(real)
    mark = len(phone.shell_log)
    _, reward, terminated, _, real_info = real.step({"action": "type", "text": text})
    error = typing_error(text)
    assert error is not None
    assert world_info["action_error"] == real_info["action_error"] == error
    assert (reward, terminated) == (0.0, False)
    assert not any(argv[0] in ("input", "am", "ime") for argv in since(phone, mark))
    assert field_text(phone, "name") == "" and world.device.focus == "name"
    assert not any(p.node.text for p in world.device.frame().items if p.node.id == "name")
    return error


@pytest.mark.parametrize("text", ["\ue000", "Zoë \x07", "\U000f0000"])
def test_undrawable_text_is_refused_alike_in_both_envs(server: VirtualAdbServer,
                                                       keyboard_phone: VirtualPhone,
                                                       text: str) -> None:
    assert "no font of the phone draws it" in both_envs_refuse(server, keyboard_phone, text)


def test_cjk_beyond_the_phones_fonts_is_refused_alike_in_both_envs(
        server: VirtualAdbServer, keyboard_phone: VirtualPhone) -> None:
    """A rare hanzi (U+2A6D6, outside GB 2312 and Big5) is refused, naming the setting."""
    assert CJK_ENV in both_envs_refuse(server, keyboard_phone, "中\U0002a6d6")


def test_cjk_types_with_the_package_fonts(server: VirtualAdbServer,
                                          keyboard_phone: VirtualPhone) -> None:
    env = make(server, keyboard_phone.serial)
    env.reset(seed=0)
    select_adb_keyboard(server, keyboard_phone.serial)
    name_field(env)
    _, _, _, _, info = env.step({"action": "type", "text": "中文 한국어"})
    assert info["action_error"] is None and "中文 한국어" in texts(info)
