"""``Task.locales_stay_home``: an app's templates that run in zh-CN keep that to their own
module; a template built on them elsewhere (a cross-app one, with its own English steps)
runs in en-US unless it declares its locales."""

from __future__ import annotations

from typing import ClassVar

from phone_gym.tasks.task import Task


class Home(Task):
    locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")
    locales_stay_home = True


class SameModule(Home):
    pass


Elsewhere = type("Elsewhere", (Home,), {"__module__": "somewhere.else"})
Declared = type("Declared", (Home,), {"__module__": "somewhere.else",
                                      "locales": ("en-US", "zh-CN")})
Deeper = type("Deeper", (Declared,), {"__module__": "somewhere.further"})


def test_subclasses_elsewhere_run_in_en_us_unless_they_declare() -> None:
    assert SameModule.locales == ("en-US", "zh-CN")
    assert Elsewhere.locales == ("en-US",)
    assert Declared.locales == ("en-US", "zh-CN")
    assert Deeper.locales == ("en-US",)  # as a subclass of the home's, elsewhere again


def test_without_the_flag_locales_are_inherited() -> None:
    class Plain(Task):
        locales: ClassVar[tuple[str, ...]] = ("en-US", "zh-CN")

    assert type("Other", (Plain,), {"__module__": "somewhere.else"}).locales == \
        ("en-US", "zh-CN")
