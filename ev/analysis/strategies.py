"""The player strategies a test lab asks about, as :class:`~ev.analysis.strategy.Policy` tables.

Each builder returns a fixed strategy that ``ev.analysis.accounting.round_stats``
evaluates exactly (every deal, every card; no sampling), in the game's arithmetic:

* :func:`mimic_dealer_policy`: hit to 17 as the dealer does (hitting soft 17
  when the dealer does), never double, split, insure, surrender or take even money;
* :func:`never_bust_policy`: never take a card that can bust (see its docstring);
* :func:`with_insurance`: a strategy that also always takes insurance and/or even money;
* :func:`minimum_figures`: the lowest EV any legal strategy reaches (the true
  minimum): the optimal recursion turned round, choosing the worst legal action
  at every decision, split hands played worst with every card seen (the mirror
  image of truly optimal split play, ``ev.analysis.optimal_split`` with sense
  ``WORST``); with resplits, the restricted minimum of :func:`worst_policy`
  (split hands follow one table per up card, as CDZ-) and a scope that says so.
* random (blind) play, not a table but every legal option equally likely at
  every decision: :mod:`ev.analysis.random_play`.

:func:`strategy_table` evaluates them all, with optimal composition-dependent
play under every split strategy and the basic-strategy chart, into the rows of
the report's strategy table.  Units: EVs and stakes in initial bets.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ev.analysis import optimal_split
from ev.analysis.accounting import Figures, RoundStats, play_cells, round_stats
from ev.analysis.game import Game
from ev.analysis.random_play import RANDOM_NAME, random_play_figures
from ev.analysis.splits import resplit_value
from ev.analysis.strategy import DOUBLE, HIT, SPLIT, STAND, SURRENDER, Policy, optimal_policy
from ev.core.actions import NO_ACTION, SPLIT_STRATEGIES
from ev.core.cards import ACE, N_RANKS, TEN, blackjack_rank, composition_of, hand_total, pair_rank, subtract
from ev.core.rules import Rules

MIMIC_NAME = "mimic the dealer"
NEVER_BUST_NAME = "never bust"
WORST_NAME = "minimum over legal play"
RESTRICTED_WORST_NAME = "minimum over legal play, split hands as CDZ-"
#: what the minimum row covers (``StrategyRow.scope``): every legal strategy, or every strategy whose split
#: hands follow one table per up card (CDZ-)
SCOPE_ALL, SCOPE_CDZ = "all legal play", "split hands CDZ-"


def search_reason(decks: int, search_decks: int) -> str:
    """Why a truly optimal split search was left out: the shoe is larger than ``search_decks`` decks."""
    return (f"the truly optimal split search is made for shoes of up to {search_decks} decks here (it takes "
            f"about 25 s on six); bjev rtp --split-strategy optimal computes it for {decks} decks")


#: why the truly optimal row is missing where a pair may be split more than once
OPTIMAL_RESPLIT_REASON = ("truly optimal split play with resplits takes minutes even on one deck (bjev rtp, bjev hand; "
                          "exact with --exact where its play is certified), and is searched only on shoes small "
                          "enough for its memory bound; the report does not make that search")


def _missing(v: Any) -> bool:
    """A value the solver leaves out (a hand the deck cannot hold): NaN in floats, None in fractions."""
    return v is None or v != v


# ----- strategies that stand or hit by a rule of totals --------------------------------------------
def total_rule_policy(game: Game, name: str, hits: Callable[[int, bool], bool]) -> Policy:
    """A strategy that only stands or hits: ``hits(total, soft)`` says when to hit (never at 21).

    Pairs are played by their total (never split); nothing is doubled, insured or surrendered,
    and even money is declined.
    """
    hands = game.graph["hands"]
    codes = bytearray(NO_ACTION for _ in hands)
    for s, hand in enumerate(hands):
        if sum(hand) >= 2:
            total, soft = hand_total(hand)
            codes[s] = HIT if total < 21 and hits(total, soft) else STAND
    table = bytes(codes)
    per_up = {up: table for up in range(N_RANKS)}
    policy = Policy(game.rules, name, hands, per_up, dict(per_up), dict(per_up), bytes(len(hands)), False)
    policy.validate()
    return policy


def mimic_dealer_policy(game: Game) -> Policy:
    """Hit below 17, and on soft 17 when this dealer hits soft 17; stand otherwise (the dealer's own rule)."""
    h17 = game.rules.hit_soft_17
    return total_rule_policy(game, MIMIC_NAME, lambda total, soft: total < 17 or (total == 17 and soft and h17))


def never_bust_policy(game: Game) -> Policy:
    """Never risk a bust: stand on any hard 12 or more, hit hard 11 or less.

    A soft hand cannot bust on one card: it is hit up to soft 17 and stands on
    soft 18 or more (once it turns hard it follows the hard rule).  Pairs are
    played by their total; nothing is doubled, split, insured or surrendered.
    """
    return total_rule_policy(game, NEVER_BUST_NAME, lambda total, soft: total <= 17 if soft else total <= 11)


def with_insurance(policy: Policy, insurance: bool = True, even_money: bool = True, name: str | None = None) -> Policy:
    """``policy`` that also always takes insurance (every two-card hand but a natural) and/or even money.

    Where the rules do not offer insurance or even money, that part is left as is.
    """
    r = policy.rules
    marks = bytearray(policy.insurance)
    if insurance and r.insurance:
        for s, hand in enumerate(policy.hands):
            if sum(hand) == 2 and hand_total(hand)[0] != 21:
                marks[s] = 1
    changed = dataclasses.replace(policy, name=name or policy.name, insurance=bytes(marks),
                                  even_money=policy.even_money or (even_money and r.even_money))
    changed.validate()
    return changed


# ----- the worst legal strategy ---------------------------------------------------------------------
def minimum_scope(rules: Rules) -> tuple[str, str]:
    """(scope, reason) of :func:`minimum_figures` under ``rules``: ``SCOPE_ALL`` where no pair makes more
    than two hands (the true minimum over every legal strategy), else ``SCOPE_CDZ`` (the search over split
    hands' play takes minutes a table with resplits, and is exact only where its play is certified)."""
    if not rules.may_split:
        return SCOPE_ALL, "no pair may be split: every decision is searched"
    most = max(rules.split_hands(pair) for pair in range(N_RANKS))
    if most <= 2:
        return SCOPE_ALL, "every decision is searched, split hands' play with every card seen"
    return SCOPE_CDZ, (f"a pair may make up to {most} hands and the search over split hands' play is not made "
                       f"with resplits here (minutes a table, exact only where certified), so split hands follow "
                       f"one table per up card (CDZ-)")


def minimum_figures(game: Game, distribution: bool = False) -> Figures | RoundStats:
    """EV and E[W] (initial bets; both RTPs) of the lowest-EV legal strategy, in the game's arithmetic.

    Under :func:`minimum_scope` ``SCOPE_ALL`` (every pair makes at most two hands): the true minimum over
    every legal strategy.  At every unsplit decision the worst legal action (stand; hit, never on 21;
    double, split, surrender where allowed; insurance and even money taken when worse); a split when the
    worst split play (``optimal_split.split_value(..., WORST)``: the first hand minimising its own result
    plus the second's, the second playing worst with every card seen) is lower than the worst unsplit
    play.  Otherwise (resplits) the restricted minimum of :func:`worst_policy`.

    :class:`Figures` by :func:`policy_figures` (split rounds from the search's value and stake); with
    ``distribution``, a :class:`~ev.analysis.accounting.RoundStats` holding the round's exact outcome
    distribution too (its mean is the EV; far slower: the split rounds' joint outcomes are followed).
    """
    restricted = minimum_scope(game.rules)[0] == SCOPE_CDZ
    policy = worst_policy(game) if restricted else _worst_policy(game, true_splits=True)
    search = 0 if restricted else optimal_split.WORST
    if distribution:
        return round_stats(game, policy, split_search=search)
    return policy_figures(game, policy, split_search=search)


def minimum_row(game: Game, search_decks: int | None = None) -> StrategyRow:
    """The strategy table's ``minimum`` row: :func:`minimum_figures` with its scope; where the shoe has more
    than ``search_decks`` decks (None: any), the restricted minimum instead, with a scope that says why."""
    scope, reason = minimum_scope(game.rules)
    if scope == SCOPE_ALL and game.rules.may_split and search_decks is not None and game.rules.decks > search_decks:
        worst = worst_policy(game)
        return StrategyRow("minimum", RESTRICTED_WORST_NAME, policy_figures(game, worst), scope=SCOPE_CDZ,
                           scope_reason=f"the search over split hands' play is made for shoes of up to "
                                        f"{search_decks} decks here (about 25 s on six), so split hands follow one "
                                        f"table per up card (CDZ-)")
    return StrategyRow("minimum", WORST_NAME if scope == SCOPE_ALL else RESTRICTED_WORST_NAME,
                       minimum_figures(game), scope=scope, scope_reason=reason)


def worst_policy(game: Game) -> Policy:
    """The restricted minimum: the strategy of lowest EV among the legal strategies whose split hands follow
    one table per up card (a legal strategy: the true minimum, :func:`minimum_figures`, is at most its EV).

    The optimal recursion over the hand graph with min in place of max: at every
    unsplit hand the worst of stand and hit (never hitting 21); at two cards also
    double, split and surrender where the rules allow them; insurance taken when its
    EV is negative and even money taken when it is worth less than the declined
    blackjack.  Stand and double values are the solver's (they do not depend on
    later play); hit is recursed here.  A hand made by a split is played, like
    CDZ-, by the unsplit hand's worst decision among the actions allowed after a
    split; a split is chosen when its value, under that post-split play, is the
    lowest.  Ties go to the earlier of stand, hit, double, split, surrender.
    Values are joint (as the solver's), in the game's arithmetic.
    """
    return _worst_policy(game, true_splits=False)


def _worst_policy(game: Game, true_splits: bool) -> Policy:
    """:func:`worst_policy`; ``true_splits``: a split is valued by the worst play of both split hands with
    every card seen (one split only), so that ``split_play`` is not the play of split hands: the table is
    then evaluated with ``round_stats(..., split_search=WORST)``."""
    r, A = game.rules, game.arithmetic
    if true_splits and r.may_split:
        optimal_split.prepare(game, sense=optimal_split.WORST)    # every pair and up card, on every core
    hands, nxt = game.graph["hands"], game.graph["next"]
    n_states = len(hands)
    blank = bytes([NO_ACTION]) * n_states
    play = {up: blank for up in range(N_RANKS)}       # up cards the shoe does not hold keep a blank table
    fallback, split_play = dict(play), dict(play)
    insurance = bytearray(n_states)
    for up in game.upcards():
        solver = game.solver(up)
        base = subtract(game.shoe, composition_of([up]))
        settled = r.settled_blackjack_rank(up)
        stand, _, double = solver.values_table()
        worst: list = [None] * n_states       # worst stand/hit value of every state
        codes = bytearray(blank)
        for s in range(n_states - 1, -1, -1):
            hand = hands[s]
            if sum(hand) < 2 or _missing(stand[s]):
                continue
            deck = [b - h for b, h in zip(base, hand)]
            options = [(STAND, stand[s])]
            if hand_total(hand)[0] < 21:
                options.append((HIT, _hit_value(A, deck, [nxt[s * N_RANKS + c] for c in range(N_RANKS)],
                                                worst, settled)))
            codes[s], worst[s] = _worst(options, A.tie)
        sp, fb = bytearray(codes), bytearray(codes)
        evaluator = None
        for s, hand in enumerate(hands):
            if sum(hand) != 2 or worst[s] is None:
                continue
            total, soft = hand_total(hand)
            deck = [b - h for b, h in zip(base, hand)]
            unsplit = [(codes[s], worst[s])]
            after_split = list(unsplit)
            if r.may_double(total, soft):
                unsplit.append((DOUBLE, double[s]))
            if r.may_double(total, soft, after_split=True):
                after_split.append((DOUBLE, double[s]))
            if r.late_surrender:
                unsplit.append((SURRENDER, game.surrender_value(up, deck)))
            codes[s] = fb[s] = _worst(sorted(unsplit), A.tie)[0]
            sp[s] = _worst(sorted(after_split), A.tie)[0]
            if up == ACE and r.insurance and total != 21:
                insurance[s] = 1 if r.insurance_ev(A.ratio(deck[TEN], sum(deck))) < 0 else 0
        for s, hand in enumerate(hands):
            pair = pair_rank(hand)
            if sum(hand) != 2 or pair is None or worst[s] is None or not (r.may_split and base[pair] >= 2):
                continue
            if true_splits:
                value = optimal_split.split_value(game, up, pair, optimal_split.WORST)
            else:
                if evaluator is None:
                    evaluator = A.evaluator(solver, blackjack_rank(up), bytes(codes), bytes(sp) * N_RANKS)
                value = split_round(game, evaluator, up, pair)[0]
            current = _value_of(codes[s], s, worst, double, game, up, [b - h for b, h in zip(base, hand)])
            if value < current - A.tie:
                codes[s] = SPLIT
        play[up], fallback[up], split_play[up] = bytes(codes), bytes(fb), bytes(sp)
    even_money = False
    if r.even_money and game.shoe[ACE] >= 2 and game.shoe[TEN] >= 1:
        d = list(subtract(game.shoe, composition_of([ACE, ACE, TEN])))
        even_money = A.one < A.number(r.payout) * (1 - A.ratio(d[TEN], sum(d)))
    name = WORST_NAME if true_splits else RESTRICTED_WORST_NAME
    policy = Policy(r, name, hands, play, fallback, split_play, bytes(insurance), even_money)
    policy.validate()
    return policy


def _hit_value(A: Any, deck: list[int], children: list[int], worst: list, settled: int) -> Any:
    """Joint value of hitting a hand whose unseen deck is ``deck``, played on by ``worst``."""
    n = sum(deck)
    value = A.zero
    for c in range(N_RANKS):
        if deck[c] <= 0:
            continue
        child = children[c]
        if child >= 0:
            value += deck[c] * worst[child]
        elif settled >= 0:     # a bust loses the bet unless a settled dealer blackjack already took it
            value -= deck[c] * (1 - A.ratio(deck[settled] - (c == settled), n - 1))
        else:
            value -= deck[c]
    return value / n


def _worst(options: list[tuple[int, Any]], tie: Any) -> tuple[int, Any]:
    """The option of lowest value; values within ``tie`` of the lowest so far go to the earlier option."""
    best, value = options[0]
    for code, v in options[1:]:
        if v < value - tie:
            best, value = code, v
    return best, value


def _value_of(code: int, s: int, worst: list, double: list, game: Game, up: int, deck: list[int]) -> Any:
    if code == DOUBLE:
        return double[s]
    if code == SURRENDER:
        return game.surrender_value(up, deck)
    return worst[s]


# ----- a policy's EV and stake, with split rounds by exchangeability ---------------------------------
def split_round(game: Game, evaluator: Any, up: int, pair: int,
                by_context: Callable[[int], Any] | None = None) -> tuple[Any, Any]:
    """(mean net result, mean stake) of splitting ``pair`` against ``up``, joint units, post-split play
    from ``evaluator``'s split table, or with resplits ``by_context(k)``'s for a hand that knows of k hands.

    With one split the two hands are exchangeable (each played on its own cards),
    so the round's mean and stake are twice one hand's: exact, and far cheaper
    than the joint distribution of both hands when split hands draw many cards.
    With resplits, :func:`resplit_round`: the resplit formula over each hand's mean result and stake
    (exact, and no joint distribution of the hands is needed for a mean).
    """
    A, rules = game.arithmetic, game.rules
    if rules.split_hands(pair) > 2:
        return resplit_round(game, evaluator, up, pair, by_context)
    deck = list(subtract(game.shoe, composition_of([up, pair, pair])))
    n = sum(deck)
    start = game.graph["next"][pair]
    one_card = rules.one_card_after_split(pair)
    mean = stake = A.zero
    for c in range(N_RANKS):
        if deck[c] <= 0:
            continue
        p = A.ratio(deck[c], n)
        result, staked = evaluator.context_values(game.graph["next"][start * N_RANKS + c], pair, 1, one_card)
        mean += p * result
        stake += p * staked
    return 2 * mean, 2 * stake


def split_strategy_figures(game: Game, split_strategy: str) -> Figures:
    """Exact EV and E[W] of optimal composition-dependent play under the split strategy "cdz", "cdp1", "cdp" or
    "optimal" (the figures of ``round_stats(game, split_strategy)``, without the joint distribution of split
    rounds: a strategy table's row): E[W] by :func:`policy_figures` (truly optimal split rounds' stakes from the
    search), the EV ``Game.round``'s (the same sums as every
    optimal row's, so that the rows compare without rounding noise; the tests check both EVs agree).  Made once
    per game."""
    def build() -> Figures:
        policy = optimal_policy(game, split_strategy)
        if split_strategy == "optimal":
            figures = policy_figures(game, policy, split_search=optimal_split.BEST)
        else:
            figures = policy_figures(game, policy, split_strategy=split_strategy)
        return Figures(game.round(split_strategy).ev, figures.expected_wager, figures.p_even_money)

    return game.memo(("split_strategy_figures", split_strategy), build)


def _context_evaluators(game: Game, policy: Policy, up: int, split_strategy: str | None) -> Callable[[int], Any]:
    """evaluator(k): the policy evaluator of a split hand that knows of k hands: its unsplit play the policy's,
    its split play the policy's split table (``split_strategy`` None or "cdz"), CDP1's (the optimum for the deck
    less both pair cards) or CDP's (less the k pair cards it knows of)."""
    A, solver = game.arithmetic, game.solver(up)
    made: dict[int, Any] = {}

    def evaluator(k: int) -> Any:
        decide = 0 if split_strategy in (None, "cdz") else 1 if split_strategy == "cdp1" else k - 1
        if decide not in made:
            codes = (policy.split_play[up] * N_RANKS if decide == 0 else
                     b"".join(solver.context_choices(pair, 1, decide) for pair in range(N_RANKS)))
            made[decide] = A.evaluator(solver, blackjack_rank(up), policy.play[up], codes)
        return made[decide]

    return evaluator


def _without_splits(play: bytes, fallback: bytes) -> bytes:
    """``play`` with each SPLIT replaced by the state's ``fallback`` (the few pair states found by ``find``,
    not a loop over every state)."""
    out = bytearray(play)
    i = out.find(SPLIT)
    while i >= 0:
        out[i] = fallback[i]
        i = out.find(SPLIT, i + 1)
    return bytes(out)


def policy_figures(game: Game, policy: Policy, split_search: int = 0, split_strategy: str | None = None) -> Figures:
    """Exact EV and E[W] of ``policy``, without the joint distribution of split rounds.

    ``round_stats`` of the same policy with every split replaced by its fallback
    play (cheap: no split rounds), corrected deal by deal for the splits by
    :func:`split_round`.  The same figures as ``round_stats(game, policy)`` (the
    tests check it), at a fraction of the cost when split hands draw many cards.
    ``split_search``: as for ``round_stats``: 0, or ``optimal_split.BEST``/``WORST`` to
    play split rounds by the search (their value and stake from ``ev.analysis.optimal_split``).
    ``split_strategy``: split hands played by CDP1's or CDP's decisions (an optimal policy of that split
    strategy: :func:`split_strategy_figures`) instead of the policy's split table.
    """
    A = game.arithmetic
    play = {up: _without_splits(policy.play[up], policy.fallback[up]) for up in policy.play}
    unsplit = round_stats(game, dataclasses.replace(policy, play=play))
    ev, wager = unsplit.ev, unsplit.expected_wager
    n_shoe = sum(game.shoe)
    for up in game.upcards():
        base = subtract(game.shoe, composition_of([up]))
        n = sum(base)
        natural = blackjack_rank(up)
        evaluator = None
        for pair in range(N_RANKS):
            s = game.graph["index"].get(composition_of([pair, pair]))
            if s is None or base[pair] < 2 or policy.play[up][s] != SPLIT:
                continue
            if evaluator is None:
                by_context = _context_evaluators(game, policy, up, split_strategy)
                evaluator = by_context(2)
            share = game.same_ten_rank_probability() if pair == TEN else A.one
            weight = A.ratio(game.shoe[up], n_shoe) * A.ratio(base[pair] * (base[pair] - 1), n * (n - 1)) * share
            if split_search:
                split_mean = optimal_split.split_value(game, up, pair, split_search)
                split_stake = optimal_split.split_stake(game, up, pair, split_search)
            else:
                split_mean, split_stake = split_round(game, evaluator, up, pair, by_context)
            # the fallback's cells as the unsplit accounting counted them (a surrender included)
            deck = subtract(base, composition_of([pair, pair]))
            p_bj = A.ratio(deck[natural], sum(deck)) if natural >= 0 else A.zero
            cells = list(play_cells(game, evaluator, up, policy.fallback[up][s], s, pair, p_bj,
                                    game.rules.settled_blackjack_rank(up) >= 0))
            ev += weight * (split_mean - sum((x * mass for (_, _, x), mass, _ in cells), A.zero))
            wager += weight * (split_stake - sum((stake * mass for _, mass, stake in cells), A.zero))
    return Figures(ev, wager, unsplit.p_even_money)


# ----- the table ----------------------------------------------------------------------------------
def resplit_round(game: Game, evaluator: Any, up: int, pair: int,
                  by_context: Callable[[int], Any] | None = None) -> tuple[Any, Any]:
    """(mean net result, mean stake) of splitting ``pair`` against ``up``, resplits included, every hand made
    played by the evaluator's split table (``by_context(k)``'s for a hand that knows of k hands, where given):
    exact, by the resplit formula (:func:`ev.analysis.splits.resplit_value`), which holds for any value of a
    hand that depends on its own cards and context only, a hand's stake as well as its result.  Joint units."""
    A, rules = game.arithmetic, game.rules
    one_card = rules.one_card_after_split(pair)
    deck = subtract(game.shoe, composition_of([up]))
    rest = subtract(deck, composition_of([pair, pair]))
    nxt = game.graph["next"]
    start = nxt[pair]
    hands: dict[tuple[int, Any], list] = {}

    def per_hand(a: int, k: int) -> list:
        """(result, stake) of the split hand {pair, c} for each second card c, deck context a + 1, played by the
        decisions of a hand that knows of k hands."""
        play = by_context(k) if by_context else evaluator
        if (a, id(play)) not in hands:
            out = []
            for c in range(N_RANKS):
                if rest[c] - (a if c == pair else 0) <= 0:
                    out.append((A.zero, A.zero))        # never read: no such second card in this context
                    continue
                out.append(play.context_values(nxt[start * N_RANKS + c], pair, a + 1, one_card))
            hands[a, id(play)] = out
        return hands[a, id(play)]

    most = rules.split_hands(pair)
    mean = stake = A.zero
    for weight, p in game.resplit_cards(deck, pair):
        mean += weight * resplit_value(deck, pair, most, p, lambda a, k: [v for v, _ in per_hand(a, k)], A.ratio)
        stake += weight * resplit_value(deck, pair, most, p, lambda a, k: [w for _, w in per_hand(a, k)], A.ratio)
    return mean, stake


@dataclass
class StrategyRow:
    """One strategy of the table: a key (``optimal-cdz``, ``basic``, ``mimic``, ``random``, ...), its name and
    figures.

    ``figures``: a ``RoundStats`` or :class:`Figures` (both have ``ev``, ``expected_wager`` and both RTPs).
    ``scope`` and ``scope_reason``: for the row ``minimum`` only (empty elsewhere), what the minimum is
    taken over: ``SCOPE_ALL`` ("all legal play": the true minimum, no legal strategy returns less) or
    ``SCOPE_CDZ`` ("split hands CDZ-": over the strategies whose split hands follow one table per up
    card; a legal strategy may return less), and why, in one English sentence (:func:`minimum_scope`).
    """

    key: str
    name: str
    figures: Any
    #: why the row has no figures (``figures`` None): a strategy these rules do not support yet
    reason: str | None = None
    scope: str = ""
    scope_reason: str = ""


def strategy_row(game: Game, key: str, search_decks: int | None = None) -> StrategyRow:
    """One row of the table that needs nothing but the game: ``optimal-<split strategy>`` (``round_stats`` by
    name; the truly optimal row with a reason where these rules or ``search_decks`` leave it out), ``random``
    or ``minimum``."""
    if key == "random":
        return StrategyRow("random", RANDOM_NAME, random_play_figures(game))
    if key == "minimum":
        return minimum_row(game, search_decks)
    name = key.removeprefix("optimal-")
    label = f"optimal composition-dependent ({name})"
    reason = strategy_row_reason(game.rules, search_decks) if name == "optimal" else None
    if reason:
        return StrategyRow(key, label, None, reason)
    return StrategyRow(key, label, split_strategy_figures(game, name))


def _same_as(rules: Rules, key: str) -> str | None:
    """The row whose figures the row ``key`` shares under ``rules``: CDP is CDP1 with one split (no resplit to
    vary with), and with no split every split strategy is CDZ-'s play."""
    if not rules.may_split and key.startswith("optimal-") and key != "optimal-cdz":
        return "optimal-cdz"
    if key == "optimal-cdp" and rules.max_split_hands <= 2:
        return "optimal-cdp1"
    return None


def rows_from_rules(rules: Rules, have: Iterable[str] = (), split_strategies: Iterable[str] = SPLIT_STRATEGIES,
                    search_decks: int | None = None) -> list[str]:
    """The keys of the rows :func:`strategy_table` makes from the rules alone by :func:`strategy_row` (each can be
    made apart, in another process), those in ``have`` and those that share another row's figures left out."""
    have = set(have)
    keys = [f"optimal-{name}" for name in split_strategies] + ["random", "minimum"]
    return [k for k in keys if k not in have and _same_as(rules, k) is None
            and not (k == "optimal-optimal" and strategy_row_reason(rules, search_decks))]


def strategy_row_reason(rules: Rules, search_decks: int | None) -> str | None:
    """Why the truly optimal row has no figures under ``rules``, or None."""
    if rules.max_split_hands > 2:
        return OPTIMAL_RESPLIT_REASON
    if search_decks is not None and rules.decks > search_decks:
        return search_reason(rules.decks, search_decks)
    return None


def strategy_table(game: Game, basic: Policy | None = None, computed: dict[str, Any] | None = None,
                   split_strategies: Iterable[str] = SPLIT_STRATEGIES,
                   search_decks: int | None = None, rows: Mapping[str, StrategyRow] | None = None) -> list[StrategyRow]:
    """Exact figures of every strategy a lab asks about, the minimum last.

    Optimal composition-dependent play under every split strategy the engine
    offers (``round_stats`` by name), the basic-strategy chart ``basic``, the
    chart with insurance and even money always taken, mimic the dealer, never
    bust (the fixed strategies by :func:`policy_figures`), random play (every
    legal option equally likely: :func:`ev.analysis.random_play.random_play_figures`),
    and the minimum over legal play (:func:`minimum_figures`; the row's ``scope`` says whether it is
    the true minimum).  ``computed``: figures already at hand, by row key
    (``optimal-cdz``, ``basic``, ...), so that nothing is computed twice; ``rows``: rows already made
    (:func:`strategy_row`, by key, for example in other processes).  ``search_decks``: the
    most decks for which the truly optimal split search is made (None: any); above it the row
    keeps a reason instead (the search takes about 4 s on one deck and 25 s on six).
    """
    computed = dict(computed or {})
    made = dict(rows or {})

    def row(key: str) -> StrategyRow:
        if key not in made:
            same = _same_as(game.rules, key)
            if key in computed:
                made[key] = StrategyRow(key, f"optimal composition-dependent ({key.removeprefix('optimal-')})",
                                        computed[key])
            elif same is not None and (same in made or same in computed):
                other = row(same)
                made[key] = dataclasses.replace(other, key=key, name=f"optimal composition-dependent "
                                                                     f"({key.removeprefix('optimal-')})")
            else:
                made[key] = strategy_row(game, key, search_decks)
        return made[key]

    out = [row(f"optimal-{name}") for name in split_strategies]
    if basic is not None:
        out.append(StrategyRow("basic", basic.name, computed.get("basic") or policy_figures(game, basic)))
        if game.rules.insurance or game.rules.even_money:
            insured = with_insurance(basic, name="basic strategy, always insuring and taking even money")
            out.append(StrategyRow("basic-insure", insured.name, policy_figures(game, insured)))
    for key, build in (("mimic", mimic_dealer_policy), ("never-bust", never_bust_policy)):
        policy = build(game)
        out.append(StrategyRow(key, policy.name, policy_figures(game, policy)))
    out.append(row("random"))
    out.append(row("minimum"))
    return out


__all__ = [
    "MIMIC_NAME",
    "NEVER_BUST_NAME",
    "RESTRICTED_WORST_NAME",
    "SCOPE_ALL",
    "SCOPE_CDZ",
    "WORST_NAME",
    "Figures",
    "StrategyRow",
    "mimic_dealer_policy",
    "minimum_figures",
    "minimum_row",
    "minimum_scope",
    "never_bust_policy",
    "policy_figures",
    "resplit_round",
    "rows_from_rules",
    "search_reason",
    "split_round",
    "split_strategy_figures",
    "strategy_row",
    "strategy_row_reason",
    "strategy_table",
    "total_rule_policy",
    "with_insurance",
    "worst_policy",
]
