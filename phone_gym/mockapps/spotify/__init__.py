"""Spotify: music streaming (its manifest, the app and its tasks; ``fixtures`` seeds a
catalog for other apps' tasks)."""

from __future__ import annotations

from .app import SpotifyApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = SpotifyApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "SpotifyApp"]
