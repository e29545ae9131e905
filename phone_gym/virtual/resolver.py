"""Implicit intents on the virtual phone: which apps answer one, as Android's PackageManager
resolves it from the apps' manifests, and the resolver dialog Android shows when several do.

``matches`` is ``IntentFilter.match`` over what an ``AppManifest`` declares: ``intents`` are
the actions of its filters, ``deep_links`` the URI prefixes of its data filters (a data
filter answers ``VIEW``, as a deep link does, and the manifest's own actions: Phone's
``tel:`` answers ``VIEW`` and ``DIAL``, Messages' ``smsto:`` answers ``SENDTO``):

- an intent with data matches an app one of whose deep links it starts with, for ``VIEW``
  (or no action: ``IntentFilter.match`` skips a null action) or an action the app declares;
- an intent with a type but no data matches the apps that declare a share action (``SEND``,
  ``SEND_MULTIPLE``), whose filters name MIME types (``text/*``, ``image/*``: what
  PhoneWorld's apps share); without a type no share filter matches (``NO_MATCH_TYPE``);
- an intent without either matches the apps that declare its action, except ``SENDTO``,
  whose filters name a scheme (``NO_MATCH_DATA``);
- every category of the intent must be one the filter has: ``DEFAULT`` (``startActivity``
  resolves with ``MATCH_DEFAULT_ONLY``), and ``BROWSABLE`` for a deep link.

``candidates`` lists the matching apps in the resolver's order (by label: no usage is
recorded to rank them). One is started at once; with several, ``am start`` starts
``ResolverActivity`` (``Resolver``): AOSP's dialog (``resolver_list.xml``) titled by the
action (``ResolverActivity.ActionTitle``: "Open with", "Share", "Send using", "Edit with",
"Complete action using"), one row per app (``android:id/text1``), and the buttons "Just
once" (``android:id/button_once``) and "Always" (``android:id/button_always``), enabled once
a row is picked. As ``ResolverActivity.onItemClick`` does, a first tap picks a row and a
second tap on it starts the app once; "Always" also makes it the preferred app for that
action and scheme (or type), which later intents go to without asking (until a factory
reset). Back, home, recents or anything else coming to the front closes the dialog
(``ResolverActivity`` finishes when it stops).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ..world import theme as T
from ..world.manifest import AppManifest
from ..world.manifest import Intent as DeviceIntent

if TYPE_CHECKING:
    from .overlays import Cover, Node
    from .phone import VirtualPhone

VIEW = "android.intent.action.VIEW"
MAIN = "android.intent.action.MAIN"
SEND, SEND_MULTIPLE = "android.intent.action.SEND", "android.intent.action.SEND_MULTIPLE"
SENDTO = "android.intent.action.SENDTO"
DEFAULT = "android.intent.category.DEFAULT"
BROWSABLE = "android.intent.category.BROWSABLE"
#: Share actions: their filters name MIME types.
TYPED = frozenset({SEND, SEND_MULTIPLE})
#: Actions whose filters name a scheme.
SCHEMED = frozenset({SENDTO})
PACKAGE = "android"  # ResolverActivity lives in the framework
SYSTEM_UID = 1000
NEW_TASK = "0x10000000"  # Intent.FLAG_ACTIVITY_NEW_TASK
ACTIVITY = "com.android.internal.app.ResolverActivity"
#: ``ResolverActivity.ActionTitle``: the dialog's title by action.
TITLES = {VIEW: "Open with", "android.intent.action.EDIT": "Edit with", SEND: "Share",
          SEND_MULTIPLE: "Share", SENDTO: "Send using"}
DEFAULT_TITLE = "Complete action using"
W, H = T.SCREEN_W, T.SCREEN_H
ROW_H = 150
#: ``Intent.toShortString`` of the intent with these flags and component.
Describe = Callable[[str, str], str]


class Launchable(Protocol):
    """What the resolver reads of an app class (an ``App`` subclass or its handle)."""

    manifest: AppManifest

    @property
    def package(self) -> str: ...


def matches(manifest: AppManifest, action: str | None, data: str | None, mime: str | None,
            categories: list[str]) -> bool:
    """Whether one of ``manifest``'s filters matches the intent (see the module doc)."""
    allowed = {DEFAULT, BROWSABLE} if data else {DEFAULT}
    if not set(categories) <= allowed:
        return False
    if data:
        return manifest.links(data) and (action in (None, VIEW, MAIN)
                                         or manifest.answers(action))
    if action is None:
        return False
    if mime:
        return action in TYPED and manifest.answers(action)
    return action not in TYPED | SCHEMED and manifest.answers(action)


