"""The Player Turn [blackbeard §4.3, §4.4]: scurvy and Loyalty-0 mutinies, then phases A-D:
the draw, the Merchant Ship Phase, the Card Play Phase with its Actions cards
[blackbeard §4.5], and the end of the turn; alone, the Crown's moment 3 after the turn's
Actions and its Crown Phase after the turn [blackbeard §R19.2, §R19.3].

Each Pirate Action is chosen (which pirate, which Action, its target), announced, opened
to the anti-pirate side at T-ANN (`antipirate`), carried out by the collaborator its
`_do_<action>` step belongs to (`actions`, `loot`, `inport`, `raids`), and completed
through T-END (`AntiPirate.end_of_action`).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from admiralty.games.base import Option, Window
from admiralty.games.blackbeard.actions import PirateActions
from admiralty.games.blackbeard.antipirate import AntiPirate
from admiralty.games.blackbeard.cards import EventCards
from admiralty.games.blackbeard.choices import END, STOP, opt, pirate_option
from admiralty.games.blackbeard.crown import Crown
from admiralty.games.blackbeard.data import DIAMOND
from admiralty.games.blackbeard.ending import Ending
from admiralty.games.blackbeard.inport import InPort
from admiralty.games.blackbeard.loot import Loot
from admiralty.games.blackbeard.mutiny import Mutiny
from admiralty.games.blackbeard.pieces import T_ANN
from admiralty.games.blackbeard.raids import Raids
from admiralty.games.blackbeard.table import DATA, Table
from admiralty.games.flow import Continuation, Flow, Poll, Step, step

TURN = Window.TURN
USES = {
    "actions": opt("use:actions", "for its Actions", use="actions"),
    "event": opt("use:event", "for its Event", use="event"),
    "event_and_action": opt(
        "use:event_and_action", "for its Event and one Action", use="event_and_action"
    ),
}
K_OPTION = opt("k", "Action K: draw or deploy a pirate", action="k")
ACTION_NAMES = {
    "move": "A Move",
    "locate": "B Locate a merchant",
    "loot": "C Loot a merchant",
    "in_port": "D In-Port Activities",
    "grab": "E Booty Grab",
    "recover": "F Recover from D&R",
    "attack": "G Attack a port",
    "sack": "H Sack the port",
    "ally": "I Form a Pirate Alliance",
    "retire": "J Retire",
    "dig": "Dig for treasure",
}
TARGET_KINDS = {
    "move": "move_to",
    "locate": "locate_target",
    "loot": "loot_target",
    "attack": "attack_target",
    "grab": "grab_target",
    "retire": "retire",
    "ally": "ally_target",
}
TARGET_PROMPTS = {
    "move": "Where to?",
    "locate": "Which merchant?",
    "loot": "Which merchant?",
    "attack": "Which port?",
    "grab": "Whose Booty?",
    "retire": "How to retire?",
    "ally": "Ally with which of your pirates?",
}


@cache
def card_option(card: int) -> Option:
    title = DATA.events[card].title
    return Option(f"card:{card}", title, {"card": card})


@cache
def fallback_option(card: int) -> Option:
    return Option(
        f"fallback:{card}", f"discard {DATA.events[card].title} for 1 Action", {"card": card}
    )


@cache
def action_option(action: str) -> Option:
    return Option(f"action:{action}", ACTION_NAMES[action], {"action": action})


@cache
def dissolve_option(pirate: str) -> Option:
    return Option(
        f"dissolve:{pirate}",
        f"end the alliance of {DATA.pirates[pirate].name}",
        {"pirate": pirate, "dissolve": True},
    )


class Turns:
    """The Player Turns, from the first to the end of the game."""

    flow: Flow

    def __init__(
        self,
        table: Table,
        actions: PirateActions,
        loot: Loot,
        in_port: InPort,
        raids: Raids,
        cards: EventCards,
        windows: AntiPirate,
        crown: Crown,
        mutiny: Mutiny,
        ending: Ending,
    ) -> None:
        self.table = table
        self.actions = actions
        self.cards = cards
        self.windows = windows
        self.crown = crown
        self.mutiny = mutiny
        self.ending = ending
        self.performs: dict[str, Continuation] = {
            **actions.performs(),
            **loot.performs(),
            **in_port.performs(),
            **raids.performs(),
        }
        """The step that carries out each Action, by Action."""

    def next_turn(self) -> Step:
        """The step that starts the next Player Turn."""
        return step(self._turn_start)

    def resume_cards(self) -> None:
        """Go on with the active seat's Card Play Phase, then the end of its turn."""
        self.flow.push(step(self._card_phase), step(self._end_turn))

    # ------------------------------------------------------------------ the Player Turn (4.4)

    def _turn_start(self) -> None:
        """Scurvy, then Loyalty-0 mutinies, then phases A-D [blackbeard §4.4, §R4.5]."""
        if self.ending.solitaire_spent():
            return
        table = self.table
        turn = table.turn
        turn.number += 1
        if turn.number > table.options["round_cap"] * table.players:
            self.ending.game_over("round_cap")
            return
        seat = table.order[(turn.number - 1) % table.players]
        turn.active, turn.phase = seat, "draw"
        turn.actions_card_used = turn.hup_played = False
        turn.fallbacks = turn.action_no = turn.actions_left = turn.draws = 0
        turn.actions_pirate = turn.active_pirate = None
        table.ap.new_turn()
        self.flow.emit("turn_started", {"turn": turn.number, "seat": seat})
        every = table.options["scurvy_tick"] == "every_turn"
        for pirate in list(table.pirates.values()):
            if pirate.ship.scurvy and (every or pirate.owner == seat):
                table.loyalty_row(pirate, "scurvy")
        mutinies = [
            self.mutiny.check(p.id, "start") for p in table.pirates_of(seat) if p.ship.loyalty == 0
        ]
        self.flow.push(
            *mutinies,
            step(self._draw_phase),
            step(self._merchant_phase),
            step(self._card_phase),
            step(self._end_turn),
        )

    def _draw_phase(self) -> None:
        """A: draw to 4; a Must Play Immediately card is resolved at once and another drawn
        [blackbeard §4.4]."""
        table = self.table
        if table.turn.phase == "over" or self.ending.solitaire_spent():
            return
        active = table.turn.active
        assert active is not None
        hand = table.seats[active].events
        while len(hand) < DATA.setup.event_hand:
            card = table.draw_event()
            if card is None:
                break
            table.turn.draws += 1
            if table.deck_cards[card].cls == "MPI":
                self.flow.push(step(self._draw_phase))
                self.flow.emit("event_drawn", {"seat": active, "card": card, "mpi": True})
                self.cards.must_play(card)
                return
            hand.append(card)
            hand.sort()
            self.flow.tell(
                (active,), "event_drawn", {"seat": active, "card": card}, {"seat": active}
            )
        table.turn.phase = "merchants"

    def _merchant_phase(self) -> None:
        """B: fewer than 5 merchants on the map are brought up to 6 [blackbeard §4.4]."""
        table = self.table
        if table.turn.phase == "over":
            return
        table.turn.phase = "cards"
        if len(table.merchants) >= DATA.setup.merchant_phase_below:
            return
        index = 0
        while len(table.merchants) < DATA.setup.merchant_phase_up_to:
            before = len(table.merchants)
            if (
                not table.new_merchant("turn", table.turn.number, index)
                or len(table.merchants) == before
            ):
                break  # an empty pool, or a merchant no port takes: counted as placed
            index += 1

    def _end_turn(self) -> None:
        """D: located merchants are no longer located, a half Move is lost; the next player
        [blackbeard §4.4, §8.15]."""
        table = self.table
        if table.turn.phase == "over":
            return
        for merchant in table.merchants.values():
            merchant.located_by = None
        self.clear_half_moves(None)
        self.flow.emit("turn_ended", {"turn": table.turn.number, "seat": table.turn.active})
        if table.players == 1:  # the Crown Phase [blackbeard §R19.2]
            self.flow.push(self.crown.phase(), step(self._turn_start))
            return
        self.flow.push(step(self._turn_start))

    def clear_half_moves(self, keep: str | None) -> None:
        """A first half Move is lost unless the next Action is its second [blackbeard §7.12]."""
        for pirate in self.table.pirates.values():
            if pirate.half_move is not None and pirate.id != keep:
                pirate.half_move = None

    # ------------------------------------------------------------------ card play (4.4 C)

    def _card_phase(self) -> None:
        """C: the next card, or the end once a Hold-until-Played card was played; the 4.55
        fallback when no card can set Actions [blackbeard §4.4, §4.55]."""
        table, turn = self.table, self.table.turn
        if turn.phase != "cards" or self.ending.solitaire_spent():
            return
        assert turn.active is not None
        hand = sorted(set(table.seats[turn.active].events))
        options = [card_option(card) for card in hand if self._uses(card)]
        if (
            not turn.actions_card_used
            and turn.fallbacks < 2
            and not any(self._sets_actions(card) for card in hand)
        ):
            options += [fallback_option(card) for card in hand]
        if turn.hup_played or not hand:
            options.append(END)
        assert options, "a hand always offers a card, the 4.55 fallback or the end"
        options += self._dissolve_options()
        self.flow.push(step(self._card_phase))
        # published: whether a choice is left depends on the hand, which only he sees
        self.flow.ask(
            turn.active,
            TURN,
            "choose_card",
            "Play a card, or end the phase",
            tuple(options),
            step(self._chosen_card),
            publish=True,
        )

    def _uses(self, card: int) -> list[str]:
        """How `card` may be played now [blackbeard §4.4, §17.12, §17.16]."""
        table, turn = self.table, self.table.turn
        spec = table.deck_cards[card]
        if spec.cls == "AND":
            counts = table.options["and_card_counts_as_actions_card"]
            free = not (counts and (turn.actions_card_used or turn.fallbacks))
            return ["event_and_action"] if free and self.cards.event_possible(card) else []
        uses = ["actions"] if self._can_actions(card) else []
        if spec.cls == "OR" and self.cards.event_possible(card):
            uses.append("event")
        return uses

    def _can_actions(self, card: int) -> bool:
        table, turn = self.table, self.table.turn
        if turn.actions_card_used or turn.fallbacks:
            return False
        actions = table.actions_of(card)
        if actions == DIAMOND:
            assert turn.active is not None
            return bool(table.pirates_of(turn.active))
        return isinstance(actions, int) and actions > 0

    def _sets_actions(self, card: int) -> bool:
        """Whether `card` can be played now to set a number of Actions: for Actions, or
        as an AND card whose Event can be carried out [blackbeard §4.55]."""
        return bool({"actions", "event_and_action"}.intersection(self._uses(card)))

    def _dissolve_options(self) -> list[Option]:
        """Announcing the end of an alliance: free, on the owner's turn, whenever no
        Pirate Action is under way [blackbeard §11.16]."""
        active = self.table.turn.active
        assert active is not None
        return [
            dissolve_option(p.id)
            for p in self.table.pirates_of(active)
            if p.ally is not None and p.id < p.ally
        ]

    def _dissolved(self, option: Option) -> bool:
        if "dissolve" not in option.payload:
            return False
        self.table.dissolve(self.table.pirates[option.payload["pirate"]], "announced")
        return True

    def _chosen_card(self, option: Option) -> None:
        table, turn = self.table, self.table.turn
        assert turn.active is not None
        if option is END:
            turn.phase = "turn_end"
            return
        if self._dissolved(option):
            return
        card = option.payload["card"]
        self.flow.emit("card_played", {"seat": turn.active, "card": card})  # face up from now
        if option.key.startswith("fallback:"):
            self._play(card, "fallback")
            table.discard.append(card)
            turn.fallbacks += 1
            self.start_actions(1, None)
            return
        uses = self._uses(card)
        self.flow.ask(
            turn.active,
            TURN,
            "use_card",
            "How do you use the card?",
            tuple(USES[use] for use in uses),
            step(self._use_card, card),
        )

    def _play(self, card: int, use: str) -> None:
        turn = self.table.turn
        assert turn.active is not None
        self.table.seats[turn.active].events.remove(card)
        turn.hup_played = True
        self.flow.emit("card_used", {"seat": turn.active, "card": card, "use": use})

    def _use_card(self, option: Option, card: int) -> None:
        table, turn = self.table, self.table.turn
        use = option.payload["use"]
        self._play(card, use)
        if use == "actions":
            turn.actions_card_used = turn.counted = True
            table.discard.append(card)
            if table.is_diamond(card):
                assert turn.active is not None
                self.flow.ask(
                    turn.active,
                    TURN,
                    "diamond_pirate",
                    "Whose Initiative sets the Actions?",
                    tuple(pirate_option(p.id) for p in table.pirates_of(turn.active)),
                    step(self._diamond),
                )
            else:
                actions = table.actions_of(card)
                assert isinstance(actions, int)
                self.start_actions(actions, None)
            return
        if use == "event_and_action":
            if table.options["and_card_counts_as_actions_card"]:
                turn.actions_card_used = turn.counted = True
            self.flow.push(step(self._and_action))
        self.cards.play_event(card)

    def _diamond(self, option: Option) -> None:
        pirate = option.payload["pirate"]
        self.start_actions(DATA.pirates[pirate].initiative, pirate)

    def _and_action(self) -> None:
        self.start_actions(1, None)

    def start_actions(self, count: int, pirate: str | None) -> None:
        """The active seat has `count` Actions to perform now (a diamond card's:
        `pirate`'s) [blackbeard §4.5, §4.52]."""
        turn = self.table.turn
        turn.actions_left, turn.actions_pirate = count, pirate
        turn.card_loop, turn.counted, turn.card_actor = turn.counted, False, None
        self.flow.emit("actions_granted", {"seat": turn.active, "actions": count, "pirate": pirate})
        if self.table.players == 1 and turn.card_loop:  # the Crown's moment 3 [blackbeard §R19.3]
            self.flow.push(step(self._action_loop), self.crown.moment3())
            return
        self.flow.push(step(self._action_loop))

    # ------------------------------------------------------------------ the Actions (4.5)

    def _action_loop(self) -> None:
        """The next Action of the card: which pirate (or Action K), or stop
        [blackbeard §4.51, §4.54]."""
        table, turn = self.table, self.table.turn
        assert turn.active is not None
        if self.ending.solitaire_spent():
            return
        if turn.actions_left <= 0 or turn.phase == "over":
            turn.actions_left = 0
            self.clear_half_moves(None)
            return
        bound = turn.actions_pirate if turn.actions_pirate in table.pirates else None
        candidates = (
            list(table.alliance(table.pirates[bound])) if bound else table.pirates_of(turn.active)
        )
        # an alliance acts as one: through its Active Pirate [blackbeard §11.12]
        options = [
            pirate_option(p.id)
            for p in candidates
            if (p.ally is None or table.leads(p)) and self.actions.legal_actions(p)
        ]
        if self.actions.k_legal(turn.active):
            options.append(K_OPTION)
        options.append(STOP)
        options += self._dissolve_options()
        self.flow.push(step(self._action_loop))
        self.flow.ask(
            turn.active,
            TURN,
            "choose_pirate",
            "Which pirate acts?",
            tuple(options),
            step(self._chosen_pirate),
        )

    def _chosen_pirate(self, option: Option) -> None:
        table, turn = self.table, self.table.turn
        assert turn.active is not None
        if option is STOP:
            turn.actions_left = 0
            return
        if option is K_OPTION:
            self._begin_action(None, "k")
            self.actions.action_k(turn.active)
            return
        if self._dissolved(option):
            self.flow.push(step(self._action_loop))  # free: the loop asks again
            return
        pirate = table.pirates[option.payload["pirate"]]
        actions = self.actions.legal_actions(pirate)
        self.flow.ask(
            turn.active,
            TURN,
            "choose_action",
            "Which Action?",
            tuple(action_option(action) for action in actions),
            step(self._chosen_action, pirate.id),
        )

    def _chosen_action(self, option: Option, pid: str) -> None:
        turn = self.table.turn
        assert turn.active is not None
        action = option.payload["action"]
        targets = self.actions.targets(self.table.pirates[pid], action)
        if targets is None:
            self._announce(None, pid, action)
            return
        self.flow.ask(
            turn.active,
            TURN,
            TARGET_KINDS[action],
            TARGET_PROMPTS[action],
            targets,
            step(self._announce, pid, action),
        )

    def _begin_action(self, pid: str | None, action: str, target: Any = None) -> None:
        table, turn = self.table, self.table.turn
        turn.actions_left -= 1
        turn.action_no += 1
        if turn.card_loop:
            turn.card_actor = pid
        table.ap.new_action(action, target)
        self.clear_half_moves(pid if action == "move" else None)
        if pid is not None:
            pirate = table.pirates[pid]
            if action != "sack":  # the alliance's chance to Sack ends [blackbeard §9.55]
                table.clear_sack(pirate)
            if action != "recover":
                pirate.recover_progress = 0
        self.flow.emit(
            "action_announced",
            {"seat": turn.active, "pirate": pid, "action": action, "number": turn.action_no},
        )

    def _announce(self, option: Option | None, pid: str, action: str) -> None:
        """The Action and its targets announced; the activation check of a Loyalty-0 crew,
        then the T-ANN window [blackbeard §R4.3]."""
        target = option.payload.get("target") if option is not None else None
        self._begin_action(pid, action, target)
        self.table.turn.active_pirate = pid
        frames: list[Step] = []
        if self.table.pirates[pid].ship.loyalty == 0:
            frames.append(self.mutiny.check(pid, "activation"))
        self.flow.push(*frames, step(self._t_ann, pid, action, target))

    def _t_ann(self, pid: str, action: str, target: Any) -> None:
        """The T-ANN window, the Action carried out, then its end [blackbeard §R4.3]."""
        if not self.table.still_active(pid):
            self.flow.emit("action_lost", {"pirate": pid, "action": action})
            self.table.turn.active_pirate = None
            return
        frames: list[Step | Poll] = [step(self.performs[action], pid, target)]
        if self.actions.opens_t_ann(action, target):
            frames.insert(0, self.windows.poll(T_ANN, pid))
        frames.append(self.windows.end_of_action(action, pid))
        self.flow.push(*frames)
