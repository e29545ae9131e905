"""TFRecord files and ``tf.train.Example`` protos, read without TensorFlow.

Framing (TensorFlow ``core/lib/io/record_writer.cc``): each record is ``uint64 length``
(little-endian), ``uint32 masked_crc32c(length)``, ``length`` bytes of data and
``uint32 masked_crc32c(data)``; a file may be GZIP-compressed as a whole (AndroidControl's and
AitW's are). The CRC is CRC-32C (Castagnoli) masked as ``((crc >> 15 | crc << 17) +
0xA282EAD8) mod 2**32``. ``Example`` follows ``tensorflow/core/example/example.proto`` and
``feature.proto`` (``Example.features = 1``; ``Features.feature = 1``, a map of string to
``Feature``; ``Feature``: ``bytes_list = 1``, ``float_list = 2``, ``int64_list = 3``), parsed
by ``protobuf`` from descriptors built here (no generated code, no TensorFlow).
"""

from __future__ import annotations

import gzip
import struct
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["read_records", "write_records", "masked_crc", "parse_example", "example_bytes",
           "message_class"]

_POLY = 0x82F63B78  # CRC-32C, reflected


@cache
def _table() -> tuple[int, ...]:
    out = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ _POLY if c & 1 else c >> 1
        out.append(c)
    return tuple(out)


def crc32c(data: bytes) -> int:
    """CRC-32C of ``data`` (table-driven; about 10 MB/s in CPython)."""
    table, crc = _table(), 0xFFFFFFFF
    for b in data:
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc(data: bytes) -> int:
    """TFRecord's masked CRC-32C of ``data``."""
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def _open(path: Path) -> bytes:
    raw = path.read_bytes()
    return gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw


def read_records(path: str | Path, *, check_data: bool = True) -> Iterator[bytes]:
    """The records of a TFRecord file (GZIP-compressed or not). ``ValueError`` on a cut or
    corrupt record (its length's CRC, or its data's when ``check_data``)."""
    path = Path(path)
    buf, pos = _open(path), 0
    while pos < len(buf):
        if pos + 12 > len(buf):
            raise ValueError(f"{path}: truncated TFRecord header at byte {pos}")
        head = buf[pos:pos + 8]
        (length,), (crc,) = struct.unpack("<Q", head), struct.unpack("<I", buf[pos + 8:pos + 12])
        if crc != masked_crc(head):
            raise ValueError(f"{path}: bad length CRC at byte {pos}: not a TFRecord file")
        start, end = pos + 12, pos + 12 + length
        if end + 4 > len(buf):
            raise ValueError(f"{path}: truncated TFRecord record at byte {pos}")
        data = buf[start:end]
        if check_data and struct.unpack("<I", buf[end:end + 4])[0] != masked_crc(data):
            raise ValueError(f"{path}: bad data CRC in the record at byte {pos}")
        yield data
        pos = end + 4


def write_records(path: str | Path, records: list[bytes], *, compress: bool = False) -> None:
    """Write ``records`` as a TFRecord file (GZIP-compressed with ``compress``)."""
    out = bytearray()
    for data in records:
        head = struct.pack("<Q", len(data))
        out += head + struct.pack("<I", masked_crc(head)) + data
        out += struct.pack("<I", masked_crc(data))
    Path(path).write_bytes(gzip.compress(bytes(out)) if compress else bytes(out))


# --- protos ----------------------------------------------------------------------------------

#: (file name, package, messages): each message is (name, fields), each field
#: (name, number, type, label, type_name); type names are fully qualified.
_OPT, _REP = 1, 3
_T = {"double": 1, "float": 2, "int64": 3, "int32": 5, "bool": 8, "string": 9, "msg": 11,
      "bytes": 12}
