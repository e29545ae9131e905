"""The phone-gym command line: list tasks, run a demo episode (in PhoneWorld or on a phone
over adb), save app screenshots, serve PhoneWorld phones as a virtual adb device, write and
check apps, collect oracle data and train agents.

A user error prints one line (``phone-gym: what is wrong: what to do``) and exits with 2
(bad arguments or config) or 1 (a failure at run time); ``--debug`` adds the traceback.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
import warnings
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any, SupportsFloat

from .trainer.cli import EXTRAS, arg_type, missing_extra, positive_int, seed_int

if TYPE_CHECKING:  # the commands import what they draw with when they run (a fast --version)
    import numpy as np
    from PIL import Image, ImageDraw

    from .actions import PhoneAction
    from .verifiers.state import DeviceError

DEFAULT_DEMO_TASK = "CrossContactPhoneToNote"
DEFAULT_REAL_DEMO_TASK = "SettingsWifiOff"
CAPTION_BG, CAPTION_INK = (0, 0, 0), (255, 230, 90)  #: the demo GIF's caption strip
DESCRIPTION = (
    "Phones as reinforcement-learning environments: list tasks, run the oracle on a task "
    "(in PhoneWorld or on a phone over adb), save screenshots, serve PhoneWorld phones as a "
    "virtual adb device, write and check apps, collect data and train agents.")


def phone_hint(port: int | None = None) -> str:
    """What to do when no phone answers at ``port``."""
    if port in (None, 5037):
        return ("connect a phone (adb devices lists it), or start phone-gym virtual-device "
                "(it listens on 5037; with --port N, pass --port N here too)")
    return (f"connect a phone (adb devices lists it), or start phone-gym virtual-device "
            f"--port {port}")


port_number = arg_type(int, lambda v: 1 <= v <= 65535, "a port, 1 to 65535")
listen_port = arg_type(int, lambda v: 0 <= v <= 65535, "a port, 0 (any free one) to 65535")
seconds = arg_type(float, lambda v: v >= 0, "seconds >= 0")
positive_seconds = arg_type(float, lambda v: 0 < v < float("inf"), "seconds > 0")


def add_access_flags(p: argparse.ArgumentParser, what: str) -> None:
    """``--no-token`` and ``--allow-origin`` (phone_gym.serving) of a server command."""
    p.add_argument("--no-token", action="store_true",
                   help=f"serve {what} without a token: any program that reaches the address "
                        "can drive it (web pages are still held back by the Origin and Host "
                        "checks)")
    p.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                   help="also accept requests from pages of this origin, e.g. "
                        "http://myhost:8765 (repeatable; default: loopback and the served "
                        "address only)")


#: ``tasks --suite``'s PhoneWorld-Bench names and the category each lists.
PWBENCH_SUITES = {"pwbench": "all", "pwbench-single": "single", "pwbench-cross": "cross",
                  "pwbench-mini": "mini", "pwbench-zh": "all", "pwbench-zh-single": "single",
                  "pwbench-zh-cross": "cross", "pwbench-zh-mini": "mini"}


def cmd_tasks(args: argparse.Namespace) -> int:
    if args.suite in PWBENCH_SUITES:
        from .mockapps import REGISTRY
        from .suites import pwbench

        bench = pwbench.load_zh() if args.suite.startswith("pwbench-zh") else pwbench.load()
        category = PWBENCH_SUITES[args.suite]
        print(f"{'#':>3} {'template':40} {'seed':>5}  apps")
        for k, (task_id, seed) in enumerate(bench.suite(category), 1):
            print(f"{k:>3} {task_id:40} {seed:>5}  {','.join(REGISTRY.template(task_id).apps)}")
        print(f"{len(bench.suite(category))} instances; {bench.citation()}; run: phone-gym "
              f"bench run --suite {args.suite}")
        return 0
    if args.suite:
        from .suites import SUITES, suite_table

        if args.suite not in SUITES:
            from .world.manifest import did_you_mean

            names = [*PWBENCH_SUITES, *SUITES]
            raise ValueError(f"unknown suite {args.suite!r}{did_you_mean(args.suite, names)}; "
                             f"accepted: {', '.join(names)}")
        print(suite_table(args.suite))
        return 0
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
    if args.split:
        from .envs.phone_world import split_templates

        templates = split_templates(templates, args.split, args.locale)
    if args.locale != "en-US":
        from .envs.phone_world import locale_templates
        from .world.locale import check_locale

        templates = locale_templates(templates, check_locale(args.locale))
    if args.tag:
        from .tasks.task import TAGS

        unknown = sorted(set(args.tag) - TAGS)
        if unknown:
            raise ValueError(f"--tag {unknown[0]!r}; accepted: {', '.join(sorted(TAGS))}")
        templates = [t for t in templates if set(args.tag) <= t.tags]
    print(f"{'id':32} {'apps':20} {'cplx':>4} {'steps':>5}  template")
    for t in templates:
        kind = " [answer]" if t.needs_answer else ""
        sentence = t.template if args.locale == "en-US" else t.instructions[args.locale]
        print(f"{t.id:32} {','.join(t.apps):20} {t.complexity:>4} {t.max_steps:>5}  "
              f"{sentence}{kind}")
    print(f"{len(templates)} templates; env ids: PhoneWorld-v0 (all) or PhoneWorld-<id>-v0")
    if args.locale != "en-US":
        from .mockapps import APPS

        apps = sorted({a for t in templates for a in t.apps})
        full = [a.name for a in APPS if args.locale in a.manifest.locales]
        print(f"{args.locale}: {len(templates)} templates on {len(apps)} apps; "
              f"{len(full)} apps with every screen in {args.locale} ({', '.join(full)}); "
              f"gym.make('PhoneWorld-v0', locale={args.locale!r})")
    elif not args.app and not args.split and not args.tag:
        from .mockapps import REGISTRY
        from .tasks.registry import CROSS_KINDS, template_counts

        n = template_counts(REGISTRY)
        kinds = ", ".join(f"{k} {n[k]}" for k in CROSS_KINDS)
        print(f"{n['apps']} apps; cross-app {n['cross_app']} ({kinds}); mini-program "
              f"{n['mini_program']}; long-horizon {n['long_horizon']}; safety {n['safety']}")
    return 0


def _mark(frame: np.ndarray, action: PhoneAction) -> Image.Image:
    """The frame with the action's touch point circled (nothing else drawn on it)."""
    from PIL import Image, ImageDraw
    image = Image.fromarray(frame)
    if action.x is not None and action.y is not None:
        draw = ImageDraw.Draw(image)
        w, h = image.size
        cx, cy, r = action.x * w // 1000, action.y * h // 1000, max(6, w // 30)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=(230, 30, 60), width=4)
    return image


