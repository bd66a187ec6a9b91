"""Blackbeard's arithmetic: the rules' rolls, prices and tables as small pure functions.

Every function reads plain values, the records of `pieces` and the game data (`data.load()`),
and returns a value or a small frozen record; none changes its arguments. Dice come in
already rolled (one die as an int, several as a sequence, checked against the number the
charts give), so the engine names its chance streams and the tests set the rolls. Where the
rules give a player a choice, a function takes the choice or returns the legal choices; the
turn (`state`) decides when anything happens and applies the results.

>>> from admiralty.games.blackbeard.data import load
>>> data = load()
>>> cash(data, 500 + 2900, SAFE_HAVEN).net_worth  # the Safe Haven example of rule 9.43
3740
>>> port_booty(data, data.ports[52], [5, 2])  # Condent takes San Juan (Value 2)
700
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from admiralty.games.base import Outcome
from admiralty.games.blackbeard.data import GameData, HostageKind, MerchantType, Port
from admiralty.games.blackbeard.pieces import (
    INVOLUNTARY,
    VOLUNTARY,
    Hostage,
    Pirate,
    Player,
    PortState,
    Ship,
)

DESTROYED = "destroyed"
PIRATE_PORT = "pirate_port"
SAFE_HAVEN = "safe_haven"
ANTI_PIRATE = "anti_pirate"
PRO_PIRATE = "pro_pirate"
NEUTRAL = "neutral"
"""A port's attitude toward one pirate [blackbeard §9.31, §9.32, §9.33, §9.34, §9.35]."""

PARDON_NATION = "english"
"""The nation whose ports the General Pardon opens [blackbeard §R18.41]."""

SUCCESS, DUEL, FAILURE = "success", "duel", "failure"
"""The three ends of a Booty Grab roll [blackbeard §9.62]."""

SUCCEEDED, AVERTED, CRUSHED = "succeeded", "averted", "crushed"
"""The three ends of a mutiny [blackbeard §14.12]."""

AP_AWARDS = ("D", "E", "F")
"""The 18.12 cases that design option 7 (`ap_vp_awards`) scales [blackbeard §R18.12]."""

_AP_AWARD_FACTOR = {"none": 0, "standard": 1, "doubled": 2}
_CASH_PERCENT = {
    PIRATE_PORT: "pirate_port_percent",
    PRO_PIRATE: "pro_pirate_percent",
    SAFE_HAVEN: "safe_haven_percent",
    NEUTRAL: "neutral_percent",
}
"""The attitudes that allow In-Port Activities, with their cash rates [blackbeard §9.43]."""
_RANSOM_ATTITUDES = frozenset({PRO_PIRATE, SAFE_HAVEN, NEUTRAL})
_TIE_BREAK_VALUES: dict[str, Callable[[Player], int]] = {
    "net_worth_vp": lambda player: player.vp_from_net_worth,
    "retired": lambda player: len(player.retired),
    "highest_np": lambda player: player.best_notoriety,
}


# ---------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class Cargo:
    """A looted merchant's cargo: its doubloons and, if taken, the NP and the Cargo Table's
    Crew Loyalty change; if declined (or left for want of room), `declined_loyalty`."""

    doubloons: int
    notoriety: int
    loyalty: int
    declined_loyalty: int


@dataclass(frozen=True, slots=True)
class Conversion:
    """A captured merchant made the pirate's ship: its type at full Combat and Speed, the
    Crew Loyalty change, and how many old cargoes must be dumped (his choice which)."""

    type: str
    combat: int
    speed: int
    loyalty: int
    dump: int


@dataclass(frozen=True, slots=True)
class Torture:
    """A tortured hostage: whether he talks, the Information he gives (0 if silent), the NP
    and the Crew Loyalty change (both either way)."""

    talks: bool
    information: int
    notoriety: int
    loyalty: int


@dataclass(frozen=True, slots=True)
class Cash:
    """Booty cashed: the Net Worth gained, and the D&R it forces (a Pirate Port) or None."""

    net_worth: int
    revelry: str | None


@dataclass(frozen=True, slots=True)
class PortAttack:
    """A Port Attack's end: Combat hits to the pirate's ship, and on success the NP and Crew
    Loyalty gained; `in_port`: he is In Port (success) or At Sea (failure)."""

    success: bool
    hits: int
    notoriety: int
    loyalty: int
    in_port: bool


@dataclass(frozen=True, slots=True)
class Sack:
    """A Sack's end. On success the port is destroyed, the pirate is At Sea in involuntary
    D&R, and `loyalty` includes that D&R's gain; on failure he stays In Port."""

    destroyed: bool
    notoriety: int
    loyalty: int
    revelry: str | None


