"""The math report's phrases, section by section (title page, 1. identification ... 9. verification), in
English, German and Polish.

Data only: :mod:`ev.present.i18n` merges :data:`REPORT_MESSAGES` into its one table, so that
:func:`ev.present.i18n.t` answers for these keys like for any other.  Phrases the charts already have are
not repeated here; :data:`ev.present.i18n.ALIASES` points the report's keys at them.
"""
from __future__ import annotations

REPORT_MESSAGES: dict[str, dict[str, str]] = {
    # ----- title page ---------------------------------------------------------------
    "title": {"en": "Mathematical report", "de": "Mathematischer Bericht", "pl": "Raport matematyczny"},
    "subtitle": {"en": "Return to player, volatility and strategy of {game}",
                 "de": "Auszahlungsquote, Volatilität und Strategie von {game}",
                 "pl": "Zwrot dla gracza, zmienność i strategia gry {game}"},
    "generated_by": {"en": "Generated on {date} by bjev {version}. Every figure is computed by exact enumeration "
                           "unless marked as simulated.",
                     "de": "Erstellt am {date} mit bjev {version}. Jede Zahl ist durch exakte Aufzählung "
                           "berechnet, außer sie ist als simuliert gekennzeichnet.",
                     "pl": "Wygenerowano {date} programem bjev {version}. Każda liczba jest obliczona przez "
                           "dokładne wyliczenie, chyba że oznaczono ją jako symulowaną."},
    "key_figures": {"en": "Key figures", "de": "Kennzahlen", "pl": "Najważniejsze wartości"},
    "figure": {"en": "Figure", "de": "Kennzahl", "pl": "Wielkość"},
    "value": {"en": "Value", "de": "Wert", "pl": "Wartość"},
    "page": {"en": "Page {n} of {total}", "de": "Seite {n} von {total}", "pl": "Strona {n} z {total}"},
    "not_available": {"en": "Not available in this report: {reason}.",
                      "de": "In diesem Bericht nicht verfügbar: {reason}.",
                      "pl": "Niedostępne w tym raporcie: {reason}."},
    "total": {"en": "Total", "de": "Summe", "pl": "Razem"},
    "none": {"en": "none", "de": "keine", "pl": "brak"},
    # ----- 1. identification -----------------------------------------------------------
    "s1": {"en": "1. Identification of the game", "de": "1. Identifikation des Spiels",
           "pl": "1. Identyfikacja gry"},
    "game": {"en": "Game", "de": "Spiel", "pl": "Gra"},
    "rules_summary": {"en": "Rules (summary)", "de": "Regeln (Zusammenfassung)", "pl": "Zasady (skrót)"},
    "rules_sha": {"en": "SHA-256 of the rule set", "de": "SHA-256 des Regelsatzes", "pl": "SHA-256 zestawu zasad"},
    "rule_set": {"en": "Rule set", "de": "Regelsatz", "pl": "Zestaw zasad"},
    "rule_set_default": {"en": "the published game (default rules)", "de": "das veröffentlichte Spiel (Standardregeln)",
                         "pl": "opublikowana gra (zasady domyślne)"},
    "rule_set_other": {"en": "a rule set other than the published game",
                       "de": "ein anderer Regelsatz als das veröffentlichte Spiel",
                       "pl": "zestaw zasad inny niż opublikowana gra"},
    "rules_quoted": {"en": "The game's rules as published, quoted in full:",
                     "de": "Die veröffentlichten Spielregeln, vollständig zitiert:",
                     "pl": "Opublikowane zasady gry, przytoczone w całości:"},
    "rules_not_quoted": {"en": "This report is for a rule set that differs from the published game, so the "
                               "published rule text is not quoted; the rules are those in the table below.",
                         "de": "Dieser Bericht gilt für einen Regelsatz, der vom veröffentlichten Spiel abweicht; "
                               "daher wird der veröffentlichte Regeltext nicht zitiert. Es gelten die Regeln der "
                               "folgenden Tabelle.",
                         "pl": "Raport dotyczy zestawu zasad innego niż opublikowana gra, dlatego opublikowany "
                               "tekst zasad nie jest przytoczony; obowiązują zasady z poniższej tabeli."},
    "rule_parameters": {"en": "Rule parameters used in the computation",
                        "de": "In der Berechnung verwendete Regelparameter",
                        "pl": "Parametry zasad użyte w obliczeniach"},
    "parameter": {"en": "Parameter", "de": "Parameter", "pl": "Parametr"},
    "meaning": {"en": "Meaning", "de": "Bedeutung", "pl": "Znaczenie"},
    "readings_title": {"en": "Ambiguous rules and the reading used", "de": "Mehrdeutige Regeln und die verwendete Lesart",
                       "pl": "Niejednoznaczne zasady i przyjęta interpretacja"},
    "reading_peek": {"en": "Peek under an ace. The rule text says that the dealer checks the face-down card "
                           "when the first card is a 10, J, Q or K; it does not say whether the dealer also "
                           "checks under an ace. Reading used: {reading}. The peek-under-ace reading is the one "
                           "that reproduces the published RTP of 99.59 %; section 8 gives the RTP under every "
                           "reading.",
                     "de": "Prüfung unter einem Ass. Die englische Fassung der Regeln sagt, dass der Dealer die "
                           "verdeckte Karte prüft, wenn die erste Karte eine 10, ein Bube, eine Dame oder ein König "
                           "ist; die deutsche Fassung erwähnt die Prüfung nicht. Keine Fassung sagt, ob der Dealer "
                           "auch unter einem Ass prüft. Verwendete Lesart: {reading}. Die Lesart mit Prüfung unter dem "
                           "Ass ergibt die veröffentlichte Auszahlungsquote von 99,59 %; Abschnitt 8 zeigt die "
                           "Auszahlungsquote unter jeder Lesart.",
                     "pl": "Sprawdzanie przy asie. Angielska wersja zasad mówi, że krupier sprawdza zakrytą kartę, "
                           "gdy pierwsza karta to 10, walet, dama lub król; wersja polska nie wspomina o "
                           "sprawdzaniu. Żadna wersja nie mówi, czy krupier sprawdza także przy asie. Przyjęta interpretacja: "
                           "{reading}. Interpretacja ze sprawdzaniem przy asie odtwarza opublikowany zwrot 99,59 %; "
                           "sekcja 8 podaje RTP dla każdej interpretacji."},
    "reading_unchecked": {"en": "What an unchecked dealer blackjack takes. The rule text does not say whether a "
                                "dealer blackjack found only at the end of the round takes the doubled and split "
                                "bets too, or only the original bet. Reading used: {reading}.",
                          "de": "Was ein ungeprüfter Blackjack des Dealers nimmt. Der Regeltext sagt nicht, ob "
                                "ein erst am Ende der Runde aufgedeckter Blackjack des Dealers auch die "
                                "Verdopplungs- und Teilungseinsätze nimmt oder nur den Grundeinsatz. Verwendete "
                                "Lesart: {reading}.",
                          "pl": "Co zabiera niesprawdzony blackjack krupiera. Tekst zasad nie mówi, czy blackjack "
                                "krupiera odkryty dopiero na końcu rundy zabiera także stawki z podwojenia i "
                                "dzielenia, czy tylko stawkę początkową. Przyjęta interpretacja: {reading}."},
    "reading_unchecked_moot": {"en": "the question does not arise, because the dealer checks under both an ace "
                                     "and a ten-valued card, the only up cards that can make a blackjack",
                               "de": "die Frage stellt sich nicht, weil der Dealer unter Ass und Zehnerkarte "
                                     "prüft, den einzigen Karten, mit denen er Blackjack haben kann",
                               "pl": "pytanie nie ma zastosowania, ponieważ krupier sprawdza przy asie i przy "
                                     "karcie o wartości 10, jedynych kartach, z którymi może mieć blackjacka"},
    "peek.ace_ten": {"en": "the dealer checks for blackjack under an ace and under a ten-valued card",
                     "de": "der Dealer prüft unter Ass und unter Zehnerkarte auf Blackjack",
                     "pl": "krupier sprawdza blackjacka przy asie i przy karcie o wartości 10"},
    "peek.ten": {"en": "the dealer checks for blackjack under a ten-valued card only",
                 "de": "der Dealer prüft nur unter einer Zehnerkarte auf Blackjack",
                 "pl": "krupier sprawdza blackjacka tylko przy karcie o wartości 10"},
    "peek.none": {"en": "the dealer never checks the hole card", "de": "der Dealer prüft die verdeckte Karte nie",
                  "pl": "krupier nigdy nie sprawdza zakrytej karty"},
    "unchecked.all": {"en": "it takes all bets on the table, doubles and splits included",
                      "de": "er nimmt alle Einsätze, auch Verdopplungs- und Teilungseinsätze",
                      "pl": "zabiera wszystkie stawki, także z podwojenia i dzielenia"},
    "unchecked.original": {"en": "it takes the original bet only; doubled and split bets are returned",
                           "de": "er nimmt nur den Grundeinsatz; Verdopplungs- und Teilungseinsätze werden "
                                 "zurückgegeben",
                           "pl": "zabiera tylko stawkę początkową; stawki z podwojenia i dzielenia są zwracane"},
    # rule parameter meanings
    "rule.decks": {"en": "52-card decks, shuffled before every round", "de": "Decks zu 52 Karten, vor jeder Runde gemischt",
                   "pl": "talie 52 kart, tasowane przed każdą rundą"},
    "rule.blackjack_payout": {"en": "blackjack pays", "de": "Blackjack wird ausbezahlt", "pl": "wypłata za blackjacka"},
    "rule.double": {"en": "first two cards that may double", "de": "erste zwei Karten, mit denen verdoppelt werden darf",
                    "pl": "dwie pierwsze karty, przy których wolno podwoić stawkę"},
    "rule.double_soft": {"en": "soft hands may double (where the total allows)",
                         "de": "„Soft“-Hände dürfen verdoppeln (wo die Summe es erlaubt)",
                         "pl": "układy miękkie mogą podwoić (gdy suma na to pozwala)"},
    "rule.max_split_hands": {"en": "most hands a split can make (2: one split)",
                             "de": "Höchstzahl der Hände durch Teilen (2: ein Split)",
                             "pl": "największa liczba układów z dzielenia (2: jedno dzielenie)"},
    "rule.split_tens": {"en": "ten-valued pairs split by value or only by rank",
                        "de": "Zehnerpaare nach Wert oder nur nach Rang teilbar",
                        "pl": "pary dziesiątek dzielone według wartości lub tylko tej samej figury"},
    "rule.peek": {"en": "up cards under which the dealer checks for blackjack",
                  "de": "Karten, unter denen der Dealer auf Blackjack prüft",
                  "pl": "karty, przy których krupier sprawdza blackjacka"},
    "rule.unchecked_blackjack_takes": {"en": "what an unchecked dealer blackjack takes",
                                       "de": "was ein ungeprüfter Blackjack des Dealers nimmt",
                                       "pl": "co zabiera niesprawdzony blackjack krupiera"},
    "rule.insurance": {"en": "insurance offered under an ace", "de": "Versicherung unter einem Ass angeboten",
                       "pl": "ubezpieczenie oferowane przy asie"},
    "rule.even_money": {"en": "even money offered to a blackjack under an ace",
                        "de": "Even Money für einen Blackjack unter einem Ass angeboten",
                        "pl": "Even Money oferowane przy blackjacku gracza i asie krupiera"},
    # ----- 2. method ----------------------------------------------------------------------
    "s2": {"en": "2. Method", "de": "2. Methode", "pl": "2. Metoda"},
    "method_enum": {"en": "Exact enumeration. Every initial deal (the dealer's up card and the player's two cards) "
                          "is weighted by its exact probability from the full composition of {cards} cards, and "
                          "every later card is drawn from the exact remaining composition: no infinite-deck "
                          "approximation and no sampling. The dealer's final total is enumerated over every "
                          "drawing sequence; the player's decisions are found by recursion over every reachable "
                          "hand.",
                    "de": "Exakte Aufzählung. Jede Anfangsausteilung (aufgedeckte Karte des Dealers und die zwei "
                          "Karten des Spielers) wird mit ihrer exakten Wahrscheinlichkeit aus der vollständigen "
                          "Zusammensetzung von {cards} Karten gewichtet, und jede weitere Karte wird aus der exakten "
                          "Restzusammensetzung gezogen: keine Näherung mit unendlichem Deck und keine Stichprobe. "
                          "Die Endsumme des Dealers wird über jede Ziehfolge aufgezählt; die Entscheidungen des "
                          "Spielers werden rekursiv über jede erreichbare Hand bestimmt.",
                    "pl": "Dokładne wyliczenie. Każde rozdanie początkowe (odkryta karta krupiera i dwie karty "
                          "gracza) jest ważone dokładnym prawdopodobieństwem z pełnego składu {cards} kart, a każda "
                          "następna karta jest dobierana z dokładnego pozostałego składu: bez przybliżenia "
                          "nieskończonej talii i bez losowania. Końcowa suma krupiera jest wyliczana dla każdej "
                          "sekwencji dobierania; decyzje gracza są wyznaczane rekurencyjnie dla każdego osiągalnego "
                          "układu."},
    "method_peek": {"en": "Peek conditioning. Where the dealer checks the hole card, a dealer blackjack ends the "
                          "round before the player acts, and the player loses only the initial bet (less any "
                          "insurance won). Every decision afterwards is made conditioned on no dealer blackjack: "
                          "the hole card is not an ace under a ten, and not a ten under an ace. Insurance and even "
                          "money are decided before the check.",
                    "de": "Bedingung durch die Prüfung. Wo der Dealer die verdeckte Karte prüft, beendet ein "
                          "Blackjack des Dealers die Runde, bevor der Spieler handelt, und der Spieler verliert "
                          "nur den Grundeinsatz (abzüglich eines Versicherungsgewinns). Jede spätere Entscheidung "
                          "ist bedingt auf keinen Blackjack des Dealers: unter einer Zehn ist die verdeckte Karte "
                          "kein Ass, unter einem Ass keine Zehn. Versicherung und Even Money werden vor der Prüfung "
                          "entschieden.",
                    "pl": "Warunkowanie sprawdzeniem. Gdy krupier sprawdza zakrytą kartę, blackjack krupiera "
                          "kończy rundę, zanim gracz podejmie decyzję, a gracz traci tylko stawkę początkową "
                          "(pomniejszoną o ewentualną wygraną z ubezpieczenia). Każda późniejsza decyzja jest "
                          "warunkowa względem braku blackjacka krupiera: przy dziesiątce zakryta karta nie jest "
                          "asem, przy asie nie jest dziesiątką. Ubezpieczenie i Even Money są rozstrzygane przed "
                          "sprawdzeniem."},
    "method_split": {"en": "Play and splits. The player plays the optimal composition-dependent strategy: each decision depends on the exact cards of the hand and the up card. Split hands: {name}. {exactness}", "de": "Spiel und Teilen. Der Spieler spielt die optimale kartenabhängige Strategie: jede Entscheidung hängt von den genauen Karten der Hand und der aufgedeckten Karte ab. Geteilte Hände: {name}. {exactness}", "pl": "Gra i dzielenie. Gracz stosuje optymalną strategię zależną od składu kart: każda decyzja zależy od dokładnych kart układu i odkrytej karty krupiera. Układy po dzieleniu: {name}. {exactness}"},
    "split.cdz": {"en": "CDZ-, each split hand is played as the same unsplit hand would be",
                  "de": "CDZ-, jede geteilte Hand wird wie dieselbe ungeteilte Hand gespielt",
                  "pl": "CDZ-, każdy układ po dzieleniu jest rozgrywany jak ten sam układ bez dzielenia"},
    "split.cdp1": {"en": "CDP1, split hands are played optimally knowing the other pair card is gone",
                   "de": "CDP1, geteilte Hände werden optimal gespielt im Wissen, dass die andere Paarkarte fehlt",
                   "pl": "CDP1, układy po dzieleniu są rozgrywane optymalnie przy wiedzy, że drugiej karty pary "
                         "już nie ma"},
    "split.cdp": {"en": "CDP, as CDP1, also varying with pair cards removed by resplits",
                  "de": "CDP, wie CDP1, zusätzlich abhängig von durch erneutes Teilen entfernten Paarkarten",
                  "pl": "CDP, jak CDP1, dodatkowo zależnie od kart pary usuniętych przez ponowne dzielenie"},
    "split.optimal": {"en": "truly optimal: each split hand is played knowing every card seen, the first hand "
                            "knowing that a second follows (one split)",
                      "de": "wirklich optimal: jede geteilte Hand wird in Kenntnis aller gesehenen Karten gespielt, "
                            "die erste im Wissen, dass eine zweite folgt (ein Split)",
                      "pl": "w pełni optymalnie: każdy układ po dzieleniu jest rozgrywany przy znajomości wszystkich "
                            "widzianych kart, pierwszy przy wiedzy, że nastąpi drugi (jedno dzielenie)"},
    "split.basic": {"en": "basic-strategy chart", "de": "Grundstrategie-Tabelle", "pl": "tabela strategii podstawowej"},
    "method_rtp": {"en": "RTP conventions. Per initial bet: RTP = 1 + EV, where EV is the expected net result of a round in initial bets. Per total wagered: RTP = (E[W] + EV) / E[W], where E[W] is the expected total stake of a round: the initial bet, doubles, split bets, and insurance or even money when taken. The net result counts everything won less everything staked, insurance included.", "de": "Konventionen der Auszahlungsquote (RTP). Je Grundeinsatz: RTP = 1 + EV, wobei EV das erwartete Nettoergebnis einer Runde in Grundeinsätzen ist. Je Gesamteinsatz: RTP = (E[W] + EV) / E[W], wobei E[W] der erwartete Gesamteinsatz einer Runde ist: Grundeinsatz, Verdopplungen, Teilungseinsätze sowie Versicherung oder Even Money, falls genommen. Das Nettoergebnis ist alles Gewonnene abzüglich aller Einsätze, einschließlich Versicherung.", "pl": "Konwencje zwrotu dla gracza (RTP). Na stawkę początkową: RTP = 1 + EV, gdzie EV to oczekiwany wynik netto rundy w stawkach początkowych. Na łączną stawkę: RTP = (E[W] + EV) / E[W], gdzie E[W] to oczekiwana łączna stawka rundy: stawka początkowa, podwojenia, stawki z dzielenia oraz ubezpieczenie lub Even Money, jeśli przyjęte. Wynik netto to wszystkie wygrane minus wszystkie stawki, łącznie z ubezpieczeniem."},
    "software": {"en": "Software", "de": "Software", "pl": "Oprogramowanie"},
    "git_commit": {"en": "Source commit (git)", "de": "Quellcode-Commit (git)", "pl": "Commit kodu źródłowego (git)"},
    "git_unknown": {"en": "not available (not run from a git checkout)",
                    "de": "nicht verfügbar (nicht aus einem git-Checkout ausgeführt)",
                    "pl": "niedostępny (uruchomiono poza repozytorium git)"},
    "date": {"en": "Date of the report (UTC)", "de": "Datum des Berichts (UTC)", "pl": "Data raportu (UTC)"},
    "split_strategy": {"en": "Split strategy", "de": "Strategie nach dem Teilen", "pl": "Strategia po dzieleniu"},
    # ----- 3. RTP -----------------------------------------------------------------------------
    "s3": {"en": "3. Return to player (RTP)", "de": "3. Auszahlungsquote (RTP)", "pl": "3. Zwrot dla gracza (RTP)"},
    "ev": {"en": "EV per initial bet", "de": "Erwartungswert je Grundeinsatz", "pl": "Wartość oczekiwana na stawkę początkową"},
    "house_edge": {"en": "House edge per initial bet (−EV)", "de": "Hausvorteil je Grundeinsatz (−EV)",
                   "pl": "Przewaga kasyna na stawkę początkową (−EV)"},
    "rtp_initial": {"en": "RTP per initial bet (1 + EV)", "de": "RTP je Grundeinsatz (1 + EV)",
                    "pl": "RTP na stawkę początkową (1 + EV)"},
    "expected_wager": {"en": "Expected total stake E[W], initial bets", "de": "Erwarteter Gesamteinsatz E[W], in Grundeinsätzen",
                       "pl": "Oczekiwana łączna stawka E[W], w stawkach początkowych"},
    "rtp_total_wagered": {"en": "RTP per total wagered ((E[W] + EV) / E[W])",
                          "de": "RTP je Gesamteinsatz ((E[W] + EV) / E[W])",
                          "pl": "RTP na łączną stawkę ((E[W] + EV) / E[W])"},
    "house_edge_tw": {"en": "House edge per total wagered", "de": "Hausvorteil je Gesamteinsatz",
                      "pl": "Przewaga kasyna na łączną stawkę"},
    "rtp_published": {"en": "The total-wagered convention gives {value}, which rounds to {rounded}: the published "
                            "RTP of 99.59 % (\"calculated as total win/total bet with optimal strategy\"). Per "
                            "initial bet the same game returns {initial}.",
                      "de": "Die Konvention je Gesamteinsatz ergibt {value}, gerundet {rounded}: die "
                            "veröffentlichte Auszahlungsquote von 99,59 % („berechnet als Gesamtgewinn/Gesamteinsatz "
                            "mit optimaler Strategie“). Je Grundeinsatz zahlt dasselbe Spiel {initial} aus.",
                      "pl": "Konwencja łącznej stawki daje {value}, po zaokrągleniu {rounded}: opublikowany zwrot "
                            "99,59 % („stanowiący łączną wartość wygranych/zakładów”; zasady nie mówią o strategii "
                            "optymalnej, wartość dotyczy gry optymalnej). Na stawkę początkową ta sama gra zwraca "
                            "{initial}."},
    "rtp_not_published": {"en": "The total-wagered convention gives {value} (rounded {rounded}); the game's published RTP is {published}, so the two do not agree at the published precision. Per initial bet: {initial}.", "de": "Die Konvention je Gesamteinsatz ergibt {value} (gerundet {rounded}); die veröffentlichte Auszahlungsquote des Spiels ist {published}, beide stimmen bei der veröffentlichten Genauigkeit nicht überein. Je Grundeinsatz: {initial}.", "pl": "Konwencja łącznej stawki daje {value} (po zaokrągleniu {rounded}); opublikowany zwrot gry to {published}, więc obie liczby nie zgadzają się z opublikowaną dokładnością. Na stawkę początkową: {initial}."},
    "rtp_published_meta": {"en": "The RTP {convention} is {value}, which rounds to {rounded}: the published RTP of {published} (metadata field published_rtp, {convention}).", "de": "Die Auszahlungsquote {convention} ist {value}, gerundet {rounded}: die veröffentlichte Auszahlungsquote von {published} (Metadatenfeld published_rtp, {convention}).", "pl": "RTP {convention} wynosi {value}, po zaokrągleniu {rounded}: opublikowany zwrot {published} (pole metadanych published_rtp, {convention})."},
    "rtp_differs_meta": {"en": "The RTP {convention} is {value}; the published RTP is {published} (metadata field published_rtp, {convention}), {diff} percentage points away: the two do not agree at the published precision.", "de": "Die Auszahlungsquote {convention} ist {value}; die veröffentlichte ist {published} (Metadatenfeld published_rtp, {convention}), {diff} Prozentpunkte entfernt: beide stimmen bei der veröffentlichten Genauigkeit nicht überein.", "pl": "RTP {convention} wynosi {value}; opublikowany zwrot to {published} (pole metadanych published_rtp, {convention}), różnica {diff} punktu procentowego: obie liczby nie zgadzają się z opublikowaną dokładnością."},
    "rtp_no_published": {"en": "No published RTP was given for this game (metadata field published_rtp), so this report compares its figures with none.", "de": "Für dieses Spiel wurde keine veröffentlichte Auszahlungsquote angegeben (Metadatenfeld published_rtp); dieser Bericht vergleicht seine Zahlen daher mit keiner.", "pl": "Dla tej gry nie podano opublikowanego zwrotu (pole metadanych published_rtp), więc raport nie porównuje swoich liczb z żadnym."},
    "convention.total_wagered": {"en": "per total wagered", "de": "je Gesamteinsatz", "pl": "od łącznej stawki"},
    "convention.initial_bet": {"en": "per initial bet", "de": "je Grundeinsatz", "pl": "od stawki początkowej"},
    "exact_title": {"en": "Exact fractions (exact rational mode)", "de": "Exakte Brüche (exakter rationaler Modus)",
                    "pl": "Dokładne ułamki (tryb wymierny)"},
    "exact_ev": {"en": "EV per initial bet, exact", "de": "Erwartungswert je Grundeinsatz, exakt",
                 "pl": "Wartość oczekiwana na stawkę początkową, dokładnie"},
    "exact_rtp": {"en": "RTP per initial bet, exact", "de": "RTP je Grundeinsatz, exakt",
                  "pl": "RTP na stawkę początkową, dokładnie"},
    "exact_decimal": {"en": "to 20 significant digits", "de": "auf 20 signifikante Stellen",
                      "pl": "z dokładnością do 20 cyfr znaczących"},
    "exact_wager": {"en": "Expected total stake E[W], exact", "de": "Erwarteter Gesamteinsatz E[W], exakt",
                    "pl": "Oczekiwana łączna stawka E[W], dokładnie"},
    "exact_rtp_tw": {"en": "RTP per total wagered, exact", "de": "RTP je Gesamteinsatz, exakt",
                     "pl": "RTP na łączną stawkę, dokładnie"},
    "exact_note": {"en": "Exact reduced fractions from the exact rational mode (bjev rtp --exact); the decimals are "
                         "rounded, the fractions are not.",
                   "de": "Exakte gekürzte Brüche aus dem exakten rationalen Modus (bjev rtp --exact); die "
                         "Dezimalzahlen sind gerundet, die Brüche nicht.",
                   "pl": "Dokładne ułamki nieskracalne z trybu wymiernego (bjev rtp --exact); liczby dziesiętne są "
                         "zaokrąglone, ułamki nie."},
    "by_strategy": {"en": "RTP by player strategy", "de": "RTP nach Strategie des Spielers",
                    "pl": "RTP według strategii gracza"},
    "strategy": {"en": "Strategy", "de": "Strategie", "pl": "Strategia"},
    "strategy.cdz": {"en": "optimal CD play, CDZ- splits", "de": "optimales kartenabhängiges Spiel, CDZ-",
                     "pl": "optymalna gra zależna od składu, CDZ-"},
    "strategy.cdp1": {"en": "optimal CD play, CDP1 splits", "de": "optimales kartenabhängiges Spiel, CDP1",
                      "pl": "optymalna gra zależna od składu, CDP1"},
    "strategy.cdp": {"en": "optimal CD play, CDP splits", "de": "optimales kartenabhängiges Spiel, CDP",
                     "pl": "optymalna gra zależna od składu, CDP"},
    "strategy.optimal": {"en": "optimal CD play, truly optimal splits",
                         "de": "optimales kartenabhängiges Spiel, wirklich optimales Teilen",
                         "pl": "optymalna gra zależna od składu, w pełni optymalne dzielenie"},
    "strategy.basic": {"en": "basic-strategy chart (total-dependent)", "de": "Grundstrategie-Tabelle (nach Punktsumme)",
                       "pl": "tabela strategii podstawowej (według sumy)"},
    "rtp_i_short": {"en": "RTP per initial bet", "de": "RTP je Grundeinsatz", "pl": "RTP na stawkę początkową"},
    "rtp_tw_short": {"en": "RTP per total wagered", "de": "RTP je Gesamteinsatz", "pl": "RTP na łączną stawkę"},
    "ev_short": {"en": "EV", "de": "EV", "pl": "EV"},
    "ew_short": {"en": "E[W]", "de": "E[W]", "pl": "E[W]"},
    "no_chart_rtp": {"en": "The basic-strategy chart's RTP is not in this report: {reason}.",
                     "de": "Die RTP der Grundstrategie-Tabelle ist nicht in diesem Bericht: {reason}.",
                     "pl": "RTP tabeli strategii podstawowej nie ma w tym raporcie: {reason}."},
    # ----- 4. up cards --------------------------------------------------------------------------
    "s4": {"en": "4. Results by dealer up card", "de": "4. Ergebnisse nach aufgedeckter Karte des Dealers",
           "pl": "4. Wyniki według odkrytej karty krupiera"},
    "up": {"en": "Up card", "de": "Dealerkarte", "pl": "Karta krupiera"},
    "p_up": {"en": "P(up card)", "de": "P(Dealerkarte)", "pl": "P(karta krupiera)"},
    "ev_given_up": {"en": "EV given the up card", "de": "Erwartungswert bei dieser Karte", "pl": "EV przy tej karcie"},
    "contribution": {"en": "P × EV", "de": "P × EV", "pl": "P × EV"},
    "ev_by_up_note": {"en": "EV in initial bets under optimal play, including the initial bets lost to dealer "
                            "blackjacks; Σ P(up card) × EV = {ev}. T is any ten-valued card (10, J, Q, K).",
                      "de": "Erwartungswert in Grundeinsätzen bei optimalem Spiel, einschließlich der an "
                            "Blackjacks des Dealers verlorenen Grundeinsätze; Σ P(Karte) × EV = {ev}. T ist jede "
                            "Karte mit dem Wert 10 (10, Bube, Dame, König).",
                      "pl": "Wartość oczekiwana w stawkach początkowych przy grze optymalnej, łącznie ze stawkami "
                            "przegranymi z blackjackiem krupiera; Σ P(karta) × EV = {ev}. T to dowolna karta o "
                            "wartości 10 (10, walet, dama, król)."},
    "fig_ev_by_up": {"en": "EV by dealer up card (initial bets)", "de": "Erwartungswert nach Dealerkarte (Grundeinsätze)",
                     "pl": "Wartość oczekiwana według karty krupiera (stawki początkowe)"},
    "dealer_title": {"en": "Dealer's final outcome from a full deck", "de": "Endergebnis des Dealers aus vollem Deck",
                     "pl": "Końcowy wynik krupiera z pełnej talii"},
    "dealer_note": {"en": "Probabilities given the up card only (the player's cards unknown), unconditioned: "
                          "a blackjack is counted where the hole card makes one.",
                    "de": "Wahrscheinlichkeiten nur bei bekannter Dealerkarte (Karten des Spielers unbekannt), "
                          "unbedingt: ein Blackjack zählt, wo die verdeckte Karte ihn ergibt.",
                    "pl": "Prawdopodobieństwa przy znanej tylko karcie krupiera (karty gracza nieznane), "
                          "bezwarunkowe: blackjack jest liczony, gdy zakryta karta go tworzy."},
    "dealer_cond_title": {"en": "Dealer's final outcome given no dealer blackjack", "de": "Endergebnis des Dealers ohne Blackjack des Dealers", "pl": "Końcowy wynik krupiera bez blackjacka krupiera"},
    "dealer_cond_note": {"en": "Only the up cards against which play is conditioned on no dealer blackjack differ from the table above: {reason}.", "de": "Nur die Karten, gegen die das Spiel auf keinen Blackjack des Dealers bedingt ist, weichen von der Tabelle oben ab: {reason}.", "pl": "Od tabeli powyżej różnią się tylko karty, przy których gra jest warunkowa względem braku blackjacka krupiera: {reason}."},
    "dist_independent": {"en": "With resplits this distribution scores the hands of three- and four-hand splits as independent given the dealer's outcome, each with its exact marginal: its mean lies {gap} initial bets from the exact EV, and the SD and skewness carry an error of that order. The EV, E[W] and both RTPs of section 3 are exact under CDZ- (E[W] from each split hand's own stake, by the resplit formula); under CDP1 or CDP, E[W] comes from this distribution.", "de": "Mit erneutem Teilen bewertet diese Verteilung die Hände von Teilungen zu drei und vier Händen als unabhängig bei gegebenem Endergebnis des Dealers, jede mit ihrer exakten Randverteilung: ihr Mittelwert liegt {gap} Grundeinsätze vom exakten Erwartungswert, und Standardabweichung und Schiefe tragen einen Fehler dieser Größe. Erwartungswert, E[W] und beide RTP in Abschnitt 3 sind unter CDZ- exakt (E[W] aus dem Einsatz jeder geteilten Hand, nach der Formel für erneutes Teilen); unter CDP1 oder CDP stammt E[W] aus dieser Verteilung.", "pl": "Przy ponownym dzieleniu ten rozkład traktuje układy z dzieleń na trzy i cztery układy jako niezależne przy danym wyniku krupiera, każdy z dokładnym rozkładem brzegowym: jego średnia różni się o {gap} stawki początkowej od dokładnej wartości oczekiwanej, a odchylenie standardowe i skośność obarczone są błędem tego rzędu. Wartość oczekiwana, E[W] i oba RTP z sekcji 3 są dokładne przy CDZ- (E[W] ze stawki każdego układu po dzieleniu, według wzoru na ponowne dzielenie); przy CDP1 lub CDP E[W] pochodzi z tego rozkładu."},
    "dealer_cond_none": {"en": "The dealer checks under no up card: there is no conditioned table.",
                         "de": "Der Dealer prüft unter keiner Karte: es gibt keine bedingte Tabelle.",
                         "pl": "Krupier nie sprawdza przy żadnej karcie: brak tabeli warunkowej."},
    "outcome.bust": {"en": "bust", "de": "Überkauft", "pl": "fura"},
    "outcome.blackjack": {"en": "BJ", "de": "BJ", "pl": "BJ"},
    "deals_title": {"en": "Initial deal classes", "de": "Klassen der Anfangsausteilung", "pl": "Klasy rozdań początkowych"},
    "deals_note": {"en": "Joint probability of the up card and the class of the player's two cards. Pairs include "
                         "A-A and any two ten-valued cards; soft: an ace with a card other than an ace or a ten.",
                   "de": "Gemeinsame Wahrscheinlichkeit der Dealerkarte und der Klasse der zwei Karten des "
                         "Spielers. Paare umfassen A-A und zwei beliebige Zehnerkarten; „Soft“: ein Ass mit einer "
                         "Karte außer Ass oder Zehn.",
                   "pl": "Łączne prawdopodobieństwo karty krupiera i klasy dwóch kart gracza. Pary obejmują A-A i "
                         "dowolne dwie karty o wartości 10; miękkie: as z kartą inną niż as lub dziesiątka."},
    "class.pair": {"en": "Pair", "de": "Paar", "pl": "Para"},
    "class.soft": {"en": "Soft", "de": "Weich", "pl": "Miękki"},
    "class.hard": {"en": "Hard", "de": "Hart", "pl": "Twardy"},
    # ----- 5. decisions ----------------------------------------------------------------------
    "s5": {"en": "5. Decisions and stakes", "de": "5. Entscheidungen und Einsätze", "pl": "5. Decyzje i stawki"},
    "p_double": {"en": "P(Double) in a round", "de": "P(Verdoppeln) je Runde", "pl": "P(Podwojenie stawki) w rundzie"},
    "p_split": {"en": "P(Split) in a round", "de": "P(Teilen) je Runde", "pl": "P(Dzielenie) w rundzie"},
    "p_insurance": {"en": "P(Insurance taken)", "de": "P(Versicherung genommen)", "pl": "P(Ubezpieczenie przyjęte)"},
    "p_even_money": {"en": "P(Even money taken)", "de": "P(Even Money genommen)", "pl": "P(Even Money przyjęte)"},
    "p_player_bj": {"en": "P(player blackjack)", "de": "P(Blackjack des Spielers)", "pl": "P(blackjack gracza)"},
    "p_dealer_bj": {"en": "P(dealer blackjack)", "de": "P(Blackjack des Dealers)", "pl": "P(blackjack krupiera)"},
    "insurance_intro": {"en": "The insurance bet costs half the initial bet and pays 2 to 1. Its EV per initial bet "
                              "is 0.5 × (3 × P(dealer blackjack) − 1), where P(dealer blackjack) is the share of "
                              "ten-valued cards among the cards left after the up card and the player's two cards.",
                        "de": "Die Versicherung kostet die Hälfte des Grundeinsatzes und zahlt 2 zu 1. Ihr "
                              "Erwartungswert je Grundeinsatz ist 0,5 × (3 × P(Blackjack des Dealers) − 1), wobei "
                              "P(Blackjack des Dealers) der Anteil der Zehnerkarten unter den nach Dealerkarte und "
                              "den zwei Karten des Spielers verbleibenden Karten ist.",
                        "pl": "Ubezpieczenie kosztuje połowę stawki początkowej i płaci 2 do 1. Jego wartość "
                              "oczekiwana na stawkę początkową to 0,5 × (3 × P(blackjack krupiera) − 1), gdzie "
                              "P(blackjack krupiera) to udział kart o wartości 10 wśród kart pozostałych po karcie "
                              "krupiera i dwóch kartach gracza."},
    "tens_in_hand": {"en": "Ten-valued cards in the player's hand", "de": "Zehnerkarten in der Hand des Spielers",
                     "pl": "Karty o wartości 10 w układzie gracza"},
    "p_hand_given_ace": {"en": "P(hand | ace up)", "de": "P(Hand | Ass)", "pl": "P(układ | as)"},
    "insurance_ev": {"en": "Insurance EV (initial bets)", "de": "EV der Versicherung (Grundeinsätze)",
                     "pl": "EV ubezpieczenia (stawki początkowe)"},
    "take": {"en": "Take?", "de": "Nehmen?", "pl": "Przyjąć?"},
    "insurance_never": {"en": "Insurance has a negative EV for every player hand, so it is never worth taking in "
                              "this game (best case {best} per initial bet).",
                        "de": "Die Versicherung hat für jede Hand des Spielers einen negativen Erwartungswert und "
                              "lohnt sich in diesem Spiel daher nie (bester Fall {best} je Grundeinsatz).",
                        "pl": "Ubezpieczenie ma ujemną wartość oczekiwaną dla każdego układu gracza, więc w tej "
                              "grze nigdy się nie opłaca (najlepszy przypadek {best} na stawkę początkową)."},
    "insurance_sometimes": {"en": "Insurance has a positive EV for some player hands (best {best} per initial bet); "
                                  "optimal play takes it there.",
                            "de": "Die Versicherung hat für manche Hände einen positiven Erwartungswert (bester "
                                  "Fall {best} je Grundeinsatz); optimales Spiel nimmt sie dort.",
                            "pl": "Ubezpieczenie ma dodatnią wartość oczekiwaną dla niektórych układów (najlepiej "
                                  "{best} na stawkę początkową); gra optymalna wtedy je przyjmuje."},
    "insurance_off": {"en": "Insurance is not offered under these rules.",
                      "de": "Eine Versicherung wird nach diesen Regeln nicht angeboten.",
                      "pl": "Według tych zasad ubezpieczenie nie jest oferowane."},
    "even_text": {"en": "With a blackjack against an ace, P(dealer blackjack) = {p}. Taking even money is worth "
                        "{taken} per initial bet; declining is worth {payout} × (1 − {p}) = {declined}. Declining "
                        "is better by {diff} per initial bet: {verdict}.",
                  "de": "Mit einem Blackjack gegen ein Ass ist P(Blackjack des Dealers) = {p}. Even Money bringt "
                        "{taken} je Grundeinsatz; Ablehnen bringt {payout} × (1 − {p}) = {declined}. Ablehnen ist "
                        "um {diff} je Grundeinsatz besser: {verdict}.",
                  "pl": "Z blackjackiem przeciw asowi P(blackjack krupiera) = {p}. Przyjęcie Even Money jest warte "
                        "{taken} na stawkę początkową; odmowa jest warta {payout} × (1 − {p}) = {declined}. Odmowa "
                        "jest lepsza o {diff} na stawkę początkową: {verdict}."},
    "even_decline": {"en": "even money is never worth taking in this game",
                     "de": "Even Money lohnt sich in diesem Spiel nie",
                     "pl": "Even Money nigdy się w tej grze nie opłaca"},
    "even_take": {"en": "optimal play takes even money", "de": "optimales Spiel nimmt Even Money",
                  "pl": "gra optymalna przyjmuje Even Money"},
    "even_off": {"en": "Even money is not offered under these rules.",
                 "de": "Even Money wird nach diesen Regeln nicht angeboten.",
                 "pl": "Według tych zasad Even Money nie jest oferowane."},
    # ----- 6. volatility -------------------------------------------------------------------------
    "s6": {"en": "6. Volatility", "de": "6. Volatilität", "pl": "6. Zmienność"},
    "dist_title": {"en": "Exact distribution of the net result of a round",
                   "de": "Exakte Verteilung des Nettoergebnisses einer Runde",
                   "pl": "Dokładny rozkład wyniku netto rundy"},
    "net": {"en": "Net result (initial bets)", "de": "Nettoergebnis (Grundeinsätze)", "pl": "Wynik netto (stawki początkowe)"},
    "probability": {"en": "Probability", "de": "Wahrscheinlichkeit", "pl": "Prawdopodobieństwo"},
    "fig_dist": {"en": "Net result of a round, optimal play", "de": "Nettoergebnis einer Runde, optimales Spiel",
                 "pl": "Wynik netto rundy, gra optymalna"},
    "sd": {"en": "Standard deviation per round (initial bets)", "de": "Standardabweichung je Runde (Grundeinsätze)",
           "pl": "Odchylenie standardowe na rundę (stawki początkowe)"},
    "variance": {"en": "Variance per round", "de": "Varianz je Runde", "pl": "Wariancja na rundę"},
    "skewness": {"en": "Skewness", "de": "Schiefe", "pl": "Skośność"},
    "hit_frequency": {"en": "Hit frequency, P(net > 0)", "de": "Trefferquote, P(Netto > 0)",
                      "pl": "Częstość wygranych, P(netto > 0)"},
    "p_push": {"en": "P(push, net = 0)", "de": "P(Push, Netto = 0)", "pl": "P(remis, netto = 0)"},
    "p_loss": {"en": "P(loss, net < 0)", "de": "P(Verlust, Netto < 0)", "pl": "P(przegrana, netto < 0)"},
    "largest_win": {"en": "Largest win in one round", "de": "Größter Gewinn in einer Runde",
                    "pl": "Największa wygrana w jednej rundzie"},
    "largest_loss": {"en": "Largest loss in one round", "de": "Größter Verlust in einer Runde",
                     "pl": "Największa przegrana w jednej rundzie"},
    "bets": {"en": "{x} initial bets", "de": "{x} Grundeinsätze", "pl": "{x} stawki początkowe"},
    "rounds_for_ci": {"en": "Rounds for a ±0.1 % RTP interval at 95 %", "de": "Runden für ein ±0,1-%-RTP-Intervall (95 %)",
                      "pl": "Rundy dla przedziału RTP ±0,1 % (95 %)"},
    "ci_note": {"en": "n = (1.96 × SD / 0.001)² = {n} rounds: the number of rounds after which the 95 % confidence "
                      "interval of the observed RTP per initial bet is ±0.1 percentage points wide. It is for the "
                      "per-initial-bet convention (the SD above is per initial bet).",
                "de": "n = (1,96 × SD / 0,001)² = {n} Runden: nach so vielen Runden ist das 95-%-"
                      "Konfidenzintervall der beobachteten RTP je Grundeinsatz ±0,1 Prozentpunkte breit. Die Zahl "
                      "gilt für die Konvention je Grundeinsatz (die SD oben ist je Grundeinsatz).",
                "pl": "n = (1,96 × SD / 0,001)² = {n} rund: po tylu rundach 95-procentowy przedział ufności "
                      "obserwowanego RTP na stawkę początkową ma szerokość ±0,1 punktu procentowego. Dotyczy "
                      "konwencji na stawkę początkową (SD powyżej jest na stawkę początkową)."},
    # ----- 7. strategy ---------------------------------------------------------------------------
    "s7": {"en": "7. Strategy", "de": "7. Strategie", "pl": "7. Strategia"},
    "chart_not_available": {"en": "The basic-strategy chart is not in this report: {reason}. The figures above are "
                                  "for optimal composition-dependent play.",
                            "de": "Die Grundstrategie-Tabelle ist nicht in diesem Bericht: {reason}. Die Zahlen "
                                  "oben gelten für optimales kartenabhängiges Spiel.",
                            "pl": "Tabeli strategii podstawowej nie ma w tym raporcie: {reason}. Powyższe wartości "
                                  "dotyczą optymalnej gry zależnej od składu kart."},
    "chart_summary": {"en": "A player who follows the chart: EV {ev}, RTP {rtp_i} per initial bet, {rtp_tw} per "
                            "total wagered; the chart costs {cost} of the initial bet against optimal play.",
                      "de": "Ein Spieler nach der Tabelle: Erwartungswert {ev}, RTP {rtp_i} je Grundeinsatz, "
                            "{rtp_tw} je Gesamteinsatz; die Tabelle kostet {cost} des Grundeinsatzes gegenüber "
                            "optimalem Spiel.",
                      "pl": "Gracz stosujący tabelę: wartość oczekiwana {ev}, RTP {rtp_i} na stawkę początkową, "
                            "{rtp_tw} na łączną stawkę; tabela kosztuje {cost} stawki początkowej względem gry "
                            "optymalnej."},
    "appendix": {"en": "Appendix A: EV tables", "de": "Anhang A: Tabellen der Erwartungswerte",
                 "pl": "Załącznik A: tabele wartości oczekiwanych"},
    # ----- 8. sensitivity ------------------------------------------------------------------------
    "s8": {"en": "8. Sensitivity to the rules", "de": "8. Abhängigkeit von den Regeln", "pl": "8. Wrażliwość na zasady"},
    "readings_table": {"en": "RTP under each reading of the peek rule", "de": "RTP unter jeder Lesart der Prüfregel",
                       "pl": "RTP dla każdej interpretacji zasady sprawdzania"},
    "reading": {"en": "Reading", "de": "Lesart", "pl": "Interpretacja"},
    "gives_published": {"en": "Rounds to {published}?", "de": "Ergibt {published}?", "pl": "Daje {published}?"},
    "used": {"en": "used", "de": "verwendet", "pl": "przyjęta"},
    "readings_note": {"en": "Peeking under an ace and ten, and peeking under a ten only with an unchecked "
                            "blackjack taking the original bet, are the same game in expected value.",
                      "de": "Prüfung unter Ass und Zehn und Prüfung nur unter Zehn, wenn ein ungeprüfter Blackjack "
                            "nur den Grundeinsatz nimmt, sind im Erwartungswert dasselbe Spiel.",
                      "pl": "Sprawdzanie przy asie i dziesiątce oraz sprawdzanie tylko przy dziesiątce, gdy "
                            "niesprawdzony blackjack zabiera tylko stawkę początkową, to w wartości oczekiwanej ta "
                            "sama gra."},
    "reading.peek on ace and ten": {"en": "peek on ace and ten", "de": "Prüfung unter Ass und Zehn",
                                    "pl": "sprawdzanie przy asie i dziesiątce"},
    "reading.peek on ten only; an unchecked blackjack takes all wagers": {
        "en": "peek on ten only; an unchecked blackjack takes all wagers",
        "de": "Prüfung nur unter Zehn; ungeprüfter Blackjack nimmt alle Einsätze",
        "pl": "sprawdzanie tylko przy dziesiątce; niesprawdzony blackjack zabiera wszystkie stawki"},
    "reading.peek on ten only; an unchecked blackjack takes the original bet": {
        "en": "peek on ten only; an unchecked blackjack takes the original bet",
        "de": "Prüfung nur unter Zehn; ungeprüfter Blackjack nimmt nur den Grundeinsatz",
        "pl": "sprawdzanie tylko przy dziesiątce; niesprawdzony blackjack zabiera tylko stawkę początkową"},
    "effects_table": {"en": "Effect of changing one rule", "de": "Wirkung der Änderung einer Regel",
                      "pl": "Wpływ zmiany jednej zasady"},
    "change": {"en": "Change", "de": "Änderung", "pl": "Zmiana"},
    "ev_change": {"en": "EV change", "de": "Änderung EV", "pl": "Zmiana EV"},
    "effects_note": {"en": "Each row changes one rule of the game of this report (optimal CD play); the EV change is "
                           "in initial bets per round.",
                     "de": "Jede Zeile ändert eine Regel des Spiels dieses Berichts (optimales kartenabhängiges "
                           "Spiel); die Änderung des Erwartungswerts ist in Grundeinsätzen je Runde.",
                     "pl": "Każdy wiersz zmienia jedną zasadę gry z tego raportu (optymalna gra zależna od składu); "
                           "zmiana EV jest w stawkach początkowych na rundę."},
    "effects_left_out": {"en": "Left out: {changes}. A pair could then make more than two hands, and truly "
                               "optimal split play, the play of this report, is computed for one split only.",
                         "de": "Nicht aufgeführt: {changes}. Ein Paar könnte dann mehr als zwei Hände ergeben, und "
                               "das wirklich optimale Spiel nach dem Teilen, das Spiel dieses Berichts, wird nur für "
                               "einmaliges Teilen berechnet.",
                         "pl": "Pominięto: {changes}. Para mogłaby wtedy dać więcej niż dwa układy, a "
                               "prawdziwie optymalna gra po podziale, gra tego raportu, jest liczona tylko dla "
                               "jednego podziału."},
    "effect.dealer stands on soft 17": {"en": "dealer stands on soft 17", "de": "Dealer steht bei „Soft“-17",
                                        "pl": "krupier staje na miękkiej 17"},
    "effect.double on 9-11": {"en": "double on 9-11", "de": "Verdoppeln bei 9-11", "pl": "podwojenie stawki przy 9-11"},
    "effect.resplit to 4 hands": {"en": "resplit to 4 hands", "de": "erneutes Teilen bis 4 Hände",
                                  "pl": "ponowne dzielenie do 4 układów"},
    "effect.resplit aces (to 4 hands)": {"en": "resplit aces (to 4 hands)", "de": "Asse erneut teilen (bis 4 Hände)",
                                         "pl": "ponowne dzielenie asów (do 4 układów)"},
    "effect.no resplit of aces": {"en": "no resplit of aces", "de": "kein erneutes Teilen von Assen",
                                  "pl": "bez ponownego dzielenia asów"},
    "effect.no surrender": {"en": "no surrender", "de": "kein Aufgeben", "pl": "bez rezygnacji"},
    "effect.ten-valued pairs split only by rank": {"en": "ten-valued pairs split only by rank (K-K, not K-Q)", "de": "Zehnerpaare nur nach Rang teilbar (K-K, nicht K-D)", "pl": "pary dziesiątek dzielone tylko według rangi (K-K, nie K-D)"},
    "effect.ten-valued pairs split by value": {"en": "ten-valued pairs split by value (K-Q too)", "de": "Zehnerpaare nach Wert teilbar (auch K-D)", "pl": "pary dziesiątek dzielone według wartości (także K-D)"},
    "effect.no hole card (blackjack takes all)": {"en": "no hole card (blackjack takes all)",
                                                  "de": "keine verdeckte Karte (Blackjack nimmt alles)",
                                                  "pl": "bez zakrytej karty (blackjack zabiera wszystko)"},
    # ----- 9. verification ------------------------------------------------------------------------
    "s9": {"en": "9. Verification by simulation", "de": "9. Überprüfung durch Simulation",
           "pl": "9. Weryfikacja symulacją"},
    "sim_intro": {"en": "An independent Monte Carlo simulation deals real rounds from a freshly shuffled deck and "
                        "plays them by the same optimal strategy, without calling the exact engine. Simulated "
                        "figures are compared with the exact ones.",
                  "de": "Eine unabhängige Monte-Carlo-Simulation teilt echte Runden aus einem frisch gemischten "
                        "Deck aus und spielt sie mit derselben optimalen Strategie, ohne die exakte Berechnung "
                        "aufzurufen. Die simulierten Zahlen werden mit den exakten verglichen.",
                  "pl": "Niezależna symulacja Monte Carlo rozdaje prawdziwe rundy ze świeżo potasowanej talii i "
                        "rozgrywa je tą samą strategią optymalną, bez wywoływania dokładnych obliczeń. Wartości "
                        "symulowane są porównane z dokładnymi."},
    "rounds": {"en": "Rounds", "de": "Runden", "pl": "Rundy"},
    "seed": {"en": "Seed", "de": "Startwert (Seed)", "pl": "Ziarno (seed)"},
    "generator": {"en": "Random number generator", "de": "Zufallszahlengenerator", "pl": "Generator liczb losowych"},
    "workers": {"en": "Independent streams", "de": "Unabhängige Ströme", "pl": "Niezależne strumienie"},
    "seconds": {"en": "Simulation time", "de": "Simulationsdauer", "pl": "Czas symulacji"},
    "simulated": {"en": "Simulated", "de": "Simuliert", "pl": "Symulacja"},
    "exact": {"en": "Exact", "de": "Exakt", "pl": "Dokładnie"},
    "ci95": {"en": "95 % interval", "de": "95-%-Intervall", "pl": "Przedział 95 %"},
    "ci99": {"en": "99 % interval", "de": "99-%-Intervall", "pl": "Przedział 99 %"},
    "z": {"en": "z", "de": "z", "pl": "z"},
    "inside": {"en": "Exact inside 95 % / 99 %", "de": "Exakt in 95 % / 99 %", "pl": "Dokładna w 95 % / 99 %"},
    "chi_title": {"en": "Chi-square test of the outcome distribution", "de": "Chi-Quadrat-Test der Ergebnisverteilung",
                  "pl": "Test chi-kwadrat rozkładu wyników"},
    "chi_text": {"en": "Pearson's chi-square of the simulated net results against the exact distribution: "
                       "χ² = {chi2} with {dof} degrees of freedom, p-value {p}.",
                 "de": "Pearsons Chi-Quadrat der simulierten Nettoergebnisse gegen die exakte Verteilung: "
                       "χ² = {chi2} mit {dof} Freiheitsgraden, p-Wert {p}.",
                 "pl": "Test chi-kwadrat Pearsona symulowanych wyników netto względem dokładnego rozkładu: "
                       "χ² = {chi2} przy {dof} stopniach swobody, wartość p {p}."},
    "observed": {"en": "Observed (rounds)", "de": "Beobachtet (Runden)", "pl": "Zaobserwowano (rundy)"},
    "expected": {"en": "Expected (rounds)", "de": "Erwartet (Runden)", "pl": "Oczekiwano (rundy)"},
    "freq_title": {"en": "Frequencies", "de": "Häufigkeiten", "pl": "Częstości"},
    "freq.player_blackjack": {"en": "Player blackjack", "de": "Blackjack des Spielers", "pl": "Blackjack gracza"},
    "freq.dealer_blackjack": {"en": "Dealer blackjack", "de": "Blackjack des Dealers", "pl": "Blackjack krupiera"},
    "sim_rule": {"en": "Acceptance rule, fixed before the results: the simulation passes when each of four checks "
                       "passes. (1) The RTP per initial bet and (2) the RTP per total wagered each lie inside the "
                       "two-sided 99.9 % band of the exact figure (|z| ≤ {z}). (3) Pearson's chi-square test of "
                       "the net-result distribution gives p ≥ {level}. (4) No simulated net result is one that "
                       "the exact distribution says is impossible. A correct engine fails each of checks 1 to 3 "
                       "with probability {level} (at most {total} in all) and check 4 never.",
                 "de": "Annahmeregel, vor den Ergebnissen festgelegt: Die Simulation besteht, wenn alle vier Prüfungen bestanden sind. (1) Die RTP je Grundeinsatz und (2) die RTP je Gesamteinsatz liegen "
                       "jeweils im zweiseitigen 99,9-%-Band des exakten Werts (|z| ≤ {z}). (3) Pearsons "
                       "Chi-Quadrat-Test der Verteilung der Nettoergebnisse ergibt p ≥ {level}. (4) Kein "
                       "simuliertes Nettoergebnis ist nach der exakten Verteilung unmöglich. Eine korrekte "
                       "Berechnung fällt bei jeder der Prüfungen 1 bis 3 mit der Wahrscheinlichkeit {level} "
                       "durch (insgesamt höchstens {total}), bei Prüfung 4 nie.",
                 "pl": "Reguła akceptacji, ustalona przed wynikami: symulacja zostaje zaliczona, gdy zaliczone są "
                       "wszystkie cztery sprawdzenia. (1) RTP na stawkę początkową i (2) RTP na łączną stawkę "
                       "leżą w dwustronnym paśmie 99,9 % wokół wartości dokładnej (|z| ≤ {z}). (3) Test "
                       "chi-kwadrat Pearsona rozkładu wyników netto daje p ≥ {level}. (4) Żaden symulowany "
                       "wynik netto nie jest wynikiem, który według dokładnego rozkładu jest niemożliwy. "
                       "Poprawny silnik oblewa każde ze sprawdzeń 1–3 z prawdopodobieństwem {level} (łącznie co najwyżej {total}), a sprawdzenia 4 nie oblewa nigdy."},
    "sim_pass": {"en": "Verdict: PASS. All {made} checks of the acceptance rule pass.",
                 "de": "Urteil: BESTANDEN. Alle {made} Prüfungen der Annahmeregel sind bestanden.",
                 "pl": "Werdykt: ZALICZONO. Wszystkie sprawdzenia reguły akceptacji ({made}) są zaliczone."},
    "sim_fail": {"en": "Verdict: FAIL. Failed: {failed}. A correct engine fails by chance in at most {total} "
                       "of runs: repeat with another seed and more rounds before drawing a conclusion.",
                 "de": "Urteil: NICHT BESTANDEN. Nicht bestanden: {failed}. Eine korrekte Berechnung fällt "
                       "zufällig in höchstens {total} der Läufe durch: vor einer Schlussfolgerung mit einem "
                       "anderen Seed und mehr Runden wiederholen.",
                 "pl": "Werdykt: NIE ZALICZONO. Niezaliczone: {failed}. Poprawny silnik oblewa przypadkiem "
                       "w co najwyżej {total} przebiegów: przed wyciągnięciem wniosków należy powtórzyć z innym "
                       "ziarnem i większą liczbą rund."},
    "sim_no_verdict": {"en": "Verdict: none. No exact figure was available to check the simulation against.",
                       "de": "Urteil: keines. Es gab keinen exakten Wert, gegen den die Simulation geprüft "
                             "werden konnte.",
                       "pl": "Werdykt: brak. Nie było dokładnej wartości, z którą można porównać symulację."},
    "sim_check.rtp_initial": {"en": "check 1 (RTP per initial bet, z = {value})",
                          "de": "Prüfung 1 (RTP je Grundeinsatz, z = {value})",
                          "pl": "sprawdzenie 1 (RTP na stawkę początkową, z = {value})"},
    "sim_check.rtp_total_wagered": {"en": "check 2 (RTP per total wagered, z = {value})",
                                "de": "Prüfung 2 (RTP je Gesamteinsatz, z = {value})",
                                "pl": "sprawdzenie 2 (RTP na łączną stawkę, z = {value})"},
    "sim_check.chi_square": {"en": "check 3 (chi-square, p = {value})", "de": "Prüfung 3 (Chi-Quadrat, p = {value})",
                         "pl": "sprawdzenie 3 (chi-kwadrat, p = {value})"},
    "sim_check.support": {"en": "check 4 ({value} impossible results seen)",
                      "de": "Prüfung 4 ({value} unmögliche Ergebnisse gesehen)",
                      "pl": "sprawdzenie 4 (niemożliwe wyniki: {value})"},
    "sim_strategy": {"en": "Strategy played", "de": "Gespielte Strategie", "pl": "Rozgrywana strategia"},
}

__all__ = ["REPORT_MESSAGES"]
