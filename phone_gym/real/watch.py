"""What a real-device task's snapshots watch, derived from its apps' manifests.

A task's collateral-damage check sees only what its snapshots read. Unless a template sets
``watch`` itself, ``task_watch`` derives it (``watch_for``) from the manifests of the apps the
task names (``AppManifest.owns`` and ``reads``):

- settings: every key of ``WATCHED_SETTINGS`` (the notification shade's quick settings reach
  them from any app); when an app owns or reads ``settings``, also every setting PhoneWorld
  keeps (``world.system.default_settings``: all the keys its Settings app changes, and more);
- every record of every store the apps own or read: contacts (name, starred, phone number
  and email of every contact: every field PhoneWorld's contacts have), alarms (every alarm,
  on or off, with its label), messages, calls, events, notifications, accounts; files: every
  folder of shared storage a Files app shows (``SHARED_DIRS``), and the folders the apps
  keep their own files in (``AppManifest.folders``: Markor's notes);
- for every task, as before (cheap, and opening nothing): contacts and the ``WATCHED_DIRS``
  folders;
- a store the phone cannot read (``Unsupported``: wallet, clipboard over adb) is recorded in
  ``Watch.skipped`` with the reason, and not read;
- settings the system changes by itself (``SYSTEM_DRIVEN``: ``screen_brightness``, which
  adaptive brightness rewrites, on Pixels by default) are watched only by a task that sets
  that very key (the brightness tasks, whose setup switches adaptive brightness off).

Alarms are watched only for tasks whose apps own or read them: reading them over adb opens
the clock's alarm list (``AdbState.alarms``), which a task about the Settings app should not
do at every snapshot.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..verifiers.state import SHARED_DIRS, WATCHED_DIRS, WATCHED_SETTINGS, Watch
from ..world.manifest import AppManifest
from ..world.system import default_settings
from .state import ADB_STORES, PHONEWORLD_ONLY

#: Every setting PhoneWorld keeps (``namespace``, ``key``): what a task whose apps own or read
#: the settings store watches.
PHONE_SETTINGS: tuple[tuple[str, str], ...] = tuple(
    (namespace, key) for namespace, values in default_settings().items() for key in values)
#: The stores read for every task: cheap, and opened from no app.
ALWAYS_WATCHED = ("contacts",)
#: Settings the system rewrites by itself (``DisplayPowerController`` writes the automatic
#: brightness back to ``screen_brightness``): a change there is not the agent's doing.
SYSTEM_DRIVEN: frozenset[tuple[str, str]] = frozenset({("system", "screen_brightness")})


def explicit_watch(task: object) -> bool:
    """Whether ``task`` (or its class, or a base class below the one that declares the
    default) sets ``watch`` itself."""
    if "watch" in vars(task):
        return True
    owners = [c for c in type(task).__mro__ if "watch" in vars(c)]
    return len(owners) > 1


def app_stores(apps: Iterable[str], manifests: Iterable[AppManifest]) -> tuple[str, ...]:
    """The stores the apps named ``apps`` own or read (by name, label, package or alias)."""
    wanted = set(apps)
    stores: list[str] = []
    for manifest in manifests:
        if wanted & set(manifest.names()):
            stores += [*manifest.owns, *manifest.reads]
    return tuple(dict.fromkeys(stores))


def app_folders(apps: Iterable[str], manifests: Iterable[AppManifest]) -> tuple[str, ...]:
    """The shared-storage folders the apps named ``apps`` keep their files in (their
    manifests' ``folders``: Markor's notes folders)."""
    wanted = set(apps)
    return tuple(dict.fromkeys(f for m in manifests if wanted & set(m.names())
                               for f in m.folders))


def watch_for(task: Any, manifests: Iterable[AppManifest],
              readable: Iterable[str] = ADB_STORES) -> Watch:
    """The watch derived from the apps ``task.apps`` names (see the module doc);
    ``readable`` are the stores the phone can read (``DeviceState.stores()``)."""
    readable = frozenset(readable)
    stores = app_stores(task.apps, manifests)
    own = (getattr(task, "namespace", None), getattr(task, "key", None))
    settings = [s for s in (*WATCHED_SETTINGS, *(PHONE_SETTINGS if "settings" in stores else ()))
                if s not in SYSTEM_DRIVEN or s == own]
    wanted = [s for s in (*ALWAYS_WATCHED, *stores, "files") if s != "settings"]
    skipped = [(s, unreadable(s)) for s in wanted if s not in readable]
    dirs = [*WATCHED_DIRS, *(SHARED_DIRS if "files" in stores else ()),
            *app_folders(task.apps, manifests)]
    return Watch.for_stores([s for s in wanted if s in readable], settings=settings,
                            dirs=sorted(dict.fromkeys(dirs)), skipped=skipped)


def unreadable(store: str) -> str:
    """Why a phone over adb cannot read ``store``."""
    return PHONEWORLD_ONLY.get(store, "no shell command reads it")


def task_watch(task: Any, manifests: Iterable[AppManifest],
               readable: Iterable[str] = ADB_STORES) -> Watch:
    """What ``task``'s snapshots watch: its own ``watch`` when the template sets one, else
    ``watch_for``."""
    watch: Watch = task.watch
    return watch if explicit_watch(task) else watch_for(task, manifests, readable)


def describe_watch(watch: Watch) -> str:
    """What ``watch`` reads of a phone over adb, in one line of Markdown (``<br>`` between
    parts): settings keys, stores and folders, with the commands that read them."""
    parts: list[str] = []
    by_namespace: dict[str, list[str]] = {}
    for namespace, key in watch.settings:
        by_namespace.setdefault(namespace, []).append(key)
    parts.append("settings (`settings get`): " + "; ".join(
        f"{ns}: {', '.join(keys)}" for ns, keys in by_namespace.items()))
    for store in watch.store_names():
        parts.append(f"{store}: {STORE_READS.get(store, 'every record')}")
    if watch.dirs:
        folders = ", ".join(d.removeprefix("/sdcard") or "/" for d in watch.dirs)
        parts.append(f"files (sync list and pull, sha1 of each file) in /sdcard: {folders}")
    for store, reason in watch.skipped:
        parts.append(f"not read: {store} ({reason})")
    return "<br>".join(parts)


#: How ``AdbState`` reads each store, for ``describe_watch``.
STORE_READS: dict[str, str] = {
    "contacts": "name, starred, first phone number and first email of every contact "
                "(`content query` of content://com.android.contacts/contacts, data/phones, "
                "data/emails)",
    "alarms": "every alarm, on or off, with its label (`am start -a "
              "android.intent.action.SHOW_ALARMS`, `uiautomator dump` + `cat` of the clock's "
              "alarm list, `input swipe` through it, then home)",
    "messages": "every SMS (`content query` of content://sms)",
    "calls": "every call-log entry (`content query` of content://call_log/calls)",
    "events": "every calendar event (`content query` of content://com.android.calendar/events)",
    "notifications": "every posted notification (`dumpsys notification --noredact`)",
    "accounts": "every account (`dumpsys account`)",
}
