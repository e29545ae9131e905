"""The closed loop of issue 32: record PhoneWorld apps through the virtual device, rebuild
them from some traces, and replay the others in the rebuilt app.

``record_episodes`` plays task oracles (through ``RealPhoneEnv`` on a ``LocalBackend``
virtual phone, or, for PhoneWorld-only templates, in ``PhoneWorldEnv`` with its device
behind a ``VirtualPhone``) while a ``Recorder`` records the phone over the same shell
commands a phone gets after each action; ``closed_loop`` rebuilds the app from the training
traces and replays the held-out ones (``fidelity.heldout``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["record_episodes", "closed_loop", "write_heldout_md", "APPS"]

#: Seven PhoneWorld apps of different kinds and the tasks recorded on each: (train episodes,
#: held-out episodes) as ``"Template:seed"``; held-out episodes are other seeds of the
#: templates trained on (other records, other text typed, other rows opened).
APPS: dict[str, tuple[list[str], list[str]]] = {
    "contacts (list and form)": (
        ["ContactsCreate:0", "ContactsCreate:1", "ContactsDelete:0", "ContactsLookupPhone:0"],
        ["ContactsCreate:2", "ContactsDelete:1", "ContactsLookupPhone:1"]),
    "markor (notes: list and form)": (
        ["MarkorCreateNote:0", "MarkorDeleteNote:0", "MarkorEditNote:0"],
        ["MarkorCreateNote:1", "MarkorDeleteNote:1", "MarkorEditNote:1"]),
    "simple sms (chat)": (
        ["SimpleSmsSend:0", "SimpleSmsReply:0"], ["SimpleSmsSend:1", "SimpleSmsReply:1"]),
    "settings (switches)": (
        ["SettingsWifiOff:0", "SettingsBluetoothOn:0", "SettingsDarkThemeOn:0",
         "SettingsAirplaneModeOn:0", "SettingsDoNotDisturbOn:0"],
        ["SettingsWifiOn:1", "SettingsBluetoothOff:1", "SettingsWifiOff:2"]),
    "clock (alarms)": (
        ["ClockCreateAlarm:0", "ClockDeleteAlarm:0"], ["ClockCreateAlarm:1", "ClockDeleteAlarm:1"]),
    "vlc (media: playlists)": (
        ["VlcCreatePlaylist:0", "VlcCreatePlaylist:1", "VlcCreateTwoPlaylists:0"],
        ["VlcCreatePlaylist:2", "VlcCreateTwoPlaylists:1"]),
    "ridemini (mini-program: rides)": (
        ["RideMiniCancelCurrent:0", "RideMiniCancelScheduled:0", "RideMiniLastTripPrice:0",
         "RideMiniRebookLast:0"],
        ["RideMiniCancelCurrent:1", "RideMiniCancelScheduled:1", "RideMiniLastTripPrice:1",
         "RideMiniRebookLast:1"]),
}


def _episode(spec: str) -> tuple[str, int]:
    task, _, seed = spec.partition(":")
    if not task or not seed.isdigit():
        raise ValueError(f"episode {spec!r}: write Template:seed, e.g. ContactsCreate:0")
    return task, int(seed)


def record_episodes(episodes: Sequence[str], out: str | Path, *, in_process: bool | None = None,
                    frames: bool = False) -> list[Path]:
    """One trace folder per episode (``Template:seed``) under ``out``: the task's oracle
    played, recorded after each action (given).

    A template that runs on a phone (``real``) is played through ``RealPhoneEnv`` on a
    virtual phone over its adb shell; the others (PhoneWorld only: a media app, a
    mini-program) in ``PhoneWorldEnv``, whose device sits behind a ``VirtualPhone``'s shell,
    so the recorder reads what a phone gives either way (``uiautomator dump``, ``dumpsys
    window``, ``screencap`` with ``frames``). ``in_process`` forces one path (None: by
    template)."""
    from ..mockapps import TEMPLATES

    eps = [_episode(e) for e in episodes]
    if not eps:
        raise ValueError("no episodes: pass Template:seed, e.g. ContactsCreate:0")
    unknown = [t for t, _ in eps if t not in TEMPLATES]
    if unknown:
        raise ValueError(f"unknown templates {unknown}: accepted: template ids (run "
                         "`phone-gym tasks`)")
    folders: list[Path] = []
    over_adb = [(t, s) for t, s in eps
                if not (in_process if in_process is not None else not TEMPLATES[t].real)]
    if over_adb:
        folders += _record_over_adb(over_adb, Path(out), frames)
    for task, seed in eps:
        if (task, seed) not in over_adb:
            folders.append(_record_in_process(task, seed, Path(out), frames))
    order = {f"{t}_{s}": i for i, (t, s) in enumerate(eps)}
    return sorted(folders, key=lambda f: order[f.name])


def _record_over_adb(eps: Sequence[tuple[str, int]], out: Path, frames: bool) -> list[Path]:
    from ..envs.real_phone import RealPhoneEnv
    from ..real.guard import SafetyGuard
    from ..virtual import VirtualPhone
    from ..virtual.local import LocalBackend
    from .recorder import Recorder

    backend = LocalBackend(VirtualPhone("loop"))
    # a virtual phone: no one is reached, so messaging apps may run
    env = RealPhoneEnv(task=eps[0][0], backend=backend, settle=0.0, timeout=5.0,
                       guard=SafetyGuard(allow_sensitive={"messaging"}))
    folders: list[Path] = []
    try:
        for task, seed in eps:
            env.reset(seed=seed, options={"task": task})
            folder = out / f"{task}_{seed}"
            rec = Recorder(backend, folder, frames=frames)
            rec.capture()
            done = False
            while not done:
                action = env.oracle_action()
                _, _, terminated, truncated, _ = env.step(action)
                done = terminated or truncated
                if action.type not in ("answer", "finish"):
                    rec.capture(action)
            folders.append(folder)
    finally:
        env.close()
    return folders


def _record_in_process(task: str, seed: int, out: Path, frames: bool) -> Path:
    """The oracle played in ``PhoneWorldEnv``; a ``Recorder`` reads its device through a
    ``VirtualPhone`` wrapped around it (``LocalBackend``: the shell commands a phone gets)."""
    from ..envs.phone_world import PhoneWorldEnv
    from ..virtual import VirtualPhone
    from ..virtual.local import LocalBackend
    from .recorder import Recorder

    env = PhoneWorldEnv(task=task, screenshot=False)
    env.reset(seed=seed, options={"task": task})
    folder = out / f"{task}_{seed}"
    rec = Recorder(LocalBackend(VirtualPhone("loop", device=env.device)), folder, frames=frames)
    rec.capture()
    done = False
    while not done:
        action = env.oracle_action()
        _, _, terminated, truncated, _ = env.step(action)
        done = terminated or truncated
        if action.type not in ("answer", "finish"):
            rec.capture(action)
    env.close()
    return folder


def closed_loop(train: Sequence[str | Path], held: Sequence[str | Path], out: str | Path,
                *, screens: int = 0) -> dict[str, Any]:
    """Rebuild from ``train`` traces into ``out``; replay ``held`` in it. The figures:
    transitions reached, mean element IoU and text overlap, state-change agreement, and the
    recovered state (forms, deletes, toggles). ``out/fidelity.md`` shows them and, with
    ``screens`` and held-out traces recorded with frames, up to that many held-out screens
    beside the rebuilt ones (``screens.Shots``, under ``out/heldout/``)."""
    from .build import build_model, write_package
    from .fidelity import heldout, load_app
    from .model import infer_state
    from .screens import Shots, frame_paths, pick_steps, trace_folders
    from .trace import load_traces

    if screens < 0:
        raise ValueError(f"screens={screens}: pass a number of held-out screens >= 0")
    tr = load_traces(train)
    model = build_model(tr)
    folder = write_package(model, tr, out)
    module = load_app(folder)
    held_traces = [t for t in load_traces(held)
                   if any(s.package == model.package for s in t.steps)]
    folders = trace_folders(held)
    frames = {t.name: frame_paths(folders[t.name]) for t in held_traces if t.name in folders}
    shots = Shots(pick_steps(model, held_traces, frames, screens), frames,
                  Path(out) / "heldout")
    rep = heldout(model, held_traces, module.APP, snap=shots)
    state = infer_state(model, tr)
    rep["recovered"] = {"forms": len(state.forms), "deletes": len(state.deletes),
                        "toggles": sum(map(len, state.toggles.values())),
                        "sets": len(state.sets),
                        "changes": sorted({c.kind for c in state.changes})}
    rep["folder"] = str(folder)
    rep["screens"] = [dict(s, path=str(s["path"])) for s in shots.written]
    write_heldout_md(rep, model.label, shots.written if screens else None, Path(out))
    return rep


def write_heldout_md(rep: dict[str, Any], label: str, shots: Sequence[dict[str, Any]] | None,
                     folder: Path) -> Path:
    """``folder/fidelity.md``: the held-out figures of ``rep`` (``closed_loop``) and, unless
    ``shots`` is None, the held-out screens section (``screens.section``)."""
    from .screens import section

    lines = [f"# Held-out fidelity of the rebuilt {label}", "",
             f"- **transitions reached: {rep['reached']}/{rep['transitions']} "
             f"({rep['rate']:.1%})** (held-out traces replayed in the rebuilt app)",
             f"- mean element-box IoU {rep['mean_iou']:.3f}, mean text overlap "
             f"{rep['mean_text_overlap']:.3f}",
             f"- state changes agreeing: {rep['changes_agreeing']}/{rep['changes']}", ""]
    if shots is not None:
        lines += section(shots, folder)
    missed = [s for s in rep["steps"] if not s["ok"]]
    if missed:
        lines += ["## Held-out steps not reached", ""]
        lines += [f"- {s['trace']} step {s['step']}: {s['action']} (text overlap "
                  f"{s['text_overlap']}{'; ' + s['error'] if s['error'] else ''})"
                  for s in missed[:30]]
    md = folder / "fidelity.md"
    md.write_text("\n".join(lines).rstrip() + "\n", encoding="utf-8")
    return md
