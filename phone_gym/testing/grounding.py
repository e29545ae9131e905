"""The grounding audit: does an oracle act only on what an agent has?

An agent has the instruction and what this episode's screens showed: the UI elements' text,
content descriptions and hints, and the text drawn into pictures (a receipt, a page: a
vision model reads it from the pixels). ``audit_grounding`` runs a template's oracle and
records, before every action, what the screen showed. It then checks that

- every **typed text** and every **answer** is in the instruction or an earlier screen
  (whole, or each of its words and numbers), unless the template declares that value as a
  computation over seen values (``Task.derivations``: ``{"answer": "the sum of the amounts
  seen"}``), which the report lists;
- every **param** the oracle read was in the instruction, or on a screen already shown
  when it read it: a hidden param (which note is the newest, the rows of a note never
  scrolled to) is how an oracle would choose a target or type a value it never saw;
- the oracle did not read the **device state** to plan (``ui.state``): what it chooses
  must come from the screen. Reads a template declares (``Task.state_reads``: what on the
  screen they stand for) are listed, not failed.

``python -m phone_gym check --grounding`` runs it over templates; the tests run it over
every template on seeds 0-2.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any

import numpy as np

from ..mockapps import APPS, REGISTRY, Episode, Task
from ..tasks.driver import Driver, element_at
from ..world import Device
from ..world.a11y import pixel_texts, ui_elements
from ..world.app import AppLike

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_WORD = re.compile(r"[^\W\d_]+")
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december")


def _number(text: str) -> str:
    """A number's canonical token: thousands separators dropped, trailing zeros cut."""
    if re.fullmatch(r"\d{1,3}(,\d{3})+(\.\d+)?", text):
        text = text.replace(",", "")
    if "," in text:  # a decimal comma, or a list of numbers: keep its parts
        return text
    if "." in text:
        whole, _, frac = text.partition(".")
        frac = frac.rstrip("0")
        return f"{int(whole)}.{frac}" if frac else str(int(whole))
    return str(int(text))


def tokens(text: str) -> set[str]:
    """The words (case-folded) and numbers (canonical) of ``text``; each CJK character is
    a token of its own (CJK writes no spaces)."""
    folded = text.casefold()
    out = {_number(n) for n in _NUMBER.findall(folded)}
    for n in _NUMBER.findall(folded):
        if "," in _number(n):  # "3,4" is a list (or a decimal comma): each part too
            out.update(_number(p) for p in n.split(",") if p)
    for word in _WORD.findall(folded):
        if _CJK.search(word):
            out.update(ch for ch in word if not ch.isspace())
        else:
            out.add(word)
    return out


def _leaves(value: Any) -> Iterator[Any]:
    """The scalar values inside a param (lists, dicts and dataclasses opened)."""
    if isinstance(value, Mapping):
        for v in value.values():
            yield from _leaves(v)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            yield from _leaves(v)
    elif is_dataclass(value) and not isinstance(value, type):
        for f in fields(value):
            yield from _leaves(getattr(value, f.name))
    else:
        yield value


def _date_seen(value: dt.date, seen: set[str]) -> bool:
    month = MONTHS[value.month - 1]
    named = month in seen or month[:3] in seen
    return str(value.day) in seen and (named or str(value.month) in seen)


def value_seen(value: Any, seen: set[str]) -> bool:
    """Whether every scalar in ``value`` was seen (its tokens all in ``seen``). Flags and
    empty values say nothing, so they count as seen."""
    for leaf in _leaves(value):
        if leaf is None or isinstance(leaf, bool):
            continue
        if isinstance(leaf, (dt.date, dt.datetime)):
            if not _date_seen(leaf, seen):
                return False
            continue
        if isinstance(leaf, str) and _ISO_DATE.fullmatch(leaf):
            leaf = dt.date.fromisoformat(leaf)
        if isinstance(leaf, (dt.date, dt.datetime)):
            if not _date_seen(leaf, seen):
                return False
            continue
        if isinstance(leaf, dt.time):
            leaf = f"{leaf.hour} {leaf.minute}"
        if isinstance(leaf, float) and leaf.is_integer():
            leaf = int(leaf)
        if not tokens(str(leaf)) <= seen:
            return False
    return True


