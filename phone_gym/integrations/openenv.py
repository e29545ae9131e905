"""PhoneWorld-v0 and RealPhone-v0 served as an OpenEnv environment, and its client.

Built on OpenEnv itself (``pip install "phone-gym[openenv]"``, package ``openenv-core``):
``PhoneEnvironment`` subclasses ``openenv.core.env_server.interfaces.Environment`` and
``create_server_app`` hands it to OpenEnv's ``HTTPEnvServer``, whose routes serve OpenEnv's
protocol: ``/ws`` (one WebSocket session per client, each with its own environment from the
factory, stepped in that session's own thread, at most ``max_sessions`` at once),
``/schema`` and ``/health``. The HTTP calls are phone-gym's, on OpenEnv's session machinery,
so that no env is built outside the session limit: ``POST /reset`` runs one reset in a
session of its own (503 when every session is taken), ``POST /step`` answers 409 (an HTTP
call has no episode: episodes need the WebSocket session, i.e. ``PhoneEnvClient``),
``GET /state`` and ``GET /metadata`` build no env. OpenEnv's ``/mcp`` routes are not served
(phone envs have no MCP tools, and an HTTP MCP session would hold a slot with no socket).

No web page can drive the server (``phone_gym.serving``, ``openenv_asgi``): each request's
Host and Origin are checked, a per-launch token is asked for (``?token=`` in the printed URL,
``Authorization: Bearer``, or a cookie; ``require_token=False`` drops it), POSTs must be
JSON, a session idle for ``idle_timeout_s`` is closed, and a request still arriving after
``request_timeout_s`` is dropped. The client ``PhoneEnvClient`` drives OpenEnv's
``EnvClient`` (the ``/ws`` session, sending the token) and returns what the in-process env
returns: for a server on this machine in the caller's thread (``openenv_socket``'s
``BlockingWebSocket``: no event loop, no thread hop), for any other through OpenEnv's
``SyncEnvClient`` and its event loop thread (proxies as websockets' asyncio client has them).

The wire format (``PhoneEnvAction``, ``PhoneEnvObservation``, ``PhoneEnvState``):

- an action is ``{"text": "click(x=500, y=300)"}`` (the literal-only grammar of
  ``phone_gym.actions.parse_action``), the structured fields
  ``{"action": "click", "x": 500, "y": 300}`` (``action_from_dict``; ``value`` holds the
  text of ``type``/``answer``), or ``{"fields": {...}}``: any action dict, given to
  ``env.step`` as is (what ``PhoneEnvClient.step`` sends for a dict). A bad action is the
  env's ``action_error`` and a step, as in-process; only a message that is not an action
  message at all (an unknown field, two forms at once) is OpenEnv's validation error.
- an observation holds the screenshot as PNG in base64 (lossless) by default, the
  instruction, the
  UI listing when the env has ``ui_in_obs``, the step, the last ``action_error``,
  ``terminated``/``truncated`` and the agent-facing ``info`` (``envs.contract``'s
  ``STEP_KEYS``, ``END_KEYS`` once the episode ended, RealPhone's device keys); OpenEnv's
  own ``reward`` and ``done`` (``terminated or truncated``) are set too. The server makes
  its envs with ``privileged_info=False``: the task's params never leave it.
- binary frames, when the client asks (``PhoneEnvClient(frame_format=...)``, the reset
  option ``frame_format``: ``FRAME_FORMATS``, raw RGB bytes or PNG, JPEG or WebP): OpenEnv's
  ``/ws`` messages are JSON text only, so the observation names its frame (``frame_id``,
  and ``frame``: format, width, height) and the frame follows it as one binary WebSocket
  message (``openenv_asgi.post_frame``), with no base64 and, for ``raw``, no encoding at
  all: a ``raw`` frame after the first of an episode holds only the rows that changed
  since the one before, run after run (``frame``'s ``runs``: ``[[top, rows], ...]``,
  ``changed_runs``), which the client patches into the frame it has. The HTTP ``/reset``
  has no such message: it refuses ``frame_format``. A client on the server's machine may
  ask for ``shm`` instead: raw frames in a shared-memory file the server names in
  ``frame``'s ``path`` (``SharedFrame``: its user's only, unlinked once the client has it
  open) and writes each frame into, so no frame crosses the socket. A binary-frame or
  ``shm`` session also sends ``info["ui_elements"]`` compactly: its rows
  (``{"fields": UI_FIELDS, "rows": [[value, ...], ...]}``), ``{"same": true}`` when
  they are the ones sent last, or ``{"edit": [...]}``, the rows sent last that stay in
  place as their positions and the others as rows; ``PhoneEnvClient`` returns the env's
  ``UIElementList``.

PhoneWorld-v0 sessions are stepped on the server's event loop (OpenEnv awaits an env's own
``reset_async``/``step_async``): a step is a millisecond of CPU with no I/O, so a hop to the
session's thread and back would cost more than it frees. RealPhone-v0 keeps the thread.
"""

from __future__ import annotations

import asyncio
import base64
import inspect
import io
import threading
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any
from urllib.parse import urlsplit

import numpy as np

try:
    from openenv.core.client_types import StepResult
    from openenv.core.env_client import EnvClient
    from openenv.core.env_server.interfaces import Environment
    from openenv.core.env_server.types import (
        Action,
        EnvironmentMetadata,
        Observation,
        ResetRequest,
        ResetResponse,
        ServerMode,
        State,
    )
    from pydantic import model_validator

    from .openenv_asgi import (
        GuardMiddleware,
        deadline,
        deadline_protocol,
        post_frame,
        websocket_protocol,
    )
    from .openenv_socket import BlockingWebSocket
except ImportError as err:  # pragma: no cover - depends on the extra
    raise ImportError('phone_gym.integrations.openenv needs the openenv extra: '
                      'pip install "phone-gym[openenv]"') from err

