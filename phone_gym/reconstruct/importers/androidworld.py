"""AndroidWorld's recorded episodes (google-research ``android_world``): what
``checkpointer.IncrementalCheckpointer`` saves, one ``<task_group>.pkl.gz`` per task: a
gzip'd pickle of a list of episodes. An episode (``suite_utils._run_task``) is a dict with
``goal``, ``task_template``, ``instance_id``, ``is_successful``, ``screen_config``
(``width``, ``height``) and ``episode_data``: the agent's step data as a dict of lists
(``episode_runner._transpose_lod_to_dol``). The agents that keep accessibility trees store,
per step, the ``representation_utils.UIElement`` list seen before acting
(``before_element_list`` for T3A, ``before_ui_elements`` for M3A; T3A also keeps
``after_element_list``), the screenshot (``before_screenshot`` / ``raw_screenshot``, an
H x W x 3 array) and the action: a ``json_action.JSONAction`` (M3A's
``action_output_json``) or the model's text ``Reason: ... Action: {...}`` (``action_output``).

Each step's elements become a dump (``bbox_pixels``, ``resource_name``, ``package_name``
and the ``is_*`` flags); its action, read as ``actions.formats.androidworld`` reads an
AndroidWorld action (an ``index`` is the centre of that element), leads to the next step's
screen (T3A's last ``after_element_list`` is the final screen). ``status`` and ``answer``
end the episode (kept in ``info.json``); a step without elements (an agent that keeps none,
such as SeeAct's) makes the episode unusable here and is counted.

The pickles hold android_world's classes; they are read with a restricted unpickler that
turns ``UIElement``, ``BoundingBox``, ``JSONAction`` and any other non-builtin class into
plain attribute bags (``Plain``), never importing or calling the pickled classes; numpy
arrays (the screenshots) are rebuilt by numpy's own reconstructor, datetimes as such.
"""

from __future__ import annotations

import datetime
import gzip
import io
import json
import pickle
from collections import Counter
from collections.abc import Iterator
from importlib import import_module
from pathlib import Path
from typing import Any

from ...actions import ActionError
from ...actions.formats.androidworld import AndroidWorldFormat, last_json_object
from ._writer import Node, Tally, TraceWriter, grid, hierarchy_xml, safe_name

__all__ = ["import_androidworld", "load_episodes", "Plain", "element_nodes",
           "convert_action"]

#: Step-data keys holding the elements seen before each action, by agent (T3A, M3A).
ELEMENT_KEYS = ("before_element_list", "before_ui_elements")
SHOT_KEYS = ("before_screenshot", "raw_screenshot")


class Plain:
    """A pickled object of a class the importer does not load: its state as attributes
    (``_cls`` names the class it was)."""

    _cls = "?"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._args = args
        self.__dict__.update(kwargs)

    def __setstate__(self, state: Any) -> None:
        if isinstance(state, tuple) and len(state) == 2:  # (dict, slots)
            state = {**(state[0] or {}), **(state[1] or {})}
        if isinstance(state, dict):
            self.__dict__.update(state)
        else:
            self._state = state

    def get(self, name: str, default: Any = None) -> Any:
        return self.__dict__.get(name, default)


_PLAIN: dict[str, type[Plain]] = {}
_SAFE = {("builtins", n) for n in ("set", "frozenset", "complex", "bytearray", "slice",
                                    "range")}
_SAFE |= {("datetime", n) for n in ("datetime", "date", "time", "timedelta", "timezone")}
_NUMPY = {("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct"),
          ("numpy", "ndarray"), ("numpy", "dtype"), ("numpy.core.multiarray", "scalar"),
          ("numpy._core.multiarray", "scalar")}


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in _SAFE:
            return getattr(__import__(module), name) if module == "builtins" else getattr(
                datetime, name)
        if (module, name) in _NUMPY:
            try:  # the screenshots' arrays, rebuilt by numpy
                return getattr(import_module(module), name)
            except ImportError:
                pass
        if module in ("copyreg", "copy_reg") and name == "_reconstructor":
            return _reconstructor
        qual = f"{module}.{name}"
        if qual not in _PLAIN:
            _PLAIN[qual] = type(name, (Plain,), {"_cls": qual})
        return _PLAIN[qual]


