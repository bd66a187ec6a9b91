"""Blackbeard on the console: the ten sea areas and two transit boxes with their ports and
pirates, every pirate's ship and fortune, the players' VP and hands, and the log in plain
words.

Every mark has a glyph of its own, so the screen reads the same without colour (NO_COLOR):
a port's merchant box is ▪ (face down) or ▣ with the cargo value (face up); + and - are
a Pro- and an Anti-Pirate Governor; ✕ a destroyed port, ! a Port Attack marker, ♥ a Safe
Haven, ☠ a Pirate Port, ⚓ a warship on patrol; a pirate In Port stands in brackets after the
port's name, one At Sea at the end of his area's row, and a King's Commissioner there too,
as ♛ and his surname (in his controller's colour), the name the log gives him. A ship's
type may be followed by G (Heavy Guns), S (Scurvy), R (Debauchery & Revelry) and M (Letter
of Marque); its holds show their doubloons of Booty, · when empty. A player who has taken
his one anti-pirate Action this Player Turn is marked AP✓; the KC action and the
anti-pirate cards used this turn follow the players. Where the sea areas do not fit, one
line says who is where: each area with a piece in it, and the ports with pirates In Port.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from admiralty.console.screen import SEAT_STYLES, height_at, natural_width, side_by_side

ROUND_KEY = "turn"
SCORE_NAME = "VP"
LEGEND = (
    (
        "NA CA SA WC EC CM SM GC EA IN",
        "the sea areas, as the log names them: North Atlantic, "
        "Central Atlantic, South Atlantic, Western Caribbean, Eastern Caribbean, Central "
        "America, South America, Gold Coast, East Africa, India",
    ),
    ("T1 T2", "the transit boxes South America - Gold Coast and Gold Coast - East Africa"),
    ("▪", "a face-down merchant"),
    ("▣3", "a face-up merchant, cargo value 3"),
    ("+ -", "a Pro- and an Anti-Pirate Governor"),
    ("✕", "a destroyed port"),
    ("!", "a Port Attack marker"),
    ("♥", "a Safe Haven"),
    ("☠", "a Pirate Port"),
    ("⚓", "a warship on patrol"),
    ("TE", "a pirate, by his code: TE Teach in the pirates, Edward Teach in the log"),
    ("[TE]", "pirates In Port"),
    ("♛Warren", "a King's Commissioner (KC), named so in the log too"),
    ("G S R M", "Heavy Guns, Scurvy, Debauchery & Revelry, Letter of Marque"),
    ("C/S/L", "a ship's Combat, Speed and Loyalty"),
    ("200|·", "a ship's holds: the doubloons of Booty in each, · empty (+1h: a hostage)"),
    ("NP", "Notoriety Points"),
    ("12 VP 3e 1p", "a player's Victory Points, Event and Pirate cards in hand"),
    ("ret VA", "his retired pirates"),
    ("AP✓", "took his anti-pirate Action"),
    (
        "this turn: KC acted",
        "the KC action of this Player Turn is used; the anti-pirate cards played in it follow",
    ),
    ("pardons 2/3", "General Pardons drawn: the third ends the game"),
    ("deck 25", "Event cards left to draw"),
)
"""Every glyph and abbreviation of the seas, the pirates and the players."""
SIDES = {"pro": ("+", "green"), "anti": ("-", "red")}
FLAGS = (("heavy_guns", "G"), ("scurvy", "S"), ("revelry", "R"), ("letter_of_marque", "M"))
"""Marks after a ship's type: Heavy Guns, Scurvy, Debauchery & Revelry, Letter of Marque."""
SEAS_WRAP = 2
"""The most lines the sea areas' ports may wrap onto to stand beside the pirates."""
CROWN = -1
"""The seat number of the Crown's acts in the log (solitaire's automated side)."""


@cache
def _data() -> Any:
    """The game's names (pirates, ports, areas, Event titles) for the log lines."""
    from admiralty.games.blackbeard.data import load

    return load()


def _pirate(pid: Any) -> Text:
    pirates = _data().pirates
    return Text(pirates[pid].name if pid in pirates else str(pid), style="bold")


def _place(place: Any) -> str:
    """An area or transit key, or a port code, by name."""
    data = _data()
    if isinstance(place, int) and place in data.ports:
        return data.ports[place].name
    if place in data.areas:
        return data.areas[place].name
    if place in data.transits:
        return data.transits[place].name
    return str(place)


def kc_name(kc: Any) -> str:
    """A King's Commissioner as both the map and the log name him: ♛ and his surname."""
    kcs = _data().kcs
    return "♛" + (kcs[kc].name.split()[-1] if kc in kcs else str(kc))


