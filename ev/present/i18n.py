"""Every user-facing phrase of the charts and the math report in English, German and Polish.

One table, ``MESSAGES``: a message key to ``{"en": ..., "de": ..., "pl": ...}``.
Keys are grouped by prefix:

* ``action.*``  the player's decisions (``action.stand`` ...), ``abbr.*`` their
  one-letter chart codes (English S H D P R; German S Z V P A, P for "Paar teilen" as T is the ten; Polish S K P D R);
* ``chart.*``, ``row.*``, ``legend.*``, ``note.*``, ``summary.*``: the strategy chart;
* ``exceptions.*``, ``evtable.*``: the composition-dependent exceptions and the EV tables;
* ``rules.*``: the pieces of a rule summary (see :func:`rules_summary`, used by the
  charts and the report alike);
* the math report (:mod:`ev.present.report`), kept in :mod:`ev.present.i18n_report` and
  :mod:`ev.present.i18n_lab`: section headings ``s1`` ... ``s9`` and the phrases of each section, ``rule.*`` (rule parameter meanings), ``reading.*``,
  ``effect.*``, ``freq.*``, ``class.*``, ... (keys as the report code names them).

A phrase is written once.  Where a second key names the same phrase (the report's
``freq.double`` is the charts' ``action.double``), :data:`ALIASES` maps it to the
key that holds the text, so :func:`t` answers for both.

The German and Polish casino terms follow the game's own rule texts (the seed
files): Verdoppeln, Teilen, Versicherung, Even Money; Podwojenie stawki,
Dzielenie, Ubezpieczenie.  Placeholders are ``str.format`` fields.
"""
from __future__ import annotations

from typing import Any

from ev.errors import BJEVError
from ev.present.i18n_lab import LAB_MESSAGES
from ev.present.i18n_report import REPORT_MESSAGES

LANGUAGES = ("en", "de", "pl")

