"""Apps that spend money or reach other people: the packages the safety guard blocks on a
real phone unless the task declares the app and the user opts in (``SafetyGuard``).

``SENSITIVE_PACKAGES`` maps a package to its category (``CATEGORIES``). It holds the real
packages of the apps PhoneWorld's mock apps model (WeChat and its mini-programs, SMS
Messenger, Gmail, the Phone app, Alipay, the bank, eBay, Uber, Uber Eats, Trip.com, X,
Zoom) and the common ones of each kind: banks, wallets and payment apps, SMS/RCS and chat
apps, mail, dialers, social networks, stores and marketplaces, delivery and travel
booking, and ride apps. A package also counts when it sits under a listed one
(``com.tencent.mm.miniprogram.ride`` under ``com.tencent.mm``): vendors ship variants of
the same app that way (``com.whatsapp.w4b`` is WhatsApp Business).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

#: The categories, each with what it risks.
CATEGORIES: dict[str, str] = {
    "money": "it moves money: banks, wallets, payments, brokers",
    "messaging": "it reaches other people: SMS/RCS, chat, mail, calls, meetings",
    "social": "it posts to other people: social networks",
    "shopping": "it buys things: stores, marketplaces, delivery, travel booking",
    "ride": "it books rides: ride hailing, taxis",
}


def _table(groups: Mapping[str, str]) -> dict[str, str]:
    return {package: category for category, text in groups.items() for package in text.split()}


#: Package -> category (see the module doc).
SENSITIVE_PACKAGES: dict[str, str] = _table({
    "money": """
        com.chase.sig.android com.eg.android.AlipayGphone com.infonow.bofa
        com.wf.wellsfargomobile com.citi.citimobile com.konylabs.capitalone
        com.usaa.mobile.android.usaa com.americanexpress.android.acctsvcs.us
        com.paypal.android.p2pmobile com.venmo com.squareup.cash com.zellepay.zelle
        com.google.android.apps.walletnfcrel com.google.android.apps.nbu.paisa.user
        com.samsung.android.spay com.samsung.android.samsungpay.gear com.revolut.revolut
        co.uk.getmondo de.number26.android com.transferwise.android com.coinbase.android
        com.binance.dev com.robinhood.android com.phonepe.app net.one97.paytm
        in.org.npci.upiapp com.icbc cmb.pb com.chinamworld.main com.android.bankabc
        com.barclays.android.barclaysmobilebanking com.grppl.android.shell.CMBlloydsTSB73
        com.starlingbank.android com.klarna.android com.afterpay.caportal
        """,
    "messaging": """
        com.simplemobiletools.smsmessenger com.google.android.apps.messaging com.android.mms
        com.android.messaging com.samsung.android.messaging com.tencent.mm
        com.tencent.mobileqq com.whatsapp org.telegram.messenger org.thunderdog.challegram
        org.thoughtcrime.securesms com.facebook.orca com.viber.voip jp.naver.line.android
        com.kakao.talk com.discord com.Slack com.skype.raider com.microsoft.teams
        com.snapchat.android com.google.android.gm com.microsoft.office.outlook
        com.samsung.android.email.provider com.yahoo.mobile.client.android.mail
        com.google.android.dialer com.android.dialer com.samsung.android.dialer
        com.google.android.apps.tachyon us.zoom.videomeetings com.alibaba.android.rimet
        com.tencent.wework com.ss.android.lark
        """,
    "social": """
        com.twitter.android com.facebook.katana com.facebook.lite com.instagram.android
        com.instagram.barcelona com.zhiliaoapp.musically com.ss.android.ugc.aweme
        com.ss.android.ugc.trill com.sina.weibo com.reddit.frontpage com.linkedin.android
        com.pinterest com.tumblr com.xingin.xhs com.smzdm.client.android com.zhihu.android
        tv.danmaku.bili com.smile.gifmaker
        """,
    "shopping": """
        com.android.vending com.ebay.mobile com.amazon.mShop.android.shopping
        com.alibaba.aliexpresshd com.taobao.taobao com.tmall.wireless com.jingdong.app.mall
        com.xunmeng.pinduoduo com.einnovation.temu com.zzkko com.etsy.android
        com.walmart.android com.target.ui com.contextlogic.wish com.shopee.id
        com.ubercab.eats com.dd.doordash com.grubhub.android com.deliveroo.orderapp
        com.sankuai.meituan me.ele ctrip.english ctrip.android.view com.booking
        com.airbnb.android com.expedia.bookings com.dianping.v1 com.tongcheng.android
        """,
    "ride": """
        com.ubercab me.lyft.android ee.mtakso.client com.grabtaxi.passenger
        com.sdu.didi.psnger com.olacabs.customer com.gojek.app
        """,
})


def category_of(package: str, table: Mapping[str, str] = SENSITIVE_PACKAGES) -> str | None:
    """The category of ``package`` in ``table``: its own, or that of the nearest listed
    package it sits under (``com.tencent.mm.miniprogram.ride``: ``com.tencent.mm``'s)."""
    parts = package.split(".")
    for end in range(len(parts), 1, -1):
        category = table.get(".".join(parts[:end]))
        if category is not None:
            return category
    return None


def check_opt_ins(names: Iterable[str]) -> frozenset[str]:
    """``names`` (categories or package names) as a set; ``ValueError`` for a word that is
    neither a category nor a package name."""
    out = set()
    for name in names:
        if not isinstance(name, str) or (name not in CATEGORIES and "." not in name):
            raise ValueError(f"allow_sensitive: {name!r}; accepted: a category "
                             f"({', '.join(CATEGORIES)}) or a package name")
        out.add(name)
    return frozenset(out)