from ..actions import PhoneAction, format_action
from ..envs.contract import PRIVILEGED_KEYS
from ..envs.infos import UI_FIELDS, Row, UIElementList, row_dict
from ..serving import AccessPolicy, new_token, served_url, split_token

__all__ = ["ENV_IDS", "FRAME_FORMATS", "IDLE_TIMEOUT_S", "REQUEST_TIMEOUT_S", "SHARED",
           "PhoneEnvAction", "PhoneEnvClient", "PhoneEnvObservation", "PhoneEnvState",
           "PhoneEnvironment", "SharedFrame", "changed_runs", "create_server_app",
           "decode_frame", "decode_png", "encode_frame", "encode_png", "open_shared", "serve",
           "server_config"]

#: The env ids a server may serve.
ENV_IDS: tuple[str, ...] = ("PhoneWorld-v0", "RealPhone-v0")
#: The frame formats a client may ask for (``frame_format``): raw RGB rows (``H x W x 3``
#: bytes), PNG (lossless), JPEG and WebP (lossy, quality ``LOSSY_QUALITY``).
FRAME_FORMATS: tuple[str, ...] = ("raw", "png", "jpeg", "webp")
#: The frame format of a client on the server's machine: raw frames in shared memory
#: (``SharedFrame``), with no frame message at all.
SHARED = "shm"
#: How a shared frame's file is named (``SHM_PREFIX`` + random): the client maps no other.
SHM_PREFIX = "phone-gym-frame-"
LOSSY_QUALITY = 90
#: Seconds a WebSocket session may wait for its client before it is closed (``--idle-timeout``).
IDLE_TIMEOUT_S = 300.0
#: Seconds a request's headers and body may take to arrive.
REQUEST_TIMEOUT_S = 30.0
#: What an HTTP ``/step`` answers (409): HTTP calls have no episode.
STEP_NEEDS_SESSION = ("HTTP /step has no episode to step: each HTTP call is on its own, so an "
                      "episode needs the WebSocket session (/ws), e.g. "
                      "phone_gym.integrations.openenv.PhoneEnvClient(URL) with the URL the "
                      "server printed")
#: Keyword arguments a server never lets through to its envs (the info policy is the
#: server's, not the client's).
_SERVER_ONLY = ("privileged_info", "render_mode")
#: Host names of this machine: a client reaches them without a proxy.
_LOOPBACK = ("localhost", "127.0.0.1", "::1")


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

    screenshot_png: str | None = None  # PNG, base64 (no frame_format asked)
    frame_id: str | None = None  # the binary frame that follows this message
    frame: dict[str, Any] | None = None  # its format, width and height
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


def encode_frame(image: np.ndarray, frame_format: str) -> bytes:
    """An ``H x W x 3`` uint8 image as ``frame_format`` (``FRAME_FORMATS``) bytes."""
    pixels = np.ascontiguousarray(image, dtype=np.uint8)
    if frame_format == "raw":
        return pixels.tobytes()
    from PIL import Image

    options: dict[str, Any] = {"png": {"compress_level": 1},
                               "jpeg": {"quality": LOSSY_QUALITY},
                               "webp": {"quality": LOSSY_QUALITY}}.get(frame_format, {})
    if frame_format not in FRAME_FORMATS:
        raise ValueError(f"frame_format={frame_format!r}; accepted: {', '.join(FRAME_FORMATS)}")
    buf = io.BytesIO()
    Image.fromarray(pixels).save(buf, format=frame_format.upper(), **options)
    return buf.getvalue()


#: Unchanged rows between two changed ones that are sent all the same (one run, not two).
RUN_GAP = 8


def changed_runs(before: np.ndarray | None, after: np.ndarray,
                 gap: int = RUN_GAP) -> list[tuple[int, int]]:
    """``[(top, rows), ...]``: the runs of rows of ``after`` that differ from ``before``, top
    to bottom, runs fewer than ``gap`` unchanged rows apart joined (every row, one run, when
    there is no ``before`` of the same shape; none when nothing changed)."""
    if before is None or before.shape != after.shape:
        return [(0, int(after.shape[0]))]
    a = after.reshape(after.shape[0], -1)
    b = before.reshape(before.shape[0], -1)
    if a.shape[1] % 4 == 0 and a.flags.c_contiguous and b.flags.c_contiguous:
        a, b = a.view(np.uint32), b.view(np.uint32)  # a quarter of the comparisons
    differ = np.flatnonzero((a != b).any(axis=1))
    if differ.size == 0:
        return []
    cuts = np.flatnonzero(np.diff(differ) > gap)
    starts = np.concatenate(([differ[0]], differ[cuts + 1]))
    ends = np.concatenate((differ[cuts], [differ[-1]]))
    return [(int(t), int(e - t + 1)) for t, e in zip(starts, ends, strict=True)]


class SharedFrame:
    """An ``H x W x 3`` uint8 frame in a file of the machine's shared memory (``/dev/shm``
    where there is one, else the temporary directory), readable by its user only: the
    server writes each frame into it and the client, on the same machine, copies it out.
    The file is unlinked once the client has it open (``unlink``); both keep the mapping."""

    def __init__(self, shape: tuple[int, ...]) -> None:
        import mmap
        import os
        import tempfile

        directory = "/dev/shm" if os.path.isdir("/dev/shm") else None
        fd, self.path = tempfile.mkstemp(prefix=SHM_PREFIX, dir=directory)  # mode 0600
        try:
            os.ftruncate(fd, int(np.prod(shape)))
            self._map = mmap.mmap(fd, int(np.prod(shape)))
        finally:
            os.close(fd)
        self.pixels: np.ndarray = np.frombuffer(self._map, np.uint8).reshape(shape)
        self.linked = True

    def unlink(self) -> None:
        """Remove the file (the mappings stay): no file is left behind after a crash."""
        import os

        if self.linked:
            self.linked = False
            try:
                os.unlink(self.path)
            except FileNotFoundError:
                pass

    def close(self) -> None:
        """Unlink the file and drop the mapping, which a renderer that composes into it
        (``Renderer.adopt``) may still hold: it then goes with the last view of it."""
        self.unlink()
        del self.pixels
        try:
            self._map.close()
        except BufferError:
            pass


