"""The DingTalk app's manifest: a 钉钉-like work chat (Chinese UI)."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

#: DingTalk's blue (#3296FA).
BLUE = (50, 150, 250)

MANIFEST = AppManifest(
    name="DingTalk",
    label="钉钉",
    package="com.alibaba.android.rimet",
    icon="notifications",
    color=BLUE,
    aliases=("DingTalk", "Dingtalk", "钉钉办公"),
    description="Work chat as in DingTalk: chats and groups with 已读/未读 receipts, DING, "
                "审批 (a leave form with type, dates and reason; submitted forms and their "
                "status; 待我审批), 日程, documents and the company 通讯录.",
    order=156,
    locales=("zh-CN",),
    look=AppLook(
        models="钉钉 (DingTalk) 7.x",
        title="消息",
        light=make_palette(BLUE, bg=(244, 245, 247), title_align="left"),
        actions=(),
        navigation="bottom_bar",
        nav_items=("消息", "文档", "工作台", "通讯录"),
        nav_icons=("home", "folder", "apps", "person"),
        row_leading="avatar",
        simplifies=("colleagues never read or reply while the task runs; DING is in-app "
                    "only (no call or SMS); one approval form (请假) to start; no video "
                    "meetings, 考勤 or 钉盘",),
    ),
)
