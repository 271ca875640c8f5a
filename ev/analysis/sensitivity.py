"""How the RTP depends on the rules: the readings of the ambiguous seed rules, and one-rule changes."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from ev.analysis.accounting import ReturnToPlayer, round_stats
from ev.analysis.game import Game
from ev.analysis.strategies import policy_figures
from ev.analysis.strategy import optimal_policy
from ev.core.arithmetic import shared_dealers
from ev.core.cards import ACE, N_RANKS, TEN
from ev.core.rules import Rules

#: the RTP the seed game publishes ("total win / total bet with optimal strategy"), as a fraction
PUBLISHED_RTP = 0.9959

#: the readings of the seed rules' peek clause (see docs/rtp.md, "Rule readings")
READINGS: tuple[tuple[str, dict], ...] = (
    ("peek on ace and ten", {"peek": "ace_ten"}),
    ("peek on ten only; an unchecked blackjack takes all wagers", {"peek": "ten", "unchecked_blackjack_takes": "all"}),
    ("peek on ten only; an unchecked blackjack takes the original bet",
     {"peek": "ten", "unchecked_blackjack_takes": "original"}),
)

#: one-rule changes from the seed game, as (label, changes) (``effects_for(Rules())`` adds tens split by rank)
EFFECTS: tuple[tuple[str, dict], ...] = (
    ("dealer stands on soft 17", {"hit_soft_17": False}),
    ("double on any two cards", {"double": "any"}),
    ("double on 9-11", {"double": "9-11"}),
    ("double after split", {"double_after_split": True}),
    ("resplit to 4 hands", {"max_split_hands": 4}),
    ("resplit aces (to 4 hands)", {"max_split_hands": 4, "resplit_aces": True}),
    ("late surrender", {"late_surrender": True}),
    ("blackjack pays 6:5", {"blackjack_payout": "6:5"}),
    ("no hole card (blackjack takes all)", {"peek": "none", "unchecked_blackjack_takes": "all"}),
    ("2 decks", {"decks": 2}),
    ("6 decks", {"decks": 6}),
    ("8 decks", {"decks": 8}),
)

#: the changes a rule-effect table may list, each with its label; ``effects_for`` keeps those that change a table
CANDIDATE_EFFECTS: tuple[tuple[str, dict], ...] = (
    ("dealer stands on soft 17", {"hit_soft_17": False}),
    ("dealer hits soft 17", {"hit_soft_17": True}),
    ("double on any two cards", {"double": "any", "double_soft": True}),
    ("double on 9-11", {"double": "9-11"}),
    ("double on 10-11 only", {"double": "10-11"}),
    ("double after split", {"double_after_split": True}),
    ("no double after split", {"double_after_split": False}),
    ("one split only", {"max_split_hands": 2, "resplit_aces": False}),
    ("resplit to 4 hands", {"max_split_hands": 4}),
    ("resplit aces (to 4 hands)", {"max_split_hands": 4, "resplit_aces": True}),
    ("no resplit of aces", {"resplit_aces": False}),
    ("late surrender", {"late_surrender": True}),
    ("no surrender", {"late_surrender": False}),
    ("blackjack pays 3:2", {"blackjack_payout": "3:2"}),
    ("blackjack pays 6:5", {"blackjack_payout": "6:5"}),
    ("dealer checks under an ace and a ten", {"peek": "ace_ten"}),
    ("no hole card (blackjack takes all)", {"peek": "none", "unchecked_blackjack_takes": "all"}),
    ("ten-valued pairs split only by rank", {"split_tens": "rank"}),
    ("ten-valued pairs split by value", {"split_tens": "value"}),
    ("1 deck", {"decks": 1}),
    ("2 decks", {"decks": 2}),
    ("6 decks", {"decks": 6}),
    ("8 decks", {"decks": 8}),
)


def computable(rules: Rules, split_strategy: str) -> bool:
    """Can optimal play under ``split_strategy`` be computed for ``rules``?  Not truly optimal split play where a
    pair may make more than two hands (its searches take minutes a table there, and are exact only where
    certified)."""
    return split_strategy != "optimal" or all(rules.split_hands(pair) <= 2 for pair in range(N_RANKS))


def effects_left_out(base: Rules, split_strategy: str = "cdz") -> list[str]:
    """The labels of the one-rule changes :func:`effects_for` leaves out because ``split_strategy`` cannot be
    computed under them (:func:`computable`)."""
    return [label for label, changes in effects_for(base) if not computable(base.replace(**changes), split_strategy)]


def effects_for(base: Rules, split_strategy: str | None = None) -> list[tuple[str, dict]]:
    """The one-rule changes that make a table other than ``base`` (a change to what ``base`` already has, or
    to a rule that has no effect under it, is left out): the rows of a rule-effect table.  With a
    ``split_strategy``, only the changes under which it can be computed (:func:`effects_left_out`)."""
    out = []
    for label, changes in CANDIDATE_EFFECTS:
        if split_strategy is not None and not computable(base.replace(**changes), split_strategy):
            continue
        changed = base.replace(**changes)
        if changed == base or (changes.get("peek") == "ace_ten" and all(base.blackjack_settled_as_peek(u)
                                                                         for u in (ACE, TEN))):
            continue     # the same table, or the same game in expected value (a settled blackjack is a peek)
        if any(not changed.has_effect(k) and not base.has_effect(k) for k in changes
                                  if len(changes) == 1):
            continue
        out.append((label, changes))
    return out


@dataclass
class Variant:
    label: str
    changes: dict
    rules: Rules
    stats: ReturnToPlayer        # ev, expected_wager and both RTPs (see figures)

    def as_dict(self, base: Variant | None = None) -> dict:
        d = {"label": self.label, "changes": self.changes, "ev": self.stats.ev,
             "rtp_initial": self.stats.rtp_initial, "rtp_total_wagered": self.stats.rtp_total_wagered,
             "expected_total_wager": self.stats.expected_wager}
        if base is not None:
            d["ev_change"] = self.stats.ev - base.stats.ev
        return d


def figures(rules: Rules, split_strategy: str = "cdz") -> ReturnToPlayer:
    """EV, E[W] and both RTPs of optimal CD play (initial bets; floats).

    Under CDZ- by ``ev.analysis.strategies.policy_figures`` (split rounds by exchangeability, resplits
    by the resplit formula: the exact EV, at a tenth of ``round_stats``'s cost or less); under another
    split strategy by ``round_stats``.  The variants a thread computes one after another share the dealer's
    tables (``ev.core.arithmetic.shared_dealers``: the same figures to the bit).
    """
    with shared_dealers():
        game = Game(rules)
        if split_strategy == "cdz":
            return policy_figures(game, optimal_policy(game, "cdz"))
        return round_stats(game, split_strategy)


def evaluate(base: Rules, variants: Iterable[tuple[str, dict]], split_strategy: str = "cdz",
             progress: Callable[[str], None] | None = None,
             known: Mapping[Rules, ReturnToPlayer] | None = None) -> list[Variant]:
    """The figures of optimal CD play (:func:`figures`) for each variant of ``base``; ``known``: figures
    already at hand by rule set (the base game's, so that it is not computed twice)."""
    out = []
    for label, changes in variants:
        if progress:
            progress(label)
        rules = base.replace(**changes)
        stats = (known or {}).get(rules) or figures(rules, split_strategy)
        out.append(Variant(label, changes, rules, stats))
    return out


def rule_readings(base: Rules | None = None, split_strategy: str = "cdz", progress=None,
                  known: Mapping[Rules, ReturnToPlayer] | None = None) -> list[Variant]:
    """The game under each reading of the peek rule."""
    return evaluate(base or Rules(), READINGS, split_strategy, progress, known)


def rule_effects(base: Rules | None = None, split_strategy: str = "cdz", progress=None,
                 known: Mapping[Rules, ReturnToPlayer] | None = None) -> tuple[Variant, list[Variant]]:
    """The base game and each one-rule change from it."""
    base = base or Rules()
    reference = evaluate(base, [("base game", {})], split_strategy, known=known)[0]
    return reference, evaluate(base, effects_for(base, split_strategy), split_strategy, progress, known)
