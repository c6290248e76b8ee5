"""The refused-write policy Chief's conversation and Ralph's transcript share."""

from __future__ import annotations

from wiggum.persist.retry import RetryingWriter, WriteOutcome


class Store:
    def __init__(self) -> None:
        self.rows: dict[int, str] = {}
        self.refuse: set[int] | bool = False
        self.order: list[int] = []

    async def write(self, key: int, record: str) -> None:
        if self.refuse is True or (isinstance(self.refuse, set) and key in self.refuse):
            raise OSError("quota")
        self.rows[key] = record
        self.order.append(key)


async def test_a_write_that_lands_is_saved():
    store = Store()
    writer = RetryingWriter(store.write)
    assert await writer.write(1, "a") is WriteOutcome.SAVED
    assert store.rows == {1: "a"} and not writer.behind and writer.error is None


async def test_a_refused_write_is_held_and_written_after_the_next_success():
    store = Store()
    writer = RetryingWriter(store.write)
    store.refuse = True
    assert await writer.write(1, "a") is WriteOutcome.REFUSED
    assert isinstance(writer.error, OSError) and writer.unsaved == {1: "a"}
    store.refuse = False
    assert await writer.write(2, "b") is WriteOutcome.CAUGHT_UP
    assert store.rows == {1: "a", 2: "b"}
    assert store.order == [2, 1]  # the new one first, then what was held
    assert not writer.behind and writer.error is None


async def test_held_records_are_written_oldest_first():
    store = Store()
    writer = RetryingWriter(store.write)
    store.refuse = True
    for key in (3, 1, 2):
        await writer.write(key, str(key))
    store.refuse = False
    await writer.write(9, "9")
    assert store.order == [9, 3, 1, 2]


async def test_a_later_record_for_a_held_key_replaces_it():
    store = Store()
    writer = RetryingWriter(store.write)
    store.refuse = True
    await writer.write(1, "partial")
    await writer.write(1, "partial and more")
    store.refuse = False
    assert await writer.write(1, "whole") is WriteOutcome.CAUGHT_UP
    assert store.rows == {1: "whole"} and store.order == [1]


async def test_a_held_record_still_refused_leaves_the_writer_behind():
    store = Store()
    writer = RetryingWriter(store.write)
    store.refuse = {1}
    await writer.write(1, "a")
    assert await writer.write(2, "b") is WriteOutcome.BEHIND
    assert writer.unsaved == {1: "a"} and writer.error is not None
    store.refuse = False
    assert await writer.write(3, "c") is WriteOutcome.CAUGHT_UP


async def test_forget_drops_held_records_and_the_error_with_the_last():
    store = Store()
    writer = RetryingWriter(store.write)
    store.refuse = True
    await writer.write(("p1", 1), "a")
    await writer.write(("p2", 1), "b")
    writer.forget(lambda key: key[0] != "p1")
    assert list(writer.unsaved) == [("p2", 1)] and writer.error is not None
    writer.forget(lambda key: False)
    assert not writer.behind and writer.error is None
