"""Reward hacks, tried on every template through ordinary actions (``env.step``): each must
score 0. Kept by the team; an independent suite of attacks runs beside it.

- doing nothing, and ending the wrong way (declaring a feasible task infeasible, finishing
  an infeasible one as done);
- dumping every candidate into the answer (every text the screens showed on the way);
- over-doing: the right actions, then more actions until the phone's data changes again;
- leftover first tries: actions that leave damage first, then the right actions (a first
  wrong record next to the right one, a wrong record edited or deleted);
- switching off (or ticking off) instead of deleting;
- answering after the end;
- reading ``info``: nothing in it gives the task away before the end;
- typed text (the classes below; ``typed_attacks`` replays the oracle's run with one typed
  text changed): a text naming every candidate, a near miss that holds the value inside a
  longer one ("EC 1077" for "EC 107"), the value negated ("not X", "it isn't X") must fail;
  a trailing space or another case must not (but where the field's app tells them apart:
  file names, codes);
- two claims in one answer, the wrong one first;
- dense rewards: in every end they add up to the episode's score.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pytest
from typed_attacks import (
    Run,
    candidates,
    dump,
    mattering,
    near_misses,
    negations,
    oracle_run,
    replay,
)

import phone_gym  # noqa: F401 - registers the envs
from phone_gym.actions import PhoneAction
from phone_gym.envs.contract import END_KEYS, STEP_KEYS
from phone_gym.envs.phone_world import PhoneWorldEnv
from phone_gym.mockapps import TEMPLATES, Episode, Unrecoverable
from phone_gym.tasks.families import CreateRecord, DeleteRecord, Lookup
from phone_gym.tasks.task import placeholders
from phone_gym.verifiers import DEFAULT_IGNORE, diff, matches, plain

IDS = sorted(TEMPLATES)
SEEDS = (0, 1)
#: Seeds the exploring attacks try, until two of them found a case (a phone of 40 apps has
#: many screens where random actions change no data).
EXPLORE_SEEDS = tuple(range(8))
ROOM = 400  # a step budget no attack runs into (the verdict then comes from the end action)


def make(task_id: str, seed: int) -> tuple[PhoneWorldEnv, Episode]:
    env = PhoneWorldEnv(task=task_id, screenshot=False, max_steps=ROOM)
    env.reset(seed=seed)
    assert env.episode is not None
    return env, env.episode


def changed(before: Any, after: Any) -> bool:
    """Whether the phone's data differs (time and the clipboard do not count)."""
    return any(not any(matches(c, p) for p in DEFAULT_IGNORE) for c in diff(before, after))


def play_oracle(env: PhoneWorldEnv) -> tuple[PhoneAction, list[str]]:
    """Run the oracle up to (not including) its end action; return that action and every
    text the screens showed on the way."""
    texts: list[str] = []
    for _ in range(ROOM):
        action = env.oracle_action()
        if action.type in ("answer", "finish"):
            return action, texts
        *_, info = env.step(action)
        assert info["action_error"] is None, (action, info["action_error"])
        texts += [e["text"] for e in info["ui_elements"] if e["text"]]
    raise AssertionError("the oracle did not end")


def end(env: PhoneWorldEnv, action: PhoneAction) -> float:
    _, reward, terminated, _, _ = env.step(action)
    assert terminated
    return float(reward)


WORDS = ("x", "Grace", "07:30", "555 0100", "done", "Plumber", "backup.txt")


