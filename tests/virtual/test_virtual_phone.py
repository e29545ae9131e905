"""The virtual phone's shell: the interpreter, the Android commands and the file system."""

from __future__ import annotations

import gc
import shlex
import uuid
from io import BytesIO

import pytest
from PIL import Image

from phone_gym.virtual.commands.content import PEOPLE_COLUMNS
from phone_gym.virtual.phone import BOOT_ID_PATH, FILE_MODE, SHELL_LOG_SIZE, VirtualPhone
from phone_gym.world.a11y import UIElement, parse_xml, ui_elements
from phone_gym.world.device import CONTACTS_PROVIDER, LAUNCHER_PACKAGE, SYSTEMUI_PACKAGE

CLOCK_PACKAGE = "com.google.android.deskclock"
CONTACTS = "com.android.contacts"
ALARM = "android.intent.extra.alarm."


@pytest.fixture
def phone() -> VirtualPhone:
    return VirtualPhone()


def run(phone: VirtualPhone, command: str) -> tuple[int, str, str]:
    code, out, err = phone.shell(command)
    return code, out.decode(), err.decode()


def out_of(phone: VirtualPhone, command: str) -> str:
    code, out, err = run(phone, command)
    assert code == 0, (command, out, err)
    return out


def element(phone: VirtualPhone, text: str | None = None, rid: str | None = None) -> UIElement:
    for e in ui_elements(phone.device.frame()):
        if (text is None or e.text == text) and (rid is None or e.short_id == rid):
            return e
    raise AssertionError(f"no element text={text!r} id={rid!r} on screen")


def center(e: UIElement) -> str:
    x0, y0, x1, y1 = e.bounds
    return f"{(x0 + x1) // 2} {(y0 + y1) // 2}"


def focus_search(phone: VirtualPhone) -> None:
    out_of(phone, f"am start -n {CONTACTS}/.MainActivity")
    out_of(phone, f"input tap {center(element(phone, rid='search'))}")
    assert phone.device.focus == "search"


def search_text(phone: VirtualPhone) -> str:
    return phone.device.app("Contacts").ui.query


def set_alarm(phone: VirtualPhone, hour: int, minute: int, *extra: str) -> None:
    out_of(phone, f"am start -a android.intent.action.SET_ALARM --ei {ALARM}HOUR {hour} "
                  f"--ei {ALARM}MINUTES {minute} --ez {ALARM}SKIP_UI true " + " ".join(extra))


# --- the interpreter --------------------------------------------------------------------------
def test_quotes_escapes_and_word_splitting(phone: VirtualPhone) -> None:
    assert out_of(phone, """echo 'a  b' "c \\"d\\" \\$x \\q" e\\ f 'x'"y"z ''""") == \
        'a  b c "d" $x \\q e f xyz \n'
    assert phone.shell_log[-1] == ["echo", "a  b", 'c "d" $x \\q', "e f", "xyz", ""]
    assert out_of(phone, "echo a # a comment") == "a\n"
    assert out_of(phone, "echo a#b") == "a#b\n"
    assert out_of(phone, 'x="1  2"; echo $x; echo "$x"; echo ${x}3 $unset.') == \
        "1 2\n1  2\n1 23 .\n"


def test_lists_and_status(phone: VirtualPhone) -> None:
    assert out_of(phone, "true && echo a || echo b; false && echo c || echo d") == "a\nd\n"
    assert out_of(phone, "false; echo $?; true; echo $?") == "1\n0\n"
    assert out_of(phone, "nosuch; echo $?") == "127\n"
    assert run(phone, "false") == (1, "", "")
    assert run(phone, "exit 3; echo no") == (3, "", "")
    assert out_of(phone, "! false && echo negated") == "negated\n"


def test_pipes_feed_stdin(phone: VirtualPhone) -> None:
    assert out_of(phone, "printf 'b\\na\\nc\\n' | sort | head -n 2") == "a\nb\n"
    assert out_of(phone, "printf 'x\\ny\\nx\\n' | grep x | wc -l") == "2\n"
    assert out_of(phone, "echo hello | cat") == "hello\n"
    assert out_of(phone, "printf '1\\n2\\n3\\n' | tail -n 1") == "3\n"
    assert run(phone, "echo abc | grep -q zzz") == (1, "", "")


