"""RealPhone-v0 against the virtual adb device, beside PhoneWorld-v0 in-process: prints
one JSON line of figures measured in one run.

- ``phoneworld_sps``: PhoneWorld-v0 steps/s (scripted policy, 540 x 1200 screenshots)
- ``real_adb_sps``: RealPhone-v0 steps/s through adbutils and the adb protocol to the
  virtual device (``screencap -p`` PNGs at 1080 x 2400 and ``uiautomator dump`` every step)
- ``real_local_sps``: the same env with the in-process backend (no sockets, no adb
  protocol): the share of time the protocol costs
- ``tap_ms``, ``screencap_ms``, ``uiautomator_dump_ms``: single adb calls, for the breakdown
- ``real_reset_ms``: mean RealPhone-v0 reset (force-stop, home, setup over adb, snapshot)

PhoneWorld-v0 runs its own templates' oracles; RealPhone-v0 runs the real-device
templates' scripted policy on the Settings app. Usage: ``python benchmarks/real_phone.py
[--steps N]``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from typing import Any

os.environ.setdefault("ADBUTILS_ADB_PATH", "/bin/false")  # never start a real adb server

from phone_gym.envs.real_phone import RealPhoneEnv  # noqa: E402
from phone_gym.virtual import LocalBackend, VirtualAdbServer, VirtualPhone  # noqa: E402

TASKS = ["SettingsWifiOff", "SettingsBluetoothOn", "SettingsDarkThemeOn"]


def run(env: Any, steps: int) -> tuple[float, float]:
    """(steps/s, mean reset ms) of the scripted policy, resetting when episodes end."""
    resets: list[float] = []
    t = time.perf_counter()
    env.reset(seed=0)
    resets.append(time.perf_counter() - t)
    busy = 0.0
    for i in range(steps):
        t = time.perf_counter()
        _, _, terminated, truncated, _ = env.step(env.oracle_action())
        busy += time.perf_counter() - t
        if terminated or truncated:
            t = time.perf_counter()
            env.reset(seed=i + 1)
            resets.append(time.perf_counter() - t)
    return steps / busy, sum(resets) / len(resets) * 1e3


def phoneworld_sps(steps: int) -> float:
    from phone_gym.envs import PhoneWorldEnv

    env = PhoneWorldEnv()
    env.reset(seed=0)
    start = time.perf_counter()
    for i in range(steps):
        _, _, terminated, truncated, _ = env.step(env.oracle_action())
        if terminated or truncated:
            env.reset(seed=i + 1)
    return steps / (time.perf_counter() - start)


def call_ms(port: int, n: int) -> dict[str, float]:
    """Mean milliseconds of single adb calls to the virtual device."""
    from phone_gym.real.backend import AdbBackend

    backend = AdbBackend(port=port)
    out: dict[str, float] = {}
    for name, call in (("tap_ms", lambda: backend.shell("input tap 5 5")),
                       ("screencap_ms", backend.screenshot),
                       ("uiautomator_dump_ms", backend.dump_ui)):
        call()
        start = time.perf_counter()
        for _ in range(n):
            call()
        out[name] = round((time.perf_counter() - start) / n * 1e3, 2)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=200)
    args = parser.parse_args()
    figures: dict[str, Any] = {"steps": args.steps, "python": platform.python_version()}
    figures["phoneworld_sps"] = round(phoneworld_sps(args.steps), 1)
    with VirtualAdbServer([VirtualPhone("emulator-5554")]) as server:
        env = RealPhoneEnv(port=server.port, task=TASKS, settle=0.0)
        figures["real_adb_sps"], figures["real_reset_ms"] = (
            round(v, 1) for v in run(env, args.steps))
        figures.update(call_ms(server.port, max(10, args.steps // 5)))
    local = RealPhoneEnv(backend=LocalBackend(VirtualPhone()), task=TASKS, settle=0.0)
    figures["real_local_sps"] = round(run(local, args.steps)[0], 1)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
