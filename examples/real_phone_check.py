"""Run every real-device template once on a connected phone with the scripted policy (the
oracle) and print a table: template, result (pass, fail, or skipped with the reason the
phone cannot run it), steps and seconds.

NOT YET RUN ON A PHYSICAL PHONE: it has only run against phone-gym's virtual adb device
(``tests/real/test_profiles.py``, under the "aosp" and "pixel" profiles). Whoever first runs
it on a real phone: please record the phone, its Android version and the table here.

Use a test phone: the tasks write contacts, alarms, files and settings (see the README's
real-phone section for what each changes and restores).

    python examples/real_phone_check.py                      # the only attached phone
    python examples/real_phone_check.py --serial R58M123 --tasks SettingsWifiOn,ContactsCreate
    phone-gym virtual-device --port 5038 --profile pixel &   # or a virtual phone
    python examples/real_phone_check.py --port 5038
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from phone_gym.envs.real_phone import REAL_TEMPLATES, RealPhoneEnv
from phone_gym.real.backend import BACKENDS
from phone_gym.real.base import DeviceError


@dataclass(frozen=True)
class Row:
    """One template's run: ``result`` is "pass", "fail" or "skipped"."""

    template: str
    result: str
    steps: int
    seconds: float
    note: str = ""


def run_one(env: RealPhoneEnv, template: str, seed: int) -> Row:
    """Reset to ``template`` and follow the oracle to the end of the episode."""
    start = time.monotonic()
    steps = 0
    try:
        env.reset(seed=seed, options={"task": template})
        info: dict[str, object] = {}
        for _ in range(REAL_TEMPLATES[template].max_steps):
            _, _, terminated, truncated, info = env.step(env.oracle_action())
            steps += 1
            if info.get("action_error"):
                return Row(template, "fail", steps, time.monotonic() - start,
                           f"action error: {info['action_error']}")
            if terminated or truncated:
                break
        passed = bool(info.get("success"))
        note = "" if passed else str(info.get("verdict") or "the oracle did not finish")
        return Row(template, "pass" if passed else "fail", steps, time.monotonic() - start,
                   note)
    except Exception as exc:  # noqa: BLE001 - one template's failure is a row, not the end
        return Row(template, "fail", steps, time.monotonic() - start,
                   f"{type(exc).__name__}: {exc}")


def check(env: RealPhoneEnv, templates: Sequence[str], seed: int = 0) -> list[Row]:
    """A row per template: skipped (with the reason) where the phone cannot run it
    (``env`` made with ``task=None``: its ``skipped`` covers every template)."""
    env.read_profile()
    return [Row(t, "skipped", 0, 0.0, env.skipped[t]) if t in env.skipped
            else run_one(env, t, seed) for t in templates]


def table(rows: Sequence[Row]) -> str:
    """The rows as a plain-text table, then a count of each result."""
    header = ("template", "result", "steps", "seconds", "note")
    cells = [header] + [(r.template, r.result, str(r.steps), f"{r.seconds:.1f}", r.note)
                        for r in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(4)]
    lines = ["  ".join(c[i].ljust(widths[i]) for i in range(4)) + "  " + c[4] for c in cells]
    lines.insert(1, "-" * (sum(widths) + 6 + len("note")))
    counts = {k: sum(r.result == k for r in rows) for k in ("pass", "fail", "skipped")}
    lines.append(", ".join(f"{n} {k}" for k, n in counts.items()))
    return "\n".join(line.rstrip() for line in lines)


def parse_tasks(text: str | None) -> list[str]:
    if not text:
        return sorted(REAL_TEMPLATES)
    names = [t.strip() for t in text.split(",") if t.strip()]
    unknown = [t for t in names if t not in REAL_TEMPLATES]
    if unknown:
        raise SystemExit(f"error: unknown real-device task(s) {', '.join(unknown)}; run "
                         "`phone-gym tasks --real` to list them")
    return names


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--serial", help="the phone's serial (default: the only one attached)")
    parser.add_argument("--host", default="127.0.0.1", help="adb server host")
    parser.add_argument("--port", type=int, default=5037, help="adb server port")
    parser.add_argument("--backend", choices=sorted(BACKENDS), default="adb")
    parser.add_argument("--tasks", help="comma-separated template ids (default: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=20.0,
                        help="seconds each adb call may take (default 20)")
    parser.add_argument("--settle", type=float, default=0.5,
                        help="seconds to wait after each action (default 0.5)")
    args = parser.parse_args(argv)
    templates = parse_tasks(args.tasks)
    env = RealPhoneEnv(serial=args.serial, host=args.host, port=args.port,
                       backend=args.backend, timeout=args.timeout, settle=args.settle,
                       screenshot=False)
    try:
        rows = check(env, templates, args.seed)
        profile = env.read_profile() if env.profile is None else env.profile
    except (DeviceError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    finally:
        env.close()
    print(f"{profile.serial}: {profile.describe()}, {len(profile.packages)} packages")
    print(table(rows))
    return 1 if any(r.result == "fail" for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
