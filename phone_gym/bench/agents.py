"""Agents the bench runs: the ``Agent`` protocol and its adapters.

An agent is ``reset(instruction, info)`` at the start of an episode and ``act(obs, info)``
each step, which returns ``(text_or_action, usage)``: a ``PhoneAction``, or text the runner
parses (with the agent's own ``parse(text, screen)`` when it has one, else phone-gym's
``to_action``), and a usage dict (``tokens_in``, ``tokens_out``; missing keys count 0).
Two optional hooks: ``bind(env, seed)`` before each episode (the oracle and the random agent
read the env), and ``parse``.

Adapters: ``OracleAgent``, ``RandomAgent``, ``CallableAgent`` (``fn(obs, info)``),
``PolicyAgent`` (any ``phone_gym.trainer`` ``Policy``; the trainer is imported only then)
and ``OpenAIAgent`` (an OpenAI-compatible chat completions endpoint: vLLM, SGLang, hosted
APIs). ``make_agent`` builds one from a spec: ``"oracle"``, ``"random"``, ``"openai"``,
``"module:function"`` or an object.
"""

from __future__ import annotations

import base64
import importlib
import io
import json
import threading
import time
import urllib.error
import urllib.request
import zlib
from collections.abc import Callable, Mapping
from typing import Any, Protocol, runtime_checkable

import numpy as np
from PIL import Image

from ..actions import PhoneAction, action_from_sample, format_action, to_action

Usage = dict[str, Any]
#: HTTP statuses retried with back-off (rate limits and server errors).
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
AGENT_NAMES: tuple[str, ...] = ("oracle", "random", "openai")


class EndpointError(RuntimeError):
    """The model endpoint failed (refused, HTTP error after retries, a malformed body): the
    episode ends with failure "endpoint"."""


@runtime_checkable
class Agent(Protocol):
    """What the bench runs: reset per episode, then one action per step."""

    def reset(self, instruction: str, info: Mapping[str, Any]) -> None: ...

    def act(self, obs: Mapping[str, Any], info: Mapping[str, Any]
            ) -> tuple[str | PhoneAction, Usage]: ...


class OracleAgent:
    """The task's oracle (``env.unwrapped.oracle_action()``; PhoneWorld and the real-device
    templates): the ceiling, and a check of the runner."""

    env: Any = None

    def bind(self, env: Any, seed: int) -> None:
        self.env = env

    def reset(self, instruction: str, info: Mapping[str, Any]) -> None:
        pass

    def act(self, obs: Mapping[str, Any], info: Mapping[str, Any]
            ) -> tuple[str | PhoneAction, Usage]:
        if self.env is None:
            raise RuntimeError("OracleAgent needs bind(env, seed) before act")
        return self.env.unwrapped.oracle_action(), {}


class RandomAgent:
    """Samples of the env's action space (``action_space.sample()``), seeded per episode
    from ``seed``, the episode's seed and its instruction: the floor to beat."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.env: Any = None
        self._episode_seed = 0

    def bind(self, env: Any, seed: int) -> None:
        self.env = env
        self._episode_seed = seed

    def reset(self, instruction: str, info: Mapping[str, Any]) -> None:
        if self.env is None:
            raise RuntimeError("RandomAgent needs bind(env, seed) before reset")
        mixed = np.random.SeedSequence(
            [self.seed, self._episode_seed, zlib.crc32(instruction.encode())])
        self.env.action_space.seed(int(mixed.generate_state(1)[0]))

    def act(self, obs: Mapping[str, Any], info: Mapping[str, Any]
            ) -> tuple[str | PhoneAction, Usage]:
        sample = self.env.action_space.sample()
        return action_from_sample(sample, self.env.unwrapped.app_names), {}


class CallableAgent:
    """Wraps ``fn(obs, info)``, which returns a ``PhoneAction``, action text, or
    ``(either, usage)``."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn = fn

    def reset(self, instruction: str, info: Mapping[str, Any]) -> None:
        pass

    def act(self, obs: Mapping[str, Any], info: Mapping[str, Any]
            ) -> tuple[str | PhoneAction, Usage]:
        out = self.fn(obs, info)
        if isinstance(out, tuple) and len(out) == 2 and isinstance(out[1], Mapping):
            return out[0], dict(out[1])
        return out, {}


