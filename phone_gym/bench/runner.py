"""``run_bench``: run an agent over a suite's templates x seeds, in worker processes, with
resume, a progress bar, a per-episode time limit, and the records of ``results``.

Each episode is ``env.reset(seed=seed, options={"task": id})`` on the suite's env id, then
agent steps until the env ends it or the step budget (the template's ``max_steps`` times
``max_steps_rule``, rounded up) runs out; then the final state is scored
(``end_episode``), as an env scores a truncated episode. An output the agent's parser
rejects is an invalid step: counted against the budget, recorded with its error, the phone
untouched (as the env's own no-op step for a bad action). More than ``invalid_limit``
invalid actions in a row end the episode ("invalid_actions"). The time limit is checked
before each step (an agent call is bounded by its own timeout). Frames are PNGs under
``episodes/<task>_<seed>/``: ``step_000.png`` is the screen the first action saw, the last
one the final screen.

Workers are processes (``multiprocessing`` spawn: each builds its envs and agent), or Ray
tasks with ``executor="ray"`` (one CPU each, on the cluster ``ray.init`` joined, or a local
one started for the run); with ``workers=1`` and processes, episodes run in this
process. The main process alone writes ``results.jsonl``; a resumed run skips the
(task, seed) pairs already there.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import pickle
import shutil
import time
import traceback
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from ..actions import ActionError, PhoneAction, action_from_dict, to_action
from .agents import EndpointError, describe_action, make_agent
from .results import RUN, SUMMARY, ResultsWriter, read_results, summarize, write_json
from .suites import Suite, resolve_suite, template_meta

#: Default: more than this many invalid actions in a row end the episode.
INVALID_LIMIT = 3


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


_ENVS: dict[str, Any] = {}
_AGENTS: dict[str, Any] = {}


def _env(job: Job) -> Any:
    """This process's env for the job's env id and budget (built once)."""
    import gymnasium as gym

    import phone_gym  # noqa: F401 - registers the env ids in a fresh worker

    key = json.dumps([job.env_id, job.budget, dict(job.env_kwargs)], sort_keys=True,
                     default=str)
    if key not in _ENVS:
        _ENVS[key] = gym.make(job.env_id, max_steps=job.budget, **job.env_kwargs)
    return _ENVS[key]


def _agent(job: Job) -> Any:
    """The job's agent: built once per process from a string spec, else unpickled."""
    if not isinstance(job.agent, str):
        return make_agent(job.agent, job.agent_options)
    key = json.dumps([job.agent, dict(job.agent_options)], sort_keys=True, default=str)
    if key not in _AGENTS:
        _AGENTS[key] = make_agent(job.agent, job.agent_options)
    return _AGENTS[key]


def _last_line(exc: BaseException) -> str:
    return traceback.format_exception_only(type(exc), exc)[-1].strip()


def _save(frame: Any, folder: Path | None, index: int) -> None:
    if folder is not None and frame is not None:
        Image.fromarray(frame).save(folder / f"step_{index:03d}.png", compress_level=1)


