"""Blackbeard's arithmetic (`mechanics.py`) against the rules' numbers and worked examples.

Each test cites what it checks, in brackets: "blackbeard §9.53" is a rule of the rulebook,
"blackbeard §R18.6" a section of the reconstruction (docs/games/blackbeard.md's section
index lists them). Dice are set by the tests; ratings and counters the rules name are read
from the data by name, so a corrected reconstructed row does not break an example.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from admiralty.games.blackbeard import mechanics as m
from admiralty.games.blackbeard.data import GameData, HostageKind, Port, load
from admiralty.games.blackbeard.pieces import (
    INVOLUNTARY,
    VOLUNTARY,
    Hostage,
    Pirate,
    Player,
    PortState,
    Ship,
)

DATA = load()
PRO = next(governor.id for governor in DATA.governors.values() if governor.side == "pro")
ANTI = next(governor.id for governor in DATA.governors.values() if governor.side == "anti")
SUNK = DATA.tracks["speed"].sunk
LOYALTY_MAX = DATA.tracks["loyalty"].high


@pytest.fixture(scope="module")
def data() -> GameData:
    return DATA


def port(name: str) -> Port:
    (found,) = (each for each in DATA.ports.values() if each.name == name)
    return found


def port_of(nation: str) -> Port:
    return next(each for each in DATA.ports.values() if each.nation == nation)


def hostage(name: str) -> HostageKind:
    (found,) = (kind for kind in DATA.hostage_kinds.values() if kind.name == name)
    return found


def ship(kind: str = "schooner", **fields) -> Ship:
    full = DATA.ship_types[kind]
    values = {
        "combat": full.combat,
        "speed": full.speed,
        "loyalty": 7,
        "holds": [0] * full.holds,
        **fields,
    }
    return Ship(kind, **values)


def pirate(ident: str = "CO", **fields) -> Pirate:
    return Pirate(ident, 0, "EC", fields.pop("ship", ship()), **fields)


# ---------------------------------------------------------------------------- ports


def test_attitude_follows_the_rules_order(data):
    """[blackbeard §9.31, §9.33, §9.34, §9.35, §9.58]
    Destroyed, Pirate Port, his Safe Haven, Attack History, his LoM, the Governor, Neutral."""
    san_juan, condent = port("San Juan"), pirate()
    attitude = m.port_attitude
    assert attitude(data, data.ports[44], PortState(destroyed=True), condent) == m.DESTROYED
    assert attitude(data, data.ports[44], PortState(), condent) == m.PIRATE_PORT
    assert attitude(data, san_juan, PortState(), condent) == m.NEUTRAL
    assert attitude(data, san_juan, PortState(governor=PRO), condent) == m.PRO_PIRATE
    assert attitude(data, san_juan, PortState(governor=ANTI), condent) == m.ANTI_PIRATE
    assert attitude(data, san_juan, PortState(PRO, safe_haven="VA"), condent) == m.PRO_PIRATE
    lom = pirate(ship=ship(letter_of_marque="spanish"))
    assert attitude(data, san_juan, PortState(governor=ANTI), lom) == m.PRO_PIRATE
    assert attitude(data, san_juan, PortState(governor=None), lom) == m.PRO_PIRATE
    assert (
        attitude(data, san_juan, PortState(governor=ANTI), lom, letter_of_marque=False)
        == m.ANTI_PIRATE
    )
    attacker = pirate(ship=ship(attack_history={"spanish"}, letter_of_marque="spanish"))
    assert attitude(data, san_juan, PortState(governor=PRO), attacker) == m.ANTI_PIRATE
    haven = PortState(governor=PRO, safe_haven="CO")
    assert attitude(data, san_juan, haven, attacker) == m.SAFE_HAVEN
    assert attitude(data, san_juan, replace(haven, destroyed=True), attacker) == m.DESTROYED


def test_entering_a_port_by_move(data):
    """[blackbeard §9.31, §R18.41]
    Never a destroyed port; an Anti-Pirate one only with a LoM of its nation, or, under the
    General Pardon, an English one while not in D&R."""
    bath, san_juan = port("Bath"), port("San Juan")
    anti = PortState(governor=ANTI)
    teach = pirate("TE")
    assert m.may_enter(data, bath, PortState(), teach, pardon_in_force=False)
    assert not m.may_enter(data, bath, anti, teach, pardon_in_force=False)
    assert m.may_enter(data, bath, anti, teach, pardon_in_force=True)
    reveller = pirate("TE", ship=ship(revelry=VOLUNTARY))
    assert not m.may_enter(data, bath, anti, reveller, pardon_in_force=True)
    assert not m.may_enter(data, san_juan, anti, teach, pardon_in_force=True)
    assert not m.may_enter(data, bath, PortState(destroyed=True), teach, pardon_in_force=True)
    lom = pirate("TE", ship=ship(letter_of_marque="english"))
    assert m.may_enter(data, bath, anti, lom, pardon_in_force=False)
    assert not m.may_enter(data, bath, anti, lom, pardon_in_force=False, letter_of_marque=False)
    assert m.may_enter(data, data.ports[35], PortState(), teach, pardon_in_force=False)


def test_next_available_port_wraps_around(data):
    """[blackbeard §3.0, §6.32, §R1.5.3]
    The rolled code, else the next in code order that takes the piece, 66 wrapping to 11;
    None when no port does."""
    states = {code: PortState() for code in data.ports}

    def merchant(occupied=()):
        return lambda each: m.takes_merchant(each, states[each.code], occupied)

    assert m.next_available_port(data, 21, merchant()).code == 21
    assert m.next_available_port(data, 35, merchant()).code == 36  # Tortuga: a Pirate Port
    assert m.next_available_port(data, 66, merchant()).code == 11  # Ste Marie, then 11
    assert m.next_available_port(data, 66, merchant({11, 12})).code == 13
    states[36] = PortState(destroyed=True)
    assert m.next_available_port(data, 35, merchant()).code == 41
    assert m.next_available_port(data, 21, merchant(set(data.ports))) is None
    states[22] = PortState(governor=PRO)
    governor = lambda each: m.takes_governor(each, states[each.code])  # noqa: E731
    assert m.next_available_port(data, 22, governor).code == 23
    assert m.next_available_port(data, 44, governor).code == 45


@given(code=st.sampled_from(list(DATA.ports)), free=st.sets(st.sampled_from(list(DATA.ports))))
def test_the_next_available_port_is_the_first_that_takes_the_piece(code, free):
    """[blackbeard §6.32, §R1.5.3]"""
    found = m.next_available_port(DATA, code, lambda each: each.code in free)
    codes = list(DATA.ports)
    cycle = codes[codes.index(code) :] + codes[: codes.index(code)]
    first = next((each for each in cycle if each in free), None)
    assert (found.code if found else None) == first


# ---------------------------------------------------------------------------- loot


def test_vane_loots_a_brig_off_santo_domingo(data):
    """[blackbeard §8.2, §8.32, §8.33, §8.45]
    A Brig (Cargo Value 3) in the Eastern Caribbean: 6 + 3 = 9, 2,500 doubloons, Loyalty +1;
    his holds are full, so he dumps one; he tortures the Captain: 4 > Cruelty 3, he talks
    (Information 5) and gives NP 2."""
    brig = data.merchant_types["brig"]
    assert port("Santo Domingo").area == "EC"
    taken = m.cargo(data, 6, brig, "EC")
    assert (taken.doubloons, taken.loyalty, taken.notoriety) == (2500, 1, 3)
    assert m.booty_holds([400, 1200, 800], taken.doubloons) == (0, 1, 2)
    captain, vane = hostage("Captain"), data.pirates["VA"]
    told = m.torture(data, 4, vane.cruelty, captain)
    assert (told.talks, told.information, told.notoriety, told.loyalty) == (True, 5, 2, 1)


def test_cargo_by_column_and_declining(data):
    """[blackbeard §8.32, §8.33, §R5.1]
    The area's column of the Cargo Table; a low roll costs Loyalty; NP = Cargo Value;
    declining costs Loyalty -1."""
    fluyt, merchantman = data.merchant_types["fluyt"], data.merchant_types["merchantman"]
    low = m.cargo(data, 1, fluyt, "NA")
    assert (low.doubloons, low.loyalty, low.notoriety, low.declined_loyalty) == (0, -1, 0, -1)
    assert m.cargo(data, 1, fluyt, "WC").doubloons == 100
    high = m.cargo(data, 6, merchantman, "IN")
    assert (high.doubloons, high.loyalty, high.notoriety) == (7500, 1, 4)
    assert m.cargo(data, 3, merchantman, "GC").doubloons == 800
    with pytest.raises(ValueError):
        m.cargo(data, 7, fluyt, "NA")


def test_where_new_booty_can_go():
    """[blackbeard §8.33, §9.53]
    An empty hold; with none empty, any hold dumped; a 0-doubloon cargo takes no hold."""
    assert m.booty_holds([500, 0, 0], 700) == (1,)
    assert m.booty_holds([500, 200], 700) == (0, 1)
    assert m.booty_holds([500, 200], 0) == ()


def test_converting_a_captured_merchant(data):
    """[blackbeard §8.5]
    Full values of the new type; Loyalty +1 larger, -1 smaller; Schooner (3 full) to Brig
    keeps 3, to Sloop dumps 2, to Schooner dumps 1."""
    full = ship("schooner", combat=3, speed=-1, holds=[100, 200, 300])
    types = data.merchant_types
    to_brig = m.conversion(data, full, types["brig"], storing_cargo=True)
    assert to_brig == m.Conversion("brig", 7, 1, 1, 0)
    assert m.conversion(data, full, types["sloop"], storing_cargo=True) == m.Conversion(
        "sloop", 5, 5, -1, 2
    )
    assert m.conversion(data, full, types["schooner"], storing_cargo=True) == m.Conversion(
        "schooner", 6, 3, 0, 1
    )
    assert m.conversion(data, full, types["sloop"], storing_cargo=False).dump == 1
    half = ship("schooner", holds=[100, 0, 0])
    assert m.conversion(data, half, types["sloop"], storing_cargo=True).dump == 0
    with pytest.raises(ValueError):
        m.conversion(data, full, types["fluyt"], storing_cargo=True)


def test_a_silent_hostage_still_gives_np_and_loyalty(data):
    """[blackbeard §8.45]
    A roll not above Cruelty: no Information, but NP = Value and Loyalty +1."""
    daughter = hostage("Governor's Daughter")
    silent = m.torture(data, 3, 3, daughter)
    assert (silent.talks, silent.information, silent.notoriety, silent.loyalty) == (False, 0, 6, 1)


def test_ransom_of_the_governors_daughter(data):
    """[blackbeard §9.42]
    2d6 = 8 x Value 6 x 50 = 2,400, into one hold."""
    assert m.ransom(data, [3, 5], hostage("Governor's Daughter")) == 2400
    assert m.ransom(data, [1, 1], hostage("Passenger")) == 100
    with pytest.raises(ValueError):
        m.ransom(data, [8], hostage("Governor's Daughter"))


def test_where_a_ransom_is_paid(data):
    """[blackbeard §9.42]
    A Pro-Pirate port, his Safe Haven or a Neutral port of the hostage's nation; never an
    Anti-Pirate port, a Pirate Port, an Arab or a Portuguese port."""
    bath, english = port("Bath"), Hostage("H01", "english")
    for attitude in (m.PRO_PIRATE, m.SAFE_HAVEN, m.NEUTRAL):
        assert m.may_ransom(data, bath, attitude, english)
    assert not m.may_ransom(data, bath, m.ANTI_PIRATE, english)
    assert not m.may_ransom(data, port("San Juan"), m.NEUTRAL, english)
    assert not m.may_ransom(data, data.ports[44], m.PIRATE_PORT, english)
    for nation in ("arab", "portuguese"):
        assert not m.may_ransom(data, port_of(nation), m.PRO_PIRATE, Hostage("H09", nation))


# ---------------------------------------------------------------------------- in port


def test_cashing_booty(data):
    """[blackbeard §9.43, §13.11, §R5.10]
    Holds of 500 and 2,900 at his Safe Haven give 3,740; Neutral 2,000 gives 1,000, Safe
    Haven 2,200; the rate applies to the total, rounded up; a Pirate Port forces D&R."""
    assert m.cash(data, 3400, m.SAFE_HAVEN) == m.Cash(3740, None)
    assert m.cash(data, 2000, m.NEUTRAL).net_worth == 1000
    assert m.cash(data, 2000, m.SAFE_HAVEN).net_worth == 2200
    assert m.cash(data, 2000, m.PRO_PIRATE) == m.Cash(2000, None)
    assert m.cash(data, 2000, m.PIRATE_PORT) == m.Cash(2000, INVOLUNTARY)
    assert m.cash(data, 2151, m.NEUTRAL).net_worth == 1076
    assert m.cash(data, 1001, m.SAFE_HAVEN).net_worth == 1102
    with pytest.raises(ValueError):
        m.cash(data, 2000, m.ANTI_PIRATE)


def test_repair_points(data):
    """[blackbeard §9.44]
    Half of 1d6 rounded up, +2 at his Safe Haven; none at an Arab port; every hit at a
    Pirate Port, with no roll."""
    damaged, bath = ship("schooner", combat=2, speed=0), port("Bath")
    points = [m.repair_points(data, damaged, bath, m.NEUTRAL, roll) for roll in range(1, 7)]
    assert points == [1, 1, 2, 2, 3, 3]
    assert m.repair_points(data, damaged, bath, m.SAFE_HAVEN, 1) == 3
    assert m.repair_points(data, damaged, port_of("arab"), m.SAFE_HAVEN, 6) == 0
    assert m.repair_points(data, damaged, data.ports[44], m.PIRATE_PORT) == 7
    with pytest.raises(ValueError):
        m.repair_points(data, damaged, bath, m.ANTI_PIRATE, 6)


def test_repairs_are_split_as_the_player_likes_up_to_full_values(data):
    """[blackbeard §9.44, §R3.1]
    Every useful split of the points between Speed and Combat; never above the type's
    values."""
    damaged = ship("schooner", combat=4, speed=1)
    assert m.repairs(data, damaged, 3) == [(6, 2), (5, 3)]
    assert m.repairs(data, damaged, 1) == [(5, 1), (4, 2)]
    assert m.repairs(data, damaged, 5) == [(6, 3)]
    assert m.repairs(data, ship("sloop", combat=1), 3) == [(4, 5)]
    assert m.repairs(data, ship("brig"), 4) == [(7, 1)]


def test_buying_a_safe_haven(data):
    """[blackbeard §9.45]
    At a Pro-Pirate port that is nobody's Safe Haven, from a Governor he never tried to
    bribe (a LoM makes no port eligible); the price is 1d6 x 100."""
    bath, condent = port("Bath"), pirate()
    assert m.may_buy_safe_haven(data, bath, PortState(governor=PRO), condent)
    assert not m.may_buy_safe_haven(data, bath, PortState(), condent)
    assert not m.may_buy_safe_haven(data, bath, PortState(PRO, safe_haven="VA"), condent)
    assert not m.may_buy_safe_haven(data, bath, PortState(PRO, safe_haven="CO"), condent)
    assert not m.may_buy_safe_haven(data, bath, PortState(governor=PRO), pirate(bribed={PRO}))
    lom = pirate(ship=ship(letter_of_marque="english"))
    assert not m.may_buy_safe_haven(data, bath, PortState(governor=ANTI), lom)
    attacker = pirate(ship=ship(attack_history={"english"}))
    assert not m.may_buy_safe_haven(data, bath, PortState(governor=PRO), attacker)
    assert m.safe_haven_price(data, 4) == 400


def test_debauchery_and_revelry(data):
    """[blackbeard §9.35, §13.13, §13.21, §13.23, §13.24]
    Loyalty +3 in a Pirate Port, +1 elsewhere; one Recover for a voluntary marker, two for
    an involuntary one; -2 to Combat and Speed when attacked in D&R."""
    assert m.revelry_loyalty(data, pirate_port=True) == 3
    assert m.revelry_loyalty(data, pirate_port=False) == 1
    assert (m.revelry_recoveries(VOLUNTARY), m.revelry_recoveries(INVOLUNTARY)) == (1, 2)
    assert m.revelry_penalty(data, ship(revelry=INVOLUNTARY)) == 2
    assert m.revelry_penalty(data, ship()) == 0


# ---------------------------------------------------------------------------- fights


def test_vane_fights_matthews_and_dies_on_a_tie(data):
    """[blackbeard §10.33, §10.34, §10.35, §2.4]
    Vane (Schooner, Speed 2, Combat 6, Ability 4) evades: 4 + 2 = 6 against Matthews 5 + 3 =
    8, intercepted. He fights: 4 + 4 + 6 = 14; Matthews 1 + 11 + 2 = 14, a tie: Vane dies."""
    (matthews,) = (kc for kc in data.kcs.values() if kc.name == "Thomas Matthews")
    vane = ship("schooner", speed=2)
    assert m.evasion_score(data, 4, vane, heavy_guns="plus1_minus1") == 6
    assert 5 + matthews.speed > 6
    pirate_score = m.battle_score(
        data, 4, vane, data.pirates["VA"].ability, heavy_guns="plus1_minus1"
    )
    kc_score = m.crown_battle_score(data, 1, matthews.combat, option_2_4_plus2=True)
    assert pirate_score == kc_score == 14
    assert m.crown_battle_score(data, 1, matthews.combat, option_2_4_plus2=False) == 12


def test_revelry_and_heavy_guns_in_fights(data):
    """[blackbeard §13.23, §R4.5, §R8]
    D&R takes 2 off Combat and Speed; Heavy Guns (design option 19) add 1 to Combat rolls
    and take 1 off evasion, or only add, or do nothing."""
    reveller, gunned = ship(revelry=VOLUNTARY), ship(heavy_guns=True)
    assert m.battle_score(data, 3, reveller, 2, heavy_guns="none") == 3 + 6 - 2 + 2
    assert m.evasion_score(data, 3, reveller, heavy_guns="none") == 3 + 3 - 2
    assert m.battle_score(data, 3, gunned, 2, heavy_guns="plus1_minus1") == 3 + 6 + 2 + 1
    assert m.evasion_score(data, 3, gunned, heavy_guns="plus1_minus1") == 3 + 3 - 1
    assert m.evasion_score(data, 3, gunned, heavy_guns="plus1") == 3 + 3
    assert m.battle_score(data, 3, gunned, 2, heavy_guns="none") == 3 + 6 + 2


# ---------------------------------------------------------------------------- port attack


def test_condent_takes_san_juan(data):
    """[blackbeard §9.53]
    Success: 2d6 = 5 + 2 = 7, 700 doubloons; NP 2 x Value 2; Loyalty +1; Combat -1; In
    Port."""
    san_juan = port("San Juan")
    result = m.port_attack(data, san_juan, 13, 9)
    assert result == m.PortAttack(True, 1, 4, 1, True)
    assert m.port_booty(data, san_juan, [5, 2]) == 700
    with pytest.raises(ValueError):
        m.port_booty(data, san_juan, [5])


def test_condent_fails_against_san_juan(data):
    """[blackbeard §9.52, §9.54, §9.59]
    Condent 2 + Skill 4 + Combat 4 = 10; San Juan 5 + 7 = 12: he takes 2 hits, At Sea.
    Information for the port adds to his roll."""
    san_juan, condent = port("San Juan"), pirate(ship=ship(combat=4))
    attack = m.port_attack_score(data, 2, condent, san_juan, heavy_guns="plus1_minus1")
    defense = m.port_defense_score(data, [5], san_juan, PortState())
    assert (attack, defense) == (10, 12)
    assert m.port_attack(data, san_juan, attack, defense) == m.PortAttack(False, 2, 0, 0, False)
    informed = pirate(ship=ship(combat=4), information={san_juan.code: 5})
    assert m.port_attack_score(data, 2, informed, san_juan, heavy_guns="none") == 15
    assert m.port_attack(data, san_juan, 12, 12) == m.PortAttack(False, 0, 0, 0, False)


def test_a_port_attacked_before_rolls_two_dice(data):
    """[blackbeard §9.52, §9.58]
    With a Port Attack marker the port rolls 2d6 + Defense."""
    san_juan, marked = port("San Juan"), PortState(attacked=True)
    assert m.port_defense_score(data, [5, 6], san_juan, marked) == 18
    with pytest.raises(ValueError):
        m.port_defense_score(data, [5], san_juan, marked)
    with pytest.raises(ValueError):
        m.port_defense_score(data, [5, 6], san_juan, PortState())
    with pytest.raises(ValueError):
        m.port_defense_score(data, [5], data.ports[44], PortState())


def test_condent_sacks_san_juan(data):
    """[blackbeard §9.55, §9.59, §13.11]
    5 + Cruelty 3 = 8 > Defense 7: destroyed, NP 4, Loyalty +1 and +1 for the involuntary
    D&R; a roll to 7 fails and he stays In Port."""
    san_juan, cruelty = port("San Juan"), data.pirates["CO"].cruelty
    assert m.sack(data, san_juan, 5, cruelty) == m.Sack(True, 4, 2, INVOLUNTARY)
    assert m.sack(data, san_juan, 4, cruelty) == m.Sack(False, 0, 0, None)


# ---------------------------------------------------------------------------- damage


def test_hits_are_applied_one_at_a_time(data):
    """[blackbeard §6.25, §6.26, §6.27, §R0.4]
    Sunk at Combat 0 or Speed -3 (design option 10 moves it); each fall from Speed 0 to -1
    costs Loyalty -1; hits after sinking do nothing."""
    sloop = ship("sloop", combat=2, speed=1)
    assert m.damage(data, sloop, "combat", 1, sunk_positions=SUNK) == m.Damage(1, 1, 0, False)
    assert m.damage(data, sloop, "combat", 5, sunk_positions=SUNK) == m.Damage(0, 1, 0, True)
    assert m.damage(data, sloop, "speed", 3, sunk_positions=SUNK) == m.Damage(2, -2, -1, False)
    assert m.damage(data, sloop, "speed", 9, sunk_positions=SUNK) == m.Damage(2, -3, -1, True)
    assert m.damage(data, sloop, "speed", 3, sunk_positions=-2) == m.Damage(2, -2, -1, True)
    assert m.damage(data, sloop, "speed", 0, sunk_positions=SUNK) == m.Damage(2, 1, 0, False)
    below = ship("sloop", speed=-1)
    assert m.damage(data, below, "speed", 1, sunk_positions=SUNK).loyalty == 0


@given(
    first=st.integers(0, 4), second=st.integers(0, 4), track=st.sampled_from(["combat", "speed"])
)
def test_hits_add_up_until_the_ship_sinks(first, second, track):
    """[blackbeard §6.25, §6.26]"""
    start = ship("sloop", combat=4, speed=1)
    both = m.damage(DATA, start, track, first + second, sunk_positions=SUNK)
    one = m.damage(DATA, start, track, first, sunk_positions=SUNK)
    if not one.sunk:
        two = m.damage(
            DATA,
            replace(start, combat=one.combat, speed=one.speed),
            track,
            second,
            sunk_positions=SUNK,
        )
        assert (two.combat, two.speed, two.sunk, one.loyalty + two.loyalty) == (
            both.combat,
            both.speed,
            both.sunk,
            both.loyalty,
        )


def test_crew_loyalty_stays_on_its_track(data):
    """[blackbeard §R3.1, §R5.3]
    0 to the top of the track (design option 9); a gain above it is lost."""
    assert m.crew_loyalty(data, 9, 3, crew_loyalty_max=LOYALTY_MAX) == LOYALTY_MAX
    assert m.crew_loyalty(data, 9, 3, crew_loyalty_max=12) == 12
    assert m.crew_loyalty(data, 1, -2, crew_loyalty_max=LOYALTY_MAX) == 0
    assert m.crew_loyalty(data, 7, -1, crew_loyalty_max=LOYALTY_MAX) == 6


# ---------------------------------------------------------------------------- booty grab


def test_ned_low_grabs_stede_bonnets_booty(data):
    """[blackbeard §9.62, §9.63]
    Low (Skill 3) rolls 4: 8. Bonnet (Skill 2) rolls 3: 5. Difference 3; Low rolls 3 + 3 =
    6: 60 % of Bonnet's Booty."""
    low, bonnet = data.pirates["LW"], data.pirates["BO"]
    grab = m.booty_grab(data, 4, low.ability, 3, bonnet.ability)
    assert grab == m.BootyGrab(m.SUCCESS, 3, 0)
    assert m.booty_taken(data, 3, grab.difference, 2500) == 1500


