"""Phone-gym environments for TRL's ``GRPOTrainer(environment_factory=...)`` (extra ``[trl]``).

``PhoneToolEnv`` is the class TRL instantiates once per rollout. What it implements mirrors
TRL 1.16 (``trl/trainer/grpo_trainer.py``):

- ``reset(**row)`` is called with the dataset row (``_generate_and_score_completions``); what
  it returns is appended to the last user message: here the first screenshot (an image
  block) and the task's instruction.
- every public method other than ``reset`` and ``get_reward`` is a tool (``inspect.getmembers``
  on the class); its name, type hints and Google-style docstring are the tool schema. Each
  tool steps the phone-gym env and returns a list of content blocks, a new screenshot plus
  text feedback (the action's error, if any): ``_tool_call_loop`` collects the ``"image"``
  blocks of tool messages as ``tool_images`` and merges them into the images of the
  training forward pass.
- ``get_reward()`` (no argument) is called once per finished rollout and is added as a reward
  source of weight 1, named after the class: here the verifier's score of the episode (an
  episode the model left unfinished is scored on the phone's final state, as
  ``ScoreOnTruncation`` scores a truncated one).

``build_dataset`` writes the prompts: one row per (template, seed) with columns ``prompt``,
``task`` and ``seed``, which TRL passes back to ``reset``. ``check_processor`` tells early
whether TRL can parse the tool calls of a processor's chat template: TRL 1.16's
``add_response_schema`` (``trl/chat_template_utils.py``) knows the Qwen3-VL template (and
Qwen2.5/Qwen3 text ones) but not Qwen2.5-VL's.

``remote=URL`` (the URL ``phone-gym serve --openenv`` prints, with its ``?token=``) steps an
env served by ``phone-gym``'s OpenEnv server
(``phone_gym.integrations.openenv.PhoneEnvClient``, extra ``[openenv]``) instead of a local
one: one WebSocket session per ``PhoneToolEnv``, kept for the run (TRL reuses instances).
Over ``remote=`` an episode the model leaves unfinished scores 0: the client cannot end an
episode early, so let the model call ``finish``/``answer`` (the step budget also ends it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from PIL import Image

#: Told to the model before the first screenshot; the tools' schemas come from TRL.
SYSTEM_PROMPT = (
    "You control an Android phone to complete the user's task. Each turn, call one tool "
    "(a phone action). Coordinates are integers in [0, 1000] over the screen: (0, 0) is the "
    "top-left corner, (1000, 1000) the bottom-right one. After each action you see the new "
    "screen. Call answer(text) to reply to a question, finish() when the task is done, or "
    "finish(status='infeasible') when it cannot be done."
)
#: ``SYSTEM_PROMPT`` and the user's first message per prompt locale (a dataset's ``locale``).
SYSTEM_PROMPTS: dict[str, str] = {
    "en-US": SYSTEM_PROMPT,
    "zh-CN": (
        "你在操作一部安卓手机，替用户完成任务。每一轮调用一个工具（一个手机操作）。坐标是覆盖整个"
        "屏幕的 [0, 1000] 内的整数：(0, 0) 是左上角，(1000, 1000) 是右下角。每次操作之后你会看到"
        "新的屏幕。要回答问题就调用 answer(text)，任务完成后调用 finish()，无法完成时调用 "
        "finish(status='infeasible')。"),
}
FIRST_MESSAGES: dict[str, str] = {"en-US": "Here is the phone's screen and your task.",
                                  "zh-CN": "这是手机的屏幕和你的任务。"}
#: The label before the instruction per prompt locale (``PhoneToolEnv.reset``).
TASK_LABELS: dict[str, str] = {"en-US": "Task: ", "zh-CN": "任务："}
#: The default screenshot size (width, height) shown to the model: a quarter of PhoneWorld's
#: 540x1200, about 200 image tokens for Qwen-VL instead of 650-820.
DEFAULT_IMAGE_SIZE = (270, 600)


class PhoneToolEnv:
    """One phone-gym episode driven by tool calls (TRL's ``environment_factory``).

    ``env_id`` is any registered id (``PhoneWorld-v0`` by default, a
    ``PhoneWorld-<Template>-v0``, ``RealPhone-v0``), made with ``env_kwargs``; ``remote`` (the
    server's URL with its token) uses ``phone_gym.integrations.openenv.PhoneEnvClient``
    instead. Screenshots are resized to ``image_size`` (width, height; None keeps them as
    rendered). Give TRL a factory without arguments, e.g.
    ``functools.partial(PhoneToolEnv, image_size=(270, 600))``.
    ``observations`` counts the screenshots shown in the current episode.
    """

    def __init__(self, env_id: str = "PhoneWorld-v0", *, env_kwargs: dict[str, Any] | None = None,
                 image_size: tuple[int, int] | None = DEFAULT_IMAGE_SIZE,
                 remote: str | None = None) -> None:
        if image_size is not None and (len(image_size) != 2 or min(image_size) < 1):
            raise ValueError(f"image_size={image_size!r}; accepted: (width, height) > 0 or None")
        if remote is not None and env_kwargs:
            raise ValueError("env_kwargs go to a local env; with remote=, configure the server")
        self.env_id = env_id
        self.env_kwargs = dict(env_kwargs or {})
        self.image_size = None if image_size is None else (int(image_size[0]), int(image_size[1]))
        self.remote = remote
        self.env: Any = None
        self.observations = 0
        self.steps = 0
        self.ended = False
        self.reward = 0.0
        self.scored = False
        self.last_info: dict[str, Any] = {}

    # --- TRL's contract: reset, get_reward --------------------------------------------------
    def reset(self, task: str | None = None, seed: int | None = None,
              **row: Any) -> list[dict[str, Any]]:
        """Start an episode of ``task`` (a template id; None: sampled) with ``seed``; returns
        the first screenshot and the instruction. Other dataset columns (``prompt``...) are
        ignored."""
        if self.env is None:
            self.env = self._make()
        options = {"task": task} if task is not None else None
        if self.remote is not None:
            obs, info = self.env.reset(task=task, seed=seed)
        else:
            obs, info = self.env.reset(seed=seed, options=options)
        self.steps, self.ended, self.reward, self.scored = 0, False, 0.0, False
        self.observations = 0
        self.last_info = dict(info)
        label = TASK_LABELS[str(info.get("locale") or "en-US")]
        return [self._image(obs), {"type": "text", "text": label + str(obs["instruction"])}]

    def get_reward(self) -> float:
        """The verifier's score of the episode (0 to 1): at its end, or of the phone's
        current state when the model stopped without finishing."""
        if self.env is None:
            raise RuntimeError("get_reward() before reset(): TRL resets every rollout first")
        if not self.ended and not self.scored:
            end_episode = getattr(getattr(self.env, "unwrapped", self.env), "end_episode", None)
            if end_episode is not None:
                self.reward = float(end_episode()[0])
            self.scored = True
        return self.reward

    # --- tools: the phone actions -------------------------------------------------------------
    def click(self, x: int, y: int) -> list[dict[str, Any]] | str:
        """Tap the screen at a point.

        Args:
            x: Horizontal position, 0 (left edge) to 1000 (right edge).
            y: Vertical position, 0 (top edge) to 1000 (bottom edge).
        """
        return self._act({"action": "click", "x": x, "y": y})

    def double_click(self, x: int, y: int) -> list[dict[str, Any]] | str:
        """Tap the screen twice quickly at a point.

        Args:
            x: Horizontal position, 0 (left edge) to 1000 (right edge).
            y: Vertical position, 0 (top edge) to 1000 (bottom edge).
        """
        return self._act({"action": "double_click", "x": x, "y": y})

    def long_press(self, x: int, y: int) -> list[dict[str, Any]] | str:
        """Touch and hold the screen at a point.

        Args:
            x: Horizontal position, 0 (left edge) to 1000 (right edge).
            y: Vertical position, 0 (top edge) to 1000 (bottom edge).
        """
        return self._act({"action": "long_press", "x": x, "y": y})

    def type(self, text: str) -> list[dict[str, Any]] | str:
        """Type text into the focused text field.

        Args:
            text: The text to type.
        """
        return self._act({"action": "type", "text": text})

    def scroll(self, direction: str, x: int = 500, y: int = 500) -> list[dict[str, Any]] | str:
        """Scroll the screen; "down" reveals what is below.

        Args:
            direction: One of "up", "down", "left", "right".
            x: Horizontal position to scroll at, 0 to 1000 (default: the centre).
            y: Vertical position to scroll at, 0 to 1000 (default: the centre).
        """
        return self._act({"action": "scroll", "direction": direction, "x": x, "y": y})

    def drag(self, x: int, y: int, x2: int, y2: int) -> list[dict[str, Any]] | str:
        """Drag a finger from one point to another.

        Args:
            x: Start, horizontal, 0 to 1000.
            y: Start, vertical, 0 to 1000.
            x2: End, horizontal, 0 to 1000.
            y2: End, vertical, 0 to 1000.
        """
        return self._act({"action": "drag", "x": x, "y": y, "x2": x2, "y2": y2})

    def press(self, button: str) -> list[dict[str, Any]] | str:
        """Press a system button.

        Args:
            button: One of "back", "home", "enter", "recents".
        """
        return self._act({"action": "press", "button": button})

    def open_app(self, app: str) -> list[dict[str, Any]] | str:
        """Open an app by its name.

        Args:
            app: The app's name as the launcher shows it, e.g. "Contacts".
        """
        return self._act({"action": "open_app", "app": app})

    def close_app(self, app: str) -> list[dict[str, Any]] | str:
        """Close an app by its name.

        Args:
            app: The app's name as the launcher shows it.
        """
        return self._act({"action": "close_app", "app": app})

    def wait(self, seconds: int = 1) -> list[dict[str, Any]] | str:
        """Wait for the screen to change.

        Args:
            seconds: How long to wait, in seconds.
        """
        return self._act({"action": "wait", "seconds": seconds})

    def answer(self, text: str) -> list[dict[str, Any]] | str:
        """Answer the user's question; this ends the task.

        Args:
            text: The answer.
        """
        return self._act({"action": "answer", "text": text})

    def finish(self, status: str = "success") -> list[dict[str, Any]] | str:
        """End the task.

        Args:
            status: "success" when it is done, "infeasible" when it cannot be done.
        """
        return self._act({"action": "finish", "status": status})

    # --- helpers (private: TRL makes every public method a tool) -------------------------------
    def _make(self) -> Any:
        if self.remote is not None:
            try:
                from .openenv import PhoneEnvClient
            except ImportError as err:
                raise ImportError("remote= needs the OpenEnv client: "
                                  "pip install 'phone-gym[openenv]'") from err
            return PhoneEnvClient(self.remote)
        import gymnasium as gym

        import phone_gym  # noqa: F401  (registers the ids)

        if self.env_id not in gym.registry:
            known = sorted(i for i in gym.registry if i.startswith(("PhoneWorld-v", "RealPhone")))
            raise ValueError(f"env_id={self.env_id!r} is not registered; accepted: a registered "
                             f"id such as {', '.join(known)} (`phone-gym tasks` lists more)")
        return gym.make(self.env_id, **self.env_kwargs)

    def _image(self, obs: dict[str, Any]) -> dict[str, Any]:
        shot = obs.get("screenshot")
        if shot is None:
            raise ValueError("the env gives no screenshot: make it with screenshot=True")
        image = shot if isinstance(shot, Image.Image) else Image.fromarray(np.asarray(shot))
        image = image.convert("RGB")
        if self.image_size is not None and image.size != self.image_size:
            image = image.resize(self.image_size, Image.Resampling.BILINEAR)
        self.observations += 1
        return {"type": "image", "image": image}

    def _act(self, action: dict[str, Any]) -> list[dict[str, Any]] | str:
        if self.env is None:
            raise RuntimeError("a tool call before reset(): TRL resets every rollout first")
        if self.ended:
            return "The episode has ended: no further action is carried out."
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.steps += 1
        self.last_info = dict(info)
        self.ended = bool(terminated or truncated)
        if self.ended:
            self.reward, self.scored = float(reward), True
        text = _feedback(info, self.steps, terminated, truncated)
        return [self._image(obs), {"type": "text", "text": text}]


def _feedback(info: dict[str, Any], steps: int, terminated: bool, truncated: bool) -> str:
    """What the model reads after an action: what ran or why it did not, and the budget."""
    budget = info.get("max_steps")
    head = f"Step {steps}" + (f" of {budget}" if budget else "") + ". "
    error = info.get("action_error")
    if error:
        head += f"Error: {error}. Nothing was done."
    else:
        head += f"Done: {info.get('action')}."
    if terminated:
        head += " The episode has ended."
    elif truncated:
        head += " The step budget is spent: the episode has ended."
    return head


def build_dataset(tasks: str | Sequence[str] | None = None, seeds: int | Iterable[int] = 8, *,
                  split: str | None = None, system_prompt: str | None = None,
                  locale: str = "en-US") -> Any:
    """A ``datasets.Dataset`` of prompts, one row per (template, seed): ``prompt`` (a system
    and a user message; ``PhoneToolEnv.reset`` appends the screenshot and the instruction),
    ``task`` and ``seed``. ``tasks``: template ids (None: all); ``seeds``: a count or the
    seeds; ``split``: PhoneWorld-Bench's ``"train"`` or ``"test"`` templates only;
    ``locale``: the phone's (make the env with the same ``locale``): only its templates,
    and ``SYSTEM_PROMPTS[locale]`` unless ``system_prompt`` is given."""
    try:
        from datasets import Dataset
    except ImportError as err:
        raise ImportError("build_dataset needs `datasets`: pip install 'phone-gym[trl]'") from err
    from ..envs.phone_world import locale_templates, select_templates, split_templates

    if locale not in SYSTEM_PROMPTS:
        raise ValueError(f"locale={locale!r}; accepted: {', '.join(SYSTEM_PROMPTS)}")
    templates = locale_templates(select_templates(tasks), locale)
    if split is not None:
        templates = split_templates(templates, split, locale)
    seed_list = list(range(seeds)) if isinstance(seeds, int) else [int(s) for s in seeds]
    if not seed_list:
        raise ValueError(f"seeds={seeds!r}; accepted: a count > 0 or a non-empty list of ints")
    prompt = [{"role": "system", "content": system_prompt or SYSTEM_PROMPTS[locale]},
              {"role": "user", "content": FIRST_MESSAGES[locale]}]
    rows = [{"prompt": prompt, "task": t.id, "seed": s} for t in templates for s in seed_list]
    return Dataset.from_list(rows)


def check_processor(processing_class: Any) -> Any:
    """Set TRL's tool-call parser on ``processing_class`` (a tokenizer or processor) and
    return it; ``ValueError`` when TRL does not know its chat template (Qwen2.5-VL's, for
    one: use a Qwen3-VL model, or set ``tokenizer.response_template`` yourself)."""
    try:
        from trl.chat_template_utils import add_response_schema
    except ImportError as err:
        raise ImportError("TRL is missing: pip install 'phone-gym[trl]'") from err
    try:
        return add_response_schema(processing_class)
    except ValueError as err:
        raise ValueError("TRL cannot parse tool calls of this chat template; accepted: the "
                         "templates trl.chat_template_utils.add_response_schema knows (Qwen3-VL, "
                         "Qwen3, Qwen2.5 text, Llama 3.1/3.2, ...; not Qwen2.5-VL)") from err
