"""The consumer's acks (``rabbitmq._Acks``): a multiple ack only over a range of delivery tags that
are all settled, since the tags are the channel's and a delivery of another queue may still wait
in its buffer, unhandled; else one ack per delivery."""

from __future__ import annotations

from typing import Any

from shared.messaging.rabbitmq import _Acks


class _Channel:
    def __init__(self) -> None:
        self.acks: list[tuple[int, bool]] = []

    def basic_ack(self, tag: int, multiple: bool = False) -> None:
        self.acks.append((tag, multiple))


def _acks() -> tuple[_Acks, _Channel]:
    channel = _Channel()
    acks: Any = _Acks(channel)  # type: ignore[arg-type]
    return acks, channel


def test_a_round_with_every_tag_settled_is_one_multiple_ack():
    acks, channel = _acks()
    acks.settled(([1, 2], []))
    acks.settled(([3], []))
    acks.send()
    assert channel.acks == [(3, True)]
    acks.settled(([4], []))
    acks.send()
    assert channel.acks[1:] == [(4, False)]  # a single one needs no multiple


def test_a_delivery_still_buffered_keeps_the_acks_one_by_one_until_it_is_settled():
    acks, channel = _acks()
    acks.settled(([1, 3], []))  # 2 waits in another queue's buffer
    acks.send()
    assert channel.acks == [(1, False), (3, False)]
    acks.settled(([2, 4, 5], []))
    acks.send()
    assert channel.acks[2:] == [(5, True)]  # now 1..5 are all settled


def test_a_nacked_delivery_counts_as_settled_and_is_not_acked():
    acks, channel = _acks()
    acks.settled(([1, 3], [2]))
    acks.send()
    assert channel.acks == [(3, True)]  # a multiple ack skips what was nacked already