def test_a_booty_grab_tie_is_a_duel_and_a_loss_costs_loyalty(data):
    """[blackbeard §9.62]
    Equal scores: a duel. Lower (here with Skull and Crossbones +2): Loyalty -2."""
    assert m.booty_grab(data, 3, 3, 4, 3) == m.BootyGrab(m.DUEL, 0, 0)
    assert m.booty_grab(data, 3, 3, 4, 3, skull_and_crossbones=2) == m.BootyGrab(m.FAILURE, -2, -2)


def test_the_take_is_capped_and_rounded_up(data):
    """[blackbeard §9.63, §R5.7]
    At most 100 %; rounded up to the whole doubloon; nothing from empty holds."""
    assert m.booty_taken(data, 6, 7, 2900) == 2900
    assert m.booty_taken(data, 1, 0, 1005) == 101
    assert m.booty_taken(data, 6, 3, 0) == 0


def test_holds_are_emptied_in_the_defenders_order():
    """[blackbeard §9.63, §R5.7]
    The defender orders his non-empty holds; each is emptied before the next."""
    holds = [500, 0, 2900]
    assert m.hold_orders(holds) == [(0, 2), (2, 0)]
    assert m.take_from_holds(holds, 1000, (0, 2)) == [0, 0, 2400]
    assert m.take_from_holds(holds, 1000, (2, 0)) == [500, 0, 1900]
    assert m.hold_orders([0, 0]) == [()]
    with pytest.raises(ValueError):
        m.take_from_holds(holds, 1000, (0, 1, 2))
    with pytest.raises(ValueError):
        m.take_from_holds(holds, 4000, (0, 2))