class PolicyAgent:
    """A ``phone_gym.trainer`` ``Policy`` (batched ``act(observations, infos, histories)``)
    run on one env; keeps its history of ``Turn``s; tokens from a ``Generation``."""

    def __init__(self, policy: Any) -> None:
        self.policy = policy
        self.history: list[Any] = []

    def reset(self, instruction: str, info: Mapping[str, Any]) -> None:
        self.history = []

    def act(self, obs: Mapping[str, Any], info: Mapping[str, Any]
            ) -> tuple[str | PhoneAction, Usage]:
        from ..trainer.policies import as_generation
        from ..trainer.prompts import Turn

        if self.history and info.get("action_error"):
            self.history[-1].error = info["action_error"]
        out = as_generation(self.policy.act([obs], [info], [list(self.history)])[0])
        self.history.append(Turn(action=out.text))
        usage = {"tokens_in": len(out.prompt_ids or ()), "tokens_out": len(out.gen_ids or ())}
        return out.text, usage


def load_format(name: str) -> Any:
    """The action format ``name`` (``phone_gym.actions.formats.get_format``); None for
    "phone_gym" while that package is not installed (then ``to_action`` parses)."""
    try:
        formats = importlib.import_module("phone_gym.actions.formats")
    except ModuleNotFoundError as exc:
        if exc.name != "phone_gym.actions.formats":
            raise
        if name == "phone_gym":
            return None
        raise ValueError(f"format {name!r} needs phone_gym.actions.formats; accepted here: "
                         "'phone_gym'") from None
    return formats.get_format(name)


_SEMAPHORES: dict[str, threading.BoundedSemaphore] = {}
_SEMAPHORES_LOCK = threading.Lock()


def _semaphore(key: str, limit: int) -> threading.BoundedSemaphore:
    """The process-wide semaphore of an endpoint (the first limit asked for wins)."""
    with _SEMAPHORES_LOCK:
        if key not in _SEMAPHORES:
            _SEMAPHORES[key] = threading.BoundedSemaphore(limit)
        return _SEMAPHORES[key]


