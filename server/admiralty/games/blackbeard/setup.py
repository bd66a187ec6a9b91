"""Setup [blackbeard §3.0]: Player Order, the Event cards dealt, the Pro-Pirate Governors,
the Pirate cards dealt or drafted, the first merchants, and the pirates deployed in rounds
(in the open, by d66 or written down secretly); alone, the Crown's Threat Row is built
[blackbeard §R19.1].

Deploying a pirate asks the same questions at setup and for Action K [blackbeard §5.13]:
`ask_area` serves both.
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import product

from admiralty.games.base import Option, Window
from admiralty.games.blackbeard import mechanics as mech
from admiralty.games.blackbeard.choices import PASS, area_options, opt, pirate_option
from admiralty.games.blackbeard.table import DATA, Table
from admiralty.games.flow import Flow, Step, step

SETUP = Window.SETUP
SHIPS = tuple(kind.id for kind in DATA.ship_types.values() if kind.start)
AREAS = tuple(DATA.areas)


@cache
def ship_options() -> tuple[Option, ...]:
    return tuple(
        Option(f"ship:{kind}", DATA.ship_types[kind].name, {"ship": kind}) for kind in SHIPS
    )


@lru_cache(maxsize=32)
def placement_options(cards: tuple[str, ...]) -> tuple[Option, ...]:
    """Every way to write down a sea area for each of `cards` (secret placement): 10 per
    pirate, in `AREAS` order [blackbeard §3.0]."""
    return tuple(
        Option(
            "areas:" + "+".join(areas),
            ", ".join(
                f"{DATA.pirates[card].name} to {DATA.areas[area].name}"
                for card, area in zip(cards, areas, strict=True)
            ),
            {"pirates": list(cards), "areas": list(areas)},
        )
        for areas in product(AREAS, repeat=len(cards))
    )


class Setup:
    """Steps 2-9 of setup, and the deployment questions."""

    flow: Flow

    def __init__(self, table: Table) -> None:
        self.table = table

    def start(self, then: Step) -> None:
        """Steps 2-9 of setup, then `then`; the draft (step 6, optional) and deployment
        (step 7) ask the seats [blackbeard §3.0]."""
        table = self.table
        self._player_order()
        self._deal_events()
        self._pro_governors()
        # the draft does not apply to solitaire: the player is dealt [blackbeard §R19.5]
        draft = table.options["pirate_selection"] == "draft" and table.players > 1
        frames: list[Step] = []
        if draft:
            table.pirate_deck = table.shuffled(sorted(DATA.pirates), "pirates", 0)
            first = self._highest_roller("draft")
            frames = [
                step(self._draft_pick, seat, pick)
                for pick, seat in enumerate(
                    mech.draft_order(first, table.players, table.limits.dealt)
                )
            ]
        else:
            self._deal_pirates()
        for index in range(DATA.setup.merchants_at_setup):
            table.new_merchant("setup", index)
        self.flow.emit(
            "setup_done", {"order": list(table.order), "merchants": sorted(table.merchants)}
        )
        frames.append(step(self._deploy_round, 1))
        if table.options["initial_placement"] == "secret":
            frames.append(step(self._secret_seal))
        self.flow.push(*frames, then)

    def _player_order(self) -> None:
        """Each rolls 1d6; the highest is Player A, ties re-rolled among the tied; the
        order runs on from A in seat order [blackbeard §3.0]. Alone, the player is Player A
        without a roll [blackbeard §R19.1]."""
        first, players = self._highest_roller("order"), self.table.players
        self.table.order = tuple((first + k) % players for k in range(players))

    def _highest_roller(self, what: str) -> int:
        """Every seat rolls 1d6, ties re-rolled among the tied: the seat that rolls highest
        (`what`: "order" for Player A, "draft" for the first pick) [blackbeard §3.0]."""
        rolling, attempt = list(range(self.table.players)), 0
        while len(rolling) > 1:
            rolls = {seat: self.table.d6("setup", what, attempt, seat) for seat in rolling}
            self.flow.emit(
                f"{what}_rolled",
                {"attempt": attempt, "rolls": {str(s): r for s, r in rolls.items()}},
            )
            best = max(rolls.values())
            rolling = [seat for seat in rolling if rolls[seat] == best]
            attempt += 1
        return rolling[0]

    # ------------------------------------------------------------------ the draft (3.0 step 6)

    def _draft_pick(self, seat: int, pick: int) -> None:
        """One pick among the Pirate cards still in the deck, in snake order
        [blackbeard §3.0]. The picks are open: the next picker sees what is left."""
        self.flow.ask(
            seat,
            SETUP,
            "draft_pick",
            "Which Pirate card do you draft?",
            tuple(pirate_option(card) for card in sorted(self.table.pirate_deck)),
            step(self._drafted, seat, pick),
        )

    def _drafted(self, option: Option, seat: int, pick: int) -> None:
        card = option.payload["pirate"]
        self.table.pirate_deck.remove(card)
        hand = self.table.seats[seat].pirate_cards
        hand.append(card)
        hand.sort()
        self.flow.emit("pirate_drafted", {"seat": seat, "pirate": card, "pick": pick})

    # ------------------------------------------------------------------ dealing (3.0)

    def _deal_events(self) -> None:
        """MPI cards set aside, 4 cards dealt in Player Order, then the MPI cards shuffled
        back in; a long game keeps the General Pardons out [blackbeard §3.0, §4.1]."""
        table = self.table
        pardon = DATA.card("general_pardon").number
        cards = [card.number for card in table.deck_cards.values() for _ in range(card.copies)]
        if table.options["game_length"] == "long":
            table.held_out = [c for c in cards if c == pardon]
            cards = [c for c in cards if c != pardon]
        mpi = [c for c in cards if table.deck_cards[c].cls == "MPI"]
        rest = table.shuffled([c for c in cards if table.deck_cards[c].cls != "MPI"], "events", 0)
        for _ in range(DATA.setup.event_hand):
            for seat in table.order:
                table.seats[seat].events.append(rest.pop())
        if table.players == 1:
            self._build_threat_row(rest)
        table.event_deck = table.shuffled(sorted(rest + mpi), "events", 1)
        table.event_shuffles = 2
        for seat in range(table.players):
            hand = table.seats[seat].events
            hand.sort()
            self.flow.tell(
                (seat,),
                "events_dealt",
                {"seat": seat, "cards": hand[:]},
                {"seat": seat, "count": len(hand)},
            )

    def _build_threat_row(self, rest: list[int]) -> None:
        """Solitaire: cards turned up one at a time, AP cards into the Threat Row until it
        holds its setup size, any other card discarded; the MPI cards are still out
        [blackbeard §R19.1]."""
        table = self.table
        while rest and len(table.threat_row) < DATA.setup.threat_row_start:
            card = rest.pop()
            if table.deck_cards[card].cls == "AP":
                table.threat_row.append(card)
            else:
                table.discard.append(card)
        self.flow.emit(
            "threat_row_built", {"row": table.threat_row[:], "discarded": table.discard[:]}
        )

    def _pro_governors(self) -> None:
        """The 8 Pro-Pirate Governors by d66, never in a Pirate Port or a port with a
        Governor: the next available port [blackbeard §3.0, §6.32]."""
        table = self.table
        for index, governor in enumerate(g.id for g in DATA.governors.values() if g.side == "pro"):
            code = table.next_port(table.d66("setup", "governor", index), self._governor_fits)
            if code is not None:
                table.place_governor(governor, code)

    def _governor_fits(self, code: int) -> bool:
        port = self.table.ports[code]
        return not DATA.ports[code].pirate_port and not port.destroyed and port.governor is None

    def _deal_pirates(self) -> None:
        table = self.table
        table.pirate_deck = table.shuffled(sorted(DATA.pirates), "pirates", 0)
        for _ in range(table.limits.dealt):
            for seat in table.order:
                table.seats[seat].pirate_cards.append(table.pirate_deck.pop())
        for seat in range(table.players):
            cards = table.seats[seat].pirate_cards
            cards.sort()
            self.flow.tell(
                (seat,),
                "pirates_dealt",
                {"seat": seat, "cards": cards[:]},
                {"seat": seat, "count": len(cards)},
            )

    # ------------------------------------------------------------------ deployment (3.0 step 7)

    def _deploy_round(self, round_no: int) -> None:
        """Round 1 is mandatory; later rounds optional, within the map limit."""
        self.flow.push(
            *(step(self._deploy_ask, seat, round_no) for seat in self.table.order),
            step(self._deploy_round_end, round_no),
        )

    def _deploy_round_end(self, round_no: int) -> None:
        passed = self.table.deployment.passed
        if any(self._may_deploy(seat) and seat not in passed for seat in self.table.order):
            self.flow.push(step(self._deploy_round, round_no + 1))

    def _may_deploy(self, seat: int) -> bool:
        table = self.table
        placed = len(table.pirates_of(seat)) + len(table.deployment.placing.get(seat, ()))
        return bool(table.seats[seat].pirate_cards) and placed < table.limits.map_limit

    def _deploy_ask(self, seat: int, round_no: int) -> None:
        if seat in self.table.deployment.passed or not self._may_deploy(seat):
            return
        cards = tuple(pirate_option(card) for card in self.table.seats[seat].pirate_cards)
        optional = round_no > 1
        self.flow.ask(
            seat,
            SETUP,
            "deploy_card",
            "Which pirate do you deploy?",
            (PASS, *cards) if optional else cards,
            step(self._deploy_card, seat),
            optional=optional,
        )

    def _deploy_card(self, option: Option, seat: int) -> None:
        if option is PASS:
            self.table.deployment.passed.append(seat)
            self.flow.emit("deploy_passed", {"seat": seat})
            return
        self.ask_area(seat, option.payload["pirate"], "SETUP")

    def ask_area(self, seat: int, card: str, window: str) -> None:
        """The sea area `card` deploys into, then its ship; `window` is "SETUP" or "TURN"
        (Action K). Chosen in the open, never the area of his own KC; at setup, optionally
        by d66 (the area of that port; Bermuda's is North Atlantic) or written down
        secretly [blackbeard §3.0, §5.15, §R1.5.3]."""
        table = self.table
        placement = table.options["initial_placement"] if window == "SETUP" else "open"
        if placement == "random":
            code = table.d66("setup", "placement", card)
            area = DATA.ports[code].area
            self.flow.emit(
                "placement_rolled", {"seat": seat, "pirate": card, "roll": code, "area": area}
            )
            self._deploy_area(opt(f"area:{area}", area, area=area), seat, card, window)
            return
        if placement == "secret":
            self._deploy_area(None, seat, card, window)
            return
        barred = table.kc_areas(seat)  # never his own KC's area [blackbeard §10.27]
        self.flow.ask(
            seat,
            Window(window),
            "deploy_area",
            "In which sea area?",
            tuple(o for o in area_options() if o.payload["area"] not in barred),
            step(self._deploy_area, seat, card, window),
        )

    def _deploy_area(self, option: Option | None, seat: int, card: str, window: str) -> None:
        area = option.payload["area"] if option is not None else ""
        self.flow.ask(
            seat,
            Window(window),
            "deploy_ship",
            "Sloop or Schooner?",
            ship_options(),
            step(self._deploy_ship, seat, card, area),
        )

    def _deploy_ship(self, option: Option, seat: int, card: str, area: str) -> None:
        table = self.table
        kind = option.payload["ship"]
        if area:
            table.deploy(seat, card, area, kind)
            return
        table.seats[seat].pirate_cards.remove(card)  # secret placement: the area comes later
        table.deployment.placing.setdefault(seat, []).append((card, kind))
        self.flow.emit("deploy_chosen", {"seat": seat, "pirate": card, "ship": kind})

    # ------------------------------------------------------------------ secret placement

    def _secret_seal(self) -> None:
        """Secret placement: every seat writes down the sea areas of the pirates it deploys,
        in one sealed window, revealed at once [blackbeard §3.0]."""
        placing = self.table.deployment.placing
        self.flow.push(step(self._secret_reveal))
        self.flow.seal(
            "deploy_areas",
            "In which sea areas do your pirates start?",
            [
                placement_options(tuple(card for card, _ in placing[seat]))
                for seat in range(self.table.players)
            ],
            step(self._secret_written),
        )

    def _secret_written(self, option: Option, seat: int) -> None:
        self.table.deployment.written[seat] = list(option.payload["areas"])
        self.flow.emit("placement_written", {"seat": seat})

    def _secret_reveal(self) -> None:
        table, deployment = self.table, self.table.deployment
        revealed = {
            str(seat): dict(
                zip(
                    (card for card, _ in deployment.placing[seat]),
                    deployment.written[seat],
                    strict=True,
                )
            )
            for seat in table.order
        }
        self.flow.emit("placement_revealed", {"areas": revealed})
        for seat in table.order:
            for (card, kind), area in zip(
                deployment.placing[seat], deployment.written[seat], strict=True
            ):
                table.deploy(seat, card, area, kind, from_hand=False)
        deployment.placing, deployment.written = {}, {}