def open_shared(path: str, width: int, height: int) -> np.ndarray:
    """The ``height x width x 3`` frame a server shares at ``path`` (``SharedFrame``),
    mapped read-only; ``RuntimeError`` when this machine has no such file."""
    import mmap
    import os

    if not os.path.basename(path).startswith(SHM_PREFIX):
        raise RuntimeError(f"the server named {path!r} as a shared frame; accepted: a "
                           f"{SHM_PREFIX}* file")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        raise RuntimeError(f"frame_format='shm' needs the client on the server's machine "
                           f"(no {path}: {exc.strerror}); use frame_format='raw'") from None
    try:
        mapped = mmap.mmap(fd, width * height * 3, access=mmap.ACCESS_READ)
    except (OSError, ValueError) as exc:
        raise RuntimeError(f"the shared frame {path} is not {width} x {height}: {exc}"
                           ) from None
    finally:
        os.close(fd)
    return np.frombuffer(mapped, np.uint8).reshape(height, width, 3)


def decode_frame(data: bytes, frame: Mapping[str, Any]) -> np.ndarray:
    """The ``H x W x 3`` uint8 image of ``encode_frame``'s ``data``, as ``frame`` (the
    observation's: format, width, height) describes it; ``ValueError`` when they differ."""
    fmt, width, height = frame.get("format"), int(frame["width"]), int(frame["height"])
    if fmt == "raw":
        if len(data) != width * height * 3:
            raise ValueError(f"a raw frame of {width} x {height} has {width * height * 3} "
                             f"bytes, not {len(data)}")
        return np.frombuffer(data, np.uint8).reshape(height, width, 3).copy()
    if fmt not in FRAME_FORMATS:
        raise ValueError(f"frame format {fmt!r}; accepted: {', '.join(FRAME_FORMATS)}")
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        pixels = np.asarray(image.convert("RGB"), dtype=np.uint8).copy()
    if pixels.shape[:2] != (height, width):
        raise ValueError(f"the {fmt} frame is {pixels.shape[1]} x {pixels.shape[0]}, not "
                         f"{width} x {height}")
    return pixels