def png_data_url(image: np.ndarray) -> str:
    """``image`` (H x W x 3 uint8) as a ``data:image/png;base64,...`` URL."""
    buffer = io.BytesIO()
    Image.fromarray(image).save(buffer, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


class OpenAIAgent:
    """A model behind an OpenAI-compatible chat completions endpoint.

    Each step POSTs ``{base_url}/chat/completions`` with ``model``, ``messages`` (the
    format's system prompt; a user message with the task, the earlier actions and the
    screenshot as a base64 PNG data URL), ``temperature`` and ``max_tokens``, and reads
    ``choices[0].message.content`` and ``usage.prompt_tokens``/``completion_tokens`` (the
    response shape of https://platform.openai.com/docs/api-reference/chat/object). The
    reply is parsed with the action format ``format`` (``parse``), in the coordinates of
    the image sent. The format's prompt may hold ``{instruction}``, ``{width}``,
    ``{height}`` and ``{apps}``, replaced as they are (other braces stay). The prompts are
    those of the episode's locale (the env's ``locale``, bound in ``bind``): a zh-CN phone
    gets the zh-CN system prompt and user message.

    Connection errors, timeouts and HTTP 429/5xx are retried ``retries`` times with
    exponential back-off (``backoff_s``, doubling, at most 8 s); then, or on another HTTP
    error or a body that is not a chat completion, ``act`` raises ``EndpointError``. At most
    ``concurrency`` requests to one ``base_url`` run at once in a process (a semaphore
    shared by the process's agents). ``api_key`` is sent as a Bearer token, never
    recorded.
    """

    def __init__(self, base_url: str, model: str, format: str = "phone_gym",
                 api_key: str | None = None, concurrency: int = 8, retries: int = 3,
                 timeout: float = 120.0, temperature: float = 0.0, max_tokens: int = 512,
                 backoff_s: float = 0.5) -> None:
        if not base_url.startswith(("http://", "https://")):
            raise ValueError(f"base_url={base_url!r}; accepted: an http:// or https:// URL "
                             "(e.g. http://127.0.0.1:8000/v1)")
        if concurrency < 1 or retries < 0 or timeout <= 0:
            raise ValueError("accepted: concurrency >= 1, retries >= 0, timeout > 0")
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        self.format_name = format
        self.format = load_format(format)
        self.api_key = api_key
        self.retries = retries
        self.timeout = timeout
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.backoff_s = backoff_s
        self.semaphore = _semaphore(self.url, concurrency)
        self.instruction = ""
        self.actions: list[str] = []
        self.app_names: list[str] | None = None
        self.locale = "en-US"

    # --- the Agent protocol --------------------------------------------------------------
    def bind(self, env: Any, seed: int) -> None:
        self.app_names = list(getattr(env.unwrapped, "app_names", []) or []) or None
        self.locale = str(getattr(env.unwrapped, "locale", "en-US"))

    def reset(self, instruction: str, info: Mapping[str, Any]) -> None:
        self.instruction = instruction
        self.actions = []

    def act(self, obs: Mapping[str, Any], info: Mapping[str, Any]
            ) -> tuple[str | PhoneAction, Usage]:
        messages = self.messages(obs, info)
        start = time.monotonic()
        reply = self._post({"model": self.model, "messages": messages,
                            "temperature": self.temperature, "max_tokens": self.max_tokens})
        latency = time.monotonic() - start
        text = _content(reply)
        self.actions.append(" ".join(text.split())[:200])
        usage: dict[str, Any] = reply["usage"] if isinstance(reply.get("usage"), dict) else {}
        return text, {"tokens_in": int(usage.get("prompt_tokens") or 0),
                      "tokens_out": int(usage.get("completion_tokens") or 0),
                      "latency_s": latency}

    def parse(self, text: str, screen: tuple[int, int]) -> PhoneAction:
        """The reply as a ``PhoneAction`` (``ActionError`` when it holds none)."""
        if self.format is None:
            return to_action(text, self.app_names)
        return self.format.parse(text, screen)

    # --- requests ------------------------------------------------------------------------
    def system_prompt(self, screen: tuple[int, int]) -> str:
        if self.format is None:
            from ..trainer.prompts import system_prompt

            return system_prompt(self.app_names, locale=self.locale)
        text = self.format.prompt(self.locale)
        comma = "、" if self.locale == "zh-CN" else ", "
        values = {"instruction": self.instruction, "width": str(screen[0]),
                  "height": str(screen[1]), "apps": comma.join(self.app_names or [])}
        for key, value in values.items():
            text = text.replace("{" + key + "}", value)
        return text

    def messages(self, obs: Mapping[str, Any], info: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The chat messages of one step."""
        from ..trainer.prompts import USER_LABELS, user_text

        shot = obs.get("screenshot")
        screen = (int(shot.shape[1]), int(shot.shape[0])) if shot is not None else (1000, 1000)
        text = user_text(self.instruction, self.actions, info.get("action_error"),
                         locale=self.locale)
        if obs.get("ui"):
            text += f"\n{USER_LABELS[self.locale]['ui']}\n" + str(obs["ui"])
        content: list[dict[str, Any]] = [{"type": "text", "text": text}]
        if shot is not None:
            content.append({"type": "image_url", "image_url": {"url": png_data_url(shot)}})
        return [{"role": "system", "content": self.system_prompt(screen)},
                {"role": "user", "content": content}]

    def _post(self, body: dict[str, Any]) -> dict[str, Any]:
        data = json.dumps(body).encode()
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        last = ""
        for attempt in range(self.retries + 1):
            if attempt:
                time.sleep(min(8.0, self.backoff_s * 2 ** (attempt - 1)))
            request = urllib.request.Request(self.url, data=data, headers=headers,
                                             method="POST")
            try:
                with self.semaphore, urllib.request.urlopen(request,
                                                            timeout=self.timeout) as resp:
                    raw = resp.read()
            except urllib.error.HTTPError as exc:
                last = f"HTTP {exc.code} from {self.url}"
                if exc.code in RETRY_STATUSES:
                    continue
                raise EndpointError(f"{last}: {_snippet(exc.read())}") from None
            except (urllib.error.URLError, OSError) as exc:
                reason = getattr(exc, "reason", exc)
                last = f"cannot reach {self.url}: {reason}"
                continue
            try:
                reply = json.loads(raw)
            except ValueError:
                raise EndpointError(f"malformed JSON from {self.url}: {_snippet(raw)}") from None
            if not isinstance(reply, dict):
                raise EndpointError(f"not a chat completion from {self.url}: {_snippet(raw)}")
            return reply
        raise EndpointError(f"{last} (after {self.retries + 1} tries)")


def _snippet(raw: bytes, limit: int = 120) -> str:
    text = " ".join(raw.decode("utf-8", "replace").split())
    return repr(text if len(text) <= limit else text[:limit] + "...")


def _content(reply: Mapping[str, Any]) -> str:
    """``choices[0].message.content`` of a chat completion (``EndpointError`` without one)."""
    try:
        content = reply["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        raise EndpointError("the reply has no choices[0].message.content") from None
    if isinstance(content, list):  # content parts
        content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
    if not isinstance(content, str):
        raise EndpointError(f"choices[0].message.content is {type(content).__name__}, "
                            "not text")
    return content


def resolve_object(spec: str) -> Any:
    """The object named by ``"module:attribute"`` (``ValueError`` when it is not there)."""
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise ValueError(f"agent {spec!r}; accepted: {', '.join(AGENT_NAMES)} or "
                         "module:function")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name and not module_name.startswith(f"{exc.name}."):
            raise
        raise ValueError(f"agent {spec!r}: no module {module_name!r} (is it on PYTHONPATH?)"
                         ) from None
    obj: Any = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise ValueError(f"agent {spec!r}: {module_name} has no {attr!r}")
        obj = getattr(obj, part)
    return obj


def make_agent(spec: Any, options: Mapping[str, Any] | None = None) -> Any:
    """An agent from a spec: "oracle", "random" (``seed``), "openai" (the ``OpenAIAgent``
    arguments in ``options``), "module:function", or an object: an ``Agent`` as it is, a
    trainer ``Policy`` (``act`` with three batches) wrapped in ``PolicyAgent``, a class
    (instantiated without arguments), or a callable ``fn(obs, info)``."""
    options = dict(options or {})
    if isinstance(spec, str):
        if spec == "oracle":
            return OracleAgent()
        if spec == "random":
            return RandomAgent(seed=int(options.get("seed", 0)))
        if spec == "openai":
            if not options.get("base_url") or not options.get("model"):
                raise ValueError("agent 'openai' needs base_url and model (--base-url URL "
                                 "--model NAME)")
            return OpenAIAgent(**options)
        spec = resolve_object(spec)
    if isinstance(spec, type):
        spec = spec()
    if hasattr(spec, "act") and hasattr(spec, "reset"):
        return spec
    if hasattr(spec, "act"):
        return PolicyAgent(spec)
    if callable(spec):
        return CallableAgent(spec)
    raise ValueError(f"agent {spec!r}; accepted: {', '.join(AGENT_NAMES)}, module:function, "
                     "an Agent, a trainer Policy or a callable fn(obs, info)")


def agent_call_s(spec: Any, options: Mapping[str, Any] | None = None) -> float | None:
    """The longest an agent's call can take by its own timeouts (None: unknown): for
    "openai", each try's ``timeout`` times the tries, plus the back-off between them."""
    if spec != "openai":
        return None
    options = options or {}
    retries, timeout = int(options.get("retries", 3)), float(options.get("timeout", 120.0))
    backoff = float(options.get("backoff_s", 0.5))
    return (retries + 1) * timeout + sum(min(8.0, backoff * 2 ** k) for k in range(retries))


def describe_action(action: str | PhoneAction) -> str:
    """The text recorded for an agent's output."""
    return format_action(action) if isinstance(action, PhoneAction) else str(action)
