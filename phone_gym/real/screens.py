"""Screen rules: dangerous places on a real phone that an agent could reach by tapping.

The safety guard (``SafetyGuard``) reads the UI dump the agent acted on (and the focused
window's component) before a pointer action is sent, finds what the tap would press and
refuses the step when a rule matches: nothing reaches the phone.

What a tap presses (``tap_target``): the deepest node under the point, then its nearest
clickable ancestor (Android delivers a click to the clickable view that holds the touch:
AOSP ``ViewGroup.dispatchTouchEvent``). Its texts are the ``text`` and ``content-desc`` of
that view and of the nodes inside it (a Settings row is a clickable ``LinearLayout`` whose
title is a child ``TextView``: AOSP ``Preference`` layouts); a clickable view that covers
most of the screen lends only the texts under the point.

A rule (``ScreenRule``) matches when the pressed texts or resource ids match it, and, where
it names them, the package of the pressed node and a text somewhere on the screen (a
dialog's title: "Remove account?"); or when the focused window is one of its activities
(every tap there but ``except_texts``). The default rules (``SCREEN_RULES``) follow AOSP
Settings and PackageInstaller: factory reset (``MainClear``/``MainClearConfirm``: buttons
``initiate_main_clear``/``execute_main_clear``, "Erase all data (factory reset)"), developer options
("Build number", tapped seven times, turns them on: ``BuildNumberPreferenceController``),
account removal (``RemoveAccountPreferenceController``: "Remove account"), uninstalls and
app data (App info's "Uninstall", "Clear storage"; ``UninstallerActivity``'s "Do you want to
uninstall this app?") and payments.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .alarms import UINode, read_tree

#: The share of the screen above which a clickable view lends only the texts under the point.
LARGE_TARGET = 0.5
SETTINGS = ("com.android.settings", "com.samsung.android.settings")
INSTALLERS = ("com.android.packageinstaller", "com.google.android.packageinstaller")


@dataclass(frozen=True)
class ScreenRule:
    """A dangerous place (see the module doc): ``texts`` (regular expressions matched,
    whole and case-insensitively, against each pressed text), ``ids`` (resource-id entry
    names, after ``:id/``), ``packages`` (the pressed node's package, or a package it sits
    under; empty: any), ``screen`` (expressions one of which some text on the screen must
    match; empty: no condition), ``activities`` (expressions searched in the focused
    window's ``package/activity``: every tap there is refused but on ``except_texts``)."""

    name: str
    why: str
    texts: tuple[str, ...] = ()
    ids: tuple[str, ...] = ()
    packages: tuple[str, ...] = ()
    screen: tuple[str, ...] = ()
    activities: tuple[str, ...] = ()
    except_texts: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for pattern in (*self.texts, *self.screen, *self.activities, *self.except_texts):
            re.compile(pattern)  # a bad expression fails where the rule is made


CANCEL = (r"cancel", r"no", r"back", r"don.t allow", r"deny", r"close", r"not now")
PAY_WORDS = (r"(pay|buy|purchase|subscribe|donate|checkout|check out|book now|order now)\b.*",
             r"place (your )?order\b.*", r"(confirm|complete) (and pay|payment|purchase|order"
             r"|transfer|booking)\b.*", r"(send|transfer) money\b.*", r"1-tap buy")

#: The rules a ``SafetyGuard`` applies unless told otherwise (see the module doc).
SCREEN_RULES: tuple[ScreenRule, ...] = (
    ScreenRule("factory reset", "it erases the phone",
               texts=(r"erase all data( \(factory reset\))?", r"factory (data )?reset",
                      r"reset (phone|tablet|device)", r"delete all data", r"erase everything",
                      r"erase (phone|esim.*)"),
               ids=("initiate_main_clear", "execute_main_clear", "initiate_master_clear",
                    "execute_master_clear")),
    ScreenRule("developer options", "developer options change how the phone works",
               texts=(r"developer options", r"build number", r"usb debugging",
                      r"wireless debugging", r"oem unlocking", r"revoke usb debugging.*"),
               packages=SETTINGS, activities=(r"DevelopmentSettings",),
               except_texts=CANCEL + (r"navigate up",)),
    ScreenRule("account removal", "it removes an account from the phone",
               texts=(r"remove account",), ids=("remove_account",)),
    ScreenRule("account removal", "it removes an account from the phone",
               texts=(r"remove( account)?", r"ok", r"yes"),
               screen=(r"remove account\??", r"removing this account.*")),
    ScreenRule("uninstall", "it uninstalls, disables or stops an app, or wipes its data",
               texts=(r"uninstall( updates)?", r"disable( app)?", r"clear (storage|data|all "
                      r"data|cache and data)", r"delete app data", r"force stop"),
               ids=("uninstall_button", "clear_storage_button"),
               packages=SETTINGS + INSTALLERS + ("com.google.android.apps.nexuslauncher",
                                                 "com.android.launcher3")),
    ScreenRule("uninstall", "it confirms an uninstall",
               texts=(r"ok", r"uninstall", r"yes", r"delete"),
               screen=(r"do you want to uninstall this app\??", r"uninstall .*\?",
                       r"do you want to (replace|uninstall) .*")),
    ScreenRule("uninstall", "it confirms an uninstall", activities=(
        r"packageinstaller/.*Uninstall",), except_texts=CANCEL),
    ScreenRule("payment", "it pays or buys", texts=PAY_WORDS),
    ScreenRule("payment", "it confirms a payment",
               texts=(r"confirm", r"continue", r"ok", r"yes", r"submit", r"send"),
               screen=(r"confirm (payment|purchase|order|transfer)\??",
                       r"(payment|purchase) (summary|details|method)",
                       r"enter (your )?(payment )?pin")),
)
#: The names of the default rules.
RULE_NAMES: tuple[str, ...] = tuple(dict.fromkeys(r.name for r in SCREEN_RULES))


@dataclass(frozen=True)
class Target:
    """What a tap presses: the pressed node's texts, resource-id entry names and package."""

    texts: tuple[str, ...]
    ids: tuple[str, ...]
    package: str


def _entry(rid: str) -> str:
    return rid.rsplit(":id/", 1)[-1] if ":id/" in rid else rid


def _inside(node: UINode, x: int, y: int) -> bool:
    x0, y0, x1, y1 = node.bounds
    return x0 <= x < x1 and y0 <= y < y1


def tap_target(root: UINode, x: int, y: int) -> Target | None:
    """What a tap at pixel ``(x, y)`` presses in the dump rooted at ``root`` (see the
    module doc), or None when no node is there."""
    hit: UINode | None = None
    for node in root.walk():  # document order: a later node under the point is on top
        if node.parent is not None and _inside(node, x, y):
            hit = node
    if hit is None:
        return None
    chain = [hit, *hit.ancestors()]
    k = next((i for i, n in enumerate(chain) if n.flag("clickable")), 0)
    target = chain[k]
    x0, y0, x1, y1 = target.bounds
    sx0, sy0, sx1, sy1 = next(iter(root.children), root).bounds
    screen = max(1, (sx1 - sx0) * (sy1 - sy0))
    large = (x1 - x0) * (y1 - y0) > LARGE_TARGET * screen
    members = (chain[:k] or [hit]) if large else list(target.walk())
    texts = tuple(t for n in members for t in (n.text.strip(), n.attrs.get(
        "content-desc", "").strip()) if t)
    ids = tuple(_entry(n.rid) for n in members if n.rid)
    return Target(texts, ids, target.attrs.get("package", ""))


def _under(package: str, packages: Sequence[str]) -> bool:
    return any(package == p or package.startswith(p + ".") for p in packages)


def _matches(patterns: Sequence[str], texts: Sequence[str]) -> bool:
    return any(re.fullmatch(p, " ".join(t.split()), re.IGNORECASE | re.DOTALL)
               for p in patterns for t in texts)


def screen_texts(root: UINode) -> tuple[str, ...]:
    return tuple(t for n in root.walk() for t in (n.text.strip(),
                                                  n.attrs.get("content-desc", "").strip()) if t)


def matching_rule(rules: Sequence[ScreenRule], xml: str, point: tuple[int, int],
                  activity: str = "") -> ScreenRule | None:
    """The first of ``rules`` that a tap at pixel ``point`` on the screen of UI dump
    ``xml`` (``activity``: the focused window's ``package/activity``) would break, or None.
    A dump that cannot be read matches nothing here (the guard refuses it itself)."""
    root = read_tree(xml)
    target = tap_target(root, *point)
    everything: tuple[str, ...] | None = None
    for rule in rules:
        if rule.activities and activity and any(re.search(p, activity)
                                                for p in rule.activities):
            if target is None or not _matches(rule.except_texts, target.texts):
                return rule
        if target is None or not (rule.texts or rule.ids):
            continue
        if rule.packages and not _under(target.package, rule.packages):
            continue
        if not (_matches(rule.texts, target.texts) or set(rule.ids) & set(target.ids)):
            continue
        if rule.screen:
            everything = screen_texts(root) if everything is None else everything
            if not _matches(rule.screen, everything):
                continue
        return rule
    return None
