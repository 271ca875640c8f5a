"""The published figures every test checks against, in one place.

An established C++ combinatorial analyser on the seed game (../shared/DESIGN.md): EVs in initial bets
(published to nine decimals of a percent, so compared to 1e-11), the round's net-result distribution
(nine decimals) and its SD; the game's own published RTP.
"""
from fractions import Fraction

#: (rule changes from the seed game, split strategy, EV per initial bet)
ROUND_EVS = [
    ({}, "cdz", -0.00445128332),
    ({}, "cdp", -0.00444771335),
    ({}, "cdp1", -0.00444771335),
    ({"hit_soft_17": False, "double": "any", "double_soft": True}, "cdz", 0.00024273905),
]
EV_TOLERANCE = 1e-11

#: the seed game's net result per round (initial bets) under CDZ-, and its probability
DISTRIBUTION = {Fraction(-2): 0.030673154, Fraction(-1): 0.448921481, Fraction(0): 0.084566098,
                Fraction(1): 0.342615808, Fraction(3, 2): 0.046492443, Fraction(2): 0.046731016}
DISTRIBUTION_TOLERANCE = 1e-9
SD = 1.09806290953
SD_TOLERANCE = 1e-9

#: the game's published RTP, "total win / total bet with optimal strategy", in percent to two decimals
RTP_PERCENT = 99.59
