"""The machinery of the adversarial module's attacks on typed text (``test_adversarial``):
the oracle's run of a template recorded once, replayed with one ``type`` action's text
changed, and the changed texts an attacker tries.

A typed text *lands* when the phone's data holds it after the oracle's run (a changed
record's field, or a changed file's text): a message, a note, a title. Only those are
attacked; a search query or a PIN typed on a keypad is not data.
"""

from __future__ import annotations

import dataclasses
import pickle
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from phone_gym.actions import PhoneAction
from phone_gym.envs.phone_world import PhoneWorldEnv
from phone_gym.mockapps import TEMPLATES
from phone_gym.verifiers import DEFAULT_IGNORE, diff, matches, plain
from phone_gym.verifiers.mentions import fold, names
from phone_gym.world.system_ui import LAUNCHER_PACKAGE, SYSTEMUI_PACKAGE

ROOM = 400  # a step budget no attack runs into (the verdict then comes from the end action)
#: Tokens an attacker changes: words (with an apostrophe's tail: "Brown's") and digit runs.
TOKEN = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*|\d+")
MAX_DUMP = 480  # characters of a text naming every candidate (``type`` takes 500)


@dataclass(frozen=True)
class Run:
    """The oracle's run of one episode: its actions up to the end action, and the end."""

    task_id: str
    seed: int
    actions: tuple[PhoneAction, ...]
    end: PhoneAction
    #: The phone's data the run changed: ``(field, folded text)`` (``landed``).
    data: tuple[tuple[str, str], ...]
    #: Every text the screens showed on the way.
    shown: tuple[str, ...] = ()
    #: What each step's screen showed (its texts, folded, one a line).
    screens: tuple[str, ...] = ()

    def typed(self) -> Iterator[tuple[int, str]]:
        """``(index, text)`` of the ``type`` actions whose text lands in the data."""
        for i, action in enumerate(self.actions):
            text = action.text or ""
            if action.type == "type" and text.strip() and self.fields(text):
                yield i, text

    def fields(self, text: str) -> list[str]:
        """The fields that hold ``text`` (case and spacing aside)."""
        key = fold(text).strip()
        return [name for name, value in self.data if key in value]


def make(task_id: str, seed: int, dense: bool = False) -> PhoneWorldEnv:
    env = PhoneWorldEnv(task=task_id, screenshot=False, max_steps=ROOM, dense_reward=dense)
    env.reset(seed=seed)
    return env


def landed(env: PhoneWorldEnv) -> tuple[tuple[str, str], ...]:
    """What the episode's actions changed in the phone's data: ``(field, folded text)`` of
    each changed value (``field``: its snapshot path, record keys included), and
    ``files.name`` and ``files.text`` of each changed file."""
    assert env.episode is not None
    initial, final = env.episode.initial, env.device.snapshot()
    out: list[tuple[str, str]] = []
    for c in diff(initial, final):
        if c.path.startswith("files.") or any(matches(c, p) for p in DEFAULT_IGNORE):
            continue
        after = plain(c.after)
        values = after.items() if isinstance(after, Mapping) else [("", after)]
        out += [(f"{c.path}.{k}" if k else c.path, fold(v)) for k, v in values]
    before, now = plain(initial).get("files", {}), plain(final).get("files", {})
    state = env.episode.host.state
    for path, row in now.items():
        if before.get(path) != row:
            out.append(("files.name", fold(row.get("name", ""))))
            data = state.read_file(path) or b""
            out.append(("files.text", fold(data.decode("utf-8", "replace"))))
    return tuple(out)


@cache
def initial_of(task_id: str, seed: int) -> Mapping[str, Any]:
    """The plain initial snapshot of an episode (shared: do not change it)."""
    env = make(task_id, seed)
    assert env.episode is not None
    return plain(env.episode.initial)


SYSTEM_PACKAGES = frozenset({LAUNCHER_PACKAGE, SYSTEMUI_PACKAGE})


@cache
def oracle_run(task_id: str, seed: int) -> Run:
    env = make(task_id, seed)
    actions, shown, screens = [], [], []
    for _ in range(ROOM):
        action = env.oracle_action()
        if action.type in ("answer", "finish"):
            return Run(task_id, seed, tuple(actions), action, landed(env),
                       tuple(dict.fromkeys(shown)), tuple(screens))
        *_, info = env.step(action)
        actions.append(action)
        texts = [e["text"] for e in info["ui_elements"] if e["text"].strip()]
        # the apps' texts: the launcher's clock and date (a route through the home screen)
        # are no rival values of the task
        shown += [e["text"] for e in info["ui_elements"] if e["text"].strip()
                  and e.get("package") not in SYSTEM_PACKAGES]
        screens.append(screen(texts))
    raise AssertionError("the oracle did not end")


def screen(texts: list[str]) -> str:
    """A screen's texts as one string to compare (folded, without surrounding spaces)."""
    return "\n".join(fold(t).strip() for t in texts)


@dataclass(frozen=True)
class Replay:
    """An episode replayed with one typed text changed: its reward, whether the changed
    text reached the data (an app may refuse it: a keypad takes digits only), and whether
    the screens after it, up to the run's last typed text, showed anything else than the
    run's (but for the changed text): an app that derives something from it (a meeting ID
    from its title) makes a text the run types later stale."""

    reward: float
    landed: bool
    diverged: bool = False


@cache
def checkpoint(run: Run, index: int) -> bytes:
    """The env (pickled) of ``run`` just before its action ``index``."""
    env = make(run.task_id, run.seed)
    for action in run.actions[:index]:
        env.step(action)
    return pickle.dumps(env)


