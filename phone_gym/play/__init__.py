"""``phone-gym play``: a local web page to play a task by hand (PhoneWorld, or a phone or the
virtual device over adb), record every episode in the trainer's trajectory format (what
``phone-gym collect`` writes and ``phone-gym train sft`` reads) and replay recorded episodes.

``session`` holds the env and the recorder (no web server needed); ``server`` is the
aiohttp application (the ``play`` extra) and ``static/`` the page, plain HTML and JavaScript.
"""

from __future__ import annotations

from .session import EpisodePlan, PlaySession, list_recorded, recorded_steps

__all__ = ["EpisodePlan", "PlaySession", "list_recorded", "recorded_steps"]