MESSAGES: dict[str, dict[str, str]] = {
    # ----- decisions --------------------------------------------------------------
    "action.stand": {"en": "Stand", "de": "Stehen", "pl": "Stój"},
    "action.hit": {"en": "Hit", "de": "Ziehen", "pl": "Karta (dobierz)"},
    "action.double": {"en": "Double", "de": "Verdoppeln", "pl": "Podwojenie stawki"},
    "action.split": {"en": "Split", "de": "Teilen", "pl": "Dzielenie"},
    "action.surrender": {"en": "Surrender", "de": "Aufgeben", "pl": "Rezygnacja"},
    "action.insurance": {"en": "Insurance", "de": "Versicherung", "pl": "Ubezpieczenie"},
    "action.even_money": {"en": "Even money", "de": "Even Money", "pl": "Even Money"},
    "action.blackjack_declined": {"en": "Decline even money", "de": "Even Money ablehnen",
                                  "pl": "Rezygnacja z Even Money"},
    "action.blackjack": {"en": "Blackjack", "de": "Blackjack", "pl": "Blackjack"},
    # lower-case forms used inside sentences
    "verb.stand": {"en": "stand", "de": "stehen", "pl": "stój"},
    "verb.hit": {"en": "hit", "de": "ziehen", "pl": "dobierz"},
    "verb.double": {"en": "double", "de": "verdoppeln", "pl": "podwój stawkę"},
    "verb.split": {"en": "split", "de": "teilen", "pl": "dziel"},
    "verb.surrender": {"en": "surrender", "de": "aufgeben", "pl": "zrezygnuj"},
    "verb.even_money": {"en": "take even money", "de": "Even Money nehmen", "pl": "weź Even Money"},
    # one-letter chart codes; a second, lower-case letter is the fallback
    "abbr.stand": {"en": "S", "de": "S", "pl": "S"},
    "abbr.hit": {"en": "H", "de": "Z", "pl": "K"},
    "abbr.double": {"en": "D", "de": "V", "pl": "P"},
    "abbr.split": {"en": "P", "de": "P", "pl": "D"},
    "abbr.surrender": {"en": "R", "de": "A", "pl": "R"},
    "answer.yes": {"en": "Yes", "de": "Ja", "pl": "Tak"},
    "answer.no": {"en": "No", "de": "Nein", "pl": "Nie"},
    # ----- the chart ----------------------------------------------------------------
    "chart.title": {"en": "Basic strategy", "de": "Grundstrategie", "pl": "Strategia podstawowa"},
    "chart.kind": {"en": "total-dependent chart", "de": "Tabelle nach Punktsumme",
                   "pl": "tabela według sumy punktów"},
    "chart.up_card": {"en": "Dealer's up card", "de": "Aufgedeckte Karte des Dealers",
                      "pl": "Odkryta karta krupiera"},
    "chart.hand": {"en": "Your hand", "de": "Ihre Hand", "pl": "Twój układ"},
    "section.hard": {"en": "Hard totals", "de": "Harte Hände", "pl": "Układy twarde"},
    "section.soft": {"en": "Soft totals", "de": "Weiche Hände", "pl": "Układy miękkie"},
    "section.pairs": {"en": "Pairs", "de": "Paare", "pl": "Pary"},
    "section.side": {"en": "Insurance and even money", "de": "Versicherung und Even Money",
                     "pl": "Ubezpieczenie i Even Money"},
    "row.hard": {"en": "Hard {total}", "de": "Hart {total}", "pl": "Twarde {total}"},
    "row.soft": {"en": "Soft {total}", "de": "Weich {total}", "pl": "Miękkie {total}"},
    "row.pair": {"en": "Pair {cards}", "de": "Paar {cards}", "pl": "Para {cards}"},
    "legend.title": {"en": "Legend", "de": "Legende", "pl": "Legenda"},
    "legend.fallback": {"en": "{first} if allowed, otherwise {second}",
                        "de": "{first}, wenn erlaubt, sonst {second}",
                        "pl": "{first}, jeśli dozwolone, w przeciwnym razie {second}"},
    "legend.side": {"en": "{yes} = take, {no} = decline", "de": "{yes} = nehmen, {no} = ablehnen",
                    "pl": "{yes} = przyjmij, {no} = odrzuć"},
    "note.ten": {"en": "T = any ten-valued card (10, J, Q, K).",
                 "de": "T = jede Karte mit dem Wert 10 (10, Bube, Dame, König).",
                 "pl": "T = dowolna karta o wartości 10 (10, walet, dama, król)."},
    "note.cards": {"en": "The first letter of a cell applies to the first two cards; after more cards, "
                         "or where the rules do not allow it (e.g. after a split), the second letter applies.",
                   "de": "Der erste Buchstabe gilt für die ersten beiden Karten; nach weiteren Karten oder wo "
                         "die Regeln es nicht erlauben (z. B. nach dem Teilen), gilt der zweite Buchstabe.",
                   "pl": "Pierwsza litera dotyczy dwóch pierwszych kart; po dobraniu kolejnych kart lub gdy "
                         "zasady na to nie pozwalają (np. po dzieleniu) obowiązuje druga litera."},
    "note.pairs": {"en": "A pair marked for splitting that cannot be split (after a split, or by the rules) "
                         "is played by its total row.",
                   "de": "Ein Paar, das geteilt werden soll, aber nicht geteilt werden kann (nach dem Teilen "
                         "oder nach den Regeln), wird nach seiner Punktsumme gespielt.",
                   "pl": "Para oznaczona do dzielenia, której nie można podzielić (po dzieleniu lub zgodnie z "
                         "zasadami), jest rozgrywana według wiersza jej sumy punktów."},
    "note.peek": {"en": "The dealer checks for blackjack under {cards} before you play.",
                  "de": "Der Dealer prüft unter {cards} auf Blackjack, bevor Sie spielen.",
                  "pl": "Krupier sprawdza blackjacka przy {cards}, zanim gracz podejmie decyzję."},
    "note.exact": {"en": "Every cell is chosen so that no single change raises the exact EV of a player "
                         "who follows the whole chart.",
                   "de": "Jede Zelle ist so gewählt, dass keine einzelne Änderung den exakten Erwartungswert "
                         "eines Spielers erhöht, der der ganzen Tabelle folgt.",
                   "pl": "Każda komórka jest wybrana tak, że żadna pojedyncza zmiana nie podnosi dokładnej "
                         "wartości oczekiwanej gracza, który stosuje całą tabelę."},
    "summary.chart": {"en": "Chart player: EV {ev}, RTP {rtp_initial} per initial bet, {rtp_wagered} per "
                            "total wagered",
                      "de": "Spieler nach Tabelle: Erwartungswert {ev}, RTP {rtp_initial} je Grundeinsatz, "
                            "{rtp_wagered} je Gesamteinsatz",
                      "pl": "Gracz stosujący tabelę: wartość oczekiwana {ev}, RTP {rtp_initial} na stawkę "
                            "początkową, {rtp_wagered} na łączną stawkę"},
    "summary.optimal": {"en": "Optimal composition-dependent play: EV {ev}, RTP {rtp_initial} per initial "
                              "bet, {rtp_wagered} per total wagered",
                        "de": "Optimales kartenabhängiges Spiel: Erwartungswert {ev}, RTP {rtp_initial} je "
                              "Grundeinsatz, {rtp_wagered} je Gesamteinsatz",
                        "pl": "Optymalna gra zależna od składu kart: wartość oczekiwana {ev}, RTP "
                              "{rtp_initial} na stawkę początkową, {rtp_wagered} na łączną stawkę"},
    "summary.split": {"en": "Split hands of the optimal player, in the exceptions and in the EV tables: {name}.",
                      "de": "Geteilte Hände des optimalen Spielers, in den Ausnahmen und in den Werttabellen: "
                            "{name}.",
                      "pl": "Układy po dzieleniu gracza optymalnego, w wyjątkach i w tabelach wartości: {name}."},
    "split_short.optimal": {"en": "truly optimal", "de": "wirklich optimal", "pl": "w pełni optymalnie"},
    "summary.gap": {"en": "The chart costs {gap} of the initial bet against optimal play "
                          "(two-card exceptions: {count}).",
                    "de": "Die Tabelle kostet {gap} des Grundeinsatzes gegenüber optimalem Spiel "
                          "(Ausnahmen mit zwei Karten: {count}).",
                    "pl": "Tabela kosztuje {gap} stawki początkowej względem gry optymalnej "
                          "(liczba wyjątków dla dwóch kart: {count})."},
    "vs": {"en": "vs", "de": "gegen", "pl": "przeciw"},
    "and": {"en": "and", "de": "und", "pl": "i"},
    # ----- exceptions ----------------------------------------------------------------
    "exceptions.title": {"en": "Composition-dependent exceptions to the basic strategy",
                         "de": "Kartenabhängige Ausnahmen von der Grundstrategie",
                         "pl": "Wyjątki od strategii podstawowej zależne od składu kart"},
    "exceptions.intro": {"en": "Hands whose best play (exact EV of the hand, conditioned on no dealer "
                               "blackjack where one is settled before play) differs from the chart. The figure "
                               "after each hand is the EV it gains per hand played, in initial bets.",
                         "de": "Hände, deren bestes Spiel (exakter Erwartungswert der Hand, bedingt auf keinen "
                               "Blackjack des Dealers, wo er vor dem Spiel abgerechnet wird) von der Tabelle abweicht. Die "
                               "Zahl nach jeder Hand ist der Gewinn an Erwartungswert je gespielter Hand, in "
                               "Grundeinsätzen.",
                         "pl": "Układy, dla których najlepsza decyzja (dokładna wartość oczekiwana układu, "
                               "pod warunkiem braku blackjacka krupiera, gdy jest on rozliczany przed grą) różni się od "
                               "tabeli. Liczba po każdym układzie to zysk wartości oczekiwanej na rozegrany "
                               "układ, w stawkach początkowych."},
    "exceptions.line": {"en": "{row} vs {up}: {action}, except {items}",
                        "de": "{row} gegen {up}: {action}, außer {items}",
                        "pl": "{row} przeciw {up}: {action}, z wyjątkiem {items}"},
    "exceptions.two_cards": {"en": "Two-card hands", "de": "Hände mit zwei Karten", "pl": "Układy z dwóch kart"},
    "exceptions.three_cards": {"en": "Three-card hands (reached by hitting as the chart says)",
                               "de": "Hände mit drei Karten (erreicht durch Ziehen nach der Tabelle)",
                               "pl": "Układy z trzech kart (osiągnięte przez dobieranie według tabeli)"},
    "exceptions.count": {"en": "Two-card exceptions: {two}; three-card exceptions: {three}.",
                         "de": "Ausnahmen mit zwei Karten: {two}; mit drei Karten: {three}.",
                         "pl": "Liczba wyjątków: {two} dla dwóch kart, {three} dla trzech kart."},
    "exceptions.none": {"en": "(none)", "de": "(keine)", "pl": "(brak)"},
    "exceptions.gain": {"en": "gain per hand", "de": "Gewinn je Hand", "pl": "zysk na układ"},
    "exceptions.round_gain": {"en": "gain per round", "de": "Gewinn je Runde", "pl": "zysk na rundę"},
    "exceptions.chart_action": {"en": "chart", "de": "Tabelle", "pl": "tabela"},
    "exceptions.best_action": {"en": "best", "de": "beste", "pl": "najlepsza"},
    "exceptions.cards": {"en": "cards", "de": "Karten", "pl": "karty"},
    # ----- EV tables -----------------------------------------------------------------
    "evtable.title": {"en": "EV of every decision for every two-card hand",
                      "de": "Erwartungswert jeder Entscheidung für jede Hand mit zwei Karten",
                      "pl": "Wartość oczekiwana każdej decyzji dla każdego układu z dwóch kart"},
    "evtable.intro_split": {"en": "EV in initial bets of each allowed action, with optimal play afterwards "
                                  "(split hands: {split}). {conditioning} Insurance and even money are decided "
                                  "before the hole card is known and are unconditioned. * marks the best action.",
                            "de": "Erwartungswert in Grundeinsätzen jeder erlaubten Entscheidung, danach optimales "
                                  "Spiel (geteilte Hände: {split}). {conditioning} Versicherung und Even Money "
                                  "werden entschieden, bevor die verdeckte Karte bekannt ist, und sind unbedingt. "
                                  "* markiert die beste Entscheidung.",
                            "pl": "Wartość oczekiwana w stawkach początkowych każdej dozwolonej decyzji, potem gra "
                                  "optymalna (układy po dzieleniu: {split}). {conditioning} Ubezpieczenie i Even "
                                  "Money są rozstrzygane, zanim zakryta karta jest znana, i są bezwarunkowe. "
                                  "* oznacza najlepszą decyzję."},
    # ----- sentences made from the rules (ev.present.rule_text) -----
    "cond.part_checked": {"en": "the dealer checks for blackjack under {cards}",
                          "de": "der Dealer prüft unter {cards} auf Blackjack",
                          "pl": "krupier sprawdza blackjacka przy {cards}"},
    "cond.part_original": {"en": "under {cards} the dealer does not check, but a blackjack found after play takes "
                                 "only the original bet, which in expected value is the same as a check",
                           "de": "unter {cards} prüft der Dealer nicht, aber ein erst nach dem Spiel gefundener "
                                 "Blackjack nimmt nur den Grundeinsatz, was im Erwartungswert einer Prüfung gleicht",
                           "pl": "przy {cards} krupier nie sprawdza, ale blackjack odkryty po grze zabiera tylko "
                                 "stawkę początkową, co w wartości oczekiwanej równa się sprawdzeniu"},
    "cond.conditioned": {"en": "The EVs against {cards} are conditioned on no dealer blackjack ({reason}).",
                         "de": "Die Werte gegen {cards} sind bedingt auf keinen Blackjack des Dealers ({reason}).",
                         "pl": "Wartości przeciw {cards} są warunkowe względem braku blackjacka krupiera "
                               "({reason})."},
    "cond.none": {"en": "No dealer blackjack is settled before play (the dealer does not check, and a blackjack "
                        "found after play takes every wager): the EVs are unconditioned.",
                  "de": "Kein Blackjack des Dealers wird vor dem Spiel abgerechnet (der Dealer prüft nicht, und ein "
                        "nach dem Spiel gefundener Blackjack nimmt jeden Einsatz): die Werte sind unbedingt.",
                  "pl": "Żaden blackjack krupiera nie jest rozliczany przed grą (krupier nie sprawdza, a blackjack "
                        "odkryty po grze zabiera każdą stawkę): wartości są bezwarunkowe."},
    "cond.method_title": {"en": "Peek conditioning.", "de": "Bedingung durch die Prüfung.",
                          "pl": "Warunkowanie sprawdzeniem."},
    "cond.method_checked": {"en": "Under {cards} the dealer checks the hole card: a dealer blackjack ends the round "
                                  "before the player acts, and the player loses only the initial bet (less any "
                                  "insurance won).",
                            "de": "Unter {cards} prüft der Dealer die verdeckte Karte: ein Blackjack des Dealers "
                                  "beendet die Runde, bevor der Spieler handelt, und der Spieler verliert nur den "
                                  "Grundeinsatz (abzüglich eines Versicherungsgewinns).",
                            "pl": "Przy {cards} krupier sprawdza zakrytą kartę: blackjack krupiera kończy rundę, "
                                  "zanim gracz podejmie decyzję, a gracz traci tylko stawkę początkową (pomniejszoną "
                                  "o ewentualną wygraną z ubezpieczenia)."},
    "cond.method_original": {"en": "Under {cards} the dealer does not check; a dealer blackjack found after play "
                                   "takes only the original bet, and doubled and split bets are returned.",
                             "de": "Unter {cards} prüft der Dealer nicht; ein nach dem Spiel gefundener Blackjack "
                                   "des Dealers nimmt nur den Grundeinsatz, Verdopplungen und geteilte Einsätze "
                                   "werden zurückgegeben.",
                             "pl": "Przy {cards} krupier nie sprawdza; blackjack krupiera odkryty po grze zabiera "
                                   "tylko stawkę początkową, a stawki z podwojenia i dzielenia są zwracane."},
    "cond.method_all": {"en": "Under {cards} the dealer does not check, and a dealer blackjack found after play "
                              "takes every wager on the table, doubles and splits included.",
                        "de": "Unter {cards} prüft der Dealer nicht, und ein nach dem Spiel gefundener Blackjack "
                              "des Dealers nimmt jeden Einsatz auf dem Tisch, Verdopplungen und Teilungen "
                              "eingeschlossen.",
                        "pl": "Przy {cards} krupier nie sprawdza, a blackjack krupiera odkryty po grze zabiera "
                              "każdą stawkę na stole, łącznie z podwojeniami i dzieleniami."},
    "cond.method_conditioned": {"en": "Every decision against {cards} is therefore made conditioned on no dealer "
                                      "blackjack.",
                                "de": "Jede Entscheidung gegen {cards} ist daher bedingt auf keinen Blackjack des "
                                      "Dealers.",
                                "pl": "Każda decyzja przeciw {cards} jest więc warunkowa względem braku blackjacka "
                                      "krupiera."},
    "cond.method_insurance": {"en": "Insurance and even money are decided before the hole card is known.",
                              "de": "Versicherung und Even Money werden entschieden, bevor die verdeckte Karte "
                                    "bekannt ist.",
                              "pl": "Ubezpieczenie i Even Money są rozstrzygane, zanim zakryta karta jest znana."},
    "mimic.h17": {"en": "Mimic the dealer: hit below 17 and on soft 17, as this dealer does; stand otherwise.",
                  "de": "Wie der Dealer: Ziehen unter 17 und bei weicher 17, wie dieser Dealer; sonst Stehen.",
                  "pl": "Jak krupier: dobieraj poniżej 17 i przy miękkiej 17, jak ten krupier; poza tym stój."},
    "mimic.s17": {"en": "Mimic the dealer: hit below 17 and stand on every 17, as this dealer does.",
                  "de": "Wie der Dealer: Ziehen unter 17 und Stehen bei jeder 17, wie dieser Dealer.",
                  "pl": "Jak krupier: dobieraj poniżej 17 i stój przy każdej 17, jak ten krupier."},
    "splits.none": {"en": "These rules allow no split.", "de": "Diese Regeln erlauben kein Teilen.",
                    "pl": "Te zasady nie pozwalają na dzielenie."},
    "splits.one": {"en": "With one split the split EV is exact (the two hands are exchangeable).",
                   "de": "Mit einem Split ist der Erwartungswert des Teilens exakt (die beiden Hände sind "
                         "austauschbar).",
                   "pl": "Przy jednym dzieleniu wartość oczekiwana dzielenia jest dokładna (oba układy są "
                         "wymienne)."},
    "splits.resplit": {"en": "A pair may be split again up to {n} hands; the split EV is exact (every order of "
                             "the pair cards drawn by the split hands is enumerated).",
                       "de": "Ein Paar darf bis zu {n} Händen erneut geteilt werden; der Erwartungswert des Teilens "
                             "ist exakt (jede Reihenfolge der von den geteilten Händen gezogenen Paarkarten ist "
                             "aufgezählt).",
                       "pl": "Parę można dzielić ponownie do {n} układów; wartość oczekiwana dzielenia jest "
                             "dokładna (wyliczona jest każda kolejność kart pary dobranych przez układy po "
                             "dzieleniu)."},
    "evtable.unconditioned": {"en": "The dealer checks under no up card: the EVs are unconditioned.",
                              "de": "Der Dealer prüft unter keiner Karte: die Werte sind unbedingt.",
                              "pl": "Krupier nie sprawdza przy żadnej karcie: wartości są bezwarunkowe."},
    "evtable.hand": {"en": "hand", "de": "Hand", "pl": "układ"},
    "evtable.up": {"en": "up", "de": "Dealer", "pl": "krupier"},
    "evtable.conditioned": {"en": "conditioned", "de": "bedingt", "pl": "warunkowe"},
    "evtable.natural": {"en": "A-10 is a blackjack: it is paid at once unless the dealer also has blackjack. Where "
                              "even money is offered, it is compared with declining it, whose EV is unconditioned "
                              "(the payout times P(no dealer blackjack)); the better of the two is marked.",
                        "de": "A-10 ist ein Blackjack: er wird sofort ausgezahlt, außer der Dealer hat ebenfalls "
                              "Blackjack. Wo Even Money angeboten wird, wird es mit dem Ablehnen verglichen, dessen "
                              "EV unbedingt ist (Auszahlung mal P(kein Dealer-Blackjack)); das Bessere ist markiert.",
                        "pl": "A-10 to blackjack: jest wypłacany od razu, chyba że krupier też ma blackjacka. Gdy "
                              "oferowana jest równa wypłata, porównuje się ją z rezygnacją z niej, której EV jest "
                              "bezwarunkowa (wypłata razy P(krupier nie ma blackjacka)); lepsza z nich jest oznaczona."},
    # ----- generic -------------------------------------------------------------------
    "rules.label": {"en": "Rules", "de": "Regeln", "pl": "Zasady"},
    "generated": {"en": "Generated by `bjev tables`; do not edit by hand.",
                  "de": "Erzeugt mit `bjev tables`; nicht von Hand bearbeiten.",
                  "pl": "Wygenerowano poleceniem `bjev tables`; nie edytuj ręcznie."},
    # ----- rule summary pieces -------------------------------------------------------
    "rules.decks.one": {"en": "{n} deck", "de": "{n} Deck", "pl": "{n} talia"},
    "rules.decks.few": {"en": "{n} decks", "de": "{n} Decks", "pl": "{n} talie"},
    "rules.decks.many": {"en": "{n} decks", "de": "{n} Decks", "pl": "{n} talii"},
    "rules.h17": {"en": "dealer hits soft 17", "de": "Dealer zieht bei Soft 17",
                  "pl": "krupier dobiera na miękkiej 17"},
    "rules.s17": {"en": "dealer stands on all 17s", "de": "Dealer steht bei jeder 17",
                  "pl": "krupier staje na każdej 17"},
    "rules.payout": {"en": "blackjack pays {payout}", "de": "Blackjack zahlt {payout}",
                     "pl": "blackjack płaci {payout}"},
    "rules.double.any": {"en": "double on any two cards", "de": "Verdoppeln mit beliebigen zwei Karten",
                         "pl": "podwojenie stawki na dowolnych dwóch kartach"},
    "rules.double.range": {"en": "double on {lo}–{hi} only", "de": "Verdoppeln nur bei {lo}–{hi}",
                           "pl": "podwojenie stawki tylko przy {lo}–{hi}"},
    "rules.double.hard": {"en": "(hard totals only)", "de": "(nur harte Hände)", "pl": "(tylko układy twarde)"},
    "rules.das": {"en": "double after split", "de": "Verdoppeln nach Teilen", "pl": "podwojenie po dzieleniu"},
    "rules.no_das": {"en": "no double after split", "de": "kein Verdoppeln nach Teilen",
                     "pl": "bez podwojenia po dzieleniu"},
    "rules.no_split": {"en": "no split", "de": "kein Teilen", "pl": "bez dzielenia"},
    "rules.one_split": {"en": "one split", "de": "nur ein Split", "pl": "tylko jedno dzielenie"},
    "rules.split_to": {"en": "split to {n} hands", "de": "Teilen bis zu {n} Händen",
                       "pl": "dzielenie do {n} układów"},
    "rules.split_aces_one": {"en": "split aces get one card", "de": "geteilte Asse erhalten eine Karte",
                             "pl": "podzielone asy otrzymują jedną kartę"},
    "rules.hit_split_aces": {"en": "split aces may draw", "de": "geteilte Asse dürfen ziehen",
                             "pl": "do rozdzielonych asów można dobierać"},
    "rules.resplit_aces": {"en": "aces may be resplit", "de": "Asse dürfen erneut geteilt werden",
                           "pl": "asy można dzielić ponownie"},
    "rules.split_tens_rank": {"en": "ten-valued pairs split only by rank",
                              "de": "Zehnerpaare nur bei gleichem Rang teilbar",
                              "pl": "pary dziesiątek dzielone tylko przy tej samej figurze"},
    "rules.peek.ace_ten": {"en": "dealer checks for blackjack under an ace or a ten",
                           "de": "Dealer prüft bei Ass oder Zehn auf Blackjack",
                           "pl": "krupier sprawdza blackjacka przy asie lub dziesiątce"},
    "rules.peek.ten": {"en": "dealer checks for blackjack under a ten only",
                       "de": "Dealer prüft nur bei Zehn auf Blackjack",
                       "pl": "krupier sprawdza blackjacka tylko przy dziesiątce"},
    "rules.peek.none": {"en": "no hole card check", "de": "keine Prüfung der verdeckten Karte",
                        "pl": "bez sprawdzania zakrytej karty"},
    "rules.unchecked.all": {"en": "an unchecked dealer blackjack takes all bets",
                            "de": "ein ungeprüfter Blackjack des Dealers nimmt alle Einsätze",
                            "pl": "niesprawdzony blackjack krupiera zabiera wszystkie stawki"},
    "rules.unchecked.original": {"en": "an unchecked dealer blackjack takes the original bet only",
                                 "de": "ein ungeprüfter Blackjack des Dealers nimmt nur den Grundeinsatz",
                                 "pl": "niesprawdzony blackjack krupiera zabiera tylko stawkę początkową"},
    "rules.late_surrender": {"en": "late surrender", "de": "spätes Aufgeben", "pl": "późna rezygnacja"},
    "rules.no_insurance": {"en": "no insurance", "de": "keine Versicherung", "pl": "bez ubezpieczenia"},
    "rules.no_even_money": {"en": "no even money", "de": "kein Even Money", "pl": "bez Even Money"},
}
# the math report's phrases, section by section, and those for a test lab (identification, assumptions,
# strategies, exposure, ...): data modules of their own
MESSAGES.update(REPORT_MESSAGES)
MESSAGES.update(LAB_MESSAGES)