def test_substitution_is_executed(phone: VirtualPhone) -> None:
    assert out_of(phone, "echo $(echo inner) `echo tick` \"$(echo 'a  b')\" $(echo 'a  b')") == \
        "inner tick a  b a b\n"
    assert out_of(phone, "echo $(echo $(echo nested))") == "nested\n"
    assert out_of(phone, "echo before $(reboot) after") == "before after\n"
    assert ["reboot"] in phone.shell_log and phone.reboots == 1
    assert out_of(phone, "x=$(false); echo $?") == "1\n"


def test_redirections(phone: VirtualPhone) -> None:
    out_of(phone, "echo one > /sdcard/f.txt; echo two >> /sdcard/f.txt")
    assert out_of(phone, "cat /sdcard/f.txt") == "one\ntwo\n"
    assert out_of(phone, "cat < /sdcard/f.txt | wc -l") == "2\n"
    assert run(phone, "cat /nope 2>/dev/null") == (1, "", "")
    assert out_of(phone, "cat /nope 2>&1 | head -n 1") == "cat: /nope: No such file or directory\n"
    assert run(phone, "cat /nope > /sdcard/g.txt 2>&1") == (1, "", "")
    assert out_of(phone, "cat /sdcard/g.txt") == "cat: /nope: No such file or directory\n"
    out_of(phone, "> /sdcard/empty.txt")
    assert phone.device.system.files["/sdcard/empty.txt"].content == ""
    code, _, err = run(phone, "echo x > /system/x")
    assert code == 1 and err == "/system/bin/sh: can't create /system/x: Read-only file system\n"
    assert ["echo", "x"] not in phone.shell_log  # a failed redirection runs nothing


def test_unknown_command(phone: VirtualPhone) -> None:
    assert run(phone, "frobnicate --now") == (
        127, "", "/system/bin/sh: frobnicate: inaccessible or not found\n")


@pytest.mark.parametrize("line", ["echo 'open", 'echo "open', "echo $(echo a", "echo a &&",
                                  "| cat", "echo a ;; echo b", "echo `a", "( echo a )"])
def test_syntax_errors_run_nothing(phone: VirtualPhone, line: str) -> None:
    code, out, err = run(phone, f"reboot; {line}")
    assert code == 1 and out == "" and err.startswith("/system/bin/sh: syntax error: ")
    assert not phone.shell_log and phone.reboots == 0


def test_adbutils_v1_exit_suffix(phone: VirtualPhone) -> None:
    """adbutils' shell2 without v2 appends ``; echo X4EXIT:$?`` and reads the last line."""
    code, out, err = phone.shell("cat /nope; echo X4EXIT:$?")
    assert err == b"" and out == b"cat: /nope: No such file or directory\nX4EXIT:1\n"
    text = out.decode()
    assert int(text[text.rfind("X4EXIT:") + 7:]) == 1
    assert phone.shell("echo hi; echo X4EXIT:$?")[1] == b"hi\nX4EXIT:0\n"


# --- input ------------------------------------------------------------------------------------
def test_input_tap_on_a_launcher_icon_opens_the_app(phone: VirtualPhone) -> None:
    before = phone.device.system.now
    assert run(phone, f"input tap {center(element(phone, 'Clock'))}") == (0, "", "")
    assert phone.device.current_app.package == CLOCK_PACKAGE
    assert (phone.device.system.now - before).total_seconds() == 1.0
    assert "mCurrentFocus=Window{" in out_of(phone, "dumpsys window")


def test_input_swipe_long_press_tap_and_drag(phone: VirtualPhone) -> None:
    set_alarm(phone, 7, 30)
    out_of(phone, f"am start -n {CLOCK_PACKAGE}/.MainActivity")
    alarm = center(element(phone, "07:30"))
    out_of(phone, f"input swipe {alarm} {alarm} 800")
    assert [label for label, _ in phone.device.menu or []] == ["Delete", "Duplicate"]
    out_of(phone, "input keyevent KEYCODE_BACK")
    assert phone.device.menu is None
    out_of(phone, f"input swipe {alarm} {alarm} 100")  # short: a tap opens the editor
    assert phone.device.apps["Clock"].route.name == "edit"
    phone.reset()
    for k in range(30):
        phone.device.system.add_contact(f"Person {k:02d}")
    out_of(phone, f"am start -n {CONTACTS}/.MainActivity")
    out_of(phone, "input swipe 540 1800 540 800 300")
    assert max(phone.device.scroll.values()) == 1000  # the finger moved up: content down


