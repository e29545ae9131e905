"""The safety guard: what an agent may do to a real phone.

Every action passes ``SafetyGuard.check`` before anything is sent to the phone; a vetoed
action is a no-op step with ``info["action_error"]`` saying why. After each step the env
also checks the foreground app: if the agent reached a blocked app some other way (a link,
a notification), the guard sends the phone home.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..actions import BUTTONS, PhoneAction
from .packages import LAUNCHER_PACKAGES

#: Packages that may be in the foreground whatever the guard allows (system UI, keyboard).
SYSTEM_PACKAGES = frozenset({"com.android.systemui", "android",
                             "com.google.android.inputmethod.latin"})

#: Called with the action and a context dict (``task_id``, ``step``, ``package``: the
#: foreground package, ``serial``); returns True/None to allow, False or a reason to veto.
ConfirmHook = Callable[[PhoneAction, Mapping[str, Any]], "bool | str | None"]

#: Apps that cost money or reach other people: blocked unless a user allows them.
DEFAULT_BLOCKED_PACKAGES: frozenset[str] = frozenset({
    "com.android.vending",                # Play Store: purchases, installs
    "com.google.android.dialer",          # Phone: calls
    "com.android.dialer",
    "com.google.android.apps.messaging",  # Messages: SMS to real people
    "com.google.android.gm",              # Gmail: mail to real people
})


@dataclass
class SafetyGuard:
    """Limits on the actions sent to a real phone.

    - ``blocked_packages``: apps the agent may not open or stay in (default: Play Store,
      Phone, Messages, Gmail).
    - ``allowed_packages``: when set, the only apps ``open_app`` may open (the launcher
      and system UI are always allowed in the foreground).
    - ``allowed_keys``: the buttons ``press`` may send (default: all of back, home, enter,
      recents).
    - ``max_text_length``: the longest text ``type`` may send.
    - ``confirm``: a hook that sees each action before it is sent and may veto it.
    """

    blocked_packages: Collection[str] = DEFAULT_BLOCKED_PACKAGES
    allowed_packages: Collection[str] | None = None
    allowed_keys: Collection[str] = field(default_factory=lambda: tuple(BUTTONS))
    max_text_length: int = 200
    confirm: ConfirmHook | None = None

    def __post_init__(self) -> None:
        unknown = [k for k in self.allowed_keys if k not in BUTTONS]
        if unknown:
            raise ValueError(f"allowed_keys {unknown}; accepted: {', '.join(BUTTONS)}")
        if not isinstance(self.max_text_length, int) or self.max_text_length < 0:
            raise ValueError(f"max_text_length={self.max_text_length!r}; accepted: int >= 0")
        if self.confirm is not None and not callable(self.confirm):
            raise ValueError("confirm must be a callable (action, context) -> bool | str | None")

    def package_allowed(self, package: str) -> bool:
        if package in self.blocked_packages:
            return False
        return self.allowed_packages is None or package in self.allowed_packages

    def foreground_allowed(self, package: str) -> bool:
        """Whether the agent may stay in ``package`` (home screens and system UI always)."""
        if package in LAUNCHER_PACKAGES or package in SYSTEM_PACKAGES or not package:
            return True
        return self.package_allowed(package)

    def check(self, action: PhoneAction, package: str | None,
              context: Mapping[str, Any]) -> str | None:
        """Why ``action`` may not be sent (``package``: the app it opens, if any), or None."""
        if action.type == "press" and action.button not in self.allowed_keys:
            return (f"blocked by the safety guard: key {action.button!r} is not allowed "
                    f"(allowed: {', '.join(self.allowed_keys) or 'none'})")
        if action.type == "open_app" and package is not None and not self.package_allowed(
                package):
            return (f"blocked by the safety guard: opening {action.app!r} ({package}) is not "
                    "allowed")
        if action.type == "type" and len(action.text or "") > self.max_text_length:
            return (f"blocked by the safety guard: text of {len(action.text or '')} "
                    f"characters is longer than max_text_length={self.max_text_length}")
        if self.confirm is not None:
            verdict = self.confirm(action, context)
            if verdict is False:
                return "blocked by the safety guard: the confirm hook vetoed this action"
            if isinstance(verdict, str):
                return f"blocked by the safety guard: {verdict}"
        return None
