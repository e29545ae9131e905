"""Cross-app templates on 微博 (Weibo) and 知乎 (Zhihu): a WeChat friend asks for a 赞 on a
微博 post (done in 微博); the 热搜 topic of a rank sent to a WeChat group; who wrote a 知乎
question's top answer, written into a new 腾讯文档 (TencentDocs) document. Chinese
instructions; the apps through their public ``fixtures`` only."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ..actions import PhoneAction
from ..mockapps.chat.fixtures import MESSAGES as CHAT_MESSAGES
from ..mockapps.chat.fixtures import open_chat, say, seed_social
from ..mockapps.docs import fixtures as docs
from ..mockapps.weibo import fixtures as weibo
from ..mockapps.zhihu import fixtures as zhihu
from ..tasks.driver import Driver, OracleError
from ..tasks.families import EditRecord
from ..tasks.task import Task
from ..tasks.vocab import pick
from ..verifiers import Criterion, Matcher, Record
from .common import DENIAL
from .families.handoff import Read, ToDoc
from .families.wechat import NAMES, Tell, ZhTask, asked

GROUPS = ("家人群", "项目组", "羽毛球群", "大学同学", "读书会")
DOC_TITLES = ("知乎摘录", "好回答", "收藏的回答", "读书笔记")


class CrossWeChatAskWeiboLike(ZhTask, EditRecord):
    """A WeChat friend asks the owner to 赞 their 微博 post (the subject quoted): that post,
    and no other, gets the owner's 赞."""

    apps = ("Chat", "Weibo")
    tags = frozenset({"handoff"})
    template = "{friend}在微信上请我帮忙给一条微博点赞，照他说的在微博上点一下赞。"
    complexity, max_steps = 3, 16
    collection = weibo.POSTS

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        plan = weibo.sample_world(rng, 6)
        index = int(rng.integers(6))
        friends = pick(rng, NAMES, 3)
        return {"world": plan, "index": index, "friend": friends[0],
                "friends": list(friends), "subject": plan["posts"][index]["subject"]}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        chats = seed_social(state, rng, params["friends"])
        say(state, chats[params["friend"]], params["friend"],
            f"帮我去微博给那条讲“{params['subject']}”的微博点个赞呗", time="12:05")
        weibo.write_world(state, params["world"])

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"id": p["index"] + 1}

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"liked": True, "likes": p["world"]["posts"][p["index"]]["likes"] + 1}

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        subject = (yield from asked(ui, p["friend"], r"“(.+?)”")).group(1)
        ui.why(f"{p['friend']}说的是讲“{subject}”的微博")
        yield from weibo.open_post(ui, subject)
        if ui.must(id="like").content_desc == "赞":
            yield from ui.tap(id="like")
        yield from ui.finish()


#: What may stand right before or after a name in a Chinese message (no word spaces there:
#: "双十一预售x" must not pass for "双十一预售").
_EDGES = set(" \t\n：:，,。.！!？?“”\"'「」『』《》#、—-()（）【】[]")


def names_only(title: str, others: Sequence[str]) -> Matcher:
    """A message that names ``title`` whole (bounded by punctuation, a space or the text's
    ends), none of ``others``, and denies nothing."""
    def ok(v: Any) -> bool:
        if not isinstance(v, str) or any(o in v for o in others):
            return False
        whole = [m for m in re.finditer(re.escape(title), v)
                 if (m.start() == 0 or v[m.start() - 1] in _EDGES)
                 and (m.end() == len(v) or v[m.end()] in _EDGES)]
        return bool(whole) and not DENIAL.search(v.replace(title, " "))
    return Matcher(ok, f"names {title!r} whole, no other 热搜 topic, no denial")


class CrossWeiboHotToWeChatGroup(Tell):
    """The 热搜 topic at a rank, sent to a WeChat group: one message there by the owner
    naming that topic and no other."""

    apps = ("Weibo", "Chat")
    template = "看看微博热搜第{rank}名是什么话题，发到微信群“{group}”里。"
    complexity, max_steps = 3, 16
    to = "group"

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        plan = weibo.sample_world(rng, 6)
        rank = int(rng.integers(1, 6))
        title = next(t for t, r in weibo.ranks(plan).items() if r == rank)
        return {"world": plan, "rank": rank, "title": title,
                "friends": list(pick(rng, NAMES, 3)), "group": pick(rng, GROUPS)}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        seed_social(state, rng, params["friends"], [params["group"]])
        weibo.write_world(state, params["world"])

    def told(self, p: Mapping[str, Any], mine: dict[str, Any]) -> Criterion:
        others = [h["title"] for h in p["world"]["hot"] if h["title"] != p["title"]]
        return Record(CHAT_MESSAGES, {**mine, "text": names_only(p["title"], others)}, count=1)

    def read(self, ui: Driver, p: Mapping[str, Any]) -> Read:
        yield from weibo.to_tab(ui, "发现")
        row = next((e for e in ui.find_all() if e.short_id == f"hot_{p['rank']}"), None)
        if row is None:
            yield from ui.reveal(id=f"hot_{p['rank']}")
            row = ui.must(id=f"hot_{p['rank']}")
        ui.why(f"热搜第{p['rank']}是“{row.text}”")
        return f"微博热搜第{p['rank']}：{row.text}"

    def reach(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        return open_chat(ui, p["group"])


class CrossZhihuTopAnswerToDocs(ZhTask, ToDoc):
    """Who wrote a 知乎 question's top answer, in a new 腾讯文档 document: its body is that
    author's name alone."""

    apps = ("Zhihu", "TencentDocs")
    template = ("在知乎查一下问题“{title}”下赞同最多的回答是谁写的，在腾讯文档新建一篇标题为"
                "“{doc_title}”的文档，正文只写作者的名字。")
    complexity, max_steps = 3, 18

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        site = zhihu.sample_site(rng, 5)
        qi = int(rng.integers(5))
        q = site["questions"][qi]
        return {"site": site, "qi": qi, "title": q["title"],
                "top": zhihu.top_answer(q)["author"], "doc_title": pick(rng, DOC_TITLES)}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        zhihu.write_site(state, params["site"])
        docs.seed_docs(state, rng, 3, avoid=[params["doc_title"]])

    def value(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> str:
        return str(p["top"])

    def read(self, ui: Driver, p: Mapping[str, Any]) -> Read:
        yield from zhihu.open_question(ui, p["title"])
        shown = zhihu.answers_shown(ui)
        if not shown:
            raise OracleError("no answers listed")
        author = max(shown, key=lambda a: a[2])[1]
        ui.why(f"赞同最多的是{author}")
        return str(author)


TEMPLATES: list[Task] = [CrossWeChatAskWeiboLike(), CrossWeiboHotToWeChatGroup(),
                         CrossZhihuTopAnswerToDocs()]