def test_input_text_types_into_the_focused_field(phone: VirtualPhone) -> None:
    focus_search(phone)
    out_of(phone, "input text 'Ada%sLovelace'")
    assert search_text(phone) == "Ada Lovelace"
    out_of(phone, "input keyevent KEYCODE_DEL 67")
    assert search_text(phone) == "Ada Lovela"
    out_of(phone, "input keyevent KEYCODE_X")
    assert search_text(phone) == "Ada Lovelax"


def test_input_text_without_focus_still_exits_zero(phone: VirtualPhone) -> None:
    assert run(phone, "input text hello") == (0, "", "")
    assert "no text field has focus" in (phone.last_input_error or "")
    assert run(phone, "input tap 1 2 3")[0] == 1
    assert run(phone, "input fly")[2].startswith("Error: Unknown command: fly")


def test_quoted_injection_is_typed_literally(phone: VirtualPhone) -> None:
    focus_search(phone)
    text = "'; rm -rf / #'"
    phone.shell_log.clear()
    assert run(phone, f"input text {shlex.quote(text)}") == (0, "", "")
    assert search_text(phone) == text
    assert list(phone.shell_log) == [["input", "text", text]]


def test_naively_quoted_injection_runs_rm(phone: VirtualPhone) -> None:
    """The same text pasted between single quotes breaks out: the test above can fail."""
    focus_search(phone)
    phone.shell_log.clear()
    run(phone, "input text '" + "'; rm -rf / #'" + "'")
    assert ["rm", "-rf", "/"] in phone.shell_log
    run(phone, "input text x; rm -rf /sdcard/Download")
    assert ["rm", "-rf", "/sdcard/Download"] in phone.shell_log
    assert run(phone, "ls /sdcard/Download")[0] == 1


def test_keyevents(phone: VirtualPhone) -> None:
    out_of(phone, f"am start -n {CONTACTS}/.MainActivity")
    out_of(phone, "input keyevent KEYCODE_APP_SWITCH")
    assert phone.device.show_recents
    out_of(phone, "input keyevent 187; input keyevent KEYCODE_HOME")
    assert phone.device.current_app is None and not phone.device.show_recents
    out_of(phone, f"am start -n {CONTACTS}/.MainActivity")
    out_of(phone, "input keyevent 4")
    assert phone.device.current_app is None
    focus_search(phone)
    out_of(phone, "input keyevent KEYCODE_ENTER")
    assert run(phone, "input keyevent KEYCODE_NOPE")[0] == 1


# --- activities and packages ------------------------------------------------------------------
def test_am_start_and_force_stop(phone: VirtualPhone) -> None:
    out = out_of(phone, f"am start -W -n {CLOCK_PACKAGE}/.MainActivity")
    assert out.startswith(f"Starting: Intent {{ cmp={CLOCK_PACKAGE}/.MainActivity }}\n")
    assert "Status: ok" in out and phone.device.current_app.package == CLOCK_PACKAGE
    out_of(phone, "am start -a android.intent.action.MAIN -c android.intent.category.LAUNCHER "
                  f"-p {CONTACTS} --user 0")
    assert phone.device.current_app.package == CONTACTS
    out_of(phone, f"am force-stop {CONTACTS}")
    assert phone.device.current_app is None
    assert f"u0 {LAUNCHER_PACKAGE}/" in out_of(phone, "dumpsys window windows")
    code, out, err = run(phone, "am start -n com.nope/.Main")
    assert code == 1 and "Error: Activity class {com.nope/com.nope.Main} does not exist." in err
    # no store app is installed: nothing opens market: links (implicit intents: test_intents)
    assert run(phone, "am start -a android.intent.action.VIEW -d market://details?id=x")[0] == 1
    assert run(phone, "am start --bogus")[0] == 255


