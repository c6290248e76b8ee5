"""Chief's tab as markup: the conversation's frame, the message box, the lines
under it, and the parts of one turn.  ``wiggum.web.views.chat`` mounts these
and drives them; the texts and which controls exist are decided here."""

from __future__ import annotations

from ..markdown import El
from ..tree import btn, e
from . import attach

__all__ = [
    "QUEUED_TEXT",
    "STARTERS",
    "alt_nav",
    "banners",
    "chat_options",
    "chats_bar",
    "composer",
    "copy_button",
    "edit_box",
    "error_text",
    "frame",
    "images_stripped",
    "note",
    "reply_round",
    "tool_call",
    "turn_block",
    "user_message",
    "view",
]

#: Shown while a message waits for the app to load.
QUEUED_TEXT = "Chief is starting… your message goes out in a moment."

#: The message box's placeholder (while it waits for a provider it says why instead).
PLACEHOLDER = "Message Chief…"

#: Ideas on an empty chat: one click puts it in the message box, to adjust and send.
STARTERS = (
    "A one-page site for my bakery: menu, opening hours and where to find us.",
    "A small quiz game with ten questions and a score at the end.",
    "A habit tracker that keeps my ticks in this browser.",
)


def view(hint: str) -> El:
    """The tab: the chats bar, the conversation, the lines under it and the
    message box (``hint``: the keys that send)."""
    return e("div", "chat", chats_bar(), frame(), banners(), mode_switch(), composer(hint))


def _mode(label: str, pressed: bool) -> El:
    name = label.lower()
    on = "true" if pressed else "false"
    cls = "btn btn-small mode-btn"
    return btn(
        label,
        action=f"mode-{name}",
        testid=f"mode-{name}",
        cls=cls,
        aria_pressed=on,
        ref=f"mode_{name}",
    )


def mode_switch() -> El:
    """Plan -> Build above the message box: which mode Chief is in, and the switch."""
    arrow = e("span", "mode-arrow", text="→", aria_hidden="true")
    label = "Chief's mode: plan with Chief, or build with Ralph"
    parts = [
        e("span", "mode-label", text="Mode"),
        _mode("Plan", True),
        arrow,
        _mode("Build", False),
    ]
    return e(
        "div",
        "mode-switch",
        parts,
        role="group",
        aria_label=label,
        testid="chief-mode",
        data_mode="plan",
        ref="mode",
    )


def frame() -> El:
    """The conversation: the welcome with setup and ideas (an empty chat), the
    message list, the "New messages" pill."""
    setup = e(
        "div",
        "chat-setup",
        e("p", text="First, choose a model provider and enter your API key."),
        btn("Set up a provider", action="banner-settings", cls="btn btn-primary"),
        testid="setup-hint",
        hidden=True,
        ref="setup",
    )
    ideas = [btn(text, action="starter", testid="starter", cls="starter") for text in STARTERS]
    empty = e(
        "div",
        "chat-empty",
        e("h2", text="What would you like to build?"),
        e(
            "p",
            text="Tell Chief about your idea: a page, a small game, a tool. "
            "Chief asks what it needs to know and helps you shape a plan.",
        ),
        # Connecting a provider comes before the ideas: nothing can be sent without it.
        setup,
        e("div", "starters", ideas, testid="starters", aria_label="Ideas to start"),
        ref="empty",
    )
    messages = e(
        "div",
        "messages",
        testid="message-list",
        role="log",
        aria_label="Conversation with Chief",
        aria_live="polite",
        aria_relevant="additions",
        tabindex="0",
        ref="list",
    )
    pill = btn(
        "New messages ↓",
        action="to-latest",
        testid="new-messages",
        cls="btn btn-small new-messages",
        hidden=True,
        ref="pill",
    )
    return e("div", "messages-scroll", empty, messages, pill, ref="scroller")


def _dismiss(action: str, label: str) -> El:
    return btn("✕", action=action, cls="icon-btn", aria_label=label)