@given(
    holds=st.lists(st.integers(0, 5000), min_size=2, max_size=4),
    roll=st.integers(1, 6),
    difference=st.integers(1, 12),
    data=st.data(),
)
def test_a_booty_grab_never_takes_more_than_the_defender_holds(holds, roll, difference, data):
    """[blackbeard §9.63, §R5.7]"""
    amount = m.booty_taken(DATA, roll, difference, sum(holds))
    assert 0 <= amount <= sum(holds)
    order = data.draw(st.sampled_from(m.hold_orders(holds)))
    left = m.take_from_holds(holds, amount, order)
    assert sum(left) + amount == sum(holds)
    assert all(0 <= after <= before for after, before in zip(left, holds, strict=True))


def test_ned_low_duels_stede_bonnet(data):
    """[blackbeard §15.11, §15.12]
    Each rolls his Duel rating in dice; the higher total wins NP = both ratings; a tie is
    no result."""
    low, bonnet = data.pirates["LW"].duel, data.pirates["BO"].duel
    won = m.duel(data, low, [1] * low, bonnet, [6] * bonnet)
    assert won == m.Duel(1, low + bonnet)
    assert m.duel(data, 3, [4, 4, 4], 2, [6, 5]).winner == 0
    assert m.duel(data, 2, [3, 3], 1, [6]).winner is None
    with pytest.raises(ValueError):
        m.duel(data, low, [6], bonnet, [6] * bonnet)


