"""Record traces from a phone and rebuild a PhoneWorld app from them (issues 17 and 32).

``recorder`` (``phone-gym record --real``): screenshots, UI dumps, the app in front and the
actions (given or inferred) over adb; ``trace``: the trace format; ``build`` (``phone-gym
reconstruct``): screens, links and list records into an app package; ``fidelity``: replays
the traces in the rebuilt app and reports what matches and what is still static; ``loop``:
the closed loop on held-out traces; ``screens``: held-out screens beside the rebuilt ones.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

__all__ = ["reconstruct"]


def reconstruct(traces: Iterable[str | Path], out: str | Path, *, package: str | None = None,
                name: str | None = None, label: str | None = None,
                app_package: str | None = None) -> dict[str, Any]:
    """Rebuild an app from trace folders into ``out``; replay the traces in it; write
    ``fidelity.json`` and ``fidelity.md`` beside its ``pyproject.toml``. Returns the report
    (with ``"folder"``: the app folder)."""
    from .build import build_model, write_package
    from .fidelity import load_app, report, write_report
    from .trace import load_traces

    loaded = load_traces(traces)
    model = build_model(loaded, package=package, name=name, label=label,
                        app_package=app_package)
    folder = write_package(model, loaded, out)
    module = load_app(folder)
    rep = report(model, loaded, module.APP)
    write_report(rep, Path(out))
    rep["folder"] = str(folder)
    return rep