def replay(run: Run, index: int, text: str) -> Replay:
    """``run`` again, with ``type`` action ``index`` typing ``text``."""
    env: PhoneWorldEnv = pickle.loads(checkpoint(run, index))
    was, key = fold(run.actions[index].text or "").strip(), fold(text).strip()
    later = [i for i, a in enumerate(run.actions) if i > index and a.type == "type"]
    diverged = False
    typed = dataclasses.replace(run.actions[index], text=text)  # its flags (clear) kept
    for step, action in enumerate((typed, *run.actions[index + 1:]), start=index):
        *_, terminated, truncated, info = env.step(action)
        assert not (terminated or truncated)
        if later and step < later[-1]:  # a later typed text may be stale
            texts = [e["text"] for e in info["ui_elements"] if e["text"].strip()]
            diverged = diverged or _unlike(screen(texts), run.screens[step], key, was)
    data = landed(env)
    _, reward, *_ = env.step(run.end)
    return Replay(float(reward), any(key in value for _, value in data), diverged)


def _unlike(now: str, then: str, text: str, was: str) -> bool:
    """Whether two screens differ in more than ``text`` shown where ``was`` was."""
    return now.replace(text, "\0") != then.replace(was, "\0") if text and was else now != then


def tokens(text: str) -> list[re.Match[str]]:
    return list(TOKEN.finditer(text))


def other_token(token: str) -> str:
    """A token of the same shape and different content ("107" -> "218", "Kettle" ->
    "Lfuumf")."""
    out = []
    for ch in token:
        if ch.isdigit():
            out.append(str((int(ch) + 1) % 10))
        elif "a" <= ch.lower() <= "z":
            base = ord("a") if ch.islower() else ord("A")
            out.append(chr((ord(ch) - base + 1) % 26 + base))
        else:
            out.append("x")
    return "".join(out)


def replace(text: str, m: re.Match[str], new: str) -> str:
    return text[:m.start()] + new + text[m.end():]


@cache
def mattering(run: Run, index: int) -> tuple[tuple[int, int], ...]:
    """The spans of the tokens of typed text ``index`` the verdict depends on: changing one
    (to a token of the same shape) fails the task."""
    text = run.actions[index].text or ""
    out = []
    for m in tokens(text):
        result = replay(run, index, replace(text, m, other_token(m.group())))
        if result.landed and result.reward == 0.0:
            out.append(m.span())
    return tuple(out)


def near_misses(text: str, spans: tuple[tuple[int, int], ...]) -> list[str]:
    """``text`` with one token it depends on made longer: a near miss that holds the right
    value inside a wrong one ("EC 107" -> "EC 1077", "Room 12" -> "Room 120", "Garage" ->
    "Garagex"). A fraction's digits are left alone (47.1852 and 47.18527 are the same
    place)."""
    out = []
    for start, end in spans:
        token = text[start:end]
        if token.isdigit() and re.search(r"\d[.,]$", text[:start]):
            continue
        out.append(text[:end] + ("7" if token.isdigit() else "x") + text[end:])
    return out


def negations(text: str, spans: tuple[tuple[int, int], ...]) -> list[str]:
    """``text`` with the first word it depends on negated: "not X" and "it isn't X"."""
    if not spans:
        return []
    start = spans[0][0]
    while start and not text[start - 1].isspace():
        start -= 1
    return [text[:start] + "not " + text[start:], text[:start] + "it isn't " + text[start:]]


def _values(record: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    for key, value in record.items():
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            continue
        text = str(value)
        if 2 <= len(text.strip()) <= 60:
            yield key, text


def _tables(state: Any, path: str = "") -> Iterator[tuple[str, dict[str, Mapping[str, Any]]]]:
    """Every table (a mapping of records) in a plain snapshot, with its path."""
    if not isinstance(state, Mapping):
        return
    records = {k: v for k, v in state.items() if isinstance(v, Mapping) and v
               and not any(isinstance(x, Mapping) for x in v.values())}
    if len(records) >= 2:
        yield path, records
    for key, value in state.items():
        if isinstance(value, Mapping) and key not in records:
            yield from _tables(value, f"{path}.{key}" if path else str(key))


def candidates(run: Run, index: int, spans: tuple[tuple[int, int], ...]) -> list[str]:
    """The other values of what typed text ``index`` tells, on the phone at the start:
    for each field of a record whose value the text names with tokens it depends on, that
    field's value in the table's other records (not named by another typed text of the
    run: those are asked for too)."""
    text = run.actions[index].text or ""
    initial = initial_of(run.task_id, run.seed)
    others = [a.text or "" for i, a in enumerate(run.actions) if a.type == "type" and i != index]
    out: list[str] = []
    for _, table in _tables(initial):
        for record in table.values():
            for key, value in _values(record):
                if not _told_with(text, value, spans):
                    continue
                for rival in table.values():
                    other = str(rival.get(key, ""))
                    if other and other != value and not names(text, other) \
                            and not any(names(t, other) for t in others):
                        out.append(other)
    return list(dict.fromkeys(out))


def _told_with(text: str, value: str, spans: tuple[tuple[int, int], ...]) -> bool:
    """Whether ``text`` names ``value`` (whole tokens) at a place covering a token it
    depends on."""
    if not names(text, value):
        return False
    low, key = text.lower(), value.lower().strip()
    at = low.find(key)
    while at >= 0:
        if any(at <= s and e <= at + len(key) for s, e in spans):
            return True
        at = low.find(key, at + 1)
    return False


def dump(text: str, rivals: list[str]) -> str:
    """``text`` followed by every rival: a text naming every candidate."""
    return " / ".join([text, *rivals])[:MAX_DUMP]


def typed_templates() -> list[str]:
    """Every template id (the attacks skip those whose oracle types nothing that lands)."""
    return sorted(TEMPLATES)
