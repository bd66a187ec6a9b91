"""Black Fleet on the console: the map with every ship, ports with stocks and prices,
money and development cards, and the log in plain words.

The map has column letters and row numbers, and the log names spaces by them ("C4");
every piece has a glyph of its own, so the screen reads the same without colour.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from admiralty.console.screen import SEAT_STYLES, natural_width, side_by_side
from admiralty.games import load_game

CUBE_STYLES = {
    "yellow": "yellow",
    "red": "red",
    "green": "green",
    "blue": "blue",
    "purple": "magenta",
}
CUBE_LETTERS = {colour: colour[0] for colour in CUBE_STYLES}
NAVY_STYLES = {"yellow": "bold black on yellow", "purple": "bold white on magenta"}
NAVY_GLYPHS = {"yellow": "▲", "purple": "▼"}
TERRAIN = {
    "#": ("▒", "dim"),
    "D": ("≈", "blue"),
    ".": ("·", "dim blue"),
    "Y": ("·", "dim blue"),
    "U": ("·", "dim blue"),
}
BEACHES = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
PIRATE_LETTERS = "abcdef"
ROUND_KEY = "round"
SCORE_NAME = "doubloons"
LEGEND = (
    ("0-5", "a seat's merchant"),
    ("a-f", "its pirate (seat 0 a, 1 b, ...)"),
    ("▲ ▼", "the yellow and the purple navy"),
    ("T", "a port (its key)"),
    ("☠", "a pirate lair"),
    ("⁴", "a beach, its burial value"),
    ("≈", "a distant sea"),
    ("▒", "land"),
    ("·", "open sea"),
    ("A-M 1-9", "a space's column and row, as in the log"),
    ("y r g b p", "cargo cubes: yellow, red, green, blue, purple (- none)"),
    ("merchant | pirate", "the cubes each ship carries"),
    ("buys y3", "the port pays 3 for each yellow cube"),
    ("development", "cost of each development card, · not bought yet, ★ the ransom paid"),
    ("hand 2m 3f", "movement and fortune cards held"),
)
"""Every glyph of the map and the tables."""


@cache
def _coordinates() -> dict[int, str]:
    """Each space's column letter and row number on the map, by space id."""
    spaces = load_game("black_fleet").static_info()["board"]["spaces"]
    return {space["id"]: f"{chr(ord('A') + space['col'])}{space['row'] + 1}" for space in spaces}


@cache
def _port_names() -> dict[str, str]:
    """Port names by their keys on the map ("T" -> "Tortuga")."""
    return {
        port["key"]: port["name"]
        for port in load_game("black_fleet").static_info()["board"]["ports"]
    }


def coordinate(space: int | None) -> str:
    """A space as the map's margins name it ("C4"), or "off the map"."""
    return "off the map" if space is None else _coordinates().get(space, str(space))


def _ship_name(ship: str, names: Sequence[Text]) -> Text:
    """ "merchant:2" -> "<seat 2>'s merchant"; "navy:yellow" -> "yellow navy"."""
    kind, _, owner = ship.partition(":")
    if not owner.isdigit():
        return Text(f"{owner} {kind}", style=NAVY_STYLES.get(owner, ""))
    return Text.assemble(names[int(owner)], f"'s {kind}")


def describe(event: Mapping[str, Any], names: Sequence[Text]) -> Text | None:
    """One line for the events a spectator cares about; None for bookkeeping."""
    describer = _DESCRIBERS.get(event["kind"])
    return describer(event.get("data", {}), names) if describer else None


def _turn(d, names):
    return Text.assemble(Text(f"Turn {d['turn']}", style="bold"), ": ", names[d["seat"]])


def _movement(d, names):
    return Text.assemble(
        names[d["seat"]],
        f" plays {d['id']}: {d['navy']} navy "
        f"{d['navy_move']}, pirate {d['pirate']}, merchant {d['merchant']}",
    )


def _moved(d, names):
    return Text.assemble(
        _ship_name(d["ship"], names), f" sails {coordinate(d['from'])} → {coordinate(d['to'])}"
    )


def _delivered(d, names):
    port = _port_names().get(d["port"], d["port"])
    return Text.assemble(
        names[d["seat"]],
        f" sells {d['cubes']} {d['colour']} at {port} for {d['cubes'] * d['price']}",
    )


