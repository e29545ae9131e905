"""Public fixtures of Social: accounts, topics and posts that tasks seed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...tasks.task import data_catalogue
from ...tasks.vocab import pick
from ...verifiers import lookup
from ...verifiers.state import DeviceState
from ...world.locale import DEFAULT_LOCALE, catalogue_datum, english_datum
from .app import ME as ME
from .app import Account, Post, SocialApp

POSTS = "apps.Social.posts"
ACCOUNTS = "apps.Social.accounts"
MUTED = "apps.Social.muted_words"
DMS = "apps.Social.dms"

#: (name, handle, bio) of the accounts a feed is written from.
PEOPLE: tuple[tuple[str, str, str], ...] = (
    ("Maya Chen", "mayachen", "Runner, coffee person, product designer."),
    ("Omar Haddad", "omar_h", "Cooking at home, one recipe at a time."),
    ("Lena Fischer", "lenafischer", "Astronomy nerd. Berlin."),
    ("Diego Alvarez", "diegoalv", "Jazz trumpet and bad puns."),
    ("Priya Nair", "priyanair", "City cycling advocate."),
    ("Tom Becker", "tombecker", "Chess coach. Opinions are my own."),
    ("Sofia Rossi", "sofiarossi", "Gardener growing far too many tomatoes."),
    ("Kenji Watanabe", "kenjiw", "Photographer. Film and digital."),
    ("Amara Okafor", "amaraok", "Books, tea and long walks."),
    ("Lucas Martin", "lucasmartin", "Software engineer and weekend climber."),
    ("Hannah Novak", "hannahnovak", "Teacher. Board games on Fridays."),
    ("Ravi Patel", "ravipatel", "Startups, cricket and chai."),
    ("Chloe Dubois", "chloedubois", "Pastry chef in training."),
    ("Ben Carter", "bencarter", "Local news and weather nerd."),
)
#: Topic keyword -> posts about it (each holds the keyword; none holds another topic's).
TOPICS: dict[str, tuple[str, ...]] = {
    "marathon": ("Signed up for the spring marathon, training starts Monday!",
                 "Finished my first marathon in 4:12, legs are jelly",
                 "Marathon tip: don't try new shoes on race day",
                 "Volunteering at the marathon water station tomorrow"),
    "sourdough": ("My sourdough starter finally doubled overnight",
                  "Sourdough loaf number six, the crumb is getting better",
                  "Anyone have a good rye sourdough recipe?",
                  "Sourdough pizza night was a huge hit"),
    "eclipse": ("Clear skies forecast for the eclipse on Saturday",
                "Got my eclipse glasses, who is watching from the park?",
                "That eclipse was worth the early alarm",
                "Photos of the eclipse from the rooftop"),
    "jazz": ("Playing at the jazz night downtown this Thursday",
             "New jazz record arrived and it is wonderful",
             "Free jazz in the square every Sunday this summer",
             "Learning a jazz standard a week"),
    "bike lane": ("The new bike lane on Main Street is finally open",
                  "Please don't park in the bike lane, thanks",
                  "Bike lane petition reached 2,000 signatures",
                  "Commute was so much calmer with the bike lane"),
    "chess": ("Won the club chess tournament on tiebreaks",
              "Chess puzzle of the day: white to move and win",
              "Teaching chess openings to kids is the best",
              "Blitz chess at the cafe tonight, all welcome"),
    "tomatoes": ("Harvested the first tomatoes of the year",
                 "Too many tomatoes again, sauce weekend it is",
                 "Heirloom tomatoes at the market are unreal",
                 "Staking the tomatoes before the storm"),
    "film camera": ("Dusted off my old film camera for a trip",
                    "Film camera shots from the coast are developed",
                    "Which film camera should a beginner buy?",
                    "Found a film camera at the flea market for 10 dollars"),
}
#: Posts about nothing in ``TOPICS``.
FILLER: tuple[str, ...] = (
    "Good morning everyone", "Rainy Tuesday, perfect for reading",
    "Anyone else watching the game tonight?", "New week, new goals",
    "Coffee number three, don't judge", "The sunset today was something else",
    "Finally cleaned my desk", "Podcast recommendations welcome",
    "Trying to drink more water this month", "Weekend plans: absolutely nothing",
    "Train was late again", "Just finished a great book",
)
#: Text a task asks the owner to post or reply (none of it is in the seeded posts).
SAYINGS: tuple[str, ...] = (
    "Congrats, well deserved", "Count me in for next time", "This made my day",
    "Great idea, thanks for sharing", "See you there", "Totally agree with this",
)
HASHTAGS: tuple[str, ...] = ("MondayMotivation", "Weekend", "CityLife", "Spring",
                             "BookClub", "StayCurious")
#: Words a task may mute (they appear in some filler-like posts the task seeds).
MUTE_WORDS: tuple[str, ...] = ("spoiler", "crypto", "election", "giveaway", "diet", "traffic")


#: The seeded data in zh-CN (``strings/zh-CN.data.json``: names, bios, posts, topics,
#: hashtags, muted words, messages); handles stay as they are.
DATA: dict[str, Any] = {"zh-CN": data_catalogue(__file__, "zh-CN")}


def locale_of(state: Any) -> str:
    return str(getattr(state, "locale", DEFAULT_LOCALE))


def datum(locale: str, text: str) -> str:
    """The seeded datum ``text`` in ``locale`` (``MissingString`` when the catalogue lacks
    it)."""
    return catalogue_datum(DATA, "Social", "social", locale, text)


def english(text: str) -> str:
    """The English datum a localized one (a param in zh-CN: 马拉松) stands for."""
    return english_datum(DATA, text)


def social_app(state: Any) -> SocialApp:
    app = state.app("Social")
    assert isinstance(app, SocialApp)
    return app


def add_account(state: DeviceState, name: str, handle: str, bio: str = "", *,
                following: bool = False) -> Account:
    return social_app(state).data.accounts.new(handle=handle, name=name, bio=bio,
                                               following=following)


def add_post(state: DeviceState, author: str, text: str, *, likes: int = 0, age: int = 60,
             bookmarked: bool = False) -> Post:
    return social_app(state).data.posts.new(author=author, text=text, likes=likes, age=age,
                                            reposts=likes // 7, bookmarked=bookmarked)


def add_dm(state: DeviceState, handle: str, text: str, *, outgoing: bool = False) -> None:
    social_app(state).data.dms.new(handle=handle, text=text, outgoing=outgoing)


def seed_accounts(state: DeviceState, rng: np.random.Generator,
                  people: Sequence[tuple[str, str, str]] = PEOPLE,
                  unfollowed: Sequence[str] = ()) -> None:
    """Every account of ``people`` (names and bios in the phone's locale), about half
    followed (never those in ``unfollowed``)."""
    locale = locale_of(state)
    for name, handle, bio in people:
        follow = handle not in unfollowed and bool(rng.random() < 0.5)
        add_account(state, datum(locale, name), handle, datum(locale, bio), following=follow)


def write_feed(state: DeviceState, rng: np.random.Generator,
               posts: Sequence[tuple[str, str]], *, likes: Sequence[int] = ()) -> None:
    """Write ``(handle, text)`` posts oldest first (ages count down to a few minutes), with
    ``likes[i]`` likes when given, random ones otherwise; the texts (``TOPICS``,
    ``FILLER``) in the phone's locale."""
    n, locale = len(posts), locale_of(state)
    for i, (handle, text) in enumerate(posts):
        count = likes[i] if i < len(likes) and likes[i] >= 0 else int(rng.integers(0, 400))
        add_post(state, handle, datum(locale, text), likes=count,
                 age=(n - i) * 47 + int(rng.integers(1, 9)))


def filler_posts(rng: np.random.Generator, k: int,
                 handles: Sequence[str]) -> list[tuple[str, str]]:
    texts = list(pick(rng, FILLER, min(k, len(FILLER))))
    return [(pick(rng, handles), t) for t in texts]


def shuffled(rng: np.random.Generator, rows: Sequence[Any]) -> list[Any]:
    order = rng.permutation(len(rows))
    return [rows[int(i)] for i in order]


def records(state: Any, collection: str) -> dict[str, Any]:
    rows = lookup(state, collection)
    return dict(rows) if hasattr(rows, "items") else {}


def latest_post_key(initial: Any, handle: str) -> str:
    """The snapshot key of ``handle``'s newest top-level post in ``initial``."""
    rows = records(initial, POSTS)
    mine = [(int(k), k) for k, r in rows.items()
            if r.get("author") == handle and not r.get("reply_to")]
    return max(mine)[1]


def handles() -> list[str]:
    return [h for _, h, _ in PEOPLE]


def name_of(handle: str) -> str:
    return next(n for n, h, _ in PEOPLE if h == handle)