def _kc(kc: Any) -> Text:
    return Text(kc_name(kc), style="bold")


def _warship(warship: Any) -> Text:
    warships = _data().warships
    return Text(warships[warship].name if warship in warships else str(warship), style="bold")


def _foe(foe: Any) -> Text:
    """A KC or a warship, by name."""
    return _kc(foe) if foe in _data().kcs else _warship(foe)


def _card(number: Any) -> str:
    events = _data().events
    return f"“{events[number].title}”" if number in events else f"card {number}"


def _say(*parts: str | Text) -> Text:
    return Text.assemble(*parts)


def _doubloons(amount: Any) -> str:
    return f"{amount} doubloons"


def describe(event: Mapping[str, Any], names: Sequence[Text]) -> Text | None:
    """One line for the events a spectator cares about; None for bookkeeping."""
    describer = _DESCRIBERS.get(event["kind"])
    return describer(event.get("data", {}), names) if describer else None


def _seat(names: Sequence[Text], seat: Any) -> Text:
    """A seat's name; the Crown (solitaire's automated anti-pirate side) acts as seat -1."""
    if seat == CROWN:
        return Text("the Crown", style="bold")
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else Text(str(seat))


def _setup_done(d, names):
    order = Text(", ").join([_seat(names, s) for s in d.get("order", [])])
    return _say(
        "Setup done: player order ", order, f"; merchants in {len(d.get('merchants', []))} ports"
    )


def _governor(d, names):
    side = "A Pro-Pirate" if d.get("side") == "pro" else "An Anti-Pirate"
    return _say(f"{side} Governor takes {_place(d['port'])}")


def _deployed(d, names):
    return _say(
        _seat(names, d["seat"]),
        " deploys ",
        _pirate(d["pirate"]),
        f" in a {d['ship']} in {_place(d['area'])}",
    )


def _turn(d, names):
    return _say(Text(f"Turn {d['turn']}", style="bold"), ": ", _seat(names, d["seat"]))


def _drawn(d, names):
    if d.get("mpi") and "card" in d:
        return _say(_seat(names, d["seat"]), f" draws {_card(d['card'])}, played at once")
    return None


def _played(d, names):
    return _say(_seat(names, d["seat"]), f" plays {_card(d['card'])}")


_USES = {
    "actions": "for its Actions",
    "event": "for its Event",
    "event_and_action": "for its Event and one Action",
}


def _used(d, names):
    if d.get("use") == "anti_pirate":  # after anti_pirate_act's line
        return Text(f"— {_card(d['card'])}")
    return Text(f"— {_USES.get(d.get('use'), d.get('use'))}")


def _granted(d, names):
    who = _say(" to ", _pirate(d["pirate"])) if d.get("pirate") else Text("")
    return _say(f"— {d['actions']} Action{'s' if d['actions'] != 1 else ''}", who)


_ACTIONS = {
    "move": "moves",
    "locate": "looks for a merchant",
    "loot": "loots",
    "in_port": "goes ashore",
    "grab": "tries a Booty Grab",
    "recover": "recovers",
    "attack": "attacks a port",
    "sack": "sacks the port",
    "retire": "retires",
    "dig": "digs for treasure",
}


_TOLD_BY_RESULT = frozenset(
    {"move", "locate", "loot", "attack", "sack", "grab", "dig", "retire", "k"}
)
"""Actions whose result events tell them anyway: they name the pirate, or (Action K, which
no pirate takes) the player who draws or deploys one."""


def _announced(d, names):
    if d["action"] in _TOLD_BY_RESULT:
        return None
    return _say(_pirate(d["pirate"]), f" {_ACTIONS.get(d['action'], d['action'])}")


def _lost(d, names):
    return _say(_pirate(d["pirate"]), f" loses his {d['action']} Action")


def _moved(d, names):
    how = " (Fair Winds)" if d.get("fair_winds") else ""
    return _say(_pirate(d["pirate"]), f" sails {_place(d['from'])} → {_place(d['to'])}{how}")


def _half_move(d, names):
    return _say(_pirate(d["pirate"]), f" sails half-way towards {_place(d['to'])}")


def _locate(d, names):
    found = "finds a merchant" if d.get("located") else "finds nothing"
    return _say(
        _pirate(d["pirate"]),
        f" searches {_place(d['port'])}: rolls {d['roll']} (total {d['total']}), {found}",
    )


def _revealed(d, names):
    return Text(f"— a {d['type']} with cargo {d['cargo_value']}")


def _loot(d, names):
    hostage = ", and a hostage" if d.get("hostage") else ""
    return _say(
        _pirate(d["pirate"]),
        f" loots the merchant at {_place(d['port'])}: {_doubloons(d['booty'])}{hostage}",
    )


