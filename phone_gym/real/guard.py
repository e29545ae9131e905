"""The safety guard: what an agent may do to a real phone. Default deny.

An episode may open and stay in the task's own apps (the template's apps, resolved to the
packages on this phone), the launcher and the system UI (``SYSTEM_PACKAGES``: the status
bar and shade, the keyboard, the permission dialogs); every other app is refused unless
the user widens the guard (``extra_packages``, or ``any_app=True``). Apps that spend money
or reach other people (``real.sensitive``: banks, wallets, SMS, chat, mail, social,
shopping, ride apps) stay blocked even then, unless the task's own apps include one and
the user opts in to it (``allow_sensitive``, by category or package). Taps on dangerous
screens (``real.screens``: factory reset, developer options, account removal, uninstalls,
payments) are refused before they are sent, unless the user allows the rule by name
(``allowed_screens``).

Every action passes ``SafetyGuard.check`` before anything is sent to the phone; a refused
action is a no-op step with ``info["action_error"]`` saying why, and the decision
(``Decision``) is ``info["guard"]`` and a log record (logger ``phone_gym.real.guard``).
After each step the env also checks the app in front: if the agent reached a refused app
some other way (a link, a notification), the guard sends the phone home.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..actions import BUTTONS, PhoneAction
from .commands import to_pixels
from .packages import LAUNCHER_PACKAGES
from .screens import RULE_NAMES, SCREEN_RULES, ScreenRule, matching_rule
from .sensitive import CATEGORIES, SENSITIVE_PACKAGES, category_of, check_opt_ins

log = logging.getLogger(__name__)

#: Packages that may be in the foreground whatever the guard allows: the system UI (status
#: bar, shade, keyguard), the framework's own dialogs, keyboards and the runtime-permission
#: dialogs (AOSP ``PermissionController``, Google's build of it).
SYSTEM_PACKAGES = frozenset({
    "com.android.systemui", "android", "com.google.android.inputmethod.latin",
    "com.android.inputmethod.latin", "com.samsung.android.honeyboard",
    "com.android.permissioncontroller", "com.google.android.permissioncontroller",
})

#: Called with the action and a context dict (``task_id``, ``step``, ``package``: the
#: foreground package, ``serial``); returns True/None to allow, False or a reason to veto.
ConfirmHook = Callable[[PhoneAction, Mapping[str, Any]], "bool | str | None"]
#: The actions whose touch point the screen rules look at.
POINTER = ("click", "double_click", "long_press", "drag")


@dataclass(frozen=True)
class Decision:
    """What the guard did: ``verdict`` "refused" (nothing was sent) or "sent home" (the app
    in front was left); ``rule`` names the rule ("app", "sensitive app", "screen: factory
    reset", "key", "text length", "confirm hook"); ``reason`` is the message."""

    verdict: str
    rule: str
    reason: str
    package: str | None = None

    def to_info(self) -> dict[str, Any]:
        return {"verdict": self.verdict, "rule": self.rule, "reason": self.reason,
                "package": self.package}

    def __str__(self) -> str:
        return self.reason


@dataclass(frozen=True)
class Screen:
    """The screen an action is checked against: the UI dump the agent acted on, its size in
    pixels and the focused window (``package/activity``)."""

    xml: str
    size: tuple[int, int]
    activity: str = ""


@dataclass
class SafetyGuard:
    """Limits on the actions sent to a real phone (see the module doc).

    - ``extra_packages``: apps allowed besides the task's own (never a sensitive one);
      ``any_app=True``: every app that is not sensitive.
    - ``allow_sensitive``: categories (``real.sensitive.CATEGORIES``: money, messaging,
      social, shopping, ride) or packages of sensitive apps the user allows, for tasks
      whose own apps include them.
    - ``blocked_packages``: apps never allowed, the task's own included.
    - ``sensitive``: package -> category (default ``SENSITIVE_PACKAGES``).
    - ``screen_rules`` (default ``real.screens.SCREEN_RULES``) and ``allowed_screens``:
      names of rules not to apply.
    - ``allowed_keys``: the buttons ``press`` may send (default: all of back, home, enter,
      recents); ``max_text_length``: the longest text ``type`` may send.
    - ``confirm``: a hook that sees each action before it is sent and may veto it.
    """

    extra_packages: Collection[str] = ()
    any_app: bool = False
    allow_sensitive: Collection[str] = ()
    blocked_packages: Collection[str] = ()
    sensitive: Mapping[str, str] = field(default_factory=lambda: dict(SENSITIVE_PACKAGES))
    screen_rules: Sequence[ScreenRule] = SCREEN_RULES
    allowed_screens: Collection[str] = ()
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
        for name in ("extra_packages", "blocked_packages", "allow_sensitive", "allowed_screens"):
            value = getattr(self, name)
            if isinstance(value, str) or not isinstance(value, Collection):
                raise ValueError(f"{name}={value!r}; accepted: a collection of strings, "
                                 f"e.g. {{{value!r}}}")
        self.allow_sensitive = check_opt_ins(self.allow_sensitive)
        names = {r.name for r in self.screen_rules}
        bad = sorted(set(self.allowed_screens) - names)
        if bad:
            raise ValueError(f"allowed_screens {bad}; accepted: {', '.join(sorted(names))}")
        if not all(isinstance(r, ScreenRule) for r in self.screen_rules):
            raise ValueError("screen_rules: accepted: a sequence of real.screens.ScreenRule")

    # --- apps ---------------------------------------------------------------------------
    def category(self, package: str) -> str | None:
        """The sensitive category of ``package`` (None: not sensitive)."""
        return category_of(package, self.sensitive)

    def opted_in(self, package: str) -> bool:
        category = self.category(package)
        return category is None or category in self.allow_sensitive or any(
            package == p or package.startswith(p + ".") for p in self.allow_sensitive)

    def refusal(self, package: str, task_packages: Collection[str] = ()) -> tuple[str, str] | None:
        """Why the agent may not open or stay in ``package`` during a task whose own apps
        are ``task_packages``, as ``(rule, reason)``; None when it may (see the module doc)."""
        if package in self.blocked_packages:
            return "app", f"{package} is in blocked_packages"
        category = self.category(package)
        if category is not None:
            if package in task_packages and self.opted_in(package):
                return None
            why = CATEGORIES.get(category, category)
            if package not in task_packages:
                return "sensitive app", (
                    f"{package} is a {category} app ({why}), blocked unless the task's own "
                    "apps include it and you opt in")
            return "sensitive app", (
                f"{package} is a {category} app ({why}); opt in with "
                f"SafetyGuard(allow_sensitive={{{category!r}}})")
        if package in task_packages or package in self.extra_packages or self.any_app:
            return None
        return "app", (f"{package} is not one of the task's apps; widen the guard with "
                       f"SafetyGuard(extra_packages={{{package!r}}}) or any_app=True")

    def foreground_allowed(self, package: str, task_packages: Collection[str] = ()) -> bool:
        """Whether the agent may stay in ``package`` (home screens and system UI always)."""
        if package in LAUNCHER_PACKAGES or package in SYSTEM_PACKAGES or not package:
            return True
        return self.refusal(package, task_packages) is None

    def task_refusal(self, task_packages: Collection[str]) -> str | None:
        """Why a task whose own apps are ``task_packages`` cannot run under this guard (a
        sensitive app not opted in, a blocked one), or None."""
        for package in task_packages:
            found = self.refusal(package, task_packages)
            if found is not None:
                return f"the safety guard refuses its app: {found[1]}"
        return None

    # --- actions ------------------------------------------------------------------------
    def check(self, action: PhoneAction, package: str | None, context: Mapping[str, Any], *,
              task_packages: Collection[str] = (), screen: Screen | None = None
              ) -> Decision | None:
        """The refusal of ``action`` (``package``: the app it opens or closes, if any; ``screen``:
        what a pointer action lands on), or None. Each refusal is logged."""
        decision = self._check(action, package, context, task_packages, screen)
        if decision is not None:
            log.info("safety guard on %s, step %s of %s: %s", context.get("serial"),
                     context.get("step"), context.get("task_id"), decision.reason)
        return decision

    def _check(self, action: PhoneAction, package: str | None, context: Mapping[str, Any],
               task_packages: Collection[str], screen: Screen | None) -> Decision | None:
        prefix = "blocked by the safety guard: "
        if action.type == "press" and action.button not in self.allowed_keys:
            return Decision("refused", "key", f"{prefix}key {action.button!r} is not allowed "
                            f"(allowed: {', '.join(self.allowed_keys) or 'none'})")
        if action.type in ("open_app", "close_app") and package is not None:
            found = self.refusal(package, task_packages)
            if found is not None:  # closing force-stops: another app's alarms would go
                verb = "opening" if action.type == "open_app" else "closing"
                return Decision("refused", found[0], f"{prefix}{verb} {action.app!r} "
                                f"({package}) is not allowed: {found[1]}", package)
        if action.type == "type" and len(action.text or "") > self.max_text_length:
            return Decision("refused", "text length", f"{prefix}text of {len(action.text or '')}"
                            f" characters is longer than max_text_length={self.max_text_length}")
        rule = self.screen_rule(action, screen)
        if rule is not None:
            return Decision("refused", f"screen: {rule.name}", (
                f"{prefix}the {action.type} lands on {rule.name} ({rule.why}); allow it with "
                f"SafetyGuard(allowed_screens={{{rule.name!r}}})"), context.get("package"))
        if self.confirm is not None:
            verdict = self.confirm(action, context)
            if verdict is False:
                return Decision("refused", "confirm hook",
                                f"{prefix}the confirm hook vetoed this action")
            if isinstance(verdict, str):
                return Decision("refused", "confirm hook", f"{prefix}{verdict}")
        return None

    def screen_rule(self, action: PhoneAction, screen: Screen | None) -> ScreenRule | None:
        """The screen rule a pointer ``action`` would break on ``screen`` (a drag: where it
        is dropped), or None."""
        rules = [r for r in self.screen_rules if r.name not in self.allowed_screens]
        if action.type not in POINTER or screen is None or not rules:
            return None
        x, y = action.point if action.type != "drag" else (action.x2 or 0, action.y2 or 0)
        return matching_rule(rules, screen.xml, to_pixels(x, y, screen.size), screen.activity)

    def left_app(self, package: str) -> Decision:
        """The decision to leave ``package``, which the agent reached some other way."""
        decision = Decision("sent home", "app", f"left {package}: the safety guard blocks it",
                            package)
        log.info("safety guard: %s", decision.reason)
        return decision


__all__ = ["CATEGORIES", "POINTER", "RULE_NAMES", "SCREEN_RULES", "SYSTEM_PACKAGES",
           "Decision", "SafetyGuard", "Screen", "ScreenRule"]
