"""Parcel Delivery: a mini-program in Chat (WeChat): its manifest, the app, its tasks and,
in ``fixtures``, what other tasks use to seed couriers, contacts and parcels."""

from __future__ import annotations

from .app import ParcelApp
from .manifest import MANIFEST
from .tasks import TEMPLATES

APP = ParcelApp

__all__ = ["APP", "MANIFEST", "ParcelApp", "TEMPLATES"]
