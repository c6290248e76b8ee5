"""The first screen reads stored rows the way the app's ChatRecord does."""

from __future__ import annotations

from wiggum.chief.chat import ChatRecord, ErrorRecord
from wiggum.llm import ParsedToolCall, UsageData
from wiggum.ui.errors import explain
from wiggum.ui.format import usage_line
from wiggum.ui.stored_chat import DEFAULTS, StoredRecord


def test_defaults_are_chat_records_own():
    for name, default in DEFAULTS.items():
        field = ChatRecord.model_fields[name]
        if name in ("seq", "role"):  # required in ChatRecord: every stored row has them
            assert field.is_required()
            continue
        expected = field.get_default(call_default_factory=True)
        listed = name in ("tool_calls", "citations", "images")
        assert (list(default) if listed else default) == expected, name


#: ChatRecord fields the chat view never reads (provider bookkeeping).
NOT_SHOWN = {
    "provider_name",
    "created",
    "provider",
    "model",
    "finish_reason",
    "provider_blocks",
    "name",
    "thinking",
}


def test_every_field_a_new_record_gets_is_read_by_the_first_screen_too():
    # A field added to ChatRecord (citations, images …) and shown by the chat view
    # must be readable from a stored row, or the first screen drops the message.
    missing = set(ChatRecord.model_fields) - set(DEFAULTS) - NOT_SHOWN
    assert not missing, f"add {sorted(missing)} to wiggum.ui.stored_chat.DEFAULTS"


def _same_as_record(record: ChatRecord) -> None:
    stored = StoredRecord(record.to_storage())
    loaded = ChatRecord.from_storage(record.to_storage())
    for name in DEFAULTS:
        if name == "tool_calls":
            assert [(c.id, c.name, c.args) for c in stored.tool_calls] == [
                (c.id, c.name, c.args) for c in loaded.tool_calls
            ]
        elif name == "citations":
            assert [(c.url, c.title) for c in stored.citations] == [
                (c.url, c.title) for c in loaded.citations
            ]
        elif name == "images":
            assert [(i.media_type, i.data, i.name) for i in stored.images] == [
                (i.media_type, i.data, i.name) for i in loaded.images
            ]
        elif name in ("usage", "error"):
            continue
        else:
            assert getattr(stored, name) == getattr(loaded, name), name
    assert usage_line(stored.usage) == usage_line(loaded.usage)
    if loaded.error is not None:
        assert explain(stored.error) == explain(loaded.error)


def test_a_minimal_row_reads_like_its_record():
    _same_as_record(ChatRecord(seq=0, role="user", content="hi"))


def test_a_full_reply_reads_like_its_record():
    _same_as_record(
        ChatRecord(
            seq=3,
            role="assistant",
            content="Here **you** go",
            reasoning="thinking",
            tool_calls=[ParsedToolCall(id="c1", name="read_file", args={"path": "a"})],
            status="error",
            usage=UsageData(prompt_tokens=10, completion_tokens=5, total_tokens=15, cost=0.01),
            error=ErrorRecord(name="RateLimitError", status=429, retry_after=3.0),
            trimmed=2,
        )
    )


def test_a_reply_left_streaming_reads_as_interrupted():
    row = ChatRecord(seq=1, role="assistant", content="part", status="streaming").to_storage()
    assert StoredRecord(row).status == "interrupted"


def test_odd_rows_do_not_break_the_reader():
    stored = StoredRecord({"seq": 0, "role": "assistant", "tool_calls": [{"id": 1}, "junk"]})
    assert [(c.id, c.name, c.args) for c in stored.tool_calls] == [("1", "", {})]
    assert stored.content == ""


def test_a_reply_with_web_sources_reads_like_its_record():
    from wiggum.llm import Citation

    record = ChatRecord(seq=3, role="assistant", content="Found it.")
    record.citations = [Citation(url="https://example.com/a", title="A")]
    _same_as_record(record)
    stored = StoredRecord(record.to_storage())
    assert [(c.url, c.title) for c in stored.citations] == [("https://example.com/a", "A")]


def test_a_message_with_images_reads_like_its_record():
    from wiggum.chief.attachments import Attachment

    record = ChatRecord(seq=4, role="user", content="these colours?")
    record.images = [Attachment(media_type="image/png", data="iVBORw0K", name="red.png")]
    record.images_stripped = True
    _same_as_record(record)
    stored = StoredRecord(record.to_storage())
    assert [(i.media_type, i.name) for i in stored.images] == [("image/png", "red.png")]
