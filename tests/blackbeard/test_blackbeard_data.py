"""Blackbeard's data files and options against the rules and the reconstruction.

Each test cites what it checks, in brackets: "blackbeard §4.3" is a section of the rules as
the project reads them, "blackbeard §R1.4" a section of the reconstruction (the section
index of docs/games/blackbeard.md lists every one cited here). The facts are the rules'
own numbers and the numbers the reconstruction documents (often derived: odds, averages,
spreads), never a copy of a data row: a correction of the data that breaks a documented
fact fails here.
"""

from __future__ import annotations

import re
import shutil
import tomllib
from collections import Counter, deque
from fractions import Fraction
from itertools import product
from pathlib import Path
from statistics import mean

import pytest

from admiralty.games.blackbeard import options
from admiralty.games.blackbeard.data import DASH, DATA_DIR, DIAMOND, GameData, load
from admiralty.games.info import OptionSpec

DOCS = Path(__file__).parents[2] / "docs" / "games" / "blackbeard.md"
FILES = ("map", "ports", "pirates", "ships", "events", "charts", "victory", "setup")
D66 = [10 * tens + units for tens in range(1, 7) for units in range(1, 7)]


@pytest.fixture(scope="module")
def data() -> GameData:
    return load()


def chance(won) -> Fraction:
    """The chance that `won(a, b)` for two fair dice a, b."""
    return Fraction(sum(bool(won(a, b)) for a, b in product(range(1, 7), repeat=2)), 36)


def steps(data: GameData, start: str, extra_edges: bool = True) -> dict[str, int]:
    """Moves from `start` to every location it reaches (a transit box is one step)."""
    near, seen, todo = data.neighbours(extra_edges), {start: 0}, deque([start])
    while todo:
        here = todo.popleft()
        for there in near[here]:
            if there not in seen:
                seen[there] = seen[here] + 1
                todo.append(there)
    return seen


# ---------------------------------------------------------------------------- the map


def test_ten_sea_areas_in_three_regions_and_two_transit_boxes(data):
    """[blackbeard §2.2, §7.11, §R1.1, §R0.3]
    Three regions; ten sea areas numbered 1-10 for tie-breaks (India the tenth); the transit
    boxes T1 and T2 rank 11 and 12, and every location id is a string."""
    assert {region.name for region in data.regions.values()} == {
        "America",
        "West Africa",
        "East Africa/India",
    }
    assert [(a.number, a.id, a.name) for a in data.areas.values()] == [
        (1, "NA", "North Atlantic"),
        (2, "CA", "Central Atlantic"),
        (3, "SA", "South Atlantic"),
        (4, "WC", "Western Caribbean"),
        (5, "EC", "Eastern Caribbean"),
        (6, "CM", "Central America"),
        (7, "SM", "South America"),
        (8, "GC", "Gold Coast"),
        (9, "EA", "East Africa"),
        (10, "IN", "India"),
    ]
    regions = {a.id: data.regions[a.region].name for a in data.areas.values()}
    assert {a for a, r in regions.items() if r != "America"} == {"GC", "EA", "IN"}
    assert regions["GC"] == "West Africa" and regions["IN"] == regions["EA"]
    assert [(t.number, t.id, t.name) for t in data.transits.values()] == [
        (11, "T1", "South America - Gold Coast"),
        (12, "T2", "Gold Coast - East Africa"),
    ]
    assert all(isinstance(loc, str) for loc in data.locations())


def test_each_area_uses_the_cargo_column_of_the_charts_card(data):
    """[blackbeard §8.32]
    The Cargo Table's columns: the three Atlantic areas; the two Caribbean areas with Central
    and South America; Gold Coast with East Africa; India."""
    columns: dict[str, set[str]] = {}
    for area in data.areas.values():
        columns.setdefault(area.cargo_column, set()).add(area.id)
    assert sorted(columns.values(), key=len) == [
        {"IN"},
        {"GC", "EA"},
        {"NA", "CA", "SA"},
        {"WC", "EC", "CM", "SM"},
    ]


def test_adjacency_is_symmetric_connected_and_as_the_map_note_says(data):
    """[blackbeard §2.2, §7.11, §R1.3]
    The map note's neighbour sets for NA, CA, SA, WC and EC are complete; the transit boxes link
    South America, the Gold Coast and East Africa; the reconstruction adds only CM-SM and EA-IN,
    and without CM-SM (design option 11) the map still holds together."""
    for extra in (True, False):
        near = data.neighbours(extra_edges=extra)
        assert all(a in near[b] for a in near for b in near[a])  # symmetric
        assert set(steps(data, "NA", extra)) == set(data.locations())  # connected
    near = data.neighbours()
    assert {k: set(near[k]) for k in ("NA", "CA", "SA", "WC", "EC")} == {
        "NA": {"CA"},
        "CA": {"NA", "SA"},
        "SA": {"CA", "WC"},
        "WC": {"SA", "EC", "CM", "SM"},
        "EC": {"WC", "SM"},
    }
    assert set(near["T1"]) == {"SM", "GC"} and set(near["T2"]) == {"GC", "EA"}
    assert set(near["GC"]) == {"T1", "T2"}  # the Gold Coast borders no sea area
    extras = {frozenset(e.between): e.removable for e in data.edges if e.extra}
    assert extras == {frozenset({"CM", "SM"}): True, frozenset({"EA", "IN"}): False}
    assert all(e.label.basis == "reconstructed" for e in data.edges if e.extra)
    assert all(e.label.is_known for e in data.edges if not e.extra)
    without = data.neighbours(extra_edges=False)
    assert set(without["CM"]) == {"WC"} and set(without["IN"]) == {"EA"}


def test_the_western_caribbean_is_the_hub(data):
    """[blackbeard §R1.3]
    From WC it is 3 steps to the Gold Coast, 5 to East Africa and 6 to India; North Atlantic to
    India is 9."""
    from_wc = steps(data, "WC")
    assert (from_wc["GC"], from_wc["EA"], from_wc["IN"]) == (3, 5, 6)
    assert all(from_wc[a] == 1 for a in ("SA", "EC", "CM", "SM"))
    assert steps(data, "NA")["IN"] == 9


# ---------------------------------------------------------------------------- ports


def test_36_ports_with_unique_d66_codes(data):
    """[blackbeard §9.11, §2.2]
    36 ports, one per d66 result 11-66 (both digits 1-6); each adjoins one existing sea area,
    except Bermuda, which adjoins North and Central Atlantic."""
    assert list(data.ports) == D66
    assert all(set(port.areas) <= set(data.areas) for port in data.ports.values())
    two = [port for port in data.ports.values() if len(port.areas) != 1]
    assert [(p.name, p.areas, p.area) for p in two] == [("Bermuda", ("NA", "CA"), "NA")]


