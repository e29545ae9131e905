"""Importers of public phone GUI-trace datasets into ``phone-gym record``'s trace format
(``reconstruct/trace.py``): one trace folder per episode, with ``info.json`` (the dataset,
the episode id, the goal) beside ``trace.jsonl``, ``dumps/`` and ``frames/``. Actions become
phone-gym actions on the ``[0, 1000]`` grid; a dataset's action that has no phone-gym
counterpart is left out (the step's ``action`` is ``null``, as for an action the recorder
could not infer) and counted in the returned ``Tally``.

``phone-gym reconstruct import --format F SRC OUT`` runs them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the importers load when a command runs
    from ._writer import Tally

__all__ = ["FORMATS", "import_traces"]

#: Format name -> (module, function, what SRC is).
FORMATS: dict[str, tuple[str, str, str]] = {
    "android_control": ("android_control", "import_android_control",
                        "AndroidControl's TFRecord files (android_control-*) or their folder"),
    "aitw": ("aitw", "import_aitw", "Android in the Wild's TFRecord files or their folder"),
    "gui_odyssey": ("gui_odyssey", "import_gui_odyssey",
                    "GUI-Odyssey's root folder (annotations/, screenshots/)"),
    "androidworld": ("androidworld", "import_androidworld",
                     "AndroidWorld's checkpoint folder (<task>.pkl.gz episode pickles) or "
                     "one such file"),
}


def import_traces(fmt: str, src: str | Path, out: str | Path, *,
                  limit: int | None = None) -> Tally:
    """Import dataset ``src`` of format ``fmt`` (a ``FORMATS`` key) as trace folders under
    ``out``; at most ``limit`` episodes."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; accepted: {', '.join(FORMATS)}")
    if not Path(src).exists():
        raise ValueError(f"{src}: no such file or folder; pass {FORMATS[fmt][2]}")
    from importlib import import_module

    module, name, _ = FORMATS[fmt]
    run: Callable[..., Tally] = getattr(import_module(f"{__name__}.{module}"), name)
    return run(src, out, limit=limit)