def _cargo_taken(d, names):
    dumped = f", dumping {d['dumped']}" if d.get("dumped") else ""
    return Text(f"— {d['booty']} into hold {d['hold']}{dumped}")


def _cashed(d, names):
    return _say(
        _pirate(d["pirate"]), f" cashes {_doubloons(d['booty'])}: Net Worth {d['net_worth']}"
    )


def _port_attacked(d, names):
    result = Text("takes it", style="bold") if d.get("success") else Text("is beaten off")
    return _say(
        _pirate(d["pirate"]),
        f" attacks {_place(d['port'])}: {d['total']} against {d['defense']}, ",
        result,
    )


def _sack(d, names):
    result = "and sacks it" if d.get("success") else "but the sack fails"
    return _say(_pirate(d["pirate"]), f" rolls {d['total']} at {_place(d['port'])} {result}")


def _damage(d, names):
    return _say(
        "— ",
        _pirate(d["pirate"]),
        f" takes {d['hits']} {d['track']} hit"
        f"{'s' if d['hits'] != 1 else ''} (Combat {d['combat']}, Speed {d['speed']})",
    )


def _notoriety(d, names):
    return Text(f"— +{d['gained']} NP (now {d['notoriety']})")


def _rerolled(d, names):
    return Text(f"— Cunning re-roll: {d['was']} → {d['now']}")


def _skull(d, names):
    return Text(f"— Skull and Crossbones: +{d['bonus']}")


def _scored(d, names):
    """VP for a pirate, or for no pirate (another player put a Pirate card back)."""
    if not d.get("vp"):
        return None
    pirate = _say(" for ", _pirate(d["pirate"])) if d.get("pirate") else Text("")
    return _say(_seat(names, d["seat"]), f" scores {d['vp']} VP", pirate, f" (now {d['total']})")


def _retired(d, names):
    return _say(
        _pirate(d["pirate"]),
        Text(" retires", style="bold"),
        f" (case {d['case']}, NP {d['notoriety']}, Net Worth {d['net_worth']})",
    )


_DEATHS = {
    "kc": "beaten by a KC",
    "sunk": "his ship sunk",
    "duel": "in a duel",
    "mutiny": "mutiny",
    "piratical_ambition": "Piratical Ambition",
}


def _died(d, names):
    return _say(
        _pirate(d["pirate"]),
        Text(" dies", style="bold red"),
        f" ({_DEATHS.get(d['cause'], d['cause'])})",
    )


def _duel(d, names):
    return _say(
        _pirate(d["pirate"]),
        " duels ",
        _pirate(d["victim"]),
        f": {d['attacker']} against {d['defender']}",
    )


def _grab(d, names):
    return _say(
        _pirate(d["pirate"]),
        " grabs at ",
        _pirate(d["victim"]),
        f"'s Booty: {d['attack_roll']} against {d['defense_roll']}, {d['result']}",
    )


def _mutiny(d, names):
    return _say("Mutiny aboard ", _pirate(d["pirate"]), f"'s ship: {d['result']}")


def _new_captain(d, names):
    return _say(_pirate(d["pirate"]), " takes over from ", _pirate(d["replaces"]))


def _storm(d, names):
    sinks = ", and sinks" if d.get("sinks") else ""
    if d.get("card"):  # Storm at Sea, a line of its own; its damage events follow
        return _say("A storm strikes ", _pirate(d["pirate"]), f": rolls {d['roll']}{sinks}")
    return _say(
        "— ",
        _pirate(d["pirate"]),
        f" takes {d['speed_hits']} Speed hit{'s' if d['speed_hits'] != 1 else ''}{sinks}",
    )


# ------------------------------------------------------------------ the anti-pirate side

_POINTS = {
    "T-ANN": "announced",
    "T-ENTER": "entering",
    "T-MID": "after the roll",
    "T-END": "at the end",
}
"""The point of the Pirate Action a window is at."""
_AP_ACTS = {
    "react": ("reacts to ", " with his KC"),
    "kc_deploy": ("calls for a King's Commissioner against ", ""),
    "patrol": ("sends the patrolling warship against ", ""),
    "kc_move": ("moves his KC during ", "'s Action"),
    "kc_port": ("sends his KC against a Pirate Port during ", "'s Action"),
    "kc_oust": ("sends his KC to oust ", ""),
    "card": ("plays an anti-pirate card against ", ""),
}
"""What an anti-pirate act says, before and after the Active Pirate's name."""


