"""The Blackbeard console: the sea areas with their ports and pirates, every pirate's ship,
the players' VP and hands, and the log in plain words, on 80 columns and without colour."""

from __future__ import annotations

import io
import random
import re

import pytest
from rich.console import Console

from admiralty.console.blackbeard import FLAGS, describe, kc_name, omniscient
from admiralty.console.screen import MatchScreen, seat_names
from admiralty.games import load_game
from admiralty.games.blackbeard.data import load
from admiralty.referee.timeline import event_json

NAMES = ["red", "blue", "green", "gold"]
COLOUR = r"\x1b\[[0-9;]*(3[0-7]|9[0-7]|38;)"


def mid_game(seed=3, steps=300, players=4):
    game = load_game("blackbeard")
    state, rng = game.new_game(players, seed), random.Random(seed)
    screen = MatchScreen("blackbeard", game.static_info(), NAMES[:players])
    for _ in range(steps):
        request = state.pending()[0]
        for event in state.apply(request.seat, rng.randrange(len(request.options))):
            if event.visible_to(None):
                screen.update(event_json(event))
    screen.update(view=state.view(None))
    return game, state, screen


def render(screen, width=80, height=40) -> list[str]:
    console = Console(width=width, height=height, record=True, color_system=None)
    console.print(screen)
    return console.export_text().splitlines()


def sea_rows(lines: list[str], board) -> dict[str, str]:
    """Each sea area's (or transit box's) row, its wrapped continuation lines joined on."""
    keys = [area["id"] for area in [*board["areas"], *board["transits"]]]
    rows: dict[str, str] = {}
    current = None
    for line in lines:
        head = line[:2]
        if head in keys and head not in rows:
            current = head
            rows[current] = line
        elif current and line.startswith("    ") and line.strip():
            rows[current] += " " + line.strip()
        else:
            current = None
    return rows


def test_the_seas_show_every_port_merchant_and_pirate_where_it_is():
    game, state, screen = mid_game()
    lines = render(screen)
    view, board = state.view(None), game.static_info()
    assert len(lines) <= 40 and max(len(line) for line in lines) <= 80
    assert f"turn {view['turn']}" in lines[0] and f"pardons {view['pardons']}/3" in lines[0]
    rows = sea_rows(lines, board)
    assert len(rows) == 12
    merchants = {m["port"]: m for m in view["merchants"]}
    assert merchants, "a mid game has merchants in ports"
    for port in board["ports"]:
        row = rows[port["areas"][0]]
        assert port["name"] in row
        after = row[row.index(port["name"]) + len(port["name"]) :]
        merchant = merchants.get(port["code"])
        if merchant is not None:
            assert re.match(r"[☠+\-✕!♥]*" + ("▣" if merchant["face_up"] else "▪"), after)
    for pirate in view["pirates"]:
        if pirate["port"] is None:
            assert re.search(rf"\b{pirate['id']}\b", rows[pirate["area"]])
        else:
            name = next(p["name"] for p in board["ports"] if p["code"] == pirate["port"])
            assert re.search(rf"{re.escape(name)}\S*\[[A-Z ]*{pirate['id']}", "\n".join(lines))
    for area, warship in view["patrols"].items():
        assert rows[area].startswith(f"{area}⚓"), warship


def test_the_pirates_and_players_show_ship_booty_fame_and_hands():
    _, state, screen = mid_game()
    lines = render(screen)
    view = state.view(None)
    assert view["pirates"]
    for pirate in view["pirates"]:
        ship = pirate["ship"]
        row = next(line for line in lines if line.startswith(f"{pirate['id']} "))
        assert NAMES[pirate["owner"]] in row and ship["type"] in row
        assert f"{ship['combat']}/{ship['speed']}/{ship['loyalty']}" in row
        holds = "|".join(str(h) if h else "·" for h in ship["holds"])
        assert holds in row
        assert re.search(rf"\b{pirate['notoriety']}\s+{pirate['net_worth']}\s*$", row)
    text = " ".join(" ".join(lines).split())
    for player in view["players"]:
        assert (
            f"{NAMES[player['seat']]} {player['vp']} VP {player['event_cards']}e "
            f"{player['pirate_cards']}p"
        ) in text


def test_a_narrow_terminal_wraps_the_ports_but_keeps_every_area_and_pirate():
    game, state, screen = mid_game(players=3, steps=200)
    lines = render(screen, width=60, height=60)
    assert max(len(line) for line in lines) <= 60
    rows = sea_rows(lines, game.static_info())
    assert len(rows) == 12
    for pirate in state.view(None)["pirates"]:
        assert any(line.startswith(f"{pirate['id']} ") for line in lines)


