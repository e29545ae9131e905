"""zh-CN answer forms rewritten into the forms ``answers`` already reads, by answer kind.

``zh_forms(kind, text)`` turns the ways a Chinese user writes a value into the equivalent
English/ASCII forms, so every typed rule (one value, no disjunction, no negation, no second
claim) applies to Chinese answers unchanged:

* Chinese numerals before a unit or classifier, or standing alone ("三个", "二十五分钟",
  "两", "一百零五") become digits; "共", "一共", "总共" (a lead-in to a count) are dropped;
  a digit glued to Chinese text gets a space ("共3条" reads "3").
* Punctuation: "，。；：？！、（）" become their ASCII forms with a space (clause ends).
* Negation "不", "没", "没有", "并非", "否" become "not"; disjunctions "或", "或者", "还是",
  and a range "到/至/~" between two values, become "or" / "to"; "和/与" become "and".
* duration: "25分钟", "1小时5分钟", "1小时05分", "半小时", "一个半小时", "45秒", "2天".
* number/count: the number before "分", "个", "条", ... (a rating "4.6分" is 4.6).
* money: "¥12.50" / "￥12.50", "12.50元", "12块5", "12元5角", "5角3分", "人民币12.5元"
  (元/块/人民币 are CNY; "美元", "欧元", "日元", "英镑" their currencies).
* date: "2026年10月15日", "10月15日", "10月15号", weekdays "星期四", "周四", "礼拜四".
* time: "下午3点", "下午3点半", "晚上8点", "3点15分", "上午10点一刻", "下午3:30", "中午12点".
* yes_no: "是", "是的", "对", "没错", "有", "正确" standing as a clause are yes; "否",
  "不是", "不对", "没有", "错" are no.

The same value written twice, a remark around it ("大概25分钟") or a lead-in ("答案是")
stays fine; a second value, a negation ("不是25分钟") or another unit fails as in English.
Relative dates are read against the phone's date when the caller gives it (``today``):
"今天", "明天", "后天", "大后天", "昨天", "前天", "大前天" (and 今日/明日/昨日), and a weekday of
this, next or last week ("本周五", "这周五", "下周一", "下个星期一", "上周日"; weeks start on
Monday, as in China). Without ``today`` they are not read (the answer names no date).
"""

from __future__ import annotations

import re
from datetime import date, timedelta

__all__ = ["CJK", "relative_dates", "zh_forms", "zh_name_key"]

#: A character of the Chinese script (or CJK punctuation/fullwidth forms).
CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
_HAN = r"\u3400-\u9fff"

_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "俩": 2, "三": 3, "四": 4, "五": 5,
           "六": 6, "七": 7, "八": 8, "九": 9}
_POWERS = {"十": 10, "百": 100, "千": 1000, "万": 10000}
_NUMERAL_RUN = re.compile(r"[零〇一二两俩三四五六七八九十百千万]+")
#: What may follow a numeral for it to be a number: units and classifiers.
_CLASSIFIER = "个条件次张位家项本只人天日号月年岁小时钟分秒元块角毛点趟站辆份篇首双台部间层倍遍"
_LEAD_CHARS = "是为有共计了约近"  # a numeral after these reads as a number ("是三")


def _numeral_value(run: str) -> int | None:
    """The value of a Chinese numeral ("二十五" 25, "一百零五" 105, "两" 2), else None."""
    if all(ch in _DIGITS for ch in run):
        if len(run) == 1:
            return _DIGITS[run]
        return None if run[0] in "两俩" else int("".join(str(_DIGITS[c]) for c in run))
    total, section, digit = 0, 0, None
    for ch in run:
        if ch in _DIGITS:
            if digit:
                return None  # two digits in a row ("二三十")
            digit = _DIGITS[ch]
        elif ch == "万":
            section += digit or 0
            total, section, digit = (total + section) * 10000, 0, None
        else:
            if digit == 0:
                return None
            section += (1 if digit is None else digit) * _POWERS[ch]
            digit = None
    return total + section + (digit or 0)