_FILES: dict[str, tuple[str, list[tuple[str, list[tuple[str, int, str, int, str]]]]]] = {
    # tensorflow/core/example/feature.proto and example.proto
    "tensorflow": ("tensorflow", [
        ("BytesList", [("value", 1, "bytes", _REP, "")]),
        ("FloatList", [("value", 1, "float", _REP, "")]),
        ("Int64List", [("value", 1, "int64", _REP, "")]),
        ("Feature", [("bytes_list", 1, "msg", _OPT, ".tensorflow.BytesList"),
                     ("float_list", 2, "msg", _OPT, ".tensorflow.FloatList"),
                     ("int64_list", 3, "msg", _OPT, ".tensorflow.Int64List")]),
        ("Features", [("feature", 1, "msg", _REP, ".tensorflow.Features.FeatureEntry")]),
        ("Example", [("features", 1, "msg", _OPT, ".tensorflow.Features")]),
    ]),
    # google-deepmind/android_env android_env/proto/a11y/*.proto (the fields read here; the
    # others are skipped as unknown fields)
    "android_env": ("android_env", [
        ("ProtoRect", [("left", 1, "int32", _OPT, ""), ("top", 2, "int32", _OPT, ""),
                       ("right", 3, "int32", _OPT, ""), ("bottom", 4, "int32", _OPT, "")]),
        ("AndroidAccessibilityNodeInfo", [
            ("unique_id", 1, "int32", _OPT, ""),
            ("bounds_in_screen", 2, "msg", _OPT, ".android_env.ProtoRect"),
            ("class_name", 3, "string", _OPT, ""), ("content_description", 4, "string", _OPT, ""),
            ("hint_text", 5, "string", _OPT, ""), ("package_name", 6, "string", _OPT, ""),
            ("text", 7, "string", _OPT, ""), ("view_id_resource_name", 10, "string", _OPT, ""),
            ("window_id", 11, "int32", _OPT, ""), ("is_checkable", 12, "bool", _OPT, ""),
            ("is_checked", 13, "bool", _OPT, ""), ("is_clickable", 14, "bool", _OPT, ""),
            ("is_editable", 15, "bool", _OPT, ""), ("is_enabled", 16, "bool", _OPT, ""),
            ("is_focusable", 17, "bool", _OPT, ""), ("is_focused", 18, "bool", _OPT, ""),
            ("is_long_clickable", 19, "bool", _OPT, ""), ("is_password", 20, "bool", _OPT, ""),
            ("is_scrollable", 21, "bool", _OPT, ""), ("is_selected", 22, "bool", _OPT, ""),
            ("is_visible_to_user", 23, "bool", _OPT, ""),
            ("child_ids", 25, "int32", _REP, ""), ("depth", 27, "int32", _OPT, "")]),
        ("AndroidAccessibilityTree", [
            ("nodes", 1, "msg", _REP, ".android_env.AndroidAccessibilityNodeInfo")]),
        ("AndroidAccessibilityWindowInfo", [
            ("bounds_in_screen", 1, "msg", _OPT, ".android_env.ProtoRect"),
            ("id", 3, "int32", _OPT, ""), ("layer", 4, "int32", _OPT, ""),
            ("title", 5, "string", _OPT, ""), ("window_type", 6, "int32", _OPT, ""),
            ("is_active", 8, "bool", _OPT, ""), ("is_focused", 9, "bool", _OPT, ""),
            ("tree", 11, "msg", _OPT, ".android_env.AndroidAccessibilityTree")]),
        ("AndroidAccessibilityForest", [
            ("windows", 1, "msg", _REP, ".android_env.AndroidAccessibilityWindowInfo")]),
    ]),
}
#: ``AndroidAccessibilityWindowInfo.WindowType.TYPE_APPLICATION`` (read as its int32 value).
TYPE_APPLICATION = 1


@cache
def _pool() -> Any:
    try:
        from google.protobuf import descriptor_pb2, descriptor_pool
    except ImportError as exc:  # pragma: no cover - protobuf ships with the import extra
        raise ValueError("reading TFRecord datasets needs protobuf: pip install "
                         "'phone-gym[import]'") from exc
    pool = descriptor_pool.DescriptorPool()
    for key, (package, messages) in _FILES.items():
        f = descriptor_pb2.FileDescriptorProto(name=f"phone_gym_{key}.proto", package=package,
                                               syntax="proto3")
        for name, fields in messages:
            m = f.message_type.add(name=name)
            for fname, number, ftype, label, type_name in fields:
                fd = m.field.add(name=fname, number=number, type=_T[ftype], label=label)
                if type_name:
                    fd.type_name = type_name
            if name == "Features":  # map<string, Feature> feature = 1
                entry = m.nested_type.add(name="FeatureEntry")
                entry.options.map_entry = True
                entry.field.add(name="key", number=1, type=_T["string"], label=_OPT)
                entry.field.add(name="value", number=2, type=_T["msg"], label=_OPT,
                                type_name=".tensorflow.Feature")
        pool.Add(f)
    return pool


def message_class(full_name: str) -> Any:
    """The protobuf message class of ``full_name`` (``tensorflow.Example``,
    ``android_env.AndroidAccessibilityForest``...)."""
    from google.protobuf import message_factory

    return message_factory.GetMessageClass(_pool().FindMessageTypeByName(full_name))


def parse_example(data: bytes) -> dict[str, list[Any]]:
    """A serialized ``tf.train.Example`` as ``{feature name: list of values}`` (bytes, floats
    or ints, whichever list the feature holds)."""
    ex = message_class("tensorflow.Example")()
    ex.ParseFromString(data)
    out: dict[str, list[Any]] = {}
    for name, feature in ex.features.feature.items():
        for kind in ("bytes_list", "float_list", "int64_list"):
            if feature.HasField(kind):
                out[name] = list(getattr(feature, kind).value)
                break
        else:
            out[name] = []
    return out


def example_bytes(features: dict[str, list[Any]]) -> bytes:
    """Serialize ``{name: values}`` as a ``tf.train.Example`` (bytes or str values go to a
    ``bytes_list``, floats to a ``float_list``, ints to an ``int64_list``)."""
    ex = message_class("tensorflow.Example")()
    for name, values in features.items():
        feature = ex.features.feature[name]
        if all(isinstance(v, (bytes, str)) for v in values) and values:
            feature.bytes_list.value.extend(v.encode() if isinstance(v, str) else v
                                            for v in values)
        elif any(isinstance(v, float) for v in values):
            feature.float_list.value.extend(float(v) for v in values)
        else:
            feature.int64_list.value.extend(int(v) for v in values)
    return bytes(ex.SerializeToString())