def banners() -> list[El]:
    """What Chief is doing, the countdown to a retry, a notice, the error banner."""
    return [
        e("div", "chief-activity", testid="chief-activity", hidden=True, ref="activity"),
        e(
            "div",
            "chief-wait",
            e("span", "banner-text", testid="retry-countdown", ref="wait_text"),
            btn("Cancel", action="stop", testid="retry-cancel", cls="btn btn-small"),
            testid="retry-wait",
            role="status",
            hidden=True,
            ref="wait",
        ),
        e(
            "div",
            "chief-notice",
            e("span", "banner-text", ref="notice_text"),
            _dismiss("notice-dismiss", "Dismiss notice"),
            testid="chief-notice",
            role="status",
            hidden=True,
            ref="notice",
        ),
        e(
            "div",
            "error-banner",
            e("div", "banner-text", ref="banner_text"),
            e(
                "div",
                "banner-actions",
                btn("Open Settings", action="banner-settings", cls="btn btn-small", ref="settings"),
                _dismiss("banner-dismiss", "Dismiss error"),
            ),
            testid="error-banner",
            role="alert",
            hidden=True,
            ref="banner",
        ),
    ]


def error_text(title: str, message: str) -> list[El | str]:
    """The error banner's words: what went wrong, in bold, then what to do."""
    return [e("strong", text=title), " ", message]


def composer(hint: str) -> El:
    """The message box, its hint (``hint``: the keys that send), Stop and Send, and
    the images going with the message (their tray, Attach, the picker, a refusal)."""
    return e(
        "form",
        "composer",
        attach.tray(),
        e(
            "textarea",
            "chat-input",
            testid="chat-input",
            rows="3",
            placeholder=PLACEHOLDER,
            aria_label="Message to Chief",
            aria_describedby="composer-hint",
            ref="input",
        ),
        e(
            "div",
            "composer-bar",
            attach.attach_button(),
            e("span", "composer-hint", id="composer-hint", text=hint, ref="hint"),
            btn(
                "Stop",
                action="stop",
                testid="stop-button",
                cls="btn btn-stop",
                hidden=True,
                ref="stop",
            ),
            e("button", "btn btn-primary", "Send", type="submit", testid="send-button", ref="send"),
        ),
        attach.message(),
        attach.picker(),
        aria_label="Write to Chief",
        ref="composer",
    )


def send_hint(platform: str) -> str:
    """Both keys work everywhere (a Mac keyboard on Linux, Ctrl on a Mac); the
    one this machine names comes first."""
    keys = "⌘+Enter or Ctrl+Enter" if "Mac" in platform else "Ctrl+Enter or ⌘+Enter"
    return keys + " to send"


def chats_bar() -> El:
    return e(
        "div",
        "chats-bar",
        e("select", "chat-select", testid="chat-select", aria_label="Conversation", ref="select"),
        btn("New chat", action="chat-new", testid="chat-new", cls="btn btn-small"),
        btn("Rename", action="chat-rename", testid="chat-rename", cls="msg-copy"),
        btn("Delete", action="chat-delete", testid="chat-delete", cls="msg-copy"),
        testid="chats-bar",
        hidden=True,
        ref="chats",
    )


def chat_options(chats: list[tuple[str, str]]) -> list[El]:
    """The chats bar's list: each conversation's ``(id, title)``."""
    return [e("option", value=chat_id, text=title) for chat_id, title in chats]


def copy_button() -> El:
    return btn(
        "Copy",
        action="copy-message",
        testid="copy-message",
        cls="msg-copy",
        aria_label="Copy this message",
    )


def alt_nav() -> El:
    """``‹ 1/2 ›``: flip between a message's or an answer's versions."""
    return e(
        "span",
        "alt-nav",
        btn(
            "‹", action="alt-prev", testid="alt-prev", cls="icon-btn", aria_label="Previous version"
        ),
        e("span", "alt-label", testid="alt-label"),
        btn("›", action="alt-next", testid="alt-next", cls="icon-btn", aria_label="Next version"),
        testid="alt-nav",
        hidden=True,
        ref="alts",
    )


def images_stripped(text: str) -> El:
    """On a reply whose request went without the person's images (``text`` says so)."""
    return e("p", "msg-notice", text, testid="images-stripped", role="note")


#: The folded note's line: what it is, so nobody wonders who wrote it.
NOTE_SUMMARY = "Ralph's report, passed to Chief by the page (open to read it)"


def note(text: str) -> El:
    """A note the page added to Chief's turn (Ralph's report): folded, with a
    line that says what it is and who wrote it."""
    return e(
        "div",
        "msg msg-note",
        e("details", None, e("summary", text=NOTE_SUMMARY), text),
        testid="message-note",
    )


def user_message(seq: int, text: str, *, edit: bool, images: El | None = None) -> El:
    """One of the person's messages: its words, images, versions, Copy and Edit."""
    return e(
        "article",
        "msg msg-user",
        e("div", "msg-author", text="You"),
        e("div", "msg-body", testid="message-user", text=text),
        images,
        e(
            "div",
            "msg-meta",
            alt_nav(),
            copy_button(),
            btn("Edit", action="edit", testid="edit-button", cls="msg-copy", hidden=not edit),
        ),
        aria_label="You",
        data_seq=str(seq),
    )


