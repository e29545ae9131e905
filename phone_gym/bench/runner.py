"""``run_bench``: run an agent over a suite's templates x seeds, in worker processes, with
resume, a progress bar, a per-episode time limit, and the records of ``results``.

Each episode is ``env.reset(seed=seed, options={"task": id})`` on the suite's env id, then
agent steps until the env ends it or the step budget (the template's ``max_steps`` times
``max_steps_rule``, rounded up) runs out; then the final state is scored
(``end_episode``), as an env scores a truncated episode. An output the agent's parser
rejects is an invalid step: counted against the budget, recorded with its error, the phone
untouched (as the env's own no-op step for a bad action). More than ``invalid_limit``
invalid actions in a row end the episode ("invalid_actions"). The time limit is checked
before each step, and each agent call has a deadline (the nearer of the call timeout and
the time limit) that is enforced: a call still running then is abandoned ("time_limit").
Frames are PNGs under ``episodes/<task>_<seed>/``: ``step_000.png`` is the screen the first
action saw, the last one the final screen.

Workers are processes (``workers.WorkerPool``: ``multiprocessing`` spawn, each builds its
envs and agent; a worker that dies or overruns is killed, its episode recorded, and a new
one started), one worker too: only an agent object with ``workers=1`` runs in this process
(its calls in a thread, ``calls.ThreadCalls``), as a live object (a loaded model) cannot
be sent without pickling it. With ``executor="ray"`` workers are Ray tasks (one CPU each,
on the cluster ``ray.init`` joined, or a local one started for the run). The main process
alone writes ``results.jsonl``; a resumed run skips the (task, seed) pairs already there
(crashed ones too, unless ``retry_crashed``).
"""

from __future__ import annotations

import json
import math
import os
import pickle
import shutil
import time
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from PIL import Image

from ..actions import ActionError, PhoneAction, action_from_dict, to_action
from .agents import EndpointError, agent_call_s, describe_action, make_agent
from .calls import AgentCalls, AgentRaised, CallAbandoned, ThreadCalls, last_line
from .results import RUN, SUMMARY, ResultsWriter, read_results, summarize, write_json
from .suites import Suite, resolve_suite, template_meta
from .workers import Lost, WorkerPool

#: Default: more than this many invalid actions in a row end the episode.
INVALID_LIMIT = 3
#: The run folder's subfolder of the workers' progress files (removed at the end of a run).
WORKERS_DIR = ".workers"
#: Default: seconds one agent call (``bind``, ``reset``, ``act``) may take.
CALL_TIMEOUT_S = 600.0
T = TypeVar("T")


@dataclass(frozen=True)
class Job:
    """One episode to run (picklable: it crosses to worker processes)."""

    suite: str
    env_id: str
    task: str
    seed: int
    agent: Any
    agent_options: Mapping[str, Any]
    env_kwargs: Mapping[str, Any]
    budget: int
    time_limit_s: float | None
    frames_dir: str | None  #: absolute folder for the PNGs, None for no frames
    frames_rel: str | None
    invalid_limit: int = INVALID_LIMIT
    call_timeout_s: float | None = None  #: seconds one agent call may take (None: no limit)


_ENVS: dict[str, Any] = {}
_AGENTS: dict[str, Any] = {}


def _env_key(job: Job) -> str:
    return json.dumps([job.env_id, job.budget, dict(job.env_kwargs)], sort_keys=True,
                      default=str)


def _agent_key(job: Job) -> str:
    return json.dumps([job.agent, dict(job.agent_options)], sort_keys=True, default=str)


def _env(job: Job) -> Any:
    """This process's env for the job's env id and budget (built once)."""
    import gymnasium as gym

    import phone_gym  # noqa: F401 - registers the env ids in a fresh worker

    key = _env_key(job)
    if key not in _ENVS:
        _ENVS[key] = gym.make(job.env_id, max_steps=job.budget, **job.env_kwargs)
    return _ENVS[key]