# --- what the screen showed --------------------------------------------------------------
def screen_texts(device: Device) -> list[str]:
    """The texts an agent has from the screen now: elements' text, description and hint,
    and the text drawn into pictures (pixels only: a vision model reads it)."""
    out: list[str] = []
    for e in ui_elements(device.frame()):
        out.extend(t for t in (e.text, e.content_desc, e.hint) if t)
    return out + pixel_texts(device.frame())


class Seen:
    """What the episode has shown so far: the instruction and every screen."""

    def __init__(self, instruction: str) -> None:
        self.tokens: set[str] = set(tokens(instruction))
        self.text = instruction.casefold()
        self._texts: set[str] = set()

    def add(self, texts: Iterable[str]) -> None:
        for t in texts:
            if t not in self._texts:
                self._texts.add(t)
                self.tokens |= tokens(t)
                self.text += "\n" + t.casefold()

    def has_text(self, text: str) -> bool:
        """``text`` was shown whole, or each of its words and numbers was."""
        folded = text.casefold().strip()
        return not folded or folded in self.text or tokens(text) <= self.tokens


# --- recording the oracle's inputs -------------------------------------------------------
class _WatchedParams(Mapping[str, Any]):
    """The params, each read reported (while the oracle runs)."""

    def __init__(self, data: Mapping[str, Any], on_read: Callable[[str, Any], None]) -> None:
        self._data = data
        self._on_read = on_read
        self.watching = False

    def __getitem__(self, key: str) -> Any:
        value = self._data[key]
        if self.watching:
            self._on_read(key, value)
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


class _WatchedState:
    """The device state, each attribute the oracle reads reported."""

    def __init__(self, state: Any, on_read: Callable[[str], None]) -> None:
        object.__setattr__(self, "_state", state)
        object.__setattr__(self, "_on_read", on_read)

    @property  # type: ignore[misc]
    def __class__(self) -> type:  # isinstance(ui.state, WorldState): which phone, no read
        return type(self._state)

    def __getattr__(self, name: str) -> Any:
        self._on_read(name)
        return getattr(self._state, name)


# --- the report ----------------------------------------------------------------------------
@dataclass
class Finding:
    """One input of the oracle that the agent did not have."""

    seed: int
    step: int
    kind: str  # typed | answer | param | state
    detail: str

    def __str__(self) -> str:
        return f"seed {self.seed} step {self.step}: {self.kind}: {self.detail}"


@dataclass
class GroundingReport:
    """What ``audit_grounding`` found for one template."""

    template: str
    seeds: tuple[int, ...]
    steps: int = 0
    typed: int = 0
    answers: int = 0
    findings: list[Finding] = field(default_factory=list)
    #: Values accepted as computations the template declares (``Task.derivations``).
    derived: list[str] = field(default_factory=list)
    #: State reads the template declares (``Task.state_reads``), by attribute.
    declared_reads: set[str] = field(default_factory=set)
    errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.findings and not self.errors

    def summary(self) -> str:
        if self.ok:
            extra = f"; declared: {'; '.join(sorted(set(self.derived)))}" if self.derived \
                else ""
            return f"{self.template}: grounded ({self.steps} steps){extra}"
        lines = [f"{self.template}: {len(self.findings)} ungrounded input(s)"]
        lines += [f"  {f}" for f in self.findings[:8]]
        lines += [f"  error: {e}" for e in self.errors]
        return "\n".join(lines)


def audit_grounding(task: Task | str, seeds: Sequence[int] = (0, 1, 2), *,
                    apps: Sequence[AppLike] | None = None) -> GroundingReport:
    """Run ``task``'s oracle on ``seeds`` and check each input it used was the agent's too
    (see the module doc)."""
    template = REGISTRY.template(task) if isinstance(task, str) else task
    report = GroundingReport(template.id, tuple(seeds))
    derivations: Mapping[str, str] = getattr(template, "derivations", {}) or {}
    allowed_reads: Mapping[str, str] = getattr(template, "state_reads", {}) or {}
    device = Device(list(apps) if apps is not None else list(APPS))
    for seed in seeds:
        _audit_seed(template, device, seed, report, derivations, allowed_reads)
    return report