def test_three_pirate_ports_without_nation_value_or_defense(data):
    """[blackbeard §9.35, §9.13, §R1.4]
    Isle de Tortuga (35), New Providence (44) and Isle Ste Marie (66) are the Pirate Ports: no
    nationality, Value, Defense or Governor; the other 33 are national ports with Values 1-5 and
    Defenses 3-10."""
    pirate = {p.code: p for p in data.ports.values() if p.pirate_port}
    assert {code: p.name for code, p in pirate.items()} == {
        35: "Isle de Tortuga",
        44: "New Providence",
        66: "Isle Ste Marie",
    }
    assert all(p.nation is p.value is p.defense is p.attitude is None for p in pirate.values())
    national = [p for p in data.ports.values() if not p.pirate_port]
    assert len(national) == 33
    assert {p.value for p in national} == {1, 2, 3, 4, 5}
    assert round(mean(p.value for p in national), 1) == 2.6
    assert (min(p.defense for p in national), max(p.defense for p in national)) == (3, 10)


def test_the_ports_the_rules_name(data):
    """[blackbeard §9.11, §4.6, §9.42, §8.2, §9.53, §9.58, §17.2, §R1.5.5]
    St Augustine is 21 in the North Atlantic, Campeche 22 in Central America; Charleston (South
    Atlantic) and Bath are English; Santo Domingo is in the Eastern Caribbean; San Juan is
    Spanish, 2-7; Honduras is Spanish; Isle Ste Marie, off Madagascar, is in East Africa. The
    Isle of Pines is not a port."""
    by_name = {p.name: p for p in data.ports.values()}
    assert (by_name["St Augustine"].code, by_name["St Augustine"].areas) == (21, ("NA",))
    assert (by_name["Campeche"].code, by_name["Campeche"].areas) == (22, ("CM",))
    assert (by_name["Charleston"].areas, by_name["Charleston"].nation) == (("SA",), "english")
    assert by_name["Bath"].nation == "english" and by_name["Santo Domingo"].areas == ("EC",)
    san_juan = by_name["San Juan"]
    assert (san_juan.nation, san_juan.value, san_juan.defense) == ("spanish", 2, 7)
    assert by_name["Honduras"].nation == "spanish"
    assert by_name["Isle Ste Marie"].areas == ("EA",)
    assert "Isle of Pines" not in by_name
    assert data.sites["isle_of_pines"].area == "WC"


def test_nationalities(data):
    """[blackbeard §9.42, §9.44, §9.58, §R1.5.1]
    Arab and Portuguese ports never pay ransom and Arab ports never repair; six nationalities
    (so six kinds of Attack History marker), English 10 ports, Spanish 11, French, Dutch,
    Portuguese and Arab 3 each."""
    nations = data.nations
    assert {n for n in nations if not nations[n].ransom} == {"arab", "portuguese"}
    assert {n for n in nations if not nations[n].repairs} == {"arab"}
    assert {n for n in nations if not nations[n].letters_of_marque} == {"arab"}
    count = Counter(p.nation for p in data.ports.values() if p.nation)
    assert count == {
        "english": 10,
        "spanish": 11,
        "french": 3,
        "dutch": 3,
        "portuguese": 3,
        "arab": 3,
    }


def test_every_national_port_starts_neutral(data):
    """[blackbeard §3.0]
    No attitude is printed: every national port starts Neutral (the Pro-Pirate Governors placed
    at setup change that)."""
    assert {p.attitude for p in data.ports.values() if not p.pirate_port} == {"neutral"}


def next_port(data: GameData, code: int, takes) -> int | None:
    """The next-available-port rule: from `code` up in code order, wrapping, at most 36."""
    start = D66.index(code)
    for offset in range(len(D66)):
        candidate = data.ports[D66[(start + offset) % len(D66)]]
        if takes(candidate):
            return candidate.code
    return None


def test_merchant_spread_over_the_areas_by_d66(data):
    """[blackbeard §6.32, §R1.5.3]
    On an empty map a merchant placed by d66 lands on Veracruz, Charleston or Boston with chance
    2/36 each (each follows a Pirate Port) and on any other national port 1/36; per area, out of
    36: NA 5, CA 2, SA 2, WC 3, EC 4, CM 5, SM 4, GC 4, EA 3, IN 4 (Bermuda counted in the North
    Atlantic)."""
    landed = Counter(next_port(data, code, lambda p: not p.pirate_port) for code in D66)
    assert {code for code, n in landed.items() if n == 2} == {36, 45, 11}
    assert set(landed.values()) == {1, 2}
    per_area = Counter()
    for code, n in landed.items():
        per_area[data.ports[code].area] += n
    assert per_area == {
        "NA": 5,
        "CA": 2,
        "SA": 2,
        "WC": 3,
        "EC": 4,
        "CM": 5,
        "SM": 4,
        "GC": 4,
        "EA": 3,
        "IN": 4,
    }


def test_naval_bases(data):
    """[blackbeard §R1.5.4, §R1.4]
    Eleven naval bases (11, 12, 13, 14, 15, 16, 23, 24, 36, 46, 61), none in the South Atlantic
    or East Africa, each with a Defense of 6 or more; Havana and Cartagena have 10."""
    bases = {p.code: p for p in data.ports.values() if p.naval_base}
    assert sorted(bases) == [11, 12, 13, 14, 15, 16, 23, 24, 36, 46, 61]
    assert not {a for p in bases.values() for a in p.areas} & {"SA", "EA"}
    assert min(p.defense or 0 for p in bases.values()) >= 6
    assert {p.name for p in data.ports.values() if p.defense == 10} == {"Havana", "Cartagena"}


def test_the_spanish_treasure_fleet_has_eight_ports(data):
    """[blackbeard §R4.5]
    Card 20 sends merchants to the Spanish ports of WC, CM and SM: 13, 22, 24, 33, 36, 42, 53
    and 62."""
    params = data.card("spanish_treasure_fleet").params
    eligible = sorted(
        p.code
        for p in data.ports.values()
        if p.nation == params["nation"] and set(p.areas) & set(params["areas"])
    )
    assert eligible == [13, 22, 24, 33, 36, 42, 53, 62]


# ---------------------------------------------------------------------------- pirates