#: Keys that name a phrase kept under another key (each phrase is written once):
#: ``alias -> (key, fields)``; ``fields`` are filled in before the caller's own.
ALIASES: dict[str, tuple[str, dict[str, Any]]] = {
    "evtable.best": ("exceptions.best_action", {}),
    "evtable.intro": ("evtable.intro_split", {"split": "CDZ-"}),
    # the report's words for decisions and hands are the charts'
    "freq.double": ("action.double", {}),
    "freq.split": ("action.split", {}),
    "freq.insurance": ("action.insurance", {}),
    "freq.even_money": ("action.even_money", {}),
    "insurance_title": ("action.insurance", {}),
    "even_title": ("action.even_money", {}),
    "class.blackjack": ("action.blackjack", {}),
    # rule parameter meanings and rule effects that are pieces of the rule summary
    "rule.hit_soft_17": ("rules.h17", {}),
    "rule.double_after_split": ("rules.das", {}),
    "rule.split_aces_one_card": ("rules.split_aces_one", {}),
    "rule.resplit_aces": ("rules.resplit_aces", {}),
    "rule.late_surrender": ("rules.late_surrender", {}),
    "effect.double on any two cards": ("rules.double.any", {}),
    "effect.double after split": ("rules.das", {}),
    "effect.late surrender": ("rules.late_surrender", {}),
    "effect.blackjack pays 6:5": ("rules.payout", {"payout": "6:5"}),
    "effect.2 decks": ("rules.decks.few", {"n": 2}),
    "effect.6 decks": ("rules.decks.many", {"n": 6}),
    "effect.8 decks": ("rules.decks.many", {"n": 8}),
    "effect.1 deck": ("rules.decks.one", {"n": 1}),
    "effect.dealer hits soft 17": ("rules.h17", {}),
    "effect.double on 10-11 only": ("rules.double.range", {"lo": 10, "hi": 11}),
    "effect.no double after split": ("rules.no_das", {}),
    "effect.one split only": ("rules.one_split", {}),
    "effect.blackjack pays 3:2": ("rules.payout", {"payout": "3:2"}),
    "effect.dealer checks under an ace and a ten": ("rules.peek.ace_ten", {}),
}