def _agent(job: Job) -> Any:
    """The job's agent: built once per process from a string spec, else unpickled."""
    if not isinstance(job.agent, str):
        return make_agent(job.agent, job.agent_options)
    key = _agent_key(job)
    if key not in _AGENTS:
        _AGENTS[key] = make_agent(job.agent, job.agent_options)
    return _AGENTS[key]


def _forget(job: Job) -> None:
    """Drop the job's env and agent: an abandoned call may still hold them."""
    _ENVS.pop(_env_key(job), None)
    if isinstance(job.agent, str):
        _AGENTS.pop(_agent_key(job), None)


def _save(frame: Any, folder: Path | None, index: int) -> None:
    if folder is not None and frame is not None:
        Image.fromarray(frame).save(folder / f"step_{index:03d}.png", compress_level=1)


class _Overran(Exception):
    """An agent call returned after its deadline (its output is not used)."""


def _blank_record(job: Job) -> dict[str, Any]:
    """The record of ``job`` before it runs."""
    return {"suite": job.suite, "task": job.task, "seed": job.seed, **template_meta(job.task),
            "success": False, "reward": 0.0, "steps": 0, "max_steps": job.budget,
            "tokens_in": 0, "tokens_out": 0, "latency_s": 0.0, "time_s": 0.0,
            "failure": None, "failure_detail": None, "instruction": "", "verdict": "",
            "frames": None, "actions": []}


def _deadline(job: Job, limit_at: float | None) -> tuple[float | None, str]:
    """Seconds the next agent call may take (None: no limit), and that limit in words."""
    options: list[tuple[float, str]] = []
    if job.call_timeout_s is not None:
        options.append((job.call_timeout_s, f"the call timeout of {job.call_timeout_s:g} s"))
    if limit_at is not None:
        options.append((limit_at - time.monotonic(),
                        f"the time limit of {job.time_limit_s:g} s"))
    return min(options) if options else (None, "")