KNOWN_PIRATES = {
    "Edward Teach",
    "Bartholomew Roberts",
    "Henry Avery",
    "Edward Low",
    "François l'Ollonais",
    "Charles Vane",
    "Christopher Condent",
    "Stede Bonnet",
    "Jack Rackham",
    "Howell Davis",
    "Walter Kennedy",
    "Edward England",
    "Samuel Bellamy",
    "Thomas Tew",
    "Raveneau de Lussan",
}


def test_23_pirate_cards_with_the_known_names_and_ratings(data):
    """[blackbeard §2.1, §5.2, §4.52, §9.63, §R2.2]
    23 Pirate cards with two-letter Pirate IDs; fifteen known names; Teach has Initiative 3,
    Vane and Condent Ability 4 and Cruelty 3, Low Ability 3, Bonnet Ability 2; Hornigold (the
    model of the ex-pirate KC) is not a card."""
    pirates = {p.name: p for p in data.pirates.values()}
    assert len(data.pirates) == 23
    assert all(re.fullmatch(r"[A-Z]{2}", ident) for ident in data.pirates)
    assert set(pirates) >= KNOWN_PIRATES
    assert pirates["Edward Teach"].initiative == 3
    for name in ("Charles Vane", "Christopher Condent"):
        assert (pirates[name].ability, pirates[name].cruelty) == (4, 3)
    assert pirates["Edward Low"].ability == 3 and pirates["Stede Bonnet"].ability == 2
    assert not any("Hornigold" in name for name in pirates)
    known = {p.name for p in data.pirates.values() if "name" in p.label.known}
    assert known == KNOWN_PIRATES


def test_pirate_ratings_spread(data):
    """[blackbeard §R2.1]
    Ratings in the ranges used (Initiative 2-4, Ability 2-5, Leadership 2-5, Cruelty 1-5,
    Cunning 1-3, Duel 2-4); Duel 3 and 4 and Cunning 2 exist; strength (all but Cruelty) runs
    from 10 (Bonnet) to 19 (Roberts, Teach), 14.6 on average; l'Ollonais and Low have Cruelty 5,
    Bellamy, England and Tew 1."""
    ranges = {
        "initiative": (2, 4),
        "ability": (2, 5),
        "leadership": (2, 5),
        "cruelty": (1, 5),
        "cunning": (1, 3),
        "duel": (2, 4),
    }
    for key, (low, high) in ranges.items():
        assert {p.ratings[key] for p in data.pirates.values()} <= set(range(low, high + 1))
    assert {3, 4} <= {p.duel for p in data.pirates.values()}
    assert max(p.cunning for p in data.pirates.values()) >= 2
    strength = {p.id: sum(p.ratings.values()) - p.cruelty for p in data.pirates.values()}
    assert min(strength.values()) == strength["BO"] == 10
    assert {ident for ident, s in strength.items() if s == 19} == {"RO", "TE"}
    assert round(mean(strength.values()), 1) == 14.6
    assert {p.id for p in data.pirates.values() if p.cruelty == 5} == {"LO", "LW"}
    assert {p.id for p in data.pirates.values() if p.cruelty == 1} == {"BE", "EN", "TW"}


def test_what_the_ratings_mean_at_the_table(data):
    """[blackbeard §8.13, §14.12, §R2.1]
    Locate needs 1d6 + Ability >= 7: Ability 2 finds 33 %, 4 finds 67 %; a mutiny succeeds on
    1d6 > Leadership: 2 gives 4/6, 5 gives 1/6; most pirates have Ability 4."""
    target = data.charts.figures["locate"]["target"]
    locate = {
        ability: Fraction(sum(d + ability >= target for d in range(1, 7)), 6)
        for ability in (2, 3, 4, 5)
    }
    assert locate == {2: Fraction(1, 3), 3: Fraction(1, 2), 4: Fraction(2, 3), 5: Fraction(5, 6)}
    assert Fraction(sum(d > 2 for d in range(1, 7)), 6) == Fraction(4, 6)
    assert Counter(p.ability for p in data.pirates.values()).most_common(1)[0][0] == 4


# ---------------------------------------------------------------------------- ships


def test_pirate_ship_types_and_display_tracks(data):
    """[blackbeard §6.21, §6.23, §6.25, §R3.1, §R0.4]
    Sloop 5/5/2 and Schooner 6/3/3 to start with, Brig 7/1/4 only by conversion; Combat sinks at
    0 and Speed at -3; Crew Loyalty starts at 7, mutinies at 0, tops out at 10."""
    ships = {s.id: (s.combat, s.speed, s.holds, s.start) for s in data.ship_types.values()}
    assert ships == {
        "sloop": (5, 5, 2, True),
        "schooner": (6, 3, 3, True),
        "brig": (7, 1, 4, False),
    }
    tracks = data.tracks
    assert (tracks["combat"].sunk, tracks["speed"].sunk) == (0, -3)
    assert (tracks["loyalty"].start, tracks["loyalty"].low, tracks["loyalty"].high) == (7, 0, 10)
    hits_to_sink = {
        s.id: (s.combat - tracks["combat"].sunk, s.speed - tracks["speed"].sunk)
        for s in data.ship_types.values()
    }
    assert hits_to_sink == {"sloop": (5, 8), "schooner": (6, 6), "brig": (7, 4)}


def test_35_merchants_by_type(data):
    """[blackbeard §3.0, §6.12, §8.5, §R3.2]
    35 Merchant Ship counters M01-M35; Cargo Values Fluyt 0, Sloop 1, Schooner 2, Brig 3,
    three-masted merchantman 4; only Sloops, Schooners and Brigs may be converted (24 counters);
    the average Cargo Value is about 2.03, so the Cargo roll's Loyalty -1 (1-3) and +1 (8-10)
    each come up 19-20 %."""
    merchants = data.merchants
    assert sorted(merchants) == [f"M{n:02}" for n in range(1, 36)]
    values = {m.id: m.cargo_value for m in data.merchant_types.values()}
    assert values == {"fluyt": 0, "sloop": 1, "schooner": 2, "brig": 3, "merchantman": 4}
    assert {m.id for m in data.merchant_types.values() if m.convertible} == {
        "sloop",
        "schooner",
        "brig",
    }
    assert sum(m.convertible for m in merchants.values()) == 24
    assert round(mean(m.cargo_value for m in merchants.values()), 2) == 2.03
    rolls = Counter(d + m.cargo_value for m in merchants.values() for d in range(1, 7))
    low = Fraction(sum(n for r, n in rolls.items() if r <= 3), 6 * 35)
    high = Fraction(sum(n for r, n in rolls.items() if r >= 8), 6 * 35)
    assert 0.19 <= low <= 0.20 and 0.19 <= high <= 0.20


