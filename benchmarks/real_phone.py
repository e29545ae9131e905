"""RealPhone-v0 against the virtual adb device, and PhoneWorld-v0 over OpenEnv, beside
PhoneWorld-v0 in-process: prints one JSON line of figures measured in one run.

Step costs are CPU milliseconds per step (``time.process_time``: the virtual device, the
adb server and the OpenEnv server run in threads of this process, so their work counts):

- ``phoneworld_step_ms``: PhoneWorld-v0 in-process (the oracle's actions of ``WORLD_TASKS``,
  540 x 1200 screenshots); ``phoneworld_sps``: the same as steps per wall second
- ``real_adb_step_ms``: RealPhone-v0 through adbutils and the adb protocol to the virtual
  device (a 1080 x 2400 ``screencap`` and a ``uiautomator dump`` every step);
  ``real_adb_sps`` the same per wall second
- ``real_local_step_ms``: the same env on the in-process backend (no sockets, no adb
  protocol): the share of time the protocol costs
- ``openenv_step_ms``: the in-process steps replayed through ``PhoneEnvClient`` and an
  OpenEnv server (uvicorn, WebSocket) in this process, screenshots as base64 PNG (the
  default); ``openenv_raw_step_ms`` with binary raw frames (``frame_format="raw"``, where
  the tree has it), ``openenv_shm_step_ms`` with raw frames in shared memory
  (``frame_format="shm"``, where the tree has it); ``openenv_x``, ``openenv_raw_x``,
  ``openenv_shm_x``: each over this run's in-process step (the mean of a replay before
  and one after the OpenEnv ones, so that a change of load between them counts less);
  each replay starts after a full garbage collection (``replay``)
- ``tap_ms``, ``screencap_ms``, ``uiautomator_dump_ms``: single adb calls, CPU ms
- ``real_reset_ms``: mean RealPhone-v0 reset (force-stop, home, setup over adb, snapshot)

RealPhone-v0 runs the real-device templates' scripted policy on the Settings app.
``--against REV`` measures this tree and the commit ``REV`` (a temporary git worktree)
alternately ``--repeats`` times with this script, and prints both medians and their ratios
(``current / against``: below 1 is cheaper). ``--openenv`` measures PhoneWorld-v0 only,
in-process and over OpenEnv. Usage: ``python benchmarks/real_phone.py [--steps N]
[--openenv] [--against REV [--repeats N]]``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("ADBUTILS_ADB_PATH", "/bin/false")  # never start a real adb server

ROOT = Path(__file__).resolve().parents[1]
TASKS = ["SettingsWifiOff", "SettingsBluetoothOn", "SettingsDarkThemeOn"]
WORLD_TASKS = ["ContactsCreate", "ClockSetAlarm", "SmsSendMessage", "FilesDeleteFile"]


def run(env: Any, steps: int) -> tuple[float, float, float]:
    """(CPU ms per step, steps per wall second, mean reset ms) of the scripted policy,
    resetting when episodes end."""
    resets: list[float] = []
    t = time.perf_counter()
    env.reset(seed=0)
    resets.append(time.perf_counter() - t)
    busy = cpu = 0.0
    for i in range(steps):
        t, c = time.perf_counter(), time.process_time()
        _, _, terminated, truncated, _ = env.step(env.oracle_action())
        busy += time.perf_counter() - t
        cpu += time.process_time() - c
        if terminated or truncated:
            t = time.perf_counter()
            env.reset(seed=i + 1)
            resets.append(time.perf_counter() - t)
    return cpu / steps * 1e3, steps / busy, sum(resets) / len(resets) * 1e3


def world_script(steps: int) -> list[tuple[str, int, list[str]]]:
    """Episodes of the oracle on ``WORLD_TASKS`` (task, seed, action texts), ``steps``
    actions in all, to replay in-process and over OpenEnv."""
    from phone_gym.actions import format_action
    from phone_gym.envs import PhoneWorldEnv
    from phone_gym.mockapps import TEMPLATES

    tasks = [t for t in WORLD_TASKS if t in TEMPLATES]
    env = PhoneWorldEnv()
    script: list[tuple[str, int, list[str]]] = []
    total, k = 0, 0
    while total < steps:
        task, seed = tasks[k % len(tasks)], k // len(tasks)
        env.reset(seed=seed, options={"task": task})
        actions: list[str] = []
        done = False
        while not done and total < steps:
            action = format_action(env.oracle_action())
            _, _, terminated, truncated, _ = env.step(action)
            actions.append(action)
            total += 1
            done = terminated or truncated
        script.append((task, seed, actions))
        k += 1
    return script


def replay(env: Any, script: list[tuple[str, int, list[str]]], gym_reset: bool) -> float:
    """CPU ms per step of ``script``'s actions on ``env`` (resets not counted), after a full
    garbage collection: the garbage of the setup before (the script, a server session's
    env) is not collected in the steps measured, as it would be by chance."""
    gc.collect()
    cpu, steps = 0.0, 0
    for task, seed, actions in script:
        if gym_reset:
            env.reset(seed=seed, options={"task": task})
        else:
            env.reset(task=task, seed=seed)
        for action in actions:
            c = time.process_time()
            env.step(action)
            cpu += time.process_time() - c
            steps += 1
    return cpu / steps * 1e3


def openenv_ms(script: list[tuple[str, int, list[str]]]) -> dict[str, float]:
    """``openenv_step_ms`` (and ``openenv_raw_step_ms`` where the tree has binary frames);
    empty without the openenv extra."""
    import inspect
    import socket
    import threading

    try:
        import uvicorn

        from phone_gym.integrations.openenv import (
            PhoneEnvClient,
            create_server_app,
            server_config,
        )
    except ImportError:
        return {}
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    app = create_server_app("PhoneWorld-v0", max_sessions=2)
    server = uvicorn.Server(server_config(app, host="127.0.0.1", port=port))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    url = f"http://127.0.0.1:{port}/?token={app.state.token}"
    out: dict[str, float] = {}

    def session(client: Any) -> float:  # the session (its env) is made before the steps
        client.state()
        return round(replay(client, script, False), 2)

    try:
        with PhoneEnvClient(url) as client:
            out["openenv_step_ms"] = session(client)
        if "frame_format" in inspect.signature(PhoneEnvClient).parameters:
            with PhoneEnvClient(url, frame_format="raw") as client:  # type: ignore[call-arg]
                out["openenv_raw_step_ms"] = session(client)
        if hasattr(sys.modules[PhoneEnvClient.__module__], "SHARED"):
            with PhoneEnvClient(url, frame_format="shm") as client:  # type: ignore[call-arg]
                out["openenv_shm_step_ms"] = session(client)
    finally:
        server.should_exit = True
        thread.join(timeout=30)
    return out


def call_ms(port: int, n: int) -> dict[str, float]:
    """Mean CPU milliseconds of single adb calls to the virtual device."""
    from phone_gym.real.backend import AdbBackend

    backend = AdbBackend(port=port)
    out: dict[str, float] = {}
    for name, call in (("tap_ms", lambda: backend.shell("input tap 5 5")),
                       ("screencap_ms", backend.screenshot),
                       ("uiautomator_dump_ms", backend.dump_ui)):
        call()
        start = time.process_time()
        for _ in range(n):
            call()
        out[name] = round((time.process_time() - start) / n * 1e3, 2)
    return out


def measure(steps: int, openenv_only: bool = False) -> dict[str, Any]:
    """Every figure of this tree (module docstring); PhoneWorld-v0's only with
    ``openenv_only``."""
    from phone_gym.envs import PhoneWorldEnv
    from phone_gym.envs.real_phone import RealPhoneEnv
    from phone_gym.virtual import LocalBackend, VirtualAdbServer, VirtualPhone

    figures: dict[str, Any] = {}
    script = world_script(steps)
    world = PhoneWorldEnv()
    start = time.perf_counter()
    figures["phoneworld_step_ms"] = round(replay(world, script, True), 3)
    figures["phoneworld_sps"] = round(steps / (time.perf_counter() - start), 1)
    openenv = openenv_ms(script)
    figures.update(openenv)
    if openenv:  # each transport's cost over the in-process step of this run
        inproc = (figures["phoneworld_step_ms"] + replay(world, script, True)) / 2
        figures.update({k.replace("_step_ms", "_x"): round(v / inproc, 2)
                        for k, v in openenv.items()})
    if openenv_only:
        return figures
    with VirtualAdbServer([VirtualPhone("emulator-5554")]) as server:
        env = RealPhoneEnv(port=server.port, task=TASKS, settle=0.0)
        cpu, sps, reset = run(env, steps)
        figures.update(real_adb_step_ms=round(cpu, 2), real_adb_sps=round(sps, 1),
                       real_reset_ms=round(reset, 1))
        figures.update(call_ms(server.port, max(10, steps // 5)))
    local = RealPhoneEnv(backend=LocalBackend(VirtualPhone()), task=TASKS, settle=0.0)
    figures["real_local_step_ms"] = round(run(local, steps)[0], 2)
    return figures


def measure_tree(tree: Path, steps: int, openenv_only: bool = False) -> dict[str, Any]:
    """``measure`` of the code in ``tree``, in a fresh process."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(tree), *filter(None, [os.environ.get("PYTHONPATH", "")])])}
    proc = subprocess.run([sys.executable, __file__, "--steps", str(steps), "--here",
                           *(["--openenv"] if openenv_only else [])],
                          cwd=tree, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"the benchmark failed in {tree}:\n{proc.stderr[-2000:]}")
    return dict(json.loads(proc.stdout.strip().splitlines()[-1]))