def run_episode(job: Job) -> dict[str, Any]:
    """Run one episode; its record (never raises for the agent's or the env's errors)."""
    start = time.monotonic()
    meta = template_meta(job.task)
    record: dict[str, Any] = {
        "suite": job.suite, "task": job.task, "seed": job.seed, **meta, "success": False,
        "reward": 0.0, "steps": 0, "max_steps": job.budget, "tokens_in": 0, "tokens_out": 0,
        "latency_s": 0.0, "time_s": 0.0, "failure": None, "failure_detail": None,
        "instruction": "", "verdict": "", "frames": None, "actions": []}
    folder = Path(job.frames_dir) if job.frames_dir else None
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)  # a run cut short left a partial episode
        folder.mkdir(parents=True)
    actions: list[dict[str, Any]] = record["actions"]
    failure: str | None = None
    detail: str | None = None
    ended_by_agent = False
    env = None
    try:
        env = _env(job)
        agent = _agent(job)
        if hasattr(agent, "bind"):
            agent.bind(env, job.seed)
        obs, info = env.reset(seed=job.seed, options={"task": job.task})
        record["instruction"] = info["instruction"]
        agent.reset(info["instruction"], info)
        in_a_row, ended, steps, reward = 0, False, 0, 0.0
        while steps < job.budget and not ended:
            if job.time_limit_s is not None and time.monotonic() - start > job.time_limit_s:
                failure, detail = "time_limit", f"over {job.time_limit_s:g} s"
                break
            _save(obs.get("screenshot"), folder, steps)
            out, usage = agent.act(obs, info)
            steps += 1
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
    except EndpointError as exc:
        failure, detail = "endpoint", str(exc)
        _score_anyway(env, record)
    except Exception as exc:  # noqa: BLE001 - a crash is a recorded failure, not the run's
        failure, detail = "crash", _last_line(exc)
        _score_anyway(env, record)
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
    if folder is not None and any(folder.iterdir()):
        record["frames"] = job.frames_rel
    record["latency_s"] = round(record["latency_s"], 3)
    record["time_s"] = round(time.monotonic() - start, 3)
    return record


def record_trajectory(record: Mapping[str, Any], run_dir: str | Path,
                      out_dir: str | Path) -> str | None:
    """Append one finished bench episode (its results record and the run's frames in
    ``run_dir``) to ``out_dir`` in the trajectory format (``phone_gym.trajectory``:
    ``steps.jsonl`` plus ``frames/<episode_id>/<step>.png``, and the last screen as
    ``final.png`` for ``phone-gym play``'s replay view); returns the episode id (None for an
    episode without steps). The reward is the episode's, on its last step (PhoneWorld's
    reward is given at the end)."""
    import secrets

    import numpy as np

    from ..actions import format_action
    from ..trainer.rollout import frame_ref
    from ..trajectory.records import Episode, StepRecord
    from ..trajectory.store import export_episodes

    actions = list(record["actions"])
    if not actions:
        return None
    frames = Path(run_dir) / record["frames"] if record.get("frames") else None
    episode_id = f"bench-{record['task']}-{record['seed']}-{secrets.token_hex(3)}"
    terminated = record.get("failure") in (None, "wrong_answer")
    steps: list[StepRecord] = []
    for k, act in enumerate(actions):
        shot = frames / f"step_{k:03d}.png" if frames is not None else None
        frame = np.asarray(Image.open(shot).convert("RGB")) if shot and shot.is_file() else None
        parsed = act.get("action")
        action = format_action(action_from_dict(parsed)) if parsed else None
        last = k == len(actions) - 1
        reward = float(record["reward"]) if last else 0.0
        steps.append(StepRecord(
            episode_id=episode_id, source=f"bench:{record['suite']}", task_id=record["task"],
            seed=record["seed"], group_id=0, step=k, instruction=record["instruction"],
            history=[s.action or s.text for s in steps],
            feedback=steps[-1].action_error if steps else None, prompt_ids=None, gen_ids=None,
            logprobs=None, screenshot=frame_ref(episode_id, k) if frame is not None else None,
            image_refs=[frame_ref(episode_id, k)] if frame is not None else [],
            text=str(act.get("text", "")), action=action, valid=parsed is not None,
            action_error=act.get("error"), env_reward=reward, penalty=0.0, reward=reward,
            done=last, terminated=last and terminated, truncated=last and not terminated,
            success=bool(record["success"]) if last else None,
            verdict=str(record.get("verdict") or "") if last else None, frame=frame))
    out = Path(out_dir)
    export_episodes([Episode(steps)], out, append=True)
    final = frames / f"step_{len(actions):03d}.png" if frames is not None else None
    if final is not None and final.is_file():
        (out / "frames" / episode_id).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(final, out / "frames" / episode_id / "final.png")
    return episode_id


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


