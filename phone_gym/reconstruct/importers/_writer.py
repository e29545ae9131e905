"""What every importer shares: writing trace folders in ``phone-gym record``'s format
(``reconstruct/trace.py``), UI dumps built from a dataset's element lists, actions normalized
to phone-gym's ``[0, 1000]`` grid, and the tally of what was skipped."""

from __future__ import annotations

import io
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...actions import ActionError, to_action
from ...real.commands import to_pixels
from ...world.a11y import XML_HEADER, parse_xml, xml_escape
from ..trace import TRACE_FILE, describe, element_at

__all__ = ["Node", "hierarchy_xml", "TraceWriter", "Tally", "grid", "safe_name",
           "finger_to_scroll"]


@dataclass
class Node:
    """One element of a UI dump (pixel bounds ``(left, top, right, bottom)``)."""

    bounds: tuple[int, int, int, int]
    text: str = ""
    desc: str = ""
    cls: str = "android.view.View"
    package: str = ""
    resource_id: str = ""
    clickable: bool = False
    long_clickable: bool = False
    scrollable: bool = False
    editable: bool = False
    checkable: bool = False
    checked: bool = False
    focused: bool = False
    enabled: bool = True
    selected: bool = False
    hint: str = ""


def _b(v: bool) -> str:
    return "true" if v else "false"


def hierarchy_xml(nodes: list[Node]) -> str:
    """A ``uiautomator dump`` holding ``nodes`` (flat, in order): what ``parse_xml`` and
    ``phone-gym reconstruct`` read."""
    out = [XML_HEADER, '<hierarchy rotation="0">']
    for i, n in enumerate(nodes):
        x0, y0, x1, y1 = n.bounds
        out.append(
            f'<node index="{i}" text="{xml_escape(n.text)}" '
            f'resource-id="{xml_escape(n.resource_id)}" class="{xml_escape(n.cls)}" '
            f'package="{xml_escape(n.package)}" content-desc="{xml_escape(n.desc)}" '
            f'checkable="{_b(n.checkable)}" checked="{_b(n.checked)}" '
            f'clickable="{_b(n.clickable)}" enabled="{_b(n.enabled)}" '
            f'focusable="{_b(n.clickable or n.editable)}" focused="{_b(n.focused)}" '
            f'scrollable="{_b(n.scrollable)}" long-clickable="{_b(n.long_clickable)}" '
            f'password="false" selected="{_b(n.selected)}" editable="{_b(n.editable)}" '
            f'hint="{xml_escape(n.hint)}" bounds="[{x0},{y0}][{x1},{y1}]" />')
    out.append("</hierarchy>")
    return "".join(out)


def grid(value: float, size: float) -> int:
    """A coordinate of ``size`` units (pixels, or 1.0 for a fraction) on phone-gym's
    ``[0, 1000]`` grid, clamped to it."""
    return max(0, min(1000, round(value * 1000 / size))) if size > 0 else 0


#: A finger's move and the scroll it makes (AndroidWorld's convention, as
#: ``actions.formats.androidworld``: swiping up scrolls down, revealing what is below).
_FINGER_TO_SCROLL = {"up": "down", "down": "up", "left": "right", "right": "left"}


def finger_to_scroll(x0: float, y0: float, x1: float, y1: float) -> str:
    """The scroll direction of a finger moving from ``(x0, y0)`` to ``(x1, y1)`` (its main
    axis)."""
    dx, dy = x1 - x0, y1 - y0
    finger = ("left" if dx < 0 else "right") if abs(dx) > abs(dy) else (
        "up" if dy < 0 else "down")
    return _FINGER_TO_SCROLL[finger]


def safe_name(value: Any) -> str:
    """A folder name for an episode id."""
    return re.sub(r"[^\w.-]+", "_", str(value)).strip("._") or "episode"


@dataclass
class Tally:
    """What an import wrote and what it left out (by reason)."""

    episodes: int = 0
    steps: int = 0
    skipped: Counter[str] = field(default_factory=Counter)

    def line(self) -> str:
        left = ", ".join(f"{n} {why}" for why, n in sorted(self.skipped.items()))
        return (f"{self.episodes} episodes, {self.steps} steps"
                + (f"; actions left out: {left}" if left else ""))

    def as_dict(self) -> dict[str, Any]:
        return {"episodes": self.episodes, "steps": self.steps, "skipped": dict(self.skipped)}


class TraceWriter:
    """Writes one trace folder: ``add`` each screen in order, with the action that led to it
    (``None`` for the first, or when the dataset's action was left out)."""

    def __init__(self, out: Path, info: dict[str, Any], tally: Tally) -> None:
        if (out / TRACE_FILE).exists():
            raise ValueError(f"{out / TRACE_FILE} exists already: import to an empty folder")
        (out / "dumps").mkdir(parents=True, exist_ok=True)
        (out / "frames").mkdir(exist_ok=True)
        (out / "info.json").write_text(json.dumps(info, ensure_ascii=False, indent=1),
                                       encoding="utf-8")
        self.out, self.tally, self.index = out, tally, 0
        self.last: tuple[str, tuple[int, int]] | None = None
        self.fh = (out / TRACE_FILE).open("w", encoding="utf-8")
        tally.episodes += 1

    def action(self, act: dict[str, Any] | None, why: str = "") -> dict[str, Any] | None:
        """``act`` checked and normalized by ``to_action``; ``None`` (counted under ``why``
        or the error) when it is ``None`` or invalid."""
        if act is None:
            if why:
                self.tally.skipped[why] += 1
            return None
        try:
            return to_action(act).to_dict()
        except ActionError as exc:
            self.tally.skipped[f"invalid ({str(exc).split(':')[0][:40]})"] += 1
            return None

    def add(self, xml: str, package: str, size: tuple[int, int], *, frame: Any = None,
            action: dict[str, Any] | None = None, activity: str = "",
            extra: dict[str, Any] | None = None) -> None:
        """Write the next step: its dump, its screenshot (PNG bytes or a PIL image), and the
        action (already normalized) that led to it from the step before."""
        name = f"{self.index:04d}"
        (self.out / "dumps" / f"{name}.xml").write_text(xml, encoding="utf-8")
        target = None
        if self.index and action is not None and self.last is not None and "x" in action:
            last_xml, last_size = self.last
            hit = element_at(parse_xml(last_xml, *last_size),
                             *to_pixels(int(action["x"]), int(action["y"]), last_size))
            target = describe(hit) if hit is not None else None
        record: dict[str, Any] = {
            "step": self.index, "package": package, "activity": activity,
            "size": list(size), "dump": f"dumps/{name}.xml",
            "action": action if self.index else None, "target": target,
            "source": "given" if self.index and action is not None else ""}
        if frame is not None:
            path = self.out / "frames" / f"{name}.png"
            if isinstance(frame, (bytes, bytearray)):
                _png(bytes(frame), path)
            else:
                frame.save(path)
            record["frame"] = f"frames/{name}.png"
        record.update(extra or {})
        self.fh.write(json.dumps(record, ensure_ascii=False) + "\n")
        self.last = (xml, size)
        self.index += 1
        self.tally.steps += 1

    def close(self) -> None:
        self.fh.close()


def _png(data: bytes, path: Path) -> None:
    """Save encoded image bytes as PNG (kept as is when they are PNG already)."""
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        path.write_bytes(data)
        return
    from PIL import Image

    with Image.open(io.BytesIO(data)) as im:
        im.save(path)