# ---------------------------------------------------------------------------- mutiny


def test_mutiny_conspiracy_and_the_loyalty_0_check(data):
    """[blackbeard §14.11, §R5.9]
    2d6 above Loyalty starts a mutiny; a crew at 0 mutinies on its own."""
    assert m.mutiny_conspiracy(data, [5, 6], 10)
    assert not m.mutiny_conspiracy(data, [4, 6], 10)
    with pytest.raises(ValueError):
        m.mutiny_conspiracy(data, [11], 10)
    assert m.mutiny_due(data, 0) and not m.mutiny_due(data, 1)


def test_mutiny_resolution_against_leadership(data):
    """[blackbeard §14.12, §R5.9]
    Above Leadership: succeeded, a new captain with Loyalty 6; equal: averted, -1 and never
    below 0; below: crushed."""
    assert m.mutiny(data, 4, 3, 0) == m.Mutiny(m.SUCCEEDED, 6)
    assert m.mutiny(data, 3, 3, 5) == m.Mutiny(m.AVERTED, 4)
    assert m.mutiny(data, 3, 3, 0) == m.Mutiny(m.AVERTED, 0)
    assert m.mutiny(data, 2, 3, 0) == m.Mutiny(m.CRUSHED, 0)


# ---------------------------------------------------------------------------- victory