def _ap_act(d, names):
    before, after = _AP_ACTS.get(d["act"], (f"{d['act']} against ", ""))
    return _say(
        _seat(names, d["seat"]),
        " ",
        before,
        _pirate(d["pirate"]),
        after,
        f" ({_POINTS.get(d['point'], d['point'])})",
    )


_KC_HOW = {
    "deployed": "is brought in",
    "kc_surprise": "appears (KC Surprise)",
    "pirate_converts": "takes the King's side (Pirate Converts)",
}


def _kc_placed(d, names):
    return _say(
        _kc(d["kc"]),
        f" {_KC_HOW.get(d['how'], d['how'])} in {_place(d['area'])} for ",
        _seat(names, d["seat"]),
    )


def _kc_moved(d, names):
    return _say(_kc(d["kc"]), f" sails {_place(d['from'])} → {_place(d['to'])}")


def _kc_reacted(d, names):
    where = (
        f" in {_place(d['to'])}"
        if d["from"] == d["to"]
        else f" from {_place(d['from'])} into {_place(d['to'])}"
    )
    modifier = f" ({d['modifier']:+d})" if d.get("modifier") else ""
    return _say(_kc(d["kc"]), f" intercepts{where}{modifier}")


def _kc_deploy_rolled(d, names):
    result = "a KC comes in" if d.get("success") else "no KC comes"
    return Text(f"— 3d6 {d['roll']} against NP {d['notoriety']}: {result}")


def _kc_port_attack(d, names):
    if not d.get("defenders"):
        return _say(_kc(d["kc"]), f" attacks {_place(d['port'])}: nobody defends it")
    against = ", ".join(
        f"{_data().pirates[p].name if p in _data().pirates else p} {score}"
        for p, score in d["defenders"].items()
    )
    result = Text("takes it", style="bold") if d.get("success") else Text("is beaten off")
    return _say(
        _kc(d["kc"]), f" attacks {_place(d['port'])}: {d['kc_score']} against {against}, ", result
    )


def _kc_oust(d, names):
    result = "the pirates are put to sea" if d.get("success") else "they stay"
    return _say(
        _kc(d["kc"]),
        f" tries to oust the pirates from {_place(d['port'])}: "
        f"{d['kc_score']} against {d['defence']}, {result}",
    )


def _evasion(d, names):
    result = "escapes" if d.get("escaped") else "is caught"
    return _say(
        _pirate(d["pirate"]),
        " tries to evade ",
        _foe(d["foe"]),
        f": {d['score']} against {d['against']}, {result}",
    )


def _battle(foe: str):
    def line(d, names):
        result = (
            Text("wins", style="bold") if d.get("pirate_won") else Text("loses", style="bold red")
        )
        return _say(
            _pirate(d["pirate"]),
            " fights ",
            _foe(d[foe]),
            f": {d['score']} against {d['against']}, ",
            result,
        )

    return line


_ACTIONS_NAMED = {
    "move": "Move",
    "locate": "Locate",
    "loot": "Loot",
    "in_port": "In-Port Action",
    "grab": "Booty Grab",
    "recover": "Recover",
    "attack": "Port Attack",
    "sack": "Sack",
    "ally": "Alliance",
    "retire": "Retirement",
    "dig": "dig",
}


_CANCELLED = {
    "evaded": "he evaded",
    "warship": "the warship stopped him",
    "kc_port_attack": "his port was taken",
    "ousted": "he was ousted",
    "doldrums": "Doldrums",
    "informer": "an Informer",
    "debauchery": "Debauchery & Revelry",
    "merchant_fights_back": "the merchant fought back",
    "storm_at_sea": "a storm",
}


def _cancelled(d, names):
    action = _ACTIONS_NAMED.get(d.get("action"), d.get("action"))
    return _say(
        _pirate(d["pirate"]), f"'s {action} is cancelled ({_CANCELLED.get(d['why'], d['why'])})"
    )


def _merchant_fought(d, names):
    result = "he takes it" if d.get("pirate_won") else "it escapes"
    return _say(
        "The merchant fights back against ",
        _pirate(d["pirate"]),
        f": {d['against']} against his {d['score']}, {result}",
    )


def _conspiracy(d, names):
    result = Text("mutiny!", style="bold") if d.get("mutiny") else Text("the crew holds")
    return _say(
        "Mutiny Conspiracy aboard ",
        _pirate(d["pirate"]),
        f"'s ship: 2d6 {d['roll']} against Loyalty {d['loyalty']}, ",
        result,
    )


def _challenger(d, names):
    return _say(
        _seat(names, d["seat"]),
        "'s ",
        _pirate(d["pirate"]),
        " challenges ",
        _pirate(d["against"]),
        " for his ship (Piratical Ambition)",
    )


