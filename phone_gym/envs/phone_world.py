"""PhoneWorldEnv: the simulated phone as a Gymnasium environment."""

from __future__ import annotations

import gc
import os
from collections.abc import Sequence
from datetime import timezone
from typing import Any

import gymnasium as gym
import numpy as np

from ..actions import ActionError, PhoneAction, PhoneActionSpace, format_action, make_action_space
from ..mockapps import APPS, REGISTRY, TEMPLATES, Episode, Task, WorldHost
from ..suites import TaskSuite, get_suite, pwbench
from ..verifiers import Verdict
from ..verifiers.snap import thaw
from ..world import Device
from ..world import theme as T
from ..world.a11y import format_elements, ui_elements
from ..world.locale import DEFAULT_LOCALE, check_locale
from ..world.render import Renderer
from .contract import (
    check_args,
    choose_template,
    end_info,
    ended_error,
    observation,
    observation_space,
    read_action,
)
from .infos import UIElementList
from .marks import draw_marks, resolve_index

#: Whether ``freeze_module_data`` has run in this process (it runs once).
_FROZEN = False


def freeze_module_data() -> bool:
    """Once per process, when the first env is made (its templates' and apps' code loaded,
    before its own phone exists): collect garbage, then ``gc.freeze()`` what is left, the
    modules, templates and app data that live as long as the process (and whatever else
    is alive then), so that Python's full collections no longer scan it. Those passes
    otherwise cost 35-60 ms each in a training process (CPython 3.11, ~90,000 objects),
    paid by whichever step or reset they land in; after it, 5-15 ms. The collector stays
    on: objects made later are collected as before, frozen ones are still freed when no
    longer referenced, but a reference cycle among frozen objects is never reclaimed.
    Nothing is done where the collector is off or ``PHONE_GYM_NO_GC_FREEZE`` is set (to
    anything but "" or "0"). Returns whether it froze now."""
    global _FROZEN
    if _FROZEN or not gc.isenabled() or os.environ.get("PHONE_GYM_NO_GC_FREEZE", "0") \
            not in ("", "0"):
        return False
    _FROZEN = True
    gc.collect()
    gc.freeze()
    return True


def select_templates(task: str | Task | Sequence[str | Task] | None = None,
                     apps: str | Sequence[str] | None = None) -> list[Task]:
    """Templates by id (``task``; a ``Task`` instance is taken as it is) and/or by app
    (``apps``: names, labels or packages); all when both are None. Unknown ones raise
    ``ValueError`` with suggestions."""
    if task is not None:  # builds only these templates (and loads only their apps' code)
        ids = [task] if isinstance(task, (str, Task)) else list(task)
        chosen = [t if isinstance(t, Task) else REGISTRY.template(t) for t in ids]
    else:
        chosen = list(TEMPLATES.values())
    if apps is not None:
        names = [apps] if isinstance(apps, str) else list(apps)
        wanted = {REGISTRY.app(a).manifest.name for a in names}
        chosen = [t for t in chosen if set(t.apps) & wanted]
    if not chosen:
        raise ValueError(f"no task matches task={task!r} and apps={apps!r}; run "
                         "`phone-gym tasks` to list them")
    return chosen


def locale_templates(templates: Sequence[Task], locale: str) -> list[Task]:
    """The templates among ``templates`` that run in ``locale`` (``Task.locales``);
    ``ValueError`` when none does."""
    chosen = [t for t in templates if locale in t.locales]
    if not chosen:
        raise ValueError(f"none of the {len(templates)} chosen templates runs in {locale}; "
                         f"`phone-gym tasks --locale {locale}` lists those that do")
    return chosen


def split_templates(templates: Sequence[Task], split: str,
                    locale: str = DEFAULT_LOCALE) -> list[Task]:
    """The templates of PhoneWorld-Bench's ``split`` ("train" or "test") among
    ``templates``; ``ValueError`` for another split or when none is left. On a zh-CN phone
    "test" is PhoneWorld-Bench zh's held-out templates and "train" leaves out those of both
    versions."""
    if split not in pwbench.SPLITS:
        raise ValueError(f"split={split!r}; accepted: {', '.join(map(repr, pwbench.SPLITS))}")
    held = set(pwbench.load().test_templates)
    if locale == pwbench.ZH_LOCALE:
        zh_held = set(pwbench.load_zh().test_templates)
        held = zh_held if split == "test" else held | zh_held
    chosen = [t for t in templates if (t.id in held) == (split == "test")]
    if not chosen:
        raise ValueError(f"no {split} template among the {len(templates)} chosen; "
                         "`phone-gym tasks --split " + split + "` lists them")
    return chosen


