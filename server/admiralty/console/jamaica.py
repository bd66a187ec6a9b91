"""Jamaica on the console: the track, the ships' holds, the dice, and the log in plain words.

The track shows the 50 spaces in id order under a ruler of space numbers, the numbers the
log speaks in; `LEGEND` names every glyph.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from admiralty.console.screen import GHOST_STYLE, SEAT_STYLES
from admiralty.games import load_game

GHOST = -1
TOKEN_STYLES = {"gold": "yellow", "food": "green", "gunpowder": "red"}
TOKEN_LETTERS = {"gold": "g", "food": "f", "gunpowder": "p"}
SYMBOLS = {
    "forward": "fwd",
    "backward": "back",
    "gold": "gold",
    "food": "food",
    "gunpowder": "powder",
}
POWER_NAMES = {"hand_size": "Map", "reroll": "Sabre", "combat_bonus": "Beth", "extra_hold": "6th"}
LAP_MARKS = {"pre_start": "<", "racing": "", "finished": "✓"}
SPACE_GLYPHS = {"port_royal": "P", "port": "$", "sea": "~", "lair": "☠"}
ROUND_KEY = "round"
SCORE_NAME = "score"
LEGEND = (
    ("P", "Port Royal"),
    ("~", "sea"),
    ("$", "port"),
    ("☠", "pirate lair (bold: its treasure is still there)"),
    ("A a", "lanes of fork A: capital outer, small inner"),
    ("0-5", "a ship by its seat (G the Ghost; a reversed digit: that many ships)"),
    ("space 12<", "before the start line"),
    ("space 12✓", "home at Port Royal"),
    ("3g 2f 1p", "a hold of 3 gold, 2 food or 1 gunpowder (· empty, + the 6th hold)"),
    (
        "Map Sabre Beth 6th",
        "powers held: Morgan's Map (a hand of 4), Saran's Sabre (a "
        "re-roll), Lady Beth (+2 in combat), the 6th Hold",
    ),
    ("▮", "a face-down treasure card"),
    ("fwd/gold", "a card's morning / evening action"),
    ("☀ 6 ☾ 4", "the Captain's morning and evening dice"),
    (
        "score",
        "the score if the game ended now: the space's value, the gold and the treasures known",
    ),
    ("⚔", "a battle under way: its stage and the combat dice rolled"),
    (
        "5+2=9",
        "a combat roll: the die + the gunpowder spent (= the strength, when Lady Beth adds to it)",
    ),
    ("★", "the combat die's star: that ship wins at once"),
)
"""Every glyph and abbreviation of the board, the players' table and the battles."""


@cache
def _treasure_names() -> dict[str, str]:
    """Treasure ids ("sarans_sabre") by their names in the game data ("Saran's Sabre")."""
    return {t["id"]: t["name"] for t in load_game("jamaica").static_info()["treasures"]}


def treasure_name(treasure: str) -> str:
    return _treasure_names().get(treasure, treasure)


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
    return _say(
        Text(f"Round {d['round']}", style="bold"),
        ": ",
        names[d["captain"]],
        f" is Captain and rolls {d['dice'][0]} and {d['dice'][1]}",
    )


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
    return _say(
        ship(names, d["ship"]),
        f" loads {d['count']}{source} {d['kind']} into hold {d['hold']}{dumped}",
    )


def _paid(d, names):
    return _say(ship(names, d["ship"]), f" pays {d['amount']} {d['kind']} at {d['space']}")


def _shortage(d, names):
    return _say(
        ship(names, d["ship"]),
        Text(" is short", style="bold red"),
        f" of {d['kind']} at {d['space']}: gives up {d['paid']} of {d['cost']}",
    )


def _retreated(d, names):
    return _say(ship(names, d["ship"]), f" retreats from {d['from']} to {d['to']}")


def _treasure_drawn(d, names):
    found = f" ({d['value']:+d})" if "value" in d else ""
    what = (
        "a face-down treasure" + found
        if d.get("face_down")
        else treasure_name(d.get("treasure", ""))
    )
    return _say(ship(names, d["ship"]), f" finds {what} at {d['space']}")


def _combat_result(d, names):
    attacker, defender = ship(names, d["attacker"]), ship(names, d["defender"])
    powder = d["gunpowder"][0]
    fight = f" with {powder} gunpowder" if powder else ""
    faces, strengths = d["faces"], d["strengths"]
    score = " vs ".join(
        _strength(faces[i], d["gunpowder"][i], strengths[i]) for i in (0, 1) if faces[i] is not None
    )
    outcome = (
        Text("a draw", style="dim")
        if d["winner"] is None
        else _say(ship(names, d["winner"]), " wins")
    )
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
    card = treasure_name(d["treasure"]) if "treasure" in d else "a face-down treasure"
    return _say("— ", winner, f" takes {card}")


def _sabre(d, names):
    return _say(
        names[d["seat"]], f" draws Saran's Sabre: the {d['role']}'s {d['face']} is rerolled"
    )


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


