"""Sentences that state a rule, made from the :class:`~ev.core.rules.Rules` in force.

A sentence describing the peek, the conditioning of the EVs on no dealer blackjack,
how the player's "mimic the dealer" strategy treats soft 17, or what the split EV
rests on is true for one table only if it is made from that table's rules: these
functions are the one place the charts and the report take such sentences from
(phrases in :mod:`ev.present.i18n`).
"""
from __future__ import annotations

from ev.core.cards import ACE, TEN
from ev.core.rules import Rules
from ev.present.i18n import join_and, t

#: the up cards that can make a dealer blackjack, as the charts write them
_BLACKJACK_UPS = ((ACE, "A"), (TEN, "T"))


def checked_ups(rules: Rules) -> list[str]:
    """The up cards under which the dealer checks the hole card for blackjack ('A', 'T')."""
    return [sym for up, sym in _BLACKJACK_UPS if rules.peeks_under(up)]


def original_only_ups(rules: Rules) -> list[str]:
    """The up cards not checked, where an unchecked blackjack takes only the original bet (OBO)."""
    return [sym for up, sym in _BLACKJACK_UPS if not rules.peeks_under(up) and rules.blackjack_settled_as_peek(up)]


def settled_ups(rules: Rules) -> list[str]:
    """The up cards against which play is conditioned on no dealer blackjack (checked, or OBO)."""
    return [sym for up, sym in _BLACKJACK_UPS if rules.blackjack_settled_as_peek(up)]


def settled_reason(rules: Rules, lang: str) -> str:
    """Why play against ``settled_ups`` is conditioned: 'the dealer checks under T; under A ... the same ...'."""
    parts = []
    if checked_ups(rules):
        parts.append(t("cond.part_checked", lang, cards=join_and(checked_ups(rules), lang)))
    if original_only_ups(rules):
        parts.append(t("cond.part_original", lang, cards=join_and(original_only_ups(rules), lang)))
    return "; ".join(parts)


def conditioning(rules: Rules, lang: str) -> str:
    """One sentence: against which up cards the EVs are conditioned on no dealer blackjack, and why; or that
    none is (no check, and an unchecked blackjack takes every wager)."""
    ups = settled_ups(rules)
    if not ups:
        return t("cond.none", lang)
    return t("cond.conditioned", lang, cards=join_and(ups, lang), reason=settled_reason(rules, lang))


def peek_method(rules: Rules, lang: str) -> str:
    """The method section's paragraph on the peek: what a checked blackjack costs, what an unchecked one takes,
    and the conditioning that follows."""
    parts = [t("cond.method_title", lang)]
    checked, original = checked_ups(rules), original_only_ups(rules)
    taking_all = [sym for up, sym in _BLACKJACK_UPS if not rules.blackjack_settled_as_peek(up)]
    if checked:
        parts.append(t("cond.method_checked", lang, cards=join_and(checked, lang)))
    if original:
        parts.append(t("cond.method_original", lang, cards=join_and(original, lang)))
    if taking_all:
        parts.append(t("cond.method_all", lang, cards=join_and(taking_all, lang)))
    unchecked = [sym for up, sym in _BLACKJACK_UPS if not rules.peeks_under(up)]
    if rules.late_surrender and unchecked:       # Rules.surrender_value: such a blackjack takes the whole bet
        parts.append(t("cond.method_surrender", lang, cards=join_and(unchecked, lang)))
    ups = settled_ups(rules)
    parts.append(t("cond.method_conditioned", lang, cards=join_and(ups, lang)) if ups else t("cond.none", lang))
    side = {(True, True): "cond.method_insurance", (True, False): "cond.method_insurance_only",
            (False, True): "cond.method_even_money_only"}.get((rules.insurance, rules.even_money))
    if side:
        parts.append(t(side, lang))
    return " ".join(parts)


def mimic_dealer(rules: Rules, lang: str) -> str:
    """How the 'mimic the dealer' strategy plays: hit below 17, and soft 17 as this dealer does."""
    return t("mimic.h17" if rules.hit_soft_17 else "mimic.s17", lang)


def split_exactness(rules: Rules, lang: str) -> str:
    """What the split EV rests on: one split (two exchangeable hands) or the resplit formula; or no split."""
    if not rules.may_split:
        return t("splits.none", lang)
    if rules.max_split_hands <= 2:
        return t("splits.one", lang)
    # aces split once where they may not be resplit
    key = "splits.resplit" if rules.split_hands(ACE) == rules.max_split_hands else "splits.resplit_noaces"
    return t(key, lang, n=rules.max_split_hands)


__all__ = ["checked_ups", "conditioning", "mimic_dealer", "original_only_ups", "peek_method", "settled_reason",
           "settled_ups", "split_exactness"]