RATES = {
    "net_worth_per_vp": DATA.victory.doubloons_per_vp,
    "pirate_port_retirement_rate": DATA.victory.pirate_port_doubloons_per_vp,
}


def test_teach_retires_at_bath_under_the_pardon(data):
    """[blackbeard §R18.6, §R18.3, §R18.41]
    NP 31 and Net Worth 8,740: 31 + 87 = 118 VP."""
    teach = pirate("TE", port=port("Bath").code)
    assert "C" in m.retirement_cases(
        data, port("Bath"), PortState(governor=ANTI), teach, pardon_in_force=True
    )
    assert m.retirement_score(data, "C", 31, 8740, **RATES) == m.Score(118, 87)


def test_vane_retires_at_new_providence(data):
    """[blackbeard §R18.6, §R18.3, §R18.41]
    NP 24 and Net Worth 6,300 at the Pirate-Port rate: 24 + 31 = 55 VP; at 100 (design
    option 3) 24 + 63."""
    vane = pirate("VA")
    assert m.retirement_cases(data, data.ports[44], PortState(), vane, pardon_in_force=False) == (
        "A",
    )
    assert m.retirement_score(data, "A", 24, 6300, **RATES) == m.Score(55, 31)
    assert (
        m.retirement_score(
            data, "A", 24, 6300, net_worth_per_vp=100, pirate_port_retirement_rate=100
        ).vp
        == 87
    )
    assert (
        m.retirement_score(
            data, "D2", 24, 6300, net_worth_per_vp=50, pirate_port_retirement_rate=200
        ).vp
        == 150
    )


