"""Held-out screens side by side (issue 32): for a sample of the steps a held-out replay
(``fidelity.heldout``) goes through, the screenshot the recorder wrote (``frames/NNNN.png``,
``screencap -p``) beside the rebuilt app's rendering at the same point, with the action that
led there under them, and a ``## Held-out screens`` section of ``fidelity.md`` linking them
with each step's element-box IoU and text overlap.

The sample: the screen reached after each state-changing action the held-out traces show
(``model.infer_state``: a save, a delete, a toggle...), then other steps spread over the
traces, up to ``n`` in all. Images are small (``HEIGHT`` pixels high each side, PNG
optimized) and drawn with the package's fonts (``world.glyphs``), never the system's.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from ..world import glyphs
from ..world.render import Renderer
from .build import Model
from .trace import TRACE_FILE, Step, Trace

__all__ = ["HEIGHT", "frame_paths", "trace_folders", "pick_steps", "describe_action",
           "side_by_side", "Shots", "section"]

#: Each side's height in pixels.
HEIGHT = 360
_PAD, _LABEL_PX, _ACTION_PX = 8, 13, 12
_INK, _PAPER, _FRAME = (33, 33, 33), (250, 250, 250), (189, 189, 189)


def frame_paths(folder: Path) -> dict[int, Path]:
    """Step index -> its screenshot, for the steps of trace ``folder`` that have one."""
    out: dict[int, Path] = {}
    for line in (folder / TRACE_FILE).read_text(encoding="utf-8").splitlines():
        if line.strip():
            rec = json.loads(line)
            if rec.get("frame") and (folder / rec["frame"]).is_file():
                out[int(rec["step"])] = folder / rec["frame"]
    return out


def trace_folders(paths: Iterable[str | Path]) -> dict[str, Path]:
    """Trace name -> folder, for trace folders or folders of them (as ``load_traces``)."""
    out: dict[str, Path] = {}
    for p in map(Path, paths):
        found = [p] if (p / TRACE_FILE).is_file() else sorted(
            d for d in p.iterdir() if (d / TRACE_FILE).is_file()) if p.is_dir() else []
        for d in found:
            out.setdefault(d.name, d)
    return out


def _replayed(trace: Trace, package: str) -> list[Step]:
    """The steps of ``trace`` a held-out replay acts out: an action in the app, after a
    screen of the app."""
    return [s for prev, s in zip(trace.steps, trace.steps[1:], strict=False)
            if s.action is not None and s.package == package and prev.package == package]


def pick_steps(model: Model, traces: Sequence[Trace],
               frames: Mapping[str, Mapping[int, Path]], n: int) -> list[tuple[str, int]]:
    """Up to ``n`` ``(trace, step)`` with a screenshot: the screen after each state change
    first (trace by trace), then the other steps, evenly spread, in trace order."""
    from .model import infer_state

    if n < 0:
        raise ValueError(f"n={n}: pass a number of screens >= 0")
    steps = [(t.name, s.index) for t in traces for s in _replayed(t, model.package)
             if s.index in frames.get(t.name, {})]
    changed = {(c.trace, c.step) for t in traces for c in infer_state(model, [t]).changes}
    chosen = [k for k in steps if k in changed][:n]
    rest = [k for k in steps if k not in changed]
    room = n - len(chosen)
    if 0 < room < len(rest):
        chosen += [rest[i * len(rest) // room] for i in range(room)]
    elif room > 0:
        chosen += rest
    order = {k: i for i, k in enumerate(steps)}
    return sorted(chosen, key=order.__getitem__)


def describe_action(step: Step) -> str:
    """The action that led to ``step`` in words: ``click "Save"``, ``type "Alice"``..."""
    act, target = step.action or {}, step.target or {}
    kind = str(act.get("action", "?"))
    name = target.get("text") or target.get("desc") or target.get("id") or ""
    if kind == "type":
        return f'type "{act.get("text", "")}"'
    if kind == "scroll":
        return f"scroll {act.get('direction', '')}".strip()
    if kind in ("press", "key"):
        return f"press {act.get('button') or act.get('key', '')}".strip()
    if kind == "open_app":
        return f"open {act.get('app', '')}"
    return f'{kind} "{name}"' if name else f"{kind} at ({act.get('x')}, {act.get('y')})"


@lru_cache(maxsize=8)
def _symbol_font(px: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(glyphs.FONT_DIR / "DejaVuSans.ttf"), px)


def _runs(text: str, px: int) -> list[tuple[str, ImageFont.FreeTypeFont]]:
    return [(run, _symbol_font(px) if face == glyphs.SYMBOL else glyphs.face_font(face, px))
            for run, face in glyphs.text_runs(text)]


def _width(text: str, px: int) -> float:
    return sum(f.getlength(run) for run, f in _runs(text, px))


def _draw_text(draw: ImageDraw.ImageDraw, x: float, y: float, text: str, px: int) -> None:
    for run, f in _runs(text, px):
        draw.text((x, y), run, font=f, fill=_INK)
        x += f.getlength(run)


def _wrap(text: str, px: int, width: int, lines: int = 2) -> list[str]:
    out: list[str] = []
    for word in text.split(" "):
        if out and _width(out[-1] + " " + word, px) <= width:
            out[-1] += " " + word
        else:
            out.append(word)
    if len(out) > lines:
        out = out[:lines]
        while out[-1] and _width(out[-1] + "…", px) > width:
            out[-1] = out[-1][:-1]
        out[-1] += "…"
    return out


def _fit(image: Image.Image, height: int) -> Image.Image:
    image = image.convert("RGB")
    width = max(1, round(image.width * height / image.height))
    return image.resize((width, height), Image.Resampling.LANCZOS)


def side_by_side(recorded: Image.Image, rebuilt: Image.Image, action: str, *,
                 labels: tuple[str, str] = ("recorded", "rebuilt"),
                 height: int = HEIGHT) -> Image.Image:
    """``recorded`` and ``rebuilt`` at ``height`` pixels each, side by side, a label over
    each and ``action`` (wrapped, two lines at most) under them."""
    left, right = _fit(recorded, height), _fit(rebuilt, height)
    width = 3 * _PAD + left.width + right.width
    top = _PAD + _LABEL_PX + 6
    lines = _wrap(action, _ACTION_PX, width - 2 * _PAD)
    canvas = Image.new("RGB", (width, top + height + _PAD + len(lines) * (_ACTION_PX + 4)
                               + _PAD), _PAPER)
    draw = ImageDraw.Draw(canvas)
    x = _PAD
    for image, label in ((left, labels[0]), (right, labels[1])):
        _draw_text(draw, x + (image.width - _width(label, _LABEL_PX)) / 2, _PAD, label,
                   _LABEL_PX)
        canvas.paste(image, (x, top))
        draw.rectangle((x - 1, top - 1, x + image.width, top + height), outline=_FRAME)
        x += image.width + _PAD
    y = top + height + _PAD
    for line in lines:
        _draw_text(draw, (width - _width(line, _ACTION_PX)) / 2, y, line, _ACTION_PX)
        y += _ACTION_PX + 4
    return canvas


class Shots:
    """``fidelity.heldout``'s ``snap``: at the steps picked, draws the recorded screenshot
    beside the rebuilt app's frame into ``out``/``<trace>_<step>.png``."""

    def __init__(self, picked: Iterable[tuple[str, int]],
                 frames: Mapping[str, Mapping[int, Path]], out: Path,
                 height: int = HEIGHT) -> None:
        self.picked = set(picked)
        self.frames, self.out, self.height = frames, out, height
        self.written: list[dict[str, Any]] = []
        self._renderer: Renderer | None = None

    def __call__(self, trace: Trace, step: Step, rebuilt: Any, result: dict[str, Any]) -> None:
        if (trace.name, step.index) not in self.picked:
            return
        with Image.open(self.frames[trace.name][step.index]) as shot:
            recorded = shot.convert("RGB")
        if self._renderer is None:  # twice the size drawn, then scaled down: sharper text
            ratio = recorded.width / recorded.height
            self._renderer = Renderer(round(2 * self.height * ratio), 2 * self.height)
        mine = self._renderer.render_image(rebuilt.device.frame())
        self.out.mkdir(parents=True, exist_ok=True)
        path = self.out / f"{trace.name}_{step.index:04d}.png"
        side_by_side(recorded, mine, describe_action(step), height=self.height).save(
            path, optimize=True)
        self.written.append({"trace": trace.name, "step": step.index, "path": path,
                             "action": describe_action(step), "iou": result["iou"],
                             "text_overlap": result["text_overlap"], "ok": result["ok"]})


def section(shots: Sequence[Mapping[str, Any]], md_folder: Path) -> list[str]:
    """The ``## Held-out screens`` lines of ``fidelity.md`` (in ``md_folder``) for ``shots``
    (``Shots.written``)."""
    lines = ["## Held-out screens", ""]
    if not shots:
        return lines + ["No held-out step has a screenshot (record with frames).", ""]
    lines += ["Recorded (left) and rebuilt (right) after the same action, a sample of held-out "
              "steps: the screen after each state change first.", ""]
    for s in shots:
        rel = Path(s["path"]).relative_to(md_folder).as_posix()
        lines += [f"![{s['trace']} step {s['step']}]({rel})", "",
                  f"*{s['trace']} step {s['step']}: {s['action']}; element-box IoU "
                  f"{s['iou']:.2f}, text overlap {s['text_overlap']:.2f}"
                  f"{'' if s['ok'] else ' (not reached)'}*", ""]
    return lines