def turn_block() -> El:
    """Chief's answer to one turn: the rounds' box, and one status, usage line,
    Copy, Regenerate, Continue and Retry for the whole turn."""
    return e(
        "article",
        "msg msg-assistant",
        e("div", "msg-author", text="Chief"),
        e("div", "turn-rounds", ref="box"),
        e(
            "div",
            "msg-meta",
            alt_nav(),
            e("span", "msg-status", testid="message-status", ref="status"),
            e("span", "usage", testid="usage", ref="usage"),
            copy_button(),
            btn(
                "Regenerate",
                action="regenerate",
                testid="regenerate-button",
                cls="msg-copy",
                hidden=True,
                ref="regenerate",
            ),
            btn(
                "Continue",
                action="continue",
                testid="continue-button",
                cls="btn btn-small",
                title="Ask Chief to go on from where this reply stopped",
                hidden=True,
                ref="cont",
            ),
            btn(
                "Retry",
                action="retry",
                testid="retry-button",
                cls="btn btn-small",
                hidden=True,
                ref="retry",
            ),
        ),
        testid="reply",
        aria_label="Chief",
    )


def _reply_error() -> El:
    """A failed reply says why in it, once (no banner repeats it): the cause and its
    fix, and Settings where the fix is there (Retry is the turn's).  Refs:
    ``error``, ``error_text``, ``error_settings``."""
    words = e("p", "msg-error-text", testid="message-error", role="alert", ref="error_text")
    fix = {"testid": "message-error-settings", "cls": "btn btn-small", "ref": "error_settings"}
    settings = btn("Open Settings", action="banner-settings", hidden=True, **fix)
    return e("div", "msg-error", words, settings, hidden=True, ref="error")


def reply_round(seq: int) -> El:
    """One round (reply record) of a turn: trim note, reasoning, words, sources,
    tool calls, the plan, an error."""
    return e(
        "div",
        "round",
        e("p", "msg-note", hidden=True, ref="trim"),
        e(
            "details",
            "reasoning",
            e("summary", text="Reasoning"),
            e("div", "reasoning-text", ref="reasoning_text"),
            testid="reasoning",
            hidden=True,
            ref="reasoning",
        ),
        e("div", "msg-body md", testid="message-assistant", ref="body"),
        e("nav", "msg-sources", testid="sources", hidden=True, ref="sources"),
        e(
            "details",
            "tool-round",
            e("summary", "tool-round-summary", ref="tools_summary"),
            testid="tool-round",
            hidden=True,
            ref="tools",
        ),
        e(
            "details",
            "plan",
            e("summary", text="The plan"),
            e("div", "msg-body md", ref="plan_body"),
            e("div", "plan-actions", _build_this(), hidden=True, ref="plan_actions"),
            testid="chief-plan",
            open=True,
            hidden=True,
            ref="plan",
        ),
        _reply_error(),
        testid="round",
        data_seq=str(seq),
    )


def _build_this() -> El:
    """The plan card's hand-off: the plan to Ralph, with no model call."""
    title = "Hand this plan to Ralph now (no need to wait for Chief)"
    cls = "btn btn-primary btn-small"
    return btn("Build this", action="build-plan", testid="build-plan", cls=cls, title=title)


def tool_call(name: str, args: str) -> El:
    """One tool call of a round; its result fills ``result`` and ``output``."""
    return e(
        "details",
        "tool-call",
        e(
            "summary",
            None,
            e("code", "tool-name", text=name),
            e("span", "tool-args", text=args),
            e("span", "tool-result", ref="result"),
        ),
        e("pre", "tool-output", text="…", ref="output"),
        testid="chief-tool-call",
        data_tool=name,
    )


def edit_box(text: str) -> El:
    """Editing one of the person's messages in place."""
    box = e(
        "textarea",
        "chat-input msg-editor-input",
        text=text,
        testid="edit-input",
        rows="3",
        aria_label="Edit your message",
        ref="box",
    )
    hint = "Sends from here; what followed stays as the earlier version."
    return e(
        "div",
        "msg-editor",
        box,
        e(
            "div",
            "composer-bar",
            e("span", "composer-hint", text=hint),
            btn("Cancel", action="edit-cancel"),
            btn("Send", action="edit-send", testid="edit-send", cls="btn btn-primary"),
        ),
    )