def test_bonnet_killed_by_rhett(data):
    """[blackbeard §R18.6, §10.36]
    NP 23, Net Worth 3,850: his owner scores 23 (the Net Worth is lost), Rhett's
    controller 11."""
    assert m.score(data, "B", notoriety=23, net_worth=3850) == m.Score(23, 0)
    assert m.score(data, "C", notoriety=23) == m.Score(11, 0)


def test_anti_pirate_awards_and_the_end_of_the_game(data):
    """[blackbeard §R18.6, §R18.12]
    A warship that wins by 3 and sinks the ship: 3 + half the NP; a KC beaten: half its
    Combat; a surrender: half the NP; each scaled by design option 7. At the end a pirate
    in play scores his NP; a redrawn Pirate card 10 to each other player."""
    assert m.score(data, "E", notoriety=21, hits=3, sunk=True).vp == 3 + 10
    assert m.score(data, "E", notoriety=21, hits=3).vp == 3
    assert m.score(data, "E", notoriety=21, sunk=True, ap_vp_awards="doubled").vp == 20
    assert m.score(data, "D", kc_combat=11).vp == 5
    assert m.score(data, "D", kc_combat=11, ap_vp_awards="none").vp == 0
    assert m.score(data, "F", notoriety=23).vp == 11
    assert m.score(data, "G", notoriety=17, net_worth=5000) == m.Score(17, 0)
    assert m.score(data, "H").vp == 10