def _numerals(text: str, decimals: bool = True) -> str:
    """Chinese numerals that count something (before a classifier or standing alone) as
    digits; other uses ("一起", "一下", "万一") stay."""
    def swap(m: re.Match[str]) -> str:
        run, before = m.group(), text[m.start() - 1] if m.start() else ""
        after = text[m.end()] if m.end() < len(text) else ""
        counts = after in _CLASSIFIER or after == "" or not re.match(f"[{_HAN}]", after)
        led = before == "" or not re.match(f"[{_HAN}]", before) or before in _LEAD_CHARS \
            or before in _CLASSIFIER
        if run in ("万", "千", "百") or not (counts and (led or after in _CLASSIFIER)):
            return run
        value = _numeral_value(run)
        return run if value is None else str(value)
    if decimals:  # "四点六" is 4.6 (in a time, "四点六分" is 04:06)
        text = re.sub(r"([零一二两三四五六七八九十]+)点([零一二三四五六七八九]+)"
                      r"(?![零一二三四五六七八九十])",
                      lambda m: _decimal(m.group(1), m.group(2)), text)
    return _NUMERAL_RUN.sub(swap, text)


def _decimal(whole: str, frac: str) -> str:
    value = _numeral_value(whole)
    digits = "".join(str(_DIGITS[c]) for c in frac)
    return f"{whole}点{frac}" if value is None else f"{value}.{digits}"


_PUNCT = {"，": ", ", "。": ". ", "；": "; ", "：": ": ", "？": "? ", "！": "! ", "、": ", ",
          "（": " (", "）": ") ", "“": '"', "”": '"', "～": "~", "　": " ", "￥": "¥", "－": "-"}
_NEGATIONS = re.compile(r"不是|不对|不到|没有|并非|并不|不|没|否")
_OR = re.compile(r"或者|或是|还是|或")
_AND = re.compile(r"(?<=[\d" + _HAN + r"])\s*(?:和|与|跟|及)\s*(?=[\d" + _HAN + "])")
_RANGE = re.compile(r"(?<=[\d\u4e00-\u9fff])\s*(?:到|至|~)\s*(?=\d)")
_COUNT_LEAD = re.compile(r"一共|总共|共计|合计|总计|共有|共")


def _common(text: str, decimals: bool) -> str:
    """Punctuation, weekdays, numerals (``decimals``: "四点六" is 4.6)."""
    for zh, ascii_ in _PUNCT.items():
        text = text.replace(zh, ascii_)
    text = re.sub(r"[\uff10-\uff19]", lambda m: chr(ord(m.group()) - 0xFF10 + 48), text)
    text = re.sub(r"(?:星期|礼拜|周)([一二三四五六日天])",
                  lambda m: f" {_WEEKDAYS[m.group(1)]} ", text)
    return _numerals(text, decimals)


def _connectives(text: str) -> str:
    text = _NEGATIONS.sub(" not ", text)
    text = _OR.sub(" or ", text)
    text = _RANGE.sub(" to ", text)
    text = _AND.sub(" and ", text)
    return text


def _space_digits(text: str) -> str:
    """A space between a number and Chinese text around it ("共3条" reads "3")."""
    text = re.sub(rf"(?<=[{_HAN}])(?=[\d¥$€£+\-−])", " ", text)
    return re.sub(rf"(?<=[\d%])(?=[{_HAN}])", " ", text)


# ---------------------------------------------------------------- per kind

_NUM = r"\d+(?:\.\d+)?"


def _duration(text: str) -> str:
    text = re.sub(r"(\d+)\s*个?\s*半\s*(?:小时|钟头)", r" \1.5 hours ", text)
    text = re.sub(r"半\s*个?\s*(?:小时|钟头)", " 0.5 hours ", text)
    text = re.sub(rf"({_NUM})\s*个?\s*(?:小时|钟头)\s*半(?!\s*\d)", r" \1.5 hours ", text)
    text = re.sub(rf"({_NUM})\s*个?\s*(?:小时|钟头)\s*零?", r" \1 hours ", text)
    text = re.sub(rf"({_NUM})\s*(?:分钟|分)\s*(?:钟)?\s*零?", r" \1 minutes ", text)
    text = re.sub(rf"({_NUM})\s*秒钟?", r" \1 seconds ", text)
    return re.sub(rf"({_NUM})\s*(?:天|日)", r" \1 days ", text)