def check_language(lang: str) -> str:
    """``lang`` if it is supported, else a BJEVError naming the choices."""
    if lang not in LANGUAGES:
        raise BJEVError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    return lang


def plural_form(n: int, lang: str) -> int:
    """The plural form of a count (CLDR): 0 one, 1 few, 2 many.  English and German have one and many;
    Polish "few" is n ending in 2-4 but not 12-14 (2 karty, 22 karty; 5 kart, 12 kart, 25 kart)."""
    if n == 1:
        return 0
    if lang == "pl" and 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return 1
    return 2


#: counted nouns: (one, few, many) per language
NOUNS: dict[str, dict[str, tuple[str, str, str]]] = {
    "cards": {"en": ("card", "cards", "cards"), "de": ("Karte", "Karten", "Karten"), "pl": ("karta", "karty", "kart")},
    "hands": {"en": ("hand", "hands", "hands"), "de": ("Hand", "Hände", "Hände"),
              "pl": ("układ", "układy", "układów")},
    "lines": {"en": ("line", "lines", "lines"), "de": ("Spielweise", "Spielweisen", "Spielweisen"),
              "pl": ("przebieg", "przebiegi", "przebiegów")},
}


def counted(n: int, noun: str, lang: str, shown: str | None = None) -> str:
    """A count with its noun in the right plural form ("52 karty", "25 kart"); ``shown``: the number as printed
    (with the language's digit grouping), default ``str(n)``."""
    return f"{shown if shown is not None else n}\u00a0{NOUNS[noun][check_language(lang)][plural_form(n, lang)]}"


