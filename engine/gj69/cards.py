"""Operation cards (§2.3, §5, §19): the decks, and what playing a card lets its side do.

A card is played in one of three ways (§5.2): face down for a normal action (any card: one
group moves or attacks, §6.1), face up for its card action (§6.3), or, for a reaction card (★),
as a counter-attack in the enemy's impulse (§10). A card with options (①②) is played for one of
them (§5.3(1)); Force Z's ① is a card action and its ② a reaction (§5.3(2)).

A card action's effects are the operations of the gj69 profile schema. The ones that make
groups act become an `Order`: a list of group slots, each with the card's terms (which actions,
how many units, the movement allowance, the border limits it lifts ...); the other operations
(recover_units, airdrop, roll_to_remove, submarine_attack, expose_oil_field, reinforce,
remove_unit) are carried out after the groups, in the card's order.
"""
from __future__ import annotations

from dataclasses import dataclass, field

GROUP_OPS = {"activate_groups", "act_again", "attack", "sea_transport"}
MODIFIER_OPS = {"set_attack", "immune_to_counterattack"}
REACTION_OP = "counterattack"
SINGLE_OPS = {"recover_units", "airdrop", "roll_to_remove", "submarine_attack", "expose_oil_field",
              "reinforce", "remove_unit"}
CARD_OPS = GROUP_OPS | MODIFIER_OPS | SINGLE_OPS | {REACTION_OP}
# The options' operations (§16, §17), read by the game's settings and rules.
OPTION_OPS = {"fortress_areas", "supply_leader", "elimination_vp", "confine_nation", "set_turns",
              "place_units", "holiday_vp"}
EXECUTED_OPS = CARD_OPS | OPTION_OPS

MOVE, ATTACK, AIR, TRANSPORT = "move", "attack", "air", "transport"
ALL_ACTIONS = frozenset({MOVE, ATTACK, AIR})
_ACTION_NAMES = {"move": MOVE, "attack": ATTACK, "air_operation": AIR}


@dataclass(frozen=True)
class Play:
    """One way of playing a card: the card itself, or one of its options (①②)."""

    card: str
    option: str                       # "" for a card without options
    effects: tuple[dict, ...]

    @property
    def counters(self) -> list[dict]:
        return [e for e in self.effects if e.get("op") == REACTION_OP]

    @property
    def is_action(self) -> bool:
        """Whether this play is a card action (anything beyond a counter-attack)."""
        return any(e.get("op") != REACTION_OP for e in self.effects)


@dataclass(frozen=True)
class Card:
    id: str
    title: str
    side: str
    reaction: bool
    removed_after_use: bool
    plays: tuple[Play, ...]


@dataclass(frozen=True)
class Slot:
    """One group a card (or a normal action) lets act, and the card's terms for it."""

    kinds: frozenset[str]             # move, attack, air, transport
    max_units: int | None = None
    movement: int | None = None       # the allowance instead of the units' own
    sea_limits: bool = True
    sea_land_units: int | None = None
    enter_sea: bool = True
    stay_ready: bool = False          # land units stay ready after moving (Bicycle Troops)
    domain: str | None = None         # only units of this domain (Force Z: ships)
    used_may_act: bool = False        # used units may join (Force Z)
    strikes: int = 1                  # attacks in a row (Force Z: 2)


@dataclass
class Order:
    """The groups of one action: slots in order, and the terms that hold for all of them."""

    slots: list[Slot]
    declare_first: bool = False       # every group is named before any acts (Joint Operation)
    same_kind: bool = False           # the groups take the same kind of action
    again_groups: int = 0             # how many of the groups may act again (act_again)
    again_times: int = 0
    again_same_kind: bool = True      # the repeated action is of the first's kind
    set_attack: list[dict] = field(default_factory=list)
    immune: bool = False              # the groups cannot be counter-attacked (Oxygen Torpedoes)

    @classmethod
    def normal(cls) -> Order:
        """§6.1 ①②: one group moves or attacks, for a card played face down."""
        return cls([Slot(frozenset({MOVE, ATTACK}))])

    @classmethod
    def air(cls) -> Order:
        """§6.1 ③, §9: one group makes an air attack or an air move, without a card."""
        return cls([Slot(frozenset({AIR}))])


