"""Checks for app and task authors: ``check_task`` and ``check_app`` work on any template or
app, built-in or third-party, and say what is wrong in plain words.

``check_task`` runs a template on many seeds: its instruction is filled, a do-nothing finish
fails, the oracle solves every seed within the step budget, every near miss (derived from the
criteria, and declared) fails, damaging a bystander record fails, the same seed gives the
same episode (in this process and in a fresh one), and the oracle still solves the task when
started after random actions (it is told it is not on a fresh start), unless those actions
did damage the task does not allow (then it must say the state is unrecoverable).

``check_app`` walks an app with random and garbage actions: no step may raise, every
clickable element must have text or a description and lie inside the screen, every screen
must render within a time budget, and two phones given the same actions must end the same.

``judge_matrix`` judges many end states of a template: positives (the oracle's end, the
ends the oracle reaches from other screens after random actions, the accepted answer
formats) must pass; negatives (the derived near misses, the right end declared infeasible,
doing nothing, a bystander removed, changed or copied, the task done to the wrong record,
over-deletion, switching off instead of deleting, dumped and hedged answers) must fail.

All three raise ``CheckFailed`` listing every problem, and return a report with the figures.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..actions import PhoneAction, format_action, make_action_space
from ..actions.space import action_from_sample
from ..mockapps import APPS, REGISTRY, Episode, Task, Unrecoverable
from ..tasks.driver import OracleError
from ..tasks.families import (
    DeleteRecord,
    EditRecord,
    Lookup,
    RecordTask,
    SetSetting,
    record_keys,
)
from ..verifiers import lookup, plain
from ..verifiers.answers import answer_variants, wrong_answers
from ..verifiers.negatives import perturb, table_at
from ..world import App, Device
from ..world import theme as T
from ..world.a11y import ui_elements
from ..world.app import AppLike
from ..world.render import Renderer

#: Numbers of random actions ``check_task`` takes before starting the oracle (the first
#: opens one of the task's apps, so that the others land in it).
STARTS = (0, 3, 10)
#: Share of recoverable random starts the oracle must solve.
MIN_RECOVERED = 0.9
GARBAGE = ("", "click(", "tap the thing", '{"action": "fly"}', "click(x=2000, y=-1)",
           "type(text=123)", "open_app(app='Nope')", "scroll(direction='sideways')",
           "press(button='power')", "<tool_call>{}</tool_call>", "wait(seconds=-5)", "x" * 600)


class CheckFailed(AssertionError):
    """A check found problems (the message lists them)."""


@dataclass
class TaskReport:
    """What ``check_task`` measured for one template."""

    task_id: str
    seeds: int
    solved: int = 0
    negatives: int = 0
    steps: list[int] = field(default_factory=list)
    #: per number of random actions: (recoverable, solved among them, unrecoverable said)
    starts: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def recovered(self, k: int) -> float:
        recoverable, solved, _ = self.starts.get(k, (0, 0, 0))
        return solved / recoverable if recoverable else 1.0

    def line(self) -> str:
        parts = [f"{self.task_id:32} oracle {self.solved}/{self.seeds}",
                 f"negatives {self.negatives}"]
        for k, (rec, ok, unrec) in sorted(self.starts.items()):
            parts.append(f"after {k:2d}: {ok}/{rec} ({self.recovered(k):.0%}, "
                         f"{unrec} unrecoverable)")
        return "  ".join(parts)


def _resolve_task(task: Task | str) -> Task:
    return REGISTRY.template(task) if isinstance(task, str) else task


def _apps_for(task: Task, apps: Sequence[AppLike] | None) -> list[AppLike]:
    return list(apps) if apps is not None else list(APPS)


def fingerprint(task: Task, seed: int, apps: Sequence[AppLike] | None = None,
                locale: str = "en-US") -> str:
    """A hash of one episode: params, instruction, initial state and the oracle's actions."""
    device = Device(_apps_for(task, apps), locale=locale)
    ep = Episode(task, device, np.random.default_rng(seed))
    actions = []
    for _ in range(task.max_steps):
        action = ep.oracle_action()
        actions.append(format_action(action))
        if action.type in ("answer", "finish") or device.step(action) is not None:
            break
        ep.observe(action)
    blob = json.dumps([ep.params, ep.instruction, plain(ep.initial), actions], sort_keys=True,
                      default=str)
    return hashlib.sha1(blob.encode()).hexdigest()