def test_15_warships_in_three_classes(data):
    """[blackbeard §3.0, §6.13, §6.45, §6.46, §R3.3]
    15 warships in three classes by guns: more guns, more Combat and less Speed (6, 6 and 3
    counters). With option 2.4 a fresh Schooner with Ability 4 beats a sloop-of-war 58 % of the
    time, a frigate 28 % and a man-of-war 8 %; a Sloop evades a sloop-of-war 72 % of the time."""
    assert sorted(data.warships) == [f"W{n:02}" for n in range(1, 16)]
    classes = sorted(data.warship_classes.values(), key=lambda c: c.combat)
    assert len(classes) == 3
    assert [c.speed for c in classes] == sorted((c.speed for c in classes), reverse=True)
    per_class = Counter(w.cls.id for w in data.warships.values())
    assert [per_class[c.id] for c in classes] == [6, 6, 3]
    plus = data.charts.figures["fight"]["option_2_4_bonus"]
    pirate = data.ship_types["schooner"].combat + 4
    beats = [chance(lambda a, b, c=c: a + pirate > b + c.combat + plus) for c in classes]
    assert [round(float(p) * 100) for p in beats] == [58, 28, 8]
    sloop = data.ship_types["sloop"].speed
    assert round(float(chance(lambda a, b: a + sloop >= b + classes[0].speed)) * 100) == 72


def test_9_kings_commissioners(data):
    """[blackbeard §3.0, §10.15, §10.33, §10.34, §R3.4]
    8 named KCs in the face-down pool and the unnamed ex-pirate kept apart for Pirate Converts;
    Thomas Matthews is Speed 3, Combat 11; Chaloner Ogle and William Rhett are KCs. Maynard
    (Speed 5) intercepts a Schooner 72 % of the time in its own area, 58 % after moving in from
    the next one."""
    pools = Counter(kc.pool for kc in data.kcs.values())
    assert pools == {"named": 8, "ex_pirate": 1}
    assert (
        data.card("pirate_converts").params["kc"]
        == "KX"
        == next(kc.id for kc in data.kcs.values() if kc.pool == "ex_pirate")
    )
    kcs = {kc.name: kc for kc in data.kcs.values()}
    assert (kcs["Thomas Matthews"].speed, kcs["Thomas Matthews"].combat) == (3, 11)
    assert {"Chaloner Ogle", "William Rhett"} <= set(kcs)
    maynard, schooner = kcs["Robert Maynard"].speed, data.ship_types["schooner"].speed
    moved = data.charts.figures["fight"]["kc_moved_in_penalty"]
    same = chance(lambda a, b: a + maynard > b + schooner)
    adjacent = chance(lambda a, b: a + maynard - moved > b + schooner)
    assert (round(float(same) * 100), round(float(adjacent) * 100)) == (72, 58)


def test_15_hostages(data):
    """[blackbeard §3.0, §8.4, §9.42, §R3.5]
    15 hostages H01-H15; a Captain is Information 5, Value 2 and the Governor's Daughter is
    worth 6; Values average 2.9 and Information 3.3, so a ransom (2d6 x Value x 50) averages
    about 1,000 doubloons."""
    hostages = data.hostages
    assert sorted(hostages) == [f"H{n:02}" for n in range(1, 16)]
    kinds = {k.name: k for k in data.hostage_kinds.values()}
    assert (kinds["Captain"].information, kinds["Captain"].value) == (5, 2)
    assert kinds["Governor's Daughter"].value == 6
    assert round(mean(h.value for h in hostages.values()), 1) == 2.9
    assert round(mean(h.information for h in hostages.values()), 1) == 3.3
    figures = data.charts.figures["hostage"]
    ransom = 7 * mean(h.value for h in hostages.values()) * figures["ransom_per_value"]
    assert 950 < ransom < 1050 and figures["ransom_dice"] == 2


def test_24_governors(data):
    """[blackbeard §3.0, §9.22, §R3.6]
    8 Pro-Pirate Governors, all placed at setup, and 16 Anti-Pirate Governors entering in pairs
    through New Governors: its 4 copies use them up in exactly eight plays."""
    sides = Counter(g.side for g in data.governors.values())
    assert sides == {"pro": 8, "anti": 16}
    pairs = data.card("new_governors").params["governors"]
    assert pairs == 2 and sides["anti"] / pairs == 2 * data.card("new_governors").copies


# ---------------------------------------------------------------------------- events


def test_87_event_cards_in_24_titles(data):
    """[blackbeard §2.1, §R4.1, §R4.4]
    87 Event cards in 24 titles: AND 13, OR 8, AP 53, MPI 13 (so 74 Hold until Played); of those
    74, 27 give 1 Action, 21 give 2, 10 give 3 and 16 the pirate's Initiative; 3 General
    Pardons."""
    deck = data.deck()
    assert (deck.total, len(data.events)) == (87, 24)
    assert deck.by_class() == {"AND": 13, "OR": 8, "AP": 53, "MPI": 13}
    assert deck.by_play() == {"HUP": 74, "MPI": 13}
    assert deck.by_actions() == {1: 27, 2: 21, 3: 10, DIAMOND: 16, DASH: 13}
    assert data.card("general_pardon").copies == 3


def test_cards_are_numbered_in_alphabetical_order(data):
    """[blackbeard §17.2, §R4.1]
    Rule 17.2 numbers the titles alphabetically, copies sharing their number: #1 Buried Treasure
    (1 copy, 1 Action AND Event, Hold until Played), #16 Pirate Converts, #17 Piratical
    Ambition, #18 Scurvy Outbreak."""
    titles = [card.title for card in data.events.values()]
    assert titles == sorted(titles, key=str.casefold)
    first = data.events[1]
    assert (first.title, first.copies, first.actions, first.cls, first.play) == (
        "Buried Treasure",
        1,
        1,
        "AND",
        "HUP",
    )
    assert [data.events[n].title for n in (16, 17, 18)] == [
        "Pirate Converts",
        "Piratical Ambition",
        "Scurvy Outbreak",
    ]


NAMED_IN_THE_RULES = {
    "Buried Treasure",
    "Letter of Marque",
    "Skull and Crossbones",
    "General Pardon",
    "Warship Sighting",
    "Scurvy Outbreak",
    "Storm At Sea",
    "Wear and Tear",
    "Fair Winds",
    "New Governors",
    "KC Surprise",
    "Pirate Converts",
    "Mutiny Conspiracy",
    "Piratical Ambition",
    "Debauchery & Revelry",
}