def t(key: str, lang: str = "en", **fields: Any) -> str:
    """The message ``key`` in ``lang``, with ``fields`` filled in."""
    key, preset = ALIASES.get(key, (key, {}))
    text = MESSAGES[key][check_language(lang)]
    fields = {**preset, **fields}
    return text.format(**fields) if fields else text


def has(key: str) -> bool:
    """Whether ``key`` names a message (directly or through :data:`ALIASES`)."""
    return key in MESSAGES or key in ALIASES


def join_and(items: list[str], lang: str = "en") -> str:
    """'A', 'A and 10', 'A, 2 and 10' in ``lang``."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {t('and', lang)} {items[-1]}"


def rules_summary(rules: Any, lang: str = "en") -> str:
    """One line describing a :class:`ev.rules.Rules` in ``lang``."""
    n = rules.decks
    decks_key = ("rules.decks.one", "rules.decks.few", "rules.decks.many")[plural_form(n, "pl")]
    parts = [t(decks_key, lang, n=n),
             t("rules.h17" if rules.hit_soft_17 else "rules.s17", lang),
             t("rules.payout", lang, payout=rules.blackjack_payout)]
    if rules.double == "any":
        double = t("rules.double.any", lang)
        if not rules.double_soft:
            double += " " + t("rules.double.hard", lang)
    else:
        lo, hi = rules.double.split("-")
        double = t("rules.double.range", lang, lo=lo, hi=hi)
    parts.append(double)
    parts.append(t("rules.das" if rules.double_after_split else "rules.no_das", lang))
    if rules.max_split_hands == 1:
        parts.append(t("rules.no_split", lang))
    else:
        parts.append(t("rules.one_split", lang) if rules.max_split_hands == 2
                     else t("rules.split_to", lang, n=rules.max_split_hands))
        parts.append(t("rules.split_aces_one" if rules.split_aces_one_card else "rules.hit_split_aces", lang))
        if rules.resplit_aces and rules.max_split_hands > 2:
            parts.append(t("rules.resplit_aces", lang))
        if rules.split_tens == "rank":
            parts.append(t("rules.split_tens_rank", lang))
    parts.append(t(f"rules.peek.{rules.peek}", lang))
    if rules.peek != "ace_ten":
        parts.append(t(f"rules.unchecked.{rules.unchecked_blackjack_takes}", lang))
    if rules.late_surrender:
        parts.append(t("rules.late_surrender", lang))
    if not rules.insurance:
        parts.append(t("rules.no_insurance", lang))
    if not rules.even_money:
        parts.append(t("rules.no_even_money", lang))
    return ", ".join(parts)
