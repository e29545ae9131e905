"""Record traces from a phone over adb (``phone-gym record --real``).

At each change the recorder writes the screen (``screencap -p``), the UI hierarchy
(``uiautomator dump``, through ``AdbBackend.dump_ui``), the app in front and its activity
(``dumpsys window displays``: ``mCurrentFocus=Window{HASH uUSER PACKAGE/ACTIVITY}``, as
``real.backend.FOCUS_COMMAND`` reads it) and the action that led there: given (``capture``'s
argument, or ``drive`` running a list of actions through ``real.commands.to_commands``, the
same quoted shell commands ``RealPhoneEnv`` sends) or inferred from the two dumps
(``watch``, while a person uses the phone; see ``trace.infer_action``).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from ..actions import PhoneAction, to_action
from ..real.backend import FOCUS_COMMAND, focus_or_first_node
from ..real.base import Backend
from ..real.commands import to_commands, to_pixels
from ..world.a11y import UIElement, parse_xml
from .trace import TRACE_FILE, Step, app_elements, describe, element_at, infer_action

__all__ = ["Recorder", "parse_activity", "read_actions"]

_ACTIVITY = re.compile(r"\bmCurrentFocus=Window\{\S+ u\d+ [\w.]+/([\w.$]+)\}")


def parse_activity(output: str) -> str:
    """The focused window's activity from ``FOCUS_COMMAND``'s output, or ''."""
    found = _ACTIVITY.search(output)
    return found.group(1) if found else ""


def read_actions(path: Path) -> list[PhoneAction]:
    """A JSONL of actions: one per line, any form ``to_action`` takes (a dict such as
    ``{"action": "click", "x": 500, "y": 300}``, or a JSON string holding an action call)."""
    out: list[PhoneAction] = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            out.append(to_action(json.loads(line)))
        except ValueError as exc:  # json's errors and ActionError are ValueErrors
            raise ValueError(f"{path}:{n}: not an action ({exc}); write one JSON action per "
                             'line, e.g. {"action": "click", "x": 500, "y": 300}') from exc
    return out


class Recorder:
    """Writes one trace folder (``trace.TRACE_FILE``, ``dumps/``, ``frames/``) from ``backend``."""

    def __init__(self, backend: Backend, out: str | Path, *, frames: bool = True) -> None:
        self.backend = backend
        self.out = Path(out)
        self.frames = frames
        if (self.out / TRACE_FILE).exists():
            raise ValueError(f"{self.out / TRACE_FILE} exists already: record to another "
                             "folder")
        (self.out / "dumps").mkdir(parents=True, exist_ok=True)
        if frames:
            (self.out / "frames").mkdir(exist_ok=True)
        (self.out / TRACE_FILE).write_text("", encoding="utf-8")
        self.steps: list[Step] = []
        self.size = backend.window_size()

    def read(self) -> tuple[str, str, str]:
        """``(xml, package, activity)`` of the screen now."""
        xml = self.backend.dump_ui()
        focus = self.backend.shell(FOCUS_COMMAND).output
        return xml, focus_or_first_node(focus, xml), parse_activity(focus)

    def capture(self, action: PhoneAction | Mapping[str, Any] | None = None,
                screen: tuple[str, str, str] | None = None) -> Step:
        """Record the screen now (or ``screen``, from ``read``) as the next step, reached by
        ``action`` (None: inferred from the last step's dump)."""
        xml, package, activity = screen or self.read()
        index = len(self.steps)
        elements = parse_xml(xml, *self.size)
        act: dict[str, Any] | None = None
        target: UIElement | None = None
        source = ""
        if index and action is not None:
            act = (action if isinstance(action, PhoneAction) else to_action(action)).to_dict()
            target = self._target(act)
            source = "given"
        elif index:
            last = self.steps[-1]
            act, target = infer_action(app_elements(last.elements(), last.package),
                                       app_elements(elements, package), last.package, package,
                                       self.size)
            words = {w for e in elements for w in (e.text, e.content_desc) if w}
            named = target is not None and bool({target.text, target.content_desc} & words)
            if index > 1 and not named and _signature(xml, package, self.size) == _signature(
                    self.steps[-2].xml, self.steps[-2].package, self.size):
                # back where it was, and no tapped element names the screen: a back
                act, target = {"action": "press", "button": "back"}, None
            source = "inferred" if act else ""
        name = f"{index:04d}"
        (self.out / "dumps" / f"{name}.xml").write_text(xml, encoding="utf-8")
        record: dict[str, Any] = {
            "step": index, "time": round(time.time(), 3), "package": package,
            "activity": activity, "size": list(self.size), "dump": f"dumps/{name}.xml",
            "action": act, "target": describe(target) if target is not None else None,
            "source": source}
        if self.frames:
            self.backend.screenshot().save(self.out / "frames" / f"{name}.png")
            record["frame"] = f"frames/{name}.png"
        with (self.out / TRACE_FILE).open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(record, ensure_ascii=False) + "\n")
        step = Step(index, package, activity, xml, self.size, act, record["target"], source)
        self.steps.append(step)
        return step

    def _target(self, act: Mapping[str, Any]) -> UIElement | None:
        """The element of the last dump that ``act`` acts on: the one under its point, or,
        for typing, the focused text field."""
        if not self.steps:
            return None
        last = self.steps[-1].elements()
        if "x" in act and "y" in act:
            return element_at(last, *to_pixels(int(act["x"]), int(act["y"]), self.size))
        if act.get("action") == "type":
            return next((e for e in last if e.focused and e.editable), None)
        return None

    def drive(self, actions: Iterable[PhoneAction], packages: Mapping[str, str], *,
              settle: float = 0.3) -> int:
        """Run each action on the phone (``to_commands``) and record the screen after it;
        the first screen is recorded first. Returns the number of steps recorded."""
        if not self.steps:
            self.capture()
        for action in actions:
            for command in to_commands(action, self.size, packages):
                self.backend.shell(command)
            if settle:
                time.sleep(settle)
            self.capture(action)
        return len(self.steps)

    def watch(self, *, max_steps: int | None = None, poll: float = 0.5,
              stop: Callable[[], bool] = lambda: False, timeout: float | None = None) -> int:
        """Record every change of the screen (a new dump) until ``max_steps`` steps, ``stop()``,
        ``timeout`` seconds or Ctrl-C (``KeyboardInterrupt`` is the caller's to catch: what was
        recorded stays). Returns the number of steps recorded."""
        last = (_signature(self.steps[-1].xml, self.steps[-1].package, self.size)
                if self.steps else None)
        end = None if timeout is None else time.monotonic() + timeout
        while ((max_steps is None or len(self.steps) < max_steps) and not stop()
               and (end is None or time.monotonic() < end)):
            screen = self.read()
            signature = _signature(screen[0], screen[1], self.size)
            if signature != last:
                self.capture(None, screen)
                last = signature
            elif poll:
                time.sleep(poll)
        return len(self.steps)


def _signature(xml: str, package: str, size: tuple[int, int]) -> tuple[Any, ...]:
    """What counts as a change: the app's elements (ids, texts, places), not focus alone."""
    return (package, tuple((e.resource_id, e.text, e.content_desc, e.bounds, e.checked)
                           for e in app_elements(parse_xml(xml, *size), package)))