def test_a_wide_terminal_puts_the_pirates_beside_the_seas():
    *_, screen = mid_game()
    lines = render(screen, width=140)
    assert max(len(line) for line in lines) <= 140
    assert any(line.startswith("NA") and "pirate" in line and "owner" in line for line in lines)


def test_the_log_tells_the_game_in_plain_words():
    names = seat_names(["Red", "Blue"])
    screen = MatchScreen("blackbeard", load_game("blackbeard").static_info(), ["Red", "Blue"])
    for event in [
        {"kind": "turn_started", "data": {"turn": 3, "seat": 1}},
        {"kind": "card_played", "data": {"seat": 1, "card": 1}},
        {"kind": "card_used", "data": {"seat": 1, "card": 1, "use": "actions"}},
        {"kind": "moved", "data": {"pirate": "TE", "from": "WC", "to": 52}},
        {
            "kind": "port_attacked",
            "data": {
                "pirate": "TE",
                "port": 52,
                "roll": 9,
                "total": 14,
                "defense": 10,
                "success": True,
            },
        },
        {
            "kind": "notoriety",
            "data": {"pirate": "TE", "gained": 2, "notoriety": 6, "reason": "port_attack"},
        },
        {"kind": "general_pardon", "data": {"count": 2}},
        {
            "kind": "game_over",
            "data": {"reason": "general_pardon", "vp": [12, 9], "places": [1, 2]},
        },
    ]:
        screen.update(event)
    assert [line.plain for line in screen.log] == [
        "Turn 3: Blue",
        "Blue plays “Buried Treasure” — for its Actions",
        "Edward Teach sails Western Caribbean → San Juan",
        "Edward Teach attacks San Juan: 14 against 10, takes it — +2 NP (now 6)",
        "General Pardon! (2 of 3)",
        "Game over: the third General Pardon is drawn — VP Red 12 · Blue 9",
    ]
    assert describe({"kind": "turn_ended", "data": {"turn": 3, "seat": 1}}, names) is None
    assert describe({"kind": "event_drawn", "data": {"seat": 1}}, names) is None


def test_every_public_event_of_a_game_is_told_or_skipped_without_error():
    game = load_game("blackbeard")
    state, rng = game.new_game(5, 11), random.Random(11)
    names = seat_names(["a", "b", "c", "d", "e"])
    told = set()
    while state.outcome() is None:
        request = rng.choice(state.pending())
        for event in state.apply(request.seat, rng.randrange(len(request.options))):
            if event.visible_to(None) and describe(event_json(event), names) is not None:
                told.add(event.kind)
    assert {"turn_started", "card_played", "moved", "game_over"} <= told


def test_the_omniscient_view_shows_each_players_own_hand():
    game = load_game("blackbeard")
    state = game.new_game(3, 2)
    merged = omniscient(state.view(None), [state.view(seat) for seat in range(3)])
    assert [p["hand"] for p in merged["players"]] == [
        state.view(seat)["players"][seat]["hand"] for seat in range(3)
    ]
    assert all(p["hand"] for p in merged["players"])


def test_no_color_is_honoured(monkeypatch):
    """NO_COLOR (no-color.org): styles such as bold may stay, colours go."""
    *_, screen = mid_game()
    monkeypatch.setenv("NO_COLOR", "1")
    console = Console(width=80, height=40, force_terminal=True, file=io.StringIO())
    console.print(screen)
    text = console.file.getvalue()
    assert "\x1b[1m" in text  # still styled
    assert not re.search(COLOUR, text)  # but never coloured
    plain = Console(width=80, height=40, record=True, color_system=None)
    plain.print(screen)
    assert "▪" in plain.export_text()  # the marks are glyphs, not colours
    monkeypatch.delenv("NO_COLOR")
    coloured = Console(width=80, height=40, force_terminal=True, file=io.StringIO())
    coloured.print(screen)
    assert re.search(COLOUR, coloured.file.getvalue())


ANTI_PIRATE_EVENTS = frozenset(
    {
        "anti_pirate_act",
        "kc_placed",
        "kc_moved",
        "kc_reacted",
        "kc_deploy_rolled",
        "kc_port_attack",
        "kc_oust",
        "ousted",
        "evasion",
        "kc_battle",
        "kc_killed",
        "warship_battle",
        "warship_left",
        "warship_sighted",
        "surrendered",
        "action_cancelled",
        "merchant_escaped",
        "revelry_due",
        "merchant_fought",
        "conspiracy_rolled",
        "scurvy",
        "storm",
        "challenger",
        "duel",
        "new_captain",
        "card_used",
    }
)


