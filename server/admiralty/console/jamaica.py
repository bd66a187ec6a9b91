"""Jamaica on the console: the track, the ships' holds, the dice, and the log in plain words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from admiralty.console.screen import GHOST_STYLE, SEAT_STYLES

GHOST = -1
TOKEN_STYLES = {"gold": "yellow", "food": "green", "gunpowder": "red"}
TOKEN_LETTERS = {"gold": "g", "food": "f", "gunpowder": "p"}
SYMBOLS = {"forward": "fwd", "backward": "back", "gold": "gold", "food": "food",
           "gunpowder": "powder"}
POWER_NAMES = {"hand_size": "Map", "reroll": "Sabre", "combat_bonus": "Beth",
               "extra_hold": "6th"}
LAP_MARKS = {"pre_start": "<", "racing": "", "finished": "✓"}
SPACE_GLYPHS = {"port_royal": "P", "port": "$", "sea": "~", "lair": "☠"}


def ship(names: Sequence[Text], ship_id: int) -> Text:
    return Text("Ghost", style=GHOST_STYLE) if ship_id == GHOST else names[ship_id]


def _say(*parts: str | Text) -> Text:
    return Text.assemble(*parts)


def describe(event: Mapping[str, Any], names: Sequence[Text]) -> Text | None:
    """One line for the events a spectator cares about; None for bookkeeping."""
    kind, d = event["kind"], event.get("data", {})
    describer = _DESCRIBERS.get(kind)
    return describer(d, names) if describer else None


def _round_started(d, names):
    return _say(Text(f"Round {d['round']}", style="bold"), ": ", names[d["captain"]],
                f" is Captain and rolls {d['dice'][0]} and {d['dice'][1]}")


def _dice_placed(d, names):
    return _say(names[d["captain"]], f" places ☀ {d['morning']} and ☾ {d['evening']}")


def _card_revealed(d, names):
    return _say(names[d["seat"]], f" plays {SYMBOLS[d['morning']]} / {SYMBOLS[d['evening']]}")


def _moved(d, names):
    way = "forward" if d["direction"] > 0 else "back"
    return _say(ship(names, d["ship"]), f" sails {way} from {d['from']} to {d['to']}")


def _loaded(d, names):
    source = " stolen" if d.get("source") == "loot" else ""
    emptied = d.get("emptied")
    dumped = f", dumping {emptied['count']} {emptied['kind']}" if emptied else ""
    return _say(ship(names, d["ship"]), f" loads {d['count']}{source} {d['kind']}"
                f" into hold {d['hold']}{dumped}")


def _paid(d, names):
    return _say(ship(names, d["ship"]), f" pays {d['amount']} {d['kind']} at {d['space']}")


def _shortage(d, names):
    return _say(ship(names, d["ship"]), Text(" is short", style="bold red"),
                f" of {d['kind']} at {d['space']}: gives up {d['paid']} of {d['cost']}")


def _retreated(d, names):
    return _say(ship(names, d["ship"]), f" retreats from {d['from']} to {d['to']}")


def _treasure_drawn(d, names):
    found = f" ({d['value']:+d})" if "value" in d else ""
    what = "a face-down treasure" + found if d.get("face_down") else d.get("treasure", "")
    return _say(ship(names, d["ship"]), f" finds {what} at {d['space']}")


def _combat_result(d, names):
    attacker, defender = ship(names, d["attacker"]), ship(names, d["defender"])
    powder = d["gunpowder"][0]
    fight = f" with {powder} gunpowder" if powder else ""
    faces, strengths = d["faces"], d["strengths"]
    score = " vs ".join(_strength(faces[i], d["gunpowder"][i], strengths[i]) for i in (0, 1)
                        if faces[i] is not None)
    outcome = (Text("a draw", style="dim") if d["winner"] is None
               else _say(ship(names, d["winner"]), " wins"))
    return _say(attacker, " attacks ", defender, fight, f": {score} — ", outcome)


def _strength(face, powder, strength) -> str:
    if face == "star":
        return "★"
    return f"{face}+{powder}" + (f"={strength}" if strength not in (None, face + powder) else "")


def _spoils(d, names):
    winner = ship(names, d["winner"])
    loot = d["loot"]
    if loot == "none":
        return _say("— ", winner, " takes nothing")
    if loot == "hold":
        return _say("— ", winner, f" takes {d['count']} {d['kind']}")
    if loot == "give":
        return _say("— ", winner, " gives ", ship(names, d["loser"]), " a treasure card")
    card = d.get("treasure", "a face-down treasure")
    return _say("— ", winner, f" takes {card}")


def _sabre(d, names):
    return _say(names[d["seat"]], f" draws Saran's Sabre: the {d['role']}'s {d['face']}"
                " is rerolled")


def _finished(d, names):
    return _say(ship(names, d["ship"]), Text(" reaches Port Royal!", style="bold"))


def _game_over(d, names):
    why = "a ship is home" if d["reason"] == "finish" else "the round cap is reached"
    return Text(f"Game over: {why} after round {d['round']}", style="bold")


_DESCRIBERS = {
    "round_started": _round_started,
    "dice_placed": _dice_placed,
    "card_revealed": _card_revealed,
    "moved": _moved,
    "loaded": _loaded,
    "paid": _paid,
    "shortage": _shortage,
    "retreated": _retreated,
    "treasure_drawn": _treasure_drawn,
    "combat_result": _combat_result,
    "spoils": _spoils,
    "sabre_used": _sabre,
    "finished": _finished,
    "game_over": _game_over,
}


def omniscient(public: Mapping[str, Any], seats: Sequence[Mapping[str, Any]]
               ) -> Mapping[str, Any]:
    """The public view with each player as its own seat sees it (hand, treasures)."""
    return {**public, "players": [seat["players"][i] for i, seat in enumerate(seats)]}


def header(view: Mapping[str, Any], names: Sequence[Text]) -> Text:
    dice = view["dice"]
    line = _say(Text("Jamaica", style="bold"), f" · round {view['round']} · Captain ",
                names[view["captain"]])
    if dice.get("morning") is not None:
        line.append(f" · ☀ {dice['morning']} ☾ {dice['evening']}")
    elif dice.get("rolled"):
        line.append(f" · rolled {dice['rolled'][0]}, {dice['rolled'][1]}")
    bank = view["bank"]
    line.append(f" · bank {bank['gold']}g {bank['food']}f {bank['gunpowder']}p", style="dim")
    return line


def body(view: Mapping[str, Any], board: Mapping[str, Any], names: Sequence[Text],
         width: int) -> RenderableType:
    parts: list[RenderableType] = []
    if width >= len(board["spaces"]) + 8:
        parts.append(track(view, board))
    parts.append(players(view, board, names, compact=width < 72))
    if view.get("combat"):
        parts.append(combat_line(view["combat"], names))
    return Group(*parts)


def track(view: Mapping[str, Any], board: Mapping[str, Any]) -> Text:
    """The 50 spaces in id order, one cell each: kind, fork lane, and the ships on it."""
    spaces = board["spaces"]
    treasure = set(view["lairs_with_treasure"])
    kinds, lanes, ships = Text("track "), Text("lanes "), Text("ships ")
    occupants: dict[int, list[int]] = {}
    for player in view["players"]:
        occupants.setdefault(player["space"], []).append(player["seat"])
    if view.get("ghost"):
        occupants.setdefault(view["ghost"]["space"], []).append(GHOST)
    for space in spaces:
        glyph = SPACE_GLYPHS[space["kind"]]
        style = ("bold yellow" if space["id"] in treasure else "dim") if glyph == "☠" else ""
        kinds.append(glyph, style=style)
        fork = space.get("fork")
        lanes.append(" " if not fork else fork.upper() if space["lane"] == "outer"
                     else fork.lower(), style="dim")
        here = occupants.get(space["id"], [])
        ships.append(_occupant(here))
    return Text("\n").join([kinds, lanes, ships])


def _occupant(seats: list[int]) -> Text:
    if not seats:
        return Text(" ")
    if len(seats) > 1:
        return Text(str(len(seats)), style="bold reverse")
    seat = seats[0]
    if seat == GHOST:
        return Text("G", style=GHOST_STYLE)
    return Text(str(seat), style=f"bold {SEAT_STYLES[seat % len(SEAT_STYLES)]}")


def players(view: Mapping[str, Any], board: Mapping[str, Any], names: Sequence[Text],
            compact: bool) -> Table:
    cards = {card["id"]: card for card in board.get("cards", [])}
    powers = {t["id"]: POWER_NAMES.get(t.get("effect") or "", t["name"])
              for t in board.get("treasures", [])}
    table = Table(box=None, pad_edge=False, header_style="bold dim")
    columns = ["ship", "at", "left", "holds", "powers", "treas.", "card", "score"]
    if compact:
        columns = ["ship", "at", "holds", "card", "score"]
    for column in columns:
        table.add_column(column, justify="right" if column in ("at", "left", "score") else "left",
                         no_wrap=True)
    rows = [(names[p["seat"]], p) for p in view["players"]]
    if view.get("ghost"):
        rows.append((Text("Ghost", style=GHOST_STYLE), view["ghost"]))
    for name, p in rows:
        cells = {
            "ship": name,
            "at": f"{p['space']}{LAP_MARKS[p['lap']]}",
            "left": str(p.get("steps_left", "")),
            "holds": holds(p["holds"]),
            "powers": " ".join(powers.get(x, x) for x in p.get("powers", [])),
            "treas.": _treasures(p),
            "card": _card(p, cards),
            "score": str(p.get("score", "")),
        }
        table.add_row(*(cells[c] for c in columns))
    return table


def holds(items: Sequence[Mapping[str, Any]]) -> Text:
    text = Text()
    for hold in items:
        if text:
            text.append(" ")
        if hold.get("sixth"):
            text.append("+", style="dim")
        kind = hold.get("kind")
        if not kind:
            text.append("·", style="dim")
        else:
            text.append(f"{hold['count']}{TOKEN_LETTERS[kind]}", style=TOKEN_STYLES[kind])
    return text


def _treasures(player: Mapping[str, Any]) -> str:
    values = player.get("treasures")
    if values:
        return " ".join(f"{v:+d}" for v in values)
    return "▮" * player.get("face_down_treasures", 0)


def _card(player: Mapping[str, Any], cards: Mapping[int, Mapping[str, Any]]) -> str:
    card = player.get("revealed_card")
    if card is not None and card in cards:
        return f"{SYMBOLS[cards[card]['morning']]}/{SYMBOLS[cards[card]['evening']]}"
    return "chosen" if player.get("has_chosen") else ""


def combat_line(combat: Mapping[str, Any], names: Sequence[Text]) -> Text:
    line = _say("⚔ ", ship(names, combat["attacker"]), " vs ", ship(names, combat["defender"]),
                f" at {combat['space']}: {combat['stage'].replace('_', ' ')}")
    rolls = [r for r in combat.get("rolls", []) if r is not None]
    if rolls:
        line.append(" · rolls " + ", ".join("★" if r == "star" else str(r) for r in rolls))
    return line