def run_episode(job: Job, calls: AgentCalls | None = None) -> dict[str, Any]:
    """Run one episode; its record (never raises for the agent's or the env's errors).

    Each agent call (``bind``, ``reset``, ``act``) goes through ``calls`` with a deadline:
    the nearer of ``job.call_timeout_s`` and the episode's time limit. A call that returns
    after it ends the episode as "time_limit" (its output unused; the phone scored); one
    that ``calls`` abandons (``CallAbandoned``; the default ``ThreadCalls`` abandons it at
    the deadline) ends it as "time_limit" unscored. A ``SystemExit`` or other
    ``BaseException`` of the agent is a "crash"."""
    own_calls = calls is None
    agent_calls = ThreadCalls() if calls is None else calls
    start = time.monotonic()
    limit_at = start + job.time_limit_s if job.time_limit_s is not None else None
    record = _blank_record(job)
    folder = Path(job.frames_dir) if job.frames_dir else None
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)  # a run cut short left a partial episode
        folder.mkdir(parents=True)
    actions: list[dict[str, Any]] = record["actions"]
    failure: str | None = None
    detail: str | None = None
    ended_by_agent = False
    env = None

    def agent_call(fn: Callable[[], T]) -> T:
        timeout_s, what = _deadline(job, limit_at)
        if timeout_s is not None and timeout_s <= 0:
            raise _Overran(what)
        called = time.monotonic()
        out = agent_calls.call(fn, timeout_s, what, record)
        if timeout_s is not None and time.monotonic() - called > timeout_s:
            raise _Overran(what)
        return out

    try:
        env = _env(job)
        agent = _agent(job)
        if hasattr(agent, "bind"):
            agent_call(partial(agent.bind, env, job.seed))
        obs, info = env.reset(seed=job.seed, options={"task": job.task})
        record["instruction"] = info["instruction"]
        agent_call(partial(agent.reset, info["instruction"], info))
        in_a_row, ended, steps, reward = 0, False, 0, 0.0
        while steps < job.budget and not ended:
            if limit_at is not None and time.monotonic() > limit_at:
                failure, detail = "time_limit", f"over {job.time_limit_s:g} s"
                break
            _save(obs.get("screenshot"), folder, steps)
            out, usage = agent_call(partial(agent.act, obs, info))
            steps += 1
            record["steps"] = steps
            record["tokens_in"] += int(usage.get("tokens_in") or 0)
            record["tokens_out"] += int(usage.get("tokens_out") or 0)
            record["latency_s"] += float(usage.get("latency_s") or 0.0)
            action, error = _parse(agent, out, obs, env)
            if action is not None:
                obs, reward, terminated, truncated, info = env.step(action)
                error = info["action_error"]
                ended = terminated or truncated
                ended_by_agent = terminated
            else:
                info = {**info, "step": steps, "action": None, "action_error": error}
            actions.append({"step": steps, "text": describe_action(out),
                            "action": action.to_dict() if action is not None else None,
                            "error": error})
            in_a_row = in_a_row + 1 if error else 0
            if in_a_row > job.invalid_limit:
                failure = "invalid_actions"
                detail = f"{in_a_row} invalid actions in a row; the last: {error}"
                break
        record["steps"] = steps
        if not ended:
            reward, end = env.unwrapped.end_episode()
            info = {**info, **end}
        record["reward"] = float(reward)
        record["success"] = bool(info["success"])
        record["verdict"] = str(info.get("verdict", ""))
        _save(obs.get("screenshot"), folder, steps)
    except CallAbandoned as exc:
        failure, detail = "time_limit", str(exc)
        record["verdict"] = "not scored: the episode was abandoned"
        _forget(job)
    except _Overran as exc:
        failure, detail = "time_limit", f"an agent call ran over {exc}"
        _score_anyway(env, record)
    except EndpointError as exc:
        failure, detail = "endpoint", str(exc)
        _score_anyway(env, record)
    except Exception as exc:  # noqa: BLE001 - a crash is a recorded failure, not the run's
        failure, detail = "crash", str(exc) if isinstance(exc, AgentRaised) else last_line(exc)
        _score_anyway(env, record)
    finally:
        if own_calls:
            agent_calls.close()
    if record["success"]:
        failure = detail = None
    elif failure is None:
        if actions and all(a["error"] for a in actions):
            failure, detail = "invalid_actions", f"every action was invalid: {actions[-1]['error']}"
        elif ended_by_agent:
            failure, detail = "wrong_answer", record["verdict"] or None
        else:
            failure, detail = "budget", f"{record['steps']} steps of {job.budget}"
    record["failure"], record["failure_detail"] = failure, detail
    return _finish(record, job, time.monotonic() - start)


def _finish(record: dict[str, Any], job: Job, elapsed_s: float) -> dict[str, Any]:
    """Round the timings and point at the frames, if any were saved."""
    folder = Path(job.frames_dir) if job.frames_dir else None
    if folder is not None and folder.is_dir() and any(folder.iterdir()):
        record["frames"] = job.frames_rel
    record["latency_s"] = round(record["latency_s"], 3)
    record["time_s"] = round(elapsed_s, 3)
    return record


def lost_record(job: Job, lost: Lost) -> dict[str, Any]:
    """The record of an episode its worker did not finish (it died, or was killed when a
    call overran): what the worker sent before, unscored."""
    record = _blank_record(job)
    record.update({k: v for k, v in lost.progress.items() if k in record})
    record["steps"] = len(record["actions"])
    record["failure"], record["failure_detail"] = lost.failure, lost.detail
    record["verdict"] = ("not scored: the worker process died" if lost.failure == "crash"
                         else "not scored: the episode was abandoned")
    return _finish(record, job, lost.elapsed_s)