@dataclass(frozen=True, slots=True)
class Damage:
    """A ship after hits: its Combat and Speed, the Crew Loyalty change of Speed falling
    from 0 to -1, and whether it sank."""

    combat: int
    speed: int
    loyalty: int
    sunk: bool


@dataclass(frozen=True, slots=True)
class BootyGrab:
    """A Booty Grab roll: SUCCESS, DUEL or FAILURE, the attacker's score minus the
    defender's, and the attacker's Crew Loyalty change."""

    result: str
    difference: int
    loyalty: int


@dataclass(frozen=True, slots=True)
class Duel:
    """A duel: the winner (0 the first duellist, 1 the second, None a tie) and his NP."""

    winner: int | None
    notoriety: int


@dataclass(frozen=True, slots=True)
class Mutiny:
    """A mutiny resolved: SUCCEEDED, AVERTED or CRUSHED, and the ship's Crew Loyalty after."""

    result: str
    loyalty: int


@dataclass(frozen=True, slots=True)
class Bribe:
    """The price of a retirement: 0 when free, None when the Governor refuses or stalls;
    `failed_loyalty`: the Crew Loyalty change of a failed attempt (refused, declined, or
    too little Net Worth)."""

    price: int | None
    failed_loyalty: int


@dataclass(frozen=True, slots=True)
class Score:
    """VP earned, and how many of them came from Net Worth (a tie-break)."""

    vp: int
    from_net_worth: int


# ---------------------------------------------------------------------------- helpers


def _dice(dice: Sequence[int], count: int) -> int:
    """The total of `count` dice of 1-6 (ValueError otherwise)."""
    if len(dice) != count or not all(1 <= die <= 6 for die in dice):
        raise ValueError(f"expected {count} dice of 1-6, got {list(dice)}")
    return sum(dice)


def _die(roll: int) -> int:
    return _dice((roll,), 1)


