"""Notifications from the shell: ``cmd notification post`` and ``dumpsys notification``.

``post`` follows AOSP ``NotificationShellCmd.doNotify`` (Android 10+): options ``-v``, ``-t
TITLE``, ``-i``/``-I ICONSPEC``, ``-S STYLE`` (with ``--bigtext``, ``--line``,
``--message``, ``--conversation``), then ``TAG TEXT``; it prints ``posting:`` and the
notification, and posts it as the shell package (``com.android.shell``, id 1138, channel
``shellcmd``), replacing the shell's notification with the same tag. Its exit status is 0
even for a usage or an error line, as ``onCommand`` returns 0. A content intent (``-c``) is
refused (not modelled).

``dump`` prints ``NotificationManagerService.dumpImpl``'s ``Notification List``: each
``NotificationRecord.dump`` (the ``toString`` header, ``uid``, ``key``..., the notification
with its ``extras``: ``android.title=String (...)`` and ``android.text=String (...)``, or
``String [length=N]`` unless ``--noredact``), newest first (``NotificationComparator`` ranks
notifications of equal importance by recency).
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...verifiers.state import SHELL_PACKAGE
from ...world.state import package_of
from ...world.system import Notification
from ..fs import epoch
from ..sh import IO
from .packages import installed

if TYPE_CHECKING:
    from ..phone import VirtualPhone

NOTIFICATION_ID = 1138  # NotificationShellCmd.NOTIFICATION_ID
CHANNEL_ID = "shellcmd"
SHELL_UID = 2000
USAGE = ("usage: cmd notification SUBCMD [args]\n\nSUBCMDs:\n"
         "  allow_listener COMPONENT [user_id (current user if not specified)]\n"
         "  disallow_listener COMPONENT [user_id (current user if not specified)]\n"
         "  allow_assistant COMPONENT [user_id (current user if not specified)]\n"
         "  remove_assistant COMPONENT [user_id (current user if not specified)]\n"
         "  allow_dnd PACKAGE [user_id (current user if not specified)]\n"
         "  disallow_dnd PACKAGE [user_id (current user if not specified)]\n"
         "  suspend_package PACKAGE\n  unsuspend_package PACKAGE\n"
         "  reset_assistant_user_set [user_id (current user if not specified)]\n"
         "  get_approved_assistant [user_id (current user if not specified)]\n"
         "  post [--help | flags] TAG TEXT")
NOTIFY_USAGE = ("usage: cmd notification post [flags] <tag> <text>\n\nflags:\n  -h|--help\n"
                "  -v|--verbose\n  -t|--title <text>\n  -i|--icon <iconspec>\n"
                "  -I|--large-icon <iconspec>\n  -S|--style <style> [styleargs]\n"
                "  -c|--content-intent <intentspec>\n\nstyles: (default none)\n  bigtext\n"
                "  bigpicture --picture <iconspec>\n  inbox --line <text> --line <text> ...\n"
                "  messaging --conversation <title> --message <who>:<text> ...\n  media\n\n"
                "an <iconspec> is one of\n  file:///data/local/tmp/<img.png>\n"
                "  content://<provider>/<path>\n  @[<package>:]drawable/<img>\n"
                "  data:base64,<B64DATA==>\n\n"
                "an <intentspec> is (broadcast|service|activity) <args>\n"
                "  <args> are as described in `am start`")
ICON_PREFIXES = ("/", "http:", "https:", "content:", "file:", "android.resource:", "@", "data:")
STYLES = ("bigtext", "bigpicture", "inbox", "messaging", "media")
#: Style options and the style each needs.
STYLE_OPTIONS = {"--bigText": "bigtext", "--bigtext": "bigtext", "--big-text": "bigtext",
                 "--picture": "bigpicture", "--line": "inbox", "--message": "messaging",
                 "--conversation": "messaging"}


class ShellArgs:
    """Android's ``ShellCommand`` argument reader (``getNextOption``: ``-tX`` is ``-t``
    with ``X``; the first argument without a dash, or ``--``, ends the options)."""

    def __init__(self, args: Sequence[str]) -> None:
        self.args = list(args)
        self.pos = 0
        self.data: str | None = None

    def next_option(self) -> str | None:
        if self.data is not None:
            raise ValueError(f'No argument expected after "{self.args[self.pos - 1]}"')
        if self.pos >= len(self.args) or not self.args[self.pos].startswith("-"):
            return None
        arg = self.args[self.pos]
        self.pos += 1
        if arg == "--":
            return None
        if len(arg) > 2 and arg[1] != "-":
            self.data = arg[2:]
            return arg[:2]
        return arg

    def next_arg(self) -> str | None:
        if self.data is not None:
            arg, self.data = self.data, None
            return arg
        if self.pos < len(self.args):
            self.pos += 1
            return self.args[self.pos - 1]
        return None

    def next_required(self) -> str:
        arg = self.next_arg()
        if arg is None:
            raise ValueError(f'Argument expected after "{self.args[self.pos - 1]}"')
        return arg

    def peek(self) -> str | None:
        return self.args[self.pos] if self.pos < len(self.args) else None


#: Subcommands about policies PhoneWorld does not model: accepted, nothing changes.
POLICY_COMMANDS = ("allow_listener", "disallow_listener", "allow_assistant",
                   "disallow_assistant", "remove_assistant", "allow_dnd", "disallow_dnd",
                   "suspend_package", "unsuspend_package", "distract_package",
                   "reset_assistant_user_set")


def cmd_notification(phone: VirtualPhone, args: list[str], io: IO) -> int:
    """``cmd notification SUBCMD``: ``post``/``notify``; no subcommand, ``help`` or ``-h``
    print the usage and an unknown one ``Unknown command`` (``handleDefaultCommands``:
    status 255)."""
    verb = args[0].replace("-", "_") if args else None
    if verb in (None, "help", "_h"):
        io.print(USAGE)
        return 255
    if verb in POLICY_COMMANDS:
        return 0
    if verb == "get_approved_assistant":
        io.print("null")
        return 0
    if verb not in ("post", "notify"):
        io.print(f"Unknown command: {args[0]}")
        return 255
    try:
        post(phone, ShellArgs(args[1:]), io)
    except ValueError as exc:
        io.print(f"Error occurred. Check logcat for details. {exc}")
    return 0


def post(phone: VirtualPhone, reader: ShellArgs, io: IO) -> None:
    """``NotificationShellCmd.doNotify``."""
    title, verbose, style = "", False, ""
    while (opt := reader.next_option()) is not None:
        if opt in ("-v", "--verbose"):
            verbose = True
        elif opt in ("-t", "--title"):
            title = reader.next_required()
        elif opt in ("-i", "--icon", "-I", "--large-icon", "--largeicon"):
            spec = reader.next_required()
            if not spec.startswith(ICON_PREFIXES):
                io.print(f"error: invalid icon: {spec}")
                return
        elif opt in ("-S", "--style"):
            style = reader.next_required().lower()
            if style not in STYLES:
                raise ValueError(f"unrecognized notification style: {style}")
            if style == "messaging" and reader.peek() == "--user":
                reader.next_arg()
                reader.next_required()
        elif opt in STYLE_OPTIONS:
            if style != STYLE_OPTIONS[opt]:
                raise ValueError(f"{opt} requires --style {STYLE_OPTIONS[opt]}")
            reader.next_required()
        elif opt in ("-c", "--content-intent", "--intent"):
            raise ValueError("content intents are not modelled by the virtual phone")
        else:  # -h, --help, --wtf and anything else
            io.print(NOTIFY_USAGE)
            return
    tag, text = reader.next_arg(), reader.next_arg()
    if tag is None or text is None:
        io.print(NOTIFY_USAGE)
        return
    io.print(f"posting:\n  {notification_text(CHANNEL_ID)}")
    table = phone.device.system.notifications
    old = table.first(app=SHELL_PACKAGE, tag=tag)
    if old is not None:  # same package, tag and id: the notification is replaced in place
        record = table.update(old.id, title=title, text=text)
    else:
        record = table.new(app=SHELL_PACKAGE, title=title, text=text, tag=tag)
    if verbose:
        io.print("posted: ")
        io.print("\n".join(record_lines(phone, record, "  ", redact=False)))


def notification_text(channel: str) -> str:
    """``Notification.toString`` of a plain notification on ``channel``."""
    return (f"Notification(channel={channel} shortcut=null contentView=null vibrate=null "
            "sound=null defaults=0x0 flags=0x0 color=0x00000000 vis=PRIVATE)")


def identity(phone: VirtualPhone, n: Notification) -> tuple[str, int, int, str]:
    """``(package, id, uid, channel)`` of a notification as the phone reports it."""
    package = package_of(phone.device, n.app)
    if package == SHELL_PACKAGE:
        return package, NOTIFICATION_ID, SHELL_UID, CHANNEL_ID
    known = installed(phone).get(package)  # the uid ``dumpsys package`` reports for it
    uid = known.uid if known is not None else 10099
    return package, n.id, uid, "miscellaneous"


def record_lines(phone: VirtualPhone, n: Notification, prefix: str, *,
                 redact: bool) -> list[str]:
    """``NotificationRecord.dump`` of ``n`` (the lines tools read)."""
    package, nid, uid, channel = identity(phone, n)
    tag = n.tag or "null"
    key = f"0|{package}|{nid}|{tag}|{uid}"
    inner, deep = prefix + "  ", prefix * 2 + "    "
    when = epoch(phone.device.system.now) * 1000

    def extra(name: str, value: str) -> str:
        shown = f"[length={len(value)}]" if redact else f"({value})"
        return f"{deep}    {name}=String {shown}"

    return [
        f"{prefix}NotificationRecord(0x{hash_of(key):08x}: pkg={package} user=UserHandle{{0}} "
        f"id={nid} tag={tag} importance=3 key={key}: {notification_text(channel)})",
        f"{inner}uid={uid} userId=0", f"{inner}opPkg={package}",
        f"{inner}icon=Icon(typ=RESOURCE pkg={package} id=0x0108008a)",
        f"{inner}flags=0x0", f"{inner}originalFlags=0x0", f"{inner}pri=0", f"{inner}key={key}",
        f"{inner}seen=false", f"{inner}groupKey={key}", f"{inner}notification=",
        f"{deep}fullscreenIntent=null", f"{deep}contentIntent=null", f"{deep}deleteIntent=null",
        f"{deep}number=0", f"{deep}groupAlertBehavior=0", f"{deep}when={when}",
        f"{deep}tickerText=null", f"{deep}vis=0", f"{deep}contentView=null",
        f"{deep}bigContentView=null", f"{deep}headsUpContentView=null",
        f"{deep}color=0x00000000", f"{deep}timeout=0", f"{deep}extras={{",
        extra("android.title", n.title), f"{deep}    android.reduced.images=Boolean (true)",
        extra("android.text", n.text), f"{deep}    android.showWhen=Boolean (true)",
        f"{deep}}}",
        f"{inner}publicNotification=", f"{deep}None",
        f"{inner}mImportance=DEFAULT", f"{inner}mCreationTimeMs={when}",
        f"{inner}effectiveNotificationChannel=NotificationChannel{{mId='{channel}', "
        f"mImportance=3}}",
    ]


def dump(phone: VirtualPhone, args: Sequence[str]) -> str:
    """``dumpsys notification [--noredact]``."""
    records = list(reversed(phone.device.system.notifications.values()))
    lines = ["Current Notification Manager state:"]
    if records:
        lines.append("  Notification List:")
        for n in records:
            lines += record_lines(phone, n, "    ", redact="--noredact" not in args)
        lines.append("  ")
    lines += ["  mUseAttentionLight=true", "  mHasLight=true", "  mNotificationPulseEnabled=false",
              "  mSoundNotificationKey=null", "  mVibrateNotificationKey=null",
              "  mDisableNotificationEffects=null", "  mCallState=CALL_STATE_IDLE",
              "  mSystemReady=true", "  mMaxPackageEnqueueRate=5.0", "  hideSilentStatusBar=false"]
    return "\n".join(lines) + "\n"


def hash_of(text: str) -> int:
    """A stable identity hash (as ``System.identityHashCode`` prints)."""
    return zlib.crc32(text.encode()) & 0x0FFFFFFF
