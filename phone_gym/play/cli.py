"""What ``phone-gym play`` plays: ``PlaySessions`` (one ``PlaySession`` per browser tab) on
PhoneWorld (a task, a suite or any task) or, with ``real``, on RealPhone-v0 over adb (a phone
or ``phone-gym virtual-device``), built the way ``phone-gym demo`` builds its env.
``phone_gym.cli`` adds the command."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .session import EpisodePlan, PlaySession
from .sessions import IDLE_TIMEOUT_S, MAX_SESSIONS, PlaySessions

REAL_ENV = "RealPhone-v0"
DEFAULT_REAL_TASK = "SettingsWifiOff"


def make_sessions(*, max_sessions: int | None = None, idle_timeout_s: float = IDLE_TIMEOUT_S,
                  real: bool = False, **options: Any) -> PlaySessions:
    """The sessions ``phone-gym play`` serves, one per tab: at most ``max_sessions`` (8;
    1 with ``real``: a phone is one), each closed after ``idle_timeout_s`` unused;
    ``options`` as ``make_session``'s."""
    make_env, out, plan, source = _parts(real=real, **options)
    if max_sessions is None:
        max_sessions = 1 if real else MAX_SESSIONS
    return PlaySessions(make_env, out, plan, source, max_sessions=max_sessions,
                        idle_timeout_s=idle_timeout_s)


def make_session(**options: Any) -> PlaySession:
    """One session (no server: scripts, tests), with ``make_sessions``'s options."""
    return PlaySession(*_parts(**options))


def _parts(*, task: str | None = None, suite: str | None = None, seed: int = 0,
           out: str | Path = "out/play", size: Sequence[int] = (540, 1200),
           real: bool = False, host: str = "127.0.0.1", port: int = 5037,
           serial: str | None = None, settle: float = 0.5
           ) -> tuple[Callable[[str | None], Any], Path, EpisodePlan, str]:
    """``make_env``, the folder, the plan and the source a session is built from; bad
    choices raise ``ValueError`` naming what is accepted."""
    import gymnasium as gym

    import phone_gym  # noqa: F401 - registers the env ids

    if task and suite:
        raise ValueError("give --task or --suite, not both")
    env_id, env_kwargs = "PhoneWorld-v0", {}
    plan = EpisodePlan((task,) if task else (), seed)
    if suite:
        from ..bench.suites import resolve_suite

        resolved = resolve_suite(suite)  # ValueError naming the suites
        env_id, env_kwargs = resolved.env_id, dict(resolved.env_kwargs)
        plan = EpisodePlan(resolved.task_ids, seed, resolved.instances)
    if real:
        if env_id != "PhoneWorld-v0" and env_id != REAL_ENV:
            raise ValueError(f"--suite {suite} runs {env_id}; with --real use a task or a "
                             "suite of real-device templates (phone-gym tasks --real)")
        env_id = REAL_ENV
        if not plan.tasks and not plan.instances:
            plan = EpisodePlan((DEFAULT_REAL_TASK,), seed)
    if env_id == REAL_ENV:
        env_kwargs.update(host=host, port=port, serial=serial, settle=settle)
    else:
        from ..mockapps import TEMPLATES

        unknown = [t for t in plan.tasks if t not in TEMPLATES]
        if unknown:
            raise ValueError(f"unknown task {unknown[0]!r}; accepted: a template id "
                             "(phone-gym tasks lists them)")

    def make_env(episode_task: str | None) -> Any:
        kwargs = dict(env_kwargs, obs_size=tuple(size))
        if episode_task is not None:
            kwargs["task"] = episode_task
        return gym.make(env_id, **kwargs)

    source = "play-real" if env_id == REAL_ENV else "play"
    return make_env, Path(out), plan, source