def test_where_a_pirate_may_retire(data):
    """[blackbeard §R18.41, §9.53, §11.15, §13.22]
    A Pirate Port; his LoM's nation (not while allied); English ports under the Pardon; his
    Safe Haven; a Pro-Pirate port whose Governor he never tried to bribe. Not in D&R, not
    in a destroyed port, not in the port he has just taken."""
    bath, san_juan = port("Bath"), port("San Juan")
    lom = pirate(ship=ship(letter_of_marque="spanish"))
    cases = m.retirement_cases
    assert cases(data, san_juan, PortState(governor=ANTI), lom, pardon_in_force=True) == ("B",)
    assert (
        cases(data, san_juan, PortState(governor=ANTI), lom, pardon_in_force=True, allied=True)
        == ()
    )
    assert cases(data, san_juan, PortState(governor=PRO), lom, pardon_in_force=False) == ("B", "D2")
    assert cases(
        data, bath, PortState(PRO, safe_haven="CO"), pirate(bribed={PRO}), pardon_in_force=True
    ) == ("C", "D1")
    assert (
        cases(data, bath, PortState(governor=PRO), pirate(bribed={PRO}), pardon_in_force=False)
        == ()
    )
    assert cases(data, bath, PortState(), pirate(), pardon_in_force=False) == ()
    reveller = pirate(ship=ship(revelry=VOLUNTARY))
    assert cases(data, data.ports[44], PortState(), reveller, pardon_in_force=False) == ()
    assert (
        cases(data, data.ports[44], PortState(destroyed=True), pirate(), pardon_in_force=False)
        == ()
    )
    taken = pirate(sack_pending=bath.code)
    assert cases(data, bath, PortState(), taken, pardon_in_force=True) == ()


