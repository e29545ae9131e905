"""The ``phone-gym`` command line: list tasks, run a demo episode (in PhoneWorld or on a
phone over adb), save app screenshots, serve PhoneWorld phones as a virtual adb device."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import SupportsFloat

import numpy as np
from PIL import Image, ImageDraw

from .actions import PhoneAction, format_action

DEFAULT_DEMO_TASK = "CrossContactPhoneToNote"
DEFAULT_REAL_DEMO_TASK = "SettingsWifiOff"


def cmd_tasks(args: argparse.Namespace) -> int:
    if args.real:
        from .envs.real_phone import REAL_TEMPLATES

        print(f"{'id':32} {'apps':12} {'cplx':>4} {'steps':>5}  template")
        for t in REAL_TEMPLATES.values():
            kind = " [answer]" if t.needs_answer else ""
            print(f"{t.id:32} {','.join(t.apps):12} {t.complexity:>4} {t.max_steps:>5}  "
                  f"{t.template}{kind}")
        print(f"{len(REAL_TEMPLATES)} real-device templates; env id: RealPhone-v0 (task=<id>)")
        return 0
    from .envs import select_templates

    templates = select_templates(apps=args.app) if args.app else select_templates()
    print(f"{'id':32} {'apps':20} {'cplx':>4} {'steps':>5}  template")
    for t in templates:
        kind = " [answer]" if t.needs_answer else ""
        print(f"{t.id:32} {','.join(t.apps):20} {t.complexity:>4} {t.max_steps:>5}  "
              f"{t.template}{kind}")
    print(f"{len(templates)} templates; env ids: PhoneWorld-v0 (all) or PhoneWorld-<id>-v0")
    return 0


def _mark(frame: np.ndarray, action: PhoneAction) -> Image.Image:
    """The frame with the action's touch point circled and the action at the bottom."""
    image = Image.fromarray(frame)
    draw = ImageDraw.Draw(image)
    w, h = image.size
    if action.x is not None and action.y is not None:
        cx, cy, r = action.x * w // 1000, action.y * h // 1000, max(6, w // 30)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=(230, 30, 60), width=4)
    label = format_action(action)
    draw.rectangle((0, h - 28, w, h), fill=(0, 0, 0))
    draw.text((6, h - 24), label[:80], fill=(255, 230, 90))
    return image


def cmd_demo(args: argparse.Namespace) -> int:
    import gymnasium as gym

    from .mockapps import TEMPLATES

    if args.real:
        task = args.task or DEFAULT_REAL_DEMO_TASK
        env = gym.make("RealPhone-v0", task=task, obs_size=tuple(args.size), host=args.host,
                       port=args.port, serial=args.serial, settle=args.settle)
    else:
        task = args.task or (DEFAULT_DEMO_TASK if DEFAULT_DEMO_TASK in TEMPLATES
                             else next(iter(TEMPLATES)))
        env = gym.make("PhoneWorld-v0", task=task, obs_size=tuple(args.size))
    obs, info = env.reset(seed=args.seed)
    print(f"task {env.unwrapped.episode.template.id} (seed {args.seed}): "  # type: ignore[attr-defined]
          f"{obs['instruction']}")
    frames: list[Image.Image] = []
    done, step = False, 0
    reward: SupportsFloat = 0.0
    while not done:
        action = env.unwrapped.oracle_action()  # type: ignore[attr-defined]
        frames.append(_mark(obs["screenshot"], action))
        obs, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
        step += 1
        err = f"  ERROR: {info['action_error']}" if info["action_error"] else ""
        print(f"  step {step:2d}: {info['action']}{err}")
    frames.append(Image.fromarray(obs["screenshot"]))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    gif = out / f"demo_{info['task_id']}_{args.seed}.gif"
    frames[0].save(gif, save_all=True, append_images=frames[1:], duration=700, loop=0)
    frames[-1].save(out / f"demo_{info['task_id']}_{args.seed}_final.png")
    verdict = "SUCCESS" if info["success"] else "FAILURE"
    print(f"{verdict}: reward {reward:.1f} in {step} steps ({info['verdict']})")
    print(f"episode saved to {gif}")
    env.close()
    return 0 if info["success"] else 1


def cmd_screenshots(args: argparse.Namespace) -> int:
    from .mockapps import APPS, TEMPLATES, Episode
    from .world import Device
    from .world.render import Renderer

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    device = Device(APPS)
    renderer = Renderer(*args.size)
    shots: list[tuple[str, np.ndarray]] = []
    for app in [None, *APPS]:
        # each app shows the data of its first task's setup
        template = next(t for t in TEMPLATES.values() if app is None or app.name in t.apps)
        Episode(template, device, np.random.default_rng(0))
        if app is not None:
            device.open_app(app.name)
        shots.append((app.name.lower() if app else "launcher", renderer.render(device.frame())))
    for name, shot in shots:
        Image.fromarray(shot).save(out / f"{name}.png")
    gap = 16
    w, h = args.size
    sheet = Image.new("RGB", (len(shots) * (w + gap) - gap, h), (255, 255, 255))
    for i, (_, shot) in enumerate(shots):
        sheet.paste(Image.fromarray(shot), (i * (w + gap), 0))
    sheet.save(out / "overview.png")
    print(f"saved {len(shots)} screenshots and overview.png to {out}")
    return 0


