"""Public fixtures of the WeChat Browser: pages (articles, event sign-ups, surveys, coupon
campaigns) and the link messages in Chat that open them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...tasks.task import data_catalogue
from ...verifiers import Matcher, normalize_text
from ...world.locale import DEFAULT_LOCALE
from ..chat.fixtures import Chat, Msg, say
from .app import Page, WebViewApp

PAGES = "apps.WebView.pages"
SUBMISSIONS = "apps.WebView.submissions"
COUPONS = "apps.WebView.coupons"

EVENTS = ("Riverside Night Run", "Spring Photography Walk", "Open Day at the Science Museum",
          "Community Tree Planting", "Jazz in the Park", "Start-up Pitch Evening",
          "Lantern Making Workshop", "Charity Book Fair")
SESSIONS = ("09:00", "10:30", "13:00", "14:30", "16:00", "18:30")
TOPICS = (("City Library Reopens After Renovation", "library", "reading seats"),
          ("New Metro Line 9 Starts Service", "metro line", "stations"),
          ("Harbor Aquarium Adds a Shark Tunnel", "aquarium", "species"),
          ("Old Town Market Gets a Night Food Street", "food street", "stalls"),
          ("Mountain Trail Park Opens to Hikers", "trail park", "marked trails"))
SHOPS = ("Luckin Coffee", "HeyTea", "Wallace Burgers", "Dicos", "Pizza Hut", "Mixue")
STRANGERS = ("Lucky Draw Center", "Prize Office 88", "WeChat Rewards Team", "Gift Desk")


#: The seeded data in zh-CN (``strings/zh-CN.data.json``: pages' words, events, places,
#: shops, articles); names and groups are WeChat's (``chat.fixtures.DATA``).
DATA: dict[str, Any] = {"zh-CN": data_catalogue(__file__, "zh-CN")}


def datum(locale: str, text: str, **fields: object) -> str:
    """A seeded text in ``locale`` (a format of ``fields`` when given)."""
    shown = text if locale == DEFAULT_LOCALE else str(DATA[locale][text])
    return shown.format(**fields) if fields else shown


def web_app(state: Any) -> WebViewApp:
    app = state.app("WebView")
    assert isinstance(app, WebViewApp)
    return app


def add_page(state: Any, url: str, title: str, body: str, **more: Any) -> Page:
    """A page at ``url`` (see ``Page`` for ``form``, ``fields``, ``next``, ``coupons``,
    ``slow``)."""
    return web_app(state).data.pages.new(url=url, title=title, body=body, **{
        "form": "", "fields": (), "submit": "Submit", "next": "", "coupons": (), "slow": False,
        **more})


def share_link(state: Any, chat: Chat, sender: str, page: Page, time: str = "10:20") -> Msg:
    """A link message in ``chat`` from ``sender`` that opens ``page``."""
    return say(state, chat, sender, page.title, "link", time=time, content=page.url)


def answers_are(expected: Mapping[str, Any]) -> Matcher:
    """Matches a submission's ``answers`` (key/value pairs) holding each expected value
    (a literal compared as text, or a matcher) under its key."""
    def test(value: Any) -> bool:
        try:
            got = {str(k): str(v) for k, v in value}
        except (TypeError, ValueError):
            return False
        for key, want in expected.items():
            if key not in got:
                return False
            ok = want(got[key]) if callable(want) else (
                normalize_text(got[key]) == normalize_text(want))
            if not ok:
                return False
        return True
    return Matcher(test, f"answers {dict(expected)!r}")


def event_body(event: str, place: str, day: str, sessions: Sequence[str],
               schedule_url: str = "", locale: str = DEFAULT_LOCALE) -> str:
    """An event page's markup, in ``locale``'s words."""
    lines = [f"# {event}", "", datum(locale, "Join us at {place} on {day}. Places are "
                                     "limited, so sign up below with your details.",
                                     place=place, day=day), ""]
    if schedule_url:
        lines += [datum(locale, "[See the full schedule]({url})", url=schedule_url), ""]
    else:
        times = datum(locale, ", ").join(sessions)
        lines += [datum(locale, "Sessions start at {times}.", times=times), ""]
    lines += [datum(locale, "![Poster of the event](★)"), "", datum(locale, "## Sign up")]
    return "\n".join(lines)


__all__ = ["COUPONS", "EVENTS", "PAGES", "SESSIONS", "SHOPS", "STRANGERS", "SUBMISSIONS",
           "TOPICS", "add_page", "answers_are", "event_body", "share_link", "web_app"]