def _bystander(initial: Mapping[str, Any], final: Mapping[str, Any]) -> list[str] | None:
    """The path of a record present and unchanged in both snapshots."""
    stack: list[tuple[list[str], Any, Any]] = [([], initial, final)]
    while stack:
        path, a, b = stack.pop(0)
        if not (isinstance(a, Mapping) and isinstance(b, Mapping)):
            continue
        for key, value in a.items():
            if key not in b:
                continue
            if isinstance(value, Mapping) and ("id" in value or "sha1" in value) \
                    and value == b[key]:
                return [*path, key]
            stack.append(([*path, key], value, b[key]))
    return None


def _without(state: Mapping[str, Any], path: list[str]) -> dict[str, Any]:
    out = plain(state)
    node = out
    for key in path[:-1]:
        node = node[key]
    del node[path[-1]]
    return out


def _random_actions(rng: np.random.Generator, app_names: Sequence[str], k: int,
                    space_seed: int) -> list[PhoneAction]:
    space = make_action_space(list(app_names))
    space.seed(space_seed)
    out: list[PhoneAction] = []
    while len(out) < k:
        action = action_from_sample(space.sample(), list(app_names))
        if action.type not in ("answer", "finish"):
            out.append(action)
    return out


def check_task(task: Task | str, seeds: int = 20, *, starts: Iterable[int] = STARTS,
               apps: Sequence[AppLike] | None = None, processes: bool = True,
               raise_on_failure: bool = True, locale: str = "en-US") -> TaskReport:
    """Check a template (see the module doc); ``apps`` are the apps of the phone (default:
    every registered app), ``locale`` the phone's (``world.locale``; the template must
    declare it). Raises ``CheckFailed`` unless ``raise_on_failure`` is False."""
    template = _resolve_task(task)
    report = TaskReport(template.id, seeds)
    problems = report.problems
    app_classes = _apps_for(template, apps)
    device = Device(app_classes, locale=locale)
    for seed in range(seeds):
        ep = Episode(template, device, np.random.default_rng(seed))
        if not ep.instruction or "{" in ep.instruction:
            problems.append(f"seed {seed}: instruction not filled: {ep.instruction!r}")
        if ep.verify(None, "success").success != template.done_at_start:
            problems.append(f"seed {seed}: finishing at once "
                            + ("fails" if template.done_at_start else "passes"))
        try:
            answer, steps = ep.solve()
        except (RuntimeError, OracleError) as exc:
            problems.append(f"seed {seed}: oracle failed: {exc}")
            continue
        verdict = ep.verify(answer, ep.end_status)
        if not verdict.success:
            problems.append(f"seed {seed}: oracle's end state fails: {verdict.reason}")
            continue
        report.solved += 1
        report.steps.append(steps)
        if template.needs_answer and answer is None:
            problems.append(f"seed {seed}: a question task finished without an answer")
        final = ep.host.snapshot(template)  # with ``foreground``, as the episode sees it
        misses = template.near_misses(ep.initial, final, ep.params, answer)
        if not misses:
            problems.append(f"seed {seed}: no near miss derived or declared")
        for miss in misses:
            report.negatives += 1
            if template.judge(ep.initial, miss.state, ep.params, miss.answer,
                              miss.status).success:
                problems.append(f"seed {seed}: near miss passes: {miss.why}")
        victim = _bystander(ep.initial, final)
        if victim is None:
            problems.append(f"seed {seed}: the setup leaves no bystander record to damage")
        elif template.judge(ep.initial, _without(final, victim), ep.params, answer,
                            ep.end_status).success:
            problems.append(f"seed {seed}: deleting {'.'.join(victim)} passes")
        if seed < 3:  # the same seed twice gives the same episode
            if (fingerprint(template, seed, app_classes, locale)
                    != fingerprint(template, seed, app_classes, locale)):
                problems.append(f"seed {seed}: the same seed gives different episodes")
    for k in starts:
        report.starts[k] = _random_starts(template, app_classes, seeds, k, problems, locale)
        if report.recovered(k) < MIN_RECOVERED:
            rec, ok, _ = report.starts[k]
            problems.append(f"after {k} random actions the oracle solved {ok} of {rec} "
                            f"recoverable starts (< {MIN_RECOVERED:.0%})")
    if processes and template.id in REGISTRY.templates and apps is None:
        problems += _cross_process(template, min(seeds, 3))
    if problems and raise_on_failure:
        raise CheckFailed(f"{template.id}:\n  " + "\n  ".join(problems))
    return report


