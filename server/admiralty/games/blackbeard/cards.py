"""The Event cards a Pirate Player resolves himself: the Events of the AND and OR cards on
his own turn, and the Must Play Immediately cards he draws [blackbeard §R4.5]. No AP
Action or Reaction is taken during an Event [blackbeard §4.4].

A mixin of `state.BlackbeardState`. The data's `effect` key of a card selects its
interpreter here; its `params` give the numbers.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from admiralty.games.base import Option, Window
from admiralty.games.blackbeard.actions import step_option
from admiralty.games.blackbeard.choices import STOP, opt
from admiralty.games.blackbeard.pieces import Pirate
from admiralty.games.blackbeard.raids import Raids
from admiralty.games.blackbeard.table import DATA, FRIENDLY, PIRATE_PORT, PORTS_OF
from admiralty.games.flow import step

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


class Cards(Raids):
    """Event effects, for `BlackbeardState`."""

    if TYPE_CHECKING:
        draws: int

        def _end_game(self, reason: str) -> None: ...

    # ------------------------------------------------------------------ own-turn Events

    def event_pirates(self, card: int) -> list[Pirate]:
        """The active player's pirates the Event of `card` may name."""
        assert self.active is not None
        key = self.card_key(card)
        mine = self.pirates_of(self.active)
        if key == "buried_treasure":
            return [p for p in mine if not p.buried_treasure]
        if key == "careening":
            return [p for p in mine if p.port is None and p.area in DATA.areas
                    and p.ship.revelry is None]
        if key == "fair_winds":
            return [p for p in mine if p.port is None and self._wind_steps(p)]
        if key == "harbour_pilot":
            return [p for p in mine if self._pilot_ports(p)]
        if key == "heavy_guns":
            return [p for p in mine if not p.ship.heavy_guns and self._refit_port(p)]
        if key == "letter_of_marque":
            return [p for p in mine if self._lom_nations(p)]
        return []

    def event_kcs(self, card: int) -> list[str]:
        """The active player's KC, when the Event of `card` may move it: Fair Winds
        [blackbeard §R4.5]."""
        assert self.active is not None
        kc = self.kc_of(self.active)
        return [kc.id] if kc is not None and self.card_key(card) == "fair_winds" else []

    def event_possible(self, card: int) -> bool:
        """An AND card may be played only if its Event can be carried out; an OR card's
        Event likewise [blackbeard §R4.2]."""
        return bool(self.event_pirates(card) or self.event_kcs(card))

    def play_event(self, card: int) -> None:
        """The card is discarded (Buried Treasure stays with the pirate it names); name
        the pirate (or the KC), then carry the Event out [blackbeard §4.4]."""
        assert self.active is not None
        if self.card_key(card) != "buried_treasure":
            self.discard.append(card)
        options = [event_pirate_option(p.id) for p in self.event_pirates(card)]
        options += [event_kc_option(kc) for kc in self.event_kcs(card)]
        self.flow.ask(self.active, TURN, "event_pirate", "Which pirate?", tuple(options),
                      step("_event_pirate", card))

    def _event_pirate(self, option: Option, card: int) -> None:
        if "kc" in option.payload:
            self._wind_ask(option.payload["kc"], self.deck_cards[card].params["steps"], True)
            return
        pirate = self.pirates[option.payload["pirate"]]
        getattr(self, "_event_" + self.card_key(card))(pirate, card)

    def _event_buried_treasure(self, pirate: Pirate, card: int) -> None:
        pirate.buried_treasure = True
        self._emit("treasure_map", {"pirate": pirate.id})

    def _event_careening(self, pirate: Pirate, card: int) -> None:
        """Up to 2 Speed hits removed At Sea [blackbeard §R4.5]."""
        full = self.full(pirate.ship)[1]
        removed = min(self.deck_cards[card].params["speed_hits_removed"],
                      full - pirate.ship.speed)
        pirate.ship.speed += removed
        self._emit("careened", {"pirate": pirate.id, "speed_hits_removed": removed})

    def _wind_steps(self, pirate: Pirate) -> list[str]:
        if pirate.port is not None:
            return []
        barred = self.barred(pirate)  # never into his own KC's area [blackbeard §10.27]
        return [near for near in self.neighbours[pirate.area] if near not in barred]

    def _event_fair_winds(self, pirate: Pirate, card: int) -> None:
        """Up to two steps between areas and transit boxes, no port [blackbeard §R4.5]."""
        self._wind_ask(pirate.id, self.deck_cards[card].params["steps"], True)

    def _wind_ask(self, mover: str, steps: int, first: bool) -> None:
        """The next step of a pirate (and his ally), or of the KC `mover`."""
        kc = self.kcs.get(mover)
        places = self.neighbours[kc.area] if kc is not None else \
            self._wind_steps(self.pirates[mover])
        options = tuple(step_option("transit" if place in DATA.transits else "area", place)
                        for place in places)
        self.flow.ask(self._seat(), TURN, "fair_winds_step", "Sail where?",
                      options if first else (*options, STOP),
                      step("_wind_step", mover, steps - 1))

    def _wind_step(self, option: Option, mover: str, steps: int) -> None:
        if option is STOP:
            return
        kc = self.kcs.get(mover)
        if kc is not None:  # a KC moved by the card: no other restriction [blackbeard §R4.5]
            origin, kc.area = kc.area, option.payload["target"]
            self._emit("kc_moved", {"kc": mover, "seat": kc.owner, "from": origin,
                                    "to": kc.area, "fair_winds": True})
        for pirate in self.alliance(self.pirates[mover]) if kc is None else ():
            origin, pirate.area = pirate.area, option.payload["target"]  # allies sail as one
            self.forget_located(pirate)  # [blackbeard §11.12]
            self._emit("moved", {"pirate": pirate.id, "from": origin, "to": pirate.area,
                                 "fair_winds": True})
        if steps > 0:
            self._wind_ask(mover, steps, False)

    def _pilot_ports(self, pirate: Pirate) -> list[int]:
        if pirate.port is None and pirate.area not in DATA.areas:
            return []
        areas = DATA.ports[pirate.port].areas if pirate.port is not None else (pirate.area,)
        return sorted({p.code for area in areas for p in PORTS_OF[area]
                       if not p.pirate_port and not self.ports[p.code].destroyed})

    def _event_harbour_pilot(self, pirate: Pirate, card: int) -> None:
        """3 Information points for a port of his sea area [blackbeard §R4.5]."""
        self.flow.ask(self._seat(), TURN, "event_port", "Information on which port?",
                      tuple(opt(f"port:{code}", DATA.ports[code].name, port=code)
                            for code in self._pilot_ports(pirate)),
                      step("_pilot_port", pirate.id, card))

    def _pilot_port(self, option: Option, pid: str, card: int) -> None:
        pirate, code = self.pirates[pid], option.payload["port"]
        points = self.deck_cards[card].params["information"]
        pirate.information[code] = pirate.information.get(code, 0) + points
        self._emit("information", {"pirate": pid, "port": code, "gained": points})

    def _refit_port(self, pirate: Pirate) -> bool:
        if pirate.port is None:
            return False
        attitude = self.attitude(pirate, pirate.port)
        nation = DATA.ports[pirate.port].nation
        return attitude == PIRATE_PORT or (attitude in FRIENDLY and nation is not None
                                           and DATA.nations[nation].repairs)

    def _event_heavy_guns(self, pirate: Pirate, card: int) -> None:
        pirate.ship.heavy_guns = True
        self._emit("heavy_guns", {"pirate": pirate.id})

    def _lom_nations(self, pirate: Pirate) -> list[str]:
        """The nations that may give him a Letter of Marque; none while he is allied
        [blackbeard §R4.5, §11.15]."""
        if pirate.ally is not None:
            return []
        history = pirate.ship.attack_history
        if self.options["lom_acquisition"] == "anywhere":
            return [n for n in EUROPEAN if n not in history]
        if pirate.port is None or self.ports[pirate.port].destroyed:
            return []
        nation = DATA.ports[pirate.port].nation
        return [nation] if nation in EUROPEAN and nation not in history else []

    def _event_letter_of_marque(self, pirate: Pirate, card: int) -> None:
        self.flow.ask(self._seat(), TURN, "lom_nation", "Which nation's Letter of Marque?",
                      tuple(nation_option(n) for n in self._lom_nations(pirate)),
                      step("_lom_nation", pirate.id))

    def _lom_nation(self, option: Option, pid: str) -> None:
        nation = option.payload["nation"]
        self.pirates[pid].ship.letter_of_marque = nation
        self._emit("letter_of_marque", {"pirate": pid, "nation": nation})

    # ------------------------------------------------------------------ Must Play Immediately

    def must_play(self, card: int) -> None:
        """Resolve a drawn MPI card [blackbeard §4.4, §R4.5]."""
        getattr(self, "_mpi_" + self.card_key(card))(card)

    def _mpi_name(self, *what: str | int) -> tuple[str | int, ...]:
        return ("turn", self.turn, "draw", self.draws, *what)

    def _mpi_general_pardon(self, card: int) -> None:
        """1st: nothing; 2nd: the Pardon in force; 3rd: the game ends [blackbeard §R4.5]."""
        self.pardons += 1
        params = self.deck_cards[card].params
        self._emit("general_pardon", {"count": self.pardons})
        if self.pardons >= params["ends_on_draw"]:
            self.discard.append(card)
            self._end_game("general_pardon")
            return
        if self.pardons >= params["pardon_on_draw"]:
            self.pardon_in_force = True
        if self.options["general_pardon_copies"] == 1:
            self.event_deck = self.chance.shuffled(sorted([*self.event_deck, card]), "events",
                                                   self.event_shuffles)
            self.event_shuffles += 1
        else:
            self.discard.append(card)

    def _mpi_new_governors(self, card: int) -> None:
        """Anti-Pirate Governors by d66, the next port without one [blackbeard §9.22]."""
        self.discard.append(card)
        for index in range(self.deck_cards[card].params["governors"]):
            governor = self.draw_from(self.anti_governors, *self._mpi_name("governor", index))
            if governor is None:
                break
            code = self.next_port(self.d66(*self._mpi_name("governor", index, "port")),
                                  self._anti_fits)
            if code is None:
                self.removed_governors.append(governor)
                continue
            self.place_governor(governor, code)
        if self.from_bermuda:  # Ousted from Bermuda: the owner picks [blackbeard §2.2, §7.3]
            self.flow.push(step("_bermuda"))

    def _anti_fits(self, code: int) -> bool:
        return (not DATA.ports[code].pirate_port and not self.ports[code].destroyed
                and self.governor_side(code) != "anti")

    def _mpi_hurricane(self, card: int) -> None:
        """A d66 strikes the port's area(s): storm rolls for pirates At Sea, merchants
        swept to the pool, the port destroyed on a 6 [blackbeard §R4.5]."""
        self.discard.append(card)
        code = self.d66(*self._mpi_name("hurricane"))
        areas = DATA.ports[code].areas
        self._emit("hurricane", {"port": code, "areas": list(areas)})
        struck = [step("_storm", pirate.id) for seat in self.order
                  for pirate in sorted(self.pirates_of(seat), key=lambda p: p.id)
                  if pirate.port is None and pirate.area in areas]
        self.flow.push(*struck, step("_hurricane_after", card, code))

    def _storm(self, pid: str) -> None:
        """One Storm Effects roll for a pirate At Sea in the struck area [blackbeard §R5.4]."""
        if pid in self.pirates:
            self._roll(pid, "storm", 1, False, step("_storm_rolled", pid),
                       name=("draw", self.draws, pid))

    def _storm_rolled(self, pid: str) -> None:
        pirate = self.pirates[pid]
        roll = self.rolled["storm"]
        row = DATA.charts.storm_effect(roll)
        self._emit("storm", {"pirate": pid, "roll": roll, "speed_hits": row.speed_hits,
                             "sinks": row.sinks})
        if row.sinks:
            self._sunk(pirate, "hurricane")
        elif not self.hit(pirate, "speed", row.speed_hits, "hurricane") \
                and pirate.ship.loyalty == 0:
            self.flow.push(step("_mutiny", pid, "hurricane"))

    def _hurricane_after(self, card: int, code: int) -> None:
        """The struck areas' merchants to the pool; the port destroyed on a 6."""
        for area in DATA.ports[code].areas:
            for port in PORTS_OF[area]:
                if port.code in self.merchants:
                    self.remove_merchant(port.code)
        port = DATA.ports[code]
        if (not port.pirate_port and not self.ports[code].destroyed
                and self.options["hurricane_destroy_on"] == "six"
                and self.d6(*self._mpi_name("hurricane", "destroy"))
                == self.deck_cards[card].params["destroy_on"]):
            self.destroy_port(code)
            if self.from_bermuda:
                self.flow.push(step("_bermuda"))

    def _mpi_spanish_treasure_fleet(self, card: int) -> None:
        """Three merchants to Spanish ports of the Caribbean, and an escort in Central
        America [blackbeard §R4.5]."""
        self.discard.append(card)
        params = self.deck_cards[card].params

        def fits(code: int) -> bool:
            port = DATA.ports[code]
            return (port.nation == params["nation"] and port.area in params["areas"]
                    and self.merchant_fits(code))

        for index in range(params["merchants"]):
            merchant = self.draw_from(self.merchant_pool, *self._mpi_name("fleet", index))
            if merchant is None:
                break
            self.place_merchant(self.next_port(self.d66(*self._mpi_name("fleet", index, "port")),
                                               fits), merchant)
        escort = params["escort_area"]
        if escort not in self.patrols:
            warship = self.draw_from(self.warship_pool, *self._mpi_name("escort"))
            if warship is not None:
                self.patrols[escort] = warship
                self._emit("warship_patrol", {"area": escort, "warship": warship})

    def _mpi_station_ships(self, card: int) -> None:
        """Two warships on Patrol in the areas of naval bases [blackbeard §R4.5]."""
        self.discard.append(card)
        for index in range(self.deck_cards[card].params["warships"]):
            warship = self.draw_from(self.warship_pool, *self._mpi_name("station", index))
            if warship is None:
                return
            code = self.next_port(self.d66(*self._mpi_name("station", index, "port")),
                                  lambda c: c in NAVAL_BASES
                                  and DATA.ports[c].area not in self.patrols)
            if code is None:
                self.warship_pool.append(warship)
                self.warship_pool.sort()
                continue
            self.patrols[DATA.ports[code].area] = warship
            self._emit("warship_patrol", {"area": DATA.ports[code].area, "warship": warship})