def test_card_kinds_follow_the_rules(data):
    """[blackbeard §4.4, §17.11, §17.12, §17.15, §17.16]
    Must Play Immediately cards have a dash for Actions; AND cards give one Action; only Letter
    of Marque and Skull and Crossbones are OR cards without the Anti-Pirate icon; Fair Winds is
    an AND card; Warship Sighting, Scurvy Outbreak, Mutiny Conspiracy and Piratical Ambition are
    Anti-Pirate cards; every title the rules name is in the deck."""
    cards = {card.title: card for card in data.events.values()}
    assert set(cards) >= NAMED_IN_THE_RULES
    for card in cards.values():
        assert (card.cls == "MPI") == (card.actions == DASH) == (card.play == "MPI")
        assert card.cls != "AND" or card.actions == 1
    assert {t for t, c in cards.items() if c.cls == "OR"} == {
        "Letter of Marque",
        "Skull and Crossbones",
    }
    assert cards["Fair Winds"].cls == "AND"
    for title in ("Warship Sighting", "Scurvy Outbreak", "Mutiny Conspiracy", "Piratical Ambition"):
        assert cards[title].anti_pirate
    assert len({card.key for card in cards.values()}) == len(cards)


def test_about_two_actions_per_card(data):
    """[blackbeard §4.52, §R8]
    A Hold-until-Played card gives about 1.9 Actions (a diamond counted at the pirates' average
    Initiative)."""
    deck, initiative = data.deck(), mean(p.initiative for p in data.pirates.values())
    actions = deck.by_actions()
    total = sum(
        n * (initiative if value == DIAMOND else value)
        for value, n in actions.items()
        if value != DASH
    )
    assert round(total / deck.by_play()["HUP"], 1) == 1.9


def test_buried_treasure(data):
    """[blackbeard §17.2, §R1.5.5]
    Digging: 1d6 of 1-2 finds nothing, else 3d6 x 100 doubloons; the island (Isle of Pines) lies
    in the Western Caribbean."""
    params = data.card("buried_treasure").params
    assert (params["dig_fail_max"], params["treasure_dice"], params["doubloons_per_pip"]) == (
        2,
        3,
        100,
    )
    assert data.sites[params["site"]].area == "WC"


# ---------------------------------------------------------------------------- charts


def test_the_cargo_table(data):
    """[blackbeard §8.32, §8.2, §R5.1]
    Rule 8.2's example: an adjusted 9 in the Eastern Caribbean gives 2,500 doubloons and Crew
    Loyalty +1; rolls 1-10; 1-3 cost a point of Loyalty, 8-10 give one; the India column tops
    out at 7,500; the Atlantic's 1 is 0."""
    charts = data.charts
    assert charts.cargo_booty(9, data.areas["EC"].cargo_column) == (2500, 1)
    assert charts.cargo_booty(10, data.areas["IN"].cargo_column) == (7500, 1)
    assert charts.cargo_booty(1, data.areas["NA"].cargo_column) == (0, -1)
    assert [row.roll for row in charts.cargo] == list(range(1, 11))
    assert [row.loyalty for row in charts.cargo] == [-1] * 3 + [0] * 4 + [1] * 3
    for column in charts.cargo_columns:  # the better the roll, the richer the cargo
        booty = [row.booty[column] for row in charts.cargo]
        assert booty == sorted(booty)


def test_the_notoriety_points_table(data):
    """[blackbeard §R5.2, §8.33, §8.45, §9.53, §9.55, §10.35, §6.46, §15.12, §10.42]
    Loot: the Cargo Value; torture: the hostage's Value; a Port Attack and a Sack: twice the
    Port Value; a KC beaten: twice its Combat; a warship beaten: its Combat; a duel won: both
    Duel ratings; a failed Oust: 1. Nothing else."""
    table = {row.key: (row.measure, row.factor) for row in data.charts.notoriety.values()}
    assert table == {
        "loot": ("cargo_value", 1),
        "torture": ("hostage_value", 1),
        "port_attack": ("port_value", 2),
        "sack": ("port_value", 2),
        "kc_defeated": ("kc_combat", 2),
        "warship_defeated": ("warship_combat", 1),
        "duel_won": ("duel_sum", 1),
        "oust_failed": ("one", 1),
    }


def test_the_crew_loyalty_table(data):
    """[blackbeard §R5.3, §8.32, §6.26, §6.46, §9.62, §14.12, §13.21, §9.35]
    The rules' changes: declining a cargo -1, losing to a warship -1, Speed 0 to -1 -1, a failed
    Booty Grab -2, an averted mutiny -1, a failed bribe -1; torture, a Port Attack, a Sack, a KC
    beaten, a larger ship +1; D&R +1, +3 in a Pirate Port; a new captain is set to 6."""
    loyalty = {row.key: (row.set_to, row.change) for row in data.charts.loyalty.values()}
    expected = {
        "cargo_declined": -1,
        "warship_battle_lost": -1,
        "speed_below_zero": -1,
        "booty_grab_failed": -2,
        "mutiny_averted": -1,
        "bribe_failed": -1,
        "torture": 1,
        "port_attack": 1,
        "sack": 1,
        "kc_defeated": 1,
        "larger_ship": 1,
        "smaller_ship": -1,
        "debauchery": 1,
        "debauchery_pirate_port": 3,
        "scurvy": -1,
        "ambition_won": 1,
    }
    assert {key: loyalty[key] for key in expected} == {
        key: (None, change) for key, change in expected.items()
    }
    assert loyalty["mutiny_succeeded"] == (6, 0)
    assert loyalty["ambition_challenger_won"] == (6, 1)  # reconstructed: 6, then +1


def test_the_storm_effects_table(data):
    """[blackbeard §6.26, §7.2, §R5.4]
    1d6, +1 in a Transit Box: 1-2 one Speed hit, 3-5 two, 6 three, 7 the ship sinks (which only
    a Transit Box can reach)."""
    charts = data.charts
    assert charts.storm_transit_modifier == 1
    effects = [
        (charts.storm_effect(roll).speed_hits, charts.storm_effect(roll).sinks)
        for roll in range(1, 8)
    ]
    assert effects == [(1, False)] * 2 + [(2, False)] * 3 + [(3, False), (0, True)]


