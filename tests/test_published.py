"""Published figures of an established C++ combinatorial analyser (see ../shared/DESIGN.md)."""
import pytest

from ev.analysis.game import Game
from ev.core.rules import Rules


@pytest.mark.parametrize("rules, strategy, ev_percent", [
    (Rules(), "cdz", -0.445128332),
    (Rules(), "cdp", -0.444771335),
    (Rules(), "cdp1", -0.444771335),
    (Rules(hit_soft_17=False, double="any", double_soft=True), "cdz", 0.024273905),
])
def test_round_ev_matches_published(rules, strategy, ev_percent):
    assert 100 * Game(rules).round(strategy).ev == pytest.approx(ev_percent, abs=1e-9)


def test_round_is_weighted_sum_of_upcards():
    result = Game().round()
    assert sum(result.p_upcard.values()) == pytest.approx(1, abs=1e-15)
    assert sum(result.p_upcard[k] * v for k, v in result.ev_by_upcard.items()) == pytest.approx(result.ev, abs=1e-15)
    assert sum(d.probability for d in result.deals) == pytest.approx(10, abs=1e-12)  # one distribution per up card
