"""The commands of the virtual phone's shell, in groups of one concern each.

Each group is a ``Commands`` subclass whose ``cmd_NAME`` methods are shell commands:

- ``coreutils``: toybox-like text and file commands (``echo``, ``grep``, ``ls``, ``cp``...)
- ``screen``: ``input`` events; ``screencap``, ``uiautomator dump`` and ``wm``
- ``activity``: ``am``, ``monkey`` and ``pm`` (the packages they know are in ``packages``,
  which also dumps ``dumpsys package``)
- ``processes``: ``ps`` and ``pidof`` over the phone's process table
- ``network``: ``ifconfig`` and ``ip`` (the Wi-Fi interface and its address)
- ``logcat``: ``logcat`` and ``log`` over the phone's log buffers (``logd``)
- ``ime``: the input methods (``ime``); ADBKeyboard's broadcasts, which ``am`` hands it
- ``system``: ``getprop``, ``settings``, ``sleep``, ``date``, ``reboot``...
- ``services``: ``cmd`` (wifi, bluetooth_manager, connectivity, uimode, notification's
  ``set_dnd``, statusbar; ``cmd notification``'s other verbs are in ``notification``) and
  ``svc``
- ``dumpsys``: the system services' dumps (``notification``'s is in ``notification``)
- ``content``: the content providers: contacts and settings there, SMS, call log and calendar
  in ``providers`` (their SQL is in ``sql``)

Nothing is ever evaluated by Python or run on the host: every command is a method.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..sh import Command
from .activity import Activities
from .base import Commands
from .content import Content
from .coreutils import Coreutils
from .dumpsys import Dumpsys
from .ime import Ime
from .logcat import Logcat
from .network import Network
from .processes import Processes
from .screen import Screen
from .services import Services
from .system import System

if TYPE_CHECKING:
    from ..phone import VirtualPhone

GROUPS: tuple[type[Commands], ...] = (Coreutils, Screen, Activities, Processes, Network, Ime,
                                      System, Services, Dumpsys, Content, Logcat)


def commands_of(phone: VirtualPhone) -> dict[str, Command]:
    """Every command of ``phone``'s shell, by name."""
    return {name: command for group in GROUPS for name, command in group(phone).commands().items()}


__all__ = ["GROUPS", "Commands", "commands_of"]