def test_set_alarm_intent(phone: VirtualPhone) -> None:
    set_alarm(phone, 7, 30, f"--es {ALARM}MESSAGE 'Wake up'")
    alarms = phone.device.snapshot()["alarms"]
    assert [(a["hour"], a["minute"], a["label"], a["enabled"]) for a in alarms.values()] == [
        (7, 30, "Wake up", True)]
    assert phone.device.current_app is None  # SKIP_UI
    alarms = phone.device.system.alarms
    alarms.update(alarms.values()[0].id, enabled=False)
    set_alarm(phone, 7, 30, f"--es {ALARM}MESSAGE 'Wake up'")  # DeskClock re-enables it
    assert [a.enabled for a in phone.device.system.alarms] == [True]
    out_of(phone, f"am start -a android.intent.action.SET_ALARM --ei {ALARM}HOUR 8")
    assert len(phone.device.system.alarms) == 2
    assert phone.device.current_app.package == CLOCK_PACKAGE  # no SKIP_UI: the app shows


def test_monkey(phone: VirtualPhone) -> None:
    out = out_of(phone, f"monkey -p {CONTACTS} -c android.intent.category.LAUNCHER 1")
    assert "Events injected: 1" in out and phone.device.current_app.package == CONTACTS
    code, _, err = run(phone, "monkey -p com.nope -c android.intent.category.LAUNCHER 1")
    assert code == 252 and "No activities found" in err


def test_pm(phone: VirtualPhone) -> None:
    listed = out_of(phone, "pm list packages").splitlines()
    for package in (LAUNCHER_PACKAGE, SYSTEMUI_PACKAGE, "com.android.providers.settings",
                    CONTACTS_PROVIDER, CLOCK_PACKAGE, CONTACTS,
                    *(a.package for a in phone.device.apps.values())):
        assert f"package:{package}" in listed
    assert out_of(phone, "pm list packages deskclock") == f"package:{CLOCK_PACKAGE}\n"
    assert out_of(phone, f"pm path {CLOCK_PACKAGE}").startswith("package:/data/app/")
    assert run(phone, "pm path com.nope") == (1, "", "")
    phone.device.system.add_contact("Ada")
    set_alarm(phone, 6, 0)
    out_of(phone, f"am start -n {CLOCK_PACKAGE}/.MainActivity")
    assert out_of(phone, f"pm clear {CLOCK_PACKAGE}") == "Success\n"
    assert len(phone.device.system.alarms) == 0 and phone.device.current_app is None
    assert phone.device.system.contacts  # contacts live in the provider
    assert out_of(phone, f"pm clear --user 0 {CONTACTS_PROVIDER}") == "Success\n"
    assert phone.device.system.contacts == []
    assert run(phone, "pm clear com.nope") == (1, "", "Failed\n")


# --- screen -----------------------------------------------------------------------------------
def test_screencap(phone: VirtualPhone) -> None:
    code, png, _ = phone.shell("screencap -p")
    assert code == 0 and Image.open(BytesIO(png)).size == (1080, 2400)
    out_of(phone, "screencap -p /sdcard/Pictures/s.png")
    data = phone.read_file("/storage/emulated/0/Pictures/s.png")
    assert data is not None and Image.open(BytesIO(data)).size == (1080, 2400)
    assert "/sdcard/Pictures/s.png" not in phone.device.system.files  # bytes, not text
    assert out_of(phone, "ls /sdcard/Pictures") == "s.png\n"
    raw = phone.shell("screencap")[1]
    assert len(raw) == 16 + 1080 * 2400 * 4


def test_wm_and_getprop(phone: VirtualPhone) -> None:
    assert out_of(phone, "wm size") == "Physical size: 1080x2400\n"
    assert out_of(phone, "wm density") == "Physical density: 420\n"
    assert out_of(phone, "getprop ro.product.model") == "PhoneWorld\n"
    assert out_of(phone, "getprop ro.build.version.sdk") == "34\n"
    assert out_of(phone, "getprop no.such.prop") == "\n"
    assert "[ro.serialno]: [emulator-5554]" in out_of(phone, "getprop")


