"""PhoneWorld-v0 and RealPhone-v0 served as an OpenEnv environment, and its client.

Built on OpenEnv itself (``pip install "phone-gym[openenv]"``, package ``openenv-core``):
``PhoneEnvironment`` subclasses ``openenv.core.env_server.interfaces.Environment`` and
``create_server_app`` hands it to ``openenv.core.env_server.http_server.create_fastapi_app``,
which serves OpenEnv's protocol (``POST /reset``, ``POST /step``, ``GET /state``,
``/schema``, ``/health``, and ``/ws``: one WebSocket session per client, each with its own
environment from the factory, stepped in that session's own thread). The client
``PhoneEnvClient`` drives OpenEnv's ``EnvClient`` (the ``/ws`` session) through its
``SyncEnvClient`` and returns what the in-process env returns.

The wire format (``PhoneEnvAction``, ``PhoneEnvObservation``, ``PhoneEnvState``):

- an action is ``{"text": "click(x=500, y=300)"}`` (the literal-only grammar of
  ``phone_gym.actions.parse_action``), the structured fields
  ``{"action": "click", "x": 500, "y": 300}`` (``action_from_dict``; ``value`` holds the
  text of ``type``/``answer``), or ``{"fields": {...}}``: any action dict, given to
  ``env.step`` as is (what ``PhoneEnvClient.step`` sends for a dict). A bad action is the
  env's ``action_error`` and a step, as in-process; only a message that is not an action
  message at all (an unknown field, two forms at once) is OpenEnv's validation error.
- an observation holds the screenshot as PNG in base64 (lossless), the instruction, the
  UI listing when the env has ``ui_in_obs``, the step, the last ``action_error``,
  ``terminated``/``truncated`` and the agent-facing ``info`` (``envs.contract``'s
  ``STEP_KEYS``, ``END_KEYS`` once the episode ended, RealPhone's device keys); OpenEnv's
  own ``reward`` and ``done`` (``terminated or truncated``) are set too. The server makes
  its envs with ``privileged_info=False``: the task's params never leave it.
"""

from __future__ import annotations

import asyncio
import base64
import io
import threading
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

import numpy as np

try:
    from openenv.core.client_types import StepResult
    from openenv.core.env_client import EnvClient
    from openenv.core.env_server.http_server import create_fastapi_app
    from openenv.core.env_server.interfaces import Environment
    from openenv.core.env_server.types import Action, Observation, State
    from pydantic import model_validator
except ImportError as err:  # pragma: no cover - depends on the extra
    raise ImportError('phone_gym.integrations.openenv needs the openenv extra: '
                      'pip install "phone-gym[openenv]"') from err

from ..actions import PhoneAction, format_action
from ..envs.contract import PRIVILEGED_KEYS

__all__ = ["ENV_IDS", "PhoneEnvAction", "PhoneEnvClient", "PhoneEnvObservation",
           "PhoneEnvState", "PhoneEnvironment", "create_server_app", "decode_png",
           "encode_png", "serve"]

#: The env ids a server may serve.
ENV_IDS: tuple[str, ...] = ("PhoneWorld-v0", "RealPhone-v0")
#: Keyword arguments a server never lets through to its envs (the info policy is the
#: server's, not the client's).
_SERVER_ONLY = ("privileged_info", "render_mode")


