"""A verl agent loop that plays phone-gym episodes (extra ``[verl]``: ``pip install -e
".[verl]"``, in its own venv: verl 0.9 pins ``transformers<5.11``).

``PhoneGymAgentLoop`` is a verl ``AgentLoopBase`` registered as ``"phone_gym"``; a dataset row
(``phone_gym.integrations.verl_data.build_parquet``) names it in ``agent_name`` and gives the
task and seed in ``extra_info``. One ``run`` is one episode:

1. make the env (``PhoneWorld-v0`` by default) and reset it on the row's task and seed;
2. the conversation starts with the action format's system prompt (``qwen25vl`` by default,
   ``phone_gym.actions.formats``: the instruction and the image size filled in) and a user
   turn with the first screenshot, downscaled to ``image_size`` (270x600 by default: a
   quarter of the image tokens of 540x1200);
3. each turn the model generates through verl's server manager; its text is parsed by the
   format into a ``PhoneAction`` and steps the env; the new screenshot comes back as a user
   turn, with the action's error if it had one (a reply that does not parse leaves the phone
   as it is: the model gets the same screen and the parse error);
4. it stops when the episode ends (finish, answer, the env's step budget), at ``max_steps``
   assistant turns or when the response would pass ``rollout.response_length``; an episode
   left unfinished is scored on the phone's final state (``end_episode``).

It returns an ``AgentLoopOutput``: ``prompt_ids`` (system prompt and first screenshot),
``response_ids`` (everything after), ``response_mask`` (1 on the model's generated tokens
only; screenshots, feedback and the chat template's boundary tokens 0),
``multi_modal_data["images"]`` (every screenshot shown, in order) and ``reward_score``, the
verifier's score (verl's ``_compute_score`` leaves a set score alone).

What it mirrors, in verl 0.9.1 (``verl/experimental/agent_loop/``): ``ToolAgentLoop``
(``tool_agent_loop.py``) for the loop itself: the prompt built by
``ct_build_initial_tokens``, each generation through ``server_manager.generate(request_id=,
prompt_ids=, sampling_params=, image_data=, ...)`` merged by ``ct_merge_assistant_token``,
each observation merged by ``ct_merge_context_msg`` (verl's Continuous Token builder renders
the appended message with the processor's chat template, so image pads expand as the
trainer's re-processing expands them), images kept in ``image_data`` in the order shown, and
the output's prompt/response split. ``AgentLoopBase.__init__`` is verl's (its arguments
come from ``AgentLoopWorker._run_agent_loop`` through ``hydra.utils.instantiate``); the
constructor's own keyword arguments come from the agent-loop config YAML
(``examples/verl/agent_loop.yaml``, set as ``rollout.agent.agent_loop_config_path``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any
from uuid import uuid4

import numpy as np
from PIL import Image

try:
    from verl.experimental.agent_loop.agent_loop import (
        AgentLoopBase,
        AgentLoopMetrics,
        AgentLoopOutput,
        register,
    )
    from verl.utils.profiler import simple_timer
except ImportError as err:  # pragma: no cover - depends on the installed extras
    raise ImportError("phone_gym.integrations.verl needs verl: pip install 'phone-gym[verl]' "
                      "(in its own venv: verl pins transformers<5.11)") from err

from ..actions import ActionError, PhoneAction
from .verl_data import AGENT_NAME

#: Screenshots are downscaled to this (width, height) before the model sees them.
DEFAULT_IMAGE_SIZE = (270, 600)
#: Assistant turns at most per episode (the env's own step budget may end it earlier).
DEFAULT_MAX_STEPS = 15
#: The text beside the first screenshot, and beside each later one (with or without an
#: error: the action's error from the env, or why the reply did not parse).
TASK_NOTE = "Task: {instruction}"
SCREEN_NOTE = "The screen after your action."
ERROR_NOTE = "Action error: {error}"
#: The three notes per prompt locale (the episode's ``info["locale"]``): (task, screen, error).
NOTES: dict[str, tuple[str, str, str]] = {
    "en-US": (TASK_NOTE, SCREEN_NOTE, ERROR_NOTE),
    "zh-CN": ("任务：{instruction}", "这是你执行操作后的屏幕。", "操作出错：{error}"),
}


def _pair(value: Any, name: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in value)
    except (TypeError, ValueError):
        raise ValueError(f"{name}={value!r}; accepted: (width, height), positive ints") from None
    if w < 1 or h < 1:
        raise ValueError(f"{name}={value!r}; accepted: (width, height), positive ints")
    return w, h


@register(AGENT_NAME)
class PhoneGymAgentLoop(AgentLoopBase):
    """One phone-gym episode per ``run``, the model acting in ``action_format``'s text.

    Keyword arguments (the agent-loop YAML's keys): ``env_id`` (any registered id),
    ``env_kwargs`` (to ``gym.make``, e.g. ``{"split": "train"}``), ``action_format`` (a
    ``phone_gym.actions.formats`` name), ``image_size`` ((width, height) the screenshots are
    resized to), ``max_steps`` (assistant turns at most), ``system_prompt`` (a template with
    ``{instruction}``, ``{width}``, ``{height}``; None: the format's own in the episode's
    locale, ``prompt(locale)``, with ``NOTES`` in that language too). The remaining
    arguments are verl's (``AgentLoopBase``).
    """

    def __init__(self, *args: Any, env_id: str = "PhoneWorld-v0",
                 env_kwargs: Mapping[str, Any] | None = None, action_format: str = "qwen25vl",
                 image_size: Sequence[int] = DEFAULT_IMAGE_SIZE,
                 max_steps: int = DEFAULT_MAX_STEPS, system_prompt: str | None = None,
                 tools: Any = None, **kwargs: Any) -> None:
        from ..actions.formats import get_format

        super().__init__(*args, **kwargs)  # `tools` (verl's tool list) is not used here
        self.env_id = str(env_id)
        self.env_kwargs = dict(env_kwargs or {})
        self.format = get_format(str(action_format))
        self.image_size = _pair(image_size, "image_size")
        if int(max_steps) < 1:
            raise ValueError(f"max_steps={max_steps!r}; accepted: an int >= 1")
        self.max_steps = int(max_steps)
        self.system_template = system_prompt
        self.response_length = int(self.rollout_config.response_length)
        #: What the model sees: the screenshot's size after its processor's resize.
        self.screen = self.format.model_screen(*self.image_size)

    # --- the episode ------------------------------------------------------------------------
    async def run(self, sampling_params: dict[str, Any], **kwargs: Any) -> AgentLoopOutput:
        """Play the episode of the row's ``extra_info`` task and seed (verl passes the row's
        columns as ``kwargs``)."""
        extra = dict(kwargs.get("extra_info") or {})
        task = extra.get("task")
        seed = extra.get("seed")
        seed = None if seed is None else int(seed)
        env = await self._call(self._make_env)
        try:
            return await self._episode(env, sampling_params, task, seed)
        finally:
            env.close()

    async def _episode(self, env: Any, sampling_params: dict[str, Any], task: Any,
                       seed: int | None) -> AgentLoopOutput:
        options = {"task": str(task)} if task else None
        obs, info = await self._call(env.reset, seed=seed, options=options)
        instruction = str(obs["instruction"])
        image = self._image(obs)
        locale = str(info.get("locale") or "en-US")  # the prompts' language: the phone's
        task_note, screen_note, error_note = NOTES[locale]
        system = self.format.system_prompt(instruction, self.screen, self.system_template,
                                           locale)
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": system},
            {"role": "user", "content": [{"type": "image", "image": image},
                                         {"type": "text",
                                          "text": task_note.format(instruction=instruction)}]},
        ]
        images = [image]
        self._assert_mm_supported(True)
        ids = await self.ct_build_initial_tokens(messages, images=list(images))
        prompt_len = len(ids)
        mask: list[int] = []
        logprobs: list[float] = []
        metrics: dict[str, float] = {}
        request_id = uuid4().hex
        reward, ended, turns, errors = 0.0, False, 0, 0
        while True:
            with simple_timer("generate_sequences", metrics):
                out = await self.server_manager.generate(
                    request_id=request_id, prompt_ids=ids, sampling_params=sampling_params,
                    image_data=list(images), video_data=None,
                    mm_processor_kwargs=self._get_mm_processor_kwargs())
            turns += 1
            merged, mask, new_logprobs = await self.ct_merge_assistant_token(
                ids, list(out.token_ids), mask, logprobs if (logprobs or out.log_probs) else None,
                assistant_logprobs=out.log_probs or None)
            ids = merged.token_ids
            logprobs = new_logprobs or []
            tokenizer: Any = self.tokenizer  # verl annotates it as AutoTokenizer
            text = tokenizer.decode(out.token_ids, skip_special_tokens=True)
            messages.append({"role": "assistant", "content": text})
            action, feedback = self._parse(text)
            if action is None:  # unparsable: the phone is not stepped, the model reads why
                errors += 1
            else:
                with simple_timer("tool_calls", metrics):  # the phone's step is the "tool"
                    obs, step_reward, terminated, truncated, info = await self._call(
                        env.step, action)
                if terminated or truncated:
                    reward, ended = float(step_reward), True
                    break
                feedback = info.get("action_error")
            if turns >= self.max_steps or len(mask) >= self.response_length:
                break  # as ToolAgentLoop stops before a tool turn the model would not answer
            image = self._image(obs)
            note = error_note.format(error=feedback) if feedback else screen_note
            previous = list(messages)
            messages.append({"role": "user", "content": [{"type": "image", "image": image},
                                                         {"type": "text", "text": note}]})
            merged, new_mask, new_logprobs = await self.ct_merge_context_msg(
                previous, messages, ids, mask, logprobs or None)
            if len(new_mask) >= self.response_length:
                messages.pop()  # the observation does not fit: the episode stops before it
                break
            ids, mask, logprobs = merged.token_ids, new_mask, new_logprobs or []
            images.append(image)
        if not ended:  # the model stopped or ran out of turns/length: score the final state
            reward = float((await self._call(env.unwrapped.end_episode))[0])
        response = ids[prompt_len:]
        return AgentLoopOutput(
            prompt_ids=ids[:prompt_len],
            response_ids=response[: self.response_length],
            response_mask=mask[: self.response_length],
            response_logprobs=logprobs[: self.response_length] if logprobs else None,
            multi_modal_data={"images": images},
            mm_processor_kwargs=self._get_mm_processor_kwargs(),
            reward_score=reward,
            num_turns=turns + len(images),  # ToolAgentLoop: user + assistant turns + 1
            metrics=AgentLoopMetrics(generate_sequences=metrics.get("generate_sequences", 0.0),
                                     tool_calls=metrics.get("tool_calls", 0.0)),
            extra_fields={"phone_gym": {"task": str(task), "seed": seed, "steps": turns,
                                        "ended": ended, "parse_errors": errors,
                                        "messages": len(messages)}},
        )

    # --- helpers ----------------------------------------------------------------------------
    def _make_env(self) -> Any:
        import gymnasium as gym

        import phone_gym  # noqa: F401  (registers the env ids)

        return gym.make(self.env_id, **self.env_kwargs)

    async def _call(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        """Run the env's (CPU-bound) ``fn`` off the event loop, as verl runs its tokenizing."""
        return await asyncio.get_running_loop().run_in_executor(None, lambda: fn(*args, **kwargs))

    def _image(self, obs: Mapping[str, Any]) -> Image.Image:
        shot = Image.fromarray(np.asarray(obs["screenshot"], dtype=np.uint8)).convert("RGB")
        if shot.size != self.image_size:
            shot = shot.resize(self.image_size, Image.Resampling.BILINEAR)
        return shot

    def _parse(self, text: str) -> tuple[PhoneAction | None, str | None]:
        """The model's action, or None and the parse error the model will read."""
        try:
            return self.format.parse(text, self.screen), None
        except ActionError as err:
            return None, str(err)


__all__ = ["DEFAULT_IMAGE_SIZE", "DEFAULT_MAX_STEPS", "ERROR_NOTE", "NOTES", "SCREEN_NOTE",
           "TASK_NOTE", "PhoneGymAgentLoop"]