def _results(jobs: Sequence[Job], workers: int) -> Iterator[dict[str, Any]]:
    """The records of ``jobs`` as they finish (in this process with one worker)."""
    if workers == 1:
        for job in jobs:
            yield run_episode(job)
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        pending: set[Future[dict[str, Any]]] = set()
        queue = list(reversed(jobs))
        try:
            while queue or pending:
                while queue and len(pending) < 2 * workers:  # a bounded queue: fast cancel
                    pending.add(pool.submit(run_episode, queue.pop()))
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
        finally:
            for future in pending:
                future.cancel()


def _results_ray(jobs: Sequence[Job], workers: int) -> Iterator[dict[str, Any]]:
    """The records of ``jobs`` as Ray tasks finish, at most ``workers`` at a time (Ray as
    initialised by the caller, else a local instance for this run, shut down after it)."""
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
    try:
        while queue or pending:
            while queue and len(pending) < workers:
                pending.append(remote.remote(queue.pop()))
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
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
              record_to: str | Path | None = None) -> dict[str, Any]:
    """Run ``agent`` over ``suite`` (a name, a comma list of template ids, or a ``Suite``)
    x ``seeds`` (a count: 0..n-1, or a list) and return the summary (also written to
    ``out_dir/summary.json``; records in ``out_dir/results.jsonl``). A suite of fixed
    instances (PhoneWorld-Bench) runs its own (template, seed) pairs: ``seeds`` must then be
    left at 1.

    ``agent``: a spec ``make_agent`` takes ("oracle", "random", "openai", "module:function",
    or an object; with ``workers > 1`` it must pickle), ``agent_options`` its arguments.
    ``max_steps_rule``: the step budget as a multiple of each template's ``max_steps``.
    ``env_kwargs`` go to ``gym.make`` (e.g. ``host``/``port``/``serial`` for the real
    suite). ``resume=False`` deletes the folder's earlier results and frames first.
    ``executor``: "processes" (``multiprocessing``) or "ray" (Ray tasks). ``record_to``: also
    append each finished episode to this folder in the trainer's trajectory format
    (``record_trajectory``: what ``phone-gym collect`` writes, ``train sft`` reads; its
    frames come from the run's own, so ``frames`` must stay on)."""
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
    if executor not in EXECUTORS:
        raise ValueError(f"executor={executor!r}; accepted: {', '.join(map(repr, EXECUTORS))}")
    if invalid_limit < 0:
        raise ValueError(f"invalid_limit={invalid_limit!r}; accepted: an int >= 0")
    if record_to is not None and not frames:
        raise ValueError("record_to needs the episodes' frames: leave frames on (no "
                         "--no-frames with --record)")
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
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    settings = _settings(chosen, agent, options, seed_list, workers, max_steps_rule,
                         time_limit_s, env_args)
    if not resume:
        for name in ("results.jsonl", SUMMARY, RUN):
            (out / name).unlink(missing_ok=True)
        shutil.rmtree(out / "episodes", ignore_errors=True)
    else:
        _check_same_run(out / RUN, settings)
    write_json(out / RUN, settings)
    done = {(r["task"], r["seed"]) for r in read_results(out)}
    jobs = []
    for task, seed in pairs:
        if (task, seed) in done:
            continue
        rel = f"episodes/{task}_{seed}/"
        jobs.append(Job(chosen.name, chosen.env_id, task, seed, agent, options, env_args,
                        _budget(task, max_steps_rule, chosen), time_limit_s,
                        str(out / rel) if frames else None, rel if frames else None,
                        invalid_limit))
    total = len(pairs)
    wins = sum(bool(r["success"]) for r in read_results(out))
    finished = total - len(jobs)
    bar = _progress(total, finished, progress)
    writer = ResultsWriter(out)
    try:
        results = _results_ray(jobs, workers) if executor == "ray" else _results(jobs, workers)
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
        writer.close()
        if bar is not None:
            bar.close()
    wanted = set(pairs)
    records = [r for r in read_results(out) if (r["task"], r["seed"]) in wanted]
    summary = summarize(records, chosen.name, settings["agent"])
    write_json(out / SUMMARY, summary)
    return summary
