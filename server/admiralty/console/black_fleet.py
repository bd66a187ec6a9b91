"""Black Fleet on the console: the map with every ship, ports with stocks and prices,
money and development cards, and the log in plain words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from admiralty.console.screen import SEAT_STYLES

CUBE_STYLES = {"yellow": "yellow", "red": "red", "green": "green", "blue": "blue",
               "purple": "magenta"}
NAVY_STYLES = {"yellow": "bold black on yellow", "purple": "bold white on magenta"}
TERRAIN = {"#": ("▒", "dim"), "D": ("≈", "blue"), ".": ("·", "dim blue"),
           "Y": ("·", "dim blue"), "U": ("·", "dim blue")}
BEACHES = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
PIRATE_LETTERS = "abcdef"
LEGEND = "0-3 merchants  a-d pirates  N navies  ☠ lairs  ⁴ beaches (value)  T ports"


def _ship_name(ship: str, names: Sequence[Text]) -> Text:
    """"merchant:2" -> "<seat 2>'s merchant"; "navy:yellow" -> "yellow navy"."""
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
    return Text.assemble(names[d["seat"]], f" plays {d['id']}: {d['navy']} navy "
                         f"{d['navy_move']}, pirate {d['pirate']}, merchant {d['merchant']}")


def _moved(d, names):
    return Text.assemble(_ship_name(d["ship"], names), f" sails {d['from']} → {d['to']}")


def _delivered(d, names):
    return Text.assemble(names[d["seat"]], f" sells {d['cubes']} {d['colour']} at {d['port']} "
                         f"for {d['cubes'] * d['price']}")


def _attacked(d, names):
    sunk = " and sinks it" if d.get("sunk") else ""
    return Text.assemble(names[d["seat"]], "'s pirate robs ", names[d["victim"]],
                         f" of {d['cubes']} {d['colour']}{sunk}")


def _buried(d, names):
    return Text.assemble(names[d["seat"]], f" buries {d['cubes']} at {d['space']} "
                         f"for {d['value']}")


def _pirate_sunk(d, names):
    return Text.assemble(names[d["seat"]], "'s pirate is sunk by ", names[d["attacker"]])


def _fortune(d, names):
    return Text.assemble(names[d["seat"]], f" plays fortune “{d['title']}”")


def _bought(d, names):
    return Text.assemble(names[d["seat"]], f" buys “{d['title']}” for {d['cost']}")


def _victory(d, names):
    return Text.assemble(names[d["seat"]], Text(f" pays the ransom ({d['cost']})!",
                                                style="bold"))


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
    "final_round": lambda d, names: Text.assemble(names[d["seat"]],
                                                  " starts the final round"),
    "game_over": _game_over,
}


def omniscient(public: Mapping[str, Any], seats: Sequence[Mapping[str, Any]]
               ) -> Mapping[str, Any]:
    """The public view with each seat as it sees itself (hands, development cards)."""
    return {**public, "seats": [seat["seats"][i] for i, seat in enumerate(seats)]}


def header(view: Mapping[str, Any], names: Sequence[Text]) -> Text:
    line = Text.assemble(Text("Black Fleet", style="bold"),
                         f" · round {view['round']} · turn {view['turn']}")
    if view.get("active_seat") is not None:
        line.append_text(Text.assemble(" · ", names[view["active_seat"]], " to play"))
    if view.get("final_round"):
        line.append(" · FINAL ROUND", style="bold red")
    return line


def body(view: Mapping[str, Any], board: Mapping[str, Any], names: Sequence[Text],
         width: int) -> RenderableType:
    tables = [players(view, names), ports(view, board["board"])]
    if width < 2 * board["board"]["cols"] + 40:
        return Group(*tables)
    layout = Table.grid(padding=(0, 2))
    layout.add_row(chart(view, board["board"], names), Group(*tables))
    return Group(layout, Text(LEGEND, style="dim"))


def chart(view: Mapping[str, Any], board: Mapping[str, Any], names: Sequence[Text]) -> Text:
    """The sea grid: terrain, ports, beaches and lairs, with every ship on its space."""
    cells = {(s["row"], s["col"]): s["id"] for s in board["spaces"]}
    ships = _ships_by_space(view)
    rows = []
    for r, line in enumerate(board["grid"]):
        text = Text()
        for c, glyph in enumerate(line):
            text.append_text(_cell(glyph, ships.get(cells.get((r, c)))))
            text.append(" ")
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
        ships[space] = Text("N", style=NAVY_STYLES[colour])
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
    for column in ("seat", "$", "dev", "cargo", "hand"):
        table.add_column(column, no_wrap=True, justify="right" if column == "$" else "left")
    for seat in view["seats"]:
        dev = " ".join(str(d["cost"]) if d["bought"] else "·" for d in seat["development"])
        if seat.get("victory_bought"):
            dev += " ★"
        cargo = _cubes(seat["merchant"]["cargo"])
        cargo.append(" | ")
        cargo.append_text(_cubes(seat["pirate"]["cargo"]))
        number = seat["seat"]
        ships = f"{number}{PIRATE_LETTERS[number]} "
        table.add_row(Text(ships) + names[number], str(seat["money"]), dev, cargo,
                      f"{seat['movement_cards_held']}m {seat['fortune_cards_held']}f")
    return table


def _cubes(colours: Sequence[str]) -> Text:
    text = Text()
    for colour in colours:
        text.append("■", style=CUBE_STYLES.get(colour, ""))
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
        table.add_row(Text(f"{port['key']} {port['name']}"), Text(
            stock, style=CUBE_STYLES.get(port["colour"], "")), buys)
    return table
