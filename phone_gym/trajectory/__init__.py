"""The trajectory format that bench, play, reconstruct, ``collect`` and the trainer share:
``records`` (``StepRecord``: one step as recorded, ``Episode``), ``format`` (the
``steps.jsonl`` file: a format line, the steps, an end line per episode; atomic appends,
one error naming file and line for a malformed file, paths kept inside the folder) and
``store`` (trajectory folders: ``export_episodes`` writes episodes with their PNG frames,
``load_episodes`` reads them back)."""

from __future__ import annotations

from .format import TrajectoryError, TrajectoryWarning
from .records import Episode, StepRecord
from .store import STEPS_FILE, export_episodes, load_episodes

__all__ = ["STEPS_FILE", "Episode", "StepRecord", "TrajectoryError", "TrajectoryWarning",
           "export_episodes", "load_episodes"]