class PhoneWorldEnv(gym.Env[dict[str, Any], Any]):
    """
    ## Description
    A simulated Android phone (launcher, mock apps, shared system state) with a task to
    do: each reset samples a task template and its params from the seed, writes the task's
    initial state, and shows the home screen. Tasks are verified by rules over the phone's
    final state; changes the task did not ask for count as failure.

    ## Action Space
    The fixed phone action space: click, double_click, long_press, type, scroll, drag,
    press, open_app, close_app, wait, answer, finish; coordinates in [0, 1000].
    Pointer actions and ``type`` may name a UI element instead of a point
    (``click(index=3)``, ``type(text="Bob", index=2)``, ``scroll(direction="down",
    index=5)``): the element of that index in the current observation's list
    (``info["ui_elements"]``, the ``ui`` text), acted on at its centre (``type`` taps it
    first); an index that list does not hold is an ``action_error``.
    ``step`` takes a ``PhoneAction``, a text action as a model writes it
    (``'click(x=540, y=210)'``, JSON, or a ``<tool_call>``), a dict
    ``{"action": "click", "x": 540, "y": 210}``, or a sample of ``action_space`` (a
    ``Dict`` whose ``sample()`` is always a valid action: it parses, is in range, and this
    env carries it out; it draws ``type`` only while a text field has focus). A bad action
    (unparseable, out of range, unknown app, typing without a focused field) is a no-op step
    with ``info["action_error"]`` set: it never raises. An AndroidWorld JSON action (a dict
    or text such as ``'Action: {"action_type": "click", "x": 540, "y": 1200}'``) is read as
    AndroidWorld reads it: x/y in pixels of the 1080 x 2400 screen (``screen_size``), and
    ``input_text`` taps, types and presses Enter (``phone_gym.actions.formats.androidworld``
    says how it is told apart and how to force either reading).

    ## Observation Space
    A ``Dict``: ``"screenshot"``, uint8 ``(height, width, 3)`` (default 1200 x 540, the
    1080 x 2400 screen at half size; left out with ``screenshot=False``); ``"instruction"``,
    the task sentence (``Text``); and, with ``ui_in_obs=True``, ``"ui"``: the UI element
    list as text (one element a line: index, class, text, id, centre and bounds in
    [0, 1000], flags). With ``set_of_marks=True`` the screenshot shows a numbered box on
    each element of that list (``marks.draw_marks``; ``render()`` stays unmarked).

    ## Rewards
    The verifier's score when the episode ends: 1.0 if the task is done (and nothing else
    was changed), else 0.0; 0.0 on every other step. An episode that ends by running out
    of steps (the task's budget, ``max_steps``, or a ``TimeLimit`` from ``gym.make(...,
    max_episode_steps=N)``) is scored on its final state as if the agent had finished.
    ``finish(status="infeasible")`` scores 1.0 only on a task that cannot be done (and
    nothing was changed), 0.0 on every other. With ``dense_reward=True`` (for trainers that
    want milestones) each step is rewarded with the change in the verdict's progress, the
    share of the task's criteria met (a multi-stage task declares one per stage; damage
    halves it; undoing a stage takes its reward back), and the episode's last step with its
    score less what the episode was paid: in every end the rewards add up to the score. A
    wrong end (finishing the work, then declaring the task infeasible or answering wrong)
    takes the progress back; a goal that held at the start pays on the right finish.

    ## Starting State
    The home screen of a phone holding the task's initial state (its records and
    distractors), the clock frozen at the task's start time.

    ## Episode End
    Terminated when the agent calls ``finish`` or ``answer`` (or, with
    ``end_on_success=True``, as soon as the verifier passes: handy for RL). Truncated when
    the step budget runs out. Stepping an ended episode raises Gymnasium's ``ResetNeeded``
    (a second answer cannot change the score).

    ## Arguments
    - ``task``: a template id or list of ids (default: all templates; see ``phone-gym
      tasks``), or ``Task`` instances (your own templates).
    - ``apps``: keep only templates about these apps (e.g. ``["Contacts"]``).
    - ``suite``: sample only the templates an outside suite maps (``"androidworld"``; see
      ``docs/androidworld.md``), each with the suite's step budget (AndroidWorld: ten times
      the complexity of its task) unless ``max_steps`` is given; not with ``task``.
      ``env.unwrapped.suite_coverage`` is (tasks mapped, tasks in the suite). Every
      episode starts at the suite's device date (AndroidWorld: Sun Oct 15 2023 15:34 UTC).
    - ``obs_size``: ``(width, height)`` of the screenshot, default ``(540, 1200)``.
    - ``ui_in_obs``: add the UI element list to the observation.
    - ``end_on_success``: terminate as soon as the task is verified.
    - ``max_steps``: step budget for every task (default: each template's own).
    - ``dense_reward``: reward each step with the change in progress (see Rewards).
    - ``split``: ``"train"`` samples only the templates PhoneWorld-Bench does not hold out,
      ``"test"`` only the held-out ones (``docs/bench.md``); combines with ``task``/``apps``.
    - ``render_mode``: None or ``"rgb_array"`` (the screenshot).
    - ``max_text_length``: longest ``text`` of a sampled action.
    - ``screenshot``: False leaves the screenshot out of observations (text-only agents
      reading ``ui``; much faster).
    - ``privileged_info``: add the task's id, params and the live verdict to every step's
      ``info`` (for trainers and debugging; never show it to the agent).
    - ``set_of_marks``: draw the numbered element boxes on the observed screenshot.

    ## Info
    Every step (and reset): ``instruction``, ``step``, ``max_steps``, ``action`` (the
    action carried out, in ``format_action`` syntax, or None), ``action_error`` (None or
    a message: the last action's error, to feed back to the agent), ``answer``, and
    ``ui_elements`` (list of dicts: index, class, text, ids, bounds in pixels and in
    [0, 1000], flags). When the episode ends, also ``task_id``, ``success``, ``verdict``
    (the verifier's reason) and ``progress`` (share of criteria met). Nothing before the
    end gives the task away: no params, no verdict, no live success. With
    ``privileged_info=True`` every step also holds ``task_id``, ``params``, ``success``,
    ``verdict`` and ``progress``; ``env.unwrapped.privileged_info()`` returns them at any
    time.
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 2}
    _first_shot: np.ndarray | None = None  # (envs pickled before it existed)

    def __init__(
        self,
        task: str | Sequence[str] | None = None,
        apps: str | Sequence[str] | None = None,
        obs_size: tuple[int, int] = (540, 1200),
        ui_in_obs: bool = False,
        end_on_success: bool = False,
        max_steps: int | None = None,
        render_mode: str | None = None,
        max_text_length: int = 64,
        screenshot: bool = True,
        privileged_info: bool = False,
        set_of_marks: bool = False,
        suite: str | None = None,
        dense_reward: bool = False,
        split: str | None = None,
        locale: str = DEFAULT_LOCALE,
    ) -> None:
        width, height = check_args(render_mode, obs_size, max_steps)
        #: The phone's locale (``world.locale.LOCALES``): its screens' language, the data its
        #: tasks seed and their instructions; only templates that declare it are sampled.
        self.locale = check_locale(locale)
        if suite is not None and task is not None:
            raise ValueError(f"suite={suite!r} and task={task!r}: accepted: one of them")
        #: The outside suite sampled (None: all templates), its budgets, and its coverage.
        self.suite: TaskSuite | None = get_suite(suite) if suite is not None else None
        self.suite_budgets = self.suite.budgets() if self.suite else {}
        self.suite_coverage = self.suite.coverage if self.suite else None
        #: The clock every episode starts at under a suite that fixes the device date (its
        #: UTC time; PhoneWorld's clock runs in UTC).
        date = self.suite.device_date if self.suite else None
        self.suite_start = (date.astimezone(timezone.utc).replace(tzinfo=None)
                            if date is not None else None)
        self.templates = select_templates(
            list(self.suite.template_ids) if self.suite else task, apps)
        if split is not None:
            self.templates = split_templates(self.templates, split, self.locale)
        if self.locale != DEFAULT_LOCALE:
            self.templates = locale_templates(self.templates, self.locale)
        self.set_of_marks = bool(set_of_marks)
        self.render_mode = render_mode
        self.ui_in_obs = ui_in_obs
        self.end_on_success = end_on_success
        self.max_steps_override = max_steps
        #: The apps ``open_app`` opens (not a mini-program: its host app opens it).
        self.app_names = [a.name for a in APPS if not a.manifest.mini_program]
        self.obs_size = (width, height)
        self.screenshot = screenshot
        self.privileged = bool(privileged_info)
        self.dense_reward = bool(dense_reward)
        self._progress = 0.0  # the progress at the last step (dense reward)
        self._paid = 0.0  # the dense rewards of this episode so far
        self.observation_space = observation_space(self.obs_size, screenshot, ui_in_obs)
        self.action_space = make_action_space(self.app_names, max_text_length,
                                              can_type=self._can_type)
        freeze_module_data()
        self.device = Device(APPS, locale=self.locale)
        self.renderer = Renderer(width, height)
        self.episode: Episode | None = None
        self.steps = 0
        #: Whether the current episode has ended (a further step raises ``ResetNeeded``).
        self.ended = False
        self._shot: np.ndarray | None = None
        self._prepare_images()
        self._shot_version = -1
        self._shot_serial = -1  # the renderer's serial when _shot was composed
        self._marked: np.ndarray | None = None  # the screenshot with marks, of _shot
        #: Whether an observation's screenshot is the renderer's own read-only image, not
        #: a copy: valid only until the next ``step``, ``reset`` or ``render``. For a caller
        #: that uses the screenshot at once and keeps none (the OpenEnv server copies it into
        #: its message or shared memory): one full-frame copy less per step.
        self.lend_screenshot = False
        self._verdict: Verdict | None = None
        self._final: Verdict | None = None  # the verdict of the ended episode
        #: The oracle takes recoverable detours (a wrong app opened, then left) where the
        #: budget allows: demonstrations that show recovery (``phone-gym collect --detours``).
        self.oracle_detours = False
        self._verdict_key: tuple[int, str | None, str | None] = (-1, None, None)

    # --- gymnasium API -----------------------------------------------------------------
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        template = choose_template(self.templates, options, select_templates, self.np_random)
        phone = WorldHost(self.device, self.suite_start) if self.suite_start else self.device
        self.episode = Episode(template, phone, self.np_random)
        self.episode.detours = self.oracle_detours
        self.episode.budget = self._budget(self.episode)  # a suite's may be tighter
        self.steps = 0
        self.ended = False
        self._verdict = self._final = None
        self._progress = self._live_progress() if self.dense_reward else 0.0
        self._paid = 0.0
        return self._obs(), self._info(None, None, None)

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        episode = self._need_episode()
        if self.ended:
            raise ended_error()
        # read first: an action that raises while being read (an error of the caller's own
        # mapping, an interrupt) propagates without using up a step of the budget
        parsed, error, terminated, answer = read_action(action, self.app_names, self.screen_size)
        self.steps += 1
        if parsed is not None and not terminated:
            error = self._carry_out(episode, parsed)
        status = parsed.status if parsed is not None and parsed.type == "finish" else None
        if self.end_on_success and not terminated and self._verify(None, None).success:
            terminated = True
        truncated = not terminated and self.steps >= self._budget(episode)
        self.ended = terminated or truncated
        if self.ended:
            self._final = self._verify(answer, status)
        reward = self._final.score if self.ended and self._final is not None else 0.0
        if self.dense_reward:
            reward = self._dense(reward)
        return self._obs(), reward, terminated, truncated, self._info(parsed, error, answer)

    def end_episode(self) -> tuple[float, dict[str, Any]]:
        """End the episode now (an outer step limit ran out: ``wrappers.ScoreOnTruncation``):
        the score of the final state, and the keys ``info`` gains at the end."""
        episode = self._need_episode()
        self.ended = True
        self._final = verdict = self._verify(None, None)
        score = self._dense(verdict.score) if self.dense_reward else verdict.score
        return score, end_info(episode.template.id, verdict)

    def privileged_info(self) -> dict[str, Any]:
        """What the agent must not see: the task id, its params and the live verdict
        (``verdict``, ``success``, ``progress``) on the phone's current state."""
        episode = self._need_episode()
        verdict = self._final if self.ended and self._final else self._verify(None, None)
        return {**end_info(episode.template.id, verdict), "params": thaw(episode.public_params)}

    def render(self) -> np.ndarray | None:
        if self.render_mode == "rgb_array":
            return self._screenshot().copy()
        return None

    # --- helpers ---------------------------------------------------------------------------
    @property
    def screen_size(self) -> tuple[int, int]:
        """The phone's screen, ``(width, height)`` in pixels: what an AndroidWorld action's
        x/y and ``info["ui_elements"]`` bounds are in (not the observed screenshot's size)."""
        return T.SCREEN_W, T.SCREEN_H

    def oracle_action(self) -> PhoneAction:
        """The oracle's next action for the current episode (for data collection and demos)."""
        return self._need_episode().oracle_action()

    def oracle_step(self) -> dict[str, Any]:
        """The oracle's next step: ``{"action": PhoneAction, "reason": str,
        "step_instruction": str}`` (``Episode.oracle_step``), for demonstration data; none
        of it reaches the agent's ``info``."""
        action, reason, instruction = self._need_episode().oracle_step()
        return {"action": action, "reason": reason, "step_instruction": instruction}

    def _can_type(self) -> bool:
        """Whether a ``type`` would be typed now (a text field has focus): what the action
        space's ``sample()`` asks before it draws one."""
        return self.device.keyboard_shown

    def _carry_out(self, episode: Episode, action: PhoneAction) -> str | None:
        """Carry out ``action`` (an element index resolved against the current screen's
        elements first); return the error, or None."""
        try:  # (the elements are made only for an action that names one)
            actions = resolve_index(action, ui_elements(self.device.frame())
                                    if action.index is not None else ())
        except ActionError as exc:
            return str(exc)
        for part in actions:
            error = self.device.step(part)
            if error is not None:
                return error
            episode.observe(part)
        return None

    def _live_progress(self) -> float:
        """The share of the task's criteria the phone meets now (1.0 when it passes)."""
        verdict = self._verify(None, None)
        return 1.0 if verdict.success else (verdict.progress or 0.0)

    def _dense(self, score: float) -> float:
        """This step's dense reward: the change in progress; on the episode's last step, its
        ``score`` less what the episode was paid, so that its rewards add up to its score."""
        if self.ended:
            reward = score - self._paid
        else:
            progress = self._live_progress()
            reward, self._progress = progress - self._progress, progress
        self._paid += reward
        return reward

    def _need_episode(self) -> Episode:
        if self.episode is None:
            raise gym.error.ResetNeeded("call reset() before step()")
        return self.episode

    def _budget(self, episode: Episode) -> int:
        return (self.max_steps_override or self.suite_budgets.get(episode.template.id)
                or episode.template.max_steps)

    def _verify(self, answer: str | None, status: str | None) -> Verdict:
        """The verdict on the current state, for this answer and end status (cached while
        the phone's data is unchanged)."""
        key = (self.device.version, answer, status)
        if self._verdict is None or self._verdict_key != key:
            self._verdict = self._need_episode().verify(answer, status)
            self._verdict_key = key
        return self._verdict

    def _screenshot(self) -> np.ndarray:
        if self._shot is None or self._shot_version != self.device.version \
                or self._shot_serial != self.renderer.serial:
            # the renderer's own image (copied into each observation): valid until it renders
            self._shot = self.renderer.view(self.device.frame())
            self._shot_version = self.device.version
            self._shot_serial = self.renderer.serial
            self._marked = None
        return self._shot

    def _prepare_images(self) -> None:
        """Make the images a first reset would make, with the env: the renderer's own image
        (of the phone's screen now: the home screen, which the first screenshot is composed
        over, the same pixels as a whole redraw) and the first observation's screenshot
        array. In memory new to the process, each costs ~1 ms of page faults, which a new
        env's first reset paid, and the home screen's first frame ~0.3 ms more."""
        self._first_shot = None
        if not self.screenshot:
            return
        self.renderer.view(self.device.frame())
        self._first_shot = np.empty((self.obs_size[1], self.obs_size[0], 3), np.uint8)
        self._first_shot.fill(0)  # (written, so that its pages are in memory now)

    def _observed_shot(self) -> np.ndarray:
        """The screenshot the agent sees: with the element marks under ``set_of_marks``."""
        shot = self._screenshot()
        if not self.set_of_marks:
            return shot
        if self._marked is None:
            self._marked = draw_marks(shot, ui_elements(self.device.frame()))
        return self._marked

    def _obs(self) -> dict[str, Any]:
        ui = (format_elements(ui_elements(self.device.frame())) if self.ui_in_obs else None)
        into, self._first_shot = self._first_shot, None
        return observation(self._need_episode().instruction,
                           self._observed_shot() if self.screenshot else None, ui, into,
                           copy=not self.lend_screenshot)

    def _info(self, action: PhoneAction | None, error: str | None,
              answer: str | None) -> dict[str, Any]:
        episode = self._need_episode()
        info: dict[str, Any] = {
            "instruction": episode.instruction,
            "locale": self.locale,  # the prompts' language (trainer.prompts)
            "step": self.steps,
            "max_steps": self._budget(episode),
            "action": format_action(action) if action is not None else None,
            "action_error": error,
            "answer": answer,
            "ui_elements": UIElementList(self.device.frame()),
        }
        if self.privileged:
            info.update(self.privileged_info())
        if self.ended and self._final is not None:  # the verdict the reward came from
            info.update(end_info(episode.template.id, self._final))
        return info

    # --- pickling ----------------------------------------------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_shot"] = None
        state["_shot_version"] = -1
        state["_marked"] = None
        state["_first_shot"] = None
        state["renderer"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.renderer = Renderer(*self.obs_size)
        self._prepare_images()
        if isinstance(self.action_space, PhoneActionSpace):  # its hook is not pickled
            self.action_space.can_type = self._can_type