# --- wire types --------------------------------------------------------------------------
class PhoneEnvAction(Action):
    """One phone action: ``text`` in the literal-only grammar, or ``action`` (the type)
    with its fields. Field values are passed to the env as given, so a bad value is the
    env's ``action_error``, not a protocol error."""

    text: str | None = None
    action: str | None = None
    x: Any = None
    y: Any = None
    x2: Any = None
    y2: Any = None
    direction: Any = None
    button: Any = None
    app: Any = None
    seconds: Any = None
    status: Any = None
    index: Any = None
    value: Any = None  # the text of a structured ``type``/``answer`` (``text`` is the grammar)
    fields: dict[str, Any] | None = None  # any action dict ``env.step`` takes, passed as is

    @model_validator(mode="after")
    def _one_form(self) -> PhoneEnvAction:
        if sum(v is not None for v in (self.text, self.action, self.fields)) > 1:
            raise ValueError("give the action as text, as fields (action=...) or as an action "
                             "dict (fields=...), not several")
        return self

    def to_env(self) -> str | dict[str, Any]:
        """What ``env.step`` takes: the text, the ``{"action": name, ...}`` dict of the
        structured fields, or ``fields``."""
        if self.fields is not None:
            return dict(self.fields)
        if self.action is None:
            return self.text if self.text is not None else ""
        fields = {name: getattr(self, name) for name in _STRUCTURED}
        if self.value is not None:
            fields["text"] = self.value
        return {"action": self.action, **{k: v for k, v in fields.items() if v is not None}}

    @classmethod
    def from_any(cls, action: PhoneEnvAction | PhoneAction | str | Mapping[str, Any]
                 ) -> PhoneEnvAction:
        """The wire form of an action as ``env.step`` takes it (text, dict or
        ``PhoneAction``; a ``PhoneEnvAction`` as is); ``ValueError`` for anything else."""
        if isinstance(action, PhoneEnvAction):
            return action
        if isinstance(action, PhoneAction):
            return cls(text=format_action(action))
        if isinstance(action, str):
            return cls(text=action)
        if isinstance(action, Mapping):  # as is: env.step reads it as in-process
            return cls(fields=_jsonable(action))
        raise ValueError(f"action={action!r}; accepted: an action string, an action dict "
                         "{'action': name, ...} or a PhoneAction")


_STRUCTURED = ("x", "y", "x2", "y2", "direction", "button", "app", "seconds", "status",
               "index")


class PhoneEnvObservation(Observation):
    """What the agent sees after a reset or a step (``reward``/``done`` are OpenEnv's)."""

    screenshot_png: str | None = None  # PNG, base64
    instruction: str = ""
    ui: str | None = None
    step: int = 0
    action_error: str | None = None
    terminated: bool = False
    truncated: bool = False
    info: dict[str, Any] = {}


class PhoneEnvState(State):
    """The session's episode: OpenEnv's ``episode_id``/``step_count`` and the env id."""

    env_id: str = ""
    ended: bool = False


# --- helpers -----------------------------------------------------------------------------
def encode_png(image: np.ndarray) -> str:
    """An ``H x W x 3`` uint8 image as PNG in base64 (lossless)."""
    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(image, dtype=np.uint8)).save(
        buf, format="PNG", compress_level=1)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def decode_png(data: str) -> np.ndarray:
    """The ``H x W x 3`` uint8 image of ``encode_png``."""
    from PIL import Image

    with Image.open(io.BytesIO(base64.b64decode(data))) as image:
        return np.asarray(image.convert("RGB"), dtype=np.uint8).copy()