def _jsonable(value: Any) -> Any:
    """``value`` with numpy values, tuples and sequences (``UIElementList``) as JSON types."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, UIElementList):  # rows of plain values: no walk through each dict
        return [row_dict(row) for row in value.rows()]
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
        if hasattr(self.env.unwrapped, "lend_screenshot"):  # each observation is sent (copied)
            self.env.unwrapped.lend_screenshot = True  # before the next step: no copy of its own
        # the episode (``state`` makes the model when asked: not a validated field per step)
        self._episode_id: str | None = None
        self._steps = 0
        self._ended = False
        #: The binary frame format the client asked for at reset (None: base64 PNG).
        self.frame_format: str | None = None
        self._sent: np.ndarray | None = None  # the last raw frame sent (``changed_runs``)
        self._sent_rows: tuple[Row, ...] | None = None  # the last UI rows sent (``_ui_wire``)
        self._shared: SharedFrame | None = None  # the frame of a ``shm`` session

    def reset(self, seed: int | None = None, episode_id: str | None = None,
              task: str | None = None, frame_format: str | None = None,
              **options: Any) -> PhoneEnvObservation:
        """``env.reset(seed=seed, options={"task": task, **options})``; ``frame_format``
        (``FRAME_FORMATS``) sends this episode's frames as binary messages (``shm``: in
        shared memory)."""
        if frame_format is not None and frame_format not in (*FRAME_FORMATS, SHARED):
            raise ValueError(f"frame_format={frame_format!r}; accepted: "
                             f"{', '.join(FRAME_FORMATS)}, {SHARED}, or none for base64 PNG "
                             "in the JSON")
        self.frame_format = frame_format
        self._sent = self._sent_rows = None
        if frame_format != SHARED and self._shared is not None:
            self._shared.close()
            self._shared = None
        opts = dict(options)
        if task is not None:
            opts["task"] = task
        obs, info = self.env.reset(seed=seed, options=opts or None)
        self._episode_id, self._steps, self._ended = episode_id, 0, False
        return self._observation(obs, None, False, False, info)

    def step(self, action: PhoneEnvAction, timeout_s: float | None = None,
             **kwargs: Any) -> PhoneEnvObservation:
        """``env.step`` of the action; a bad action is the observation's ``action_error``.
        A step of an ended episode raises (OpenEnv answers an ``EXECUTION_ERROR``)."""
        if self._shared is not None:  # the client has it open: no file is left behind
            self._shared.unlink()
        obs, reward, terminated, truncated, info = self.env.step(action.to_env())
        self._steps += 1
        self._ended = bool(terminated or truncated)
        return self._observation(obs, float(reward), bool(terminated), bool(truncated), info)

    @property
    def state(self) -> PhoneEnvState:
        return PhoneEnvState(env_id=self.env_id, episode_id=self._episode_id,
                             step_count=self._steps, ended=self._ended)

    def close(self) -> None:
        if self._shared is not None:
            self._shared.close()
            self._shared = None
        self.env.close()

    def _share(self, shot: np.ndarray) -> None:
        """Have ``shot`` in the shared frame. The env's renderer (PhoneWorld's, whose
        screenshot is its image) composes into the shared frame in place
        (``Renderer.adopt``), so a screenshot is there already; else it is copied in, and
        the renderer adopts the frame for the steps after."""
        assert self._shared is not None
        pixels = self._shared.pixels
        if shot.__array_interface__["data"][0] == pixels.__array_interface__["data"][0]:
            return  # the renderer drew it there (same start, same shape: the same pixels)
        np.copyto(pixels, shot, casting="unsafe")
        env = self.env.unwrapped
        renderer = getattr(env, "renderer", None)
        if (renderer is not None and not getattr(env, "set_of_marks", True)
                and getattr(env, "lend_screenshot", False)
                and hasattr(renderer, "adopt") and shot.shape == pixels.shape):
            renderer.adopt(pixels)  # the screenshot is its current image, now there too

    def _ui_wire(self, elements: UIElementList) -> dict[str, Any]:
        """``info["ui_elements"]`` of a binary-frame session: ``{"same": true}`` when the
        elements are those sent last; ``{"edit": [...]}`` when some are: the position of
        each row that equals the one sent last at its place, else the row (an element's
        index is its position, so an unchanged one keeps its place); else their rows
        (``{"fields": UI_FIELDS, "rows": [[value, ...], ...]}``). ``PhoneEnvClient``
        turns each back into the same ``UIElementList``."""
        rows = elements.rows()
        last = self._sent_rows
        if rows is last or rows == last:
            return {"same": True}
        self._sent_rows = rows
        if last is not None:
            n = len(last)
            edit = [i if i < n and last[i] == row else row for i, row in enumerate(rows)]
            if any(x.__class__ is int for x in edit):
                return {"edit": edit}
        return {"fields": UI_FIELDS, "rows": rows}

    def _observation(self, obs: Mapping[str, Any], reward: float | None, terminated: bool,
                     truncated: bool, info: Mapping[str, Any]) -> PhoneEnvObservation:
        shot = obs.get("screenshot")
        compact = self.frame_format is not None
        agent_info = {k: self._ui_wire(v) if compact and k == "ui_elements"
                      and isinstance(v, UIElementList) else _jsonable(v)
                      for k, v in info.items() if k not in PRIVILEGED_KEYS}
        png = frame_id = frame = None
        if shot is not None and self.frame_format is None:
            png = encode_png(shot)
        elif shot is not None and self.frame_format == SHARED:
            if self._shared is None or self._shared.pixels.shape != shot.shape:
                if self._shared is not None:
                    self._shared.close()
                self._shared = SharedFrame(shot.shape)
            self._share(shot)
            frame = {"format": SHARED, "width": int(shot.shape[1]),
                     "height": int(shot.shape[0]), "path": self._shared.path}
        elif shot is not None and self.frame_format is not None:
            frame = {"format": self.frame_format, "width": int(shot.shape[1]),
                     "height": int(shot.shape[0])}
            if self.frame_format == "raw":
                shot = np.ascontiguousarray(shot, dtype=np.uint8)
                runs = changed_runs(self._sent, shot)
                data = b"".join([shot[top:top + rows].data for top, rows in runs])
                if self._sent is None or self._sent.shape != shot.shape:
                    self._sent = shot.copy()
                else:
                    for top, rows in runs:
                        self._sent[top:top + rows] = shot[top:top + rows]
                    frame["runs"] = runs
            else:
                data = encode_frame(shot, self.frame_format)
            frame_id = post_frame(data)
        error = info.get("action_error")
        return _ServedObservation.model_construct(
            screenshot_png=png, frame_id=frame_id, frame=frame,
            instruction=str(obs.get("instruction", "")), ui=obs.get("ui"),
            step=int(info.get("step", 0)), action_error=None if error is None else str(error),
            terminated=terminated, truncated=truncated, info=agent_info,
            reward=reward, done=terminated or truncated, metadata={})


class _ServedObservation(PhoneEnvObservation):
    """A ``PhoneEnvObservation`` the server made of values of the wire's types (built with
    ``model_construct``: no validation of what the server itself made), whose dump for
    OpenEnv's ``serialize_observation`` (``openenv.core.env_server.serialization``:
    ``model_dump(exclude={"reward", "done", "metadata"})``) is its fields as they are, not
    pydantic's walk through every UI row; any other dump is pydantic's."""

    def model_dump(self, **kwargs: Any) -> dict[str, Any]:  # type: ignore[override]
        if kwargs.keys() == {"exclude"} and kwargs["exclude"] == _SERIALIZE_EXCLUDES:
            values = self.__dict__
            return {name: values[name] for name in _WIRE_FIELDS}
        return super().model_dump(**kwargs)


#: What OpenEnv's ``serialize_observation`` leaves out of an observation's dump.
_SERIALIZE_EXCLUDES = {"reward", "done", "metadata"}
_WIRE_FIELDS = tuple(name for name in PhoneEnvObservation.model_fields
                     if name not in _SERIALIZE_EXCLUDES)


class _InlinePhoneEnvironment(PhoneEnvironment):
    """PhoneWorld-v0's ``PhoneEnvironment``, stepped on the server's event loop: OpenEnv's
    ``/ws`` awaits ``reset_async``/``step_async`` where an env overrides them (``HTTPEnvServer``'s
    ``websocket_endpoint``), and a PhoneWorld step is a millisecond of CPU with no I/O, so
    it skips the hop to the session's thread and back (RealPhone-v0, which waits on the
    phone, keeps its thread)."""

    async def reset_async(self, seed: int | None = None, episode_id: str | None = None,
                          **kwargs: Any) -> PhoneEnvObservation:
        return self.reset(seed=seed, episode_id=episode_id, **kwargs)

    async def step_async(self, action: PhoneEnvAction, timeout_s: float | None = None,
                         **kwargs: Any) -> PhoneEnvObservation:
        return self.step(action, timeout_s=timeout_s, **kwargs)


def create_server_app(env_id: str = "PhoneWorld-v0", max_sessions: int | None = None, *,
                      token: str | None = None, require_token: bool = True,
                      allow_origins: Sequence[str] = (), server_host: str | None = None,
                      idle_timeout_s: float | None = IDLE_TIMEOUT_S, **env_kwargs: Any) -> Any:
    """The FastAPI app serving ``env_id`` on OpenEnv's protocol (one env per WebSocket
    session; at most ``max_sessions`` at once: 8 for PhoneWorld, 1 for RealPhone, whose
    phone is one), behind the guard (module docstring).

    ``token``: the token clients send (default: a fresh one; ``app.state.token`` holds it,
    None with ``require_token=False``). ``allow_origins`` widens the origins a browser page
    may call from; ``server_host`` is the address served (its name is accepted in Host and
    Origin). ``idle_timeout_s``: a session whose client sends nothing that long is closed
    (None: never). The rest goes to ``gym.make(env_id, ...)``."""
    if env_id not in ENV_IDS:
        raise ValueError(f"env_id={env_id!r}; accepted: {', '.join(ENV_IDS)}")
    if max_sessions is None:
        max_sessions = 1 if env_id == "RealPhone-v0" else 8
    if not isinstance(max_sessions, int) or isinstance(max_sessions, bool) or max_sessions < 1:
        raise ValueError(f"max_sessions={max_sessions!r}; accepted: a positive int")
    if idle_timeout_s is not None and not (isinstance(idle_timeout_s, (int, float))
                                           and idle_timeout_s > 0):
        raise ValueError(f"idle_timeout_s={idle_timeout_s!r}; accepted: seconds > 0, or None")
    if token is not None and not require_token:
        raise ValueError("token given with require_token=False: pass one or the other")
    if env_kwargs.get("privileged_info"):
        raise ValueError("privileged_info=True: accepted: False; a server sends the agent-"
                         "facing info only (the task's params never leave it)")
    if env_kwargs.get("task") is not None:  # a bad id fails now, not at the first client
        from ..envs import select_templates

        select_templates(env_kwargs["task"])
    chosen = (new_token() if token is None else token) if require_token else None
    policy = AccessPolicy(chosen, allow_origins, server_host)  # ValueError: a bad one
    kind = _InlinePhoneEnvironment if env_id == "PhoneWorld-v0" else PhoneEnvironment
    app = _openenv_app(env_id, partial(kind, env_id, env_kwargs), max_sessions)
    app.add_middleware(GuardMiddleware, policy=policy, idle_timeout_s=idle_timeout_s)
    app.state.token = policy.token
    app.state.policy = policy
    app.state.idle_timeout_s = idle_timeout_s
    return app


def _openenv_app(env_id: str, factory: Any, max_sessions: int) -> Any:
    """OpenEnv's ``HTTPEnvServer`` routes (``/ws``, ``/health``, ``/schema``) and phone-gym's
    HTTP calls, which use the same sessions (module docstring)."""
    from fastapi import Body, FastAPI, HTTPException
    from fastapi.responses import JSONResponse
    from openenv.core.env_server.exceptions import (
        EnvironmentFactoryError,
        SessionCapacityError,
    )
    from openenv.core.env_server.http_server import HTTPEnvServer
    from openenv.core.env_server.serialization import serialize_observation

    app = FastAPI(title=f"phone-gym {env_id} on OpenEnv")
    server = HTTPEnvServer(factory, PhoneEnvAction, PhoneEnvObservation,
                           max_concurrent_envs=max_sessions)
    server.register_routes(app, mode=ServerMode.PRODUCTION)  # no HTTP reset/step/state
    app.router.routes[:] = [r for r in app.router.routes
                            if getattr(r, "path", None) not in ("/mcp", "/metadata")]

    @app.post("/reset", response_model=ResetResponse, tags=["Environment Control"])
    async def reset(request: ResetRequest = Body(default_factory=ResetRequest)  # noqa: B008
                    ) -> Any:
        """One reset in a session of its own (a task's first observation), closed after."""
        try:  # OpenEnv's own session, counted against max_sessions like a WebSocket's
            session_id, env = await server._create_session()
        except SessionCapacityError as exc:
            raise HTTPException(503, f"{exc} Close a session or retry later.") from None
        except EnvironmentFactoryError as exc:
            raise HTTPException(503, f"the env could not be made: {exc.__cause__ or exc}"
                                ) from None
        try:
            asked = request.model_dump(exclude_unset=True)
            if asked.get("frame_format") is not None:
                raise ValueError("frame_format: binary frames follow their observation on the "
                                 "WebSocket session (/ws); an HTTP reset sends base64 PNG")
            kwargs = server._get_valid_kwargs(inspect.signature(env.reset), asked)
            observation = await server._run_in_session_executor(session_id, env.reset,
                                                                **kwargs)
        except ValueError as exc:  # a bad task id or option
            raise HTTPException(400, str(exc)) from None
        finally:
            await server._destroy_session(session_id)
        return ResetResponse(**serialize_observation(observation))

    @app.post("/step", status_code=409, tags=["Environment Control"])
    async def step() -> Any:
        """Always 409: an episode needs a session (module docstring)."""
        return JSONResponse({"detail": STEP_NEEDS_SESSION}, status_code=409)

    @app.get("/state", tags=["State Management"])
    async def state() -> Any:
        """A fresh state, as OpenEnv's HTTP ``/state`` answers, without building an env."""
        return PhoneEnvState(env_id=env_id).model_dump()

    @app.get("/metadata", tags=["Environment Info"])
    async def metadata() -> Any:
        return EnvironmentMetadata(
            name=env_id, description=f"phone-gym's {env_id}: one env per WebSocket session "
            f"(at most {max_sessions}); the client is phone_gym.integrations.openenv."
            "PhoneEnvClient").model_dump()

    return app


def server_config(app: Any, request_timeout_s: float = REQUEST_TIMEOUT_S,
                  **kwargs: Any) -> Any:
    """``uvicorn.Config`` for ``app``: big WebSocket messages (screenshots) and the h11
    protocol with a request deadline (``openenv_asgi.deadline_protocol``), the WebSocket
    protocol reading on while messages queue (``openenv_asgi.websocket_protocol``); ``kwargs``
    (``host``, ``port``, ...) go to ``uvicorn.Config``. A keepalive ping waits for its pong
    as long as the session may idle (``app``'s ``idle_timeout_s``), not uvicorn's 20 s: a
    client that does its I/O in the caller's thread (``BlockingWebSocket``) answers pings
    when the caller next steps, which may be after a long think."""
    import uvicorn

    idle = getattr(app.state, "idle_timeout_s", IDLE_TIMEOUT_S)
    options: dict[str, Any] = {"log_level": "warning", "ws_max_size": 100 * 2**20,
                               "timeout_keep_alive": 5, "ws_ping_timeout": idle, **kwargs}
    options.setdefault("ws", websocket_protocol())
    return uvicorn.Config(app, http=deadline_protocol(request_timeout_s), **options)


def serve(env_id: str = "PhoneWorld-v0", host: str = "127.0.0.1", port: int = 8000,
          max_sessions: int | None = None, announce: bool = False, *,
          require_token: bool = True, allow_origins: Sequence[str] = (),
          idle_timeout_s: float | None = IDLE_TIMEOUT_S,
          request_timeout_s: float = REQUEST_TIMEOUT_S, **env_kwargs: Any) -> None:
    """Run the server (uvicorn) until interrupted; ``announce`` prints its URL, with the
    token, as Jupyter does."""
    import socket

    import uvicorn

    app = create_server_app(env_id, max_sessions=max_sessions, require_token=require_token,
                            allow_origins=allow_origins, server_host=host,
                            idle_timeout_s=idle_timeout_s, **env_kwargs)
    config = server_config(app, request_timeout_s)
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as exc:
        sock.close()
        raise OSError(f"cannot listen on {host}:{port} ({exc.strerror or exc}): pass another "
                      "--port") from None
    if announce:
        url = served_url(host, port, app.state.token)
        print(f"OpenEnv server for {env_id} at {url}\n  client: PhoneEnvClient({url!r}) "
              "(WebSocket /ws). Ctrl-C stops it.", flush=True)
    uvicorn.Server(config).run(sockets=[sock])


# --- client ------------------------------------------------------------------------------
class _PhoneEnvWire(EnvClient[PhoneEnvAction, PhoneEnvObservation, PhoneEnvState]):
    """OpenEnv's ``EnvClient`` for the phone's wire types, sending the server's token."""

    _ws: Any  # EnvClient's open connection, None before connect

    def __init__(self, base_url: str, token: str | None, **kwargs: Any) -> None:
        super().__init__(base_url, **kwargs)
        self._token = token
        #: The binary frame of the last observation that named one: (frame_id, bytes).
        self.frame: tuple[str, bytes] | None = None
        #: Whether the session asks for binary frames: then without per-message deflate
        #: (RFC 7692), which costs more CPU than a raw frame's transfer saves.
        self.binary = False
        #: Whether the caller's thread does the I/O (``BlockingWebSocket``, a loopback
        #: server) rather than OpenEnv's ``SyncEnvClient`` loop thread (any other, through
        #: the proxy the environment names, as websockets' asyncio client does).
        self.blocking = urlsplit(self._ws_url).hostname in _LOOPBACK

    async def _receive(self) -> dict[str, Any]:
        """``EnvClient._receive``, then the binary frame an observation names (``frame_id``:
        the next message)."""
        import json

        assert self._ws is not None
        if self.blocking:  # the caller's thread reads the socket: no loop, no thread
            message: dict[str, Any] = json.loads(self._ws.recv(self._message_timeout))
            if self._names_frame(message):
                frame = self._ws.recv(self._message_timeout)
                self._keep_frame(message, frame)
            return message
        async with deadline(self._message_timeout):
            message = json.loads(await self._ws.recv())
            if self._names_frame(message):
                self._keep_frame(message, await self._ws.recv())
        return message

    @staticmethod
    def _names_frame(message: Mapping[str, Any]) -> bool:
        """Whether ``message`` is an observation that a binary frame follows."""
        data = message.get("data")
        observation = data.get("observation") if isinstance(data, dict) else None
        return isinstance(observation, dict) and bool(observation.get("frame_id"))

    def _keep_frame(self, message: Mapping[str, Any], frame: str | bytes) -> None:
        frame_id = message["data"]["observation"]["frame_id"]
        if not isinstance(frame, bytes):
            raise RuntimeError(f"the OpenEnv server sent no binary frame after the "
                               f"observation naming {frame_id}")
        self.frame = (frame_id, frame)

    async def _send(self, message: dict[str, Any]) -> None:
        """``EnvClient._send``; in the caller's thread on a ``BlockingWebSocket``."""
        if not self.blocking:
            return await super()._send(message)
        import json

        await self._ensure_connected()
        self._ws.send(json.dumps(message))
        return None

    async def disconnect(self) -> None:
        """``EnvClient.disconnect``: the ``close`` message, then the socket, which OpenEnv's
        server closes first (a ``BlockingWebSocket`` waits for it)."""
        if not self.blocking or self._ws is None:
            return await super().disconnect()
        ws, self._ws = self._ws, None
        try:
            ws.send('{"type": "close"}')
        except Exception:  # noqa: BLE001 - best effort, as EnvClient's
            pass
        ws.close()
        return None

    async def connect(self) -> _PhoneEnvWire:
        """``EnvClient.connect`` with ``Authorization: Bearer TOKEN`` (and no proxy for a
        loopback server, as OpenEnv's); a refused handshake names the server's reason."""
        if self._ws is not None:
            return self
        from websockets.asyncio.client import connect as ws_connect
        from websockets.exceptions import InvalidStatus

        headers = {"Authorization": f"Bearer {self._token}"} if self._token else None
        loopback = urlsplit(self._ws_url).hostname in _LOOPBACK
        try:
            if self.blocking:
                self._ws = BlockingWebSocket(self._ws_url, open_timeout=self._connect_timeout,
                                             max_size=self._max_message_size,
                                             headers=headers, compression=not self.binary)
                return self
            self._ws = await ws_connect(self._ws_url, open_timeout=self._connect_timeout,
                                        max_size=self._max_message_size,
                                        additional_headers=headers,
                                        proxy=None if loopback else True,
                                        compression=None if self.binary else "deflate")
        except InvalidStatus as exc:
            body = exc.response.body or b""
            raise ConnectionError(f"the OpenEnv server at {self._ws_url} refused the session "
                                  f"(HTTP {exc.response.status_code}): "
                                  f"{body.decode('utf-8', 'replace').strip()}") from None
        except Exception as exc:
            raise ConnectionError(f"Failed to connect to {self._ws_url}: {exc}") from exc
        return self

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
        if action.__pydantic_fields_set__ == _TEXT_ONLY and action.text is not None:
            return {"text": action.text}  # the dump below, without its walk of every field
        return action.model_dump(exclude_none=True, exclude={"metadata"})

    def _parse_result(self, payload: dict[str, Any]) -> StepResult[PhoneEnvObservation]:
        obs = PhoneEnvObservation(**payload.get("observation", {}),
                                  reward=payload.get("reward"), done=payload.get("done", False))
        return StepResult(observation=obs, reward=payload.get("reward"),
                          done=bool(payload.get("done", False)))

    def _parse_state(self, payload: dict[str, Any]) -> PhoneEnvState:
        return PhoneEnvState(**payload)


_TEXT_ONLY = frozenset({"text"})


class PhoneEnvClient:
    """A phone-gym env on an OpenEnv server, with the Gymnasium interface:

    ``reset(task=None, seed=None, **options) -> (obs, info)`` and
    ``step(action) -> (obs, reward, terminated, truncated, info)``, where ``obs`` is
    ``{"instruction": str, "screenshot": H x W x 3 uint8 array, ["ui": str]}`` and ``info``
    the agent-facing info (``ui_elements`` as a sequence of dicts), as the in-process env
    returns them. ``action`` is an action string, an action dict or a ``PhoneAction`` (or a
    ``PhoneEnvAction``, e.g. the structured fields).
    ``frame_format`` (``FRAME_FORMATS``) asks for the screenshots as binary WebSocket
    messages (raw RGB, or PNG/JPEG/WebP) instead of base64 PNG in the JSON (None), or, on
    the server's machine, ``"shm"``: raw frames in shared memory (``SharedFrame``).
    One client is one WebSocket session, so one episode at a time; ``close()`` ends it
    (also a context manager). ``token`` is the server's (or give the URL it printed, which
    holds ``?token=``). Server errors (a step after the episode ended, a full server, a
    session closed after idling) raise ``RuntimeError``; a refused connection (no or a wrong
    token) ``ConnectionError``."""

    def __init__(self, base_url: str, connect_timeout_s: float = 10.0,
                 message_timeout_s: float = 120.0, token: str | None = None,
                 frame_format: str | None = None) -> None:
        if frame_format is not None and frame_format not in (*FRAME_FORMATS, SHARED):
            raise ValueError(f"frame_format={frame_format!r}; accepted: "
                             f"{', '.join(FRAME_FORMATS)}, {SHARED} (on the server's "
                             "machine), or None for base64 PNG")
        self.frame_format = frame_format
        if not isinstance(base_url, str) or not base_url.startswith(
                ("http://", "https://", "ws://", "wss://")):
            raise ValueError(f"base_url={base_url!r}; accepted: http(s):// or ws(s):// URL")
        base, url_token = split_token(base_url)
        if token is not None and url_token is not None and token != url_token:
            raise ValueError("token= differs from the URL's ?token=: give one of them")
        self.base_url = base.rstrip("/")
        self.token = token if token is not None else url_token
        self._wire = _PhoneEnvWire(self.base_url, self.token,
                                   connect_timeout_s=connect_timeout_s,
                                   message_timeout_s=message_timeout_s)
        self._wire.binary = frame_format is not None
        self._last: np.ndarray | None = None  # the last raw frame (bands patch it)
        self._ui: tuple[tuple[str, ...], _WireRows] | None = None  # the last UI rows
        self._shared: tuple[str, np.ndarray] | None = None  # the server's shared frame
        self._client = self._wire.sync()
        self._lock = threading.Lock()

    def reset(self, task: str | None = None, seed: int | None = None,
              **options: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        data: dict[str, Any] = dict(_jsonable(options))
        if task is not None:
            data["task"] = task
        if seed is not None:
            data["seed"] = int(seed)
        if self.frame_format is not None:
            data["frame_format"] = self.frame_format
        with self._lock:
            self._ui = None
            result = self._call("reset", **data)
        obs, _, _, _, info = self._unpack(result.observation)
        return obs, info

    def step(self, action: PhoneEnvAction | PhoneAction | str | Mapping[str, Any]
             ) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        wire = PhoneEnvAction.from_any(action)
        with self._lock:
            result = self._call("step", wire)
        return self._unpack(result.observation)

    def state(self) -> PhoneEnvState:
        """The session's ``PhoneEnvState`` (OpenEnv's ``state`` message)."""
        with self._lock:
            return self._call("state")  # type: ignore[no-any-return]

    def close(self) -> None:
        with self._lock:
            self._shared = None
            try:
                self._call("close")
            except (RuntimeError, asyncio.CancelledError):
                pass

    def __enter__(self) -> PhoneEnvClient:
        return self

    def _call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        """``EnvClient``'s call ``name``: run in this thread where the wire blocks (its
        awaits never suspend), else on ``SyncEnvClient``'s loop thread."""
        if not self._wire.blocking:
            return getattr(self._client, name)(*args, **kwargs)
        coro = getattr(self._wire, name)(*args, **kwargs)
        try:
            coro.send(None)
        except StopIteration as done:
            return done.value
        coro.close()
        raise RuntimeError(f"EnvClient.{name} waited on an event loop over a blocking socket")

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _unpack(self, o: PhoneEnvObservation) -> tuple[dict[str, Any], float, bool, bool,
                                                      dict[str, Any]]:
        obs: dict[str, Any] = {"instruction": o.instruction}
        if o.screenshot_png is not None:
            obs["screenshot"] = decode_png(o.screenshot_png)
        elif o.frame is not None and o.frame.get("format") == SHARED:
            obs["screenshot"] = self._shared_frame(o.frame)
        elif o.frame_id is not None and o.frame is not None:
            got = self._wire.frame
            if got is None or got[0] != o.frame_id:
                raise RuntimeError(f"the binary frame {o.frame_id} did not arrive")
            self._wire.frame = None
            if "runs" in o.frame:  # runs of rows to patch into the last raw frame
                obs["screenshot"] = self._patch(o.frame, got[1])
            else:
                obs["screenshot"] = decode_frame(got[1], o.frame)
                self._last = obs["screenshot"].copy() if o.frame["format"] == "raw" else None
        if o.ui is not None:
            obs["ui"] = o.ui
        info = dict(o.info)
        wire = info.get("ui_elements")
        if self.frame_format is not None and isinstance(wire, dict):
            info["ui_elements"] = self._ui_elements(wire)
        return obs, float(o.reward or 0.0), o.terminated, o.truncated, info

    def _shared_frame(self, frame: Mapping[str, Any]) -> np.ndarray:
        """A copy of the frame the server shares (``SharedFrame``), mapped once."""
        path, width, height = str(frame["path"]), int(frame["width"]), int(frame["height"])
        if (self._shared is None or self._shared[0] != path
                or self._shared[1].shape != (height, width, 3)):
            self._shared = None
            self._shared = (path, open_shared(path, width, height))
        return self._shared[1].copy()

    def _patch(self, frame: Mapping[str, Any], data: bytes) -> np.ndarray:
        """The last raw frame with ``frame["runs"]`` of rows (``data``, top to bottom)
        patched in: the new frame (a copy; the client keeps its own)."""
        base = self._last
        if base is None or base.shape[:2] != (frame["height"], frame["width"]):
            raise RuntimeError("rows of a raw frame arrived with no whole frame before them")
        runs = [(int(top), int(rows)) for top, rows in frame["runs"]]
        row_bytes = base.shape[1] * 3
        if (len(data) != sum(rows for _, rows in runs) * row_bytes
                or any(top < 0 or rows < 0 or top + rows > base.shape[0] for top, rows in runs)):
            raise RuntimeError(f"rows {runs} with {len(data)} bytes do not fit a "
                               f"{base.shape[1]} x {base.shape[0]} frame")
        pixels = np.frombuffer(data, np.uint8)
        at = 0
        for top, rows in runs:
            base[top:top + rows] = pixels[at:at + rows * row_bytes].reshape(rows, -1, 3)
            at += rows * row_bytes
        return base.copy()

    def _ui_elements(self, wire: Mapping[str, Any]) -> Sequence[dict[str, Any]]:
        """``info["ui_elements"]`` from a binary-frame session's rows (or the last ones,
        ``{"same": true}``, or the last ones edited, ``{"edit": [...]}``): the
        ``UIElementList`` the env made (dicts by field name from a server whose
        ``UI_FIELDS`` differ)."""
        if wire.get("same") or "edit" in wire:
            if self._ui is None:
                raise RuntimeError("the server said the UI elements were unchanged or edited "
                                   "before it sent any")
            if "edit" in wire:
                fields, last = self._ui
                self._ui = (fields, last.edited(wire["edit"]))
        else:
            self._ui = (tuple(wire["fields"]), _WireRows(wire["rows"]))
        fields, rows = self._ui
        if fields == UI_FIELDS:  # built on first access, as in-process
            return _WireUIElementList(rows)
        return [{name: list(v) if isinstance(v, tuple) else v
                 for name, v in zip(fields, row, strict=True)} for row in rows.rows()]


class _WireRows:
    """The UI rows of one message as the JSON has them (lists; a row kept from the message
    before may be a tuple already), made rows of tuples, as in-process, once and when
    first asked (by each step that shows them)."""

    __slots__ = ("_rows", "_wire")

    def __init__(self, wire: Sequence[Sequence[Any]]) -> None:
        self._wire: Sequence[Sequence[Any]] | None = wire
        self._rows: tuple[Row, ...] = ()

    def rows(self) -> tuple[Row, ...]:
        if self._wire is not None:
            self._rows = tuple([  # lists: faster than generators
                row if row.__class__ is tuple
                else tuple([tuple(v) if v.__class__ is list else v for v in row])
                for row in self._wire])
            self._wire = None
        return self._rows

    def edited(self, edit: Sequence[Any]) -> _WireRows:
        """The rows of an ``edit`` of these (``PhoneEnvironment._ui_wire``): each entry is
        the position of a row of these, kept, or a new row."""
        rows = self._wire if self._wire is not None else self._rows
        try:
            return _WireRows([rows[x] if x.__class__ is int else x for x in edit])
        except IndexError:
            raise RuntimeError(f"the server's UI rows edit {list(edit)!r} names a row it did "
                               f"not send ({len(rows)} sent)") from None


class _WireUIElementList(UIElementList):
    """A ``UIElementList`` of a message's rows, which are read only when the list is."""

    def __init__(self, rows: _WireRows) -> None:
        super().__init__(rows=())
        self._wire_rows: _WireRows | None = rows
        self._rows = None

    def rows(self) -> tuple[Row, ...]:
        if self._wire_rows is not None:
            self._rows, self._wire_rows = self._wire_rows.rows(), None
        assert self._rows is not None
        return self._rows
