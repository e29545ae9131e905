"""What every group of the phone's shell commands shares: the ``Commands`` base class and a
few argument helpers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..sh import Command

if TYPE_CHECKING:
    from ...world.device import Device
    from ..fs import Storage
    from ..phone import VirtualPhone


class Commands:
    """A group of shell commands run on one phone: method ``cmd_NAME(args, io)`` is command
    ``NAME``; it writes to ``io`` and returns the exit status."""

    def __init__(self, phone: VirtualPhone) -> None:
        self.phone = phone

    @property
    def device(self) -> Device:
        return self.phone.device

    @property
    def fs(self) -> Storage:
        return self.phone.fs

    def commands(self) -> dict[str, Command]:
        """The group's commands by name."""
        return {name.removeprefix("cmd_"): getattr(self, name) for name in dir(type(self))
                if name.startswith("cmd_")}


def split_flags(args: Sequence[str]) -> tuple[set[str], list[str]]:
    """Single-letter flags (``-la`` is ``l`` and ``a``) and the other arguments."""
    flags: set[str] = set()
    rest: list[str] = []
    for k, arg in enumerate(args):
        if arg == "--":
            rest.extend(args[k + 1:])
            break
        if arg.startswith("-") and len(arg) > 1:
            flags.update(arg[1:])
        else:
            rest.append(arg)
    return flags, rest


def strip_user(args: Sequence[str]) -> list[str]:
    """``args`` without ``--user N`` (every command here acts for user 0)."""
    out: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg == "--user":
            skip = True
        else:
            out.append(arg)
    return out