def test_uiautomator_dump(phone: VirtualPhone) -> None:
    assert out_of(phone, "uiautomator dump") == "UI hierchary dumped to: /sdcard/window_dump.xml\n"
    elements = parse_xml(phone.device.system.files["/sdcard/window_dump.xml"].content)
    assert "Clock" in [e.text for e in elements]
    out = out_of(phone, "uiautomator dump /dev/tty")
    assert out.endswith("</hierarchy>UI hierchary dumped to: /dev/tty\n")
    assert parse_xml(out[:out.rfind(">") + 1]) == elements


# --- settings and content providers -----------------------------------------------------------
def test_settings(phone: VirtualPhone) -> None:
    assert out_of(phone, "settings get global wifi_on") == "1\n"
    assert out_of(phone, "settings get secure nope") == "null\n"
    assert out_of(phone, "settings put global wifi_on 0; settings get global wifi_on") == "0\n"
    # stored only: WifiSettingsStore reads wifi_on at boot, the radio stays on
    assert phone.device.system.get_setting("global", "wifi_on") == "1"
    assert out_of(phone, "settings put system x 'a b'; settings get system x") == "a b\n"
    assert "x=a b\n" in out_of(phone, "settings list system")
    assert out_of(phone, "settings delete system x; settings delete system x") == \
        "Deleted 1 rows\nDeleted 0 rows\n"
    assert run(phone, "settings get bogus x")[0] == 255
    assert run(phone, "settings put global only_key")[0] == 255


def test_content_contacts(phone: VirtualPhone) -> None:
    uri = "content://com.android.contacts"
    assert out_of(phone, f"content query --uri {uri}/contacts") == "No result found.\n"
    phone.device.system.add_contact("Alan Turing")
    out_of(phone, f"content insert --uri {uri}/raw_contacts --bind account_type:s: "
                  "--bind account_name:s:")
    raw = out_of(phone, f"content query --uri {uri}/raw_contacts --projection _id "
                        "--sort '_id DESC'").splitlines()[0]
    assert raw == "Row: 0 _id=2"
    out_of(phone, f"content insert --uri {uri}/data --bind raw_contact_id:i:2 "
                  "--bind mimetype:s:vnd.android.cursor.item/name --bind 'data1:s:Ada Lovelace'")
    out_of(phone, f"content insert --uri {uri}/data --bind raw_contact_id:i:2 --bind "
                  "mimetype:s:vnd.android.cursor.item/phone_v2 --bind data1:s:555-0100")
    assert out_of(phone, f"content query --uri {uri}/contacts --projection _id:display_name") == \
        "Row: 0 _id=1, display_name=Alan Turing\nRow: 1 _id=2, display_name=Ada Lovelace\n"
    assert out_of(phone, f"content query --uri {uri}/data/phones --projection "
                         "contact_id:display_name:data1") == \
        "Row: 0 contact_id=2, display_name=Ada Lovelace, data1=555-0100\n"
    assert out_of(phone, f"content query --uri {uri}/contacts --projection display_name "
                         "--sort 'display_name ASC'") == \
        "Row: 0 display_name=Ada Lovelace\nRow: 1 display_name=Alan Turing\n"
    where = "--where \"display_name LIKE 'ada%' AND has_phone_number=1\""
    assert out_of(phone, f"content query --uri {uri}/contacts --projection _id {where}") == \
        "Row: 0 _id=2\n"
    assert phone.device.system.contact(2).phone == "555-0100"
    out_of(phone, f"content delete --uri {uri}/contacts --where '_id=1'")
    assert [c.name for c in phone.device.system.contacts] == ["Ada Lovelace"]
    code, _, err = run(phone, f"content query --uri {uri}/contacts --projection bogus")
    assert code == 1 and err.startswith("Error while accessing provider:com.android.contacts\n")
    assert run(phone, f"content query --uri {uri}/contacts --where 'nope=1'")[0] == 1
    assert run(phone, f"content insert --uri {uri}/data --bind raw_contact_id:i:99 "
                      "--bind mimetype:s:vnd.android.cursor.item/name --bind data1:s:X")[0] == 1
    assert run(phone, "content query --uri content://nope/x")[0] == 1


def test_content_settings(phone: VirtualPhone) -> None:
    out_of(phone, "content insert --uri content://settings/system --bind name:s:foo "
                  "--bind value:s:bar")
    assert out_of(phone, "content query --uri content://settings/system --projection "
                         "name:value --where \"name='foo'\"") == "Row: 0 name=foo, value=bar\n"