def test_the_other_rolls(data):
    """[blackbeard §8.13, §8.15, §9.42, §9.52, §9.53, §9.62, §9.63, §10.12]
    [blackbeard §2.4, §13.23, §10.33, §14.11, §9.43, §9.44, §9.45, §R5.10, §6.46]
    Locate 1d6 + Ability >= 7, +1 if another pirate located it; ransom 2d6 x Value x 50; a port
    attacked before defends with 2d6; Port Attack Booty (Value)d6 x 100; Booty Grab attacker +1,
    (1d6 + difference) x 10 %; KC deployment 3d6; option 2.4 +2; D&R -2; a KC moving in -1;
    Mutiny Conspiracy 2d6; repairs ceil(1d6 / 2), +2 at a Safe Haven; a Safe Haven costs 1d6 x
    100; Booty cashes at 100 % (110 % at a Safe Haven, 50 % at a Neutral port)."""
    f = {name: dict(table.values) for name, table in data.charts.figures.items()}
    assert f["locate"] == {"target": 7, "relocated_bonus": 1}
    assert f["hostage"] == {"ransom_dice": 2, "ransom_per_value": 50, "torture_dice": 1}
    assert (
        f["port_attack"]["defense_dice"],
        f["port_attack"]["marked_defense_dice"],
        f["port_attack"]["booty_per_pip"],
    ) == (1, 2, 100)
    assert f["booty_grab"] == {
        "attacker_bonus": 1,
        "take_percent_per_point": 10,
        "take_percent_max": 100,
    }
    assert f["fight"] == {
        "option_2_4_bonus": 2,
        "debauchery_penalty": 2,
        "kc_deploy_dice": 3,
        "kc_moved_in_penalty": 1,
        "warship_win_hits": 1,
    }
    assert f["mutiny"]["conspiracy_dice"] == 2
    assert f["repair"] == {"dice": 1, "divisor": 2, "safe_haven_bonus": 2}
    assert f["safe_haven"]["price_per_pip"] == 100
    assert f["cash"] == {
        "pirate_port_percent": 100,
        "pro_pirate_percent": 100,
        "safe_haven_percent": 110,
        "neutral_percent": 50,
    }


# ---------------------------------------------------------------------------- victory, setup


def score(data: GameData, case: str, np: int, net_worth: int = 0, pirate_port: bool = False) -> int:
    """VP of a scoring case of victory.toml (the retirement rate by where he retired)."""
    row = data.victory.scoring[case]
    vp = np // row.np_divisor if row.np_divisor else 0
    if row.net_worth:
        rate = (
            data.victory.pirate_port_doubloons_per_vp
            if pirate_port
            else data.victory.doubloons_per_vp
        )
        vp += net_worth // rate
    return vp


def test_victory_points(data):
    """[blackbeard §3.0, §4.2, §10.36, §2.7, §R6]
    The VP marker starts at 0 and flips at 100; a pirate a KC kills scores his NP for his owner,
    half of it (rounded down) for the KC's controller, and his Net Worth is lost; pirates still
    in play score their NP only; the 6-10-player redraw gives 10 VP to every other player. The
    reconstruction's examples: Teach retiring at Bath under the Pardon with NP 31 and 8,740
    doubloons scores 118; Vane at New Providence with NP 24 and 6,300 scores 55; Bonnet (NP 23)
    killed by Rhett scores 23 for his owner and 11 for Rhett's."""
    victory = data.victory
    assert (victory.vp_start, victory.vp_flip_at) == (0, 100)
    assert score(data, "A", 31, 8740) == 118
    assert score(data, "A", 24, 6300, pirate_port=True) == 55
    assert (score(data, "B", 23, 3850), score(data, "C", 23)) == (23, 11)
    assert not victory.scoring["B"].net_worth and not victory.scoring["G"].net_worth
    assert victory.scoring["C"].who == "kc_controller"
    assert (victory.scoring["H"].who, victory.scoring["H"].fixed) == ("each_other_player", 10)
    assert victory.scoring["D"].kc_combat_divisor == 2  # Matthews 11 -> 5
    assert victory.scoring["E"].per_hit == 1 and victory.scoring["E"].sunk_np_divisor == 2


def test_retirement(data):
    """[blackbeard §4.5, §9.32, §9.34, §10.34, §R6, §R5.10]
    Four ways to retire: A at a Pirate Port at 1 VP per 200 doubloons, B (Letter of Marque), C
    (the Pardon, at English ports) and D (bribe) at 1 VP per 100; D1 at a Safe Haven stalls on a
    1, else costs the roll x 200; D2 is refused on 1-2, else costs the roll x 500; the
    tie-breaks: VP from Net Worth, pirates retired, the highest single NP, then a shared win."""
    victory = data.victory
    assert {c.case: c.rate for c in victory.retirement.values()} == {
        "A": "pirate_port",
        "B": "standard",
        "C": "standard",
        "D": "standard",
    }
    assert (victory.doubloons_per_vp, victory.pirate_port_doubloons_per_vp) == (100, 200)
    prices = {p.key: (p.refuse_max, p.price_per_pip) for p in victory.prices.values()}
    assert prices == {"safe_haven": (1, 200), "bribe": (2, 500), "bribe_cheap": (0, 100)}
    assert victory.tie_breaks == ("net_worth_vp", "retired", "highest_np", "shared")


def test_setup_by_player_count(data):
    """[blackbeard §2.7, §3.0, §5.14, §5.16, §4.4]
    4-5 players: 2 pirates on the map, 2 dealt, 3 in hand; 3 players: 3, 3, 3; 2 players: 4, 4,
    4; 6-10 players one pirate at a time; 4 Event cards in hand; 8 merchants at setup, and fewer
    than 5 on the map are brought up to 6."""
    setup = data.setup
    limits = {
        n: (setup.limits(n).map_limit, setup.limits(n).dealt, setup.limits(n).hand_limit)
        for n in range(2, 11)
    }
    assert limits[5] == limits[4] == (2, 2, 3)
    assert (limits[3], limits[2]) == ((3, 3, 3), (4, 4, 4))
    assert all(limits[n][:2] == (1, 1) for n in range(6, 11))
    assert setup.event_hand == 4
    assert (setup.merchants_at_setup, setup.merchant_phase_below, setup.merchant_phase_up_to) == (
        8,
        5,
        6,
    )


def test_solitaire_levels(data):
    """[blackbeard §R7]
    Easy: 1 AP Action, 1 KC, a row of 4, 75 VP, option 2.4 off; Standard: 2, 2, 5, 100, on;
    Hard: 3, 3, 6, 125, on. The player gets 3 Pirate cards and 2 pirates on the map; the Threat
    Row starts with 3 cards."""
    levels = {
        k: (v.ap_budget, v.kc_limit, v.threat_row, v.vp_target, v.option_2_4)
        for k, v in data.setup.solitaire_levels.items()
    }
    assert levels == {
        "easy": (1, 1, 4, 75, False),
        "standard": (2, 2, 5, 100, True),
        "hard": (3, 3, 6, 125, True),
    }
    solo = data.setup.limits(1)
    assert (solo.dealt, solo.map_limit, data.setup.threat_row_start) == (3, 2, 3)