def test_retirement_prices(data):
    """[blackbeard §R18.41]
    D1: 1 stalls, else the roll x 200, free under design option 6; D2: 1-2 refused, else
    the roll x 500, or the roll x 100 never refused under design option 5; a failed attempt
    costs Loyalty -1; A, B and C are free."""
    options = {"bribe_retirement": "standard", "safe_haven_retirement_automatic": False}
    assert m.retirement_price(data, "D1", 1, **options) == m.Bribe(None, -1)
    assert m.retirement_price(data, "D1", 4, **options) == m.Bribe(800, -1)
    assert m.retirement_price(data, "D2", 2, **options).price is None
    assert m.retirement_price(data, "D2", 3, **options).price == 1500
    for case in ("A", "B", "C"):
        assert m.retirement_price(data, case, **options) == m.Bribe(0, 0)
    assert m.retirement_price(
        data, "D1", bribe_retirement="standard", safe_haven_retirement_automatic=True
    ) == m.Bribe(0, 0)
    assert (
        m.retirement_price(
            data, "D2", 1, bribe_retirement="cheap", safe_haven_retirement_automatic=False
        ).price
        == 100
    )
    with pytest.raises(ValueError):
        m.retirement_price(data, "D2", **options)


def test_final_places_and_tie_breaks(data):
    """[blackbeard §R18.5]
    The most VP; then VP from Net Worth, pirates retired, the highest NP of one pirate;
    then a shared place (design option 25: shared at once)."""
    players = [
        Player(0, vp=50, vp_from_net_worth=20),
        Player(1, vp=50, vp_from_net_worth=30),
        Player(2, vp=60),
        Player(3, vp=50, vp_from_net_worth=20, retired=["TE"]),
    ]
    assert m.places(data, players, tie_breaks="standard") == (4, 2, 1, 3)
    assert m.places(data, players, tie_breaks="shared") == (2, 2, 1, 2)
    even = [
        Player(0, vp=40, best_notoriety=25),
        Player(1, vp=40, best_notoriety=31),
        Player(2, vp=40, best_notoriety=31),
    ]
    assert m.places(data, even, tie_breaks="standard") == (3, 1, 1)


@given(vps=st.lists(st.integers(0, 300), min_size=2, max_size=5))
def test_more_vp_always_places_higher(vps):
    """[blackbeard §R18.5]"""
    players = [Player(seat, vp=vp, vp_from_net_worth=seat) for seat, vp in enumerate(vps)]
    ranked = m.places(DATA, players, tie_breaks="standard")
    for one, other in itertools.permutations(players, 2):
        if one.vp > other.vp:
            assert ranked[one.seat] < ranked[other.seat]