# --- dumpsys ----------------------------------------------------------------------------------
def test_dumpsys_window_and_activities(phone: VirtualPhone) -> None:
    window = out_of(phone, "dumpsys window")
    assert ("  mCurrentFocus=Window{" in window
            and f" u0 {LAUNCHER_PACKAGE}/{LAUNCHER_PACKAGE}.MainActivity}}\n" in window)
    out_of(phone, f"am start -n {CONTACTS}/.MainActivity")
    window = out_of(phone, "dumpsys window windows")
    assert f" u0 {CONTACTS}/{CONTACTS}.MainActivity}}\n" in window
    assert "  mFocusedApp=ActivityRecord{" in window
    activities = out_of(phone, "dumpsys activity activities")
    line = next(x for x in activities.splitlines() if "mResumedActivity:" in x)
    assert f" u0 {CONTACTS}/.MainActivity t" in line


def test_dumpsys_alarm(phone: VirtualPhone) -> None:
    set_alarm(phone, 7, 30)  # the phone's clock says 2026-10-15 09:30
    set_alarm(phone, 22, 5)
    set_alarm(phone, 12, 0)
    phone.device.system.alarms.update(3, enabled=False)
    out = out_of(phone, "dumpsys alarm")
    assert out.startswith("Current Alarm Manager state:\n")
    whens = [x.split("origWhen=")[1][:23] for x in out.splitlines() if "origWhen=" in x]
    # AOSP DeskClock: per enabled alarm a state change 2 h before it rings, plus the next
    # alarm's setAlarmClock (tests/real/test_alarms_android.py covers the rest)
    assert out.count("tag=*walarm*:change_state") == 2 and out.count("Alarm clock:") == 1
    assert "2026-10-15 20:05:00.000" in whens and "2026-10-16 05:30:00.000" in whens
    assert "2026-10-15 22:05:00.000" in whens and f" {CLOCK_PACKAGE}}}\n" in out
    assert not any(w[11:16] in ("10:00", "11:30", "12:00") for w in whens)  # 12:00 is off


# --- files ------------------------------------------------------------------------------------
def test_file_commands(phone: VirtualPhone) -> None:
    assert out_of(phone, "ls /sdcard") == "DCIM\nDocuments\nDownload\nPictures\n"
    out_of(phone, "mkdir -p /sdcard/a/b && touch /sdcard/a/b/t.txt && echo hi > /sdcard/a/h.txt")
    assert out_of(phone, "ls /storage/emulated/0/a") == "b\nh.txt\n"
    assert out_of(phone, "cd /sdcard/a; cat h.txt; pwd") == "hi\n/sdcard/a\n"
    assert run(phone, "mkdir /sdcard/a")[2] == "mkdir: '/sdcard/a': File exists\n"
    out_of(phone, "cp /sdcard/a/h.txt /sdcard/Download/ && mv /sdcard/a/h.txt /sdcard/a/g.txt")
    assert phone.device.system.files["/sdcard/Download/h.txt"].content == "hi\n"
    assert "/sdcard/a/h.txt" not in phone.device.system.files
    long = out_of(phone, "ls -l /sdcard/a").splitlines()
    assert long[0] == "total 2" and long[2].startswith("-rw-r--r-- 1 ") and \
        long[2].endswith(" 3 2026-10-15 09:30 g.txt")
    assert run(phone, "rm /sdcard/a")[2] == "rm: /sdcard/a: Is a directory\n"
    out_of(phone, "rm -r /sdcard/a; rm -f /sdcard/nope")
    assert run(phone, "ls /sdcard/a")[0] == 1 and "/sdcard/a/g.txt" not in phone.device.system.files
    assert run(phone, "rm /sdcard/nope")[2] == "rm: /sdcard/nope: No such file or directory\n"
    assert run(phone, "touch /data/x")[2] == "touch: '/data/x': Permission denied\n"
    assert run(phone, "rm -rf /")[2] == "rm: /: Read-only file system\n"
    out_of(phone, "echo tmp > /data/local/tmp/t; cat /data/local/tmp/t")
    assert "/data/local/tmp/t" not in phone.device.system.files
    assert out_of(phone, "echo -n a; echo -e 'b\\tc'; printf '%s=%03d\\n' x 7") == "ab\tc\nx=007\n"
    assert out_of(phone, "id").startswith("uid=2000(shell)")
    assert out_of(phone, "whoami") == "shell\n"
    assert run(phone, "reboot") == (0, "", "") and phone.reboots == 1


