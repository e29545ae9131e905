"""The Clock app's manifest: it owns the phone's alarms and answers ``SET_ALARM``."""

from __future__ import annotations

from ...world.manifest import AppManifest, material_you

MANIFEST = AppManifest(
    name="Clock",
    package="com.google.android.deskclock",
    labels={"zh-CN": "时钟"},
    icon="schedule",
    color=(66, 133, 244),
    intents=("android.intent.action.SET_ALARM", "android.intent.action.SHOW_ALARMS",
             "android.intent.action.SET_TIMER"),
    owns=("alarms",),
    aliases=("Alarm", "Alarms", "Deskclock"),
    description="Alarms with an editor, switches and a long-press menu; the time; a timer; "
                "a stopwatch.",
    order=20,
    locales=("zh-CN",),
    look=material_you(
        (11, 87, 208), models="Google Clock 7.x", title="Alarm",
        navigation="bottom_bar",
        nav_items=("Alarm", "Clock", "Timer", "Stopwatch", "Bedtime"),
        actions=("more_vert",),
        simplifies=("no Bedtime tab", "times are typed, not set on a dial"),
    ),
)
