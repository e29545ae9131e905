"""AndroidControl (google-research ``android_control/README.md``): GZIP TFRecord files, one
``tf.train.Example`` per episode with ``episode_id``, ``goal``, ``screenshots`` (PNG bytes),
``accessibility_trees`` (serialized ``android_env.AndroidAccessibilityForest``),
``screenshot_widths``, ``screenshot_heights``, ``actions`` (JSON dicts, one fewer than the
screenshots, performed between consecutive ones) and ``step_instructions`` (one per action).

Actions (README "Action space", x/y in screenshot pixels): ``click``, ``long_press``,
``scroll`` (``direction``, AndroidWorld's sense: ``down`` reveals what is below), ``open_app``
(``app_name``), ``type`` (tap x/y, type ``text``, press Enter), ``input_text`` (type only),
``navigate_home``, ``navigate_back``, ``wait`` (read as 1 s, as AndroidWorld's). Any other
``action_type`` is left out and counted. Each step's dump holds every node of every window
in the forest; the step's package is that of the active application window.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ._records import TYPE_APPLICATION, message_class, parse_example, read_records
from ._writer import Node, Tally, TraceWriter, grid, hierarchy_xml, safe_name

__all__ = ["import_android_control", "forest_nodes", "convert_action"]


def forest_nodes(data: bytes) -> tuple[list[Node], str]:
    """The nodes of a serialized ``AndroidAccessibilityForest`` and the package of its active
    application window (else the package most of its application nodes have)."""
    forest = message_class("android_env.AndroidAccessibilityForest")()
    forest.ParseFromString(data)
    nodes: list[Node] = []
    active, apps = "", Counter[str]()
    for window in forest.windows:
        for n in window.tree.nodes:
            r = n.bounds_in_screen
            nodes.append(Node(
                (r.left, r.top, r.right, r.bottom), text=n.text, desc=n.content_description,
                cls=n.class_name, package=n.package_name, resource_id=n.view_id_resource_name,
                clickable=n.is_clickable, long_clickable=n.is_long_clickable,
                scrollable=n.is_scrollable, editable=n.is_editable, checkable=n.is_checkable,
                checked=n.is_checked, focused=n.is_focused, enabled=n.is_enabled,
                selected=n.is_selected, hint=n.hint_text))
            if window.window_type == TYPE_APPLICATION and n.package_name:
                apps[n.package_name] += 1
                if (window.is_active or window.is_focused) and not active:
                    active = n.package_name
    return nodes, active or (apps.most_common(1)[0][0] if apps else "")


def convert_action(a: dict[str, Any], size: tuple[int, int]) -> dict[str, Any] | None:
    """An AndroidControl action as a phone-gym action dict (``None``: a type not listed in
    the README's action space)."""
    kind = a.get("action_type")
    w, h = size

    def point() -> dict[str, int]:
        return {"x": grid(float(a["x"]), w), "y": grid(float(a["y"]), h)}

    if kind in ("click", "long_press"):
        return {"action": kind, **point()}
    if kind == "scroll":
        return {"action": "scroll", "direction": str(a.get("direction", "")).lower()}
    if kind == "open_app":
        return {"action": "open_app", "app": a.get("app_name")}
    if kind == "type":
        return {"action": "type", "text": a.get("text"), **point(), "enter": True}
    if kind == "input_text":
        return {"action": "type", "text": a.get("text")}
    if kind in ("navigate_home", "navigate_back"):
        return {"action": "press", "button": kind.split("_")[1]}
    if kind == "wait":
        return {"action": "wait", "seconds": 1.0}
    return None


def _files(src: Path) -> list[Path]:
    if src.is_file():
        return [src]
    files = sorted(p for p in src.iterdir() if p.is_file() and not p.name.startswith("."))
    if not files:
        raise ValueError(f"{src}: no TFRecord files; pass AndroidControl's android_control-* "
                         "files or their folder")
    return files


def import_android_control(src: str | Path, out: str | Path, *,
                           limit: int | None = None) -> Tally:
    """Write one trace folder per AndroidControl episode of ``src`` (a TFRecord file or a
    folder of them) under ``out``; at most ``limit`` episodes."""
    src, out = Path(src), Path(out)
    tally = Tally()
    for path in _files(src):
        for record in read_records(path):
            if limit is not None and tally.episodes >= limit:
                return tally
            _episode(parse_example(record), out, tally)
    return tally


def _str(values: Iterable[Any]) -> list[str]:
    return [v.decode("utf-8") if isinstance(v, bytes) else str(v) for v in values]


def _episode(ex: dict[str, list[Any]], out: Path, tally: Tally) -> None:
    try:
        episode = ex["episode_id"][0]
        shots, trees = ex["screenshots"], ex["accessibility_trees"]
        widths, heights = ex["screenshot_widths"], ex["screenshot_heights"]
        actions = [json.loads(s) for s in _str(ex.get("actions", []))]
    except (KeyError, IndexError, ValueError) as exc:
        raise ValueError(f"not an AndroidControl episode (missing or bad {exc}); see "
                         "android_control/README.md") from exc
    goal = _str(ex.get("goal", [b""]))[0]
    steps = _str(ex.get("step_instructions", []))
    if not len(shots) == len(trees) == len(widths) == len(heights) == len(actions) + 1:
        raise ValueError(f"AndroidControl episode {episode}: {len(shots)} screenshots, "
                         f"{len(trees)} trees, {len(actions)} actions (expected one action "
                         "fewer than screenshots)")
    writer = TraceWriter(out / safe_name(f"android_control_{episode}"),
                         {"dataset": "android_control", "episode_id": episode, "goal": goal},
                         tally)
    try:
        for i, (shot, tree) in enumerate(zip(shots, trees, strict=True)):
            nodes, package = forest_nodes(tree)
            act = None
            extra: dict[str, Any] = {}
            if i:
                prev = (int(widths[i - 1]), int(heights[i - 1]))
                raw = actions[i - 1]
                act = writer.action(convert_action(raw, prev),
                                    f"unknown action_type {raw.get('action_type')!r}")
                if i - 1 < len(steps):
                    extra["instruction"] = steps[i - 1]
            writer.add(hierarchy_xml(nodes), package, (int(widths[i]), int(heights[i])),
                       frame=shot, action=act, extra=extra)
    finally:
        writer.close()