_PERIOD = r"(?P<p>凌晨|早上|早晨|清晨|上午|中午|下午|傍晚|晚上|夜里|夜间|半夜)?\s*"


def _clock(m: re.Match[str]) -> str:
    h, period = int(m.group("h")), m.group("p") or ""
    minute = m.groupdict().get("m")
    tail = m.groupdict().get("t") or ""
    mins = int(minute) if minute else 30 if tail == "半" else 15 if tail == "一刻" \
        else 45 if tail == "三刻" else 0
    if period in ("晚上", "夜里", "夜间") and 1 <= h <= 5:
        return m.group()  # "晚上3点": 03:00 or 15:00, unread
    if period in ("下午", "傍晚", "晚上", "夜里", "夜间") and 1 <= h <= 11:
        h += 12
    elif period == "中午" and 1 <= h <= 3:
        h += 12
    elif period in ("凌晨", "半夜") and h == 12:
        h = 0
    if period and not (0 <= h <= 23):
        return m.group()
    return f" {h:02d}:{mins:02d} " if h <= 23 and mins <= 59 else m.group()


def _time(text: str) -> str:
    text = re.sub(_PERIOD + r"(?P<h>\d{1,2})\s*[点时]\s*"
                  r"(?:(?P<m>\d{1,2})\s*分?|(?P<t>半|一刻|三刻))?\s*整?", _clock, text)
    return re.sub(_PERIOD + r"(?<![\d:])(?P<h>\d{1,2}):(?P<m>\d{2})(?![\d:])", _clock, text)


_MONTH_NAMES = ("January February March April May June July August September October "
                "November December").split()
_WEEKDAYS = {"一": "Monday", "二": "Tuesday", "三": "Wednesday", "四": "Thursday",
             "五": "Friday", "六": "Saturday", "日": "Sunday", "天": "Sunday"}


def _date(text: str) -> str:
    text = re.sub(r"(?<!\d)(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]",
                  lambda m: f" {int(m.group(2)):02d}/{int(m.group(3)):02d}/{m.group(1)} ", text)

    def month_day(m: re.Match[str]) -> str:
        month = int(m.group(1))
        return f" {_MONTH_NAMES[month - 1]} {int(m.group(2))} " if 1 <= month <= 12 else m.group()
    return re.sub(r"(?<!\d)(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]", month_day, text)


_DAY_OFFSETS = {"大后天": 3, "后天": 2, "明天": 1, "明日": 1, "今天": 0, "今日": 0,
                "昨天": -1, "昨日": -1, "前天": -2, "大前天": -3}
_WEEKDAY_INDEX = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
_RELATIVE = re.compile(
    r"(?P<day>大后天|大前天|后天|前天|明天|明日|今天|今日|昨天|昨日)"
    r"|(?P<week>本|这|下|上)(?:个)?(?:周|星期|礼拜)(?P<wd>[一二三四五六日天])")


def relative_dates(text: str, today: date) -> str:
    """``text`` with its relative dates ("明天", "下周一") written as the dates they name
    from ``today`` ("2026年10月16日")."""
    def swap(m: re.Match[str]) -> str:
        if m.group("day"):
            day = today + timedelta(days=_DAY_OFFSETS[m.group("day")])
        else:
            weeks = {"本": 0, "这": 0, "下": 1, "上": -1}[m.group("week")]
            monday = today - timedelta(days=today.weekday())
            day = monday + timedelta(days=7 * weeks + _WEEKDAY_INDEX[m.group("wd")])
        return f"{day.year}年{day.month}月{day.day}日"
    return _RELATIVE.sub(swap, text)


