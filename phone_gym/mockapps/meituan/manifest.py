"""The Meituan app's manifest: a 美团-like food-delivery app (Chinese UI and content)."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

#: Meituan's brand yellow (#FFD100).
YELLOW = (255, 209, 0)

MANIFEST = AppManifest(
    name="Meituan",
    label="美团",
    package="com.sankuai.meituan",
    icon="ramen_dining",
    color=YELLOW,
    aliases=("Meituan", "美团外卖"),
    reads=("wallet",),
    description="Food delivery as in Meituan (美团外卖): shops by category with distance, "
                "rating, delivery fee and minimum order; a shop's menu, the cart, checkout "
                "with an address and a payment confirmation; orders, reordering.",
    order=152,
    locales=("zh-CN",),
    look=AppLook(
        models="美团 (Meituan) 12.x, its 外卖 (food delivery) channel",
        title="美团外卖",
        light=make_palette(YELLOW, bg=(245, 245, 245), title_align="left"),
        actions=(),  # search is a field on the first screen, not an app-bar action
        navigation="bottom_bar",
        nav_items=("首页", "订单", "我的"),
        nav_icons=("home", "list", "person"),
        row_leading="icon",
        two_line=True,
        simplifies=("外卖 only: no hotels, tickets, group buying or 美团优选; no coupons, red "
                    "packets or dish options; payment is the phone's wallet with a PIN",),
    ),
)
