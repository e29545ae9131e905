"""GUI-Odyssey (OpenGVLab ``introduction.md``, ``data/format_converter.py``): a folder with
``annotations/<episode_id>.json`` and ``screenshots/<file>``. An annotation has
``episode_id``, ``device_info`` (``w``, ``h``: the screen), ``task_info`` (``instruction``,
``app``...) and ``steps``: each ``step``, ``screenshot`` (a file name in ``screenshots/``),
``action`` and ``info``, coordinates on a ``[0, 1000]`` grid, the same as phone-gym's.

A step's action was taken on its screen and leads to the next one: ``CLICK`` / ``LONG_PRESS``
(``info`` ``[[x, y]]``, or ``KEY_HOME`` / ``KEY_BACK`` / ``KEY_APPSELECT`` for the system
keys), ``SCROLL`` (``[[x1, y1], [x2, y2]]``, the finger's path: swiping up scrolls down),
``TEXT`` (``info``: the text); ``COMPLETE`` / ``INCOMPLETE`` (``IMPOSSIBLE``) end the episode
(kept in ``info.json``). Others are left out and counted. GUI-Odyssey has no UI tree: the
dumps hold only the screen, so its traces are screenshots and actions (training or replay
data); ``phone-gym reconstruct`` needs dumps with elements to rebuild screens.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ._writer import Node, Tally, TraceWriter, finger_to_scroll, hierarchy_xml, safe_name

__all__ = ["import_gui_odyssey", "convert_action"]

_KEYS = {"KEY_HOME": "home", "KEY_BACK": "back", "KEY_APPSELECT": "recents"}


def convert_action(action: str, info: Any) -> dict[str, Any] | None:
    """A GUI-Odyssey step's action as a phone-gym action dict (``None``: unknown)."""
    action = str(action).upper()
    if action in ("CLICK", "LONG_PRESS"):
        if isinstance(info, str) and info in _KEYS:
            return {"action": "press", "button": _KEYS[info]}
        x, y = info[0]
        return {"action": action.lower(), "x": round(float(x)), "y": round(float(y))}
    if action == "SCROLL":
        (x1, y1), (x2, y2) = info[0], info[1]
        return {"action": "scroll", "x": round(float(x1)), "y": round(float(y1)),
                "direction": finger_to_scroll(x1, y1, x2, y2)}
    if action in ("TEXT", "TYPE"):
        return {"action": "type", "text": str(info)}
    if action == "COMPLETE":
        return {"action": "finish", "status": "success"}
    if action in ("INCOMPLETE", "IMPOSSIBLE"):
        return {"action": "finish", "status": "infeasible"}
    return None


def import_gui_odyssey(src: str | Path, out: str | Path, *,
                       limit: int | None = None) -> Tally:
    """Write one trace folder per annotation of ``src`` (GUI-Odyssey's root, holding
    ``annotations/`` and ``screenshots/``) under ``out``; at most ``limit`` episodes."""
    src, out = Path(src), Path(out)
    notes = src / "annotations"
    if not notes.is_dir() or not (src / "screenshots").is_dir():
        raise ValueError(f"{src}: no annotations/ and screenshots/ folders; pass GUI-Odyssey's "
                         "root folder")
    tally = Tally()
    for path in sorted(notes.glob("*.json")):
        if limit is not None and tally.episodes >= limit:
            break
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            size = (int(data["device_info"]["w"]), int(data["device_info"]["h"]))
            steps = sorted(data["steps"], key=lambda s: int(s["step"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{path}: not a GUI-Odyssey annotation ({exc}); see its "
                             "introduction.md") from exc
        _episode(data, steps, size, src / "screenshots", out, tally)
    if not tally.episodes:
        raise ValueError(f"{notes}: no annotation files (*.json)")
    return tally


def _episode(data: dict[str, Any], steps: list[dict[str, Any]], size: tuple[int, int],
             shots: Path, out: Path, tally: Tally) -> None:
    task = data.get("task_info") or {}
    info: dict[str, Any] = {"dataset": "gui_odyssey", "episode_id": data.get("episode_id"),
                            "goal": task.get("instruction", ""), "apps": task.get("app", [])}
    writer = TraceWriter(out / safe_name(f"gui_odyssey_{data.get('episode_id')}"), info, tally)
    try:
        act: dict[str, Any] | None = None
        for i, step in enumerate(steps):
            xml = hierarchy_xml([Node((0, 0, *size), cls="android.widget.FrameLayout")])
            shot = shots / str(step.get("screenshot", ""))
            writer.add(xml, "", size, frame=shot.read_bytes() if shot.is_file() else None,
                       action=act)
            try:
                raw = convert_action(step.get("action", ""), step.get("info"))
            except (TypeError, ValueError, IndexError, KeyError):
                raw, why = None, f"malformed {step.get('action')} info"
            else:
                why = f"unknown action {step.get('action')!r}"
            if raw is not None and raw["action"] == "finish":
                info["final_action"] = raw
                act = None
                continue
            act = writer.action(raw, why) if i < len(steps) - 1 else None
    finally:
        writer.close()
    (writer.out / "info.json").write_text(json.dumps(info, ensure_ascii=False, indent=1),
                                          encoding="utf-8")
