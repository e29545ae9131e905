"""The static HTML report of a bench run: ``write_report(run_dir)``.

Reads the run folder the runner writes (``results.jsonl``, optional ``summary.json`` and
``run.json``, frames under ``episodes/<task>_<seed>/``) and writes ``report/index.html``
(summary, success charts as inline SVG, a table of episodes) and one page per episode under
``report/episodes/`` (instruction, verdict, failure, every frame with its action drawn over
it as SVG). No JavaScript, no CDN, no server: the pages open from disk (``file://``) and
link the run's frames by relative paths, so move the run folder as a whole. Everything that
comes from the run (instructions, model outputs, verdicts) is HTML-escaped.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping
from html import escape
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import quote

from PIL import Image

__all__ = ["write_report", "load_records"]

_REPORT_DIR = "report"
_POINT_ACTIONS = ("click", "double_click", "long_press")
_CAPTION_ACTIONS = ("type", "press", "open_app", "close_app", "wait", "answer", "finish")
_COORD_MAX = 1000
_SCROLL_ARROW = 250  # arrow length for a scroll, in [0, 1000] units of the screen height
_CSP = ("default-src 'none'; img-src 'self' file: data:; style-src 'unsafe-inline'; "
        "base-uri 'none'; form-action 'none'")

_CSS = """
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1d2330;background:#f6f7fa}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:24px 0 8px}
a{color:#2456c7}.muted{color:#667;overflow-wrap:anywhere}
.cards{display:flex;gap:12px;flex-wrap:wrap}
.card{background:#fff;border:1px solid #dde1ea;border-radius:8px;padding:10px 14px;min-width:110px}
.card b{display:block;font-size:20px}
.charts{display:flex;gap:16px;flex-wrap:wrap}
.chart{background:#fff;border:1px solid #dde1ea;border-radius:8px;padding:8px 12px}
.chart h3{font-size:14px;margin:0 0 4px}
table{border-collapse:collapse;background:#fff}
th,td{border:1px solid #dde1ea;padding:4px 8px;text-align:left}
th{background:#eef1f6}.ok{color:#137333;font-weight:600}.ko{color:#b3261e;font-weight:600}
.frames{display:flex;gap:14px;flex-wrap:wrap}
.frame{background:#fff;border:1px solid #dde1ea;border-radius:8px;padding:6px;width:282px}
.shot{position:relative;width:270px}
.shot img{display:block;width:100%;height:auto}
.shot svg{position:absolute;left:0;top:0;width:100%;height:100%}
.caption{font-weight:600;margin-top:4px;word-break:break-word}
.error{color:#b3261e;word-break:break-word}
pre{white-space:pre-wrap;word-break:break-word;background:#f1f3f7;padding:4px;margin:4px 0;
font-size:12px;max-height:160px;overflow:auto}
"""


def write_report(run_dir: str | Path) -> Path:
    """Write ``run_dir/report/index.html`` and one page per episode; return the index path.

    Raises ``FileNotFoundError`` when ``run_dir`` has no ``results.jsonl`` and ``ValueError``
    when a line of it is not a JSON object (a truncated last line, as an interrupted run
    may leave, is skipped).
    """
    run = Path(run_dir)
    records = load_records(run)
    summary = _read_json(run / "summary.json")
    settings = _read_json(run / "run.json")
    out = run / _REPORT_DIR
    (out / "episodes").mkdir(parents=True, exist_ok=True)
    names = _page_names(records)
    for i, record in enumerate(records):
        prev_name = names[i - 1] if i > 0 else None
        next_name = names[i + 1] if i + 1 < len(records) else None
        page = _episode_page(run, record, prev_name, next_name)
        (out / "episodes" / f"{names[i]}.html").write_text(page, encoding="utf-8")
    index = out / "index.html"
    index.write_text(_index_page(records, names, summary, settings), encoding="utf-8")
    return index


def load_records(run_dir: str | Path) -> list[dict[str, Any]]:
    """The episode records of ``run_dir/results.jsonl``, the last one per (suite, task, seed),
    sorted by suite, task and seed."""
    path = Path(run_dir) / "results.jsonl"
    if not path.is_file():
        raise FileNotFoundError(
            f"no results.jsonl in {run_dir}: run `phone-gym bench run ... --out {run_dir}` first"
        )
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    latest: dict[tuple[str, str, int], dict[str, Any]] = {}
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            if number == len(lines):  # no newline after it: cut off by an interruption
                continue
            raise ValueError(f"{path}:{number}: not a JSON record ({exc.msg})") from None
        if not isinstance(record, dict) or "task" not in record:
            raise ValueError(f"{path}:{number}: a record is a JSON object with a 'task' key")
        key = (str(record.get("suite", "")), str(record["task"]), _int(record.get("seed")))
        latest[key] = record
    return [latest[key] for key in sorted(latest)]


# ---------------------------------------------------------------------------------------------
# data helpers


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _int(value: Any, default: int = 0) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _float(value: Any) -> float:
    try:
        out = float(value)
    except (TypeError, ValueError):
        return 0.0
    return out if math.isfinite(out) else 0.0


def _page_names(records: list[dict[str, Any]]) -> list[str]:
    """A unique, file-name-safe page name per record."""
    names: list[str] = []
    seen: set[str] = set()
    for record in records:
        base = re.sub(r"[^A-Za-z0-9_.-]+", "-", f"{record['task']}_{record.get('seed')}")
        base = base.strip(".-") or "episode"
        name, n = base, 1
        while name in seen:
            n += 1
            name = f"{base}-{n}"
        seen.add(name)
        names.append(name)
    return names


def _groups(records: Iterable[dict[str, Any]], key: str) -> dict[str, tuple[int, int]]:
    """{group: (successes, episodes)} by a record field; a list field counts in each item."""
    out: dict[str, list[int]] = {}
    for record in records:
        value = record.get(key)
        values = value if isinstance(value, list) else [value]
        for item in values or [None]:
            label = "n/a" if item is None else str(item)
            tally = out.setdefault(label, [0, 0])
            tally[0] += bool(record.get("success"))
            tally[1] += 1
    return {label: (ok, n) for label, (ok, n) in sorted(out.items(), key=_natural)}


def _natural(item: tuple[str, Any]) -> tuple[int, float, str]:
    label = item[0]
    try:
        return (0, float(label), label)
    except ValueError:
        return (1, 0.0, label)


def _frame_dir(run: Path, record: Mapping[str, Any]) -> PurePosixPath | None:
    """The record's frame folder relative to the run, or None if missing or outside it."""
    frames = record.get("frames")
    if not isinstance(frames, str) or not frames:
        return None
    rel = PurePosixPath(frames.replace("\\", "/"))
    if rel.is_absolute() or ".." in rel.parts:
        return None
    return rel if (run / rel).is_dir() else None


def _frames(run: Path, rel: PurePosixPath | None) -> list[PurePosixPath]:
    if rel is None:
        return []
    found = sorted((run / rel).glob("step_*.png"))
    return [rel / path.name for path in found]


# ---------------------------------------------------------------------------------------------
# SVG


def _bar_chart(title: str, groups: Mapping[str, tuple[int, int]]) -> str:
    """A horizontal bar chart of success rates, as inline SVG."""
    label_w, bar_w, row_h, pad = 150, 220, 24, 6
    width = label_w + bar_w + 90
    height = pad * 2 + row_h * max(1, len(groups))
    parts = [
        f'<svg class="bars" xmlns="http://www.w3.org/2000/svg" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{escape(title)}">'
    ]
    for i, (label, (ok, n)) in enumerate(groups.items()):
        y = pad + i * row_h
        rate = ok / n if n else 0.0
        short = label if len(label) <= 19 else label[:18] + "…"
        parts.append(
            f'<text x="{label_w - 6}" y="{y + 16}" text-anchor="end" font-size="12">'
            f"<title>{escape(label)}</title>{escape(short)}</text>"
            f'<rect class="track" x="{label_w}" y="{y + 4}" width="{bar_w}" height="{row_h - 8}" '
            f'fill="#e6e9f0" rx="3"/>'
            f'<rect class="bar" x="{label_w}" y="{y + 4}" width="{rate * bar_w:.1f}" '
            f'height="{row_h - 8}" fill="{_rate_color(rate)}" rx="3">'
            f"<title>{escape(label)}: {ok}/{n}</title></rect>"
            f'<text x="{label_w + bar_w + 6}" y="{y + 16}" font-size="12">'
            f"{rate:.0%} ({ok}/{n})</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def _rate_color(rate: float) -> str:
    return "#2e9e5b" if rate >= 0.8 else "#e0a526" if rate >= 0.4 else "#d0543f"


def _action_fields(record_action: Mapping[str, Any]) -> dict[str, Any]:
    """The action dict with its type under "type" (the runner may write "action")."""
    fields = dict(record_action)
    kind = fields.pop("type", None) or fields.pop("action", None)
    fields["type"] = kind if isinstance(kind, str) else ""
    return fields


def _num(fields: Mapping[str, Any], name: str) -> float | None:
    value = fields.get(name)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return min(max(float(value), 0.0), float(_COORD_MAX))


def _describe(fields: Mapping[str, Any]) -> str:
    """One line for an action: ``click (500, 300)``, ``type "hello"``..."""
    kind = fields["type"]
    if fields.get("index") is not None:
        extra = f' "{fields["text"]}"' if kind == "type" and fields.get("text") else ""
        direction = f" {fields['direction']}" if fields.get("direction") else ""
        return f"{kind}{direction}{extra} [element {fields['index']}]"
    if kind in _POINT_ACTIONS:
        return f"{kind} ({fields.get('x')}, {fields.get('y')})"
    if kind == "scroll":
        return f"scroll {fields.get('direction')} at ({fields.get('x')}, {fields.get('y')})"
    if kind == "drag":
        return (f"drag ({fields.get('x')}, {fields.get('y')}) → "
                f"({fields.get('x2')}, {fields.get('y2')})")
    if kind in ("type", "answer"):
        return f'{kind} "{fields.get("text", "")}"'
    if kind == "press":
        return f"press {fields.get('button')}"
    if kind in ("open_app", "close_app"):
        return f"{kind} {fields.get('app')}"
    if kind == "wait":
        return f"wait {fields.get('seconds')} s"
    if kind == "finish":
        return f"finish ({fields.get('status', 'success')})"
    return kind or "?"


def _overlay(fields: Mapping[str, Any], size: tuple[int, int]) -> str:
    """SVG over a frame of ``size`` pixels: a circle at a touch point, an arrow for a scroll
    or drag, a banner with the text of the other actions."""
    w, h = size
    sx, sy = w / _COORD_MAX, h / _COORD_MAX
    r = max(6.0, w * 0.035)
    stroke = max(2.0, w * 0.008)
    kind = fields["type"]
    x, y = _num(fields, "x"), _num(fields, "y")
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" '
        'preserveAspectRatio="none" aria-hidden="true">'
        '<defs><marker id="head" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="4" '
        'markerHeight="4" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" '
        'fill="#ff3b30"/></marker></defs>'
    ]
    has_point = x is not None and y is not None and fields.get("index") is None
    if kind in _POINT_ACTIONS and has_point:
        assert x is not None and y is not None
        cx, cy = x * sx, y * sy
        parts.append(f'<circle class="touch" cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" '
                     f'fill="rgba(255,59,48,0.35)" stroke="#ff3b30" stroke-width="{stroke:.1f}"/>')
        if kind == "double_click":
            parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r * 1.6:.1f}" fill="none" '
                         f'stroke="#ff3b30" stroke-width="{stroke:.1f}"/>')
        if kind == "long_press":
            parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r * 0.4:.1f}" '
                         'fill="#ff3b30"/>')
    elif kind in ("scroll", "drag") and has_point:
        assert x is not None and y is not None
        if kind == "drag":
            x2, y2 = _num(fields, "x2"), _num(fields, "y2")
            end = (x2 if x2 is not None else x, y2 if y2 is not None else y)
        else:
            dx, dy = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}.get(
                str(fields.get("direction")), (0, 0))
            end = (x + dx * _SCROLL_ARROW, y + dy * _SCROLL_ARROW)
        parts.append(
            f'<line class="swipe" x1="{x * sx:.1f}" y1="{y * sy:.1f}" x2="{end[0] * sx:.1f}" '
            f'y2="{end[1] * sy:.1f}" stroke="#ff3b30" stroke-width="{stroke * 2:.1f}" '
            'stroke-linecap="round" marker-end="url(#head)"/>'
            f'<circle cx="{x * sx:.1f}" cy="{y * sy:.1f}" r="{r * 0.5:.1f}" fill="#ff3b30"/>'
        )
    if kind in _CAPTION_ACTIONS or fields.get("index") is not None:
        text = _describe(fields)
        text = text if len(text) <= 60 else text[:59] + "…"
        font = max(10.0, w * 0.04)
        top = h - font * 2.4
        parts.append(
            f'<rect x="0" y="{top:.1f}" width="{w}" height="{font * 2.4:.1f}" '
            'fill="rgba(20,24,33,0.78)"/>'
            f'<text class="banner" x="{w / 2:.1f}" y="{top + font * 1.55:.1f}" '
            f'text-anchor="middle" font-size="{font:.1f}" fill="#fff" '
            f'font-family="system-ui,sans-serif">{escape(text)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


# ---------------------------------------------------------------------------------------------
# pages


def _page(title: str, body: str) -> str:
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{_CSS}</style></head><body>\n"
        f"{body}\n</body></html>\n"
    )


def _index_page(records: list[dict[str, Any]], names: list[str], summary: Mapping[str, Any],
                settings: Mapping[str, Any]) -> str:
    n = len(records)
    ok = sum(bool(r.get("success")) for r in records)
    tokens_in = sum(_int(r.get("tokens_in")) for r in records)
    tokens_out = sum(_int(r.get("tokens_out")) for r in records)
    episode_time = sum(_float(r.get("time_s")) for r in records)
    wall = _float(summary.get("time_s")) or episode_time
    agent = summary.get("agent") or settings.get("agent") or "agent"
    suites = sorted({str(r.get("suite", "")) for r in records if r.get("suite")})
    suite = summary.get("suite") or settings.get("suite") or ", ".join(suites) or "suite"
    mean_steps = sum(_int(r.get("steps")) for r in records) / n if n else 0.0
    cards = [
        ("success rate", f"{ok / n:.1%}" if n else "n/a"),
        ("episodes", f"{ok}/{n} solved"),
        ("mean steps", f"{mean_steps:.1f}"),
        ("tokens in / out", f"{tokens_in:,} / {tokens_out:,}"),
        ("time", _duration(wall)),
    ]
    body = [
        f"<h1>phone-gym bench: {escape(str(agent))}</h1>",
        f'<div class="muted">suite {escape(str(suite))}</div>',
        '<h2>Summary</h2><div class="cards">',
        *(f'<div class="card"><span class="muted">{escape(k)}</span><b>{escape(v)}</b></div>'
          for k, v in cards),
        "</div>",
        '<h2>Success</h2><div class="charts">',
    ]
    for title, key in (("by suite", "suite"), ("by app", "apps"), ("by category", "category"),
                       ("by difficulty", "difficulty")):
        body.append(f'<div class="chart"><h3>{escape(title)}</h3>'
                    f"{_bar_chart(title, _groups(records, key))}</div>")
    body.append("</div>")
    failures = _groups([r for r in records if not r.get("success")], "failure")
    if failures:
        body.append("<h2>Failures</h2><table><tr><th>reason</th><th>episodes</th></tr>")
        body += [f"<tr><td>{escape(k)}</td><td>{n_}</td></tr>" for k, (_, n_) in failures.items()]
        body.append("</table>")
    body.append("<h2>Episodes</h2><table><tr><th>task</th><th>seed</th><th>success</th>"
                "<th>steps</th><th>reward</th><th>failure</th></tr>")
    for record, name in zip(records, names, strict=True):
        success = bool(record.get("success"))
        body.append(
            f'<tr><td><a href="episodes/{quote(name)}.html">{escape(str(record["task"]))}</a>'
            f"</td><td>{escape(str(record.get('seed')))}</td>"
            f'<td class="{"ok" if success else "ko"}">{"yes" if success else "no"}</td>'
            f"<td>{_int(record.get('steps'))}/{_int(record.get('max_steps'))}</td>"
            f"<td>{_float(record.get('reward')):g}</td>"
            f"<td>{escape(str(record.get('failure') or ''))}</td></tr>"
        )
    body.append("</table>")
    return _page(f"phone-gym bench: {agent}", "\n".join(body))


def _duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, sec = divmod(round(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {sec} s"
    return f"{minutes // 60} h {minutes % 60} min"


def _episode_page(run: Path, record: Mapping[str, Any], prev_name: str | None,
                  next_name: str | None) -> str:
    success = bool(record.get("success"))
    task = str(record["task"])
    nav = ['<a href="../index.html">all episodes</a>']
    if prev_name:
        nav.append(f'<a href="{quote(prev_name)}.html">previous</a>')
    if next_name:
        nav.append(f'<a href="{quote(next_name)}.html">next</a>')
    facts = [
        ("instruction", record.get("instruction")),
        ("verdict", record.get("verdict")),
        ("failure", record.get("failure")),
        ("failure detail", record.get("failure_detail")),
        ("apps", ", ".join(str(a) for a in record.get("apps") or [])),
        ("category", record.get("category")),
        ("difficulty", record.get("difficulty")),
        ("steps", f"{_int(record.get('steps'))}/{_int(record.get('max_steps'))}"),
        ("reward", f"{_float(record.get('reward')):g}"),
        ("tokens in / out", f"{_int(record.get('tokens_in'))} / {_int(record.get('tokens_out'))}"),
        ("time", _duration(_float(record.get("time_s")))),
    ]
    body = [
        " · ".join(nav),
        f"<h1>{escape(task)} <span class=\"muted\">seed {escape(str(record.get('seed')))}"
        f"</span></h1>",
        f'<p class="{"ok" if success else "ko"}">{"solved" if success else "failed"}</p>',
        "<table>",
        *(f"<tr><th>{escape(k)}</th><td>{escape(str(v))}</td></tr>"
          for k, v in facts if v not in (None, "")),
        "</table><h2>Frames</h2>",
        '<div class="frames">',
    ]
    actions = [a for a in record.get("actions") or [] if isinstance(a, Mapping)]
    actions.sort(key=lambda a: _int(a.get("step")))
    frames = _frames(run, _frame_dir(run, record))
    for i in range(max(len(frames), len(actions))):
        frame = frames[i] if i < len(frames) else None
        step = actions[i] if i < len(actions) else None
        body.append(_frame_card(run, i, frame, step, last=i >= len(actions)))
    body.append("</div>")
    if not frames:
        body.append('<p class="muted">no frames were recorded for this episode</p>')
    return _page(f"{task} seed {record.get('seed')}", "\n".join(body))


def _frame_card(run: Path, i: int, frame: PurePosixPath | None,
                step: Mapping[str, Any] | None, last: bool) -> str:
    fields = None
    if step is not None and isinstance(step.get("action"), Mapping):
        fields = _action_fields(step["action"])
    if step is None:
        caption = "final screen" if last else "no action"
    elif fields is None:
        caption = "invalid action"
    else:
        caption = _describe(fields)
    parts = ['<div class="frame">']
    if frame is not None:
        try:
            with Image.open(run / frame) as image:
                size = image.size
        except OSError:
            size = None
        if size is not None:
            src = "../../" + quote(str(frame))
            overlay = _overlay(fields, size) if fields is not None else ""
            parts.append(f'<div class="shot"><img src="{src}" alt="step {i}" width="{size[0]}" '
                         f'height="{size[1]}">{overlay}</div>')
    parts.append(f'<div class="caption">{i}: {escape(caption)}</div>')
    if step is not None:
        if step.get("error"):
            parts.append(f'<div class="error">{escape(str(step["error"]))}</div>')
        text = step.get("text")
        if text:
            parts.append(f"<details><summary>model output</summary><pre>{escape(str(text))}"
                         "</pre></details>")
    parts.append("</div>")
    return "".join(parts)
