// The C++ side of bench_commands.py's analysis rows (bjev does not build or ship this file).
//
// The overall EV of the default game (H17, double on 10-11 only, no DAS, no resplit, no surrender,
// blackjack pays 3:2) under CDZ-, CDP1 and CDP, with Eric Farmer's analyser
// (github.com/possibly-wrong/blackjack, src/blackjack.cpp): every decision of every hand against every
// up card, as bjev's Game(rules).analyse() computes.  Build it beside that file:
//
//     g++ -O2 -I. -o ev_three_strategies ev_three_strategies.cpp blackjack.cpp
//
// and run it as `ev_three_strategies DECKS [STRATEGIES]` (STRATEGIES 1: CDZ- only).  It prints each
// strategy's EV in percent of the initial bet (the CDZ- figure of one deck is bjev's -0.445128332 %).
#include "blackjack.h"
#include <cstdio>
#include <cstdlib>

class Quiet : public BJProgress {
public:
    void indicate(int) {}
};

int main(int argc, char **argv) {
    int decks = argc > 1 ? atoi(argv[1]) : 1;
    int count = argc > 2 ? atoi(argv[2]) : 3;
    BJShoe shoe(decks);
    // hit soft 17, double any total: no, double 9: no, double soft: yes (no soft 10 or 11 exists),
    // double after hit: no, DAS: no, resplit: no, resplit aces: no, late surrender: no, 3:2
    BJRules rules(true, false, false, true, false, false, false, false, false, 1.5);
    Quiet progress;
    const bool modes[3][2] = {{true, false}, {false, true}, {false, false}};    // (CDZ-, CDP1) flags
    for (int m = 0; m < count && m < 3; ++m) {
        BJStrategy strategy(modes[m][0], modes[m][1]);
        BJPlayer *player = new BJPlayer(shoe, rules, strategy, progress);      // large: not on the stack
        printf("%s %.9f\n", m == 0 ? "CDZ-" : m == 1 ? "CDP1" : "CDP", (double)player->getValue() * 100);
        delete player;
    }
    return 0;
}