def record_trajectory(record: Mapping[str, Any], run_dir: str | Path,
                      out_dir: str | Path) -> str | None:
    """Append one finished bench episode (its results record and the run's frames in
    ``run_dir``) to ``out_dir`` in the trajectory format (``phone_gym.trajectory``:
    ``steps.jsonl`` plus ``frames/<episode_id>/<step>.png``, and the last screen as
    ``final.png`` for ``phone-gym play``'s replay view); returns the episode id (None for an
    episode without steps). The run's PNG frames are copied as they are (never decoded and
    encoded again), each before the line that names it, as ``export_episodes`` writes
    them; a run without frames (``--no-frames``) records actions and verdicts only
    (``screenshot: null``). The reward is the episode's, on its last step (PhoneWorld's
    reward is given at the end)."""
    import secrets

    from ..actions import format_action
    from ..trainer.rollout import frame_ref
    from ..trajectory.format import FolderPaths, TrajectoryWriter
    from ..trajectory.records import StepRecord
    from ..trajectory.store import STEPS_FILE

    actions = list(record["actions"])
    if not actions:
        return None
    frames = Path(run_dir) / record["frames"] if record.get("frames") else None
    episode_id = f"bench-{record['task']}-{record['seed']}-{secrets.token_hex(3)}"
    terminated = record.get("failure") in (None, "wrong_answer")
    out = Path(out_dir)
    paths = FolderPaths(out)
    steps: list[StepRecord] = []
    shots: list[Path | None] = []
    for k, act in enumerate(actions):
        shot = frames / f"step_{k:03d}.png" if frames is not None else None
        shot = shot if shot is not None and shot.is_file() else None
        ref = frame_ref(episode_id, k) if shot is not None else None
        parsed = act.get("action")
        action = format_action(action_from_dict(parsed)) if parsed else None
        last = k == len(actions) - 1
        reward = float(record["reward"]) if last else 0.0
        steps.append(StepRecord(
            episode_id=episode_id, source=f"bench:{record['suite']}", task_id=record["task"],
            seed=record["seed"], group_id=0, step=k, instruction=record["instruction"],
            history=[s.action or s.text for s in steps],
            feedback=steps[-1].action_error if steps else None, prompt_ids=None, gen_ids=None,
            logprobs=None, screenshot=ref, image_refs=[ref] if ref is not None else [],
            text=str(act.get("text", "")), action=action, valid=parsed is not None,
            action_error=act.get("error"), env_reward=reward, penalty=0.0, reward=reward,
            done=last, terminated=last and terminated, truncated=last and not terminated,
            success=bool(record["success"]) if last else None,
            verdict=str(record.get("verdict") or "") if last else None))
        shots.append(shot)
    rows = []
    for step, shot in zip(steps, shots, strict=True):
        row = step.to_json()
        StepRecord.from_json(row)  # what is written must load back (export_episodes' check)
        if shot is not None:
            _copy_whole(shot, paths.resolve(row["screenshot"]))
        rows.append(row)
    out.mkdir(parents=True, exist_ok=True)
    with TrajectoryWriter(out / STEPS_FILE, append=True) as writer:
        writer.episode(rows)
    final = frames / f"step_{len(actions):03d}.png" if frames is not None else None
    if final is not None and final.is_file():
        _copy_whole(final, out / "frames" / episode_id / "final.png")
    return episode_id


def _copy_whole(source: Path, dest: Path) -> None:
    """Copy ``source`` to ``dest`` whole or not at all (a temporary file renamed over it)."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
    try:
        shutil.copyfile(source, tmp)
        os.replace(tmp, dest)
    finally:
        tmp.unlink(missing_ok=True)


def _score_anyway(env: Any, record: dict[str, Any]) -> None:
    """Score the final state of an episode cut short by a crash (if the env still can)."""
    if env is None:
        return
    try:
        reward, end = env.unwrapped.end_episode()
        record["reward"], record["success"] = float(reward), bool(end["success"])
        record["verdict"] = str(end.get("verdict", ""))
    except Exception:  # noqa: BLE001 - the env is broken: the episode stays unscored
        record["verdict"] = "not scored: the episode crashed"


def _parse(agent: Any, out: Any, obs: Mapping[str, Any], env: Any
           ) -> tuple[PhoneAction | None, str | None]:
    """The agent's output as a ``PhoneAction``, or None and the parse error."""
    if isinstance(out, PhoneAction):
        return out, None
    try:
        if hasattr(agent, "parse") and isinstance(out, str):
            shot = obs.get("screenshot")
            screen = (int(shot.shape[1]), int(shot.shape[0])) if shot is not None else (1000,
                                                                                        1000)
            return agent.parse(out, screen), None
        return to_action(out, getattr(env.unwrapped, "app_names", None)), None
    except ActionError as exc:
        return None, str(exc) or "no action"


