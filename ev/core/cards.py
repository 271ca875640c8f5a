"""Card symbols, ranks and compositions.

Ranks are indexed 0..9: index 0 is the ace, index 1..8 are 2..9 and index 9 is
any ten-valued card (10, J, Q, K).  A *composition* is a tuple of ten counts in
that order.  The face of a ten-valued card (T, J, Q, K) matters only for the
``split_tens="rank"`` rule, so parsing keeps it alongside the rank index.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache
from numbers import Integral
from operator import truediv
from typing import Any

from ev.errors import CardError, excerpt

ACE = 0
TEN = 9
N_RANKS = 10
RANK_SYMBOLS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
TEN_FACES = ("T", "J", "Q", "K")
#: up cards in the order of a printed chart: 2 ... 9, T, A (rank indices)
UP_ORDER = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)

_SYMBOL_TO_FACE = {s: s for s in RANK_SYMBOLS[:9]}
_SYMBOL_TO_FACE.update({"T": "T", "10": "T", "J": "J", "Q": "Q", "K": "K"})

Composition = tuple  # tuple[int, ...] of length 10


def rank_value(rank: int) -> int:
    """Hard point value of a rank index (ace counts 1)."""
    return rank + 1


def face_to_rank(face: str) -> int:
    return TEN if face in TEN_FACES else RANK_SYMBOLS.index(face)


def parse_face(symbol: str) -> str:
    """Normalise one card symbol to its face ('A', '2'..'9', 'T', 'J', 'Q', 'K')."""
    s = symbol.strip().upper()
    if s not in _SYMBOL_TO_FACE:
        raise CardError(
            f"unknown card {excerpt(symbol)}: use A 2 3 4 5 6 7 8 9 T J Q K (or 10), case-insensitive")
    return _SYMBOL_TO_FACE[s]


def card_face(card: str | int) -> str:
    """One card of the Python API as its face ('A', '2'..'9', 'T', 'J', 'Q', 'K').

    ``card`` is a card symbol as the command line takes it ('A', '2'..'9', 'T', '10', 'J', 'Q',
    'K', case-insensitive) or a rank index (0 the ace, 1..8 the twos to nines, 9 a ten).  Anything
    else raises :class:`~ev.errors.CardError`.  Every public method that takes a card goes through here.
    """
    if isinstance(card, Integral) and not isinstance(card, bool):
        if 0 <= card < N_RANKS:
            return RANK_SYMBOLS[int(card)]
        raise CardError(f"unknown rank index {excerpt(card)}: use 0 (ace) to 9 (ten), or a card symbol such as 'T'")
    if isinstance(card, str):
        return parse_face(card)
    raise CardError(f"a card is a symbol such as 'A', '9' or 'T' (or a rank index 0-9), got {excerpt(card)}")


def card_rank(card: str | int) -> int:
    """The rank index (0-9) of one card given as :func:`card_face` takes it."""
    return face_to_rank(card_face(card))


def parse_faces(text: str) -> list[str]:
    """Parse 'T,6', 'T-6' (as bjev writes a hand), 'T6', 'a 10 k' or '10,6' into faces.  An empty string is no
    cards."""
    text = text.strip()
    if not text:
        return []
    if any(sep in text for sep in ", ;-"):
        parts = [p for p in text.replace(";", ",").replace(" ", ",").replace("-", ",").split(",") if p]
        return [parse_face(p) for p in parts]
    faces = []
    i = 0
    while i < len(text):
        if text[i:i + 2] == "10":
            faces.append("T")
            i += 2
        else:
            faces.append(parse_face(text[i]))
            i += 1
    return faces


def parse_card(text: str) -> int:
    """Parse exactly one card and return its rank index."""
    faces = parse_faces(text)
    if len(faces) != 1:
        raise CardError(f"expected exactly one card, got {excerpt(text)}")
    return face_to_rank(faces[0])


def composition_of(ranks: Iterable[int]) -> Composition:
    counts = [0] * N_RANKS
    for r in ranks:
        counts[r] += 1
    return tuple(counts)


def full_shoe(decks: int) -> Composition:
    return tuple([4 * decks] * 9 + [16 * decks])


def subtract(deck: Sequence[int], cards: Sequence[int], what: str = "cards") -> Composition:
    """deck minus a composition; an impossible removal raises CardError."""
    out = []
    for r in range(N_RANKS):
        left = deck[r] - cards[r]
        if left < 0:
            raise CardError(
                f"impossible {what}: {cards[r]} x {RANK_SYMBOLS[r]} but the shoe holds only {deck[r]}")
        out.append(left)
    return tuple(out)


def pair_rank(hand: Sequence[int]) -> int | None:
    """The rank of a two-card pair (a composition), or None when the hand is not a pair."""
    if sum(hand) == 2:
        for r in range(N_RANKS):
            if hand[r] == 2:
                return r
    return None


def hand_total(hand: Sequence[int]) -> tuple[int, bool]:
    """Best total of a hand given as a composition, and whether it is soft."""
    return _total(hand if type(hand) is tuple else tuple(hand))


@lru_cache(maxsize=1 << 16)      # the hands met are the hand graph's few thousand; asked for again and again
def _total(hand: tuple[int, ...]) -> tuple[int, bool]:
    hard = sum((r + 1) * c for r, c in enumerate(hand))
    if hand[ACE] and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def format_hand(hand: Sequence[int]) -> str:
    """'A-7', 'T-6-2' style name of a composition, ranks in descending order of value except aces first."""
    parts = []
    for r in range(N_RANKS - 1, -1, -1):
        parts += [RANK_SYMBOLS[r]] * hand[r]
    if hand[ACE]:
        parts = parts[-hand[ACE]:] + parts[:-hand[ACE]]
    return "-".join(parts)


#: a finished hand's type, as the split round's distribution keeps it: total (16 standing for
#: 16 or less, 22 for a bust) and bet (1 or 2); its index is (total - 16) x 2 + bet - 1
HAND_TYPES = tuple((total, bet) for total in range(16, 23) for bet in (1, 2))


def hand_type(total: int, bet: int) -> int:
    """The index in :data:`HAND_TYPES` of a finished hand of ``total`` (above 21: bust) and ``bet``."""
    return (min(max(total, 16), 22) - 16) * 2 + bet - 1


def hand_result(total: int, bet: int, outcome: int) -> int:
    """A finished hand's result in initial bets against a dealer outcome (0..4: 17..21, 5: bust,
    6: blackjack); a total above 21 is a bust."""
    if total > 21 or outcome == 6:
        return -bet
    if outcome == 5 or total > 17 + outcome:
        return bet
    return -bet if total < 17 + outcome else 0


def blackjack_rank(up: int) -> int:
    """The hole card that completes a dealer blackjack under ``up``, or -1."""
    return TEN if up == ACE else ACE if up == TEN else -1


def initial_deals(deck: Sequence[int], ratio: Callable[[int, int], Any] = truediv
                  ) -> Iterator[tuple[int, int, Any]]:
    """Every two-card deal (c1 <= c2, ranks) from ``deck`` with its probability ``ratio(ways, n (n - 1))``.

    The order of the two cards is summed over: P(c1, c2) counts both orders
    when the ranks differ.  ``ratio`` is float division or ``Fraction``.
    """
    n = sum(deck)
    pairs = n * (n - 1)
    for c1 in range(N_RANKS):
        for c2 in range(c1, N_RANKS):
            ways = deck[c1] * (deck[c1] - 1) if c1 == c2 else 2 * deck[c1] * deck[c2]
            if ways > 0:
                yield c1, c2, ratio(ways, pairs)
