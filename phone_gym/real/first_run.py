"""What a reset does so that the task's apps open on their own screens on a real phone:
grant their runtime permissions, and dismiss first-run screens (``real.profile``: the
permissions each app needs, the first-run rules).

``grant_needed`` reads the app's permissions from ``dumpsys package PKG`` (AOSP
``Settings.dumpPackageLPr``: ``requested permissions:`` and, per user, ``runtime
permissions:`` lines ``NAME: granted=BOOL, ...``) and runs ``pm grant PKG NAME`` for each
needed one the app requests and does not hold: only those, as ``pm grant`` refuses a
permission a package does not request (``SecurityException``). A grant the phone refuses
is logged and left (its prompt is then a first-run screen).

``dismiss_first_run`` reads the UI (the backend's own dump) and, while a rule of the
profile matches, taps that rule's button with ``input tap``, up to ``MAX_TAPS`` times.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence

from ..verifiers.state import DeviceError
from .alarms import UINode, read_tree
from .profile import FirstRunRule
from .state import AdbState

log = logging.getLogger(__name__)

#: The most first-run screens dismissed for one app at a reset.
MAX_TAPS = 4
_PERMISSION = re.compile(r"^\s+([\w.]+): granted=(true|false)")


def parse_permissions(output: str) -> tuple[set[str], dict[str, bool]]:
    """``(requested, runtime)`` from ``dumpsys package PKG`` output: the requested
    permissions, and each runtime permission of user 0 with whether it is granted."""
    requested: set[str] = set()
    runtime: dict[str, bool] = {}
    section = ""
    for line in output.splitlines():
        text = line.strip()
        if text.endswith("permissions:"):
            section = text
            continue
        name = text.split(":", 1)[0].strip()
        if section == "requested permissions:" and re.fullmatch(r"[\w.]+", name):
            requested.add(name)  # a line may go on: ": restricted=true"
        elif section == "runtime permissions:" and (m := _PERMISSION.match(line)):
            runtime.setdefault(m.group(1), m.group(2) == "true")
        elif text and not text.startswith(("android.", "com.")) and ":" in text:
            section = ""
    return requested, runtime


def grant_needed(state: AdbState, package: str, needed: Iterable[str]) -> list[str]:
    """Grant ``package`` those of ``needed`` it requests and lacks (see the module doc);
    the permissions granted."""
    requested, runtime = parse_permissions(state.run("dumpsys", "package", package))
    granted = []
    for permission in needed:
        if permission not in requested or runtime.get(permission, True):
            continue
        try:
            state.run_checked("pm", "grant", package, permission)
        except DeviceError as exc:
            log.warning("could not grant %s to %s: %s", permission, package, exc)
            continue
        granted.append(permission)
    return granted


def _entry(node: UINode) -> str:
    return node.rid.rsplit(":id/", 1)[-1] if ":id/" in node.rid else ""


def _matches(patterns: Sequence[str], text: str) -> bool:
    return any(re.fullmatch(p, text.strip(), re.IGNORECASE) for p in patterns)


def first_run_tap(rules: Sequence[FirstRunRule], xml: str) -> tuple[FirstRunRule, UINode] | None:
    """The rule whose first-run screen the dump ``xml`` shows and the node to tap, or None."""
    nodes = list(read_tree(xml).walk())
    for rule in rules:
        shown = [n for n in nodes if n.attrs.get("package") in rule.packages]
        if not shown:
            continue
        if rule.signs and not any(_matches(rule.signs, n.text) for n in shown):
            continue
        button = next((n for name in rule.tap_ids for n in shown if _entry(n) == name), None)
        if button is None:
            button = next((n for n in shown if n.text and _matches(rule.tap_texts, n.text)),
                          None)
        if button is not None:
            return rule, button
    return None


def dismiss_first_run(state: AdbState, rules: Sequence[FirstRunRule]) -> list[str]:
    """Dismiss the first-run screens on the phone's screen (see the module doc); the names
    of the rules applied."""
    done: list[str] = []
    for _ in range(MAX_TAPS):
        found = first_run_tap(rules, state.dump_ui())
        if found is None:
            break
        rule, node = found
        x0, y0, x1, y1 = node.bounds
        state.run_checked("input", "tap", str((x0 + x1) // 2), str((y0 + y1) // 2))
        log.info("dismissed %s on %s (tapped %r)", rule.name, state.backend.serial,
                 node.text or node.rid)
        done.append(rule.name)
    return done