def _jsonable(value: Any) -> Any:
    """``value`` with numpy values, tuples and sequences (``UIElementList``) as JSON types."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, PhoneAction):
        return format_action(value)
    if isinstance(value, (Sequence, set, frozenset)) and not isinstance(value, (bytes, str)):
        return [_jsonable(v) for v in value]
    return str(value)


# --- server ------------------------------------------------------------------------------
class PhoneEnvironment(Environment[PhoneEnvAction, PhoneEnvObservation, PhoneEnvState]):
    """One phone-gym env (``gym.make(env_id, **env_kwargs)``) behind OpenEnv's
    ``Environment``: one per WebSocket session."""

    SUPPORTS_CONCURRENT_SESSIONS = True  # each session makes its own env

    def __init__(self, env_id: str = "PhoneWorld-v0",
                 env_kwargs: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        import gymnasium as gym

        from ..envs import register_envs

        if env_id not in ENV_IDS:
            raise ValueError(f"env_id={env_id!r}; accepted: {', '.join(ENV_IDS)}")
        kwargs = {k: v for k, v in (env_kwargs or {}).items() if k not in _SERVER_ONLY}
        register_envs()
        self.env_id = env_id
        self.env = gym.make(env_id, privileged_info=False, **kwargs)
        self._state = PhoneEnvState(env_id=env_id)

    def reset(self, seed: int | None = None, episode_id: str | None = None,
              task: str | None = None, **options: Any) -> PhoneEnvObservation:
        """``env.reset(seed=seed, options={"task": task, **options})``."""
        opts = dict(options)
        if task is not None:
            opts["task"] = task
        obs, info = self.env.reset(seed=seed, options=opts or None)
        self._state = PhoneEnvState(env_id=self.env_id, episode_id=episode_id, step_count=0)
        return self._observation(obs, None, False, False, info)

    def step(self, action: PhoneEnvAction, timeout_s: float | None = None,
             **kwargs: Any) -> PhoneEnvObservation:
        """``env.step`` of the action; a bad action is the observation's ``action_error``.
        A step of an ended episode raises (OpenEnv answers an ``EXECUTION_ERROR``)."""
        obs, reward, terminated, truncated, info = self.env.step(action.to_env())
        self._state.step_count += 1
        self._state.ended = bool(terminated or truncated)
        return self._observation(obs, float(reward), bool(terminated), bool(truncated), info)

    @property
    def state(self) -> PhoneEnvState:
        return self._state

    def close(self) -> None:
        self.env.close()

    def _observation(self, obs: Mapping[str, Any], reward: float | None, terminated: bool,
                     truncated: bool, info: Mapping[str, Any]) -> PhoneEnvObservation:
        shot = obs.get("screenshot")
        agent_info = {k: _jsonable(v) for k, v in info.items() if k not in PRIVILEGED_KEYS}
        return PhoneEnvObservation(
            screenshot_png=encode_png(shot) if shot is not None else None,
            instruction=str(obs.get("instruction", "")), ui=obs.get("ui"),
            step=int(info.get("step", 0)), action_error=info.get("action_error"),
            terminated=terminated, truncated=truncated, info=agent_info,
            reward=reward, done=terminated or truncated)


def create_server_app(env_id: str = "PhoneWorld-v0", max_sessions: int | None = None,
                      **env_kwargs: Any) -> Any:
    """OpenEnv's FastAPI app serving ``env_id`` (one env per WebSocket session; at most
    ``max_sessions`` at once: 8 for PhoneWorld, 1 for RealPhone, whose phone is one)."""
    if env_id not in ENV_IDS:
        raise ValueError(f"env_id={env_id!r}; accepted: {', '.join(ENV_IDS)}")
    if max_sessions is None:
        max_sessions = 1 if env_id == "RealPhone-v0" else 8
    if not isinstance(max_sessions, int) or isinstance(max_sessions, bool) or max_sessions < 1:
        raise ValueError(f"max_sessions={max_sessions!r}; accepted: a positive int")
    if env_kwargs.get("privileged_info"):
        raise ValueError("privileged_info=True: accepted: False; a server sends the agent-"
                         "facing info only (the task's params never leave it)")
    if env_kwargs.get("task") is not None:  # a bad id fails now, not at the first client
        from ..envs import select_templates

        select_templates(env_kwargs["task"])
    factory = partial(PhoneEnvironment, env_id, env_kwargs)
    return create_fastapi_app(factory, PhoneEnvAction, PhoneEnvObservation,
                              max_concurrent_envs=max_sessions)


def serve(env_id: str = "PhoneWorld-v0", host: str = "127.0.0.1", port: int = 8000,
          max_sessions: int | None = None, announce: bool = False, **env_kwargs: Any) -> None:
    """Run the server (uvicorn) until interrupted; ``announce`` prints where it listens."""
    import socket

    import uvicorn

    app = create_server_app(env_id, max_sessions=max_sessions, **env_kwargs)
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise OSError(f"cannot listen on {host}:{port} ({exc.strerror or exc}): pass another "
                      "--port") from None
    if announce:
        print(f"OpenEnv server for {env_id} on http://{host}:{port} (WebSocket /ws; client: "
              "phone_gym.integrations.openenv.PhoneEnvClient). Ctrl-C stops it.", flush=True)
    config = uvicorn.Config(app, log_level="warning", ws_max_size=100 * 2**20)
    uvicorn.Server(config).run(sockets=[sock])


# --- client ------------------------------------------------------------------------------
class _PhoneEnvWire(EnvClient[PhoneEnvAction, PhoneEnvObservation, PhoneEnvState]):
    """OpenEnv's ``EnvClient`` for the phone's wire types."""

    async def _send_and_receive(self, message: dict[str, Any]) -> dict[str, Any]:
        """``EnvClient._send_and_receive``, but a server that answered and closed the
        socket before our message went out (a full server: OpenEnv's ``_create_session``
        refuses on accept) still has its answer read, and a closed socket is a
        ``RuntimeError``."""
        from websockets.exceptions import ConnectionClosed

        try:
            await self._send(message)
        except ConnectionClosed:
            pass  # read what the server said before it closed
        try:
            response = await self._receive()
        except ConnectionClosed as exc:
            raise RuntimeError(f"the OpenEnv server closed the session: {exc}") from exc
        if response.get("type") == "error":
            error = response.get("data", {})
            raise RuntimeError(f"Server error: {error.get('message', 'Unknown error')} "
                               f"(code: {error.get('code', 'UNKNOWN')})")
        return response

    def _step_payload(self, action: PhoneEnvAction) -> dict[str, Any]:
        return action.model_dump(exclude_none=True, exclude={"metadata"})

    def _parse_result(self, payload: dict[str, Any]) -> StepResult[PhoneEnvObservation]:
        obs = PhoneEnvObservation(**payload.get("observation", {}),
                                  reward=payload.get("reward"), done=payload.get("done", False))
        return StepResult(observation=obs, reward=payload.get("reward"),
                          done=bool(payload.get("done", False)))

    def _parse_state(self, payload: dict[str, Any]) -> PhoneEnvState:
        return PhoneEnvState(**payload)


class PhoneEnvClient:
    """A phone-gym env on an OpenEnv server, with the Gymnasium interface:

    ``reset(task=None, seed=None, **options) -> (obs, info)`` and
    ``step(action) -> (obs, reward, terminated, truncated, info)``, where ``obs`` is
    ``{"instruction": str, "screenshot": H x W x 3 uint8 array, ["ui": str]}`` and ``info``
    the agent-facing info (``ui_elements`` as a list of dicts), as the in-process env
    returns them. ``action`` is an action string, an action dict or a ``PhoneAction`` (or a
    ``PhoneEnvAction``, e.g. the structured fields).
    One client is one WebSocket session, so one episode at a time; ``close()`` ends it
    (also a context manager). Server errors (a step after the episode ended, a full
    server) raise ``RuntimeError``."""

    def __init__(self, base_url: str, connect_timeout_s: float = 10.0,
                 message_timeout_s: float = 120.0) -> None:
        if not isinstance(base_url, str) or not base_url.startswith(
                ("http://", "https://", "ws://", "wss://")):
            raise ValueError(f"base_url={base_url!r}; accepted: http(s):// or ws(s):// URL")
        self.base_url = base_url
        self._client = _PhoneEnvWire(base_url.rstrip("/"), connect_timeout_s=connect_timeout_s,
                                     message_timeout_s=message_timeout_s).sync()
        self._lock = threading.Lock()

    def reset(self, task: str | None = None, seed: int | None = None,
              **options: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        data: dict[str, Any] = dict(_jsonable(options))
        if task is not None:
            data["task"] = task
        if seed is not None:
            data["seed"] = int(seed)
        with self._lock:
            result = self._client.reset(**data)
        obs, _, _, _, info = self._unpack(result.observation)
        return obs, info

    def step(self, action: PhoneEnvAction | PhoneAction | str | Mapping[str, Any]
             ) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        wire = PhoneEnvAction.from_any(action)
        with self._lock:
            result = self._client.step(wire)
        return self._unpack(result.observation)

    def state(self) -> PhoneEnvState:
        """The session's ``PhoneEnvState`` (OpenEnv's ``state`` message)."""
        with self._lock:
            return self._client.state()  # type: ignore[no-any-return]

    def close(self) -> None:
        with self._lock:
            try:
                self._client.close()
            except (RuntimeError, asyncio.CancelledError):
                pass

    def __enter__(self) -> PhoneEnvClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @staticmethod
    def _unpack(o: PhoneEnvObservation) -> tuple[dict[str, Any], float, bool, bool,
                                                    dict[str, Any]]:
        obs: dict[str, Any] = {"instruction": o.instruction}
        if o.screenshot_png is not None:
            obs["screenshot"] = decode_png(o.screenshot_png)
        if o.ui is not None:
            obs["ui"] = o.ui
        return obs, float(o.reward or 0.0), o.terminated, o.truncated, dict(o.info)