def month_slash_day(text: str) -> str:
    """"10/15" (no year, not after a month name) as "October 15": month first, as the US
    form with a year already reads."""
    def swap(m: re.Match[str]) -> str:
        month = int(m.group(1))
        return f"{_MONTH_NAMES[month - 1]} {int(m.group(2))}" if 1 <= month <= 12 else m.group()
    return re.sub(r"(?<![\w/.\-])(?<![A-Za-z] )(\d{1,2})/(\d{1,2})(?![\w/.\-])", swap, text)


_CURRENCY = {"美元": "USD", "美金": "USD", "欧元": "EUR", "日元": "JPY", "英镑": "GBP"}


def _money(text: str) -> str:
    for word, code in _CURRENCY.items():
        text = re.sub(rf"({_NUM})\s*{word}", rf" \1 {code} ", text)

    def yuan(m: re.Match[str]) -> str:
        whole = float(m.group("y") or 0)
        jiao, fen = int(m.group("j") or 0), int(m.group("f") or 0)
        if m.group("k"):  # "12块5": the digit after 块 is 角
            jiao = int(m.group("k"))
        return f" {whole + jiao / 10 + fen / 100:.2f} CNY "
    text = re.sub(r"人民币\s*(?=\d)", " ", text)
    text = re.sub(r"(?<![\d.])(?P<y>\d+(?:\.\d+)?)\s*(?:元|块钱|块)"
                  r"(?:\s*(?:(?P<j>\d)\s*(?:角|毛)(?:\s*(?P<f>\d)\s*分)?|(?P<k>\d)(?![\d角毛分])))?"
                  r"(?:\s*钱)?", yuan, text)
    text = re.sub(r"(?<![\d.])(?P<y>)(?P<j>\d)\s*(?:角|毛)(?:\s*(?P<f>\d)\s*分)?(?P<k>)"
                  r"(?:\s*钱)?", yuan, text)
    return re.sub(r"人民币", " CNY ", text)


_YES_WORD = r"(?:是的|是啊|是|对的|对啊|对|没错|正确|有的|有|可以|会的|会|能)"
_NO_WORD = re.compile(r"不是|不对|不正确|不会|不能|不可以|没有|没|不|否|错误|错")
_EDGE = r"(?:^|(?<=[\s,.;:!?()\"']))"
_AFTER = r"(?=$|[\s,.;:!?()\"'])"


def _yes_no(text: str) -> str:
    text = re.sub(r"没错|没问题", " yes ", text)
    text = _NO_WORD.sub(" no ", text)
    return re.sub(_EDGE + r"\s*" + _YES_WORD + r"(?:[啊呀的了呢])?" + _AFTER, " yes ", text)


def zh_forms(kind: str, text: str, today: date | None = None) -> str:
    """``text`` with its zh-CN forms of a ``kind`` value in the forms ``answers`` reads
    (unchanged when it has no Chinese script and no "¥"; "10/15" dates always). ``today``:
    the phone's date, against which a date's relative words ("明天", "下周一") are read."""
    if kind == "date":
        text = month_slash_day(text)
        if today is not None:
            text = relative_dates(text, today)
    if kind in ("name", "text", "list", "set", "phone") or not CJK.search(text) and "¥" not in text:
        return text
    text = _common(text, decimals=kind != "time")
    if kind == "yes_no":
        return _yes_no(text)
    if kind in ("number", "count"):
        text = _COUNT_LEAD.sub(" ", text)
    elif kind == "duration":
        text = _duration(text)
    elif kind == "time":
        text = _time(text)
    elif kind == "date":
        text = _date(text)
    elif kind == "money":
        text = _money(text)
    return _space_digits(_connectives(text))


def zh_name_key(text: str) -> str:
    """A name with the spaces between Chinese characters dropped ("张 伟" is "张伟")."""
    return re.sub(rf"(?<=[{_HAN}])\s+(?=[{_HAN}])", "", text)