def test_sleep_and_date(phone: VirtualPhone) -> None:
    assert out_of(phone, "date") == "Thu Oct 15 09:30:00 UTC 2026\n"
    out_of(phone, "sleep 90")
    assert out_of(phone, "date +%H:%M:%S") == "09:31:30\n"
    assert out_of(phone, "sleep 0.5; date +%s") == "1792056690\n"


def test_sync_interface(phone: VirtualPhone) -> None:
    assert phone.write_file("/sdcard/Download/new/x.bin", b"\xff\x00", 0o100644, 1000) is None
    assert phone.stat("/sdcard/Download/new/x.bin") == (FILE_MODE, 2, 1000)
    assert phone.stat("/sdcard/Download/new")[0] == 0o040755
    assert phone.stat("/sdcard/nope") is None
    assert phone.read_file("/storage/emulated/0/Download/new/x.bin") == b"\xff\x00"
    assert [e[0] for e in phone.list_dir("/sdcard/Download") or []] == ["new"]
    assert phone.list_dir("/sdcard/Download/new/x.bin") is None
    assert phone.write_file("/sdcard/t.txt", "é\n".encode(), 0o100644, 0) is None
    assert phone.device.system.files["/sdcard/t.txt"].content == "é\n"
    assert phone.write_file("/system/x", b"", 0o100644, 0) == \
        "couldn't create file: Read-only file system"
    assert phone.read_file("/sdcard") is None
    assert phone.features == ["shell_v2", "cmd", "stat_v2", "ls_v2", "fixed_push_mkdir",
                              "abb_exec"]


def test_reset(phone: VirtualPhone) -> None:
    out_of(phone, "echo x > /sdcard/x.txt; settings put global wifi_on 0")
    out_of(phone, "screencap -p /sdcard/s.png")
    phone.reset()
    assert not phone.shell_log and phone.read_file("/sdcard/x.txt") is None
    assert phone.read_file("/sdcard/s.png") is None
    assert out_of(phone, "settings get global wifi_on") == "1\n"


# --- the shell log, exec, reboots ------------------------------------------------------------
def test_the_shell_log_keeps_only_the_newest_commands() -> None:
    assert VirtualPhone().shell_log.maxlen == SHELL_LOG_SIZE == 10_000
    with pytest.raises(ValueError, match=r"^shell_log_size=-1; accepted: a count >= 0$"):
        VirtualPhone(shell_log_size=-1)
    phone = VirtualPhone(shell_log_size=100)
    script = "".join(f": {i}\n" for i in range(10_000)).encode()
    phone.shell("sh", stdin=script[:1000])  # warm up
    gc.collect()
    before = len(gc.get_objects())
    assert phone.shell("sh", stdin=script) == (0, b"", b"")
    gc.collect()
    grown = len(gc.get_objects()) - before  # an unbounded log would keep 10,000 more lists
    log = list(phone.shell_log)
    assert len(log) == 100 and log[0] == [":", "9900"] and log[-1] == [":", "9999"]
    assert grown < 1_000, f"{grown} more objects after 10,000 commands"
    phone.reset()
    assert not phone.shell_log and phone.shell_log.maxlen == 100


def test_exec_runs_the_command_in_the_shells_place(phone: VirtualPhone) -> None:
    assert run(phone, "exec echo hi; echo never") == (0, "hi\n", "")
    code, out, _ = run(phone, "exec ls /nope; echo never")
    assert code == 1 and out == ""
    assert run(phone, "echo $(exec echo sub; echo no) after") == (0, "sub after\n", "")
    assert run(phone, "exec echo piped | cat; echo next") == (0, "piped\nnext\n", "")
    assert run(phone, "exec; echo still") == (0, "still\n", "")
    assert run(phone, "exec nosuch")[0] == 127


