"""zh-CN forms of an answer: accepted by type as the English forms are, near misses refused."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import numpy as np
import pytest

from phone_gym.mockapps import REGISTRY, Episode
from phone_gym.verifiers.answers import answer_matcher, match_answer
from phone_gym.world import Device

# kind, expected, answers that state exactly the expected value in zh-CN forms
ACCEPTED: list[tuple[str, Any, list[str]]] = [
    ("duration", 1500, ["25分钟", "大概25分钟", "需要25分钟。", "二十五分钟", "25分",
                        '{"answer": "25分钟"}']),
    ("duration", 3900, ["1小时5分钟", "1小时05分", "一小时五分钟", "1小时零5分钟", "65分钟"]),
    ("duration", 1800, ["半小时", "半个小时", "30分钟"]),
    ("duration", 5400, ["一个半小时", "1个半小时", "1.5小时", "1小时30分钟"]),
    ("duration", 45, ["45秒", "四十五秒钟"]),
    ("count", 3, ["3个", "三个", "共3条", "一共三条", "有3个", "3"]),
    ("count", 2, ["两", "两个", "2个"]),
    ("number", 4.6, ["4.6分", "评分是4.6分", "四点六分", "4.6"]),
    ("number", 105, ["一百零五", "105个"]),
    ("money", 12.5, ["¥12.50", "￥12.50", "12.50元", "12元5角", "人民币12.5元", "12块5",
                     "十二元五角", "12.5块钱", "一共12.5元"]),
    ("money", (12.5, "CNY"), ["¥12.50", "12.50元", "人民币12.5元", "CNY 12.50"]),
    ("money", 0.53, ["5角3分", "5毛3分"]),
    ("date", "2026-10-15", ["10月15日", "2026年10月15日", "10/15", "十月十五日", "10月15号",
                            "2026年10月15日 星期四", "10月15日（周四）"]),
    ("time", "15:00", ["下午3点", "下午三点", "15:00", "下午3:00", "15点", "下午3点整"]),
    ("time", "15:30", ["下午3点半", "15:30", "下午3点30分", "下午三点半"]),
    ("time", "20:00", ["晚上8点", "晚上八点"]),
    ("time", "10:15", ["上午10点一刻", "上午10点15分"]),
    ("time", "12:00", ["中午12点"]),
    ("time", "13:00", ["中午1点"]),
    ("time", "08:05", ["早上8点05分", "早上八点零五分"]),
    ("yes_no", True, ["是", "是的", "对", "有", "是的，有。", "对的", "没错"]),
    ("yes_no", False, ["否", "不是", "没有", "不对", "不是的", "没有。"]),
    ("name", "张伟", ["张伟", "张 伟", "他叫张伟", "答案是张伟", "名字是：张伟", "张伟。"]),
    ("name", "张 伟", ["张伟"]),
    ("name", "欧阳 娜娜", ["欧阳娜娜", "欧阳 娜娜"]),
]

# kind, expected, answers one step off (another value, two values, a negation, another unit)
REFUSED: list[tuple[str, Any, list[str]]] = [
    ("duration", 1500, ["25小时", "25秒", "不是25分钟", "25分钟或30分钟", "25到30分钟",
                        "25分钟，也可能30分钟", "30分钟", "25", "二十六分钟", "25分钟还是26分钟",
                        "25天"]),
    ("duration", 5400, ["半小时", "一小时", "两个半小时"]),
    ("count", 3, ["4个", "三个或四个", "不是3个", "3到4个", "3个，还有2个", "四个", "两个"]),
    ("number", 4.6, ["4.7分", "4.6或4.7", "不是4.6分", "四点七分", "46分"]),
    ("money", 12.5, ["12.51元", "12元6角", "12.5元或13元", "不是12.5元", "125元", "12块6"]),
    ("money", (12.5, "CNY"), ["12.5美元", "12.50 USD", "12.5欧元"]),
    ("date", "2026-10-15", ["10月16日", "2027年10月15日", "10月15日或16日", "不是10月15日",
                            "10/16", "15/10", "10月15日 星期五", "2026年10月16日"]),
    ("time", "15:00", ["上午3点", "3点", "下午4点", "下午3点或4点", "不是下午3点", "下午3点半",
                       "晚上3点"]),
    ("time", "15:30", ["下午3点", "下午4点半", "下午3点一刻"]),
    ("yes_no", True, ["否", "是也不是", "不是", "没有", "是或否"]),
    ("yes_no", False, ["是", "有", "对"]),
    ("name", "张伟", ["张伟伟", "张伟或李娜", "不是张伟", "张伟和李娜", "李娜", "张",
                     "他不叫张伟"]),
]


@pytest.mark.parametrize(("kind", "expected", "answer"),
                         [(k, e, a) for k, e, answers in ACCEPTED for a in answers])
def test_zh_forms_of_the_value_pass(kind: str, expected: Any, answer: str) -> None:
    ok, reason = match_answer(kind, expected, answer)
    assert ok, (answer, reason)


@pytest.mark.parametrize(("kind", "expected", "answer"),
                         [(k, e, a) for k, e, answers in REFUSED for a in answers])
def test_zh_near_misses_fail(kind: str, expected: Any, answer: str) -> None:
    ok, reason = match_answer(kind, expected, answer)
    assert not ok, (answer, reason)


def test_yen_sign_is_yuan_or_yen_but_not_another_currency() -> None:
    assert match_answer("money", (500, "JPY"), "¥500")[0]
    assert not match_answer("money", (12.5, "USD"), "¥12.50")[0]
    assert not match_answer("money", (12.5, "USD"), "12.50元")[0]


def test_the_amap_route_time_oracle_answers_in_chinese_and_passes() -> None:
    template = REGISTRY.template("AmapRouteTime")
    ep = Episode(template, Device(list(REGISTRY.apps), locale="zh-CN"), np.random.default_rng(1))
    answer, _ = ep.solve()
    assert answer is not None and answer.endswith("分钟") and "min" not in answer
    assert ep.verify(answer).success
    minutes = int(answer.removesuffix("分钟"))
    assert not ep.verify(f"不是{minutes}分钟").success
    assert not ep.verify(f"{minutes}小时").success


# --- relative dates, read against the phone's date (Thursday 2026-10-15) --------------------
@pytest.mark.parametrize(("answer", "expected"), [
    ("今天", "2026-10-15"), ("明天", "2026-10-16"), ("是明天", "2026-10-16"),
    ("后天", "2026-10-17"), ("大后天", "2026-10-18"), ("昨天", "2026-10-14"),
    ("前天", "2026-10-13"), ("明日", "2026-10-16"), ("本周五", "2026-10-16"),
    ("这周一", "2026-10-12"), ("下周一", "2026-10-19"), ("下个星期三", "2026-10-21"),
    ("上周日", "2026-10-11"), ("本周日", "2026-10-18"), ("下礼拜天", "2026-10-25"),
])
def test_relative_dates_name_their_day_from_the_phones_date(answer: str, expected: str) -> None:
    today = date(2026, 10, 15)
    assert match_answer("date", expected, answer, today=today)[0], answer
    wrong = (date.fromisoformat(expected) + timedelta(days=1)).isoformat()
    assert not match_answer("date", wrong, answer, today=today)[0], answer


def test_relative_dates_need_the_phones_date_and_one_value() -> None:
    today = date(2026, 10, 15)
    assert not match_answer("date", "2026-10-16", "明天")[0]  # no reference date: no day
    assert not match_answer("date", "2026-10-16", "明天或者后天", today=today)[0]
    assert not match_answer("date", "2026-10-16", "不是明天", today=today)[0]
    assert answer_matcher("date", "2026-10-19", today="2026-10-15T09:30:00")("下周一")


def test_a_date_lookup_reads_relative_dates_against_the_phones_clock() -> None:
    from phone_gym.tasks.families import Lookup

    class NextMonday(Lookup):
        answer_type = "date"

        def expected(self, params: Any) -> str:
            return "2026-10-19"
    (criterion,) = NextMonday.criteria(NextMonday.__new__(NextMonday), {},
                                       {"now": "2026-10-15T09:30:00"})
    assert criterion.check({}, "下周一")[0] and not criterion.check({}, "本周一")[0]
