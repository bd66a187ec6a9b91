"""No field name of admiralty.v1 clashes with an accessor another field generates.

protoc accepts `hand` (repeated) beside `hand_size`, but C++ then declares `hand_size()`
twice; Java (`getHandCount`, `getHandList`), C# (`HasHand`, `HandFieldNumber`) and the
others have their own such names. A bot author must be able to use any official
generator, so every generated name of one field is kept clear of every other field.
tests/wire/test_cpp_protocol.py compiles the C++ for real; this covers the rest.
"""

from __future__ import annotations

from google.protobuf import descriptor_pb2, descriptor_pool
from google.protobuf.descriptor import FieldDescriptor

from admiralty_sdk.v1 import (
    black_fleet_pb2,
    blackbeard_pb2,
    bot_pb2,
    common_pb2,
    jamaica_pb2,
    referee_pb2,
)

FILES = [
    m.DESCRIPTOR
    for m in (black_fleet_pb2, blackbeard_pb2, bot_pb2, common_pb2, jamaica_pb2, referee_pb2)
]

# Names generated from a field or oneof `x`, in snake case: C++ (x_size, has_x, mutable_x,
# release_x, set_allocated_x, x_case, kXFieldNumber), Java (getXList, getXCount,
# getXBytes, getXValue, getXMap, getXOrBuilder, getXBuilder, containsX, getXOrDefault,
# getXOrThrow, putX, addAllX), C# (HasX, ClearX, XFieldNumber) and Objective-C (xArray,
# xArray_Count). Getters and setters share the verb, so only the name after it counts.
SUFFIXES = (
    "_size",
    "_count",
    "_list",
    "_bytes",
    "_value",
    "_value_list",
    "_map",
    "_or_builder",
    "_or_builder_list",
    "_builder",
    "_builder_list",
    "_or_default",
    "_or_throw",
    "_case",
    "_field_number",
    "_array",
    "_array_count",
)
PREFIXES = (
    "has_",
    "clear_",
    "set_",
    "add_",
    "add_all_",
    "mutable_",
    "release_",
    "set_allocated_",
    "contains_",
    "put_",
    "put_all_",
    "remove_",
)


def messages(descriptors):
    for descriptor in descriptors:
        if not descriptor.GetOptions().map_entry:
            yield descriptor
            yield from messages(descriptor.nested_types)


def clashes(message) -> list[str]:
    names = [field.name for field in message.fields] + list(message.oneofs_by_name)
    found = []
    for name in names:
        derived = {name + suffix for suffix in SUFFIXES} | {prefix + name for prefix in PREFIXES}
        found += [
            f"{message.full_name}.{other} clashes with an accessor of {name}"
            for other in names
            if other in derived
        ]
    return found


def test_the_collision_check_sees_the_clash_that_broke_cpp():
    proto = descriptor_pb2.FileDescriptorProto(name="clash.proto", package="clash")
    message = proto.message_type.add(name="Player")
    message.field.add(
        name="hand",
        number=1,
        type=FieldDescriptor.TYPE_UINT32,
        label=FieldDescriptor.LABEL_REPEATED,
    )
    message.field.add(name="hand_size", number=2, type=FieldDescriptor.TYPE_UINT32)
    pool = descriptor_pool.DescriptorPool()
    pool.AddSerializedFile(proto.SerializeToString())
    assert clashes(pool.FindMessageTypeByName("clash.Player")) == [
        "clash.Player.hand_size clashes with an accessor of hand"
    ]


def test_no_field_clashes_with_another_fields_accessors():
    found = [
        clash
        for file in FILES
        for message in messages(file.message_types_by_name.values())
        for clash in clashes(message)
    ]
    assert not found, found
