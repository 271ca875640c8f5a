"""Strategies as data: the action for every hand against every up card.

A :class:`StrategyTable` is what a player *does*; the engine derives one (the
optimal composition-dependent strategy) and the chart module another (the
total-dependent basic strategy).  The simulator and the policy evaluator only
read tables; neither calls back into the engine.

Hands are the states of the hand graph (``ev.tables.hand_graph``): rank-count
tuples, ranks 0 = A, 1 = 2, ..., 9 = T.  Up cards are ranks too.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ev.core.cards import ACE, N_RANKS, TEN, composition_of, hand_total, subtract
from ev.errors import EngineError
from ev.core.rules import Rules

if TYPE_CHECKING:  # pragma: no cover
    from ev.analysis.game import Game

STAND, HIT, DOUBLE, SPLIT, SURRENDER = 0, 1, 2, 3, 4
ACTION_NAMES = ("stand", "hit", "double", "split", "surrender")
NO_ACTION = 255   # unreachable state


@dataclass
class StrategyTable:
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
        r = self.rules
        for up in range(N_RANKS):
            for table_name, table in (("play", self.play), ("fallback", self.fallback),
                                      ("split_play", self.split_play)):
                if up not in table:
                    raise EngineError(f"strategy {self.name!r}: no {table_name} table for up card {up}")
                codes = table[up]
                if len(codes) != len(self.hands):
                    raise EngineError(f"strategy {self.name!r}: {table_name} table has the wrong size")
                for s, code in enumerate(codes):
                    if code != NO_ACTION:
                        reason = _forbidden(r, self.hands[s], code, table_name)
                        if reason:
                            raise EngineError(f"strategy {self.name!r} breaks the rules: {reason}")


def _forbidden(r: Rules, hand: tuple, code: int, table_name: str) -> str | None:
    """Why ``code`` is not allowed for ``hand`` under ``r`` in that table, or None."""
    total, soft = hand_total(hand)
    n = sum(hand)
    label = f"{ACTION_NAMES[code] if code < len(ACTION_NAMES) else code} on {_describe(hand)}"
    if code >= len(ACTION_NAMES):
        return f"unknown action code {code} on {_describe(hand)}"
    if n < 2 and code != HIT:
        return label
    if code == HIT and total >= 21 and n >= 2:
        return f"hit on {total}"
    if code == DOUBLE:
        if n != 2 or not may_double(r, total, soft, table_name == "split_play"):
            return label
    if code == SPLIT:
        pair = n == 2 and any(c == 2 for c in hand)
        if table_name != "play" or not pair or r.max_split_hands < 2:
            return label
    if code == SURRENDER and (table_name == "split_play" or n != 2 or not r.late_surrender):
        return label
    return None


def may_double(r: Rules, total: int, soft: bool, after_split: bool) -> bool:
    """May a two-card hand of this total double under these rules?"""
    if after_split and not r.double_after_split:
        return False
    if soft and not r.double_soft:
        return False
    lo, hi = {"any": (0, 21), "9-11": (9, 11), "10-11": (10, 11)}[r.double]
    return lo <= total <= hi


def _describe(hand: tuple) -> str:
    total, soft = hand_total(hand)
    cards = "-".join("A23456789T"[r] for r in range(N_RANKS) for _ in range(hand[r]))
    return f"{cards} ({'soft' if soft else 'hard'} {total})"


def optimal_table(game: "Game", split_strategy: str = "cdz") -> StrategyTable:
    """The optimal composition-dependent strategy of a game, with CDZ- play after splits.

    ``split_strategy`` decides which split EVs the split decision compares
    (the post-split play in ``split_play`` is always CDZ-; ``ev.accounting``
    supplies CDP1/CDP post-split play per pair).

    Every decision maximises the exact EV of the hand; exact ties go to the
    earlier of stand, hit, double, split, surrender (values within 1e-12 count
    as ties, as in the engine).  Split hands copy the unsplit decision among
    the actions the rules allow after a split (CDZ-).
    """
    r = game.rules
    hands = game.graph["hands"]
    play, fallback, split_play = {}, {}, {}
    analysis = game.analyse((split_strategy,))
    insurance = bytearray(len(hands))
    even_money = False
    for up in range(N_RANKS):
        codes = bytearray([NO_ACTION] * len(hands))
        fb = bytearray([NO_ACTION] * len(hands))
        sp = bytearray([NO_ACTION] * len(hands))
        if up in analysis.stand:
            stand, hit, double = analysis.stand[up], analysis.hit[up], analysis.double[up]
            for s, hand in enumerate(hands):
                if stand[s] != stand[s]:          # NaN: the deck cannot hold this hand
                    continue
                total, soft = hand_total(hand)
                n = sum(hand)
                options = [(STAND, stand[s])]
                if total < 21:
                    options.append((HIT, hit[s]))
                split_options = list(options)
                if n == 2 and may_double(r, total, soft, False):
                    options.append((DOUBLE, double[s]))
                if n == 2 and may_double(r, total, soft, True):
                    split_options.append((DOUBLE, double[s]))
                plain = _best(options)
                pair = next((k for k in range(N_RANKS) if hand[k] == 2), None) if n == 2 else None
                if n == 2 and r.late_surrender:
                    surrender_value = game._surrender(up, [b - h for b, h in zip(_base(game, up), hand)])
                    options.append((SURRENDER, surrender_value))
                    plain = _best(options)
                best = plain
                if pair is not None and (split_strategy, up, pair) in analysis.split:
                    with_split = options + [(SPLIT, analysis.split[split_strategy, up, pair])]
                    best = _best(sorted(with_split, key=lambda o: o[0]))
                codes[s] = best
                fb[s] = plain
                sp[s] = _best(split_options)
                if up == ACE and n == 2 and r.insurance and not (total == 21):
                    d = [b - h for b, h in zip(_base(game, up), hand)]
                    p_bj = d[TEN] / sum(d)
                    insurance[s] = 1 if 0.5 * (3 * p_bj - 1) > 0 else 0
        play[up], fallback[up], split_play[up] = bytes(codes), bytes(fb), bytes(sp)
    if r.even_money and game.shoe[ACE] >= 2 and game.shoe[TEN] >= 1:
        d = list(_base(game, ACE))
        d[ACE] -= 1
        d[TEN] -= 1
        even_money = 1.0 > float(r.payout) * (1 - d[TEN] / sum(d))
    table = StrategyTable(r, "optimal composition-dependent (CDZ- after splits)", hands, play, fallback,
                          split_play, bytes(insurance), even_money)
    table.validate()
    return table


def _base(game: "Game", up: int) -> list[int]:
    return subtract(game.shoe, composition_of([up]))


def _best(options: list[tuple[int, float]], tie: float = 1e-12) -> int:
    """The action with the highest value; near-ties go to the earlier option."""
    best, value = options[0]
    for code, v in options[1:]:
        if v > value + tie:
            best, value = code, v
    return best
