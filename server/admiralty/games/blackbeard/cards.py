"""The Event cards a Pirate Player resolves himself: the Events of the AND and OR cards on
his own turn, and the Must Play Immediately cards he draws [blackbeard §R4.5]. No AP
Action or Reaction is taken during an Event [blackbeard §4.4].

The data's `key` of a card selects its interpreter here (`effects`, `mpi`); its `params`
give the numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from admiralty.games.base import Option, Window
from admiralty.games.blackbeard.bermuda import Bermuda
from admiralty.games.blackbeard.choices import STOP, opt, step_option
from admiralty.games.blackbeard.ending import Ending
from admiralty.games.blackbeard.mutiny import Mutiny
from admiralty.games.blackbeard.pieces import Pirate
from admiralty.games.blackbeard.rolls import RollPoints
from admiralty.games.blackbeard.table import DATA, FRIENDLY, PIRATE_PORT, PORTS_OF, Table
from admiralty.games.flow import Flow, step

TURN = Window.TURN
EUROPEAN = tuple(n.id for n in DATA.nations.values() if n.letters_of_marque)
NAVAL_BASES = tuple(p.code for p in DATA.ports.values() if p.naval_base)


@cache
def event_pirate_option(pirate: str) -> Option:
    return Option(f"pirate:{pirate}", DATA.pirates[pirate].name, {"pirate": pirate})


@cache
def event_kc_option(kc: str) -> Option:
    return Option(f"kc:{kc}", f"your King's Commissioner {DATA.kcs[kc].name}", {"kc": kc})


@cache
def nation_option(nation: str) -> Option:
    return Option(f"nation:{nation}", DATA.nations[nation].name, {"nation": nation})


class EventCards:
    """Own-turn Events and Must Play Immediately cards."""

    flow: Flow

    def __init__(
        self, table: Table, rolls: RollPoints, mutiny: Mutiny, bermuda: Bermuda, ending: Ending
    ) -> None:
        self.table = table
        self.rolls = rolls
        self.mutiny = mutiny
        self.bermuda = bermuda
        self.ending = ending
        self.effects: dict[str, Callable[[Pirate, int], None]] = {
            "buried_treasure": self._event_buried_treasure,
            "careening": self._event_careening,
            "fair_winds": self._event_fair_winds,
            "harbour_pilot": self._event_harbour_pilot,
            "heavy_guns": self._event_heavy_guns,
            "letter_of_marque": self._event_letter_of_marque,
        }
        """An own-turn Event by its card's key: ``effect(pirate, card)``."""
        self.mpi: dict[str, Callable[[int], None]] = {
            "general_pardon": self._mpi_general_pardon,
            "new_governors": self._mpi_new_governors,
            "hurricane": self._mpi_hurricane,
            "spanish_treasure_fleet": self._mpi_spanish_treasure_fleet,
            "station_ships": self._mpi_station_ships,
        }
        """A Must Play Immediately card by its key: ``mpi(card)``."""

    # ------------------------------------------------------------------ own-turn Events

    def event_pirates(self, card: int) -> list[Pirate]:
        """The active player's pirates the Event of `card` may name."""
        table = self.table
        assert table.turn.active is not None
        key = table.card_key(card)
        mine = table.pirates_of(table.turn.active)
        if key == "buried_treasure":
            return [p for p in mine if not p.buried_treasure]
        if key == "careening":  # only a ship with a Speed hit to remove
            return [
                p for p in mine if table.at_sea(p) and p.ship.revelry is None and table.damage(p)[0]
            ]
        if key == "fair_winds":
            return [p for p in mine if p.port is None and self._wind_steps(p)]
        if key == "harbour_pilot":
            return [p for p in mine if self._pilot_ports(p)]
        if key == "heavy_guns":
            return [p for p in mine if not p.ship.heavy_guns and self._refit_port(p)]
        if key == "letter_of_marque":
            return [p for p in mine if self.lom_nations(p)]
        return []

    def event_kcs(self, card: int) -> list[str]:
        """The active player's KC, when the Event of `card` may move it: Fair Winds
        [blackbeard §R4.5]."""
        table = self.table
        assert table.turn.active is not None
        kc = table.kc_of(table.turn.active)
        return [kc.id] if kc is not None and table.card_key(card) == "fair_winds" else []

    def event_possible(self, card: int) -> bool:
        """An AND card may be played only if its Event can be carried out; an OR card's
        Event likewise [blackbeard §R4.2]."""
        return bool(self.event_pirates(card) or self.event_kcs(card))

    def play_event(self, card: int) -> None:
        """The card is discarded (Buried Treasure stays with the pirate it names); name
        the pirate (or the KC), then carry the Event out [blackbeard §4.4]."""
        table = self.table
        assert table.turn.active is not None
        if table.card_key(card) != "buried_treasure":
            table.discard.append(card)
        options = [event_pirate_option(p.id) for p in self.event_pirates(card)]
        options += [event_kc_option(kc) for kc in self.event_kcs(card)]
        self.flow.ask(
            table.turn.active,
            TURN,
            "event_pirate",
            "Which pirate?",
            tuple(options),
            step(self._event_pirate, card),
        )

    def _event_pirate(self, option: Option, card: int) -> None:
        table = self.table
        if "kc" in option.payload:
            self._wind_ask(option.payload["kc"], table.deck_cards[card].params["steps"], True)
            return
        pirate = table.pirates[option.payload["pirate"]]
        self.effects[table.card_key(card)](pirate, card)

    def _event_buried_treasure(self, pirate: Pirate, card: int) -> None:
        pirate.buried_treasure = True
        self.flow.emit("treasure_map", {"pirate": pirate.id})

    def _event_careening(self, pirate: Pirate, card: int) -> None:
        """Up to 2 Speed hits removed At Sea, from a ship that has one [blackbeard §R4.5]."""
        full = self.table.full(pirate.ship)[1]
        removed = min(
            self.table.deck_cards[card].params["speed_hits_removed"], full - pirate.ship.speed
        )
        pirate.ship.speed += removed
        self.flow.emit("careened", {"pirate": pirate.id, "speed_hits_removed": removed})

    def _wind_steps(self, pirate: Pirate) -> list[str]:
        if pirate.port is not None:
            return []
        barred = self.table.barred(pirate)  # never into his own KC's area [blackbeard §10.27]
        return [near for near in self.table.neighbours[pirate.area] if near not in barred]

    def _event_fair_winds(self, pirate: Pirate, card: int) -> None:
        """Up to two steps between areas and transit boxes, no port [blackbeard §R4.5]."""
        self._wind_ask(pirate.id, self.table.deck_cards[card].params["steps"], True)

    def _wind_ask(self, mover: str, steps: int, first: bool, back: str | None = None) -> None:
        """The next step of a pirate (and his ally), or of the KC `mover`; out of a Transit
        Box he entered with this card, only to its far side, not `back` where he came from
        [blackbeard §R4.5]."""
        table = self.table
        assert table.turn.active is not None
        kc = table.kcs.get(mover)
        places = (
            table.neighbours[kc.area] if kc is not None else self._wind_steps(table.pirates[mover])
        )
        options = tuple(
            step_option("transit" if place in DATA.transits else "area", place)
            for place in places
            if place != back
        )
        self.flow.ask(
            table.turn.active,
            TURN,
            "fair_winds_step",
            "Sail where?",
            options if first else (*options, STOP),
            step(self._wind_step, mover, steps - 1),
        )

    def _wind_step(self, option: Option, mover: str, steps: int) -> None:
        if option is STOP:
            return
        table = self.table
        kc = table.kcs.get(mover)
        origin = kc.area if kc is not None else table.pirates[mover].area
        if kc is not None:  # a KC moved by the card: no other restriction [blackbeard §R4.5]
            kc.area = option.payload["target"]
            self.flow.emit(
                "kc_moved",
                {"kc": mover, "seat": kc.owner, "from": origin, "to": kc.area, "fair_winds": True},
            )
        for pirate in table.alliance(table.pirates[mover]) if kc is None else ():
            pirate.area = option.payload["target"]  # allies sail as one, from one area
            table.forget_located(pirate)  # [blackbeard §11.12]
            self.flow.emit(
                "moved",
                {"pirate": pirate.id, "from": origin, "to": pirate.area, "fair_winds": True},
            )
        if steps > 0:
            boxed = option.payload["target"] in DATA.transits
            self._wind_ask(mover, steps, False, origin if boxed else None)

    def _pilot_ports(self, pirate: Pirate) -> list[int]:
        if pirate.port is None and pirate.area not in DATA.areas:
            return []
        areas = DATA.ports[pirate.port].areas if pirate.port is not None else (pirate.area,)
        return sorted(
            {
                p.code
                for area in areas
                for p in PORTS_OF[area]
                if not p.pirate_port and not self.table.ports[p.code].destroyed
            }
        )

    def _event_harbour_pilot(self, pirate: Pirate, card: int) -> None:
        """3 Information points for a port of his sea area [blackbeard §R4.5]."""
        assert self.table.turn.active is not None
        self.flow.ask(
            self.table.turn.active,
            TURN,
            "event_port",
            "Information on which port?",
            tuple(
                opt(f"port:{code}", DATA.ports[code].name, port=code)
                for code in self._pilot_ports(pirate)
            ),
            step(self._pilot_port, pirate.id, card),
        )

    def _pilot_port(self, option: Option, pid: str, card: int) -> None:
        pirate, code = self.table.pirates[pid], option.payload["port"]
        points = self.table.deck_cards[card].params["information"]
        pirate.information[code] = pirate.information.get(code, 0) + points
        self.flow.emit("information", {"pirate": pid, "port": code, "gained": points})

    def _refit_port(self, pirate: Pirate) -> bool:
        if pirate.port is None:
            return False
        attitude = self.table.attitude(pirate, pirate.port)
        nation = DATA.ports[pirate.port].nation
        return attitude == PIRATE_PORT or (
            attitude in FRIENDLY and nation is not None and DATA.nations[nation].repairs
        )

    def _event_heavy_guns(self, pirate: Pirate, card: int) -> None:
        pirate.ship.heavy_guns = True
        self.flow.emit("heavy_guns", {"pirate": pirate.id})

    def lom_nations(self, pirate: Pirate) -> list[str]:
        """The nations that may give him a Letter of Marque; none while he is allied
        [blackbeard §R4.5, §11.15]."""
        if pirate.ally is not None:
            return []
        table = self.table
        history = pirate.ship.attack_history
        if table.options["lom_acquisition"] == "anywhere":
            return [n for n in EUROPEAN if n not in history]
        if pirate.port is None or table.ports[pirate.port].destroyed:
            return []
        nation = DATA.ports[pirate.port].nation
        return [nation] if nation in EUROPEAN and nation not in history else []

    def _event_letter_of_marque(self, pirate: Pirate, card: int) -> None:
        assert self.table.turn.active is not None
        self.flow.ask(
            self.table.turn.active,
            TURN,
            "lom_nation",
            "Which nation's Letter of Marque?",
            tuple(nation_option(n) for n in self.lom_nations(pirate)),
            step(self._lom_nation, pirate.id),
        )

    def _lom_nation(self, option: Option, pid: str) -> None:
        nation = option.payload["nation"]
        self.table.pirates[pid].ship.letter_of_marque = nation
        self.flow.emit("letter_of_marque", {"pirate": pid, "nation": nation})

    # ------------------------------------------------------------------ Must Play Immediately

    def must_play(self, card: int) -> None:
        """Resolve a drawn MPI card [blackbeard §4.4, §R4.5]."""
        self.mpi[self.table.card_key(card)](card)

    def _mpi_name(self, *what: str | int) -> tuple[str | int, ...]:
        turn = self.table.turn
        return ("turn", turn.number, "draw", turn.draws, *what)

    def _mpi_general_pardon(self, card: int) -> None:
        """1st: nothing; 2nd: the Pardon in force; 3rd: the game ends [blackbeard §R4.5]."""
        table = self.table
        table.pardons += 1
        params = table.deck_cards[card].params
        self.flow.emit("general_pardon", {"count": table.pardons})
        if table.pardons >= params["ends_on_draw"]:
            table.discard.append(card)
            self.ending.game_over("general_pardon")
            return
        if table.pardons >= params["pardon_on_draw"]:
            table.pardon_in_force = True
        if table.options["general_pardon_copies"] == 1:
            table.event_deck = table.shuffled(
                sorted([*table.event_deck, card]), "events", table.event_shuffles
            )
            table.event_shuffles += 1
        else:
            table.discard.append(card)

    def _mpi_new_governors(self, card: int) -> None:
        """Anti-Pirate Governors by d66, the next port without one [blackbeard §9.22]."""
        table = self.table
        table.discard.append(card)
        for index in range(table.deck_cards[card].params["governors"]):
            governor = table.draw_from(table.anti_governors, *self._mpi_name("governor", index))
            if governor is None:
                break
            code = table.next_port(
                table.d66(*self._mpi_name("governor", index, "port")), self._anti_fits
            )
            if code is None:
                table.removed_governors.append(governor)
                continue
            table.place_governor(governor, code)
        self.bermuda.follow()  # Ousted from Bermuda: the owner picks [blackbeard §2.2, §7.3]

    def _anti_fits(self, code: int) -> bool:
        return (
            not DATA.ports[code].pirate_port
            and not self.table.ports[code].destroyed
            and self.table.governor_side(code) != "anti"
        )

    def _mpi_hurricane(self, card: int) -> None:
        """A d66 strikes the port's area(s): storm rolls for pirates At Sea, merchants
        swept to the pool, the port destroyed on a 6 [blackbeard §R4.5]."""
        table = self.table
        table.discard.append(card)
        code = table.d66(*self._mpi_name("hurricane"))
        areas = DATA.ports[code].areas
        self.flow.emit("hurricane", {"port": code, "areas": list(areas)})
        struck = [
            step(self._storm, pirate.id)
            for seat in table.order
            for pirate in sorted(table.pirates_of(seat), key=lambda p: p.id)
            if pirate.port is None and pirate.area in areas
        ]
        self.flow.push(*struck, step(self._hurricane_after, card, code))

    def _storm(self, pid: str) -> None:
        """One Storm Effects roll for a pirate At Sea in the struck area [blackbeard §R5.4]."""
        if pid in self.table.pirates:
            self.rolls.roll(
                pid,
                "storm",
                1,
                False,
                step(self._storm_rolled, pid),
                name=("draw", self.table.turn.draws, pid),
            )

    def _storm_rolled(self, pid: str) -> None:
        table = self.table
        pirate = table.pirates[pid]
        roll = table.rolled["storm"]
        row = DATA.charts.storm_effect(roll)
        self.flow.emit(
            "storm", {"pirate": pid, "roll": roll, "speed_hits": row.speed_hits, "sinks": row.sinks}
        )
        if row.sinks:
            table.sink(pirate, "hurricane")
        elif (
            not table.hit(pirate, "speed", row.speed_hits, "hurricane") and pirate.ship.loyalty == 0
        ):
            self.flow.push(self.mutiny.check(pid, "hurricane"))

    def _hurricane_after(self, card: int, code: int) -> None:
        """The struck areas' merchants to the pool; the port destroyed on a 6."""
        table = self.table
        for area in DATA.ports[code].areas:
            for port in PORTS_OF[area]:
                if port.code in table.merchants:
                    table.remove_merchant(port.code)
        port = DATA.ports[code]
        if (
            not port.pirate_port
            and not table.ports[code].destroyed
            and table.options["hurricane_destroy_on"] == "six"
            and table.d6(*self._mpi_name("hurricane", "destroy"))
            == table.deck_cards[card].params["destroy_on"]
        ):
            table.destroy_port(code)
            self.bermuda.follow()

    def _mpi_spanish_treasure_fleet(self, card: int) -> None:
        """Three merchants to Spanish ports of the Caribbean, and an escort in Central
        America [blackbeard §R4.5]."""
        table = self.table
        table.discard.append(card)
        params = table.deck_cards[card].params

        def fits(code: int) -> bool:
            port = DATA.ports[code]
            return (
                port.nation == params["nation"]
                and port.area in params["areas"]
                and table.merchant_fits(code)
            )

        for index in range(params["merchants"]):
            merchant = table.draw_from(table.merchant_pool, *self._mpi_name("fleet", index))
            if merchant is None:
                break
            table.place_merchant(
                table.next_port(table.d66(*self._mpi_name("fleet", index, "port")), fits), merchant
            )
        escort = params["escort_area"]
        if escort not in table.patrols:
            warship = table.draw_from(table.warship_pool, *self._mpi_name("escort"))
            if warship is not None:
                table.patrols[escort] = warship
                self.flow.emit("warship_patrol", {"area": escort, "warship": warship})

    def _mpi_station_ships(self, card: int) -> None:
        """Two warships on Patrol in the areas of naval bases [blackbeard §R4.5]."""
        table = self.table
        table.discard.append(card)
        for index in range(table.deck_cards[card].params["warships"]):
            warship = table.draw_from(table.warship_pool, *self._mpi_name("station", index))
            if warship is None:
                return
            code = table.next_port(
                table.d66(*self._mpi_name("station", index, "port")),
                lambda c: c in NAVAL_BASES and DATA.ports[c].area not in table.patrols,
            )
            if code is None:
                table.warship_pool.append(warship)
                table.warship_pool.sort()
                continue
            table.patrols[DATA.ports[code].area] = warship
            self.flow.emit("warship_patrol", {"area": DATA.ports[code].area, "warship": warship})