def _random_starts(template: Task, app_classes: Sequence[AppLike], seeds: int, k: int,
                   problems: list[str], locale: str = "en-US") -> tuple[int, int, int]:
    device = Device(app_classes, locale=locale)
    names = [a.name for a in app_classes]
    recoverable = solved = unrecoverable = 0
    for seed in range(seeds):
        ep = Episode(template, device, np.random.default_rng(seed))
        rng = np.random.default_rng(10_000 + seed)
        actions = _random_actions(rng, names, k, 10_000 + seed)
        if actions and template.apps:  # into one of the task's apps first: the random
            app = template.apps[int(rng.integers(len(template.apps)))]  # taps land there
            actions[0] = PhoneAction("open_app", app=app)
        for action in actions:
            device.step(action)
            ep.observe(action)
        damaged = bool(ep.verify(None).damage)
        try:
            answer, _ = ep.solve(template.max_steps + len(template.apps) + 1)
        except Unrecoverable:
            unrecoverable += 1
            if not damaged:
                problems.append(f"after {k} random actions (seed {seed}) the oracle said "
                                "unrecoverable on a state without damage")
            continue
        except (RuntimeError, OracleError):
            answer = None
        if damaged:
            problems.append(f"after {k} random actions (seed {seed}) the state holds damage "
                            "but the oracle did not say it is unrecoverable")
            continue
        recoverable += 1
        solved += ep.verify(answer, ep.end_status).success
    return recoverable, solved, unrecoverable


def fingerprints(task_ids: Sequence[str], seeds: int) -> dict[str, list[str]]:
    """``fingerprint`` of registered templates on seeds ``0..seeds-1``."""
    return {t: [fingerprint(REGISTRY.template(t), s) for s in range(seeds)] for t in task_ids}


