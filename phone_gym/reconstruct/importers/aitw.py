"""Android in the Wild (google-research ``android_in_the_wild/README.md``): GZIP TFRecord
files, one ``tf.train.Example`` per step, grouped here by ``episode_id`` and ordered by
``step_id``. Read: ``image/encoded`` (raw ``uint8`` pixels, ``image/height`` x
``image/width`` x ``image/channels``, as its ``visualization_utils._decode_image`` reads them;
PNG/JPEG bytes are accepted too), ``image/ui_annotations_positions`` (normalized ``(y, x,
height, width)`` per element), ``image/ui_annotations_text``, ``image/ui_annotations_ui_types``
(``TEXT`` or an icon type), ``results/action_type`` (``action_type.ActionType``),
``results/yx_touch`` / ``results/yx_lift`` (normalized), ``results/type_action``,
``current_activity`` and ``goal_info``.

A step's action was taken on its own screen and leads to the next step's. ``DUAL_POINT`` is
a tap when touch and lift are within 0.04 of each other (``visualization_utils.
is_tap_action``), else a scroll along the finger's main axis (swiping up scrolls down);
``TYPE``, ``PRESS_BACK``/``HOME``/``ENTER``; the status actions end an episode (kept in
``info.json``). Other action types are left out and counted. AitW has no accessibility
tree: each dump holds its OCR/icon annotations (``TextView`` for text, ``ImageView`` named by
its icon type), none known to be clickable, under the package read off ``current_activity``.
"""

from __future__ import annotations

import io
import json
import math
from collections import defaultdict
from pathlib import Path
from typing import Any

from ._records import parse_example, read_records
from ._writer import Node, Tally, TraceWriter, finger_to_scroll, grid, hierarchy_xml, safe_name

__all__ = ["import_aitw", "convert_action", "ACTION_TYPES"]

#: ``android_in_the_wild/action_type.py`` ``ActionType``.
ACTION_TYPES = {3: "TYPE", 4: "DUAL_POINT", 5: "PRESS_BACK", 6: "PRESS_HOME",
                7: "PRESS_ENTER", 10: "STATUS_TASK_COMPLETE", 11: "STATUS_TASK_IMPOSSIBLE"}
#: ``visualization_utils.is_tap_action``: touch and lift this close (normalized) is a tap.
TAP_DISTANCE = 0.04


def convert_action(ex: dict[str, list[Any]]) -> dict[str, Any] | None:
    """The phone-gym action of an AitW step (``None`` for an unknown action type)."""
    kind = ACTION_TYPES.get(int(ex["results/action_type"][0]))
    if kind == "DUAL_POINT":
        ty, tx = ex["results/yx_touch"][:2]
        ly, lx = ex["results/yx_lift"][:2]
        if math.dist((ty, tx), (ly, lx)) <= TAP_DISTANCE:
            return {"action": "click", "x": grid(tx, 1.0), "y": grid(ty, 1.0)}
        return {"action": "scroll", "x": grid(tx, 1.0), "y": grid(ty, 1.0),
                "direction": finger_to_scroll(tx, ty, lx, ly)}
    if kind == "TYPE":
        text = ex.get("results/type_action", [b""])[0]
        return {"action": "type", "text": text.decode("utf-8") if isinstance(text, bytes)
                else str(text)}
    if kind in ("PRESS_BACK", "PRESS_HOME", "PRESS_ENTER"):
        return {"action": "press", "button": kind.split("_")[1].lower()}
    if kind == "STATUS_TASK_COMPLETE":
        return {"action": "finish", "status": "success"}
    if kind == "STATUS_TASK_IMPOSSIBLE":
        return {"action": "finish", "status": "infeasible"}
    return None


def _text(values: list[Any], i: int = 0) -> str:
    if len(values) <= i:
        return ""
    v = values[i]
    return v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)


def _package(activity: str) -> str:
    """``com.app/.Main`` or ``com.app/com.app.Main`` -> ``com.app``; a bare class name
    (``com.app.MainActivity``) -> its package part."""
    if "/" in activity:
        return activity.split("/", 1)[0]
    return activity.rsplit(".", 1)[0] if "." in activity else activity