def _agent_name(agent: Any) -> str:
    if isinstance(agent, str):
        return agent
    target = agent if isinstance(agent, type) or callable(agent) else type(agent)
    return f"{getattr(target, '__module__', '?')}:{getattr(target, '__qualname__', '?')}"


def _budget(task_id: str, rule: float, suite: Suite | None = None) -> int:
    """``rule`` times the task's budget: the suite's own (AndroidWorld: 10 x complexity),
    else the template's ``max_steps``."""
    from ..mockapps import REGISTRY

    base = suite.budgets.get(task_id) if suite is not None else None
    return max(1, math.ceil((base or REGISTRY.template(task_id).max_steps) * rule))


def _settings(suite: Suite, agent: Any, options: Mapping[str, Any], seeds: Sequence[int],
              workers: int, rule: float, time_limit_s: float | None,
              env_kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """``run.json``: what the run is (secrets left out)."""
    public = {k: v for k, v in options.items() if k != "api_key"}
    return {"suite": suite.name, "env_id": suite.env_id, "tasks": list(suite.task_ids),
            **({"instances": [list(i) for i in suite.instances]} if suite.instances else {}),
            "agent": _agent_name(agent), "agent_options": public,
            "format": options.get("format"), "seeds": list(seeds), "workers": workers,
            "max_steps_rule": rule, "time_limit_s": time_limit_s,
            "env_kwargs": {k: str(v) for k, v in env_kwargs.items()}}


def _check_same_run(path: Path, settings: Mapping[str, Any]) -> None:
    """Resuming into a folder of another run would mix two runs' records."""
    try:
        old = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    def what(run: Mapping[str, Any]) -> dict[str, Any]:  # the endpoint's address may move
        options = run.get("agent_options") or {}
        return {"suite": run.get("suite"), "agent": run.get("agent"),
                "max_steps_rule": run.get("max_steps_rule"), "env_kwargs": run.get("env_kwargs"),
                **{k: options.get(k) for k in ("model", "format", "seed")}}

    before, now = what(old), what(settings)
    for key in before:
        if before[key] != now[key]:
            raise ValueError(f"{path.parent} holds a run with another {key} "
                             f"({before[key]!r}, now {now[key]!r}): pass another "
                             "--out, or --no-resume to start it over")


def _progress(total: int, done: int, enabled: bool) -> Any:
    if not enabled:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:  # the bench extra brings it; without it, no bar
        return None
    return tqdm(total=total, initial=done, desc="bench", unit="ep", dynamic_ncols=True)


def _results(jobs: Sequence[Job], workers: int, here: bool, folder: Path
             ) -> Generator[dict[str, Any], None, None]:
    """The records of ``jobs`` as they finish: in ``WorkerPool`` processes (their progress
    files in ``folder``), or in this process (``here``; agent calls in a ``ThreadCalls``
    thread)."""
    if not jobs:
        return
    if here:
        calls = ThreadCalls()
        try:
            for job in jobs:
                yield run_episode(job, calls)
        finally:
            calls.close()
        return
    with WorkerPool(min(workers, len(jobs)), run_episode, _time_limit, folder) as pool:
        for job, outcome in pool.run(jobs):
            yield lost_record(job, outcome) if isinstance(outcome, Lost) else outcome


def _time_limit(job: Job) -> float | None:
    return job.time_limit_s


def _results_ray(jobs: Sequence[Job], workers: int
                 ) -> Generator[dict[str, Any], None, None]:
    """The records of ``jobs`` as Ray tasks finish, at most ``workers`` at a time (Ray as
    initialised by the caller, else a local instance for this run, shut down after it). A
    task runs ``run_episode`` (agent calls under their deadlines in a thread, an overrun
    one abandoned there); a task whose worker died is a "crash"."""
    try:
        import ray
    except ImportError:
        raise ModuleNotFoundError("executor='ray' needs Ray: pip install \"phone-gym[ray]\" "
                                  "(or executor='processes')", name="ray") from None
    started = not ray.is_initialized()
    if started and os.environ.get("RAY_ADDRESS"):  # join that cluster (Ray reads it)
        ray.init(log_to_driver=False)
    elif started:
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    remote = ray.remote(num_cpus=1, max_retries=0)(run_episode)
    queue, pending = list(reversed(jobs)), list[Any]()
    running: dict[Any, tuple[Job, float]] = {}
    try:
        while queue or pending:
            while queue and len(pending) < workers:
                job = queue.pop()
                pending.append(remote.remote(job))
                running[pending[-1]] = (job, time.monotonic())
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                job, sent = running.pop(ref)
                try:
                    record = ray.get(ref)
                except ray.exceptions.RayError as exc:
                    why = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
                    record = lost_record(job, Lost("crash", f"the Ray task failed: {why}",
                                                   {}, time.monotonic() - sent))
                yield record
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()


EXECUTORS = ("processes", "ray")


def run_bench(suite: str | Suite = "phoneworld", agent: Any = "oracle",
              seeds: int | Sequence[int] = 1, workers: int = 1,
              out_dir: str | Path = "out/bench", resume: bool = True,
              time_limit_s: float | None = None, max_steps_rule: float = 1.0,
              agent_options: Mapping[str, Any] | None = None,
              env_kwargs: Mapping[str, Any] | None = None, frames: bool = True,
              invalid_limit: int = INVALID_LIMIT, progress: bool = True,
              executor: str = "processes",
              record_to: str | Path | None = None,
              call_timeout_s: float | None = CALL_TIMEOUT_S,
              retry_crashed: bool = False) -> dict[str, Any]:
    """Run ``agent`` over ``suite`` (a name, a comma list of template ids, or a ``Suite``)
    x ``seeds`` (a count: 0..n-1, or a list) and return the summary (also written to
    ``out_dir/summary.json``; records in ``out_dir/results.jsonl``). A suite of fixed
    instances (PhoneWorld-Bench) runs its own (template, seed) pairs: ``seeds`` must then be
    left at 1.

    ``agent``: a spec ``make_agent`` takes ("oracle", "random", "openai", "module:function",
    or an object; with ``workers > 1`` it must pickle), ``agent_options`` its arguments.
    Episodes run in worker processes (``workers.WorkerPool``), one worker too, except an
    agent object with ``workers=1``: it runs in this process. Each agent call has a
    deadline, the nearer of ``call_timeout_s`` (None: none) and the episode's
    ``time_limit_s``; a call that overruns is abandoned (its worker killed and replaced) and
    the episode recorded as "time_limit". A worker that dies (``os._exit``, a segfault, an
    out-of-memory kill) is a "crash" of its episode and is replaced; the run goes on. In
    this process an overrunning call is abandoned too, but an agent that ends the process
    ends the run.
    ``max_steps_rule``: the step budget as a multiple of each template's ``max_steps``.
    ``env_kwargs`` go to ``gym.make`` (e.g. ``host``/``port``/``serial`` for the real
    suite). ``resume=False`` deletes the folder's earlier results and frames first; a
    resumed run skips the episodes already recorded, crashed ones too unless
    ``retry_crashed``.
    ``executor``: "processes" (``multiprocessing``) or "ray" (Ray tasks). ``record_to``: also
    append each finished episode to this folder in the trainer's trajectory format
    (``record_trajectory``: what ``phone-gym collect`` writes, ``train sft`` reads; its
    frames are the run's own PNGs, copied; with ``frames=False`` it holds actions and
    verdicts only)."""
    chosen = suite if isinstance(suite, Suite) else resolve_suite(suite)
    seed_list = list(range(seeds)) if isinstance(seeds, int) else [int(s) for s in seeds]
    if not seed_list or any(s < 0 for s in seed_list):
        raise ValueError(f"seeds={seeds!r}; accepted: a positive count or a list of seeds >= 0")
    if not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers={workers!r}; accepted: a positive int")
    if not max_steps_rule > 0:
        raise ValueError(f"max_steps_rule={max_steps_rule!r}; accepted: a number > 0")
    if time_limit_s is not None and not time_limit_s > 0:
        raise ValueError(f"time_limit_s={time_limit_s!r}; accepted: None or seconds > 0")
    if call_timeout_s is not None and not call_timeout_s > 0:
        raise ValueError(f"call_timeout_s={call_timeout_s!r}; accepted: None or seconds > 0")
    if executor not in EXECUTORS:
        raise ValueError(f"executor={executor!r}; accepted: {', '.join(map(repr, EXECUTORS))}")
    if invalid_limit < 0:
        raise ValueError(f"invalid_limit={invalid_limit!r}; accepted: an int >= 0")
    if chosen.instances and seeds != 1:
        raise ValueError(f"suite {chosen.name!r} runs fixed (template, seed) instances; "
                         f"seeds={seeds!r}: accepted: leave seeds out (--seeds 1)")
    pairs = (list(chosen.instances) if chosen.instances
             else [(task, seed) for task in chosen.task_ids for seed in seed_list])
    seed_list = sorted({seed for _, seed in pairs})
    options = dict(agent_options or {})
    env_args = {**chosen.env_kwargs, **(env_kwargs or {})}
    if (workers > 1 or executor == "ray") and not isinstance(agent, str):
        try:
            pickle.dumps(agent)
        except Exception as exc:  # noqa: BLE001 - any pickling failure means the same
            raise ValueError(f"agent {agent!r} cannot be sent to worker processes ({exc}): "
                             "pass it as 'module:function', or workers=1") from None
    make_agent(agent, options)  # a bad spec fails here, once, not in every episode
    own = agent_call_s(agent, options)
    if call_timeout_s is not None and own is not None and call_timeout_s < own:
        raise ValueError(f"call_timeout_s={call_timeout_s:g} is shorter than the agent's own "
                         f"worst case ({own:g} s: its timeout x tries, plus back-off); "
                         f"accepted: None or seconds >= {own:g} (--call-timeout)")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    settings = _settings(chosen, agent, options, seed_list, workers, max_steps_rule,
                         time_limit_s, env_args)
    settings["call_timeout_s"] = call_timeout_s
    if not resume:
        for name in ("results.jsonl", SUMMARY, RUN):
            (out / name).unlink(missing_ok=True)
        shutil.rmtree(out / "episodes", ignore_errors=True)
    else:
        _check_same_run(out / RUN, settings)
    write_json(out / RUN, settings)
    done = {(r["task"], r["seed"]) for r in read_results(out)
            if not (retry_crashed and r["failure"] == "crash")}
    jobs = []
    for task, seed in pairs:
        if (task, seed) in done:
            continue
        rel = f"episodes/{task}_{seed}/"
        jobs.append(Job(chosen.name, chosen.env_id, task, seed, agent, options, env_args,
                        _budget(task, max_steps_rule, chosen), time_limit_s,
                        str(out / rel) if frames else None, rel if frames else None,
                        invalid_limit, call_timeout_s))
    total = len(pairs)
    wins = sum(bool(r["success"]) for r in read_results(out) if (r["task"], r["seed"]) in done)
    finished = total - len(jobs)
    bar = _progress(total, finished, progress)
    writer = ResultsWriter(out)
    try:
        here = workers == 1 and not isinstance(agent, str)  # an object stays in this process
        results = (_results_ray(jobs, workers) if executor == "ray"
                   else _results(jobs, workers, here, out / WORKERS_DIR))
        try:
            for record in results:
                writer.write(record)
                if record_to is not None:
                    record_trajectory(record, out, record_to)
                finished += 1
                wins += bool(record["success"])
                if bar is not None:
                    bar.set_postfix(success=f"{wins / finished:.0%}", refresh=False)
                    bar.update(1)
        finally:
            results.close()  # ends the workers now, whatever stopped the loop
    finally:
        writer.close()
        if bar is not None:
            bar.close()
    wanted = set(pairs)
    records = [r for r in read_results(out) if (r["task"], r["seed"]) in wanted]
    summary = summarize(records, chosen.name, settings["agent"])
    write_json(out / SUMMARY, summary)
    return summary