# ---------------------------------------------------------------------------- labels, edits


def rows_of(raw: dict) -> list[tuple[str, dict]]:
    """Every top-level table and every table in an array, at any depth (not inline
    parameter tables such as an Event card's `params`)."""
    found: list[tuple[str, dict]] = []

    def walk(where: str, value, is_row: bool) -> None:
        if isinstance(value, dict):
            if is_row:
                found.append((where, value))
            for key, inner in value.items():
                if isinstance(inner, list):
                    walk(f"{where}.{key}", inner, False)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(f"{where}[{index}]", item, True)

    for key, value in raw.items():
        walk(key, value, True)
    return found


@pytest.mark.parametrize("name", FILES)
def test_every_row_is_labelled(name):
    """[blackbeard §R0.1]
    Every row of every data file is labelled known (with the rule it comes from) or
    reconstructed, and each file says in its header how to correct it."""
    text = (DATA_DIR / f"{name}.toml").read_text()
    rows = rows_of(tomllib.loads(text))
    assert rows
    for where, row in rows:
        assert row.get("basis") in ("known", "reconstructed"), where
        if row["basis"] == "known":
            assert row.get("sources"), where
    header = " ".join(line for line in text.splitlines()[:40] if line.startswith("#"))
    assert "without touching code" in header


def edited_copy(tmp_path: Path, name: str, old: str, new: str) -> Path:
    copy = tmp_path / "data"
    shutil.copytree(DATA_DIR, copy)
    path = copy / name
    text = path.read_text()
    assert old in text, f"{old!r} is no longer in {name}"
    path.write_text(text.replace(old, new, 1))
    return copy


BAD_EDITS = [
    (
        "map.toml",
        'between = ["EA", "IN"]',
        'between = ["EA", "XX"]',
        "map.toml: [[edge]] row 13: between: unknown 'XX'",
    ),
    (
        "map.toml",
        'between = ["EA", "IN"]\nextra = true',
        'between = ["EA", "IN"]\nextra = true\nremovable = true',
        "map.toml: without its removable edges (design option 11) the map is not connected: "
        "IN cannot be reached from NA",
    ),
    (
        "pirates.toml",
        'id = "VA"',
        'id = "TE"',
        "pirates.toml: [[pirate]] row 23 (id = 'TE'): duplicate id 'TE'",
    ),
    (
        "pirates.toml",
        "cruelty = 2\ncunning = 2\nduel = 2",
        "cruelty = 2\ncunning = 2\nduel = 0",
        "pirates.toml: [[pirate]] row 3 (id = 'BO'): duel 0 is out of range 1..6",
    ),
    (
        "ports.toml",
        "code = 52",
        "code = 57",
        "ports.toml: [[port]] row 26 (code = 57): code 57 is not a d66 result",
    ),
    (
        "ports.toml",
        'areas = ["CM"]',
        'areas = ["CX"]',
        "ports.toml: [[port]] row 8 (code = 22): areas: unknown 'CX'",
    ),
    (
        "ports.toml",
        "letters_of_marque = false\nbasis",
        "letters_of_marque = false\nbasi",
        "ports.toml: [[nation]] row 6 (id = 'arab'): missing basis label",
    ),
    (
        "ports.toml",
        "defense = 7",
        "defence = 7",
        "ports.toml: [[port]] row 1 (code = 11): missing field 'defense'",
    ),
    (
        "ships.toml",
        '"M34", "M35"',
        '"M34", "M36"',
        "ships.toml: [[merchant_type]] counter ids must run M01..M35 without gaps; missing M35",
    ),
    (
        "ships.toml",
        'sources = "rule 10.34 example"',
        "# no sources",
        "ships.toml: [[kc]] row 1 (id = 'K1'): a known item, or one with known fields, needs "
        "sources",
    ),
    (
        "events.toml",
        'key = "hurricane"',
        'key = "typhoon"',
        "events.toml: [[card]] row 9 (number = 9): unknown effect key 'typhoon'",
    ),
    (
        "events.toml",
        'play = "MPI"\nactions = "dash"',
        'play = "MPI"\nactions = 2',
        "events.toml: [[card]] row 6 (number = 6): a Must Play Immediately card has a dash",
    ),
    (
        "setup.toml",
        "up_to = 10",
        "up_to = 30",
        "events.toml: the deck holds 74 Hold-until-Played cards, fewer than the opening deal "
        "of 120 (4 cards x 30 players)",
    ),
    (
        "charts.toml",
        "roll = 4\n",
        "roll = 5\n",
        "charts.toml: [[cargo.row]] row 5 (roll = 5): duplicate roll 5",
    ),
    (
        "victory.toml",
        'key = "bribe_cheap"',
        'key = "bribe_cheep"',
        "victory.toml: [[retirement_price]] row 3 (key = 'bribe_cheep'): key 'bribe_cheep' is "
        "not one of safe_haven, bribe, bribe_cheap",
    ),
]


@pytest.mark.parametrize(
    ("name", "old", "new", "message"),
    BAD_EDITS,
    ids=[f"{edit[0]}:{edit[2][:20]}" for edit in BAD_EDITS],
)
def test_a_bad_row_fails_naming_the_file_and_the_row(tmp_path, name, old, new, message):
    """[blackbeard §R8]
    Tables are data keyed by stable identifiers, so a person can replace a row; a mistake is
    refused at load time, naming the file and the row."""
    with pytest.raises(ValueError) as refused:
        load(edited_copy(tmp_path, name, old, new))
    assert str(refused.value).startswith(message)


def test_a_corrected_row_is_read_without_code_changes(tmp_path):
    """[blackbeard §R8]
    Correcting a row (Bath's Defense, the Warship Sighting copies) is read as written, and the
    totals follow; the default data stays cached."""
    copy = edited_copy(tmp_path, "events.toml", "copies = 8", "copies = 9")
    (copy / "ports.toml").write_text(
        (copy / "ports.toml")
        .read_text()
        .replace(
            'name = "Bath"\nareas = ["CA"]\nnation = "english"\nvalue = 1\ndefense = 3',
            'name = "Bath"\nareas = ["CA"]\nnation = "english"\nvalue = 1\ndefense = 4',
        )
    )
    edited = load(copy)
    assert edited.ports[51].defense == 4 and edited.deck().total == 88
    assert load().ports[51].defense == 3 and load() is load()