def anti_pirate_events(games=400):
    """The events of the anti-pirate side from random games that interfere whenever they
    may (and loot when they can, for Merchant Fights Back), one of each kind and variant
    (each act, each reason an Action is cancelled, a Storm at Sea, an AP card's use)."""
    game = load_game("blackbeard")
    found = {}
    for seed in range(games):
        state, rng = game.new_game(2 + seed % 4, seed), random.Random(seed)
        while state.outcome() is None:
            request = rng.choice(state.pending())
            keys = [option.key for option in request.options]
            if request.kind == "anti_pirate" and len(keys) > 1 and rng.random() < 0.7:
                index = rng.randrange(1, len(keys))
            elif request.kind == "choose_action" and "action:loot" in keys:
                index = keys.index("action:loot")
            else:
                index = rng.randrange(len(keys))
            for event in state.apply(request.seat, index):
                data = event.data
                if event.kind not in ANTI_PIRATE_EVENTS or not event.visible_to(None):
                    continue
                variant = data.get("act") or data.get("why") or data.get("card") or ""
                if event.kind == "card_used" and data.get("use") != "anti_pirate":
                    continue
                if event.kind == "kc_port_attack":
                    variant = bool(data["defenders"])
                found.setdefault((event.kind, variant), event_json(event))
        if {kind for kind, _ in found} == ANTI_PIRATE_EVENTS:
            return found
    raise AssertionError(f"never seen: {sorted(ANTI_PIRATE_EVENTS - {k for k, _ in found})}")


def test_every_anti_pirate_event_is_told_in_a_line():
    names = seat_names(["a", "b", "c", "d", "e"])
    for (kind, variant), event in sorted(anti_pirate_events().items(), key=str):
        line = describe(event, names)
        assert line is not None and line.plain.strip(" —"), (kind, variant, event)
        assert "{" not in line.plain and "None" not in line.plain, (kind, line.plain)


def test_kcs_stand_in_their_areas_and_the_turns_anti_pirate_use_is_shown():
    game, state, screen = mid_game()
    view = dict(state.view(None))
    view["kcs"] = [{"id": "K1", "owner": 2, "area": "WC"}, {"id": "KX", "owner": 0, "area": "EA"}]
    view["interference"] = {
        **view["interference"],
        "used": [1, 2],
        "kc_action": True,
        "titles": ["warship_sighting"],
    }
    screen.update(view=view)
    lines = render(screen)
    rows = sea_rows(lines, game.static_info())
    assert "♛Matthews" in rows["WC"] and "♛Ex-Pirate" in rows["EA"]
    text = " ".join(" ".join(lines).split())
    assert re.search(rf"{NAMES[1]} \d+ VP \d+e \d+p AP✓", text)
    assert re.search(rf"{NAMES[3]} \d+ VP \d+e \d+p(?! AP✓)", text)
    assert "this turn: KC acted, Warship Sighting" in text


SIZES = [(160, 40), (140, 40), (120, 40), (80, 24), (60, 20)]
LONG_NAMES = ["random", "anti_pirate_bot", "random", "greedy"]
"""Bot names as they come: one long, two alike (shown with their seat numbers)."""


def board_lines(lines: list[str]) -> list[str]:
    """The screen above the log."""
    return lines[: next(i for i, line in enumerate(lines) if line.startswith("╭─ log"))]


def pirate_rows(lines: list[str]) -> tuple[list[str], list[list[str]]]:
    """The pirates table's header and rows, cell by cell, wherever it stands on the screen."""
    top = next(i for i, line in enumerate(lines) if re.search(r"\bpirate\s+owner\b", line))
    left = lines[top].index("pirate")
    rows = []
    for line in lines[top + 1 :]:
        cells = re.split(r"\s{2,}", line[left:].strip())
        if len(cells) < 7:
            break
        rows.append(cells)
    return re.split(r"\s{2,}", lines[top][left:].strip()), rows


def expected_row(pirate, names, surnames: bool) -> list[str]:
    ship = pirate["ship"]
    label = pirate["id"]
    if surnames:
        label += " " + load().pirates[pirate["id"]].name.split()[-1]
    kind = " ".join([ship["type"], *(mark for flag, mark in FLAGS if ship.get(flag))])
    holds = "|".join(str(h) if h else "·" for h in ship["holds"])
    if ship.get("hostages"):
        holds += f" +{len(ship['hostages'])}h"
    return [
        label,
        names[pirate["owner"]].plain,
        kind,
        f"{ship['combat']}/{ship['speed']}/{ship['loyalty']}",
        holds,
        str(pirate["notoriety"]),
        str(pirate["net_worth"]),
    ]