def _audit_seed(template: Task, device: Device, seed: int, report: GroundingReport,
                derivations: Mapping[str, str], allowed_reads: Mapping[str, str]) -> None:
    ep = Episode(template, device, np.random.default_rng(seed))
    seen = Seen(ep.instruction)
    step = 0
    flagged: set[tuple[str, str]] = set()

    def add(kind: str, detail: str) -> None:
        if (kind, detail) not in flagged:
            flagged.add((kind, detail))
            report.findings.append(Finding(seed, step, kind, detail))

    def on_param(key: str, value: Any) -> None:
        if not value_seen(value, seen.tokens):
            add("param", f"read params[{key!r}] = {_short(value)} before it was shown")

    def on_state(name: str) -> None:
        if name in allowed_reads:
            report.declared_reads.add(name)
        else:
            add("state", f"read the device state (ui.state.{name})")

    params = _WatchedParams(ep.params, on_param)
    ep.params = params  # type: ignore[assignment]
    make_driver = ep.driver

    def watched_driver() -> Driver:
        driver = make_driver()
        driver._state = _WatchedState(driver._state, on_state)
        return driver

    ep.driver = watched_driver  # type: ignore[method-assign]
    for step in range(template.max_steps + 1):
        seen.add(screen_texts(device))
        params.watching = True
        try:
            action = ep.oracle_action()
        except Exception as exc:  # noqa: BLE001 - an oracle that fails is reported
            report.errors.append(f"seed {seed}: the oracle failed: {exc}")
            return
        finally:
            params.watching = False
        if action.type in ("type", "answer"):
            what = "typed" if action.type == "type" else "answer"
            if what == "typed":
                report.typed += 1
            else:
                report.answers += 1
            text = action.text or ""
            if not seen.has_text(text):
                key = "type" if what == "typed" else "answer"
                if key in derivations:
                    report.derived.append(f"{what} {text!r}: {derivations[key]}")
                else:
                    add(what, f"{text!r} was not in the instruction or on any screen shown")
        if action.type in ("answer", "finish"):
            report.steps += step
            return
        error = device.step(action)
        if error is not None:
            report.errors.append(f"seed {seed}: oracle action {action} failed: {error}")
            return
        ep.observe(action)
    report.errors.append(f"seed {seed}: the oracle did not finish in {template.max_steps} "
                         "steps")


def _short(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def audit_all(task_ids: Iterable[str] | None = None, seeds: Sequence[int] = (0, 1, 2)
              ) -> list[GroundingReport]:
    """``audit_grounding`` over ``task_ids`` (default: every registered template)."""
    ids = list(task_ids) if task_ids is not None else sorted(REGISTRY.templates)
    return [audit_grounding(t, seeds) for t in ids]


# --- routes ----------------------------------------------------------------------------------
def route_signature(steps: Sequence[tuple[str, str]]) -> tuple[str, ...]:
    """A route as the kinds of its steps (``action`` type, and for taps the kind of element
    tapped): two runs with different typed values but the same path have the same one."""
    return tuple(f"{kind}:{target}" for kind, target in steps)


def routes(task: Task | str, seed: int = 0, tries: int = 6, *, detours: bool = False,
           apps: Sequence[AppLike] | None = None) -> dict[tuple[str, ...], bool]:
    """The distinct routes ``task``'s oracle takes on ``seed`` over ``tries`` route seeds
    (``Episode.route_seed``), each with whether it solved the task within the budget."""
    template = REGISTRY.template(task) if isinstance(task, str) else task
    device = Device(list(apps) if apps is not None else list(APPS))
    out: dict[tuple[str, ...], bool] = {}
    for route_seed in range(tries):
        ep = Episode(template, device, np.random.default_rng(seed))
        ep.route_seed, ep.detours = route_seed, detours
        steps: list[tuple[str, str]] = []

        def act(action: Any, ep: Episode = ep, steps: list[tuple[str, str]] = steps
                ) -> str | None:
            target = ""
            if action.x is not None and action.type != "scroll":
                e = element_at(ep.host.elements(), action.x, action.y or 0)
                target = e.kind if e is not None else ""
            steps.append((action.type, target))
            return device.step(action)

        try:
            answer, _ = ep.solve(act=act)
            ok = ep.verify(answer, ep.end_status).success
        except Exception:  # noqa: BLE001 - a route that fails is reported as failed
            ok = False
        sig = route_signature(steps)
        out[sig] = out.get(sig, True) and ok
    return out