def _screen(ex: dict[str, list[Any]]) -> tuple[Any, tuple[int, int]]:
    from PIL import Image

    h, w = int(ex["image/height"][0]), int(ex["image/width"][0])
    c = int(ex.get("image/channels", [3])[0])
    data = ex["image/encoded"][0]
    if data[:4] == b"\x89PNG" or data[:3] == b"\xff\xd8\xff":  # PNG or JPEG
        img = Image.open(io.BytesIO(data))
        return img, img.size
    if len(data) != h * w * c or c not in (1, 3, 4):
        raise ValueError(f"AitW image/encoded holds {len(data)} bytes, not {h}x{w}x{c} "
                         "raw pixels")
    mode = {1: "L", 3: "RGB", 4: "RGBA"}[c]
    return Image.frombytes(mode, (w, h), data), (w, h)


def _nodes(ex: dict[str, list[Any]], size: tuple[int, int], package: str) -> list[Node]:
    w, h = size
    pos = ex.get("image/ui_annotations_positions", [])
    texts = ex.get("image/ui_annotations_text", [])
    types = ex.get("image/ui_annotations_ui_types", [])
    out = [Node((0, 0, w, h), cls="android.widget.FrameLayout", package=package)]
    for k in range(len(pos) // 4):
        y, x, bh, bw = pos[4 * k:4 * k + 4]
        box = (round(x * w), round(y * h), round((x + bw) * w), round((y + bh) * h))
        kind, text = _text(types, k), _text(texts, k)
        if kind == "TEXT":
            out.append(Node(box, text=text, cls="android.widget.TextView", package=package))
        else:
            out.append(Node(box, text=text, desc=kind.lower().replace("icon_", "").replace(
                "_", " "), cls="android.widget.ImageView", package=package))
    return out


def import_aitw(src: str | Path, out: str | Path, *, limit: int | None = None) -> Tally:
    """Write one trace folder per AitW episode found in ``src`` (a TFRecord file or a
    folder of them) under ``out``; at most ``limit`` episodes."""
    src, out = Path(src), Path(out)
    files = [src] if src.is_file() else sorted(p for p in src.iterdir() if p.is_file()
                                               and not p.name.startswith("."))
    if not files:
        raise ValueError(f"{src}: no TFRecord files; pass AitW's TFRecord files or their "
                         "folder")
    episodes: dict[str, list[dict[str, list[Any]]]] = defaultdict(list)
    for path in files:
        for record in read_records(path):
            ex = parse_example(record)
            if "episode_id" not in ex or "results/action_type" not in ex:
                raise ValueError(f"{path}: not an AitW step (no episode_id or "
                                 "results/action_type); see android_in_the_wild/README.md")
            episodes[_text(ex["episode_id"])].append(ex)
    tally = Tally()
    for episode, steps in episodes.items():
        if limit is not None and tally.episodes >= limit:
            break
        steps.sort(key=lambda e: int(e.get("step_id", [0])[0]))
        _episode(episode, steps, out, tally)
    return tally


def _episode(episode: str, steps: list[dict[str, list[Any]]], out: Path,
             tally: Tally) -> None:
    info: dict[str, Any] = {"dataset": "aitw", "episode_id": episode,
                            "goal": _text(steps[0].get("goal_info", []))}
    writer = TraceWriter(out / safe_name(f"aitw_{episode}"), info, tally)
    try:
        act: dict[str, Any] | None = None
        for i, ex in enumerate(steps):
            image, size = _screen(ex)
            activity = _text(ex.get("current_activity", []))
            package = _package(activity)
            writer.add(hierarchy_xml(_nodes(ex, size, package)), package, size, frame=image,
                       action=act, activity=activity)
            raw = convert_action(ex)
            if raw is not None and raw["action"] == "finish":
                info["final_action"] = raw
                if i < len(steps) - 1:
                    tally.skipped["status action before the last step"] += 1
                act = None
                continue
            code = int(ex["results/action_type"][0])
            act = writer.action(raw, f"unknown action_type {code}") if i < len(steps) - 1 \
                else None
    finally:
        writer.close()
    if "final_action" in info:
        (writer.out / "info.json").write_text(json.dumps(info, ensure_ascii=False, indent=1),
                                              encoding="utf-8")
