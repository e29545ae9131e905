"""A pickled env is a twin: pickled at any step of random and oracle episodes, it answers
the next actions with the same observations, rewards and infos as the original."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from phone_gym.actions import BUTTONS, PhoneAction
from phone_gym.envs import PhoneWorldEnv

#: Templates whose screens have long-press menus, search fields, forms, dialogs and lists.
TEMPLATES = ("ContactsAddContact", "ContactsDeleteContact", "NotesEditNote", "NotesDeleteNote",
             "FilesRenameFile", "ClockAddAlarm", "TodoRenameItem", "CrossContactPhoneToNote",
             "SettingsWifiOn")
AHEAD = 10  # actions stepped on the original and its twin after each pickling
WORDS = ("e", "o", "n", "Grace Tanaka", "12")  # single letters filter lists partly


def comparable(out: tuple[Any, ...]) -> tuple[Any, ...]:
    """A step's or reset's output with arrays and the lazy element list as plain values."""
    obs, *rest, info = out
    obs = {k: v.tobytes() if isinstance(v, np.ndarray) else v for k, v in obs.items()}
    info = {k: list(v) if k == "ui_elements" else v for k, v in info.items()}
    return obs, *rest, info


def random_action(info: dict[str, Any], rng: np.random.Generator,
                  apps: list[str]) -> PhoneAction:
    """Mostly touches on the screen's elements, weighted toward what pickling can lose:
    focusing a text field, long presses (menus), and typing while a menu is open (it may
    filter the menu's own item off the screen); else a button, a scroll, a swipe, an app
    or a wait. ``apps``: the task's apps (the ones worth opening)."""
    elements = list(info["ui_elements"])
    fields = [e for e in elements if e["editable"] and not e["focused"]]
    pressable = [e for e in elements if e["long_clickable"]]
    rows = [e for e in pressable if not e["editable"]]  # list rows, bubbles, notifications
    clickable = [e for e in elements if e["clickable"]]
    menu_open = any(e["resource_id"].endswith(":id/menu") for e in elements)
    typing = any(e["focused"] for e in elements)
    roll = rng.random()

    def at(kind: str, among: list[dict[str, Any]]) -> PhoneAction:
        x, y = among[int(rng.integers(len(among)))]["center_norm"]
        return PhoneAction(kind, x=int(x), y=int(y))

    if "launcher" in elements[0]["package"] and roll < 0.5:
        return PhoneAction("open_app", app=apps[int(rng.integers(len(apps)))])
    if menu_open and roll < 0.5 or 0.9 <= roll:
        return PhoneAction("type", text=WORDS[int(rng.integers(len(WORDS)))])
    if fields and roll < 0.15:
        return at("click", fields)
    if typing and rows and roll < 0.45:
        return at("long_press", rows)
    if pressable and roll < 0.35:
        return at("long_press", pressable)
    if clickable and roll < 0.65:
        return at("click" if rng.random() < 0.85 else "double_click", clickable)
    pick = int(rng.integers(6))
    if pick == 0:
        return PhoneAction("press", button=BUTTONS[int(rng.integers(len(BUTTONS)))])
    if pick == 1:
        return PhoneAction("scroll", x=500, y=int(rng.integers(150, 900)),
                           direction=("up", "down", "left", "right")[int(rng.integers(4))])
    if pick == 2:
        return PhoneAction("drag", x=500, y=10, x2=500, y2=700)  # the shade
    if pick == 3:
        return PhoneAction("open_app", app=apps[int(rng.integers(len(apps)))])
    if pick == 4:
        return PhoneAction("close_app", app=apps[int(rng.integers(len(apps)))])
    return PhoneAction("wait", seconds=float(rng.integers(0, 61)))


def run_episode(env: PhoneWorldEnv, seed: int, oracle_share: float,
                max_steps: int) -> tuple[list[bytes], list[PhoneAction], list[tuple[Any, ...]]]:
    """Run one episode: the env pickled before every step, the actions, and what each
    step returned."""
    rng = np.random.default_rng(seed)
    out = env.reset(seed=seed)
    blobs: list[bytes] = []
    actions: list[PhoneAction] = []
    results: list[tuple[Any, ...]] = []
    info = out[1]
    while not env.ended and len(actions) < max_steps:
        blobs.append(pickle.dumps(env))
        action = None
        if rng.random() < oracle_share:
            try:
                action = env.oracle_action()
            except Exception:  # noqa: BLE001 - a stuck oracle: act randomly instead
                action = None
        if action is None:
            action = random_action(info, rng, list(env.episode.template.apps))
        out = env.step(action)
        info = out[4]
        actions.append(action)
        results.append(comparable(out))
    return blobs, actions, results


def assert_twins(blobs: list[bytes], actions: list[PhoneAction],
                 results: list[tuple[Any, ...]]) -> None:
    for t, blob in enumerate(blobs):
        twin = pickle.loads(blob)
        for k in range(t, min(t + AHEAD, len(actions))):
            got = comparable(twin.step(actions[k]))
            assert got == results[k], f"pickled before step {t}, diverged at step {k}: " \
                f"{actions[max(0, t - 5):k + 1]}"


def make_env(template: str) -> PhoneWorldEnv:
    return PhoneWorldEnv(task=template, obs_size=(108, 240), ui_in_obs=True,
                         privileged_info=True, max_steps=60)


@settings(max_examples=14, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(template=st.sampled_from(TEMPLATES), seed=st.integers(0, 10_000),
       oracle_share=st.sampled_from([0.0, 0.5, 0.9]))
def test_a_pickled_env_is_a_twin_at_every_step(template: str, seed: int,
                                               oracle_share: float) -> None:
    env = make_env(template)
    assert_twins(*run_episode(env, seed, oracle_share, max_steps=25))


def test_oracle_episodes_pickle_at_every_step() -> None:
    for i, template in enumerate(TEMPLATES):
        assert_twins(*run_episode(make_env(template), i, 1.0, max_steps=40))


def test_a_menu_whose_item_was_filtered_away_pickles() -> None:
    """The regression: a long-press menu on a contact, then typing into the search field
    filters that contact off the screen. The menu closes, in the original and in a copy
    pickled at any step (the copy used to lose it, and its screenshots differed)."""
    env = PhoneWorldEnv(task="ContactsAddContact")  # what seed 344 drew among all templates
    env.reset(seed=344)
    script = ['open_app(app="Contacts")', "click(x=500, y=72)", "long_press(x=543, y=273)",
              'type(text="Grace Tanaka")', "click(x=500, y=72)", 'press(button="back")',
              "press(button=\"back\")", 'type(text="x")']
    blobs, results = [], []
    for action in script:
        blobs.append(pickle.dumps(env))
        results.append(comparable(env.step(action)))
        if action.startswith("long_press"):
            assert env.device.menu is not None
        if action.startswith("type(text=\"Grace"):
            assert env.device.menu is None  # its contact is no longer on the screen
    for t, blob in enumerate(blobs):
        twin = pickle.loads(blob)
        for k in range(t, len(script)):
            assert comparable(twin.step(script[k])) == results[k], (t, k)


def test_an_app_handle_whose_fresh_data_is_unknown_pickles() -> None:
    """A handle made before its app's fresh data is known holds ``UNKNOWN``; an env pickled
    then (the adversarial suite's checkpoints) used to fail with "Can't pickle <class
    'phone_gym.world.app.Unknown'>" when the handle's app had never been listed."""
    from phone_gym.world.app import UNKNOWN

    twin = pickle.loads(pickle.dumps({"fresh": UNKNOWN}))
    assert twin["fresh"] is UNKNOWN and repr(twin["fresh"]) == "UNKNOWN"