@pytest.mark.parametrize(
    ("names", "width", "height"),
    [
        *((NAMES, width, height) for width, height in SIZES),
        *((LONG_NAMES, width, height) for width, height in SIZES if width >= 80),
    ],
)
def test_every_pirate_cell_is_whole_at_every_size(names, width, height):
    """Down to 80 columns even with a long bot name, and to 60 with short ones, the
    pirates table shows every cell whole; below 80 columns its surnames go first."""
    game, state, _ = mid_game()
    screen = MatchScreen("blackbeard", game.static_info(), names)
    screen.update(view=state.view(None))
    lines = render(screen, width, height)
    assert len(lines) <= height and max(map(len, lines)) <= width
    board = board_lines(lines)
    assert "…" not in "".join(board)
    header, rows = pirate_rows(board)
    assert header == ["pirate", "owner", "ship", "C/S/L", "holds", "NP", "net worth"]
    view, shown = state.view(None), seat_names(names)
    by_owner = sorted(view["pirates"], key=lambda p: (p["owner"], p["id"]))
    assert rows == [expected_row(p, shown, surnames=width >= 80) for p in by_owner]


@pytest.mark.parametrize(("width", "height"), [(80, 24), (60, 20)])
def test_a_small_terminal_still_says_who_is_where(width, height):
    game, state, screen = mid_game(seed=2, players=3, steps=200)
    view, board = state.view(None), game.static_info()
    assert view["kcs"] and view["patrols"] and any(p["port"] for p in view["pirates"])
    lines = board_lines(render(screen, width, height))
    keys = {area["id"] for area in [*board["areas"], *board["transits"]]}
    first = next(i for i, line in enumerate(lines) if line[:2] in keys)
    top = next(i for i, line in enumerate(lines) if line.startswith("pirate "))
    entries = " · ".join(lines[first:top]).split(" · ")
    where = {entry.split()[0].rstrip("⚓"): entry for entry in entries}
    ports = {port["code"]: port["name"] for port in board["ports"]}
    assert {name for name in ports.values() if name in "\n".join(lines)} == {
        ports[p["port"]] for p in view["pirates"] if p["port"]
    }, "only ports with pirates"
    for pirate in view["pirates"]:
        entry = where[pirate["area"]]
        if pirate["port"] is None:
            assert pirate["id"] in entry.split()[1:]
        else:
            assert re.search(rf"{re.escape(ports[pirate['port']])}\[[A-Z ]*{pirate['id']}", entry)
    for kc in view["kcs"]:
        assert kc_name(kc["id"]) in where[kc["area"]].split()
    for area in view["patrols"]:
        assert where[area].startswith(f"{area}⚓")
    assert set(where) == {p["area"] for p in view["pirates"]} | {
        kc["area"] for kc in view["kcs"]
    } | set(view["patrols"])


def test_a_kc_has_one_name_on_the_map_and_in_the_log():
    game, state, screen = mid_game(seed=2, players=3, steps=200)
    view = state.view(None)
    assert view["kcs"]
    log = "\n".join(line.plain for line in screen.log)
    rows = sea_rows(board_lines(render(screen, 160, 50)), game.static_info())
    for kc in view["kcs"]:
        name = kc_name(kc["id"])
        assert name == "♛" + load().kcs[kc["id"]].name.split()[-1]
        assert name in rows[kc["area"]].split() and name in log
    assert not [kc.name for kc in load().kcs.values() if kc.name in log]


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_no_log_line_names_nobody(players):
    """Action K is a player's, not a pirate's: the log tells it by the player's draw or
    deployment, and no line reads "None"."""
    game = load_game("blackbeard")
    state, rng = game.new_game(players, players), random.Random(players)
    screen = MatchScreen("blackbeard", game.static_info(), NAMES[:1] * players)
    while state.outcome() is None:
        request = rng.choice(state.pending())
        for event in state.apply(request.seat, rng.randrange(len(request.options))):
            if event.visible_to(None):
                screen.update(event_json(event))
    log = [line.plain for line in screen.log]
    assert any("draws a Pirate card" in line or " deploys " in line for line in log[1:])
    assert not [line for line in log if re.search(r"\bNone\b", line)]
