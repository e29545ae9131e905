"""元宝 (Yuanbao) tasks: asking for a leave request, a meeting notice or a birthday wish;
copying an earlier reply; deleting a conversation. Chinese instructions."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ...actions import PhoneAction
from ...tasks.driver import Driver
from ...tasks.families import DeleteRecord, Infeasible
from ...tasks.task import Task
from ...tasks.vocab import pick
from ...verifiers import (
    Allow,
    Allowed,
    Criterion,
    Matcher,
    NearMiss,
    Record,
    Value,
    lookup,
    same_text,
)
from .fixtures import (
    CONVOS,
    MESSAGES,
    PEOPLE,
    PLACES,
    QUESTIONS,
    REASONS,
    TOPICS,
    ask_assistant,
    leave_prompt,
    md,
)


def holding(*parts: str) -> Matcher:
    """A text holding every one of ``parts``."""
    return Matcher(lambda v: all(p in str(v) for p in parts), f"a text holding {parts}")


def sample_span(rng: np.random.Generator) -> tuple[str, str]:
    """Two dates in October or November, one to four days apart."""
    month = int(rng.integers(10, 12))
    day = int(rng.integers(1, 25))
    return md(month, day), md(month, day + int(rng.integers(1, 4)))


def ask(ui: Driver, prompt: str) -> Iterator[PhoneAction]:
    """Open 元宝, start a new conversation, type ``prompt`` and send it."""
    yield from ui.open_app("Yuanbao")
    yield from ui.tap(id="new_chat")
    yield from ui.fill("prompt", prompt)
    yield from ui.tap(id="send")


class AskTask(Task):
    """Ask the assistant for a text; the reply of kind ``kind`` must hold ``parts``: one new
    conversation, its prompt and reply, nothing else."""

    apps = ("Yuanbao",)
    kind = ""
    complexity, max_steps = 1, 10

    def parts(self, p: Mapping[str, Any]) -> tuple[str, ...]:
        raise NotImplementedError

    def prompt(self, p: Mapping[str, Any]) -> str:
        raise NotImplementedError

    def values(self, rng: np.random.Generator) -> dict[str, Any]:
        raise NotImplementedError

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        p = self.values(rng)
        return {**p, "prompt": self.prompt(p)}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        ask_assistant(state, pick(rng, QUESTIONS))

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Record(MESSAGES, {"role": "user", "text": same_text(params["prompt"])},
                       count=1),
                Record(MESSAGES, {"role": "assistant", "kind": self.kind,
                                  "text": holding(*self.parts(params))})]

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return [Allow(CONVOS, "added", max=1), Allow(MESSAGES, "added", max=2)]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ask(ui, p["prompt"])
        yield from ui.finish()


class YuanbaoAskLeaveRequest(AskTask):
    template = "打开元宝，发送“{prompt}”，让它帮我写好请假条。"
    kind = "leave"

    def values(self, rng: np.random.Generator) -> dict[str, Any]:
        start, end = sample_span(rng)
        return {"start": start, "end": end, "reason": pick(rng, REASONS)}

    def parts(self, p: Mapping[str, Any]) -> tuple[str, ...]:
        return (f"{p['start']}至{p['end']}", f"因{p['reason']}，")

    def prompt(self, p: Mapping[str, Any]) -> str:
        return leave_prompt(p["start"], p["end"], p["reason"])


class YuanbaoAskNotice(AskTask):
    template = "打开元宝，发送“{prompt}”，让它帮我起草会议通知。"
    kind = "notice"

    def values(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"date": sample_span(rng)[0], "time": f"{int(rng.integers(9, 17))}:30",
                "place": pick(rng, PLACES), "topic": pick(rng, TOPICS)}

    def parts(self, p: Mapping[str, Any]) -> tuple[str, ...]:
        return (f"定于{p['date']}{p['time']}在{p['place']}召开{p['topic']}，",)

    def prompt(self, p: Mapping[str, Any]) -> str:
        return f"写一则会议通知：{p['date']}{p['time']}在{p['place']}召开{p['topic']}"


class YuanbaoAskBirthdayWish(AskTask):
    template = "{name}今天过生日。打开元宝，发送“{prompt}”。"
    kind = "birthday"

    def values(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"name": pick(rng, PEOPLE)}

    def parts(self, p: Mapping[str, Any]) -> tuple[str, ...]:
        return (f"亲爱的{p['name']}：", "生日快乐")

    def prompt(self, p: Mapping[str, Any]) -> str:
        return f"帮我给{p['name']}写一段生日祝福"


class HistoryTask(Task):
    """Past conversations: a leave request for each of two reasons and a question, in an
    order drawn from the seed; the task is about the one for ``reason``."""

    apps = ("Yuanbao",)

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        reason, other = pick(rng, REASONS, 2)
        start, end = sample_span(rng)
        return {"reason": reason, "other": other, "start": start, "end": end,
                "question": pick(rng, QUESTIONS), "order": [int(i) for i in rng.permutation(3)]}

    def prompts(self, p: Mapping[str, Any]) -> list[str]:
        return [leave_prompt(p["start"], p["end"], p["reason"]),
                leave_prompt(p["start"], p["end"], p["other"]), p["question"]]

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        prompts = self.prompts(params)
        for i in params["order"]:
            ask_assistant(state, prompts[i])

    def reply(self, p: Mapping[str, Any], initial: Mapping[str, Any], reason: str) -> str:
        return next(str(m["text"]) for m in lookup(initial, MESSAGES).values()
                    if m["role"] == "assistant" and reason in str(m["text"]))

    def open_history(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ui.open_app("Yuanbao")
        yield from ui.tap(id="history")


class YuanbaoCopyLeaveRequest(HistoryTask):
    template = "我之前让元宝写过一张请假条，原因是{reason}。把元宝写的这张请假条复制到剪贴板。"
    complexity, max_steps = 2, 10

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        super().setup(state, params, rng)
        state.set_clipboard(params["question"])

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Value("clipboard", self.reply(params, initial, params["reason"]))]

    def declared_near_misses(self, initial: Any, final: Any, p: Mapping[str, Any],
                             answer: str | None) -> list[NearMiss]:
        other = {**final, "clipboard": self.reply(p, initial, p["other"])}
        return [NearMiss(other, None, "the other leave request copied")]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_history(ui, p)
        ui.why(f"打开原因是“{p['reason']}”的那段对话")
        row = next(e for e in ui.find_all(kind="list_item") if p["reason"] in e.text)
        yield from ui.tap(id=row.short_id)
        reply = next(e for e in ui.find_all() if e.short_id.startswith("msg_")
                     and p["reason"] in e.text and "尊敬" in e.text)
        yield from ui.tap(id=reply.short_id.replace("msg_", "copy_"))
        yield from ui.finish()


class YuanbaoDeleteConvo(HistoryTask, DeleteRecord):
    template = "把元宝里“{question}”这段对话删掉。"
    complexity, max_steps = 2, 10
    collection = CONVOS

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"title": same_text(p["question"])}

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        convo = next(k for k, c in lookup(initial, CONVOS).items()
                     if c["title"] == params["question"])
        return [*super().allowed(params, initial),
                Allow(MESSAGES, "removed", where={"convo": int(convo)}, max=2)]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_history(ui, p)
        yield from ui.long_press(p["question"], kind="list_item")
        yield from ui.tap("删除", kind="menu_item")
        yield from ui.tap(id="button_delete")
        yield from ui.finish()


class YuanbaoDeleteConvoInfeasible(Infeasible, YuanbaoDeleteConvo):
    """No conversation is about the question the task names."""

    def prompts(self, p: Mapping[str, Any]) -> list[str]:
        return [leave_prompt(p["start"], p["end"], p["reason"]),
                leave_prompt(p["start"], p["end"], p["other"]),
                next(q for q in QUESTIONS if q != p["question"])]

    def look(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from self.open_history(ui, params)


TEMPLATES: list[Task] = [
    YuanbaoAskLeaveRequest(), YuanbaoAskNotice(), YuanbaoAskBirthdayWish(),
    YuanbaoCopyLeaveRequest(), YuanbaoDeleteConvo(), YuanbaoDeleteConvoInfeasible(),
]

# --- zh-CN: the instructions are written in Chinese already, the same sentence on a zh-CN
# phone; the apps' screens and data are Chinese in both locales.
for _task in TEMPLATES:
    type(_task).locales = ("en-US", "zh-CN")
    type(_task).instructions = {"zh-CN": type(_task).template}
