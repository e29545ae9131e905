"""WeChat Browser: the in-app web view of Chat (WeChat), where links in chats open (a
mini-program-style app hosted by Chat): its manifest, the app, its tasks and, in
``fixtures``, what other tasks use to seed pages and the link messages that open them."""

from __future__ import annotations

from .app import WebViewApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = WebViewApp

__all__ = ["APP", "MANIFEST", "TEMPLATES", "WebViewApp"]