def against(rev: str, steps: int, repeats: int, openenv_only: bool = False) -> dict[str, Any]:
    """This tree and ``rev``, measured alternately ``repeats`` times: medians, ratios."""
    with tempfile.TemporaryDirectory() as tmp:
        other = Path(tmp) / "tree"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(other), rev],
                       check=True, capture_output=True)
        try:
            runs: dict[str, list[dict[str, Any]]] = {"current": [], "against": []}
            for _ in range(repeats):
                runs["current"].append(measure_tree(ROOT, steps, openenv_only))
                runs["against"].append(measure_tree(other, steps, openenv_only))
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(other)], check=False, capture_output=True)
    medians = {side: {k: statistics.median(r[k] for r in rs if k in r) for k in rs[0]
                      if isinstance(rs[0][k], (int, float))}
               for side, rs in runs.items()}
    medians["loadavg_per_run"] = {side: [r["loadavg"] for r in rs]  # type: ignore[assignment]
                                  for side, rs in runs.items()}
    ratio = {k: round(medians["current"][k] / medians["against"][k], 3)
             for k in medians["current"] if medians["against"].get(k)}
    return {**medians, "ratio": ratio, "rev": rev, "repeats": repeats}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--against", default=None, metavar="REV",
                        help="also measure the commit REV, alternately (see above)")
    parser.add_argument("--repeats", type=int, default=3,
                        help="alternating runs of each tree with --against (default 3)")
    parser.add_argument("--openenv", action="store_true",
                        help="PhoneWorld-v0 in-process and over OpenEnv only")
    parser.add_argument("--here", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.steps < 1 or args.repeats < 1:
        raise SystemExit("--steps and --repeats: accepted: integers >= 1")
    figures: dict[str, Any] = {"steps": args.steps, "python": platform.python_version()}
    if args.against and not args.here:
        figures.update(against(args.against, args.steps, args.repeats, args.openenv))
    else:
        figures.update(measure(args.steps, args.openenv))
    with open("/proc/loadavg", encoding="ascii") as f:
        figures["loadavg"] = f.read().split()[:3]
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
