"""Strategies as data: the action for every hand against every up card.

A :class:`Policy` is what a player *does*; the engine derives one (the
optimal composition-dependent strategy) and the chart module another (the
total-dependent basic strategy).  The simulator and the policy evaluator only
read tables; neither calls back into the engine.

Hands are the states of the hand graph (``ev.core.shapes.hand_graph``): rank-count
tuples, ranks 0 = A, 1 = 2, ..., 9 = T.  Up cards are ranks too.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from ev.analysis.game import Game
from ev.core.actions import ACTION_NAMES, NO_ACTION, OPTIMAL, Action, playable_split_mode
from ev.core.cards import ACE, N_RANKS, TEN, composition_of, hand_total, pair_rank, subtract
from ev.core.rules import Rules
from ev.errors import EngineError

STAND, HIT, DOUBLE, SPLIT, SURRENDER = (int(a) for a in Action)


@dataclass
class Policy:
    """The action for every hand (hand-graph state) against every up card.

    * ``play[up][s]``: unsplit hand ``s`` (two or more cards): STAND, HIT,
      DOUBLE (two cards only), SPLIT (pairs) or SURRENDER (two cards only).
    * ``fallback[up][s]``: for a two-card pair, the action when splitting is
      not available (ten-valued cards of different ranks with ``split_tens``
      "rank"); elsewhere equal to ``play``.
    * ``split_play[up][s]``: a hand made by a split: STAND, HIT or DOUBLE (DOUBLE
      only where the rules allow doubling after a split).  A pair card drawn to
      a split hand is resplit while ``max_split_hands`` allows.
    * ``insurance[s]``: take insurance against an ace with two-card hand ``s``.
    * ``even_money``: take even money with a blackjack against an ace.
    """

    rules: Rules
    name: str
    hands: list[tuple]
    play: dict[int, bytes]
    fallback: dict[int, bytes]
    split_play: dict[int, bytes]
    insurance: bytes
    even_money: bool

    def action(self, up: int, hand: tuple, after_split: bool = False) -> str:
        s = self._index()[tuple(hand)]
        code = (self.split_play if after_split else self.play)[up][s]
        if code == NO_ACTION:
            raise EngineError("the strategy has no action for this hand")
        return ACTION_NAMES[code]

    def _index(self) -> dict[tuple, int]:
        if not hasattr(self, "_index_cache"):
            self._index_cache = {h: i for i, h in enumerate(self.hands)}
        return self._index_cache

    def validate(self) -> None:
        """Raise EngineError naming the first action the rules do not allow."""
        masks = allowed_masks(self.rules, tuple(self.hands))
        for up in range(N_RANKS):
            for table_name, table in (("play", self.play), ("fallback", self.fallback),
                                      ("split_play", self.split_play)):
                if up not in table:
                    raise EngineError(f"strategy {self.name!r}: no {table_name} table for up card {up}")
                codes = table[up]
                if len(codes) != len(self.hands):
                    raise EngineError(f"strategy {self.name!r}: {table_name} table has the wrong size")
                allowed, forbidden = masks[table_name]
                # every state at once: each code as its action's bit, against the bits the rules allow
                if not int.from_bytes(bytes(codes).translate(_CODE_BITS), "big") & forbidden:
                    continue
                for s, code in enumerate(codes):
                    if code != NO_ACTION and not (code < len(ACTION_NAMES) and allowed[s] >> code & 1):
                        reason = _forbidden(self.rules, self.hands[s], code, table_name)
                        raise EngineError(f"strategy {self.name!r} breaks the rules: {reason}")


#: an action code as the bit of its action (no action: none; an unknown code: a bit no mask holds)
_CODE_BITS = bytes(1 << code if code < len(ACTION_NAMES) else 0 if code == NO_ACTION else 0x80
                   for code in range(256))


@functools.cache
def allowed_masks(rules: Rules, hands: tuple) -> dict[str, tuple[list[int], int]]:
    """Per table: the bit mask of the action codes the rules allow in each state, and the bits they
    forbid, all states in one integer (a byte a state, as ``_CODE_BITS`` writes the codes)."""
    # a mask depends on the total, softness, pair and whether the hand holds fewer than, just or more than two
    # cards: a few dozen shapes among thousands of states, each asked of the rules once
    shapes = [(*hand_total(hand), min(sum(hand), 3), pair_rank(hand) is not None) for hand in hands]
    out = {}
    for name in ("play", "fallback", "split_play"):
        by_shape = {shape: _mask(rules, *shape, name) for shape in set(shapes)}
        masks = [by_shape[shape] for shape in shapes]
        out[name] = masks, int.from_bytes(bytes(0xFF ^ m for m in masks), "big")
    return out


def _mask(r: Rules, total: int, soft: bool, n: int, pair: bool, table_name: str) -> int:
    """The bit mask of the action codes ``r`` allows for a hand of ``n`` cards and this total in that table."""
    mask = 0
    if n >= 2:
        mask |= 1 << STAND
    if n < 2 or total < 21:
        mask |= 1 << HIT
    if n == 2 and r.may_double(total, soft, table_name == "split_play"):
        mask |= 1 << DOUBLE
    if pair and table_name == "play" and r.may_split:
        mask |= 1 << SPLIT
    if n == 2 and table_name != "split_play" and r.late_surrender:
        mask |= 1 << SURRENDER
    return mask


def _forbidden(r: Rules, hand: tuple, code: int, table_name: str) -> str | None:
    """Why ``code`` is not allowed for ``hand`` under ``r`` in that table, or None."""
    if code >= len(ACTION_NAMES):
        return f"unknown action code {code} on {describe_hand(hand)}"
    total, soft = hand_total(hand)
    n = sum(hand)
    if _mask(r, total, soft, n, pair_rank(hand) is not None, table_name) >> code & 1:
        return None
    if code == HIT:
        return f"hit on {total}"
    return f"{ACTION_NAMES[code]} on {describe_hand(hand)}"


def describe_hand(hand: tuple) -> str:
    total, soft = hand_total(hand)
    cards = "-".join("A23456789T"[r] for r in range(N_RANKS) for _ in range(hand[r]))
    return f"{cards} ({'soft' if soft else 'hard'} {total})"


def optimal_policy(game: Game, split_strategy: str = "cdz") -> Policy:
    """The optimal composition-dependent strategy of a game, with CDZ- play after splits.

    ``split_strategy`` decides which split EVs the split decision compares
    (the post-split play in ``split_play`` is always CDZ-; ``ev.analysis.accounting``
    supplies CDP1/CDP post-split play per pair).

    Every decision maximises the exact EV of the hand, in the game's
    arithmetic; ties (values within ``game.arithmetic.tie``: 1e-12 in floats,
    exact equality in fractions) go to the earlier of stand, hit, double,
    split, surrender, as in ``Game.round``.  Split hands copy the unsplit
    decision among the actions the rules allow after a split (CDZ-).  Made once per game and split strategy.
    """
    playable_split_mode(split_strategy)            # "cdp-terms" has values, not a strategy table
    return game.memo(("optimal_policy", split_strategy), lambda: _optimal_policy(game, split_strategy))


def _optimal_policy(game: Game, split_strategy: str) -> Policy:
    mode = playable_split_mode(split_strategy)
    r, A = game.rules, game.arithmetic
    hands = game.graph["hands"]
    blank = bytes([NO_ACTION]) * len(hands)
    play, fallback, split_play = {}, {}, {}
    insurance = bytearray(len(hands))
    for up in range(N_RANKS):
        if not game.shoe[up]:
            play[up] = fallback[up] = split_play[up] = blank
            continue
        solver = game.solver(up)
        base = subtract(game.shoe, composition_of([up]))
        # stand, hit or double by optimal unsplit play at every state; two-card hands are decided below
        codes = bytearray(solver.context_choices(-1, 0, OPTIMAL))
        fb, sp = bytearray(codes), bytearray(codes)
        split_values: dict[int, Any] = {}
        for s, hand, total, soft in _two_card_states(hands):
            if codes[s] == NO_ACTION:
                continue
            deck = [b - h for b, h in zip(base, hand)]
            options, split_options = _deal_options(game, solver, s, total, soft, deck)
            plain = best_action(options, A.tie)
            best = plain
            pair = pair_rank(hand)
            if pair is not None and r.may_split and base[pair] >= 2:
                if pair not in split_values:
                    split_values[pair] = game.split_value(solver, pair, mode)
                best = best_action(sorted(options + [(SPLIT, split_values[pair])], key=lambda o: o[0]), A.tie)
            codes[s], fb[s], sp[s] = best, plain, best_action(split_options, A.tie)
            if up == ACE and r.insurance and total != 21:
                insurance[s] = 1 if r.insurance_ev(A.ratio(deck[TEN], sum(deck))) > 0 else 0
        play[up], fallback[up], split_play[up] = bytes(codes), bytes(fb), bytes(sp)
    even_money = False
    if r.even_money and game.shoe[ACE] >= 2 and game.shoe[TEN] >= 1:
        d = list(subtract(game.shoe, composition_of([ACE, ACE, TEN])))
        even_money = A.one > A.number(r.payout) * (1 - A.ratio(d[TEN], sum(d)))
    table = Policy(r, "optimal composition-dependent (CDZ- after splits)", hands, play, fallback,
                          split_play, bytes(insurance), even_money)
    table.validate()
    return table


#: id of a hand graph's list of hands -> (the list, its two-card states); the list is kept so that its id is
#: not reused
_TWO_CARD: dict[int, tuple[list, list]] = {}


def _deal_options(game: Game, solver: Any, s: int, total: int, soft: bool, deck: list[int]) -> tuple[list, list]:
    """The (action, value) options of two-card hand state ``s`` but the split, in tie-break order: at the deal,
    and as a split hand of the same cards (the doubling rule after a split)."""
    r = game.rules
    stand, hit, double = solver.hand_values(s)
    options = [(STAND, stand)] + ([(HIT, hit)] if total < 21 else [])
    split_options = list(options)
    if r.may_double(total, soft):
        options.append((DOUBLE, double))
    if r.may_double(total, soft, after_split=True):
        split_options.append((DOUBLE, double))
    if r.late_surrender:
        options.append((SURRENDER, game.surrender_value(solver.up, deck)))
    return options, split_options


def unsplit_best(game: Game) -> dict[int, dict[int, Any]]:
    """up card -> {pair rank: the best value of its pair hand's other options at the deal} (joint units): where a
    split's value falls below it by more than a tie, optimal play does not split that pair (the accounting then
    needs no outcome distribution of that split)."""
    best: dict[int, dict[int, Any]] = {}
    for up in game.upcards():
        solver = game.solver(up)
        base = subtract(game.shoe, composition_of([up]))
        best[up] = {}
        for s, hand, total, soft in _two_card_states(game.graph["hands"]):
            pair = pair_rank(hand)
            if pair is None or base[pair] < 2:
                continue
            options, _ = _deal_options(game, solver, s, total, soft, [b - h for b, h in zip(base, hand)])
            best[up][pair] = max(v for _, v in options)
    return best


def _two_card_states(hands: list) -> list[tuple[int, tuple, int, bool]]:
    """(state, hand, total, soft) of the two-card hands of a hand graph (the decisions made at the deal)."""
    known = _TWO_CARD.get(id(hands))
    if known is None or known[0] is not hands:
        if len(_TWO_CARD) > 64:
            _TWO_CARD.clear()
        known = _TWO_CARD[id(hands)] = (hands, [(s, hand, *hand_total(hand)) for s, hand in enumerate(hands)
                                                if sum(hand) == 2])
    return known[1]


def best_action(options: list[tuple[int, Any]], tie: Any = 1e-12) -> int:
    """The action with the highest value; values within ``tie`` of the best so far go to the earlier option."""
    best, value = options[0]
    for code, v in options[1:]:
        if v > value + tie:
            best, value = code, v
    return best
