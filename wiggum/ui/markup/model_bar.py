"""The model switcher above an agent's tab as markup: its label, the list,
the context meter and the text beside it (tokens, cost).
``wiggum.web.views.model_bar`` mounts it; the labels are
:mod:`wiggum.ui.model_choice`'s."""

from __future__ import annotations

from ..markdown import El
from ..model_choice import bar_options, model_label
from ..models import ModelOption
from ..tree import e

__all__ = ["bar", "chosen_label", "options"]


def bar(role: str, title: str) -> El:
    """``role``'s bar (hidden until there is a model to show), ``title`` naming the agent."""
    sid = f"model-{role}"
    select = e("select", "model-switcher", id=sid, testid=f"model-switcher-{role}", ref="select")
    meter = e(
        "span",
        "meter",
        e("meter", min="0", max="1", value="0", testid=f"context-meter-{role}", ref="meter"),
        e("span", "meter-text", testid=f"meter-text-{role}", ref="meter_text"),
    )
    label = e("label", for_=sid, text=f"{title}'s model")
    return e("div", "model-bar", label, select, meter, testid=f"model-bar-{role}", hidden=True)


def options(models: list[ModelOption], current: str, kind: str) -> list[El]:
    """The list: the provider's models, the ``current`` one first if it lacks it."""
    return [
        e("option", value=o.id, text=model_label(o)) for o in bar_options(models, current, kind)
    ]


def chosen_label(models: list[ModelOption], current: str, kind: str) -> str:
    """The chosen model's whole label, for the list's title: on a phone the closed
    list may show only its start ("… $0.15 / $0.60 pe")."""
    return next((model_label(o) for o in bar_options(models, current, kind) if o.id == current), "")
