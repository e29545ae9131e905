"""Chat (WeChat): the chat super-app that hosts mini-programs (see ``world.app``,
"Mini-programs"): its manifest, the app, its tasks and, in ``fixtures``, what other tasks use
to seed chats, friends, Moments and the wallet."""

from __future__ import annotations

from .app import ChatApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = ChatApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "ChatApp"]