def _game_over(d, names):
    why = {
        "general_pardon": "the third General Pardon is drawn",
        "round_cap": "the round cap is reached",
    }.get(d["reason"], d["reason"])
    vp = " · ".join(f"{name.plain} {vp}" for name, vp in zip(names, d.get("vp", []), strict=False))
    return Text(f"Game over: {why} — VP {vp}", style="bold")


def _pirate_line(text: str):
    return lambda d, names: _say(
        _pirate(d["pirate"]),
        text.format(**{k: _place(v) if k == "port" else v for k, v in d.items()}),
    )


_DESCRIBERS = {
    "setup_done": _setup_done,
    "governor_placed": _governor,
    "pirate_deployed": _deployed,
    "deploy_passed": lambda d, names: _say(_seat(names, d["seat"]), " deploys nobody"),
    "turn_started": _turn,
    "event_drawn": _drawn,
    "events_reshuffled": lambda d, names: Text(f"The Event deck is reshuffled ({d['cards']})"),
    "card_played": _played,
    "card_used": _used,
    "actions_granted": _granted,
    "action_announced": _announced,
    "action_lost": _lost,
    "moved": _moved,
    "half_move": _half_move,
    "scurvy_cured": _pirate_line("'s crew is cured of Scurvy"),
    "locate_rolled": _locate,
    "merchant_revealed": _revealed,
    "loot_rolled": _loot,
    "loot_declined": _pirate_line(" lets the merchant at {port} go"),
    "cargo_taken": _cargo_taken,
    "cargo_left": lambda d, names: Text("— the cargo is left behind"),
    "cargo_dumped": lambda d, names: Text(f"— dumps {d['doubloons']} overboard"),
    "converted": _pirate_line(" converts the prize into his ship, a {ship}"),
    "hostage_kept": lambda d, names: Text(f"— keeps a {d['nation']} hostage"),
    "tortured": _pirate_line(" tortures a hostage: rolls {roll}"),
    "ransomed": _pirate_line(" ransoms a hostage for {doubloons}"),
    "cashed": _cashed,
    "repair_rolled": _pirate_line(" repairs: rolls {roll}, {hits} hits"),
    "repaired": lambda d, names: Text(f"— Speed +{d['speed']}, Combat +{d['combat']}"),
    "safe_haven_price": _pirate_line(" is offered a Safe Haven at {port} for {price}"),
    "safe_haven_bought": _pirate_line(" buys a Safe Haven at {port} for {price}"),
    "safe_haven_declined": lambda d, names: Text("— declined"),
    "revelry": _pirate_line("'s crew goes to Debauchery & Revelry ({side})"),
    "recovering": _pirate_line(" starts to recover his crew"),
    "recovered": _pirate_line("'s crew is back aboard"),
    "port_attacked": _port_attacked,
    "port_booty": lambda d, names: Text(f"— Booty {d['booty']}"),
    "booty_left": lambda d, names: Text(f"— leaves {d['booty']} behind: no room"),
    "letter_of_marque_lost": _pirate_line(" loses his {nation} Letter of Marque"),
    "sack_rolled": _sack,
    "port_destroyed": lambda d, names: Text(f"{_place(d['port'])} is destroyed", style="bold"),
    "booty_grab": _grab,
    "booty_grab_take": lambda d, names: Text(f"— takes {d['doubloons']}"),
    "duel": _duel,
    "duel_ended": lambda d, names: Text("— the duel ends"),
    "ships_swapped": lambda d, names: _say(
        _pirate(d["pirate"]), " takes ", _pirate(d["from"]), "'s ship"
    ),
    "spoil_taken": lambda d, names: _say("— takes the ", d["item"].replace("_", " ")),
    "retirement_price": _pirate_line(" would retire for {price} (roll {roll})"),
    "retirement_refused": _pirate_line(" is refused retirement (roll {roll})"),
    "retirement_declined": _pirate_line(" does not retire"),
    "retired": _retired,
    "treasure_dug": _pirate_line(" digs up {doubloons} doubloons"),
    "pirate_drawn": lambda d, names: _say(_seat(names, d["seat"]), " draws a Pirate card"),
    "pirate_redrawn": lambda d, names: _say(
        _seat(names, d["seat"]),
        " puts the Pirate card back and draws again: 10 VP to every other player",
    ),
    "rerolled": _rerolled,
    "skull_and_crossbones": _skull,
    "mutiny": _mutiny,
    "new_captain": _new_captain,
    "ship_lost": _pirate_line(" loses his ship"),
    "damage": _damage,
    "sunk": lambda d, names: _say(_pirate(d["pirate"]), Text("'s ship sinks", style="bold")),
    "pirate_died": _died,
    "notoriety": _notoriety,
    "scored": _scored,
    "treasure_map": _pirate_line(" finds a Treasure Map"),
    "careened": _pirate_line(" careens his ship"),
    "information": _pirate_line(" learns of {port} (+{gained} information)"),
    "heavy_guns": _pirate_line(" mounts Heavy Guns"),
    "letter_of_marque": _pirate_line(" takes a {nation} Letter of Marque"),
    "general_pardon": lambda d, names: Text(
        f"General Pardon! ({d['count']} of 3)", style="bold yellow"
    ),
    "hurricane": lambda d, names: Text(f"A Hurricane strikes near {_place(d['port'])}"),
    "storm": _storm,
    "ousted": _pirate_line(" is thrown out of {port}"),
    "warship_patrol": lambda d, names: _say(_warship(d["warship"]), " patrols ", _place(d["area"])),
    "anti_pirate_act": _ap_act,
    "kc_placed": _kc_placed,
    "kc_moved": _kc_moved,
    "kc_reacted": _kc_reacted,
    "kc_deploy_rolled": _kc_deploy_rolled,
    "kc_port_attack": _kc_port_attack,
    "kc_oust": _kc_oust,
    "evasion": _evasion,
    "kc_battle": _battle("kc"),
    "kc_killed": lambda d, names: _say(_kc(d["kc"]), Text(" is killed", style="bold red")),
    "warship_battle": _battle("warship"),
    "warship_left": lambda d, names: _say(_warship(d["warship"]), " leaves play"),
    "warship_sighted": lambda d, names: _say(
        _seat(names, d["seat"]), " sights ", _warship(d["warship"]), f" in {_place(d['area'])}"
    ),
    "surrendered": lambda d, names: _say(
        _pirate(d["pirate"]), " surrenders to ", _kc(d["kc"]), " with his Letter of Marque"
    ),
    "action_cancelled": _cancelled,
    "merchant_escaped": lambda d, names: Text(f"— the merchant at {_place(d['port'])} escapes"),
    "revelry_due": _pirate_line("'s crew will revel when his Action ends"),
    "merchant_fought": _merchant_fought,
    "conspiracy_rolled": _conspiracy,
    "scurvy": _pirate_line("'s crew falls sick with Scurvy"),
    "challenger": _challenger,
    "game_over": _game_over,
}