def cmd_virtual_device(args: argparse.Namespace) -> int:
    from .virtual import VirtualAdbServer, VirtualPhone
    from .virtual.u2 import attach_u2

    serials = args.serial or ["emulator-5554"]
    phones = [attach_u2(VirtualPhone(serial)) for serial in serials]
    server = VirtualAdbServer(phones, host=args.host, port=args.port)
    server.start()
    print(f"virtual adb device: {', '.join(serials)} on {args.host}:{server.port}")
    print(f"  try: ANDROID_ADB_SERVER_PORT={server.port} adb devices")
    print(f"  or:  phone-gym demo --real --port {server.port}")
    print("  (uiautomator2 works too: backend='u2')")
    print("Ctrl-C stops it.", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0


def cmd_new_app(args: argparse.Namespace) -> int:
    from .scaffold import new_app

    written = new_app(args.name, label=args.label, package=args.package, out=args.out)
    folder = written[0].parent
    print(f"wrote the {args.name} app in {folder}:")
    for path in written:
        print(f"  {path}")
    if args.out is None:
        print(f"next: python -m pytest {folder}   (the checks on the app and its tasks)")
        print(f"      phone-gym check --app {args.name}")
    else:
        print(f"next: pip install -e {args.out}   then: phone-gym check --app {args.name}")
    print("then grow it: docs/writing-an-app.md walks through the app, the tasks and the kit")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from .mockapps import REGISTRY
    from .testing import check_app, check_task

    apps = args.app or []
    tasks = list(args.task or [])
    for name in apps:
        app = REGISTRY.app(name).manifest.name
        tasks += [t.id for t in REGISTRY.templates.values() if app in t.apps and t.id not in tasks]
    if not apps and not args.task:
        apps = [m.name for m in REGISTRY.manifests]
        tasks = list(REGISTRY.templates)
    failed = 0
    for name in apps:
        report = check_app(name, args.steps, raise_on_failure=False)
        print(("ok    " if not report.problems else "FAIL  ") + report.line())
        for problem in report.problems[:10]:
            print(f"        {problem}")
        failed += bool(report.problems)
    for task_id in tasks:
        task_report = check_task(task_id, args.seeds, processes=args.processes,
                                 raise_on_failure=False)
        print(("ok    " if not task_report.problems else "FAIL  ") + task_report.line())
        for problem in task_report.problems[:10]:
            print(f"        {problem}")
        failed += bool(task_report.problems)
    print(f"{len(apps)} apps and {len(tasks)} tasks checked, {failed} with problems")
    return 1 if failed else 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="phone-gym", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("tasks", help="list task templates")
    p.add_argument("--app", action="append", help="only tasks about this app (repeatable)")
    p.add_argument("--real", action="store_true", help="list the real-device (adb) templates")
    p.set_defaults(func=cmd_tasks)
    p = sub.add_parser("demo", help="run the oracle on a task and save the episode as a GIF")
    p.add_argument("--task", default=None, help=f"template id (default {DEFAULT_DEMO_TASK})")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="out", help="folder for the GIF and final PNG")
    p.add_argument("--size", type=int, nargs=2, default=(540, 1200), metavar=("W", "H"))
    p.add_argument("--real", action="store_true",
                   help=f"run RealPhone-v0 over adb (default task {DEFAULT_REAL_DEMO_TASK})")
    p.add_argument("--host", default="127.0.0.1", help="adb server host (with --real)")
    p.add_argument("--port", type=int, default=5037, help="adb server port (with --real)")
    p.add_argument("--serial", default=None, help="phone serial (with --real)")
    p.add_argument("--settle", type=float, default=0.5,
                   help="seconds to let the phone settle after each action (with --real)")
    p.set_defaults(func=cmd_demo)
    p = sub.add_parser("screenshots", help="save the launcher and each app's main screen")
    p.add_argument("--out", default="docs/screenshots")
    p.add_argument("--size", type=int, nargs=2, default=(360, 800), metavar=("W", "H"))
    p.set_defaults(func=cmd_screenshots)
    p = sub.add_parser("virtual-device",
                       help="serve PhoneWorld phones as adb devices on a local port")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=5037,
                   help="port to listen on (0: any free port); 5037 is adb's own")
    p.add_argument("--serial", action="append",
                   help="serial of a phone to serve (repeatable; default emulator-5554)")
    p.set_defaults(func=cmd_virtual_device)
    p = sub.add_parser("new-app", help="write a working app, its tasks, fixtures and tests")
    p.add_argument("name", help="the app's name, CamelCase (e.g. TodoList)")
    p.add_argument("--label", default=None, help="the launcher label (default: the name)")
    p.add_argument("--package", default=None,
                   help="its Android package (default com.example.<name>)")
    p.add_argument("--out", default=None,
                   help="write a pip-installable package in this folder instead of a folder "
                        "of phone_gym/mockapps")
    p.set_defaults(func=cmd_new_app)
    p = sub.add_parser("check", help="run the authoring checks on apps and task templates")
    p.add_argument("--app", action="append", help="an app (and its tasks); repeatable")
    p.add_argument("--task", action="append", help="a task template id; repeatable")
    p.add_argument("--seeds", type=int, default=20, help="seeds per template (default 20)")
    p.add_argument("--steps", type=int, default=10_000,
                   help="random and garbage steps per app (default 10000)")
    p.add_argument("--processes", action="store_true",
                   help="also compare episodes in a fresh process (slower)")
    p.set_defaults(func=cmd_check)
    from .trainer.cli import add_commands  # collect, train sft|grpo (torch loads on use)

    add_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except ValueError as exc:
        print(f"phone-gym: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