def omniscient(public: Mapping[str, Any], seats: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
    """The public view with each player as its own seat sees it (hand, treasures)."""
    return {**public, "players": [seat["players"][i] for i, seat in enumerate(seats)]}


def header(view: Mapping[str, Any], names: Sequence[Text]) -> Text:
    dice = view["dice"]
    line = _say(
        Text("Jamaica", style="bold"),
        f" · round {view['round']} · Captain ",
        names[view["captain"]],
    )
    if dice.get("morning") is not None:
        line.append(f" · ☀ {dice['morning']} ☾ {dice['evening']}")
    elif dice.get("rolled"):
        line.append(f" · rolled {dice['rolled'][0]}, {dice['rolled'][1]}")
    bank = view["bank"]
    line.append(f" · bank {bank['gold']}g {bank['food']}f {bank['gunpowder']}p", style="dim")
    return line


def body(
    view: Mapping[str, Any],
    board: Mapping[str, Any],
    names: Sequence[Text],
    width: int,
    compact: bool = False,
) -> RenderableType:
    """The track (when it fits, and not `compact`), the players, and a battle under way."""
    parts: list[RenderableType] = []
    if width >= len(board["spaces"]) + 8 and not compact:
        parts.append(track(view, board))
    parts.append(players(view, board, names, compact=compact or width < 72))
    if view.get("combat") and not compact:
        parts.append(combat_line(view["combat"], names))
    return Group(*parts)


def secrets(view: Mapping[str, Any], seat: int, board: Mapping[str, Any]) -> list[Text]:
    """What only `seat` sees: its hand, the card it chose, its treasures' values."""
    cards = {card["id"]: card for card in board.get("cards", [])}
    me = view["players"][seat]
    lines = [
        Text("hand: " + (", ".join(_card_name(cards, c) for c in me.get("hand") or []) or "empty"))
    ]
    if me.get("chosen_card") is not None:
        lines.append(Text(f"chosen: {_card_name(cards, me['chosen_card'])}"))
    if me.get("treasures"):
        lines.append(Text("treasures: " + " ".join(f"{v:+d}" for v in me["treasures"])))
    return lines


def _card_name(cards: Mapping[int, Mapping[str, Any]], card: int) -> str:
    if card not in cards:
        return f"card {card}"
    return f"{SYMBOLS[cards[card]['morning']]}/{SYMBOLS[cards[card]['evening']]}"


def score_parts(view: Mapping[str, Any]) -> dict[str, list[Any]]:
    """Jamaica's score is one sum (gold, treasures, the track's space): no parts to add."""
    return {}


def track(view: Mapping[str, Any], board: Mapping[str, Any]) -> Text:
    """The 50 spaces in id order, one cell each: kind, fork lane, and the ships on it."""
    spaces = board["spaces"]
    treasure = set(view["lairs_with_treasure"])
    kinds, lanes, ships = Text("track "), Text("lanes "), Text("ships ")
    ruler = Text("space " + _ruler(len(spaces)), style="dim")
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
        lanes.append(
            " " if not fork else fork.upper() if space["lane"] == "outer" else fork.lower(),
            style="dim",
        )
        here = occupants.get(space["id"], [])
        ships.append(_occupant(here))
    return Text("\n").join([ruler, kinds, lanes, ships])


def _ruler(length: int) -> str:
    """Space numbers every five spaces, each written from its space's column."""
    cells = [" "] * length
    for number in range(0, length, 5):
        label = str(number)
        if number + len(label) <= length:
            cells[number : number + len(label)] = label
    return "".join(cells)


def _occupant(seats: list[int]) -> Text:
    if not seats:
        return Text(" ")
    if len(seats) > 1:
        return Text(str(len(seats)), style="bold reverse")
    seat = seats[0]
    if seat == GHOST:
        return Text("G", style=GHOST_STYLE)
    return Text(str(seat), style=f"bold {SEAT_STYLES[seat % len(SEAT_STYLES)]}")


def players(
    view: Mapping[str, Any], board: Mapping[str, Any], names: Sequence[Text], compact: bool
) -> Table:
    cards = {card["id"]: card for card in board.get("cards", [])}
    powers = {
        t["id"]: POWER_NAMES.get(t.get("effect") or "", t["name"])
        for t in board.get("treasures", [])
    }
    table = Table(box=None, pad_edge=False, header_style="bold dim")
    columns = ["ship", "space", "to go", "holds", "powers", "treasures", "card", "score"]
    if compact:
        columns = ["ship", "space", "holds", "card", "score"]
    for column in columns:
        table.add_column(
            column,
            no_wrap=True,
            justify="right" if column in ("space", "to go", "score") else "left",
        )
    rows = [(names[p["seat"]], p) for p in view["players"]]
    if view.get("ghost"):
        rows.append((Text("Ghost", style=GHOST_STYLE), view["ghost"]))
    for name, p in rows:
        cells = {
            "ship": name,
            "space": f"{p['space']}{LAP_MARKS[p['lap']]}",
            "to go": str(p.get("steps_left", "")),
            "holds": holds(p["holds"]),
            "powers": " ".join(powers.get(x, x) for x in p.get("powers", [])),
            "treasures": _treasures(p),
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
    line = _say(
        "⚔ ",
        ship(names, combat["attacker"]),
        " vs ",
        ship(names, combat["defender"]),
        f" at {combat['space']}: {combat['stage'].replace('_', ' ')}",
    )
    rolls = [r for r in combat.get("rolls", []) if r is not None]
    if rolls:
        line.append(" · rolls " + ", ".join("★" if r == "star" else str(r) for r in rolls))
    return line
