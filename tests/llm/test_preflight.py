"""Token estimation and the context-window preflight (seed 000 §13)."""

from __future__ import annotations

import json
import logging
from types import SimpleNamespace

import pytest

from wiggum.llm.errors import ContextOverflowError
from wiggum.llm.preflight import (
    IMAGE_TOKENS,
    check_or_raise,
    estimate_message_tokens,
    estimate_text_tokens,
    estimate_tokens,
    estimate_tools_tokens,
    preflight_check,
    raise_for_preflight,
)
from wiggum.llm.types import (
    ImagePart,
    Message,
    ParsedToolCall,
    ProviderConfig,
    TextPart,
    ThinkingBlock,
    ToolDefinition,
)


def cap(window: int, max_output: int):
    """A stand-in for registry.ModelCapability (only the two fields preflight reads)."""
    return SimpleNamespace(context_window=window, max_output_tokens=max_output)


def provider(**kw) -> ProviderConfig:
    return ProviderConfig(id="p", base_url="https://example.invalid/v1", model="m", **kw)


# ------------------------------------------------------------------ estimation


class TestEstimate:
    def test_ascii_text_is_four_chars_per_token_plus_overhead(self):
        assert estimate_text_tokens("") == 0
        assert estimate_text_tokens("abcd") == 1
        assert estimate_text_tokens("abcde") == 2  # rounded up
        # 16 chars of overhead + 400 chars = 104 tokens
        assert estimate_message_tokens(Message.user("a" * 400)) == 104
        assert estimate_message_tokens(Message.user("")) == 4

    def test_non_ascii_counts_more_than_len_over_4(self):
        cjk = "漢" * 1000
        assert estimate_text_tokens(cjk) == 1000  # ~1 token per CJK character
        cyrillic = "ж" * 1000
        assert 500 <= estimate_text_tokens(cyrillic) <= 700
        emoji = "😀" * 100
        assert estimate_text_tokens(emoji) >= 100
        # Strings from JS may hold lone surrogates: no crash.
        assert estimate_text_tokens("a\ud800b") > 0

    def test_parts_and_images(self):
        parts = [
            TextPart(text="a" * 40),
            ImagePart(data="QUJD" * 100_000, media_type="image/png"),
            ImagePart(url="https://example.invalid/x.png"),
        ]
        got = estimate_message_tokens(Message.user(parts))
        # The base64 payload never counts as text: a fixed cost per image.
        assert got == (16 + 40) // 4 + 2 * IMAGE_TOKENS

    def test_tool_calls_count_name_id_and_raw_args(self):
        raw = '{"path": "src/app.py", "content": "' + "x" * 400 + '"}'
        call = ParsedToolCall(id="call_1", name="write_file", raw_args=raw, args=json.loads(raw))
        with_call = estimate_message_tokens(Message.assistant("", [call]))
        bare = estimate_message_tokens(Message.assistant(""))
        assert with_call - bare >= (len(raw) + len("write_file")) // 4

    def test_tool_call_without_raw_args_uses_args_json(self):
        args = {"path": "a.py", "content": "y" * 400}
        call = ParsedToolCall(id="c", name="w", args=args)
        raw = ParsedToolCall(id="c", name="w", raw_args=json.dumps(args, separators=(",", ":")))
        a = estimate_message_tokens(Message.assistant("", [call]))
        b = estimate_message_tokens(Message.assistant("", [raw]))
        assert a == b > 100

    def test_reasoning_counts_once(self):
        text = "r" * 800
        plain = estimate_message_tokens(Message.assistant("ok"))
        reasoning = Message(role="assistant", content="ok", reasoning=text)
        both = Message(
            role="assistant",
            content="ok",
            reasoning=text,
            thinking=[ThinkingBlock(text=text, signature="sig")],
        )
        assert estimate_message_tokens(reasoning) == plain + 200
        # reasoning and thinking carry the same text; a dialect sends one of them
        assert estimate_message_tokens(both) == plain + 200

    def test_tool_result_and_tools(self):
        msg = Message.tool("call_1", "z" * 100, name="read_file")
        assert estimate_message_tokens(msg) > 25
        tools = [
            ToolDefinition(
                name="read_file",
                description="Read a file",
                parameters={"type": "object", "properties": {"path": {"type": "string"}}},
            )
        ]
        t = estimate_tools_tokens(tools)
        assert t == -(-len(tools[0].model_dump_json()) // 4)
        assert estimate_tokens([msg], tools) == estimate_message_tokens(msg) + t
        assert estimate_tools_tokens(None) == estimate_tools_tokens([]) == 0

    def test_estimate_is_the_sum_of_messages(self):
        ms = [Message.system("s" * 33), Message.user("u" * 7), Message.assistant("a" * 101)]
        assert estimate_tokens(ms) == sum(map(estimate_message_tokens, ms))

    def test_twenty_thousand_messages_are_each_estimated_once(self, monkeypatch):
        """Linear in the history: one look at each message (bench/budget.py times it)."""
        import wiggum.llm.preflight as preflight

        ms = [
            Message.user("question about the code " * 20)
            if i % 3
            else Message.assistant(
                "", [ParsedToolCall(id=f"c{i}", name="read", raw_args='{"p":"x"}')]
            )
            for i in range(20_000)
        ]
        seen: list[int] = []
        real = preflight.estimate_message_tokens

        def counting(message):
            seen.append(id(message))
            return real(message)

        monkeypatch.setattr(preflight, "estimate_message_tokens", counting)
        estimate_tokens(ms)
        assert sorted(seen) == sorted(map(id, ms))


# ------------------------------------------------------------------ preflight


class TestPreflight:
    def test_ok_with_headroom(self):
        r = preflight_check("m", [Message.user("a" * 400)], capability=cap(10_000, 1_000))
        assert r.ok and r.warning is None
        assert r.estimated_tokens == 104
        assert r.reserved_output == 1_000
        assert r.budget_remaining == 10_000 - 104 - 1_000
        assert r.headroom == pytest.approx(r.budget_remaining / 10_000)
        assert r.max_input_tokens == 9_000

    def test_warns_under_ten_percent_headroom(self):
        # 104 + 850 reserve on a 1000 window: 46 left (4.6%)
        r = preflight_check(
            "m", [Message.user("a" * 400)], capability=cap(1_000, 4_000), max_tokens=850
        )
        assert r.ok
        assert r.warning and "95%" in r.warning

    def test_overflow(self):
        r = preflight_check("m", [Message.user("a" * 4_000)], capability=cap(1_000, 100))
        assert not r.ok
        assert r.budget_remaining == 1_000 - 1_004 - 100
        assert "over budget" in (r.warning or "")

    def test_reserve_is_the_requested_max_tokens(self):
        # 200k window, 64k max output: a 150k prompt asking for 4k fits.
        prompt = [Message.user("a" * 600_000)]
        asked = preflight_check("m", prompt, capability=cap(200_000, 64_000), max_tokens=4_000)
        assert asked.ok and asked.reserved_output == 4_000
        # Without max_tokens the reserve is capped at a quarter of the window.
        default = preflight_check("m", prompt, capability=cap(200_000, 64_000))
        assert default.reserved_output == 50_000
        assert not default.ok
        small = preflight_check("m", prompt, capability=cap(200_000, 8_000))
        assert small.reserved_output == 8_000

    def test_tools_count(self):
        tools = [ToolDefinition(name="t", description="d" * 4_000)]
        msgs = [Message.user("hi")]
        assert not preflight_check("m", msgs, tools, capability=cap(1_000, 0)).ok
        assert preflight_check("m", msgs, capability=cap(1_000, 0)).ok

    def test_provider_config_overrides_win(self):
        msgs = [Message.user("a" * 4_000)]  # 1004 tokens
        r = preflight_check(
            provider(context_window=2_000, max_output_tokens=100), msgs, capability=cap(500, 400)
        )
        assert r.ok and r.context_window == 2_000 and r.reserved_output == 100
        # One override, the other from the capability.
        r = preflight_check(provider(context_window=1_050), msgs, capability=cap(500, 40))
        assert r.context_window == 1_050 and r.reserved_output == 40 and r.ok

    def test_explicit_estimate_is_used(self):
        r = preflight_check("m", [], capability=cap(1_000, 0), estimated_tokens=5_000)
        assert not r.ok and r.estimated_tokens == 5_000


class TestRaise:
    def test_raises_context_overflow_and_logs(self, caplog):
        r = preflight_check("m", [Message.user("a" * 4_000)], capability=cap(1_000, 100))
        with (
            caplog.at_level(logging.INFO, logger="wiggum.llm"),
            pytest.raises(ContextOverflowError) as info,
        ):
            raise_for_preflight(r, "p", "m")
        err = info.value
        assert err.estimated_tokens == r.estimated_tokens
        assert err.context_window == 1_000
        assert err.provider == "p" and err.model == "m" and err.source == "preflight"
        assert err.reserved_output == 100
        (rec,) = caplog.records
        assert rec.getMessage() == "llm:context-overflow" and rec.levelno == logging.ERROR
        assert rec.llm["estimated_tokens"] == r.estimated_tokens

    def test_pressure_is_logged_not_raised(self, caplog):
        r = preflight_check(
            "m", [Message.user("secret " * 60)], capability=cap(1_000, 4_000), max_tokens=850
        )
        with caplog.at_level(logging.INFO, logger="wiggum.llm"):
            assert raise_for_preflight(r, "p", "m") is r
        (rec,) = caplog.records
        assert rec.getMessage() == "llm:context-pressure" and rec.levelno == logging.WARNING
        assert "secret" not in repr(rec.__dict__)

    def test_ok_is_silent(self, caplog):
        r = preflight_check("m", [Message.user("hi")], capability=cap(100_000, 1_000))
        with caplog.at_level(logging.DEBUG, logger="wiggum.llm"):
            raise_for_preflight(r, "p", "m")
        assert caplog.records == []

    def test_check_or_raise(self):
        with pytest.raises(ContextOverflowError):
            check_or_raise(
                provider(context_window=100, max_output_tokens=10), [Message.user("a" * 400)]
            )
        ok = check_or_raise(
            provider(context_window=1_000, max_output_tokens=10), [Message.user("a" * 400)]
        )
        assert ok.ok