def _text_width(text: str, px: int) -> float:
    """The width of ``text`` at font size ``px`` in the phone's font stack."""
    from .world.glyphs import SYMBOL, face_font, text_runs

    return sum(px * 1.05 if face == SYMBOL else face_font(face, px).getlength(run)
               for run, face in text_runs(text))


def _wrap(text: str, width: float, px: int) -> list[str]:
    """``text`` in lines no wider than ``width`` pixels at font size ``px`` (at spaces; a
    word wider than a line is cut between characters)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if _text_width(candidate, px) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = ""
        for ch in word:
            if line and _text_width(line + ch, px) > width:
                lines.append(line)
                line = ""
            line += ch
    return [*lines, line] if line or not lines else lines


def _draw_line(draw: ImageDraw.ImageDraw, x: float, base: int, text: str, px: int,
               fill: tuple[int, int, int], bg: tuple[int, int, int]) -> None:
    """One line of text in any script the phone draws (its font stack: the bundled font,
    the fallback fonts, vector symbols), its baseline at row ``base``."""
    from .world.glyphs import SYMBOL, SYMBOLS, face_font, text_runs

    for run, face in text_runs(text):
        if face == SYMBOL:
            SYMBOLS[run](draw, x + px * 0.525, base - px * 0.35, px * 0.38, fill, bg)
            x += px * 1.05
        else:
            f = face_font(face, px)
            draw.text((x, base), run, font=f, fill=fill, anchor="ls")
            x += f.getlength(run)


def captioned(frames: Sequence[Image.Image], captions: Sequence[str]) -> list[Image.Image]:
    """Each frame above a black strip holding its caption (wrapped to the frame's width);
    the strips have one height, so that the frames can make a GIF. The frames' own pixels
    are kept as they are: the caption never covers the screen (nav bar, keyboard)."""
    from PIL import Image, ImageDraw

    from .world.glyphs import font

    w = frames[0].width
    px = max(10, w // 27)
    ascent, descent = font(px).getmetrics()
    line_h = int(ascent + descent + px // 5)
    pad = max(4, px // 3)
    lines = [_wrap(c, w - 2 * pad, px) for c in captions]
    strip = int(max(len(x) for x in lines) * line_h + 2 * pad)
    out = []
    for frame, text in zip(frames, lines, strict=True):
        canvas = Image.new("RGB", (w, frame.height + strip), CAPTION_BG)
        canvas.paste(frame.convert("RGB"), (0, 0))
        draw = ImageDraw.Draw(canvas)
        for k, line in enumerate(text):
            _draw_line(draw, pad, frame.height + pad + k * line_h + int(ascent), line, px,
                       CAPTION_INK, CAPTION_BG)
        out.append(canvas)
    return out


def _adb_address(args: argparse.Namespace) -> tuple[str, int]:
    """The adb server a command reaches: ``--adb-host``/``--adb-port`` where the command
    serves a page of its own (``play``, ``serve``), else ``--host``/``--port``."""
    return (getattr(args, "adb_host", None) or args.host,
            getattr(args, "adb_port", None) or args.port)


def _no_phone(exc: DeviceError, args: argparse.Namespace) -> str:
    """What a failure to reach the phone at reset means, and what to do."""
    host, port = _adb_address(args)
    where = f"{host}:{port}"
    text = str(exc)
    refused = "onnection refused" in text or any(
        isinstance(e, ConnectionRefusedError) for e in _causes(exc))
    if refused:
        return f"no adb server at {where}: {phone_hint(port)}"
    if "expected exactly one attached phone" in text:
        found = text.rpartition("found ")[2]
        if found == "none":
            return f"no phone attached to the adb server at {where}: {phone_hint(port)}"
        return f"several phones at {where} ({found}): pass --serial SERIAL"
    return text


def _causes(exc: BaseException) -> list[BaseException]:
    out: list[BaseException] = []
    cause = exc.__cause__ or exc.__context__
    while cause is not None and cause not in out:
        out.append(cause)
        cause = cause.__cause__ or cause.__context__
    return out


def cmd_demo(args: argparse.Namespace) -> int:
    import gymnasium as gym
    from PIL import Image

    from .actions import format_action
    from .mockapps import TEMPLATES
    from .verifiers.state import DeviceError

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)  # a folder it cannot write fails before the run
    if args.real:
        error = missing_extra(["adbutils"], "phone-gym demo --real")
        if error is not None:
            raise ModuleNotFoundError(f"{error}; then {phone_hint(args.port)}") from None
        task = args.task or DEFAULT_REAL_DEMO_TASK
        env = gym.make("RealPhone-v0", task=task, obs_size=tuple(args.size), host=args.host,
                       port=args.port, serial=args.serial, settle=args.settle)
    else:
        task = args.task or (DEFAULT_DEMO_TASK if DEFAULT_DEMO_TASK in TEMPLATES
                             else next(iter(TEMPLATES)))
        env = gym.make("PhoneWorld-v0", task=task, obs_size=tuple(args.size))
    try:
        try:
            obs, info = env.reset(seed=args.seed)
        except DeviceError as exc:
            if not args.real:
                raise
            raise DeviceError(_no_phone(exc, args)) from exc
        print(f"task {env.unwrapped.episode.template.id} (seed {args.seed}): "  # type: ignore[attr-defined]
              f"{obs['instruction']}")
        frames: list[Image.Image] = []
        captions: list[str] = []
        done, step = False, 0
        reward: SupportsFloat = 0.0
        while not done:
            action = env.unwrapped.oracle_action()  # type: ignore[attr-defined]
            frames.append(_mark(obs["screenshot"], action))
            captions.append(f"{step + 1}. {format_action(action)}")
            obs, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
            step += 1
            err = f"  ERROR: {info['action_error']}" if info["action_error"] else ""
            print(f"  step {step:2d}: {info['action']}{err}")
        verdict = "SUCCESS" if info["success"] else "FAILURE"
        frames.append(Image.fromarray(obs["screenshot"]))
        captions.append(f"{verdict}: reward {float(reward):.1f} in {step} steps")
        gif = out / f"demo_{info['task_id']}_{args.seed}.gif"
        shown = captioned(frames, captions)
        shown[0].save(gif, save_all=True, append_images=shown[1:], duration=700, loop=0)
        frames[-1].save(out / f"demo_{info['task_id']}_{args.seed}_final.png")
        print(f"{verdict}: reward {float(reward):.1f} in {step} steps ({info['verdict']})")
        print(f"episode saved to {gif}")
    finally:
        env.close()
    return 0 if info["success"] else 1


#: Shots per row of ``overview.png``.
OVERVIEW_COLUMNS = 8


def cmd_screenshots(args: argparse.Namespace) -> int:
    import numpy as np
    from PIL import Image

    from .mockapps import APPS, TEMPLATES, Episode
    from .world import Device
    from .world.locale import check_locale
    from .world.render import Renderer

    locale = check_locale(args.locale)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    device = Device(APPS, locale=locale)
    renderer = Renderer(*args.size)
    shots: list[tuple[str, np.ndarray]] = []
    # in another locale: the apps that declare it, each with the data of a template of it
    apps = [a for a in APPS if locale in a.manifest.locales]
    templates = [t for t in TEMPLATES.values() if locale in t.locales]
    for app in [None, *apps]:
        # each app shows the data of its first task's setup (an app no task is about: the
        # data of the first task)
        template = next((t for t in templates if app is None or app.name in t.apps),
                        templates[0])
        Episode(template, device, np.random.default_rng(0))
        if app is not None:
            device.open_app(app.name)
        shots.append((app.name.lower() if app else "launcher", renderer.render(device.frame())))
    for name, shot in shots:
        Image.fromarray(shot).save(out / f"{name}.png")
    # the overview: half-size shots in rows of OVERVIEW_COLUMNS
    gap = 12
    w, h = args.size[0] // 2, args.size[1] // 2
    columns = min(OVERVIEW_COLUMNS, len(shots))
    rows = -(-len(shots) // columns)
    sheet = Image.new("RGB", (columns * (w + gap) - gap, rows * (h + gap) - gap),
                      (255, 255, 255))
    for i, (_, shot) in enumerate(shots):
        small = Image.fromarray(shot).resize((w, h), Image.Resampling.LANCZOS)
        sheet.paste(small, ((i % columns) * (w + gap), (i // columns) * (h + gap)))
    sheet.save(out / "overview.png", optimize=True)
    print(f"saved {len(shots)} screenshots and overview.png to {out}")
    return 0


def cmd_virtual_device(args: argparse.Namespace) -> int:
    from .virtual import VirtualAdbServer, VirtualPhone
    from .virtual.u2 import attach_u2

    serials = args.serial or ["emulator-5554"]
    phones = [attach_u2(VirtualPhone(serial, profile=args.profile)) for serial in serials]
    server = VirtualAdbServer(phones, host=args.host, port=args.port)
    try:
        server.start()
    except OSError as exc:
        raise OSError(f"cannot listen on {args.host}:{args.port} ({exc.strerror}): pass "
                      "another --port (0: any free one); adb's own server uses 5037") from None
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

    args.seeds_given = args.seeds is not None
    if args.seeds is None:
        args.seeds = 20
    apps = args.app or []
    tasks = list(args.task or [])
    for name in apps:
        app = REGISTRY.app(name).manifest.name
        tasks += [t.id for t in REGISTRY.templates.values() if app in t.apps and t.id not in tasks]
    if not apps and not args.task:
        apps = [m.name for m in REGISTRY.manifests]
        tasks = list(REGISTRY.templates)
    if args.grounding:
        return _check_grounding(tasks, args.seeds if args.seeds_given else 3)
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


def _check_grounding(tasks: list[str], seeds: int) -> int:
    """``check --grounding``: the grounding audit, one line per template."""
    from .testing.grounding import audit_grounding

    failed = derived = 0
    for task_id in tasks:
        report = audit_grounding(task_id, range(seeds))
        print(("ok    " if report.ok else "FAIL  ") + report.summary())
        failed += not report.ok
        derived += bool(report.derived)
    print(f"{len(tasks)} templates audited on seeds 0-{seeds - 1}: {len(tasks) - failed} "
          f"grounded ({derived} with declared derivations), {failed} not")
    return 1 if failed else 0


def cmd_play(args: argparse.Namespace) -> int:
    from importlib.util import find_spec

    from .verifiers.state import DeviceError

    if find_spec("aiohttp") is None:
        raise ModuleNotFoundError("phone-gym play needs aiohttp, which is not installed: pip "
                                  "install \"phone-gym[play]\" (in a checkout: pip install -e "
                                  "\".[play]\")")
    if args.real:
        error = missing_extra(["adbutils"], "phone-gym play --real")
        if error is not None:
            raise ModuleNotFoundError(f"{error}; then {phone_hint(args.adb_port)}") from None
    from .play.cli import make_sessions
    from .play.server import ServerThread
    from .serving import normalize_origin

    origins = [normalize_origin(o) for o in args.allow_origin]  # ValueError: one line
    sessions = make_sessions(task=args.task, suite=args.suite, seed=args.seed, out=args.out,
                             size=args.size, real=args.real, host=args.adb_host,
                             port=args.adb_port,
                             serial=args.serial, settle=args.settle,
                             max_sessions=args.max_sessions, idle_timeout_s=args.idle_timeout)
    try:
        try:
            sessions.warm()  # no phone, a bad task: one line now, not in the page
        except DeviceError as exc:
            if not args.real:
                raise
            raise DeviceError(_no_phone(exc, args)) from exc
        try:
            server = ServerThread(sessions, args.host, args.port,
                                  require_token=not args.no_token, allow_origins=origins).start()
        except OSError as exc:
            raise OSError(f"cannot listen on {args.host}:{args.port} "
                          f"({exc.strerror or exc}): pass another --port (0: any free "
                          "one)") from None
        print(f"play at {server.page_url()}")
        print(f"  recorded episodes: {server.page_url('/replay')}")
        print(f"episodes are recorded to {sessions.out} (phone-gym train sft: "
              f"--set data.path={sessions.out})")
        print("Ctrl-C stops it.", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
        finally:
            server.stop()
    finally:
        sessions.close()
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    if not args.openenv:
        raise ValueError("pass --openenv: phone-gym serve serves envs as an OpenEnv server")
    from importlib.util import find_spec

    for module in ("openenv", "uvicorn"):
        if find_spec(module) is None:
            raise ModuleNotFoundError(f"phone-gym serve --openenv needs {module}, which is not "
                                      "installed: pip install \"phone-gym[openenv]\" (in a "
                                      "checkout: pip install -e \".[openenv]\")")
    if args.real:
        error = missing_extra(["adbutils"], "phone-gym serve --real")
        if error is not None:
            raise ModuleNotFoundError(f"{error}; then {phone_hint(args.adb_port)}") from None
    from .integrations.openenv import serve
    from .serving import normalize_origin

    origins = [normalize_origin(o) for o in args.allow_origin]  # ValueError: one line
    kwargs: dict[str, Any] = {}
    if args.task:
        kwargs["task"] = [t.strip() for t in args.task.split(",") if t.strip()]
    if args.real:
        kwargs.update(host=args.adb_host, port=args.adb_port, serial=args.serial)
    env_id = "RealPhone-v0" if args.real else "PhoneWorld-v0"
    serve(env_id, host=args.host, port=args.port, max_sessions=args.max_sessions,
          announce=True, require_token=not args.no_token, allow_origins=origins,
          idle_timeout_s=args.idle_timeout, **kwargs)
    return 0


def version() -> str:
    """The installed distribution's version (the package's own without metadata)."""
    try:
        return metadata.version("phone-gym")
    except metadata.PackageNotFoundError:  # run from a checkout that is not installed
        from . import __version__

        return __version__


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="phone-gym", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"phone-gym {version()}",
                        help="print the version and exit")
    parser.add_argument("--debug", action="store_true",
                        help="on an error, print the full traceback too")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                        help="on an error, print the full traceback too")
    parents = [common]
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                title="commands",
                                help="what to do (phone-gym COMMAND --help: its flags)")
    p = sub.add_parser("tasks", parents=parents, help="list the task templates",
                       description="List the task templates: id, apps, complexity, step "
                                   "budget and instruction.")
    p.add_argument("--app", action="append", help="only tasks about this app (repeatable)")
    p.add_argument("--real", action="store_true", help="list the real-device (adb) templates")
    p.add_argument("--suite", default=None,
                   help="list an outside suite's tasks and their phone-gym templates "
                        "(androidworld), or a PhoneWorld-Bench suite's instances (pwbench, "
                        "pwbench-single, pwbench-cross, pwbench-mini; PhoneWorld-Bench zh: "
                        "pwbench-zh, pwbench-zh-single, pwbench-zh-cross, pwbench-zh-mini)")
    p.add_argument("--split", choices=("train", "test"), default=None,
                   help="only PhoneWorld-Bench's train or held-out test templates")
    p.add_argument("--tag", action="append", default=None,
                   help="only templates with this tag (repeatable: all of them): handoff, "
                        "artifact, persistent, multihop, mini_program, long_horizon, safety")
    p.add_argument("--locale", default="en-US",
                   help="only templates that run in this phone locale (en-US, zh-CN), with "
                        "their instructions in it, and the counts")
    p.set_defaults(func=cmd_tasks)
    p = sub.add_parser("demo", parents=parents,
                       help="run the oracle on a task and save the episode as a GIF",
                       description="Run the task's oracle for one episode and save it as a "
                                   "GIF (touch points circled, each action written in a strip "
                                   "under its frame) plus the final screen as a PNG. Exit "
                                   "status 0 when the task is solved.")
    p.add_argument("--task", default=None,
                   help=f"template id (default {DEFAULT_DEMO_TASK}; see phone-gym tasks)")
    p.add_argument("--seed", type=seed_int, default=0,
                   help="episode seed, an integer >= 0 (default 0)")
    p.add_argument("--out", default="out", help="folder for the GIF and final PNG (default out)")
    p.add_argument("--size", type=positive_int, nargs=2, default=(540, 1200), metavar=("W", "H"),
                   help="screenshot size in pixels (default 540 1200)")
    p.add_argument("--real", action="store_true",
                   help=f"run RealPhone-v0 over adb (default task {DEFAULT_REAL_DEMO_TASK}); "
                        "needs the real extra and a phone or phone-gym virtual-device")
    p.add_argument("--host", default="127.0.0.1",
                   help="adb server host (with --real, default 127.0.0.1)")
    p.add_argument("--port", type=port_number, default=5037,
                   help="adb server port (with --real, default 5037)")
    p.add_argument("--serial", default=None,
                   help="phone serial (with --real; default: the only phone attached)")
    p.add_argument("--settle", type=seconds, default=0.5,
                   help="seconds to let the phone settle after each action (with --real, "
                        "default 0.5)")
    p.set_defaults(func=cmd_demo)
    p = sub.add_parser("screenshots", parents=parents,
                       help="save the launcher and each app's main screen",
                       description="Save the launcher and each app's main screen as PNGs, "
                                   "plus overview.png with all of them at half size, 8 per row.")
    p.add_argument("--out", default="docs/screenshots",
                   help="folder to write (default docs/screenshots)")
    p.add_argument("--size", type=positive_int, nargs=2, default=(360, 800), metavar=("W", "H"),
                   help="screenshot size in pixels (default 360 800)")
    p.add_argument("--locale", default="en-US",
                   help="the phone's locale (default en-US); zh-CN: the launcher and the apps "
                        "that declare zh-CN, in Chinese")
    p.set_defaults(func=cmd_screenshots)
    p = sub.add_parser("virtual-device", parents=parents,
                       help="serve PhoneWorld phones as adb devices on a local port",
                       description="Serve PhoneWorld phones as adb devices (an adb server on "
                                   "a local port) until Ctrl-C, for RealPhone-v0, adbutils "
                                   "and uiautomator2 without a phone.")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=listen_port, default=5037,
                   help="port to listen on (0: any free port; default 5037, adb's own)")
    p.add_argument("--serial", action="append",
                   help="serial of a phone to serve (repeatable; default emulator-5554)")
    p.add_argument("--profile", choices=("aosp", "pixel"),
                   help="the apps' package names of an AOSP build (com.android.contacts...) "
                        "or a Pixel (com.google.android.contacts...); default: PhoneWorld's")
    p.set_defaults(func=cmd_virtual_device)
    p = sub.add_parser("new-app", parents=parents,
                       help="write a working app, its tasks, fixtures and tests",
                       description="Write a working mock app with tasks, fixtures and tests "
                                   "(docs/writing-an-app.md walks through it).")
    p.add_argument("name", help="the app's name, CamelCase (e.g. TodoList)")
    p.add_argument("--label", default=None, help="the launcher label (default: the name)")
    p.add_argument("--package", default=None,
                   help="its Android package (default com.example.<name>)")
    p.add_argument("--out", default=None,
                   help="write a pip-installable package in this folder instead of a folder "
                        "of phone_gym/mockapps")
    p.set_defaults(func=cmd_new_app)
    p = sub.add_parser("check", parents=parents,
                       help="run the authoring checks on apps and task templates",
                       description="Run the authoring checks on apps (random and garbage "
                                   "input) and task templates (oracle, determinism, "
                                   "verifiers); one line per app and template. Default: all.")
    p.add_argument("--app", action="append", help="an app (and its tasks); repeatable")
    p.add_argument("--task", action="append", help="a task template id; repeatable")
    p.add_argument("--seeds", type=positive_int, default=None,
                   help="seeds per template (default 20; 3 with --grounding)")
    p.add_argument("--grounding", action="store_true",
                   help="run the grounding audit instead: every value an oracle typed, "
                        "answered or read was in the instruction or on a screen shown")
    p.add_argument("--steps", type=positive_int, default=10_000,
                   help="random and garbage steps per app (default 10000)")
    p.add_argument("--processes", action="store_true",
                   help="also compare episodes in a fresh process (slower)")
    p.set_defaults(func=cmd_check)
    p = sub.add_parser("play", parents=parents,
                       help="play a task by hand in a local web page, recording it",
                       description="Serve a local web page showing the phone: click, hold, "
                                   "drag, scroll and type to play the task; every episode is "
                                   "recorded in the trajectory format (what collect writes, "
                                   "what train sft reads), and /replay steps through them. "
                                   "Open the URL it prints (with its per-launch token); each "
                                   "tab plays its own session. Needs the play extra.")
    p.add_argument("--task", default=None,
                   help="template id (default: any task, chosen by the seed; see phone-gym "
                        "tasks)")
    p.add_argument("--suite", default=None,
                   help="play a suite's tasks in turn (a bench suite, e.g. pwbench-mini, or a "
                        "comma list of template ids)")
    p.add_argument("--seed", type=seed_int, default=0,
                   help="seed of the first episode, an integer >= 0 (default 0); each new "
                        "episode takes the next")
    p.add_argument("--out", default="out/play",
                   help="folder the episodes are recorded to (default out/play)")
    p.add_argument("--size", type=positive_int, nargs=2, default=(540, 1200), metavar=("W", "H"),
                   help="screenshot size in pixels (default 540 1200)")
    # --host/--port: the page, as serve's; --adb-host/--adb-port: the phone (--listen and
    # --listen-port are the page's old names)
    p.add_argument("--host", "--listen", dest="host", default="127.0.0.1",
                   help="address the page is served on (default 127.0.0.1)")
    p.add_argument("--port", "--listen-port", dest="port", type=listen_port, default=8765,
                   help="port the page is served on (0: any free port; default 8765)")
    p.add_argument("--real", action="store_true",
                   help=f"play RealPhone-v0 over adb (default task {DEFAULT_REAL_DEMO_TASK}); "
                        "needs the real extra and a phone or phone-gym virtual-device")
    p.add_argument("--adb-host", default="127.0.0.1",
                   help="adb server host (with --real, default 127.0.0.1)")
    p.add_argument("--adb-port", type=port_number, default=5037,
                   help="adb server port (with --real, default 5037)")
    p.add_argument("--serial", default=None,
                   help="phone serial (with --real; default: the only phone attached)")
    p.add_argument("--settle", type=seconds, default=0.5,
                   help="seconds to let the phone settle after each action (with --real, "
                        "default 0.5)")
    p.add_argument("--max-sessions", type=positive_int, default=None,
                   help="most tabs playing at once, each its own session (default 8; 1 with "
                        "--real)")
    p.add_argument("--idle-timeout", type=positive_seconds, default=600.0,
                   help="close a tab's session unused this many seconds (default 600)")
    add_access_flags(p, "the page")
    p.set_defaults(func=cmd_play)
    p = sub.add_parser("serve", parents=parents,
                       help="serve PhoneWorld-v0 or RealPhone-v0 as an OpenEnv environment",
                       description="Serve phone-gym envs over OpenEnv's protocol (one "
                                   "WebSocket session, with its own env, per client; HTTP "
                                   "reset). It prints its URL with a per-launch token: "
                                   "clients send it, and web pages of other origins are "
                                   "refused. Needs the openenv extra.")
    p.add_argument("--openenv", action="store_true",
                   help="serve over OpenEnv's protocol (required: the one protocol for now)")
    p.add_argument("--real", action="store_true",
                   help="serve RealPhone-v0 over adb (one session: the phone is one); needs "
                        "the real extra and a phone or phone-gym virtual-device")
    p.add_argument("--task", default=None,
                   help="template id(s) the envs draw from, comma-separated (default: all; a "
                        "client's reset(task=...) picks one)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address the server listens on (default 127.0.0.1)")
    p.add_argument("--port", type=port_number, default=8000,
                   help="port the server listens on (default 8000)")
    p.add_argument("--max-sessions", type=positive_int, default=None,
                   help="most WebSocket sessions at once (default 8; 1 with --real)")
    p.add_argument("--idle-timeout", type=positive_seconds, default=300.0,
                   help="close a session whose client sent nothing this many seconds "
                        "(default 300)")
    add_access_flags(p, "the server")
    p.add_argument("--adb-host", default="127.0.0.1",
                   help="adb server host (with --real, default 127.0.0.1)")
    p.add_argument("--adb-port", type=port_number, default=5037,
                   help="adb server port (with --real, default 5037)")
    p.add_argument("--serial", default=None,
                   help="phone serial (with --real; default: the only phone attached)")
    p.set_defaults(func=cmd_serve)
    from .trainer.cli import add_commands  # collect, train sft|grpo (torch loads on use)

    add_commands(sub, parents)
    from .bench.cli import add_commands as add_bench  # bench run|compare|report

    add_bench(sub, parents)
    from .reconstruct.cli import add_commands as add_reconstruct  # record, reconstruct

    add_reconstruct(sub, parents)
    return parser


def describe_error(exc: BaseException) -> tuple[int, str]:
    """The exit status and the one-line message of an error a command raised."""
    from gymnasium import error as gym_error

    from .verifiers.state import DeviceError
    if isinstance(exc, KeyboardInterrupt):
        return 130, "interrupted"
    if isinstance(exc, ImportError):
        text = str(exc)
        if "pip install" in text:
            return 1, text
        if exc.name in EXTRAS or (exc.name or "").split(".")[0] in EXTRAS:
            module = (exc.name or "").split(".")[0]
            return 1, (f"{module} is not installed: pip install \"phone-gym[{EXTRAS[module]}]\" "
                       f"(in a checkout: pip install -e \".[{EXTRAS[module]}]\")")
        return 1, f"{text} (a broken install? reinstall phone-gym)"
    if isinstance(exc, DeviceError):
        return 1, str(exc)
    if isinstance(exc, (gym_error.UnregisteredEnv, gym_error.DeprecatedEnv)):  # a config's env
        return 2, (f"{str(exc).rstrip('.')}: use one of phone-gym's env ids, PhoneWorld-v0, "
                   "PhoneWorld-<task id>-v0 or RealPhone-v0")
    if isinstance(exc, ValueError):  # bad arguments or config (ConfigError too)
        return 2, str(exc)
    if isinstance(exc, OSError):
        if exc.filename is not None:
            return 1, (f"{exc.filename}: {exc.strerror or exc}: check the path (a folder "
                       "you may write to, for --out)")
        return 1, str(exc)
    return 1, (f"unexpected {type(exc).__name__}: {exc} (run again with --debug for the "
               "traceback, and report it)")


def _show_warning(message: Warning | str, category: type[Warning], filename: str,
                  lineno: int, file: Any = None, line: str | None = None) -> None:
    print(f"phone-gym: warning: {message}", file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    try:
        from .reconstruct.cli import import_argv

        args = build_parser().parse_args(
            import_argv(list(sys.argv[1:] if argv is None else argv)))
    except SystemExit as exc:  # --help, --version, usage errors (argparse printed them)
        return exc.code if isinstance(exc.code, int) else 2
    debug = bool(getattr(args, "debug", False))
    with warnings.catch_warnings():
        if not debug:
            warnings.showwarning = _show_warning
        try:
            return int(args.func(args))
        except (Exception, KeyboardInterrupt) as exc:
            code, message = describe_error(exc)
            if debug:
                traceback.print_exc()
            print(f"phone-gym: {' '.join(message.split())}", file=sys.stderr)
            return code


if __name__ == "__main__":
    raise SystemExit(main())