def _reconstructor(cls: Any, base: Any, state: Any) -> Any:
    """``copyreg._reconstructor`` (protocol 0/1 pickles), only for the plain classes."""
    if isinstance(cls, type) and issubclass(cls, Plain):
        return cls()
    raise pickle.UnpicklingError(f"refusing to rebuild {cls!r}")


def load_episodes(path: str | Path) -> list[Any]:
    """The episodes of one ``*.pkl.gz`` (or ``*.pkl``) file, read with the restricted
    unpickler (see the module doc)."""
    raw = Path(path).read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    try:
        data = _Unpickler(io.BytesIO(raw)).load()
    except (pickle.UnpicklingError, EOFError, AttributeError, TypeError, ValueError,
            IndexError) as exc:
        raise ValueError(f"{path}: not an AndroidWorld episode pickle ({exc})") from exc
    return data if isinstance(data, list) else [data]


def _get(obj: Any, name: str, default: Any = None) -> Any:
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


def _box(e: Any) -> tuple[int, int, int, int] | None:
    b = _get(e, "bbox_pixels")
    if b is None:
        return None
    return (round(_get(b, "x_min", 0)), round(_get(b, "y_min", 0)),
            round(_get(b, "x_max", 0)), round(_get(b, "y_max", 0)))


def element_nodes(elements: list[Any]) -> tuple[list[Node], str]:
    """Dump nodes of a ``UIElement`` list (plain or dicts) and the package most show."""
    nodes: list[Node] = []
    pkgs: Counter[str] = Counter()
    for e in elements:
        box = _box(e) or (0, 0, 0, 0)
        pkg = _get(e, "package_name") or ""
        if pkg:
            pkgs[pkg] += 1
        nodes.append(Node(
            box, text=_get(e, "text") or "", desc=_get(e, "content_description") or "",
            cls=_get(e, "class_name") or "android.view.View", package=pkg,
            resource_id=_get(e, "resource_name") or _get(e, "resource_id") or "",
            clickable=bool(_get(e, "is_clickable")),
            long_clickable=bool(_get(e, "is_long_clickable")),
            scrollable=bool(_get(e, "is_scrollable")), editable=bool(_get(e, "is_editable")),
            checkable=bool(_get(e, "is_checkable")), checked=bool(_get(e, "is_checked")),
            focused=bool(_get(e, "is_focused")),
            enabled=_get(e, "is_enabled") is not False, selected=bool(_get(e, "is_selected")),
            hint=_get(e, "hint_text") or ""))
    return nodes, pkgs.most_common(1)[0][0] if pkgs else ""


_FIELDS = ("action_type", "index", "x", "y", "text", "direction", "goal_status", "app_name",
           "keycode", "clear_text")


def _action_obj(step: dict[str, Any]) -> dict[str, Any] | None:
    """The step's action as a JSON-action dict: M3A's ``action_output_json`` or the
    ``Action: {...}`` of the model's ``action_output``."""
    obj = step.get("action_output_json")
    if obj is not None:
        out = {k: _get(obj, k) for k in _FIELDS}
        return {k: v for k, v in out.items() if v is not None}
    text = step.get("action_output")
    if isinstance(text, str):
        found = last_json_object(text, "action_type")
        return dict(found) if found is not None else None
    return None


def convert_action(obj: dict[str, Any], elements: list[Any], size: tuple[int, int]
                   ) -> dict[str, Any]:
    """An AndroidWorld JSON action (a dict) as a phone-gym action dict on the ``[0, 1000]``
    grid, an ``index`` resolved to the centre of that element; ``ActionError`` when
    AndroidWorld would refuse it."""
    action = AndroidWorldFormat().read(obj, size).to_dict()
    index = action.pop("index", None)
    if index is not None:
        if not 0 <= index < len(elements) or _box(elements[index]) is None:
            raise ActionError(f"index {index} is not an element of the step "
                              f"({len(elements)} elements)")
        x0, y0, x1, y1 = _box(elements[index])  # type: ignore[misc]
        action["x"], action["y"] = grid((x0 + x1) / 2, size[0]), grid((y0 + y1) / 2, size[1])
    return action


def _files(src: Path) -> list[Path]:
    if src.is_file():
        return [src]
    files = sorted(p for p in src.iterdir() if p.name.endswith((".pkl.gz", ".pkl")))
    if not files:
        raise ValueError(f"{src}: no *.pkl.gz files; pass AndroidWorld's checkpoint folder "
                         "(IncrementalCheckpointer's <task>.pkl.gz) or one such file")
    return files