# ---------------------------------------------------------------------------- options


DEFAULTS = {  # the reconstruction's table of design options, in its order
    "and_card_counts_as_actions_card": True,
    "general_pardon_copies": 3,
    "pirate_port_retirement_rate": 200,
    "net_worth_per_vp": 100,
    "bribe_retirement": "standard",
    "safe_haven_retirement_automatic": False,
    "ap_vp_awards": "standard",
    "option_2_4_plus2": True,
    "crew_loyalty_max": 10,
    "sunk_positions": -3,
    "map_extra_edges": True,
    "port_table": "ports.toml",
    "pirate_ratings": "pirates.toml",
    "warship_values": "ships.toml",
    "deck_composition": "events.toml",
    "warship_sighting_copies": 8,
    "scurvy_tick": "owner_turns",
    "skull_and_crossbones_bonus": "plus2_cunning",
    "heavy_guns": "plus1_minus1",
    "lom_acquisition": "issuing_port",
    "hurricane_destroy_on": "six",
    "new_governors_mpi": True,
    "piratical_ambition_requires_free_slot": True,
    "solitaire_level": "standard",
    "tie_breaks": "standard",
}


def test_the_25_design_options_and_their_defaults():
    """[blackbeard §R8]
    The reconstruction's 25 design options in its order, with its defaults; the four that swap
    data (12 port table, 13 pirate ratings, 14 warship and KC values, 15 deck composition) name
    the data file instead of being options."""
    assert [design.number for design in options.DESIGN] == list(range(1, 26))
    found = {
        design.key: design.spec.default if design.spec else design.data_file
        for design in options.DESIGN
    }
    assert list(found) == list(DEFAULTS) and found == DEFAULTS
    for design in options.DESIGN:
        assert (design.spec is None) == (design.number in (12, 13, 14, 15))
        assert design.spec is None or design.spec.name == design.key
        assert design.spec or (DATA_DIR / design.data_file).is_file()


def test_the_alternatives_of_the_design_options():
    """[blackbeard §R8]
    The named alternatives: 2 or 4 General Pardons or 1 reshuffled; a Pirate-Port rate of 100;
    50-200 doubloons per VP; a Loyalty maximum of 12 or 9; Sunk at Speed -2 or -4; 5-10 Warship
    Sightings; solitaire Easy or Hard (the levels are data, the option takes each of them);
    the anti-pirate side's options 7, 8 and 23 with their alternatives."""
    spec = options.OPTIONS
    assert spec["general_pardon_copies"].choices == (1, 2, 3, 4)
    assert spec["pirate_port_retirement_rate"].choices == (100, 200)
    assert spec["net_worth_per_vp"].bounds == (50, 200)
    assert spec["crew_loyalty_max"].choices == (9, 10, 12)
    assert spec["sunk_positions"].choices == (-4, -3, -2)
    assert spec["warship_sighting_copies"].bounds == (5, 10)
    assert tuple(load().setup.solitaire_levels) == ("easy", "standard", "hard")
    assert spec["tie_breaks"].choices == ("standard", "shared")
    assert spec["solitaire_level"].choices == ("easy", "standard", "hard")
    assert spec["ap_vp_awards"].choices == ("standard", "none", "doubled")
    assert spec["option_2_4_plus2"].type is bool
    assert spec["piratical_ambition_requires_free_slot"].type is bool


def test_the_rules_own_options_and_the_safety_stop():
    """[blackbeard §4.1, §12.0, §3.0, §2.4, §2.7]
    The rules' optional rules with the rules' defaults: a standard game, the Cunning rule on,
    Pirate cards dealt, pirates placed openly, the 6-10-player redraw allowed; and a round
    cap from 1 to 1000, the safety stop every game has. Every default is one its option
    takes."""
    spec = options.OPTIONS
    assert {
        name: spec[name].default
        for name in (
            "game_length",
            "cunning",
            "pirate_selection",
            "initial_placement",
            "pirate_redraw",
        )
    } == {
        "game_length": "standard",
        "cunning": True,
        "pirate_selection": "deal",
        "initial_placement": "open",
        "pirate_redraw": True,
    }
    assert spec["round_cap"].bounds == (1, 1000)
    assert len(spec) == len(options.SPECS) == 21 + 5 + 1
    assert all(s.accepts(s.default, None) for s in options.SPECS)


def test_options_change_the_deck_and_its_totals_follow():
    """[blackbeard §R8]
    Options 2, 16 and 22 edit one deck table and the totals are counted from it: New Governors
    as an Anti-Pirate card leaves 9 MPI cards and 57 AP cards."""
    assert options.deck_for().total == 87
    assert options.deck_for({"warship_sighting_copies": 10}).total == 89
    assert options.deck_for({"general_pardon_copies": 1}).total == 85
    deck = options.deck_for({"new_governors_mpi": False})
    assert (deck.total, deck.by_class()["MPI"], deck.by_class()["AP"]) == (87, 9, 57)
    assert deck.by_play() == {"HUP": 78, "MPI": 9}


@pytest.mark.parametrize(
    ("kind", "kwargs"),
    [(str, {}), (str, {"choices": (1, 2)}), (str, {"choices": ("a",), "bounds": (0, 1)})],
)
def test_a_str_option_needs_choices_of_its_own_type(kind, kwargs):
    """[blackbeard §R8]
    Several design options choose among named alternatives: a str option takes exactly its
    choices, like a bounded int."""
    with pytest.raises(TypeError, match="a str with choices"):
        OptionSpec("n", kind, "a", "a name", **kwargs)
    named = OptionSpec("n", str, "a", "a name", choices=("a", "b"))
    assert named.accepts("b", None) and not named.accepts("c", None)
    assert not named.accepts(1, None) and named.takes() == "one of a, b"
    assert named.to_json()["type"] == "str"


def test_the_section_index_lists_every_cited_section():
    """[blackbeard §R0.1]
    docs/games/blackbeard.md's section index has a row for every section these tests cite."""
    docs = DOCS.read_text()
    index = docs.split("## Section index", 1)[1]
    rows = re.findall(r"^\| (§[^ |]+) \|", index, re.M)
    text = Path(__file__).read_text()
    cited = {
        ref for refs in re.findall(r"\[blackbeard (§[^\]]+)\]", text) for ref in refs.split(", ")
    }
    assert cited <= set(rows), sorted(cited - set(rows))