def fresh_process_fingerprints(task_ids: Sequence[str], seeds: int) -> dict[str, list[str]]:
    """``fingerprints`` computed in a fresh interpreter (no state shared with this one)."""
    code = ("import json; from phone_gym.testing import fingerprints; "
            f"print(json.dumps(fingerprints({list(task_ids)!r}, {seeds})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=600, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def _cross_process(template: Task, seeds: int) -> list[str]:
    here = fingerprints([template.id], seeds)
    try:
        there = fresh_process_fingerprints([template.id], seeds)
    except (subprocess.SubprocessError, ValueError, IndexError) as exc:
        return [f"could not run the task in a fresh process: {exc}"]
    if there != here:
        return ["the same seeds give different episodes in a fresh process "
                "(randomness outside the env's generator?)"]
    return []


# --- apps -------------------------------------------------------------------------------------
@dataclass
class AppReport:
    """What ``check_app`` measured for one app."""

    app: str
    steps: int = 0
    screens: int = 0
    render_ms_max: float = 0.0
    render_ms_mean: float = 0.0
    problems: list[str] = field(default_factory=list)

    def line(self) -> str:
        return (f"{self.app:20} {self.steps} steps, {self.screens} screens, render "
                f"{self.render_ms_mean:.1f} ms mean / {self.render_ms_max:.1f} ms max (cold)")


def _resolve_app(app: type[App] | str) -> type[App]:
    return REGISTRY.app(app).app if isinstance(app, str) else app


def check_app(app: type[App] | str, steps: int = 10_000, *, seed: int = 0,
              render_budget_ms: float = 250.0, others: Sequence[AppLike] | None = None,
              raise_on_failure: bool = True) -> AppReport:
    """Walk ``app`` (on a phone with ``others`` too, default every registered app) with
    ``steps`` random and garbage actions, most of them inside the app (see the module doc)."""
    from ..envs.contract import read_action

    app_cls = _resolve_app(app)
    report = AppReport(app_cls.name)
    problems = report.problems
    classes: list[AppLike] = list(others) if others is not None else list(APPS)
    if app_cls not in classes:
        classes.append(app_cls)
    names = [a.name for a in classes]
    device = Device(classes)
    rng = np.random.default_rng(seed)
    tasks = [t for t in REGISTRY.templates.values() if app_cls.name in t.apps]
    space = make_action_space(names)
    space.seed(seed)
    seen: dict[tuple[Any, ...], None] = {}
    renderer = Renderer(T.SCREEN_W // 4, T.SCREEN_H // 4, cache_tiles=False)
    render_times: list[float] = []
    for i in range(steps):
        if tasks and i % 500 == 0:  # data to walk through: a task of the app's set up
            template = tasks[int(rng.integers(len(tasks)))]
            try:
                Episode(template, device, rng)
            except Exception as exc:  # noqa: BLE001 - what we look for
                problems.append(f"step {i}: setting up {template.id} raised "
                                f"{type(exc).__name__}: {exc}")
                break
        if device.foreground != app_cls.name and rng.random() < 0.5:
            if app_cls.manifest.mini_program:  # the agent cannot open it: its host does
                device.open_app(app_cls.name)
            action: Any = PhoneAction("open_app", app=app_cls.name)
        elif rng.random() < 0.05:
            action = GARBAGE[int(rng.integers(len(GARBAGE)))]
        else:
            action = space.sample()
        try:
            parsed, error, _, _ = read_action(action, names)
            if parsed is not None and parsed.type not in ("answer", "finish"):
                device.step(parsed)
            frame = device.frame()
            key = device.screen_key()
            if key not in seen and len(seen) < 200:
                seen[key] = None
                _check_elements(device, problems, f"step {i}")
                start = time.perf_counter()
                renderer.render(frame)
                render_times.append((time.perf_counter() - start) * 1e3)
        except Exception as exc:  # noqa: BLE001 - what we look for
            problems.append(f"step {i}: {format_action(parsed) if parsed else action!r} "
                            f"raised {type(exc).__name__}: {exc}")
            break
        report.steps = i + 1
    report.screens = len(seen)
    if render_times:
        report.render_ms_max = max(render_times)
        report.render_ms_mean = sum(render_times) / len(render_times)
        if report.render_ms_mean > render_budget_ms:
            problems.append(f"a cold frame renders in {report.render_ms_mean:.0f} ms on "
                            f"average (budget {render_budget_ms:.0f} ms)")
    if not problems:
        twins = (Device(classes), Device(classes))
        for twin in twins:
            if tasks:
                Episode(tasks[0], twin, np.random.default_rng(seed))
            twin.step(PhoneAction("open_app", app=app_cls.name))
        for action in _random_actions(rng, names, 300, seed + 1):
            for twin in twins:
                twin.step(action)
        a, b = twins
        if plain(a.snapshot()) != plain(b.snapshot()) or a.screen_key() != b.screen_key():
            problems.append("two phones given the same actions ended in different states")
    if problems and raise_on_failure:
        raise CheckFailed(f"{app_cls.name}:\n  " + "\n  ".join(dict.fromkeys(problems)))
    return report


def _check_elements(device: Device, problems: list[str], where: str) -> None:
    for e in ui_elements(device.frame()):
        x0, y0, x1, y1 = e.bounds
        if not (0 <= x0 <= x1 <= T.SCREEN_W and 0 <= y0 <= y1 <= T.SCREEN_H):
            problems.append(f"{where}: {e.short_class} {e.short_id or e.text!r} has bounds "
                            f"{e.bounds} outside the screen")
        if (e.clickable or e.long_clickable) and not (e.text or e.content_desc):
            problems.append(f"{where}: a clickable {e.short_class} (id {e.short_id!r}) has no "
                            "text and no content description")


# --- the judge matrix ---------------------------------------------------------------------
#: Fewest judged end states per template.
MIN_JUDGED = 20


@dataclass
class JudgeReport:
    """What ``judge_matrix`` judged for one template: counts, and what was judged wrong."""

    task_id: str
    positives: int = 0
    negatives: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def judged(self) -> int:
        return self.positives + self.negatives

    def line(self) -> str:
        return (f"{self.task_id:34} {self.judged:3d} judged: {self.positives} positive, "
                f"{self.negatives} negative")


Case = tuple[Any, str | None, str | None, str]  # (end state, answer, status, why)


def _mutable(state: Mapping[str, Any]) -> dict[str, Any]:
    out = plain(state)
    assert isinstance(out, dict)
    return out


def _flag(record: Mapping[str, Any]) -> str | None:
    """A switch of a record (on/off, done, pinned...): its first boolean field."""
    return next((k for k, v in record.items() if isinstance(v, bool)), None)


def _record_cases(task: Task, ep: Episode, final: Mapping[str, Any], answer: str | None,
                  status: str | None) -> list[Case]:
    """Negatives about the task's own table: the wrong record, over-deletion, a switch
    flipped instead of a deletion, an extra copy."""
    assert isinstance(task, RecordTask)
    initial, params = ep.initial, ep.params
    out: list[Case] = []
    table0 = lookup(initial, task.collection)
    if not isinstance(table0, Mapping):
        return out
    try:
        targets = set(record_keys(initial, task.collection, task.target(params)))
    except (NotImplementedError, KeyError):
        targets = set()
    others = [k for k in table0 if k not in targets]
    if isinstance(task, DeleteRecord) and targets:
        if others:  # a bystander deleted too, and instead
            state = _mutable(final)
            del table_at(state, task.collection)[others[0]]  # type: ignore[union-attr]
            out.append((state, answer, status, f"over-deletion: {others[0]} too"))
            state = _mutable(initial)
            del table_at(state, task.collection)[others[-1]]  # type: ignore[union-attr]
            out.append((state, answer, status, f"the wrong record deleted: {others[-1]}"))
        key = sorted(targets)[0]
        flag = _flag(table0[key])
        if flag is not None:  # the target kept, only switched the other way
            state = _mutable(final)
            row = dict(table0[key])
            row[flag] = not row[flag]
            table_at(state, task.collection)[key] = row  # type: ignore[index]
            out.append((state, answer, status, f"{key}.{flag} flipped instead of a deletion"))
    if isinstance(task, EditRecord) and targets and others:
        key, other = sorted(targets)[0], others[0]
        after = lookup(final, f"{task.collection}.{key}")
        if isinstance(after, Mapping):  # the change made to another record instead
            state = _mutable(initial)
            row = dict(table0[other])
            row.update({f: after[f] for f in task.changes(params) if f in after})
            table_at(state, task.collection)[other] = row  # type: ignore[index]
            out.append((state, answer, status, f"the change made to {other} instead"))
    table1 = lookup(final, task.collection)
    if isinstance(table1, Mapping) and table1:  # a copy of some record, over-doing
        key = sorted(table1)[-1]
        state = _mutable(final)
        row = dict(table1[key])
        if "id" in row:
            row["id"] = f"{key}_copy"
        table_at(state, task.collection)[f"{key}_copy"] = row  # type: ignore[index]
        out.append((state, answer, status, f"an extra copy of {key}"))
    return out


def _bystander_cases(ep: Episode, final: Mapping[str, Any], answer: str | None,
                     status: str | None) -> list[Case]:
    """A record the task does not touch, removed, or one of its fields changed."""
    out: list[Case] = []
    victim = _bystander(ep.initial, final)
    if victim is None:
        return out
    out.append((_without(final, victim), answer, status, f"{'.'.join(victim)} removed"))
    state = _mutable(final)
    node = state
    for key in victim:
        node = node[key]
    for name, value in node.items():
        changed = perturb(value)
        if name != "id" and changed is not None and changed != value:
            node[name] = changed
            out.append((state, answer, status, f"{'.'.join(victim)}.{name} changed"))
            break
    return out


def judge_cases(task: Task | str, seed: int, apps: Sequence[AppLike] | None = None
                ) -> tuple[list[Case], list[Case], Episode]:
    """The positive and negative end states of ``task`` on ``seed`` (see the module doc)."""
    template = _resolve_task(task)
    app_classes = _apps_for(template, apps)
    device = Device(app_classes)
    ep = Episode(template, device, np.random.default_rng(seed))
    answer, _ = ep.solve()
    status, final = ep.end_status, ep.host.snapshot(template)
    positives: list[Case] = [(final, answer, status, "the oracle's end")]
    negatives: list[Case] = [(m.state, m.answer, m.status, m.why)
                             for m in template.near_misses(ep.initial, final, ep.params, answer)]
    if template.done_at_start:  # already right at the start: doing nothing is right
        positives.append((ep.initial, None, "success", "nothing done"))
    elif not template.infeasible:
        negatives.append((ep.initial, None, "success", "nothing done"))
    if isinstance(template, Lookup) and not template.infeasible:
        expected = template.expected(ep.params)
        kind, name = template.answer_type, template.answer_field
        positives += [(final, v, None, f"answer {v!r}")
                      for v in answer_variants(kind, expected, name)]
        candidates = template.candidates(ep.params, ep.initial)
        negatives += [(final, v, None, f"answer {v!r}")
                      for v in wrong_answers(kind, expected, candidates, name)]
    if isinstance(template, RecordTask) and not template.infeasible:
        negatives += _record_cases(template, ep, final, answer, status)
    negatives += _bystander_cases(ep, final, answer, status)
    if isinstance(template, SetSetting):  # another setting changed too: over-doing
        state = _mutable(final)
        mine = f"{template.namespace}.{template.key}"
        for namespace, values in sorted(state.get("settings", {}).items()):
            other = next((k for k in sorted(values) if f"{namespace}.{k}" != mine
                          and f"{namespace}.{k}" not in template.side_effects), None)
            if other is not None:
                values[other] = perturb(values[other])
                negatives.append((state, answer, status, f"settings.{namespace}.{other} "
                                                         "changed too"))
                break
    for k in (3, 10):  # the oracle's ends from other screens: other UI paths
        other = Device(app_classes)
        run = Episode(template, other, np.random.default_rng(seed))
        rng = np.random.default_rng(20_000 + seed + k)
        for action in _random_actions(rng, [a.name for a in app_classes], k,
                                      20_000 + seed + k):
            other.step(action)
            run.observe(action)
        if run.verify(None).damage:
            continue
        try:
            got, _ = run.solve(template.max_steps + len(template.apps) + 1)
        except (RuntimeError, OracleError, Unrecoverable):
            continue
        positives.append((run.host.snapshot(template), got, run.end_status,
                          f"the oracle's end after {k} random actions"))
    return positives, negatives, ep


def judge_matrix(task: Task | str, seeds: int = 3, *, apps: Sequence[AppLike] | None = None,
                 raise_on_failure: bool = True) -> JudgeReport:
    """Judge every positive and negative end state of ``task`` on ``seeds`` seeds: each
    positive must pass and each negative fail, and there must be at least ``MIN_JUDGED``."""
    template = _resolve_task(task)
    report = JudgeReport(template.id)
    for seed in range(seeds):
        try:
            positives, negatives, ep = judge_cases(template, seed, apps)
        except (RuntimeError, OracleError) as exc:
            report.problems.append(f"seed {seed}: the oracle failed: {exc}")
            continue
        for state, answer, status, why in positives:
            report.positives += 1
            verdict = template.judge(ep.initial, state, ep.params, answer, status)
            if not verdict.success:
                report.problems.append(f"seed {seed}: positive fails ({why}): "
                                       f"{verdict.reason}")
        for state, answer, status, why in negatives:
            report.negatives += 1
            if template.judge(ep.initial, state, ep.params, answer, status).success:
                report.problems.append(f"seed {seed}: negative passes: {why}")
    if report.judged < MIN_JUDGED:
        report.problems.append(f"only {report.judged} end states judged (< {MIN_JUDGED})")
    if report.problems and raise_on_failure:
        raise CheckFailed(f"{template.id}:\n  " + "\n  ".join(report.problems))
    return report