def test_boot_id_and_uptime(phone: VirtualPhone) -> None:
    assert out_of(phone, f"cat {BOOT_ID_PATH}") == phone.boot_id + "\n"
    assert uuid.UUID(phone.boot_id).version == 4
    assert out_of(phone, "cat /proc/uptime") == "3600.00 3600.00\n"  # booted an hour ago
    out_of(phone, "sleep 60")
    assert out_of(phone, "cat /proc/uptime") == "3660.00 3660.00\n"
    assert out_of(phone, f"cat {BOOT_ID_PATH}") == phone.boot_id + "\n"


def test_reboot_restarts_the_phone_and_keeps_its_data(phone: VirtualPhone) -> None:
    out_of(phone, f"am start -n {CONTACTS}/.MainActivity")
    phone.device.system.add_contact("Alan Turing")
    phone.device.system.clipboard = "copied"
    out_of(phone, "setprop debug.x 1; setprop persist.y 2; echo kept > /sdcard/k.txt; "
                  "settings put global wifi_on 0")
    first = phone.boot_id
    assert run(phone, "reboot") == (0, "", "")
    assert phone.boot_id != first and phone.reboots == 1
    assert out_of(phone, "cat /proc/uptime") == "0.00 0.00\n"
    assert LAUNCHER_PACKAGE in out_of(phone, "dumpsys window | grep mCurrentFocus")
    assert phone.device.system.clipboard == ""
    assert out_of(phone, "getprop debug.x; getprop persist.y") == "\n2\n"
    assert [c.name for c in phone.device.system.contacts] == ["Alan Turing"]
    assert out_of(phone, "cat /sdcard/k.txt; settings get global wifi_on") == "kept\n0\n"
    second = phone.boot_id
    assert run(phone, "svc power reboot userrequested") == (0, "", "")
    assert phone.boot_id != second and phone.reboots == 2
    for command in ("reboot bootloader", "svc power reboot recovery", "reboot -p"):
        code, _, err = run(phone, command)
        assert code == 1 and "virtual phone" in err and "not" in err, (command, err)
    assert phone.reboots == 2
    code, _, err = run(phone, "svc power")
    assert code == 1 and err.startswith("usage: svc wifi|bluetooth|data enable|disable\n")


def test_content_legacy_contacts_people(phone: VirtualPhone) -> None:
    """``content://contacts/people``, the Android 1.x API that ContactsProvider2 still
    serves (``LegacyApiSupport``)."""
    uri = "content://contacts/people"
    assert out_of(phone, f"content query --uri {uri}") == "No result found.\n"
    phone.device.system.contacts.new(name="Grace Hopper", phone="+1 555 0100",
                                     email="grace@navy.mil")
    out_of(phone, f"content insert --uri {uri} --bind 'name:s:Ada Lovelace' --bind starred:i:1")
    assert out_of(phone, f"content query --uri {uri} --projection _id:name:number:starred") == (
        "Row: 0 _id=1, name=Grace Hopper, number=+1 555 0100, starred=0\n"
        "Row: 1 _id=2, name=Ada Lovelace, number=NULL, starred=1\n")
    row = out_of(phone, f"content query --uri {uri}/1").removeprefix("Row: 0 ").rstrip("\n")
    assert [field.split("=")[0] for field in row.split(", ")] == list(PEOPLE_COLUMNS)
    assert "name=Grace Hopper" in row.split(", ")
    assert out_of(phone, f"content query --uri {uri} --where \"name LIKE 'ada%'\" "
                         "--projection _id") == "Row: 0 _id=2\n"
    code, _, err = run(phone, f"content insert --uri {uri}/1 --bind name:s:X")
    assert code == 1 and "Cannot insert into URI: content://contacts/people/1" in err
    out_of(phone, f"content delete --uri {uri}/1")
    assert [c.name for c in phone.device.system.contacts] == ["Ada Lovelace"]


def test_settings_the_provider_fills_at_first_boot(phone: VirtualPhone) -> None:
    assert out_of(phone, "settings get system screen_brightness_mode") == "0\n"
    assert "screen_brightness_mode=0\n" in out_of(phone, "settings list system")
    out_of(phone, "settings put system screen_brightness_mode 1")
    assert out_of(phone, "settings get system screen_brightness_mode") == "1\n"