def omniscient(public: Mapping[str, Any], seats: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
    """The public view with each player as its own seat sees it (its hands)."""
    return {**public, "players": [seat["players"][i] for i, seat in enumerate(seats)]}


PHASES = {
    "setup": "setup",
    "draw": "drawing",
    "merchants": "merchants",
    "cards": "card play",
    "turn_end": "end of turn",
    "over": "game over",
}


def header(view: Mapping[str, Any], names: Sequence[Text]) -> Text:
    line = _say(Text("Blackbeard", style="bold"), f" · turn {view['turn']}")
    if view.get("active") is not None and view.get("phase") != "over":
        line.append_text(_say(" · ", _seat(names, view["active"]), " to play"))
    phase = view.get("phase", "")
    line.append(f" · {PHASES.get(phase, phase)}")
    line.append(
        f" · pardons {view['pardons']}/3",
        style="bold yellow" if view.get("pardon_in_force") else "",
    )
    line.append(f" · deck {view['event_deck']}", style="dim")
    return line


def body(
    view: Mapping[str, Any],
    board: Mapping[str, Any],
    names: Sequence[Text],
    width: int,
    compact: bool = False,
) -> RenderableType:
    """The seas beside the pirates when their ports wrap onto at most `SEAS_WRAP` more
    lines there than above them, else above them; then the players. `compact`: who is
    where in a line or two above the pirates and players."""
    crews, scores = pirates(view, names, width), players(view, names, width)
    if compact:
        return Group(positions(view, board, width), crews, scores)
    seas = sea_table(view, board, names, width)
    room = width - 2 - natural_width(crews)
    beside = sea_table(view, board, names, room)
    if height_at(beside, room) <= height_at(seas, width) + SEAS_WRAP:
        layout = side_by_side(beside, crews, width)
        if layout is not None:
            return Group(layout, scores)
    return Group(seas, crews, scores)


def secrets(view: Mapping[str, Any], seat: int, board: Mapping[str, Any]) -> list[Text]:
    """What only `seat` sees: its Event cards and its Pirate cards, by name."""
    me = view["players"][seat]
    events = ", ".join(_card(card) for card in me.get("hand") or []) or "none"
    crews = ", ".join(_pirate(p).plain for p in me.get("pirate_hand") or []) or "none"
    return [Text(f"Event cards: {events}"), Text(f"Pirate cards: {crews}")]


def score_parts(view: Mapping[str, Any]) -> dict[str, list[Any]]:
    """A player's VP is one sum, scored pirate by pirate in the log: no parts to add."""
    return {}


def _owner_style(seat: int | None) -> str:
    """A seat's colour; a piece no seat owns (the Crown's, in solitaire) is plain bold."""
    return "bold" if seat is None else f"bold {SEAT_STYLES[seat % len(SEAT_STYLES)]}"


def sea_table(
    view: Mapping[str, Any], board: Mapping[str, Any], names: Sequence[Text], width: int
) -> Table:
    """One row per sea area and transit box: its key (⚓ with a warship on patrol), its ports
    with their state and the pirates In Port, in lines of `width` that split no port, then
    the pieces At Sea there."""
    ports_by_area: dict[str, list[Mapping[str, Any]]] = {}
    for port in board["ports"]:
        ports_by_area.setdefault(port["areas"][0], []).append(port)
    state = {port["code"]: port for port in view["ports"]}
    merchants = {m["port"]: m for m in view["merchants"]}
    in_port, at_sea = _whereabouts(view)
    patrols = view.get("patrols") or {}
    rows = []
    for area in [*board["areas"], *board["transits"]]:
        key = Text(area["id"], style="bold")
        key.append("⚓" if area["id"] in patrols else " ", style="bold blue")
        cells = [
            _port_cell(
                port,
                state.get(port["code"]),
                merchants.get(port["code"]),
                in_port.get(port["code"], []),
            )
            for port in ports_by_area.get(area["id"], [])
        ]
        sea = Text(" ").join([_pirate_mark(p) for p in at_sea.get(area["id"], [])])
        rows.append((key, cells or [Text(area["name"], style="dim")], sea))
    table = Table(box=None, pad_edge=False, show_header=False, padding=(0, 1))
    table.add_column("sea", no_wrap=True)
    table.add_column("ports")
    table.add_column("at sea", no_wrap=True)
    room = width - 4 - max(key.cell_len for key, *_ in rows) - max(sea.cell_len for *_, sea in rows)
    for key, cells, sea in rows:
        table.add_row(key, _pack(cells, room, Text(" ")), sea)
    return table


def _pack(entries: Sequence[Text], width: int, separator: Text) -> Text:
    """`entries` in lines of at most `width` cells (an entry longer stands alone), never
    splitting one."""
    lines: list[Text] = []
    for entry in entries:
        if lines and lines[-1].cell_len + separator.cell_len + entry.cell_len <= width:
            lines[-1].append_text(separator)
            lines[-1].append_text(entry)
        else:
            lines.append(entry.copy())
    return Text("\n").join(lines)


def _whereabouts(
    view: Mapping[str, Any],
) -> tuple[dict[int, list[Mapping[str, Any]]], dict[str, list[Mapping[str, Any]]]]:
    """The pirates In Port by port code, and the pieces At Sea by area: pirates, then KCs."""
    in_port: dict[int, list[Mapping[str, Any]]] = {}
    at_sea: dict[str, list[Mapping[str, Any]]] = {}
    for pirate in view["pirates"]:
        if pirate.get("port") is not None:
            in_port.setdefault(pirate["port"], []).append(pirate)
        else:
            at_sea.setdefault(pirate["area"], []).append(pirate)
    for kc in view.get("kcs") or ():
        at_sea.setdefault(kc["area"], []).append(kc)
    return in_port, at_sea


def positions(view: Mapping[str, Any], board: Mapping[str, Any], width: int) -> Text:
    """Who is where, for a screen without room for the seas: each area (or transit box)
    with a pirate, a KC or a warship in it, its ports with pirates In Port, in lines of
    `width` that split no area."""
    in_port, at_sea = _whereabouts(view)
    patrols = view.get("patrols") or {}
    entries = []
    for area in [*board["areas"], *board["transits"]]:
        ports = [
            _in_port(Text(port["name"]), in_port[port["code"]])
            for port in board["ports"]
            if port["areas"][0] == area["id"] and port["code"] in in_port
        ]
        pieces = ports + [_pirate_mark(p) for p in at_sea.get(area["id"], [])]
        if pieces or area["id"] in patrols:
            entry = Text(area["id"], style="bold")
            if area["id"] in patrols:
                entry.append("⚓", style="bold blue")
            entries.append(Text(" ").join([entry, *pieces]))
    if not entries:
        return Text("nobody at sea yet", style="dim")
    return _pack(entries, width, Text(" · ", style="dim"))


def _pirate_mark(piece: Mapping[str, Any]) -> Text:
    """A pirate's code, or a KC's name (KCs stand At Sea with the pirates)."""
    mark = kc_name(piece["id"]) if piece["id"] in _data().kcs else piece["id"]
    return Text(mark, style=_owner_style(piece["owner"]))


def _in_port(text: Text, pirates: Sequence[Mapping[str, Any]]) -> Text:
    """A port's name and marks, then the pirates In Port there in brackets."""
    if pirates:
        text.append("[")
        text.append_text(Text(" ").join([_pirate_mark(p) for p in pirates]))
        text.append("]")
    return text


def _port_cell(
    port: Mapping[str, Any],
    state: Mapping[str, Any] | None,
    merchant: Mapping[str, Any] | None,
    pirates: Sequence[Mapping[str, Any]],
) -> Text:
    state = state or {}
    destroyed = state.get("destroyed")
    text = Text(port["name"], style="dim strike" if destroyed else "")
    if port.get("pirate_port"):
        text.append("☠", style="red")
    if state.get("side") in SIDES:
        mark, style = SIDES[state["side"]]
        text.append(mark, style=f"bold {style}")
    if destroyed:
        text.append("✕", style="bold red")
    if state.get("attacked"):
        text.append("!", style="yellow")
    if state.get("safe_haven"):
        text.append("♥", style="magenta")
    if merchant is not None:
        if merchant.get("face_up"):
            text.append(f"▣{merchant.get('cargo_value') or ''}", style="bold yellow")
        else:
            text.append("▪", style="yellow")
    return _in_port(text, pirates)


def pirates(view: Mapping[str, Any], names: Sequence[Text], width: int) -> Table:
    """Every pirate in play: code and surname, owner, ship (Combat/Speed/Loyalty), holds,
    Notoriety, Net Worth; the surnames go where the table would not fit `width` whole (and
    a long owner's name wraps rather than cut another column)."""
    table = _pirate_table(view, names, surnames=True)
    return table if natural_width(table) <= width else _pirate_table(view, names, False)


def _pirate_table(view: Mapping[str, Any], names: Sequence[Text], surnames: bool) -> Table:
    table = Table(box=None, pad_edge=False, header_style="bold dim", padding=(0, 1))
    for column in ("pirate", "owner", "ship", "C/S/L", "holds", "NP", "net worth"):
        table.add_column(
            column,
            no_wrap=column != "owner",
            overflow="fold",
            justify="right" if column in ("NP", "net worth") else "left",
        )
    data = _data().pirates
    for pirate in sorted(view["pirates"], key=lambda p: (p["owner"], p["id"])):
        ship = pirate["ship"]
        label = Text(pirate["id"], style=_owner_style(pirate["owner"]))
        if surnames and pirate["id"] in data:
            label.append(" " + data[pirate["id"]].name.split()[-1])
        kind = Text(ship["type"])
        for flag, mark in FLAGS:
            if ship.get(flag):
                kind.append(f" {mark}", style="bold")
        holds = Text("|").join(
            [Text(str(h) if h else "·", style="yellow" if h else "dim") for h in ship["holds"]]
        )
        if ship.get("hostages"):
            holds.append(f" +{len(ship['hostages'])}h")
        table.add_row(
            label,
            _seat(names, pirate["owner"]),
            kind,
            f"{ship['combat']}/{ship['speed']}/{ship['loyalty']}",
            holds,
            str(pirate["notoriety"]),
            str(pirate["net_worth"]),
        )
    if not view["pirates"]:
        table.add_row(Text("no pirate at sea yet", style="dim"), "", "", "", "", "", "")
    return table


def players(view: Mapping[str, Any], names: Sequence[Text], width: int) -> Text:
    """Each player's VP and hands (Event cards e, Pirate cards p), AP✓ once he has taken
    his anti-pirate Action this Player Turn, then the turn's KC action and anti-pirate
    cards: in lines of `width` that split no player."""
    interference = view.get("interference") or {}
    used = set(interference.get("used") or ())
    parts = []
    for player in view["players"]:
        part = _say(
            _seat(names, player["seat"]),
            Text(f" {player['vp']} VP", style="bold"),
            f" {player['event_cards']}e {player['pirate_cards']}p",
        )
        if player["seat"] in used:
            part.append(" AP✓", style="bold")
        if player.get("retired"):
            part.append(f" ret {','.join(player['retired'])}", style="dim")
        parts.append(part)
    turn = ["KC acted"] if interference.get("kc_action") else []
    turn += [_title(key) for key in interference.get("titles") or ()]
    if turn:
        parts.append(Text("this turn: " + ", ".join(turn), style="dim"))
    return _pack(parts, width, Text(" · "))


def _title(key: str) -> str:
    try:
        return _data().card(key).title
    except KeyError:
        return key
