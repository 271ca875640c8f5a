"""The math report's phrases for a test lab (identification, assumptions, readings, strategies, exposure,
volatility index, reproducibility, sign-off, disclosure), in English, German and Polish.

Data only: :mod:`ev.present.i18n` merges :data:`LAB_MESSAGES` into its one table, so that
:func:`ev.present.i18n.t` answers for these keys like for any other.
"""
from __future__ import annotations

LAB_MESSAGES: dict[str, dict[str, str]] = {
    # ----- identification and metadata ----------------------------------------------------
    "meta_title": {"en": "Document and game identification", "de": "Identifikation von Dokument und Spiel",
                   "pl": "Identyfikacja dokumentu i gry"},
    "meta_intro": {"en": "Fields that bjev cannot know are taken from the metadata file (bjev report --meta FILE); "
                         "a blank line is a field to be filled in, never a value bjev has guessed.",
                   "de": "Angaben, die bjev nicht kennen kann, stammen aus der Metadatendatei (bjev report --meta "
                         "DATEI); eine leere Linie ist ein auszufüllendes Feld, nie ein von bjev geratener Wert.",
                   "pl": "Dane, których bjev nie może znać, pochodzą z pliku metadanych (bjev report --meta PLIK); "
                         "pusta linia to pole do uzupełnienia, nigdy wartość odgadnięta przez bjev."},
    "meta.supplier": {"en": "Supplier", "de": "Anbieter", "pl": "Dostawca"},
    "meta.game_name": {"en": "Game name", "de": "Name des Spiels", "pl": "Nazwa gry"},
    "meta.game_id": {"en": "Game ID", "de": "Spiel-ID", "pl": "Identyfikator gry"},
    "meta.game_version": {"en": "Game version", "de": "Spielversion", "pl": "Wersja gry"},
    "meta.jurisdiction": {"en": "Jurisdiction", "de": "Rechtsgebiet", "pl": "Jurysdykcja"},
    "meta.document_id": {"en": "Document ID", "de": "Dokument-ID", "pl": "Identyfikator dokumentu"},
    "meta.author": {"en": "Author", "de": "Verfasser", "pl": "Autor"},
    "meta.reviewer": {"en": "Reviewer", "de": "Prüfer", "pl": "Recenzent"},
    "meta.approver": {"en": "Approver", "de": "Freigegeben von", "pl": "Zatwierdzający"},
    "meta.table_limits": {"en": "Table limits MIN / MAX (initial bet)", "de": "Tischlimits MIN / MAX (Grundeinsatz)",
                          "pl": "Limity stołu MIN / MAX (stawka początkowa)"},
    "revision_title": {"en": "Revision history", "de": "Änderungsverlauf", "pl": "Historia zmian"},
    "revision.revision": {"en": "Revision", "de": "Revision", "pl": "Wersja"},
    "revision.date": {"en": "Date", "de": "Datum", "pl": "Data"},
    "revision.author": {"en": "Author", "de": "Verfasser", "pl": "Autor"},
    "revision.description": {"en": "Description", "de": "Beschreibung", "pl": "Opis"},
    "custom_rule_set": {"en": "custom rule set", "de": "eigener Regelsatz", "pl": "własny zestaw zasad"},
    # ----- assumptions --------------------------------------------------------------------
    "assumptions_title": {"en": "Assumptions", "de": "Annahmen", "pl": "Założenia"},
    "assume.deck": {"en": "The deck. Every round is dealt from the complete shoe ({decks}, {cards}) in a "
                          "uniformly random order, shuffled afresh for every round: no card of an earlier round is missing.",
                    "de": "Das Deck. Jede Runde wird aus allen Karten ({decks}, {cards}) in gleichverteilt zufälliger "
                          "Reihenfolge ausgeteilt, für jede Runde neu gemischt: keine Karte einer früheren Runde "
                          "fehlt.",
                    "pl": "Talia. Każda runda jest rozdawana z kompletu kart ({decks}, {cards}) w jednostajnie "
                          "losowej kolejności, tasowanej od nowa przed każdą rundą: nie brakuje żadnej karty z "
                          "wcześniejszej rundy."},
    "assume.hole_card": {"en": "The hole card. The dealer's second card is dealt face down with the up card, before "
                               "the player acts; where the dealer does not check it, it is revealed after the "
                               "player's hands are complete.",
                         "de": "Die verdeckte Karte. Die zweite Karte des Dealers wird mit der aufgedeckten Karte "
                               "verdeckt ausgeteilt, bevor der Spieler handelt; wo der Dealer sie nicht prüft, wird "
                               "sie nach den Händen des Spielers aufgedeckt.",
                         "pl": "Karta zakryta. Druga karta krupiera jest rozdawana zakryta razem z kartą odkrytą, "
                               "zanim gracz podejmie decyzję; tam, gdzie krupier jej nie sprawdza, jest odkrywana po "
                               "zakończeniu układów gracza."},
    "assume.rng": {"en": "Randomness. The figures assume a perfectly random shuffle. Whether the game's random number "
                         "generator and shuffle achieve that is a separate certification, outside this report.",
                   "de": "Zufall. Die Zahlen setzen ein vollkommen zufälliges Mischen voraus. Ob der "
                         "Zufallszahlengenerator und das Mischen des Spiels das leisten, ist eine eigene "
                         "Zertifizierung außerhalb dieses Berichts.",
                   "pl": "Losowość. Liczby zakładają idealnie losowe tasowanie. To, czy generator liczb losowych i "
                         "tasowanie w grze to zapewniają, jest przedmiotem odrębnej certyfikacji, poza tym raportem."},
    "assume.side_bets": {"en": "Side bets. No side bet is included in these figures.", "de": "Nebenwetten. In diesen Zahlen ist keine Nebenwette enthalten.", "pl": "Zakłady dodatkowe. Te liczby nie obejmują żadnego zakładu dodatkowego."},
    "assume.stakes": {"en": "Stakes. The stake of a round is the initial bet, every double and split bet, and half the initial bet for insurance. {even_money}", "de": "Einsätze. Der Einsatz einer Runde ist der Grundeinsatz, jeder Verdopplungs- und Teilungseinsatz und der halbe Grundeinsatz für die Versicherung. {even_money}", "pl": "Stawki. Stawka rundy to stawka początkowa, każda stawka podwojenia i dzielenia oraz połowa stawki początkowej za ubezpieczenie. {even_money}"},
    "stake.even_money.1": {"en": "Even money is counted as a stake of 1 initial bet, the chips on the table (the player takes it without placing more; net result +1); counted as insurance on the blackjack it would be 1.5 (metadata field even_money_stake).", "de": "Even Money zählt als Einsatz von 1 Grundeinsatz, den Chips auf dem Tisch (der Spieler nimmt es, ohne mehr zu setzen; Nettoergebnis +1); als Versicherung auf den Blackjack gezählt wären es 1,5 (Metadatenfeld even_money_stake).", "pl": "Even Money liczy się jako stawka 1 stawki początkowej, żetony na stole (gracz bierze je bez dokładania; wynik netto +1); liczone jako ubezpieczenie blackjacka byłoby to 1,5 (pole metadanych even_money_stake)."},
    "stake.even_money.1.5": {"en": "Even money is counted as insurance on the blackjack: a stake of 1.5 initial bets (net result +1), as selected in the metadata (even_money_stake); counted as the chips the player places it would be 1.", "de": "Even Money zählt als Versicherung auf den Blackjack: ein Einsatz von 1,5 Grundeinsätzen (Nettoergebnis +1), wie in den Metadaten gewählt (even_money_stake); als gesetzte Chips gezählt wäre es 1.", "pl": "Even Money liczy się jako ubezpieczenie blackjacka: stawka 1,5 stawki początkowej (wynik netto +1), jak wybrano w metadanych (even_money_stake); liczone jako postawione żetony byłoby to 1."},
    "stake.no_even_money": {"en": "Even money is not offered.", "de": "Even Money wird nicht angeboten.", "pl": "Even Money nie jest oferowane."},
    "stake.optimal_same": {"en": "Optimal play never takes even money here, so the convention changes no figure of optimal play; the strategy table gives both figures for the strategies that take it.", "de": "Optimales Spiel nimmt hier nie Even Money; die Konvention ändert also keine Zahl des optimalen Spiels. Die Strategietabelle nennt beide Zahlen für Strategien, die es nehmen.", "pl": "Gra optymalna nigdy tu nie bierze Even Money, więc konwencja nie zmienia żadnej liczby gry optymalnej; tabela strategii podaje obie liczby dla strategii, które je biorą."},
    "stake.optimal_differs": {"en": "Optimal play takes even money in {p} of rounds: with even money staked as {other} initial bets, E[W] = {wager} initial bets and the RTP per total wagered is {rtp}.", "de": "Optimales Spiel nimmt Even Money in {p} der Runden: mit Even Money als {other} Grundeinsätze gezählt ist E[W] = {wager} Grundeinsätze und die Auszahlungsquote je Gesamteinsatz {rtp}.", "pl": "Gra optymalna bierze Even Money w {p} rund: przy Even Money liczonym jako {other} stawki początkowej E[W] = {wager} stawki początkowej, a RTP od łącznej stawki wynosi {rtp}."},
    "assume.returned": {"en": "Returned wagers. When the dealer's blackjack under {cards} is found after play and takes only the original bet, the double and split wagers placed meanwhile are handed back. Counted as not at risk (this report's convention): E[W] = {at_risk} initial bets, RTP per total wagered {rtp_at_risk}. Counted as placed: E[W] = {placed}, RTP per total wagered {rtp_placed}.", "de": "Zurückgegebene Einsätze. Wird der Blackjack des Dealers unter {cards} erst nach dem Spiel festgestellt und nimmt er nur den Grundeinsatz, werden die inzwischen gesetzten Verdopplungs- und Teilungseinsätze zurückgegeben. Als nicht riskiert gezählt (Konvention dieses Berichts): E[W] = {at_risk} Grundeinsätze, RTP je Gesamteinsatz {rtp_at_risk}. Als gesetzt gezählt: E[W] = {placed}, RTP je Gesamteinsatz {rtp_placed}.", "pl": "Zwracane stawki. Gdy blackjack krupiera przy {cards} zostaje odkryty po rozgrywce i zabiera tylko stawkę początkową, postawione w międzyczasie stawki podwojenia i dzielenia są zwracane. Liczone jako nieryzykowane (konwencja tego raportu): E[W] = {at_risk} stawki początkowej, RTP od łącznej stawki {rtp_at_risk}. Liczone jako postawione: E[W] = {placed}, RTP od łącznej stawki {rtp_placed}."},
    "readings_custom": {"en": "This report's rules are given as parameters (section 1), not as a rule text, so no reading of a text is needed.", "de": "Die Regeln dieses Berichts sind als Parameter gegeben (Abschnitt 1), nicht als Regeltext; es ist also keine Lesart eines Textes nötig.", "pl": "Zasady tego raportu są podane jako parametry (sekcja 1), a nie jako tekst zasad, więc żadna interpretacja tekstu nie jest potrzebna."},
    "face.text": {"en": "The same face value. The rules allow a split of two cards \"of the same face value\". This report reads it by value: any two ten-valued cards may be split (K-Q too), as nearly every blackjack game does. Read by rank (K-K but not K-Q), the game returns {opt_tw} per total wagered ({opt_i} per initial bet) under optimal play and {min_tw} ({min_i}) under the minimum over legal play; read by value, {base_tw} ({base_i}) and {bmin_tw} ({bmin_i}).", "de": "Gleicher Nennwert. Die Regeln erlauben das Teilen zweier Karten „mit gleichem Nennwert“. Dieser Bericht liest das nach dem Wert: zwei beliebige Zehnerkarten dürfen geteilt werden (auch K-D), wie in fast jedem Blackjack-Spiel. Nach dem Rang gelesen (K-K, nicht K-D) zahlt das Spiel {opt_tw} je Gesamteinsatz ({opt_i} je Grundeinsatz) bei optimalem Spiel aus und {min_tw} ({min_i}) beim Minimum über alle erlaubten Spielweisen; nach dem Wert gelesen {base_tw} ({base_i}) und {bmin_tw} ({bmin_i}).", "pl": "Ta sama wartość. Zasady pozwalają dzielić dwie karty „o tej samej wartości”. Ten raport czyta to według wartości: można dzielić dowolne dwie karty o wartości dziesięciu (także K-D), jak w prawie każdej grze w blackjacka. Przy odczytaniu według figury (K-K, ale nie K-D) gra zwraca {opt_tw} od łącznej stawki ({opt_i} od stawki początkowej) przy grze optymalnej i {min_tw} ({min_i}) przy minimum po wszystkich dozwolonych strategiach; przy odczytaniu według wartości {base_tw} ({base_i}) oraz {bmin_tw} ({bmin_i})."},
    "face.same_optimal": {"en": "Optimal play splits no ten-valued pair in this game, so its RTP is the same under both readings; only the minimum tells them apart.", "de": "Optimales Spiel teilt in diesem Spiel kein Zehnerpaar; seine Auszahlungsquote ist unter beiden Lesarten gleich, nur das Minimum unterscheidet sie.", "pl": "Gra optymalna nie dzieli w tej grze żadnej pary dziesiątek, więc jej RTP jest taki sam przy obu interpretacjach; tylko minimum je odróżnia."},
    "assume.returned_bound": {"en": " (The placed figure counts the first double or split; doubles after a split "
                                    "are not added, so it is a lower bound.)",
                              "de": " (Die Zahl für gesetzte Einsätze zählt das erste Verdoppeln oder Teilen; "
                                    "Verdopplungen nach dem Teilen sind nicht addiert, sie ist also eine untere "
                                    "Schranke.)",
                              "pl": " (Wartość dla postawionych stawek liczy pierwsze podwojenie lub dzielenie; "
                                    "podwojenia po dzieleniu nie są dodane, jest to więc dolne ograniczenie.)"},
    "assume.no_returned": {"en": "Returned wagers. Under these rules no double or split wager is ever handed back, so "
                                 "the two stake conventions give the same E[W].",
                           "de": "Zurückgegebene Einsätze. Unter diesen Regeln wird nie ein Verdopplungs- oder "
                                 "Teilungseinsatz zurückgegeben; beide Konventionen ergeben dasselbe E[W].",
                           "pl": "Zwracane stawki. Przy tych zasadach żadna stawka podwojenia ani dzielenia nie "
                                 "jest zwracana, więc obie konwencje dają to samo E[W]."},
    # ----- the peek reading ---------------------------------------------------------------------
    "peek.text_en": {"en": "What the rules say. The English rules say that the dealer checks the face-down card when "
                           "the first card is a 10, J, Q or K; they say nothing of an ace. The German and Polish "
                           "rules do not mention the check at all. None says what a dealer blackjack under an ace, "
                           "found only after the player's hands, takes.",
                     "de": "Was die Regeln sagen. Die englischen Regeln sagen, dass der Dealer die verdeckte Karte "
                           "prüft, wenn die erste Karte eine 10, ein Bube, eine Dame oder ein König ist; von einem Ass "
                           "sagen sie nichts. Die deutschen Regeln erwähnen die Prüfung überhaupt nicht. Keine "
                           "Fassung sagt, was ein erst nach den Händen des Spielers aufgedeckter Blackjack des "
                           "Dealers unter einem Ass nimmt.",
                     "pl": "Co mówią zasady. Angielska wersja zasad mówi, że krupier sprawdza zakrytą kartę, gdy "
                           "pierwsza karta to 10, walet, dama lub król; o asie nie mówi nic. Polska i niemiecka wersja "
                           "w ogóle nie wspominają o sprawdzaniu. Żadna wersja nie mówi, co zabiera blackjack "
                           "krupiera przy asie, odkryty dopiero po układach gracza."},
    "peek.reading_used": {"en": "The reading used. Where the text speaks, this report follows it: the dealer checks "
                                "under a ten and not under an ace. Where it is silent, it takes the reading consistent "
                                "with the published 99.59 %: an unchecked blackjack takes only the original bet. That "
                                "is why this reading is chosen. In expected value it is the same game as a check "
                                "under the ace too.",
                          "de": "Die verwendete Lesart. Wo der Text spricht, folgt ihm dieser Bericht: der Dealer "
                                "prüft unter einer Zehn und nicht unter einem Ass. Wo der Text schweigt, wählt der Bericht die mit "
                                "den veröffentlichten 99,59 % vereinbare Lesart: ein ungeprüfter Blackjack nimmt nur "
                                "den Grundeinsatz. Deshalb ist diese Lesart gewählt. Im Erwartungswert ist es "
                                "dasselbe Spiel wie mit einer Prüfung auch unter dem Ass.",
                          "pl": "Przyjęta interpretacja. Tam, gdzie tekst coś mówi, raport za nim podąża: krupier "
                                "sprawdza przy dziesiątce, a nie przy asie. Tam, gdzie tekst milczy, raport przyjmuje "
                                "interpretację zgodną z opublikowanym zwrotem 99,59 %: niesprawdzony blackjack "
                                "zabiera tylko stawkę początkową. Dlatego wybrano tę interpretację. W wartości "
                                "oczekiwanej jest to ta sama gra, co ze sprawdzaniem także przy asie."},
    "peek.other_rules": {"en": "The rule set of this report: {peek}; an unchecked dealer blackjack {unchecked}.",
                         "de": "Regelsatz dieses Berichts: {peek}; ein ungeprüfter Blackjack des Dealers {unchecked}.",
                         "pl": "Zestaw zasad tego raportu: {peek}; niesprawdzony blackjack krupiera {unchecked}."},
    "peek.consistent": {"en": "Readings consistent with the published 99.59 % (section 8 has the figures): {readings}. "
                              "The two are the same game in expected value, so the published figure cannot tell "
                              "them apart.",
                        "de": "Mit den veröffentlichten 99,59 % vereinbare Lesarten (Zahlen in Abschnitt 8): "
                              "{readings}. Beide sind im Erwartungswert dasselbe Spiel; die veröffentlichte Zahl "
                              "kann sie nicht unterscheiden.",
                        "pl": "Interpretacje zgodne z opublikowanym zwrotem 99,59 % (liczby w sekcji 8): {readings}. "
                              "W wartości oczekiwanej to ta sama gra, więc opublikowana liczba ich nie rozróżnia."},
    "peek.inconsistent": {"en": "Not consistent: {reading}, which gives {rtp} per total wagered.",
                          "de": "Nicht vereinbar: {reading}; sie ergibt {rtp} je Gesamteinsatz.",
                          "pl": "Niezgodna: {reading}, która daje {rtp} od łącznej stawki."},
    "peek.recommend": {"en": "Recommendation: the supplier should confirm in writing whether the dealer checks under an "
                             "ace and, if not, what a dealer blackjack found after play takes.",
                       "de": "Empfehlung: Der Anbieter sollte schriftlich bestätigen, ob der Dealer unter einem Ass "
                             "prüft und, wenn nicht, was ein nach dem Spiel aufgedeckter Blackjack des Dealers nimmt.",
                       "pl": "Zalecenie: dostawca powinien potwierdzić na piśmie, czy krupier sprawdza przy asie, a "
                             "jeśli nie, co zabiera blackjack krupiera odkryty po rozgrywce."},
    "peek.unavailable": {"en": "The readings' figures are not in this report (--skip-rules-effect).",
                         "de": "Die Zahlen der Lesarten sind nicht in diesem Bericht (--skip-rules-effect).",
                         "pl": "Liczb dla interpretacji nie ma w tym raporcie (--skip-rules-effect)."},
    "peek.no_effect": {"en": "has no effect (the dealer checks under both an ace and a ten)",
                       "de": "ohne Wirkung (der Dealer prüft unter Ass und Zehn)",
                       "pl": "bez znaczenia (krupier sprawdza przy asie i przy dziesiątce)"},
    "takes.all": {"en": "takes every wager", "de": "nimmt alle Einsätze", "pl": "zabiera wszystkie stawki"},
    "takes.original": {"en": "takes only the original bet", "de": "nimmt nur den Grundeinsatz",
                       "pl": "zabiera tylko stawkę początkową"},
    "rule_no_effect": {"en": "no effect under these rules", "de": "unter diesen Regeln ohne Wirkung",
                       "pl": "bez znaczenia przy tych zasadach"},
    "value.split_tens.value": {"en": "by value", "de": "nach Wert", "pl": "według wartości"},
    "value.split_tens.rank": {"en": "by rank only", "de": "nur nach Rang", "pl": "tylko według figury"},
    "value.peek.ace_ten": {"en": "ace and ten", "de": "Ass und Zehn", "pl": "as i dziesiątka"},
    "value.peek.ten": {"en": "ten only", "de": "nur Zehn", "pl": "tylko dziesiątka"},
    "value.peek.none": {"en": "never", "de": "nie", "pl": "nigdy"},
    "value.unchecked_blackjack_takes.all": {"en": "all wagers", "de": "alle Einsätze", "pl": "wszystkie stawki"},
    "value.unchecked_blackjack_takes.original": {"en": "original bet", "de": "Grundeinsatz",
                                                 "pl": "stawka początkowa"},
    "value.double.any": {"en": "any two cards", "de": "zwei beliebige Karten", "pl": "dowolne dwie karty"},
    "rtp_published_pl": {"en": "The Polish rules say only \"stanowiący łączną wartość wygranych/zakładów\" (total "
                               "win/total bet); they do not say \"optimal strategy\".",
                         "de": "Die polnischen Regeln sagen nur „stanowiący łączną wartość wygranych/zakładów“ "
                               "(Gesamtgewinn/Gesamteinsatz); „optimale Strategie“ sagen sie nicht.",
                         "pl": "Polskie zasady mówią tylko: „stanowiący łączną wartość wygranych/zakładów”; nie "
                               "mówią o strategii optymalnej."},
    # ----- RTP by strategy ----------------------------------------------------------------------
    "strategies_title": {"en": "RTP by player strategy", "de": "RTP nach Strategie des Spielers",
                         "pl": "RTP według strategii gracza"},
    "strategies_intro": {"en": "Each strategy is evaluated exactly (every deal and every card enumerated, in floating point), not simulated.", "de": "Jede Strategie ist exakt berechnet (jede Austeilung und jede Karte aufgezählt, in Gleitkomma), nicht simuliert.", "pl": "Każda strategia jest obliczona dokładnie (każde rozdanie i każda karta wyliczone, w arytmetyce zmiennoprzecinkowej), nie symulowana."},
    "strategies_published": {"en": "The published {published} refers to optimal play ({convention}); the row behind this report's figures is the first: {row}.", "de": "Die veröffentlichten {published} beziehen sich auf optimales Spiel ({convention}); die Zeile hinter den Zahlen dieses Berichts ist die erste: {row}.", "pl": "Opublikowane {published} dotyczy gry optymalnej ({convention}); wiersz, na którym opierają się liczby tego raportu, to pierwszy: {row}."},
    "strategies_missing": {"en": "{row}: not computed for these rules: {reason}.", "de": "{row}: für diese Regeln nicht berechnet: {reason}.", "pl": "{row}: nie obliczono dla tych zasad: {reason}."},
    "reason.optimal-optimal": {"en": "truly optimal split play is computed for one split only, and these rules allow resplits", "de": "wirklich optimales Spiel geteilter Hände wird nur für einen Split berechnet, und diese Regeln erlauben erneutes Teilen", "pl": "prawdziwie optymalna gra po dzieleniu jest liczona tylko dla jednego dzielenia, a te zasady pozwalają dzielić ponownie"},
    "reason.search_decks": {"en": "the truly optimal split search is made for shoes of up to {limit} decks in a report (it takes about 25 s on six); bjev rtp --split-strategy optimal computes it for {decks} decks", "de": "die Suche nach wirklich optimalem Teilen wird im Bericht für Schuhe bis {limit} Decks gemacht (auf sechs dauert sie etwa 25 s); bjev rtp --split-strategy optimal berechnet sie für {decks} Decks", "pl": "wyszukiwanie prawdziwie optymalnego dzielenia jest w raporcie wykonywane dla sabotów do {limit} talii (na sześciu trwa około 25 s); bjev rtp --split-strategy optimal oblicza je dla {decks} talii"},
    "strategies_even_money": {"en": "With even money staked as {stake} initial bets instead: {rows}.", "de": "Mit Even Money als {stake} Grundeinsätze gezählt: {rows}.", "pl": "Przy Even Money liczonym jako {stake} stawki początkowej: {rows}."},
    "strategies_even_money_row": {"en": "{row} E[W] {wager}, RTP per total wagered {rtp}", "de": "{row} E[W] {wager}, RTP je Gesamteinsatz {rtp}", "pl": "{row} E[W] {wager}, RTP od łącznej stawki {rtp}"},
    "strategies_min": {"en": "The minimum is the same recursion as optimal play, choosing the worst legal action at "
                             "every decision (stand; hit, but never on 21; double, split and surrender where "
                             "allowed; insurance and even money taken when they are worse). It is the minimum over "
                             "every strategy for unsplit hands; hands made by a split follow one table per up card, "
                             "as under CDZ-. No legal play returns less: RTP {rtp_i} per initial bet, {rtp_tw} per "
                             "total wagered.",
                       "de": "Das Minimum ist dieselbe Rekursion wie das optimale Spiel, mit der schlechtesten "
                             "erlaubten Handlung bei jeder Entscheidung (Stehen; Ziehen, nie bei 21; Verdoppeln, "
                             "Teilen und Aufgeben, wo erlaubt; Versicherung und Even Money, wenn sie schlechter "
                             "sind). Es ist das Minimum über jede Strategie für ungeteilte Hände; geteilte Hände "
                             "folgen einer Tabelle je Dealerkarte, wie bei CDZ-. Kein erlaubtes Spiel zahlt weniger "
                             "aus: RTP {rtp_i} je Grundeinsatz, {rtp_tw} je Gesamteinsatz.",
                       "pl": "Minimum to ta sama rekurencja co gra optymalna, wybierająca najgorszą dozwoloną "
                             "decyzję w każdym miejscu (stój; dobierz, ale nigdy przy 21; podwojenie, dzielenie i "
                             "rezygnacja, gdzie dozwolone; ubezpieczenie i Even Money, gdy są gorsze). Jest to "
                             "minimum po wszystkich strategiach dla układów bez dzielenia; układy po dzieleniu "
                             "stosują jedną tabelę na kartę krupiera, jak w CDZ-. Żadna dozwolona gra nie zwraca "
                             "mniej: RTP {rtp_i} od stawki początkowej, {rtp_tw} od łącznej stawki."},
    "strategies_min_proven": {"en": "The minimum is the lowest EV of any legal strategy: the worst legal action at every decision (stand; hit, but never on 21; double, split and surrender where allowed; insurance and even money taken when they are worse), and split hands played worst with every card they have seen, the other split hand's included (the mirror image of the truly optimal split search). No legal play returns less: RTP {rtp_i} per initial bet, {rtp_tw} per total wagered (the RTP per total wagered of that strategy).", "de": "Das Minimum ist der niedrigste Erwartungswert aller erlaubten Strategien: die schlechteste erlaubte Handlung bei jeder Entscheidung (Stehen; Ziehen, nie bei 21; Verdoppeln, Teilen und Aufgeben, wo erlaubt; Versicherung und Even Money, wenn sie schlechter sind), und geteilte Hände am schlechtesten gespielt mit jeder Karte, die sie gesehen haben, auch denen der anderen geteilten Hand (das Spiegelbild der Suche nach wirklich optimalem Teilen). Kein erlaubtes Spiel zahlt weniger aus: RTP {rtp_i} je Grundeinsatz, {rtp_tw} je Gesamteinsatz (die RTP je Gesamteinsatz dieser Strategie).", "pl": "Minimum to najniższa wartość oczekiwana spośród wszystkich dozwolonych strategii: najgorsza dozwolona decyzja w każdym miejscu (stój; dobierz, ale nigdy przy 21; podwojenie, dzielenie i rezygnacja, gdzie dozwolone; ubezpieczenie i Even Money, gdy są gorsze), a układy po dzieleniu rozgrywane najgorzej przy znajomości każdej widzianej karty, także kart drugiego układu (lustrzane odbicie wyszukiwania prawdziwie optymalnego dzielenia). Żadna dozwolona gra nie zwraca mniej: RTP {rtp_i} od stawki początkowej, {rtp_tw} od łącznej stawki (RTP od łącznej stawki tej strategii)."},
    "strategies_min_restricted": {"en": "The minimum row is the worst legal action at every decision (stand; hit, but never on 21; double, split and surrender where allowed; insurance and even money taken when they are worse), with hands made by a split following one table per up card, as under CDZ-: RTP {rtp_i} per initial bet, {rtp_tw} per total wagered. It is the minimum over those strategies only: split hands played by the cards they have seen, including the other split hands' cards, can return less, and the search that covers them is computed for one split only.", "de": "Die Zeile des Minimums ist die schlechteste erlaubte Handlung bei jeder Entscheidung (Stehen; Ziehen, nie bei 21; Verdoppeln, Teilen und Aufgeben, wo erlaubt; Versicherung und Even Money, wenn sie schlechter sind), wobei geteilte Hände einer Tabelle je Dealerkarte folgen, wie bei CDZ-: RTP {rtp_i} je Grundeinsatz, {rtp_tw} je Gesamteinsatz. Es ist nur das Minimum über diese Strategien: geteilte Hände, gespielt nach den gesehenen Karten, auch denen der anderen geteilten Hände, können weniger auszahlen, und die Suche, die sie erfasst, wird nur für einen Split berechnet.", "pl": "Wiersz minimum to najgorsza dozwolona decyzja w każdym miejscu (stój; dobierz, ale nigdy przy 21; podwojenie, dzielenie i rezygnacja, gdzie dozwolone; ubezpieczenie i Even Money, gdy są gorsze), przy czym układy po dzieleniu stosują jedną tabelę na kartę krupiera, jak w CDZ-: RTP {rtp_i} od stawki początkowej, {rtp_tw} od łącznej stawki. Jest to minimum tylko po tych strategiach: układy po dzieleniu rozgrywane według widzianych kart, także kart innych układów, mogą zwracać mniej, a wyszukiwanie, które je obejmuje, jest liczone tylko dla jednego dzielenia."},
    "strategies_min_restricted_decks": {"en": "The minimum row is the worst legal action at every decision (stand; hit, but never on 21; double, split and surrender where allowed; insurance and even money taken when they are worse), with hands made by a split following one table per up card, as under CDZ-: RTP {rtp_i} per initial bet, {rtp_tw} per total wagered. It is the minimum over those strategies only: split hands played by the cards they have seen, including the other split hand's, can return less, and the search that covers them is made for shoes of up to {limit} decks in a report (it takes about 25 s on six).", "de": "Die Zeile des Minimums ist die schlechteste erlaubte Handlung bei jeder Entscheidung (Stehen; Ziehen, nie bei 21; Verdoppeln, Teilen und Aufgeben, wo erlaubt; Versicherung und Even Money, wenn sie schlechter sind), wobei geteilte Hände einer Tabelle je Dealerkarte folgen, wie bei CDZ-: RTP {rtp_i} je Grundeinsatz, {rtp_tw} je Gesamteinsatz. Es ist nur das Minimum über diese Strategien: geteilte Hände, gespielt nach den gesehenen Karten, auch denen der anderen geteilten Hand, können weniger auszahlen, und die Suche, die sie erfasst, wird im Bericht für Schuhe bis {limit} Decks gemacht (auf sechs dauert sie etwa 25 s).", "pl": "Wiersz minimum to najgorsza dozwolona decyzja w każdym miejscu (stój; dobierz, ale nigdy przy 21; podwojenie, dzielenie i rezygnacja, gdzie dozwolone; ubezpieczenie i Even Money, gdy są gorsze), przy czym układy po dzieleniu stosują jedną tabelę na kartę krupiera, jak w CDZ-: RTP {rtp_i} od stawki początkowej, {rtp_tw} od łącznej stawki. Jest to minimum tylko po tych strategiach: układy po dzieleniu rozgrywane według widzianych kart, także kart drugiego układu, mogą zwracać mniej, a wyszukiwanie, które je obejmuje, jest w raporcie wykonywane dla sabotów do {limit} talii (na sześciu trwa około 25 s)."},
    "strategies_never_bust": {"en": "Never bust: stand on any hard 12 or more and hit hard 11 or less; hit soft 17 or less and stand on soft 18 or more (a soft hand cannot bust on one card). {mimic} Neither doubles, splits, insures, surrenders or takes even money.", "de": "Nie überkaufen: Stehen bei jeder harten 12 oder mehr, Ziehen bei harter 11 oder weniger; Ziehen bei weicher 17 oder weniger, Stehen ab weicher 18 (eine weiche Hand kann mit einer Karte nicht überkaufen). {mimic} Keine verdoppelt, teilt, versichert, gibt auf oder nimmt Even Money.", "pl": "Nigdy nie przekraczaj: stój przy każdym twardym 12 lub więcej, dobieraj przy twardym 11 lub mniej; dobieraj przy miękkim 17 lub mniej, stój od miękkiego 18 (układ miękki nie przekroczy 21 jedną kartą). {mimic} Żadna nie podwaja, nie dzieli, nie ubezpiecza, nie rezygnuje ani nie bierze Even Money."},
    "exposure.no_limits_custom": {"en": "Table limits: not given (metadata min_bet, max_bet): MIN ________  MAX ________.", "de": "Tischlimits: nicht angegeben (Metadaten min_bet, max_bet): MIN ________  MAX ________.", "pl": "Limity stołu: nie podano (metadane min_bet, max_bet): MIN ________  MAX ________."},
    "exposure.no_optimal_stake": {"en": "–: the exact distribution of optimal play records net results, not stakes, so its largest stake is not given here; it is at most the largest stake of any legal play.", "de": "–: die exakte Verteilung des optimalen Spiels erfasst Nettoergebnisse, keine Einsätze; sein größter Einsatz ist hier daher nicht angegeben, er ist höchstens der größte Einsatz irgendeines erlaubten Spiels.", "pl": "–: dokładny rozkład gry optymalnej zapisuje wyniki netto, nie stawki, więc jej największa stawka nie jest tu podana; wynosi co najwyżej największą stawkę dowolnej dozwolonej gry."},
    "col.strategy": {"en": "Strategy", "de": "Strategie", "pl": "Strategia"},
    "col.ev_pct": {"en": "EV (% of initial bet)", "de": "EV (% des Grundeinsatzes)",
                   "pl": "EV (% stawki początkowej)"},
    "col.rtp_i_pct": {"en": "RTP per initial bet (%)", "de": "RTP je Grundeinsatz (%)",
                      "pl": "RTP od stawki początkowej (%)"},
    "col.rtp_tw_pct": {"en": "RTP per total wagered (%)", "de": "RTP je Gesamteinsatz (%)",
                       "pl": "RTP od łącznej stawki (%)"},
    "col.ew_bets": {"en": "E[W] (initial bets)", "de": "E[W] (Grundeinsätze)", "pl": "E[W] (stawki początkowe)"},
    "row.optimal-cdz": {"en": "optimal, split hands CDZ-", "de": "optimal, geteilte Hände CDZ-",
                        "pl": "optymalna, układy po dzieleniu CDZ-"},
    "row.optimal-cdp1": {"en": "optimal, split hands CDP1", "de": "optimal, geteilte Hände CDP1",
                         "pl": "optymalna, układy po dzieleniu CDP1"},
    "row.optimal-cdp": {"en": "optimal, split hands CDP", "de": "optimal, geteilte Hände CDP",
                        "pl": "optymalna, układy po dzieleniu CDP"},
    "row.optimal-optimal": {"en": "optimal, split hands optimal", "de": "optimal, geteilte Hände optimal",
                            "pl": "optymalna, układy po dzieleniu optymalnie"},
    "row.basic": {"en": "basic-strategy chart", "de": "Grundstrategie-Tabelle", "pl": "tabela strategii podstawowej"},
    "row.basic-insure": {"en": "chart, always insure and take even money",
                         "de": "Tabelle, immer Versicherung und Even Money",
                         "pl": "tabela, zawsze ubezpieczenie i Even Money"},
    "row.mimic": {"en": "mimic the dealer", "de": "wie der Dealer", "pl": "jak krupier"},
    "row.never-bust": {"en": "never bust", "de": "nie überkaufen", "pl": "nigdy nie przekraczaj"},
    "row.minimum": {"en": "minimum over legal play", "de": "Minimum über alle erlaubten Spielweisen",
                    "pl": "minimum dozwolonej gry"},
    "row.random": {"en": "random play", "de": "zufälliges Spiel", "pl": "gra losowa"},
    "strategies_random": {"en": "Random play: at every decision each legal option is taken with equal probability (stand, hit, and where allowed double, split and surrender; a 21 stands), insurance and even money each with probability 1/2, evaluated exactly, not simulated: the blind strategy a regulator may ask for where no strategy is disclosed.", "de": "zufälliges Spiel: bei jeder Entscheidung wird jede erlaubte Möglichkeit mit gleicher Wahrscheinlichkeit gewählt (Stehen, Ziehen und, wo erlaubt, Verdoppeln, Teilen und Aufgeben; eine 21 steht), Versicherung und Even Money je mit Wahrscheinlichkeit 1/2, exakt berechnet, nicht simuliert: die blinde Strategie, die eine Aufsicht verlangen kann, wo keine Strategie offengelegt ist.", "pl": "Gra losowa: przy każdej decyzji każda dozwolona możliwość jest wybierana z równym prawdopodobieństwem (stój, dobierz oraz, gdzie dozwolone, podwojenie, dzielenie i rezygnacja; 21 stoi), ubezpieczenie i Even Money każde z prawdopodobieństwem 1/2, obliczona dokładnie, nie symulowana: ślepa strategia, której regulator może wymagać, gdy strategia nie jest ujawniona."},
    "strategy.optimal_cd": {"en": "optimal composition-dependent play (CDZ- after splits)",
                            "de": "optimales kartenabhängiges Spiel (CDZ- nach dem Teilen)",
                            "pl": "optymalna gra zależna od składu (CDZ- po dzieleniu)"},
    # ----- exposure --------------------------------------------------------------------------------
    "exposure_title": {"en": "Maximum exposure and win per round", "de": "Höchster Einsatz, Verlust und Gewinn je Runde",
                       "pl": "Maksymalna stawka, przegrana i wygrana na rundę"},
    "exposure_intro": {"en": "Found by enumerating every legal line of play against the shoe ({lines}: every "
                             "up card and first two cards; insurance, even money, surrender, doubles and splits as "
                             "the rules allow them), not assumed.",
                       "de": "Ermittelt durch Aufzählung jeder erlaubten Spielweise gegen das Deck ({lines}: jede Dealerkarte und jedes Kartenpaar; Versicherung, Even Money, Aufgeben, "
                             "Verdoppeln und Teilen, wie die Regeln sie erlauben), nicht angenommen.",
                       "pl": "Wyznaczone przez wyliczenie każdego dozwolonego przebiegu gry względem talii ({lines}: każda karta krupiera i każde dwie pierwsze karty; ubezpieczenie, Even "
                             "Money, rezygnacja, podwojenia i dzielenia, na ile zasady pozwalają), a nie przyjęte."},
    "exposure.col_any": {"en": "Any legal play (initial bets)", "de": "Jedes erlaubte Spiel (Grundeinsätze)",
                         "pl": "Dowolna dozwolona gra (stawki początkowe)"},
    "exposure.col_optimal": {"en": "Optimal play (initial bets)", "de": "Optimales Spiel (Grundeinsätze)",
                             "pl": "Gra optymalna (stawki początkowe)"},
    "exposure.col_line": {"en": "Reached by", "de": "Erreicht durch", "pl": "Osiągane przez"},
    "exposure.stake": {"en": "Largest total stake", "de": "Größter Gesamteinsatz", "pl": "Największa łączna stawka"},
    "exposure.loss": {"en": "Largest loss", "de": "Größter Verlust", "pl": "Największa przegrana"},
    "exposure.win": {"en": "Largest win", "de": "Größter Gewinn", "pl": "Największa wygrana"},
    "exposure.limits": {"en": "Table limits (the game's MIN/MAX section): minimum {min}, maximum {max} per initial "
                              "bet. With the maximum initial bet a round can put {stake} at stake, and win at most {win} (the "
                              "largest win of any legal play).",
                        "de": "Tischlimits (MIN/MAX-Abschnitt des Spiels): Minimum {min}, Maximum {max} je "
                              "Grundeinsatz. Mit dem höchsten Grundeinsatz kann eine Runde {stake} einsetzen und höchstens "
                              "{win} gewinnen (der größte Gewinn bei beliebigem erlaubtem Spiel).",
                        "pl": "Limity stołu (sekcja MIN/MAX gry): minimum {min}, maksimum {max} na stawkę "
                              "początkową. Przy maksymalnej stawce początkowej runda może postawić {stake} i wygrać "
                              "najwyżej {win} (największa wygrana przy dowolnej dozwolonej grze)."},
    "exposure.no_limits": {"en": "Table limits: the rules leave them to the game's MIN/MAX section; they are not "
                                 "given (metadata min_bet, max_bet): MIN ________  MAX ________.",
                           "de": "Tischlimits: Die Regeln verweisen auf den MIN/MAX-Abschnitt des Spiels; sie sind "
                                 "nicht angegeben (Metadaten min_bet, max_bet): MIN ________  MAX ________.",
                           "pl": "Limity stołu: zasady odsyłają do sekcji MIN/MAX gry; nie zostały podane "
                                 "(metadane min_bet, max_bet): MIN ________  MAX ________."},
    "line.double": {"en": "double", "de": "Verdoppeln", "pl": "podwojenie"},
    "line.play": {"en": "play on", "de": "Weiterspielen", "pl": "dalsza gra"},
    "line.natural": {"en": "blackjack", "de": "Blackjack", "pl": "blackjack"},
    "line.natural, even money": {"en": "blackjack, even money", "de": "Blackjack, Even Money",
                                 "pl": "blackjack, Even Money"},
    "line.surrender": {"en": "surrender", "de": "Aufgeben", "pl": "rezygnacja"},
    "line.split": {"en": "split to {hands} hands, {doubled} doubled", "de": "Teilen in {hands} Hände, davon {doubled} verdoppelt",
                   "pl": "dzielenie na {hands} układy, w tym podwojone: {doubled}"},
    "line.split_none": {"en": "split to {hands} hands, none doubled", "de": "Teilen in {hands} Hände, keine verdoppelt",
                        "pl": "dzielenie na {hands} układy, bez podwojenia"},
    "line.insured": {"en": "insured", "de": "versichert", "pl": "z ubezpieczeniem"},
    # ----- volatility -------------------------------------------------------------------------------
    "vi_title": {"en": "Volatility index", "de": "Volatilitätsindex", "pl": "Indeks zmienności"},
    "vi_intro": {"en": "The volatility index is z × SD of a round's net result (SD {sd} initial bets), for a two-sided "
                       "confidence level.",
                 "de": "Der Volatilitätsindex ist z × SD des Nettoergebnisses einer Runde (SD {sd} Grundeinsätze), "
                       "für ein zweiseitiges Konfidenzniveau.",
                 "pl": "Indeks zmienności to z × SD wyniku netto rundy (SD {sd} stawki początkowej), dla "
                       "dwustronnego poziomu ufności."},
    "col.confidence": {"en": "Confidence level (%)", "de": "Konfidenzniveau (%)", "pl": "Poziom ufności (%)"},
    "col.z": {"en": "z", "de": "z", "pl": "z"},
    "col.vi": {"en": "Volatility index (initial bets)", "de": "Volatilitätsindex (Grundeinsätze)",
               "pl": "Indeks zmienności (stawki początkowe)"},
    "ci_table_title": {"en": "Confidence interval of the RTP by number of rounds",
                       "de": "Konfidenzintervall der RTP nach Anzahl der Runden",
                       "pl": "Przedział ufności RTP według liczby rund"},
    "ci_table_intro": {"en": "Half-width of the interval around the RTP per initial bet ({rtp}) that the observed RTP "
                             "of n rounds falls in, in percentage points: z × SD / √n.",
                       "de": "Halbe Breite des Intervalls um die RTP je Grundeinsatz ({rtp}), in das die beobachtete "
                             "RTP von n Runden fällt, in Prozentpunkten: z × SD / √n.",
                       "pl": "Połowa szerokości przedziału wokół RTP od stawki początkowej ({rtp}), w który wpada "
                             "zaobserwowany RTP z n rund, w punktach procentowych: z × SD / √n."},
    "col.rounds": {"en": "Rounds n", "de": "Runden n", "pl": "Rundy n"},
    "col.half": {"en": "± at {level} % (pp)", "de": "± bei {level} % (Pp.)", "pl": "± przy {level} % (pp)"},
    "rounds_for_ci_pp": {"en": "Rounds for a ±0.1 percentage-point RTP interval at 95 %",
                         "de": "Runden für ein RTP-Intervall von ±0,1 Prozentpunkten (95 %)",
                         "pl": "Rundy dla przedziału RTP ±0,1 punktu procentowego (95 %)"},
    "largest_win_optimal": {"en": "Largest win in one round, optimal play", "de": "Größter Gewinn einer Runde, optimales Spiel",
                            "pl": "Największa wygrana w rundzie, gra optymalna"},
    "largest_loss_optimal": {"en": "Largest loss in one round, optimal play (any play: section 5)",
                             "de": "Größter Verlust einer Runde, optimales Spiel (jedes Spiel: Abschnitt 5)",
                             "pl": "Największa przegrana w rundzie, gra optymalna (dowolna gra: sekcja 5)"},
    "ci_note_pp": {"en": "n = (1.96 × SD / 0.001)² = {n} rounds: after this many rounds the 95 % confidence interval "
                         "of the observed RTP per initial bet is ±0.1 percentage points wide.",
                   "de": "n = (1,96 × SD / 0,001)² = {n} Runden: nach so vielen Runden ist das 95-%-Konfidenzintervall "
                         "der beobachteten RTP je Grundeinsatz ±0,1 Prozentpunkte breit.",
                   "pl": "n = (1,96 × SD / 0,001)² = {n} rund: po tylu rundach 95-procentowy przedział ufności "
                         "zaobserwowanego RTP od stawki początkowej ma szerokość ±0,1 punktu procentowego."},
    # ----- simulation: what it can distinguish ------------------------------------------------------------
    "sim_repro": {"en": "Reproducibility. The seed {seed} is fixed by default and recorded here; it is the same for "
                        "the English, German and Polish reports of one game. With the same seed and rounds the same "
                        "rounds are dealt (the random streams belong to fixed chunks of rounds, not to workers; "
                        "--workers only sets how many processes play them).",
                  "de": "Reproduzierbarkeit. Der Startwert {seed} ist standardmäßig fest und hier festgehalten; er ist "
                        "für den englischen, deutschen und polnischen Bericht eines Spiels derselbe. Mit demselben "
                        "Startwert und derselben Rundenzahl werden dieselben Runden ausgeteilt (die Zufallsströme "
                        "gehören zu festen Blöcken von Runden, nicht zu Prozessen; --workers legt nur fest, wie "
                        "viele Prozesse sie spielen).",
                  "pl": "Powtarzalność. Ziarno {seed} jest domyślnie stałe i zapisane tutaj; jest takie samo dla "
                        "angielskiego, niemieckiego i polskiego raportu jednej gry. Przy tym samym ziarnie i liczbie "
                        "rund rozdawane są te same rundy (strumienie losowe należą do stałych bloków rund, a nie do "
                        "procesów; --workers określa tylko, ile procesów je rozgrywa)."},
    "sim_distinguish": {"en": "What this run can tell apart. {rounds} rounds give a 95 % interval of ±{half} percentage points. The two RTP conventions are {apart} percentage points apart, so this run {can} tell them apart.", "de": "Was dieser Lauf unterscheiden kann. {rounds} Runden ergeben ein 95-%-Intervall von ±{half} Prozentpunkten. Die beiden RTP-Konventionen liegen {apart} Prozentpunkte auseinander; dieser Lauf {can}.", "pl": "Co ten przebieg może rozróżnić. {rounds} rund daje 95-procentowy przedział ±{half} punktu procentowego. Dwie konwencje RTP dzieli {apart} punktu procentowego, więc ten przebieg {can} ich rozróżnić."},
    "sim_confirm": {"en": "The published {published} means an RTP {convention} from {low} to {high}; the exact figure is {margin} percentage points from the nearer end, so confirming the published figure at 95 % needs about {needed} rounds{sd_note}.", "de": "Die veröffentlichten {published} bedeuten eine Auszahlungsquote {convention} von {low} bis {high}; der exakte Wert liegt {margin} Prozentpunkte vom näheren Ende entfernt, die veröffentlichte Zahl bei 95 % zu bestätigen braucht also etwa {needed} Runden{sd_note}.", "pl": "Opublikowane {published} oznacza RTP {convention} od {low} do {high}; dokładna wartość jest {margin} punktu procentowego od bliższego końca, więc potwierdzenie opublikowanej liczby przy 95 % wymaga około {needed} rund{sd_note}."},
    "sim_confirm_outside": {"en": "The published {published} means an RTP {convention} from {low} to {high}; the exact figure lies outside that interval, {margin} percentage points from it, so no number of rounds would confirm the published figure.", "de": "Die veröffentlichten {published} bedeuten eine Auszahlungsquote {convention} von {low} bis {high}; der exakte Wert liegt außerhalb dieses Intervalls, {margin} Prozentpunkte davon entfernt, keine Zahl von Runden würde die veröffentlichte Zahl also bestätigen.", "pl": "Opublikowane {published} oznacza RTP {convention} od {low} do {high}; dokładna wartość leży poza tym przedziałem, {margin} punktu procentowego od niego, więc żadna liczba rund nie potwierdziłaby opublikowanej liczby."},
    "sim_sd_note": {"en": " (SD per unit staked taken as SD / E[W])", "de": " (SD je eingesetzter Einheit als SD / E[W] angesetzt)", "pl": " (SD na jednostkę stawki przyjęte jako SD / E[W])"},
    "sim_no_published": {"en": "No published RTP was given, so this section states no number of rounds to confirm one.", "de": "Es wurde keine veröffentlichte Auszahlungsquote angegeben; dieser Abschnitt nennt daher keine Zahl von Runden, um eine zu bestätigen.", "pl": "Nie podano opublikowanego zwrotu, więc ta sekcja nie podaje liczby rund potrzebnej do jego potwierdzenia."},
    "can.yes": {"en": "can", "de": "kann sie unterscheiden", "pl": "może"},
    "can.no": {"en": "cannot", "de": "kann sie nicht unterscheiden", "pl": "nie może"},
    "skipped.simulation": {"en": "skipped (--simulate-rounds 0)", "de": "ausgelassen (--simulate-rounds 0)",
                           "pl": "pominięte (--simulate-rounds 0)"},
    "skipped.rules_effect": {"en": "skipped (--skip-rules-effect)", "de": "ausgelassen (--skip-rules-effect)",
                             "pl": "pominięte (--skip-rules-effect)"},
    # ----- reproducibility and sign-off ---------------------------------------------------------------------
    "s10": {"en": "10. Reproducibility and sign-off", "de": "10. Reproduzierbarkeit und Freigabe",
            "pl": "10. Powtarzalność i zatwierdzenie"},
    "repro_intro": {"en": "Everything needed to produce this report again, figure for figure.",
                    "de": "Alles, was nötig ist, um diesen Bericht Zahl für Zahl erneut zu erstellen.",
                    "pl": "Wszystko, co potrzebne, aby odtworzyć ten raport liczba po liczbie."},
    "repro.version": {"en": "bjev version", "de": "bjev-Version", "pl": "Wersja bjev"},
    "repro.commit": {"en": "Git commit bjev was built from", "de": "Git-Commit, aus dem bjev gebaut wurde",
                     "pl": "Commit git, z którego zbudowano bjev"},
    "repro.not_recorded": {"en": "not recorded", "de": "nicht festgehalten", "pl": "nie zapisano"},
    "repro.python": {"en": "Python", "de": "Python", "pl": "Python"},
    "repro.platform": {"en": "Platform", "de": "Plattform", "pl": "Platforma"},
    "repro.command": {"en": "Command line", "de": "Befehlszeile", "pl": "Wiersz poleceń"},
    "repro.rules_sha": {"en": "SHA-256 of the rule parameters", "de": "SHA-256 der Regelparameter",
                        "pl": "SHA-256 parametrów zasad"},
    "repro.text_sha": {"en": "SHA-256 of the quoted rule text ({code})", "de": "SHA-256 des zitierten Regeltexts ({code})",
                       "pl": "SHA-256 cytowanego tekstu zasad ({code})"},
    "repro.no_text": {"en": "no rule text quoted (custom rule set)", "de": "kein Regeltext zitiert (eigener Regelsatz)",
                      "pl": "nie cytowano tekstu zasad (własny zestaw)"},
    "repro.seed": {"en": "Simulation seed", "de": "Startwert der Simulation", "pl": "Ziarno symulacji"},
    "repro.no_seed": {"en": "no simulation", "de": "keine Simulation", "pl": "brak symulacji"},
    "repro.api": {"en": "Command line not recorded (built through the Python API).",
                  "de": "Befehlszeile nicht festgehalten (über die Python-API erstellt).",
                  "pl": "Wiersz poleceń nie zapisany (utworzono przez API Pythona)."},
    "signoff_title": {"en": "Sign-off", "de": "Freigabe", "pl": "Zatwierdzenie"},
    "signoff_intro": {"en": "The figures of this report were computed by bjev as recorded above. Signed:",
                      "de": "Die Zahlen dieses Berichts wurden von bjev wie oben festgehalten berechnet. "
                            "Unterschrieben:",
                      "pl": "Liczby tego raportu obliczył bjev, jak zapisano powyżej. Podpisano:"},
    "sign.role": {"en": "Role", "de": "Rolle", "pl": "Rola"},
    "sign.name": {"en": "Name", "de": "Name", "pl": "Imię i nazwisko"},
    "sign.date": {"en": "Date", "de": "Datum", "pl": "Data"},
    "sign.signature": {"en": "Signature", "de": "Unterschrift", "pl": "Podpis"},
    # ----- disclosure ---------------------------------------------------------------------------------
    "disclosure_title": {"en": "Every composition-dependent exception", "de": "Jede kartenabhängige Ausnahme",
                         "pl": "Każdy wyjątek zależny od składu"},
    "disclosure_intro": {"en": "Every hand, of any number of cards, where the optimal play behind the RTP differs from "
                               "the basic-strategy chart: {count} ({by_cards}). Hands of three or more cards "
                               "are those optimal play reaches; split hands are played as the same unsplit hand "
                               "(CDZ-). The gains add up to {total} of the {gap} (per million rounds) by which "
                               "optimal play beats the chart; the rest comes from how the exceptions interact. "
                               "The same list is in exceptions.csv beside this report.",
                         "de": "Jede Hand, mit beliebig vielen Karten, bei der das optimale Spiel hinter der RTP von "
                               "der Grundstrategie-Tabelle abweicht: {count} ({by_cards}). Hände mit drei oder "
                               "mehr Karten sind jene, die optimales Spiel erreicht; geteilte Hände werden wie "
                               "dieselbe ungeteilte Hand gespielt (CDZ-). Die Gewinne ergeben zusammen {total} der "
                               "{gap} (je Million Runden), um die optimales Spiel die Tabelle schlägt; der Rest "
                               "entsteht aus dem Zusammenwirken der Ausnahmen. Dieselbe Liste steht in "
                               "exceptions.csv neben diesem Bericht.",
                         "pl": "Każdy układ, z dowolną liczbą kart, w którym gra optymalna, na której opiera się RTP, różni się od "
                               "tabeli strategii podstawowej: {count} ({by_cards}). Układy z trzema lub więcej "
                               "kartami to te, do których dochodzi gra optymalna; układy po dzieleniu są rozgrywane "
                               "jak ten sam układ bez dzielenia (CDZ-). Zyski sumują się do {total} z {gap} (na "
                               "milion rund), o które gra optymalna przewyższa tabelę; reszta wynika z interakcji "
                               "wyjątków. Ta sama lista jest w pliku exceptions.csv obok raportu."},
    "appendix_c": {"en": "Appendix C: Self-checks", "de": "Anhang C: Selbstprüfungen", "pl": "Załącznik C: Samokontrole"},
    "contents": {"en": "Contents", "de": "Inhalt", "pl": "Spis treści"},
    "checks_intro": {"en": "Figures the engine computes by two routes that must agree, each with its largest deviation, the tolerance it is held to and the verdict. A failed check makes bjev report exit with a non-zero code.", "de": "Zahlen, die das Programm auf zwei Wegen berechnet, die übereinstimmen müssen, jeweils mit der größten Abweichung, der zulässigen Toleranz und dem Ergebnis. Eine fehlgeschlagene Prüfung lässt bjev report mit einem Fehlercode enden.", "pl": "Liczby, które program oblicza dwiema drogami, które muszą się zgadzać, każda z największym odchyleniem, dopuszczalną tolerancją i werdyktem. Nieudana kontrola kończy bjev report kodem błędu."},
    "checks.col_check": {"en": "Check", "de": "Prüfung", "pl": "Kontrola"},
    "checks.col_figure": {"en": "Largest deviation", "de": "Größte Abweichung", "pl": "Największe odchylenie"},
    "checks.col_tolerance": {"en": "Tolerance", "de": "Toleranz", "pl": "Tolerancja"},
    "checks.col_arithmetic": {"en": "Arithmetic", "de": "Arithmetik", "pl": "Arytmetyka"},
    "checks.col_verdict": {"en": "Verdict", "de": "Ergebnis", "pl": "Werdykt"},
    "checks.pass": {"en": "pass", "de": "bestanden", "pl": "zaliczona"},
    "checks.fail": {"en": "FAIL", "de": "NICHT BESTANDEN", "pl": "NIEZALICZONA"},
    "checks.exact": {"en": "exact (fractions)", "de": "exakt (Brüche)", "pl": "dokładna (ułamki)"},
    "checks.float": {"en": "floating point", "de": "Gleitkomma", "pl": "zmiennoprzecinkowa"},
    "checks.all_passed": {"en": "Every self-check passed.", "de": "Alle Selbstprüfungen sind bestanden.", "pl": "Wszystkie samokontrole zaliczone."},
    "checks.some_failed": {"en": "{n} self-check(s) FAILED: the figures of this report must not be used until the cause is found.", "de": "{n} Selbstprüfung(en) NICHT BESTANDEN: die Zahlen dieses Berichts dürfen nicht verwendet werden, bis die Ursache gefunden ist.", "pl": "Niezaliczone samokontrole: {n}. Liczb tego raportu nie wolno używać, dopóki nie zostanie znaleziona przyczyna."},
    "check.distribution": {"en": "The outcome distribution sums to 1 and its mean equals the EV", "de": "Die Ergebnisverteilung summiert sich zu 1, ihr Mittelwert ist der Erwartungswert", "pl": "Rozkład wyników sumuje się do 1, a jego średnia równa się wartości oczekiwanej"},
    "check.exact-equals-float": {"en": "EV, E[W] and both RTPs: floating point equals exact", "de": "Erwartungswert, E[W] und beide RTP: Gleitkomma gleich exakt", "pl": "Wartość oczekiwana, E[W] i oba RTP: zmiennoprzecinkowe równe dokładnym"},
    "check.removal-average": {"en": "The full shoe's optimal strategy held fixed: the EV averaged over the first card removed equals the full-shoe EV", "de": "Optimale Strategie des vollen Decks festgehalten: der Erwartungswert, gemittelt über die erste entfernte Karte, gleicht dem des vollen Decks", "pl": "Przy ustalonej strategii optymalnej dla pełnej talii wartość oczekiwana uśredniona po pierwszej usuniętej karcie równa się wartości dla pełnej talii"},
    "check.strategy-chain": {"en": "The round's EV does not increase down the strategy table: {order}", "de": "Der Erwartungswert der Runde steigt in der Strategietabelle nicht: {order}", "pl": "Wartość oczekiwana rundy nie rośnie w dół tabeli strategii: {order}"},
    "check.minimum-below": {"en": "No other strategy of the table returns less than the minimum", "de": "Keine andere Strategie der Tabelle zahlt weniger aus als das Minimum", "pl": "Żadna inna strategia z tabeli nie zwraca mniej niż minimum"},
    "check.split-order": {"en": "Per up card and pair (pairs that make two hands), the split EVs do not increase: {order}", "de": "Je Dealerkarte und Paar (Paare mit zwei Händen) steigen die Werte des Teilens nicht: {order}", "pl": "Dla każdej karty krupiera i pary (pary dające dwa układy) wartości dzielenia nie rosną: {order}"},
    "col.gain_hand": {"en": "Gain per hand (initial bets)", "de": "Gewinn je Hand (Grundeinsätze)",
                      "pl": "Zysk na układ (stawki początkowe)"},
    "col.gain_round": {"en": "Gain per round (per million initial bets)",
                       "de": "Gewinn je Runde (je Million Grundeinsätze)",
                       "pl": "Zysk na rundę (na milion stawek początkowych)"},
    "col.gain_round_bn": {"en": "Gain per round (per billion initial bets)",
                          "de": "Gewinn je Runde (je Milliarde Grundeinsätze)",
                          "pl": "Zysk na rundę (na miliard stawek początkowych)"},
    "col.hand": {"en": "Hand", "de": "Hand", "pl": "Układ"},
    "col.chart": {"en": "Chart", "de": "Tabelle", "pl": "Tabela"},
    "col.best": {"en": "Best", "de": "Beste", "pl": "Najlepsza"},
    "appendix_b": {"en": "Appendix B: full strategy disclosure", "de": "Anhang B: vollständige Strategieangabe",
                   "pl": "Załącznik B: pełne ujawnienie strategii"},
    "exact_numerator": {"en": "numerator", "de": "Zähler", "pl": "licznik"},
    "exact_denominator": {"en": "denominator", "de": "Nenner", "pl": "mianownik"},
    "exact_long": {"en": "{digits} digits (in report.json)", "de": "{digits} Ziffern (in report.json)",
                   "pl": "{digits} cyfr (w report.json)"},
    "insurance_left_out": {"en": "Blackjacks (probability {p} given an ace up) are left out: they are offered even "
                                 "money instead (below), so the column sums to {total}.",
                           "de": "Blackjacks (Wahrscheinlichkeit {p} bei einem Ass) sind ausgelassen: ihnen wird "
                                 "stattdessen Even Money angeboten (unten); die Spalte ergibt daher {total}.",
                           "pl": "Blackjacki (prawdopodobieństwo {p} przy asie krupiera) są pominięte: zamiast "
                                 "ubezpieczenia oferuje się im Even Money (poniżej), więc kolumna sumuje się do "
                                 "{total}."},
    "evtable.natural_note": {"en": "For A-T against an ace both figures are unconditioned: stand is the blackjack "
                                   "declining even money (it loses nothing to a dealer blackjack, it pushes), even "
                                   "money is +1.",
                             "de": "Für A-T gegen ein Ass sind beide Werte unbedingt: Stehen ist der Blackjack ohne "
                                   "Even Money (gegen einen Blackjack des Dealers ein Push), Even Money ist +1.",
                             "pl": "Dla A-T przeciw asowi obie wartości są bezwarunkowe: stój to blackjack bez Even "
                                   "Money (przeciw blackjackowi krupiera remis), Even Money to +1."},
    "z_undefined": {"en": "– : z is undefined where the exact value has no variance.",
                    "de": "– : z ist nicht definiert, wo der exakte Wert keine Varianz hat.",
                    "pl": "– : z jest nieokreślone, gdy dokładna wartość nie ma wariancji."},
    "rtp_unit": {"en": "RTP", "de": "RTP", "pl": "RTP"},
    "freq_unit": {"en": "Frequency per round", "de": "Häufigkeit je Runde", "pl": "Częstość na rundę"},
    "per_million": {"en": "per million", "de": "je Million", "pl": "na milion"},
    "compliance_title": {"en": "Minimum RTP requirements", "de": "Vorgaben zur Mindest-RTP", "pl": "Wymagania dotyczące minimalnego RTP"},
    "compliance_intro": {"en": "Each requirement of the metadata file against the game's RTP on its basis and in its convention, taken from the strategy table above. A requirement is met when the game's figure is at least the minimum.", "de": "Jede Vorgabe der Metadatendatei gegen die RTP des Spiels auf ihrer Grundlage und in ihrer Konvention, aus der Strategietabelle oben. Eine Vorgabe ist erfüllt, wenn die Zahl des Spiels mindestens das Minimum erreicht.", "pl": "Każde wymaganie z pliku metadanych porównane z RTP gry na jego podstawie i w jego konwencji, według tabeli strategii powyżej. Wymaganie jest spełnione, gdy wartość gry wynosi co najmniej minimum."},
    "compliance_none": {"en": "No minimum RTP was given ([[requirement]] in the --meta file). Fill in the jurisdiction's requirement, the basis it is computed on (optimal play, a disclosed strategy, or random play) and the game's figure on that basis from the strategy table above.", "de": "Es wurde keine Mindest-RTP angegeben ([[requirement]] in der --meta-Datei). Tragen Sie die Vorgabe der Rechtsordnung ein, die Grundlage, auf der sie berechnet wird (optimales Spiel, eine offengelegte Strategie oder zufälliges Spiel), und die Zahl des Spiels auf dieser Grundlage aus der Strategietabelle oben.", "pl": "Nie podano minimalnego RTP ([[requirement]] w pliku --meta). Należy wpisać wymaganie jurysdykcji, podstawę, na której jest liczone (gra optymalna, ujawniona strategia lub gra losowa), oraz wartość gry na tej podstawie z tabeli strategii powyżej."},
    "compliance.col_name": {"en": "Requirement", "de": "Vorgabe", "pl": "Wymaganie"},
    "compliance.col_minimum": {"en": "Minimum RTP", "de": "Mindest-RTP", "pl": "Minimalne RTP"},
    "compliance.col_basis": {"en": "Basis", "de": "Grundlage", "pl": "Podstawa"},
    "compliance.col_convention": {"en": "Convention", "de": "Konvention", "pl": "Konwencja"},
    "compliance.col_figure": {"en": "Game's RTP", "de": "RTP des Spiels", "pl": "RTP gry"},
    "compliance.col_result": {"en": "Result", "de": "Ergebnis", "pl": "Wynik"},
    "basis.optimal": {"en": "optimal play", "de": "optimales Spiel", "pl": "gra optymalna"},
    "basis.disclosed": {"en": "disclosed strategy (basic-strategy chart)", "de": "offengelegte Strategie (Basisstrategie-Tabelle)", "pl": "ujawniona strategia (tabela strategii podstawowej)"},
    "basis.random": {"en": "random play", "de": "zufälliges Spiel", "pl": "gra losowa"},
    "compliance.met": {"en": "met", "de": "erfüllt", "pl": "spełnione"},
    "compliance.not_met": {"en": "NOT MET", "de": "NICHT ERFÜLLT", "pl": "NIESPEŁNIONE"},
    "compliance.not_judged": {"en": "not judged: the strategy table has no figure on this basis", "de": "nicht beurteilt: die Strategietabelle hat keine Zahl auf dieser Grundlage", "pl": "nieocenione: tabela strategii nie ma wartości na tej podstawie"},
    "compliance.unnamed": {"en": "(no name given)", "de": "(ohne Namen)", "pl": "(bez nazwy)"},
    "monitor_title": {"en": "Monitoring limits of the observed RTP", "de": "Überwachungsgrenzen der beobachteten RTP", "pl": "Granice monitorowania obserwowanego RTP"},
    "monitor_intro": {"en": "Where a correct game's observed RTP lies after n rounds of optimal play: it falls below the low limit, or above the high one, with probability at most half of one minus the confidence level each. Per initial bet the limits are exact up to {exact} rounds (the n-fold convolution of the exact distribution of a round); above that they use the Cornish-Fisher expansion (the normal quantile corrected for skewness and kurtosis), which differs from the exact limits by at most {error} percentage points at the switch. Per total wagered they use the delta method (the total staked replaced by its mean) at every n and are approximate. The command bjev monitor gives the same for any number of rounds.", "de": "Wo die beobachtete RTP eines korrekten Spiels nach n Runden optimalen Spiels liegt: unter der unteren oder über der oberen Grenze jeweils mit höchstens der halben Gegenwahrscheinlichkeit des Konfidenzniveaus. Je Grundeinsatz sind die Grenzen bis {exact} Runden exakt (die n-fache Faltung der exakten Verteilung einer Runde); darüber verwenden sie die Cornish-Fisher-Entwicklung (das Normalquantil, korrigiert um Schiefe und Wölbung), die an der Umschaltstelle höchstens {error} Prozentpunkte von den exakten Grenzen abweicht. Je Gesamteinsatz verwenden sie bei jedem n die Delta-Methode (der Gesamteinsatz durch seinen Mittelwert ersetzt) und sind Näherungen. Der Befehl bjev monitor gibt dasselbe für jede beliebige Rundenzahl aus.", "pl": "Gdzie leży obserwowane RTP poprawnej gry po n rundach gry optymalnej: poniżej dolnej lub powyżej górnej granicy z prawdopodobieństwem nie większym niż połowa dopełnienia poziomu ufności, w każdą stronę. Dla stawki początkowej granice są dokładne do {exact} rund (n-krotny splot dokładnego rozkładu rundy); powyżej stosują rozwinięcie Cornisha-Fishera (kwantyl normalny poprawiony o skośność i kurtozę), które w punkcie przełączenia różni się od dokładnych granic o co najwyżej {error} punktu procentowego. Dla łącznej stawki stosują metodę delta (łączna stawka zastąpiona średnią) przy każdym n i są przybliżone. Polecenie bjev monitor podaje to samo dla dowolnej liczby rund."},
    "monitor_table.initial": {"en": "RTP per initial bet (exact RTP {rtp}): limits of the observed RTP (%)", "de": "RTP je Grundeinsatz (exakte RTP {rtp}): Grenzen der beobachteten RTP (%)", "pl": "RTP na stawkę początkową (dokładne RTP {rtp}): granice obserwowanego RTP (%)"},
    "monitor_table.total_wagered": {"en": "RTP per total wagered (exact RTP {rtp}): limits of the observed RTP (%)", "de": "RTP je Gesamteinsatz (exakte RTP {rtp}): Grenzen der beobachteten RTP (%)", "pl": "RTP na łączną stawkę (dokładne RTP {rtp}): granice obserwowanego RTP (%)"},
    "monitor_note": {"en": "An observed RTP outside the limits is a reason to investigate, not proof of a fault: a correct game lands there with the small probability stated.", "de": "Eine beobachtete RTP außerhalb der Grenzen ist ein Anlass zur Prüfung, kein Beweis eines Fehlers: ein korrektes Spiel landet dort mit der angegebenen kleinen Wahrscheinlichkeit.", "pl": "Obserwowane RTP poza granicami jest powodem do sprawdzenia, a nie dowodem błędu: poprawna gra trafia tam z podanym małym prawdopodobieństwem."},
    "monitor_independent": {"en": "These rules make splits of three and four hands, which the round's distribution scores as independent given the dealer's outcome: its mean is within about 1e-6 initial bets of the exact EV. The limits per initial bet up to 100,000 rounds are therefore the exact convolution of that distribution, not of the exact one; the RTPs in the captions are exact.", "de": "Diese Regeln erlauben Teilen auf drei und vier Hände, die die Verteilung der Runde als unabhängig bei gegebenem Ergebnis des Dealers bewertet: ihr Mittelwert liegt höchstens etwa 1e-6 Grundeinsätze vom exakten Erwartungswert entfernt. Die Grenzen je Grundeinsatz bis 100.000 Runden sind daher die exakte Faltung dieser Verteilung, nicht der exakten; die RTP in den Überschriften sind exakt.", "pl": "Te zasady pozwalają na dzielenie na trzy i cztery układy, które rozkład rundy ocenia jako niezależne przy danym wyniku krupiera: jego średnia różni się od dokładnej wartości oczekiwanej o co najwyżej około 1e-6 stawki początkowej. Granice na stawkę początkową do 100 000 rund są więc dokładnym splotem tego rozkładu, a nie dokładnego; RTP w nagłówkach tabel są dokładne."},
    "fig_monitor": {"en": "Limits of the observed RTP per initial bet", "de": "Grenzen der beobachteten RTP je Grundeinsatz", "pl": "Granice obserwowanego RTP na stawkę początkową"},
    "monitor_axis": {"en": "Observed RTP (%)", "de": "Beobachtete RTP (%)", "pl": "Obserwowane RTP (%)"},
    "monitor_expected": {"en": "exact RTP", "de": "exakte RTP", "pl": "dokładne RTP"},
    "monitor_band": {"en": "{level} %", "de": "{level} %", "pl": "{level} %"},
    "blank": {"en": "________________", "de": "________________", "pl": "________________"},
}

__all__ = ["LAB_MESSAGES"]
