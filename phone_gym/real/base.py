"""What the real-phone code needs from a connection to a phone: the ``Backend`` protocol.

``phone_gym.real.backend.AdbBackend`` implements it with adbutils (and ``U2Backend`` with
uiautomator2). Everything above it (``AdbState``, ``RealPhoneEnv``) talks to a backend only,
so tests can drive the very same code against the virtual adb device.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from PIL import Image

from ..verifiers.state import DeviceError

__all__ = ["Backend", "DeviceError", "SetupRefused", "ShellResult"]


class SetupRefused(DeviceError):
    """The phone cannot be put in the state a task's setup needs (it keeps a setting the
    shell may not change): ``RealPhoneEnv`` skips that template and draws another."""


@dataclass(frozen=True)
class ShellResult:
    """A shell command's exit status and its output (stdout and stderr together);
    ``stdout``: stdout alone where the transport keeps it apart (adb's shell protocol v2),
    else None."""

    returncode: int
    output: str
    stdout: str | None = None

    @property
    def ok(self) -> bool:
        return self.returncode == 0


class Backend(Protocol):
    """A connection to one phone. Every method raises ``DeviceError`` (never hangs past
    its timeout) when the phone is unreachable."""

    serial: str

    def shell(self, command: str, timeout: float | None = None) -> ShellResult:
        """Run ``command`` in the phone's shell (already quoted by the caller)."""
        ...

    def pull(self, path: str) -> bytes | None:
        """A file's bytes over sync, or None if it does not exist."""
        ...

    def push(self, data: bytes, path: str) -> None: ...

    def list_dir(self, path: str) -> list[str]:
        """Names of the regular files in a folder (sync LIST); empty if none."""
        ...

    def screenshot(self) -> Image.Image:
        """The screen as an RGB image at the phone's resolution."""
        ...

    def dump_ui(self) -> str:
        """The window hierarchy as ``uiautomator dump`` XML."""
        ...

    def window_size(self) -> tuple[int, int]:
        """``(width, height)`` of the screen in pixels."""
        ...