def _steps(data: Any) -> Iterator[dict[str, Any]]:
    """Step dicts from ``episode_data`` (a dict of lists, or already a list of dicts)."""
    if isinstance(data, list):
        yield from (d for d in data if isinstance(d, dict))
        return
    if not isinstance(data, dict):
        raise ValueError("episode_data is neither a dict of lists nor a list of dicts")
    yield from (dict(zip(data.keys(), v, strict=True)) for v in zip(*data.values(), strict=True))


def import_androidworld(src: str | Path, out: str | Path, *, limit: int | None = None
                        ) -> Tally:
    """Write one trace folder per AndroidWorld episode of ``src`` (a ``*.pkl.gz`` file or a
    folder of them) under ``out``; at most ``limit`` episodes."""
    src, out = Path(src), Path(out)
    tally = Tally()
    for path in _files(src):
        for n, ep in enumerate(load_episodes(path)):
            if limit is not None and tally.episodes >= limit:
                return tally
            if not isinstance(ep, dict) or "episode_data" not in ep:
                raise ValueError(f"{path}: episode {n} has no episode_data; see android_world "
                                 "suite_utils._run_task")
            _episode(ep, f"{path.name.removesuffix('.gz').removesuffix('.pkl')}_{n}", out,
                     tally)
    return tally


def _frame(shot: Any) -> Any:
    if shot is None or not hasattr(shot, "shape"):
        return None
    from PIL import Image

    return Image.fromarray(shot[..., :3].astype("uint8"))


def _episode(ep: dict[str, Any], name: str, out: Path, tally: Tally) -> None:
    steps = list(_steps(ep["episode_data"]))
    key = next((k for k in ELEMENT_KEYS if steps and steps[0].get(k) is not None), None)
    if key is None or any(not s.get(key) for s in steps):
        tally.skipped["episodes without accessibility trees"] += 1
        return
    conf = ep.get("screen_config") or {}
    info: dict[str, Any] = {
        "dataset": "androidworld", "episode_id": name, "goal": ep.get("goal", ""),
        "task_template": ep.get("task_template"), "instance_id": ep.get("instance_id"),
        "is_successful": ep.get("is_successful")}
    screens: list[tuple[list[Any], Any]] = [(s[key], next(
        (s[k] for k in SHOT_KEYS if s.get(k) is not None), None)) for s in steps]
    last_after = steps[-1].get("after_element_list")
    writer = TraceWriter(out / safe_name(f"androidworld_{name}"), info, tally)
    try:
        act: dict[str, Any] | None = None
        for i, (elements, shot) in enumerate(screens):
            nodes, package = element_nodes(list(elements))
            size = _size(conf, shot, nodes)
            writer.add(hierarchy_xml(nodes), package, size, frame=_frame(shot), action=act)
            obj = _action_obj(steps[i])
            act = None
            if obj is None:
                tally.skipped["steps without an action"] += 1
                continue
            try:
                raw: dict[str, Any] | None = convert_action(obj, list(elements), size)
            except ActionError as exc:
                raw, why = None, f"invalid action ({str(exc)[:40]})"
                writer.action(None, why)
                continue
            assert raw is not None
            if raw["action"] in ("finish", "answer"):
                info["final_action"] = raw
                break
            act = writer.action(raw)
        else:
            if last_after and act is not None:
                nodes, package = element_nodes(list(last_after))
                writer.add(hierarchy_xml(nodes), package, _size(conf, None, nodes), action=act)
    finally:
        writer.close()
    (writer.out / "info.json").write_text(json.dumps(info, ensure_ascii=False, indent=1,
                                                     default=str), encoding="utf-8")


def _size(conf: dict[str, Any], shot: Any, nodes: list[Node]) -> tuple[int, int]:
    """The screen in pixels: the screenshot's, else ``screen_config``'s (AndroidWorld's
    default 1080 x 2400)."""
    if shot is not None and hasattr(shot, "shape") and len(shot.shape) >= 2:
        return int(shot.shape[1]), int(shot.shape[0])
    return int(conf.get("width", 1080)), int(conf.get("height", 2400))