def candidates(phone: VirtualPhone, action: str | None, data: str | None, mime: str | None,
               categories: list[str]) -> list[Launchable]:
    """The installed apps whose manifests answer the intent, in the resolver's order."""
    found: list[Launchable] = [c for c in phone.device.app_classes
                               if not c.manifest.mini_program
                               and matches(c.manifest, action, data, mime, categories)]
    return sorted(found, key=lambda c: c.manifest.label.casefold())


def preference_key(action: str | None, data: str | None, mime: str | None) -> tuple[str, str]:
    """What an "Always" answer is remembered for: the action and the data's scheme (or the
    type's), as a preferred activity's filter holds them."""
    kind = data.partition(":")[0].lower() if data else (mime or "").partition("/")[0]
    return action or VIEW, kind


@dataclass
class Choice:
    """The dialog showing: the intent, the packages offered, the row picked, and what was
    in front when it opened."""

    action: str | None
    data: str | None
    mime: str | None
    extras: dict[str, Any]
    categories: list[str]
    packages: list[str]
    describe: Describe  # for the log
    front: str | None
    picked: int | None = None
    labels: list[str] = field(default_factory=list)


class Resolver:
    """``ResolverActivity`` on one phone (see the module doc)."""

    def __init__(self, phone: VirtualPhone) -> None:
        self.phone = phone
        self.choice: Choice | None = None
        #: "Always" answers: (action, scheme or type) -> package.
        self.preferred: dict[tuple[str, str], str] = {}

    def open(self, choice: Choice) -> None:
        self.choice = choice
        choice.labels = [self.phone.device.apps.class_of(p).manifest.label  # type: ignore[union-attr]
                         for p in choice.packages]

    def dismiss(self) -> None:
        self.choice = None

    def showing(self) -> Choice | None:
        """The dialog, unless something else came to the front since it opened."""
        choice = self.choice
        if choice is not None and self.phone.overlays.foreground() != choice.front:
            self.choice = choice = None
        return choice

    def cover(self) -> Cover | None:
        """The dialog as a cover (``overlays``), or None."""
        from .overlays import Cover, Node

        choice = self.showing()
        if choice is None:
            return None
        n = len(choice.packages)
        buttons_top = H - 220
        top = buttons_top - 40 - n * ROW_H - 140
        button = "android.widget.Button"
        nodes = [Node(TITLES.get(choice.action or VIEW, DEFAULT_TITLE), "android:id/title",
                      (80, top, W - 80, top + 120))]
        for k, label in enumerate(choice.labels):
            y = top + 140 + k * ROW_H
            nodes.append(Node(label, "android:id/text1", (80, y, W - 80, y + ROW_H - 10), True,
                              "android.widget.TextView", checkable=True,
                              checked=k == choice.picked))
        picked = choice.picked is not None
        nodes += [Node("Just once", "android:id/button_once",
                       (120, buttons_top, 520, buttons_top + 130), True, button, enabled=picked),
                  Node("Always", "android:id/button_always",
                       (560, buttons_top, 960, buttons_top + 130), True, button, enabled=picked)]
        return Cover("resolver", PACKAGE, f"{PACKAGE}/{ACTIVITY}", tuple(nodes), None, dim=True)

    def press(self, node: Node) -> None:
        """A tap on a node of the dialog (a node without an id: back)."""
        choice = self.showing()
        if choice is None:
            return
        button = node.rid.rsplit("/", 1)[-1] if node.rid else "back"
        if button == "back":
            self.dismiss()
        elif button == "text1":
            k = choice.labels.index(node.text)
            if choice.picked == k:
                self.launch(choice, k)
            else:
                choice.picked = k
        elif button in ("button_once", "button_always") and choice.picked is not None:
            if button == "button_always":
                key = preference_key(choice.action, choice.data, choice.mime)
                self.preferred[key] = choice.packages[choice.picked]
            self.launch(choice, choice.picked)
        self.phone.device.invalidate()

    def launch(self, choice: Choice, k: int) -> None:
        """Start the chosen app with the intent (``ResolverActivity.safelyStartActivity``,
        as the system: uid 1000)."""
        self.dismiss()
        package = choice.packages[k]
        start(self.phone, choice.action, package, choice.data, choice.extras,
              choice.categories, choice.describe, uid=SYSTEM_UID)


def start(phone: VirtualPhone, action: str | None, package: str, data: str | None,
          extras: dict[str, Any], categories: list[str], describe: Describe, *,
          uid: int) -> None:
    """Deliver a resolved intent to ``package`` (``Device.start_intent``: its deep link or
    its ``handle_intent``), logging the start (``am start`` adds ``FLAG_ACTIVITY_NEW_TASK``)."""
    phone.logd.started(describe(NEW_TASK, f"{package}/.MainActivity"), package,
                       f"{package}.MainActivity", uid=uid)
    phone.device.start_intent(DeviceIntent(action or VIEW, package, data, dict(extras),
                                           tuple(categories)))