def _attacked(d, names):
    sunk = " and sinks it" if d.get("sunk") else ""
    return Text.assemble(
        names[d["seat"]],
        "'s pirate robs ",
        names[d["victim"]],
        f" of {d['cubes']} {d['colour']}{sunk}",
    )


def _buried(d, names):
    return Text.assemble(
        names[d["seat"]], f" buries {d['cubes']} at {coordinate(d['space'])} for {d['value']}"
    )


def _pirate_sunk(d, names):
    return Text.assemble(names[d["seat"]], "'s pirate is sunk by ", names[d["attacker"]])


def _fortune(d, names):
    return Text.assemble(names[d["seat"]], f" plays fortune “{d['title']}”")


def _bought(d, names):
    return Text.assemble(names[d["seat"]], f" buys “{d['title']}” for {d['cost']}")


def _victory(d, names):
    return Text.assemble(names[d["seat"]], Text(f" pays the ransom ({d['cost']})!", style="bold"))


def _game_over(d, names):
    why = "a ransom was paid" if d["reason"] == "victory" else "the round cap is reached"
    return Text(f"Game over: {why} after {d['rounds']} rounds", style="bold")


_DESCRIBERS = {
    "turn_started": _turn,
    "movement_played": _movement,
    "ship_moved": _moved,
    "delivered": _delivered,
    "attacked": _attacked,
    "buried": _buried,
    "pirate_sunk": _pirate_sunk,
    "fortune_played": _fortune,
    "development_bought": _bought,
    "victory_bought": _victory,
    "final_round": lambda d, names: Text.assemble(names[d["seat"]], " starts the final round"),
    "game_over": _game_over,
}


