"""Movie Tickets: a mini-program in Chat (WeChat): its manifest, the app, its tasks and, in
``fixtures``, what other tasks use to seed films, cinemas, showtimes and tickets."""

from __future__ import annotations

from .app import MovieApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = MovieApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "MovieApp"]
