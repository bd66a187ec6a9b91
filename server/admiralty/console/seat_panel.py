"""The watched seat's side of the screen: what only it sees (its cards), the request it
got, the option it chose, how long it took, and what went wrong.

It reads the seat's own view and its own `Decision`s, never another seat's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from admiralty.referee.timeline import Decision
from admiralty.text import printable

HOW = {
    "forced": "a single option: not asked",
    "auto_pass": "passed for it (auto-pass)",
    "forfeited": "played by the referee (the seat is out)",
}
"""How the referee answered a request it did not ask."""
CHOSEN = "▶"


def decision_line(decision: Decision, name: Text) -> Text:
    """The log's line for one of the seat's decisions."""
    key, label = decision.options[decision.chosen]
    line = Text.assemble(
        Text(f"{CHOSEN} ", style="bold"), name, f" · {decision.kind}: {key} “{label}”"
    )
    return line.append_text(_how(decision, " in {} ms", " applied by the referee", " · {}"))


def options_text(decision: Decision, around: int | None = None) -> Text:
    """The options by key and label, the chosen one marked; with `around`, only that many
    on either side of the chosen one."""
    first, last = 0, len(decision.options)
    if around is not None:
        first = max(0, decision.chosen - around)
        last = min(last, decision.chosen + around + 1)
    lines = []
    if first:
        lines.append(Text(f"  … {first} more", style="dim"))
    for index in range(first, last):
        key, label = decision.options[index]
        mark = CHOSEN if index == decision.chosen else " "
        lines.append(
            Text(
                f"{mark} {index}. {key} — {label}", style="bold" if index == decision.chosen else ""
            )
        )
    if last < len(decision.options):
        lines.append(Text(f"  … {len(decision.options) - last} more", style="dim"))
    return Text("\n").join(lines)


def request_text(decision: Decision) -> Text:
    """The request's kind and prompt, and how it was answered."""
    text = Text.assemble(
        Text(f"step {decision.step} · {decision.kind}", style="bold"), f"\n{decision.prompt}"
    )
    return text.append_text(
        _how(decision, "\nanswered in {} ms", "\nno valid answer: the referee applied ▶", "\n{}")
    )


def _how(decision: Decision, answered: str, incident: str, other: str) -> Text:
    """How the answer came, in the caller's wording: the bot's latency, the referee's
    answer after an incident, or why the seat was not asked."""
    if decision.how == "bot":
        return Text(answered.format(f"{decision.latency_ms:.0f}"), style="dim")
    if decision.how == "incident":
        return Text(incident, style="bold yellow")
    return Text(other.format(HOW.get(decision.how, decision.how)), style="dim")


def seat_panel(
    name: Text,
    secrets: Sequence[Text],
    decision: Decision | None,
    incidents: Sequence[Mapping[str, Any]],
    around: int | None,
) -> Panel:
    """The panel: the seat's cards, its latest request with the options, its incidents."""
    parts: list[RenderableType] = [line for line in secrets]
    if decision is None:
        parts.append(Text("not asked yet", style="dim"))
    else:
        parts += [request_text(decision), options_text(decision, around)]
    for incident in incidents:
        parts.append(Text(f"⚠ {incident['kind']}: {printable(incident['detail'])}", style="yellow"))
    return Panel(
        Group(*parts),
        title=Text.assemble("seat's eye: ", name),
        title_align="left",
        border_style="dim",
    )