def _percent_up(amount: int, percent: int) -> int:
    """`percent` % of `amount`, rounded up to the whole doubloon."""
    return -(-amount * percent // 100)


def _notoriety(data: GameData, key: str, basis: int) -> int:
    return data.charts.notoriety[key].factor * basis


def _loyalty(data: GameData, key: str) -> int:
    return data.charts.loyalty[key].change


def _part(value: int, divisor: int) -> int:
    return value // divisor if divisor else 0


# ---------------------------------------------------------------------------- ports


def port_attitude(
    data: GameData, port: Port, state: PortState, pirate: Pirate, *, letter_of_marque: bool = True
) -> str:
    """The port's attitude toward `pirate`, in the rules' order: destroyed, Pirate Port,
    his Safe Haven, Anti-Pirate for a nation in his ship's Attack History, Pro-Pirate for
    his LoM's nation, then the Governor's side, else Neutral
    [blackbeard §9.31, §9.33, §9.34, §9.35, §9.58]. `letter_of_marque=False` leaves his LoM
    out: buying a Safe Haven and retiring by bribe, or while he is allied
    [blackbeard §9.45, §11.15, §R4.5]."""
    if state.destroyed:
        return DESTROYED
    if port.pirate_port:
        return PIRATE_PORT
    if state.safe_haven == pirate.id:
        return SAFE_HAVEN
    if port.nation in pirate.ship.attack_history:
        return ANTI_PIRATE
    if letter_of_marque and port.nation == pirate.ship.letter_of_marque:
        return PRO_PIRATE
    if state.governor is None:
        return NEUTRAL
    return PRO_PIRATE if data.governors[state.governor].side == "pro" else ANTI_PIRATE


def may_enter(
    data: GameData,
    port: Port,
    state: PortState,
    pirate: Pirate,
    *,
    pardon_in_force: bool,
    letter_of_marque: bool = True,
) -> bool:
    """Whether a Move may take `pirate` into the port: never a destroyed one, an
    Anti-Pirate one only under the General Pardon, English and not in D&R
    [blackbeard §9.31, §R18.41]."""
    attitude = port_attitude(data, port, state, pirate, letter_of_marque=letter_of_marque)
    if attitude != ANTI_PIRATE:
        return attitude != DESTROYED
    return pardon_in_force and port.nation == PARDON_NATION and pirate.ship.revelry is None


def next_available_port(data: GameData, code: int, takes: Callable[[Port], bool]) -> Port | None:
    """The port of d66 `code`, or the next in code order (66 wraps to 11) that `takes`
    the piece; None when no port does [blackbeard §3.0, §6.32, §R1.5.3]."""
    codes = list(data.ports)
    start = codes.index(code)
    for each in codes[start:] + codes[:start]:
        if takes(data.ports[each]):
            return data.ports[each]
    return None


def takes_governor(port: Port, state: PortState) -> bool:
    """A Governor goes to a port that is no Pirate Port, not destroyed and has none
    [blackbeard §3.0]."""
    return not port.pirate_port and not state.destroyed and state.governor is None


def takes_merchant(port: Port, state: PortState, occupied: Collection[int]) -> bool:
    """A merchant goes to a port that is no Pirate Port, not destroyed, and whose Merchant
    Ship box (codes `occupied` hold one) is free [blackbeard §3.0, §6.32]."""
    return not port.pirate_port and not state.destroyed and port.code not in occupied


# ---------------------------------------------------------------------------- loot


def cargo(data: GameData, roll: int, merchant: MerchantType, area: str) -> Cargo:
    """The Cargo Table for 1d6 + the merchant's Cargo Value in the area's column; NP =
    Cargo Value when it is taken [blackbeard §8.32, §8.33, §R5.1]."""
    column = data.areas[area].cargo_column
    doubloons, loyalty = data.charts.cargo_booty(_die(roll) + merchant.cargo_value, column)
    return Cargo(
        doubloons,
        _notoriety(data, "loot", merchant.cargo_value),
        loyalty,
        _loyalty(data, "cargo_declined"),
    )


def booty_holds(holds: Sequence[int], doubloons: int) -> tuple[int, ...]:
    """The holds a new lot of Booty may fill: the first empty one; with none empty, any
    one, its old cargo dumped; none for 0 doubloons (taken, but nothing to store). Leaving
    it instead is declining it [blackbeard §8.33, §9.53]."""
    if not doubloons:
        return ()
    empty = [index for index, held in enumerate(holds) if not held]
    return (empty[0],) if empty else tuple(range(len(holds)))


def conversion(
    data: GameData, ship: Ship, merchant: MerchantType, *, storing_cargo: bool
) -> Conversion:
    """The captured merchant as his new ship: full Combat and Speed, Crew Loyalty +1 if it
    has more holds, -1 if fewer; the old cargoes to dump so that they and the new cargo
    (`storing_cargo`) fit [blackbeard §8.5]."""
    if not merchant.convertible:
        raise ValueError(f"a {merchant.name} cannot be converted")
    new, old = data.ship_types[merchant.id], data.ship_types[ship.type]
    loyalty = (
        _loyalty(data, "larger_ship")
        if new.holds > old.holds
        else _loyalty(data, "smaller_ship")
        if new.holds < old.holds
        else 0
    )
    full = sum(1 for held in ship.holds if held) + storing_cargo
    return Conversion(new.id, new.combat, new.speed, loyalty, max(0, full - new.holds))


def torture(data: GameData, roll: int, cruelty: int, hostage: HostageKind) -> Torture:
    """1d6 above Cruelty: he gives his Information; either way NP = his Value and Crew
    Loyalty +1 [blackbeard §8.45, §8.46]."""
    talks = _die(roll) > cruelty
    return Torture(
        talks,
        hostage.information if talks else 0,
        _notoriety(data, "torture", hostage.value),
        _loyalty(data, "torture"),
    )


def may_ransom(data: GameData, port: Port, attitude: str, hostage: Hostage) -> bool:
    """Ransom is paid at a Pro-Pirate port, his Safe Haven or a Neutral port of the
    hostage's nation, whose nation ransoms (never Arab or Portuguese) [blackbeard §9.42]."""
    return (
        attitude in _RANSOM_ATTITUDES
        and port.nation == hostage.nation
        and data.nations[hostage.nation].ransom
    )


def ransom(data: GameData, dice: Sequence[int], hostage: HostageKind) -> int:
    """2d6 x Value x 50 doubloons, into one hold [blackbeard §9.42]."""
    figures = data.charts.figures["hostage"]
    return _dice(dice, figures["ransom_dice"]) * hostage.value * figures["ransom_per_value"]


# ---------------------------------------------------------------------------- in port


def cash(data: GameData, booty: int, attitude: str) -> Cash:
    """`booty` cashed into Net Worth at the port's rate, applied to the total and rounded
    up: 1:1, Neutral 50 %, his Safe Haven 110 %, a Pirate Port 1:1 with D&R forced
    [blackbeard §9.43, §13.11, §R5.10]."""
    if attitude not in _CASH_PERCENT:
        raise ValueError(f"no In-Port Activities at a {attitude} port")
    percent = data.charts.figures["cash"][_CASH_PERCENT[attitude]]
    return Cash(_percent_up(booty, percent), INVOLUNTARY if attitude == PIRATE_PORT else None)


def repair_points(
    data: GameData, ship: Ship, port: Port, attitude: str, roll: int | None = None
) -> int:
    """The hits one In-Port Activities Action removes: every hit at a Pirate Port (no
    roll), none where the nation allows no repairs (Arab), else half of 1d6 rounded up,
    +2 at his Safe Haven [blackbeard §9.44]."""
    if attitude not in _CASH_PERCENT:
        raise ValueError(f"no In-Port Activities at a {attitude} port")
    if attitude == PIRATE_PORT:
        full = data.ship_types[ship.type]
        return full.combat - ship.combat + full.speed - ship.speed
    if port.nation is None or not data.nations[port.nation].repairs:
        return 0
    if roll is None:
        raise ValueError("a repair away from a Pirate Port needs its 1d6")
    figures = data.charts.figures["repair"]
    points = -(-_dice((roll,), figures["dice"]) // figures["divisor"])
    return points + (figures["safe_haven_bonus"] if attitude == SAFE_HAVEN else 0)


def repairs(data: GameData, ship: Ship, points: int) -> list[tuple[int, int]]:
    """The (Combat, Speed) the ship may end with, one per way of splitting `points` between
    the two that wastes none it could use, fewest to Speed first; never above the type's
    values [blackbeard §9.44, §R3.1]."""
    full = data.ship_types[ship.type]
    combat_hits, speed_hits = max(0, full.combat - ship.combat), max(0, full.speed - ship.speed)
    high = min(points, speed_hits)
    low = min(max(0, points - combat_hits), high)
    return [
        (ship.combat + min(points - to_speed, combat_hits), ship.speed + to_speed)
        for to_speed in range(low, high + 1)
    ]


def may_buy_safe_haven(data: GameData, port: Port, state: PortState, pirate: Pirate) -> bool:
    """A Safe Haven is bought at a Pro-Pirate port (a LoM does not make one) that is nobody's
    Safe Haven, from a Governor he has never tried to bribe [blackbeard §9.45]."""
    return (
        port_attitude(data, port, state, pirate, letter_of_marque=False) == PRO_PIRATE
        and state.safe_haven is None
        and state.governor not in pirate.bribed
    )


def safe_haven_price(data: GameData, roll: int) -> int:
    """1d6 x 100 doubloons from Net Worth; he may decline (must, with less), and has tried
    to bribe that Governor either way [blackbeard §9.45]."""
    return _die(roll) * data.charts.figures["safe_haven"]["price_per_pip"]


# ---------------------------------------------------------------------------- D&R


def revelry_loyalty(data: GameData, *, pirate_port: bool) -> int:
    """Crew Loyalty on entering D&R: +3 in a Pirate Port, +1 anywhere else
    [blackbeard §9.35, §13.21, §R5.3]."""
    return _loyalty(data, "debauchery_pirate_port" if pirate_port else "debauchery")


def revelry_recoveries(revelry: str) -> int:
    """Recover Actions that end a D&R: one for a voluntary marker, two in a row for an
    involuntary one [blackbeard §13.13, §13.24]."""
    return {VOLUNTARY: 1, INVOLUNTARY: 2}[revelry]


def revelry_penalty(data: GameData, ship: Ship) -> int:
    """What D&R takes off his Combat and Speed when he is attacked (0 out of D&R)
    [blackbeard §13.23]."""
    return data.charts.figures["fight"]["debauchery_penalty"] if ship.revelry else 0


# ---------------------------------------------------------------------------- fights


def _heavy_guns(ship: Ship, heavy_guns: str, *, evasion: bool) -> int:
    """Design option 19: +1 to rolls with his Combat, -1 to evasion (`plus1_minus1`)
    [blackbeard §R4.5, §R8]."""
    if not ship.heavy_guns or heavy_guns == "none":
        return 0
    if evasion:
        return -1 if heavy_guns == "plus1_minus1" else 0
    return 1


def battle_score(data: GameData, roll: int, ship: Ship, ability: int, *, heavy_guns: str) -> int:
    """The pirate's roll against a warship or a KC: 1d6 + Combat + Skill, Combat -2 in
    D&R [blackbeard §6.46, §10.35, §13.23]."""
    return (
        _die(roll)
        + ship.combat
        - revelry_penalty(data, ship)
        + ability
        + _heavy_guns(ship, heavy_guns, evasion=False)
    )


def evasion_score(data: GameData, roll: int, ship: Ship, *, heavy_guns: str) -> int:
    """The pirate's roll to evade a warship or a KC: 1d6 + Speed, -2 in D&R; he escapes
    with a score at least the other's [blackbeard §6.45, §10.33, §13.23]."""
    return (
        _die(roll)
        + ship.speed
        - revelry_penalty(data, ship)
        + _heavy_guns(ship, heavy_guns, evasion=True)
    )


def crown_battle_score(data: GameData, roll: int, combat: int, *, option_2_4_plus2: bool) -> int:
    """A warship's or KC's combat roll: 1d6 + Combat, +2 under rule 2.4's option
    [blackbeard §2.4, §6.46, §10.35]."""
    bonus = data.charts.figures["fight"]["option_2_4_bonus"] if option_2_4_plus2 else 0
    return _die(roll) + combat + bonus


# ---------------------------------------------------------------------------- port attack


def port_attack_score(
    data: GameData, roll: int, pirate: Pirate, port: Port, *, heavy_guns: str
) -> int:
    """The pirate's attack: 1d6 + Combat + Skill + his Information for that port
    [blackbeard §9.52, §8.46]."""
    ability = data.pirates[pirate.id].ability
    return (
        _die(roll)
        + pirate.ship.combat
        + ability
        + pirate.information.get(port.code, 0)
        + _heavy_guns(pirate.ship, heavy_guns, evasion=False)
    )


def alliance_attack_score(
    data: GameData, roll: int, pirates: Sequence[Pirate], port: Port, *, heavy_guns: str
) -> int:
    """Allies attack as one: 1d6 + the higher of the two ships' Combat + the Skills of both
    pirates (+ the better Information on the port; Heavy Guns once if either ship has them)
    [blackbeard §11.12, §9.52, §R4.5].

    >>> from admiralty.games.blackbeard.data import load
    >>> from admiralty.games.blackbeard.pieces import Ship
    >>> data = load()
    >>> vane = Pirate("VA", 0, "EC", Ship("schooner", 6, 3, 7, [0, 0, 0]))
    >>> low = Pirate("LW", 0, "EC", Ship("sloop", 4, 5, 7, [0, 0]))
    >>> alliance_attack_score(data, 3, [vane, low], data.ports[52], heavy_guns="plus1_minus1")
    16
    """
    combat = max(pirate.ship.combat for pirate in pirates)
    skills = sum(data.pirates[pirate.id].ability for pirate in pirates)
    information = max(pirate.information.get(port.code, 0) for pirate in pirates)
    guns = max(_heavy_guns(pirate.ship, heavy_guns, evasion=False) for pirate in pirates)
    return _die(roll) + combat + skills + information + guns


def share(amount: int, unit: int = 1) -> tuple[int, int]:
    """Allies split Booty and NP equally; the odd remainder (in `unit`s: 50 doubloons,
    the smallest sum of the charts, or 1 NP) goes to the pirate with the higher Leadership:
    (his share, the other's) [blackbeard §11.13]. Combat hits split the same way, the odd
    hit to the ship the player chooses [blackbeard §11.14].

    >>> share(5), share(2500, 50), share(150, 50), share(0)
    ((3, 2), (1250, 1250), (100, 50), (0, 0))
    """
    units = amount // unit
    low = units // 2 * unit
    return amount - low, low


def draft_order(first: int, players: int, picks: int) -> list[int]:
    """The seats in the order they pick in a Pirate draft: from the player who rolled
    highest, clockwise (seat order), then back ("snake"), one card a pick
    [blackbeard §3.0].

    >>> draft_order(0, 4, 2)
    [0, 1, 2, 3, 3, 2, 1, 0]
    >>> draft_order(2, 3, 3)
    [2, 0, 1, 1, 0, 2, 2, 0, 1]
    """
    seats = [(first + k) % players for k in range(players)]
    out: list[int] = []
    for pick in range(picks):
        out += seats if pick % 2 == 0 else seats[::-1]
    return out


def port_defense_score(data: GameData, dice: Sequence[int], port: Port, state: PortState) -> int:
    """The port's roll: 1d6 + Defense, 2d6 + Defense once it has a Port Attack marker
    [blackbeard §9.52, §9.58]."""
    figures = data.charts.figures["port_attack"]
    count = figures["marked_defense_dice"] if state.attacked else figures["defense_dice"]
    if port.defense is None:
        raise ValueError(f"{port.name} is a Pirate Port: pirates never attack it")
    return _dice(dice, count) + port.defense


def port_attack(data: GameData, port: Port, pirate_score: int, port_score: int) -> PortAttack:
    """Higher than the port: success, 1 Combat hit, NP 2 x Value, Crew Loyalty +1, In Port;
    else failure, hits = the difference, At Sea [blackbeard §9.52, §9.53, §9.54, §9.59]."""
    if pirate_score <= port_score:
        return PortAttack(False, port_score - pirate_score, 0, 0, False)
    hits = data.charts.figures["port_attack"]["success_combat_hits"]
    return PortAttack(
        True,
        hits,
        _notoriety(data, "port_attack", port.value or 0),
        _loyalty(data, "port_attack"),
        True,
    )


def port_booty(data: GameData, port: Port, dice: Sequence[int]) -> int:
    """A port taken: as many d6 as its Value, x 100 doubloons, into one whole hold
    [blackbeard §9.53]."""
    return _dice(dice, port.value or 0) * data.charts.figures["port_attack"]["booty_per_pip"]


def sack(data: GameData, port: Port, roll: int, cruelty: int) -> Sack:
    """1d6 + Cruelty above Defense: the port is destroyed, NP 2 x Value, Crew Loyalty +1
    and +1 more for the involuntary D&R that follows, At Sea; else nothing, In Port
    [blackbeard §9.55, §9.59, §13.11]."""
    if _dice((roll,), data.charts.figures["sack"]["dice"]) + cruelty <= (port.defense or 0):
        return Sack(False, 0, 0, None)
    return Sack(
        True,
        _notoriety(data, "sack", port.value or 0),
        _loyalty(data, "sack") + revelry_loyalty(data, pirate_port=False),
        INVOLUNTARY,
    )


# ---------------------------------------------------------------------------- damage


def damage(data: GameData, ship: Ship, track: str, hits: int, *, sunk_positions: int) -> Damage:
    """`hits` hits on one track ("combat" or "speed"), one at a time: Sunk at Combat 0 or
    at Speed `sunk_positions`; each fall of Speed from 0 to -1 costs Crew Loyalty -1
    [blackbeard §6.25, §6.26, §6.27, §R0.4]."""
    sunk_at = data.tracks["combat"].sunk if track == "combat" else sunk_positions
    values, loyalty = {"combat": ship.combat, "speed": ship.speed}, 0
    for _ in range(hits):
        values[track] -= 1
        if track == "speed" and values[track] == -1:
            loyalty += _loyalty(data, "speed_below_zero")
        if values[track] == sunk_at:
            return Damage(values["combat"], values["speed"], loyalty, True)
    return Damage(values["combat"], values["speed"], loyalty, False)


def crew_loyalty(data: GameData, loyalty: int, change: int, *, crew_loyalty_max: int) -> int:
    """Crew Loyalty after a change, kept on its track: never below 0, a gain above the top
    (design option 9) lost [blackbeard §R3.1, §R5.3]."""
    return max(data.tracks["loyalty"].low, min(crew_loyalty_max, loyalty + change))


# ---------------------------------------------------------------------------- booty grab


def booty_grab(
    data: GameData,
    attacker_roll: int,
    attacker_ability: int,
    defender_roll: int,
    defender_ability: int,
    *,
    skull_and_crossbones: int = 0,
) -> BootyGrab:
    """Attacker 1d6 + Skill + 1 against defender 1d6 + Skill (+ his Skull and Crossbones
    bonus): higher succeeds, a tie is a duel, lower costs the attacker Crew Loyalty -2
    [blackbeard §9.62]."""
    attack = (
        _die(attacker_roll) + attacker_ability + data.charts.figures["booty_grab"]["attacker_bonus"]
    )
    difference = attack - (_die(defender_roll) + defender_ability + skull_and_crossbones)
    if difference > 0:
        return BootyGrab(SUCCESS, difference, 0)
    if difference == 0:
        return BootyGrab(DUEL, 0, 0)
    return BootyGrab(FAILURE, difference, _loyalty(data, "booty_grab_failed"))


def booty_taken(data: GameData, roll: int, difference: int, booty: int) -> int:
    """(1d6 + the difference) x 10 % of the defender's Booty, at most 100 %, rounded up
    [blackbeard §9.63, §R5.7]."""
    figures = data.charts.figures["booty_grab"]
    percent = min(
        (_die(roll) + difference) * figures["take_percent_per_point"], figures["take_percent_max"]
    )
    return _percent_up(booty, percent)


def hold_orders(holds: Sequence[int]) -> list[tuple[int, ...]]:
    """The orders the defender may pay from: every order of his non-empty holds
    [blackbeard §9.63, §R5.7]."""
    return list(itertools.permutations(index for index, held in enumerate(holds) if held))


def take_from_holds(holds: Sequence[int], amount: int, order: Sequence[int]) -> list[int]:
    """The holds after `amount` is taken in `order`, each emptied before the next
    [blackbeard §9.63, §R5.7]."""
    if sorted(order) != sorted(index for index, held in enumerate(holds) if held):
        raise ValueError(f"{list(order)} is not an order of the non-empty holds of {holds}")
    left = list(holds)
    for index in order:
        taken = min(amount, left[index])
        left[index] -= taken
        amount -= taken
    if amount:
        raise ValueError(f"the holds {list(holds)} hold less than {amount} more")
    return left


def duel(
    data: GameData,
    first_rating: int,
    first_dice: Sequence[int],
    second_rating: int,
    second_dice: Sequence[int],
) -> Duel:
    """Each duellist rolls as many dice as his Duel rating; the higher total wins (the
    loser dies), NP = both ratings; a tie is no result [blackbeard §15.11, §15.12]."""
    first, second = _dice(first_dice, first_rating), _dice(second_dice, second_rating)
    winner = None if first == second else 0 if first > second else 1
    return Duel(winner, _notoriety(data, "duel_won", first_rating + second_rating))


def swapped_ship(data: GameData, hull: Ship, own: Ship, *, sunk_positions: int) -> Ship:
    """The ship a duel's winner swaps his own (`own`) for: the loser's `hull`, its type,
    cargoes and hostages, with everything of his own ship on it: his cargoes (in the empty
    holds, then added to the first), hostages, hits (never down to Sunk), Crew Loyalty, D&R,
    Scurvy, Attack History, Letter of Marque and Heavy Guns [blackbeard §15.11, §5.0].

    >>> from admiralty.games.blackbeard.data import load
    >>> mine = Ship("sloop", 3, 4, 5, [200, 0], letter_of_marque="english")
    >>> hull = Ship("schooner", 6, 3, 9, [0, 900, 0], revelry=INVOLUNTARY)
    >>> new = swapped_ship(load(), hull, mine, sunk_positions=-3)
    >>> new.type, new.combat, new.speed, new.loyalty, new.holds, new.revelry
    ('schooner', 4, 2, 5, [200, 900, 0], None)
    """
    new, old = data.ship_types[hull.type], data.ship_types[own.type]
    holds = hull.holds[:]
    for doubloons in (d for d in own.holds if d):
        empty = [index for index, held in enumerate(holds) if not held]
        holds[empty[0] if empty else 0] += doubloons
    return Ship(
        hull.type,
        max(data.tracks["combat"].low, new.combat - (old.combat - own.combat)),
        max(sunk_positions + 1, new.speed - (old.speed - own.speed)),
        own.loyalty,
        holds,
        [*hull.hostages, *own.hostages],
        set(own.attack_history),
        own.letter_of_marque,
        own.heavy_guns,
        own.scurvy,
        own.revelry,
    )


# ---------------------------------------------------------------------------- mutiny


def mutiny_conspiracy(data: GameData, dice: Sequence[int], loyalty: int) -> bool:
    """Mutiny Conspiracy: 2d6 above Crew Loyalty starts a mutiny [blackbeard §14.11]."""
    return _dice(dice, data.charts.figures["mutiny"]["conspiracy_dice"]) > loyalty


def mutiny_due(data: GameData, loyalty: int) -> bool:
    """A crew at the bottom of the Loyalty track (0) mutinies, checked again at each of
    the pirate's activations until it rises [blackbeard §14.11, §R5.9]."""
    return loyalty <= data.tracks["loyalty"].low


def mutiny(data: GameData, roll: int, leadership: int, loyalty: int) -> Mutiny:
    """1d6 against Leadership: above, the mutiny succeeds (the pirate is dead, a new captain
    with Crew Loyalty 6); equal, averted (Crew Loyalty -1, never below 0); below, crushed
    [blackbeard §14.12, §R5.9]."""
    roll = _dice((roll,), data.charts.figures["mutiny"]["resolution_dice"])
    if roll > leadership:
        row = data.charts.loyalty["mutiny_succeeded"]
        return Mutiny(SUCCEEDED, (row.set_to or 0) + row.change)
    if roll == leadership:
        return Mutiny(
            AVERTED, max(data.tracks["loyalty"].low, loyalty + _loyalty(data, "mutiny_averted"))
        )
    return Mutiny(CRUSHED, loyalty)


# ---------------------------------------------------------------------------- victory


def score(
    data: GameData,
    case: str,
    *,
    notoriety: int = 0,
    net_worth: int = 0,
    doubloons_per_vp: int = 0,
    kc_combat: int = 0,
    hits: int = 0,
    sunk: bool = False,
    ap_vp_awards: str = "standard",
) -> Score:
    """VP of an 18.12 case, read from its row: a share of the NP, the Net Worth at
    `doubloons_per_vp` (retirement), a share of a KC's Combat, per warship hit (+ a share of
    the NP if it sank him), a fixed award; cases D-F scaled by design option 7
    [blackbeard §R18.12, §R18.3, §10.36]."""
    row = data.victory.scoring[case]
    vp = (
        _part(notoriety, row.np_divisor)
        + _part(kc_combat, row.kc_combat_divisor)
        + row.per_hit * hits
        + (_part(notoriety, row.sunk_np_divisor) if sunk else 0)
        + row.fixed
    )
    if case in AP_AWARDS:
        vp *= _AP_AWARD_FACTOR[ap_vp_awards]
    from_net_worth = net_worth // doubloons_per_vp if row.net_worth else 0
    return Score(vp + from_net_worth, from_net_worth)


def retirement_score(
    data: GameData,
    retirement: str,
    notoriety: int,
    net_worth: int,
    *,
    net_worth_per_vp: int,
    pirate_port_retirement_rate: int,
) -> Score:
    """18.12 A for a retirement by 18.41 case `retirement` (A, B, C, D1, D2): NP + 1 VP per
    full `net_worth_per_vp` of Net Worth (after any price), or per full
    `pirate_port_retirement_rate` in a Pirate Port [blackbeard §R18.12, §R18.3]."""
    pirate_port = data.victory.retirement[retirement[0]].rate == "pirate_port"
    rate = pirate_port_retirement_rate if pirate_port else net_worth_per_vp
    return score(data, "A", notoriety=notoriety, net_worth=net_worth, doubloons_per_vp=rate)


def retirement_cases(
    data: GameData,
    port: Port,
    state: PortState,
    pirate: Pirate,
    *,
    pardon_in_force: bool,
    allied: bool = False,
) -> tuple[str, ...]:
    """The 18.41 cases open to `pirate` In Port there (none in D&R or a destroyed port):
    A a Pirate Port; B his LoM's nation (not while allied); C an English port under the
    Pardon; D1 his Safe Haven; D2 a Pro-Pirate port whose Governor he never tried to
    bribe. None in the port he has just taken, while its Sack is pending
    [blackbeard §R18.41, §9.53, §11.15, §13.22]."""
    if state.destroyed or pirate.ship.revelry or pirate.sack_pending == port.code:
        return ()
    attitude = port_attitude(data, port, state, pirate, letter_of_marque=False)
    open_cases = {
        "A": port.pirate_port,
        "B": not allied and port.nation is not None and port.nation == pirate.ship.letter_of_marque,
        "C": pardon_in_force and port.nation == PARDON_NATION,
        "D1": attitude == SAFE_HAVEN,
        "D2": attitude == PRO_PIRATE and state.governor not in pirate.bribed,
    }
    return tuple(case for case, allowed in open_cases.items() if allowed)


def retirement_price(
    data: GameData,
    retirement: str,
    roll: int | None = None,
    *,
    bribe_retirement: str,
    safe_haven_retirement_automatic: bool,
) -> Bribe:
    """What retiring by 18.41 case `retirement` costs: A, B, C nothing; D1 (unless design
    option 6 makes it free) and D2 a 1d6, at most `refuse_max` refused, else the roll x
    the price per pip (design option 5 picks D2's row) [blackbeard §R18.41]."""
    if retirement == "D2":
        key = "bribe" if bribe_retirement == "standard" else "bribe_cheap"
    elif retirement == "D1" and not safe_haven_retirement_automatic:
        key = "safe_haven"
    else:
        return Bribe(0, 0)
    if roll is None:
        raise ValueError(f"retiring by 18.41 {retirement} needs its 1d6")
    row = data.victory.prices[key]
    price = None if _die(roll) <= row.refuse_max else roll * row.price_per_pip
    return Bribe(price, _loyalty(data, "bribe_failed"))


def places(data: GameData, players: Sequence[Player], *, tie_breaks: str) -> tuple[int, ...]:
    """Each player's place (1 first; tied players share one): the most VP, then (option
    `tie_breaks` "standard") the data's tie-breaks in order up to "shared"
    [blackbeard §R18.5]."""
    breaks = (
        list(itertools.takewhile(lambda key: key != "shared", data.victory.tie_breaks))
        if tie_breaks == "standard"
        else []
    )
    keys = [(player.vp, *(_TIE_BREAK_VALUES[key](player) for key in breaks)) for player in players]
    return Outcome.from_ranking(keys, [player.vp for player in players]).places