def omniscient(public: Mapping[str, Any], seats: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
    """The public view with each seat as it sees itself (hands, development cards)."""
    return {**public, "seats": [seat["seats"][i] for i, seat in enumerate(seats)]}


def header(view: Mapping[str, Any], names: Sequence[Text]) -> Text:
    line = Text.assemble(
        Text("Black Fleet", style="bold"), f" · round {view['round']} · turn {view['turn']}"
    )
    if view.get("active_seat") is not None:
        line.append_text(Text.assemble(" · ", names[view["active_seat"]], " to play"))
    if view.get("final_round"):
        line.append(" · FINAL ROUND", style="bold red")
    return line


def body(
    view: Mapping[str, Any],
    board: Mapping[str, Any],
    names: Sequence[Text],
    width: int,
    compact: bool = False,
) -> RenderableType:
    """The map beside the tables when both fit, else above them; `compact`: a dense map
    beside the players when it fits, else the players alone."""
    grid = board["board"]
    tables = (
        Group(players(view, names)) if compact else Group(players(view, names), ports(view, grid))
    )
    maps = [chart(view, grid, names, dense) for dense in ((True,) if compact else (False, True))]
    for sea in maps:
        layout = side_by_side(sea, tables, width)
        if layout is not None:
            return layout
    if compact or natural_width(maps[0]) > width:
        return tables
    return Group(maps[0], tables)


def chart(
    view: Mapping[str, Any], board: Mapping[str, Any], names: Sequence[Text], dense: bool = False
) -> Text:
    """The sea grid under column letters, each row after its number: terrain, ports,
    beaches and lairs, with every ship on its space; `dense` leaves out the gaps."""
    ships = _ships_by_space(view)
    ship_at = {(s["row"], s["col"]): ships[s["id"]] for s in board["spaces"] if s["id"] in ships}
    gap = "" if dense else " "
    letters = gap.join(chr(ord("A") + c) for c in range(board["cols"]))
    rows = [Text(f"   {letters}", style="dim")]
    for r, line in enumerate(board["grid"]):
        text = Text(f"{r + 1:>2} ", style="dim")
        for c, glyph in enumerate(line):
            text.append_text(_cell(glyph, ship_at.get((r, c))))
            text.append(gap)
        rows.append(text)
    return Text("\n").join(rows)


def _ships_by_space(view: Mapping[str, Any]) -> dict[int, Text]:
    ships: dict[int, Text] = {}
    for seat in view["seats"]:
        number = seat["seat"]
        style = f"bold {SEAT_STYLES[number % len(SEAT_STYLES)]}"
        for kind, mark in (("merchant", str(number)), ("pirate", PIRATE_LETTERS[number])):
            space = seat[kind].get("space")
            if space is not None:
                ships[space] = Text(mark, style=style)
    for colour, space in view["navies"].items():
        ships[space] = Text(NAVY_GLYPHS[colour], style=NAVY_STYLES[colour])
    return ships


def _cell(glyph: str, ship: Text | None) -> Text:
    if ship is not None:
        return ship
    if glyph in TERRAIN:
        char, style = TERRAIN[glyph]
        return Text(char, style=style)
    if glyph.isdigit():
        return Text(glyph.translate(BEACHES), style="yellow")
    if glyph == "L":
        return Text("☠", style="red")
    return Text(glyph, style="bold reverse")


def players(view: Mapping[str, Any], names: Sequence[Text]) -> Table:
    table = Table(box=None, pad_edge=False, header_style="bold dim")
    for column in ("ships", "money", "development", "merchant | pirate", "hand"):
        table.add_column(column, no_wrap=True, justify="right" if column == "money" else "left")
    for seat in view["seats"]:
        dev = " ".join(str(d["cost"]) if d["bought"] else "·" for d in seat["development"])
        if seat.get("victory_bought"):
            dev += " ★"
        cargo = _cubes(seat["merchant"]["cargo"])
        cargo.append(" | ")
        cargo.append_text(_cubes(seat["pirate"]["cargo"]))
        number = seat["seat"]
        ships = f"{number}{PIRATE_LETTERS[number]} "
        table.add_row(
            Text(ships) + names[number],
            str(seat["money"]),
            dev,
            cargo,
            f"{seat['movement_cards_held']}m {seat['fortune_cards_held']}f",
        )
    return table


def secrets(view: Mapping[str, Any], seat: int, board: Mapping[str, Any]) -> list[Text]:
    """What only `seat` sees: its movement and fortune cards, its development cards."""
    me = view["seats"][seat]
    moves = {card["id"]: card for card in board.get("movement_cards", [])}
    fortunes = {card["id"]: card["title"] for card in board.get("fortune_cards", [])}
    lines = [
        Text(
            "movement: "
            + (", ".join(_movement_card(moves, c) for c in me.get("movement_hand") or []) or "none")
        )
    ]
    lines.append(
        Text(
            "fortune: "
            + (
                ", ".join(
                    f"{c} {fortunes.get(c, '')}".strip() for c in me.get("fortune_hand") or []
                )
                or "none"
            )
        )
    )
    developments = [
        f"{d['cost']} {d['title']}" + (" (bought)" if d["bought"] else "")
        for d in me["development"]
        if d.get("title")
    ]
    if developments:
        lines.append(Text("development: " + ", ".join(developments)))
    return lines


def _movement_card(cards: Mapping[str, Mapping[str, Any]], card: str) -> str:
    c = cards.get(card)
    if c is None:
        return card
    return (
        f"{card} ({c['navy']} navy {c['navy_move']}, pirate {c['pirate']}, "
        f"merchant {c['merchant']})"
    )


def score_parts(view: Mapping[str, Any]) -> dict[str, list[Any]]:
    """What ranks the players before their doubloons: the ransom paid, then the number of
    development cards bought."""
    seats = view.get("seats") or []
    return {
        "ransom": ["paid" if s.get("victory_bought") else "-" for s in seats],
        "developments": [sum(1 for d in s["development"] if d["bought"]) for s in seats],
    }


def _cubes(colours: Sequence[str]) -> Text:
    text = Text()
    for colour in colours:
        text.append(CUBE_LETTERS.get(colour, "?"), style=CUBE_STYLES.get(colour, ""))
    return text or Text("-", style="dim")


def ports(view: Mapping[str, Any], board: Mapping[str, Any]) -> Table:
    stocks = {port["key"]: port for port in view["ports"]}
    table = Table(box=None, pad_edge=False, header_style="bold dim")
    for column in ("port", "stock", "buys"):
        table.add_column(column, no_wrap=True)
    for port in board["ports"]:
        buys = Text()
        for colour, price in port["buys"].items():
            buys.append(f"{colour[0]}{price} ", style=CUBE_STYLES.get(colour, ""))
        stock = f"{stocks[port['key']]['stock']} {port['colour']}"
        table.add_row(
            Text(f"{port['key']} {port['name']}"),
            Text(stock, style=CUBE_STYLES.get(port["colour"], "")),
            buys,
        )
    return table