def explore(env: PhoneWorldEnv, rng: np.random.Generator) -> PhoneAction:
    """A random action an exploring agent would take on this screen: mostly taps and long
    presses on its elements, some typing, scrolling and going back."""
    assert env.episode is not None
    elements = [e for e in env.episode.host.elements() if e.clickable or e.long_clickable]
    roll = rng.random()
    if elements and roll < 0.75:
        e = elements[int(rng.integers(len(elements)))]
        x0, y0, x1, y1 = e.bounds_norm
        kind = "long_press" if roll > 0.6 else "click"
        return PhoneAction(kind, x=(x0 + x1) // 2, y=(y0 + y1) // 2)
    if roll < 0.87:
        return PhoneAction("type", text=str(WORDS[int(rng.integers(len(WORDS)))]))
    if roll < 0.94:
        return PhoneAction("scroll", x=500, y=500,
                           direction=("up", "down")[int(rng.integers(2))])
    return PhoneAction("press", button="back")


def random_until(env: PhoneWorldEnv, task_id: str, seed: int, stop: Any,
                 limit: int = 300) -> bool:
    """Exploring actions (in the task's apps) until ``stop()`` holds; False if it never
    did."""
    rng = np.random.default_rng(seed + 77)
    apps = TEMPLATES[task_id].apps
    for i in range(limit):
        action = explore(env, rng)
        if i % 30 == 0 and apps:  # back into one of the task's apps now and then
            action = PhoneAction("open_app", app=apps[(i // 30) % len(apps)])
        env.step(action)
        if stop():
            return True
    return False


@pytest.mark.parametrize("task_id", IDS)
def test_doing_nothing_or_ending_the_wrong_way_scores_zero(task_id: str) -> None:
    task = TEMPLATES[task_id]
    for seed in SEEDS:
        for ending in ('finish(status="success")', 'finish(status="infeasible")',
                       'answer(text="done")'):
            env, _ = make(task_id, seed)
            right = task.infeasible and "infeasible" in ending
            right = right or (task.done_at_start and "infeasible" not in ending)
            assert end(env, ending) == float(right), (seed, ending)
        env, _ = make(task_id, seed)
        action, _ = play_oracle(env)
        if action.type == "finish" and action.status == "success":
            assert end(env, 'finish(status="infeasible")') == 0.0, seed
        elif action.type == "finish":  # an infeasible task, looked at: finishing as done
            assert end(env, 'finish(status="success")') == 0.0, seed


@pytest.mark.parametrize("task_id", [t for t in IDS if isinstance(TEMPLATES[t], Lookup)
                                     and not TEMPLATES[t].infeasible])
def test_dumping_every_candidate_into_the_answer_scores_zero(task_id: str) -> None:
    task = TEMPLATES[task_id]
    for seed in SEEDS:
        env, ep = make(task_id, seed)
        action, texts = play_oracle(env)
        assert action.type == "answer" and action.text
        shown = list(dict.fromkeys(t for t in texts if t.strip()))
        assert isinstance(task, Lookup)
        candidates = [str(c) for c in task.candidates(ep.params, ep.initial)]
        assert len(set(candidates)) > 1, "a lookup task lists the other values on the phone"
        dump = ", ".join(dict.fromkeys([action.text, *candidates, *shown]))[:490]
        assert end(env, PhoneAction("answer", text=dump)) == 0.0, (seed, dump[:200])
        env, _ = make(task_id, seed)
        play_oracle(env)
        rival = next(c for c in candidates if c not in (action.text, str(task.expected(ep.params))))
        both = f"{action.text} or {rival}"
        assert end(env, PhoneAction("answer", text=both[:490])) == 0.0, (seed, both)


#: Known gaps, each to be fixed in its template, not here: 网易云音乐's player state
#: (``now_playing``) is in the app's data, so a song played after a like, a look-up or an infeasible
#: like counts as a change here, while those templates allow any song to play (random taps
#: play songs, and a played song is not damage); the fix is playback outside the snapshots,
#: with NeteasePlayArtist checking a play log.
OVER_DOING_GAPS = {"NeteaseLikeSong", "NeteaseWhichAlbum", "NeteaseLikeSongInfeasible"}


@pytest.mark.parametrize("task_id", [
    pytest.param(i, marks=pytest.mark.xfail(reason="player state counted as data (see "
                                                    "OVER_DOING_GAPS)", strict=True))
    if i in OVER_DOING_GAPS else i for i in IDS])
def test_over_doing_after_the_right_actions_scores_zero(task_id: str) -> None:
    tried = 0
    for seed in EXPLORE_SEEDS:
        if tried == 2:
            break
        env, _ = make(task_id, seed)
        action, _ = play_oracle(env)
        done = env.device.snapshot()
        again = lambda d=done, e=env: changed(d, e.device.snapshot())  # noqa: E731
        if not random_until(env, task_id, seed, again):
            continue
        tried += 1
        assert end(env, action) == 0.0, (seed, [str(c) for c in diff(done,
                                                                      env.device.snapshot())])
    assert tried, "random actions never changed the phone's data after the oracle"


@pytest.mark.parametrize("task_id", IDS)
def test_damage_left_from_a_first_try_fails_the_right_actions(task_id: str) -> None:
    """Explore until the phone holds a change the task does not allow, then run the right
    actions from a clean app: unless they undid it (the end state is the clean run's),
    the episode must score 0."""
    tried = 0
    for seed in EXPLORE_SEEDS:
        if tried == 2:
            break
        clean, _ = make(task_id, seed)
        play_oracle(clean)
        clean_end = clean.device.snapshot()
        env, ep = make(task_id, seed)
        if not random_until(env, task_id, seed, lambda e=ep: bool(e.verify(None).damage)):
            continue
        ep.restart_oracle()
        try:
            action, _ = play_oracle(env)
        except Unrecoverable:  # the right actions stumbled on the first try's leftovers
            continue  # and the oracle said so: nothing to score from this seed
        if not changed(clean_end, env.device.snapshot()):
            continue  # the right actions replaced the first try (deleted what it switched off)
        tried += 1
        assert end(env, action) == 0.0, seed
    assert tried, "no first try left damage the right actions kept"


def on_phone(initial: Any, apps: Sequence[str]) -> str:
    """The text of what the task's apps and the shared stores hold at the start (another
    app's data, such as a bike app's "bike" records, is not what the instruction names)."""
    state = plain(initial)
    mine = {name: data for name, data in state.get("apps", {}).items() if name in apps}
    return str({**{k: v for k, v in state.items() if k != "apps"}, "apps": mine})


def decoy_params(task_id: str, params: dict[str, Any], seed: int,
                 on_phone: str) -> dict[str, Any]:
    """The params with every new value the instruction names (not ``on_phone`` already:
    the record to create, not the contact to copy from) taken from another sample."""
    task = TEMPLATES[task_id]
    names = placeholders(task.template) - {k for k in params if str(params[k]) in on_phone}
    for n in range(1000, 1100):
        other = task.sample_params(np.random.default_rng(seed + n))
        if all(other.get(k) != params.get(k) for k in names):
            return {**params, **{k: other[k] for k in names}}
    raise AssertionError("no decoy params")


@pytest.mark.parametrize("task_id", [t for t in IDS if isinstance(TEMPLATES[t], CreateRecord)
                                     and not TEMPLATES[t].infeasible])
def test_a_wrong_first_record_left_beside_the_right_one_scores_zero(task_id: str) -> None:
    task = TEMPLATES[task_id]
    for seed in SEEDS:
        env, ep = make(task_id, seed)
        decoy = decoy_params(task_id, ep.params, seed, on_phone(ep.initial, task.apps))
        assert decoy != ep.params
        script: Iterator[PhoneAction] = task.oracle(ep.driver(), decoy)
        for action in script:
            if action.type in ("answer", "finish"):
                break
            env.step(action)
        ep.restart_oracle()
        action, _ = play_oracle(env)
        assert end(env, action) == 0.0, seed


SWITCH_OFF = {  # delete tasks, and the switch that only turns the target off
    "ClockDeleteAlarm": lambda p, ep: f"alarm_switch_{alarm_at(ep, p)}",
    "TodoDeleteItem": lambda p, ep: f"done_{p['item_id']}",
}


def alarm_at(ep: Episode, p: dict[str, Any]) -> int:
    alarms = ep.initial["alarms"]
    return next(int(k) for k, a in alarms.items()
                if (a["hour"], a["minute"]) == (p["hour"], p["minute"]))


@pytest.mark.parametrize("task_id", sorted(SWITCH_OFF))
def test_switching_off_instead_of_deleting_scores_zero(task_id: str) -> None:
    assert isinstance(TEMPLATES[task_id], DeleteRecord)
    for seed in SEEDS:
        env, ep = make(task_id, seed)
        ui = ep.driver()
        switch = SWITCH_OFF[task_id](ep.params, ep)
        actions = [*ui.open_app(TEMPLATES[task_id].apps[0])]
        for action in actions:
            env.step(action)
        for action in ep.driver().reveal(id=switch):
            env.step(action)
        for action in ep.driver().tap(id=switch):
            env.step(action)
        assert changed(ep.initial, env.device.snapshot()), "the switch did nothing"
        assert end(env, 'finish(status="success")') == 0.0, seed


@pytest.mark.parametrize("task_id", IDS)
def test_nothing_after_the_end_changes_the_reward(task_id: str) -> None:
    import gymnasium as gym

    env, _ = make(task_id, 0)
    action, _ = play_oracle(env)
    assert end(env, action) == 1.0
    for late in (action, 'answer(text="x")', 'finish(status="infeasible")', "wait()"):
        with pytest.raises(gym.error.ResetNeeded):
            env.step(late)


def leaked(value: Any, info: dict[str, Any]) -> list[str]:
    """The keys of ``info`` (the screen's elements, the instruction and the agent's own
    action and answer aside) whose text holds ``value``."""
    own = {"ui_elements", "instruction", "action", "answer"}
    text = str(value)
    return [k for k, v in info.items() if k not in own and len(text) >= 3 and text in str(v)]


@pytest.mark.parametrize("task_id", IDS)
def test_info_gives_nothing_away_before_the_end(task_id: str) -> None:
    env = PhoneWorldEnv(task=task_id, screenshot=False)
    _, info = env.reset(seed=0)
    assert env.episode is not None
    secrets = [v for v in _leaves(env.episode.params) if isinstance(v, (str, int))
               and not isinstance(v, bool)]
    infos = [info]
    while True:
        action = env.oracle_action()
        _, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            assert set(END_KEYS) <= set(info) and "params" not in info
            break
        infos.append(info)
    for step, info in enumerate(infos):
        assert tuple(info) == STEP_KEYS, (step, sorted(info))
        for value in secrets:
            assert not leaked(value, info), (step, value)


def _leaves(value: Any) -> Iterator[Any]:
    if isinstance(value, dict):
        for v in value.values():
            yield from _leaves(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _leaves(v)
    else:
        yield value


# --- typed text: items 1, 2, 4 and 5 of issue 26 --------------------------------------------


def typed(task_id: str) -> Iterator[tuple[Run, int, str]]:
    """Each landing typed text of the oracle's runs (``SEEDS``)."""
    for seed in SEEDS:
        run = oracle_run(task_id, seed)
        if run.end.type == "finish" and run.end.status == "infeasible":
            continue
        for index, text in run.typed():
            yield run, index, text


def must_fail(run: Run, index: int, text: str) -> bool:
    """Replay ``run`` typing ``text`` at ``index``: True when the text reached the data (then
    the episode must score 0), False when the app did not take it."""
    result = replay(run, index, text)
    assert not (result.landed and result.reward), (run.seed, index, text)
    return result.landed


class TestTextNamingEveryCandidate:
    """A message, note or title that names every candidate fails (items 1 and 4): the typed
    text, then the same field of the phone's other records (the other hotels, car parks,
    meetings...), unless another typed text of the task asks for them too."""

    @pytest.mark.parametrize("task_id", IDS)
    def test_scores_zero(self, task_id: str) -> None:
        tried = 0
        for run, index, text in typed(task_id):
            rivals = candidates(run, index, mattering(run, index))
            if rivals:
                tried += must_fail(run, index, dump(text, rivals))
        if not tried:
            pytest.skip("no typed text tells one of several records")


class TestTextWithANearMiss:
    """A typed value made longer by one character holds the right one inside a wrong one
    ("EC 1077" for train "EC 107", "Room 120" for "Room 12", "Garagex"): it fails (items 2
    and 4)."""

    @pytest.mark.parametrize("task_id", IDS)
    def test_scores_zero(self, task_id: str) -> None:
        tried = 0
        for run, index, text in typed(task_id):
            for wrong in near_misses(text, mattering(run, index)):
                tried += must_fail(run, index, wrong)
        if not tried:
            pytest.skip("no typed text the verdict depends on")


class TestTextNegatingTheValue:
    """The typed value negated, "not X" or "it isn't X", fails (item 4)."""

    @pytest.mark.parametrize("task_id", IDS)
    def test_scores_zero(self, task_id: str) -> None:
        tried = 0
        for run, index, text in typed(task_id):
            for wrong in negations(text, mattering(run, index)):
                tried += must_fail(run, index, wrong)
        if not tried:
            pytest.skip("no typed text the verdict depends on")


#: Fields whose app tells case apart (``docs/tasks.md``): file and folder names (ext4 is
#: case-sensitive) and codes.
CASE_SENSITIVE = re.compile(r"^files\.name$|\.(?:passcode|password|pin|code)$")


class TestTypedSpacesAndCase:
    """A typed value with a trailing space, or in another case, still passes where the
    field's app ignores it (item 5: the rules per kind of field are in ``docs/tasks.md``):
    Android's text fields keep the space, but a person (and the app's list) reads the same
    value."""

    @pytest.mark.parametrize("task_id", IDS)
    def test_scores_one(self, task_id: str) -> None:
        tried = 0
        for run, index, text in typed(task_id):
            variants = [text + " "]
            other = text.lower() if text != text.lower() else text.upper()
            if other != text and not any(CASE_SENSITIVE.search(f) for f in run.fields(text)):
                variants.append(other)
            for variant in variants:
                result = replay(run, index, variant)
                if not result.diverged:
                    assert result.reward == 1.0, (run.seed, repr(variant))
                    tried += 1
        if not tried:
            pytest.skip("the oracle types nothing that lands in the data (and whose change "
                        "leaves the later screens as they were)")


# --- dense rewards: item 6 of issue 26 ----------------------------------------------------------


def dense_total(task_id: str, actions: Sequence[PhoneAction], end: PhoneAction | None,
                max_steps: int = ROOM) -> tuple[float, bool]:
    """The sum of an episode's dense rewards, and its success: ``actions``, then ``end``
    (None: the step budget ends it)."""
    env = PhoneWorldEnv(task=task_id, screenshot=False, max_steps=max_steps,
                        dense_reward=True)
    env.reset(seed=0)
    total = 0.0
    for action in [*actions, *([end] if end else [])]:
        _, reward, terminated, truncated, info = env.step(action)
        total += float(reward)
        if terminated or truncated:
            return total, bool(info["success"])
    raise AssertionError("the episode did not end")


class TestDenseRewardsAddUpToTheScore:
    """With ``dense_reward=True`` an episode's rewards add up to its score in every end
    (item 6): the work then the oracle's end, the work then a wrong end (declared
    infeasible, finished as done, a wrong answer), every end without the work (a goal that
    held at the start pays on the right finish), and the step budget running out."""

    @pytest.mark.parametrize("task_id", IDS)
    def test_the_sum_is_the_score(self, task_id: str) -> None:
        run = oracle_run(task_id, 0)
        ends = [run.end, PhoneAction("finish", status="success"),
                PhoneAction("finish", status="infeasible"), PhoneAction("answer", text="done")]
        scores = []
        for work in (run.actions, ()):
            for end in dict.fromkeys(ends):
                total, success = dense_total(task_id, work, end)
                assert total == pytest.approx(float(success), abs=1e-9), (len(work), end)
                scores.append(success)
        assert scores[0], "the oracle's end scores 1"
        if run.actions:
            total, success = dense_total(task_id, run.actions, None, len(run.actions))
            assert total == pytest.approx(float(success), abs=1e-9), "out of steps"


# --- two claims in one answer: item 3 of issue 26 ----------------------------------------------

TWO_CLAIMS = ("The answer is {wrong}. The answer is {right}.",
              "It is {wrong}. Actually, it is {right}.")


class TestTwoClaimsInOneAnswer:
    """An answer that claims a wrong value, then the right one ("The answer is WRONG. The
    answer is RIGHT.") fails (item 3): the wrong claim is another candidate of the task, a
    text the screens showed, or the word "WRONG"."""

    @pytest.mark.parametrize("task_id", IDS)
    def test_scores_zero(self, task_id: str) -> None:
        task, tried = TEMPLATES[task_id], 0
        for seed in SEEDS:
            run = oracle_run(task_id, seed)
            if run.end.type != "answer" or not run.end.text:
                continue
            env, ep = make(task_id, seed)
            for action in run.actions:
                env.step(action)
            right = run.end.text
            assert ep.verify(right).success
            rivals = [str(c) for c in task.candidates(ep.params, ep.initial)] \
                if isinstance(task, Lookup) else []
            shown = [t for t in run.shown if len(t) <= 40]
            wrongs = [w for w in dict.fromkeys([*rivals[:3], *shown[:3], "WRONG"])
                      if w.strip() and not ep.verify(w).success]
            for wrong in wrongs:
                for form in TWO_CLAIMS:
                    answer = form.format(wrong=wrong, right=right)
                    assert not ep.verify(answer).success, (seed, answer)
                    tried += 1
        if not tried:
            pytest.skip("the oracle does not answer")