def order_of(play: Play) -> Order | None:
    """The groups a card action makes act, or None when it makes none act."""
    effects = [e for e in play.effects if e.get("op") in GROUP_OPS | MODIFIER_OPS]
    if not any(e.get("op") in GROUP_OPS for e in effects):
        return None
    order = Order([])
    again = None
    for effect in effects:
        op = effect["op"]
        if op == "activate_groups":
            kinds = frozenset(_ACTION_NAMES[a] for a in effect.get("actions") or _ACTION_NAMES)
            slot = Slot(kinds, effect.get("max_units_per_group"), effect.get("movement"),
                        effect.get("sea_border_limits", True), effect.get("sea_border_land_units"),
                        effect.get("enter_sea", True), bool(effect.get("stay_ready")))
            order.slots += [slot] * int(effect["groups"])
            order.declare_first = order.declare_first or bool(effect.get("declare_first"))
            order.same_kind = not effect.get("different_actions")
        elif op == "act_again":
            again = effect
        elif op == "attack":
            order.slots.append(Slot(frozenset({ATTACK}), domain=effect.get("domain"),
                                    used_may_act=bool(effect.get("used_units_may_attack")),
                                    strikes=int(effect.get("times", 1))))
        elif op == "sea_transport":
            order.slots += [Slot(frozenset({TRANSPORT}), effect.get("max_units_per_group"))] \
                * int(effect["groups"])
        elif op == "set_attack":
            order.set_attack.append(effect)
        elif op == "immune_to_counterattack":
            order.immune = True
    if again is not None:
        if not order.slots:       # Blitzkrieg, Oxygen Torpedoes: the card's own groups act
            order.slots = [Slot(ALL_ACTIONS)] * int(again["groups"])
        order.again_groups = int(again["groups"])
        order.again_times = int(again["times"])
        order.again_same_kind = not again.get("different_actions")
    return order


def read_cards(scenario, side_of) -> tuple[dict[str, Card], dict[str, list[str]], dict[str, int]]:
    """Cards by id, each side's deck (card ids, a card with `count` n listed n times), and each
    side's hand size (§5.1)."""
    cards: dict[str, Card] = {}
    decks: dict[str, list[str]] = {}
    hands: dict[str, int] = {}
    for _, deck in scenario.entities("decks", "decks"):
        side = side_of(deck.get("owner")) if isinstance(deck.get("owner"), str) else None
        if side is None:
            continue
        hands[side] = int(deck.get("hand_size") or 0)
        listed = decks.setdefault(side, [])
        for card in deck.get("cards") or []:
            if not isinstance(card, dict) or not isinstance(card.get("id"), str):
                continue
            if card.get("options"):
                plays = tuple(Play(card["id"], str(o.get("id")), tuple(o.get("effects") or []))
                              for o in card["options"] if isinstance(o, dict))
            else:
                plays = (Play(card["id"], "", tuple(card.get("effects") or [])),)
            cards[card["id"]] = Card(card["id"], str(card.get("title", card["id"])), side,
                                     bool(card.get("reaction")), bool(card.get("removed_after_use")),
                                     plays)
            listed += [card["id"]] * int(card.get("count", 1))
    return cards, decks, hands


@dataclass
class Deck:
    """A side's cards during a game: the pile it chooses from, the hand, what has been played
    this turn, and what is out of the game (§4.0(4)③, §5.2(4))."""

    pile: list[str]
    hand_size: int
    hand: list[str] = field(default_factory=list)
    played: list[str] = field(default_factory=list)
    gone: list[str] = field(default_factory=list)

    def use(self, card: str, removed: bool) -> None:
        self.hand.remove(card)
        (self.gone if removed else self.played).append(card)

    def new_turn(self) -> None:
        """Unused and used cards form the deck again (removed cards stay out)."""
        self.pile = sorted(self.pile + self.hand + self.played)
        self.hand, self.played = [], []

    def all_cards(self) -> list[str]:
        return sorted(self.pile + self.hand + self.played + self.gone)
