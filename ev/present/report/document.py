"""The report as a list of blocks in one language: what the three renderers draw.

``build_document(report, lang)`` turns the figures of a :class:`Report` into
headings, paragraphs, tables, a quotation and images, with every number
formatted for ``lang``.  It computes nothing: each value is read from the
report object.  ``render_md``, ``render_html`` and ``render_pdf`` only lay
the blocks out in their format.
"""
from __future__ import annotations

from functools import partial

from ev.analysis.strategies import SCOPE_ALL
from ev.core.cards import RANK_SYMBOLS
from ev.core.rules import FIELD_NAMES, Rules
from ev.present import rule_text
from ev.present.i18n import join_and, rules_summary
from ev.present.numbers import integer, localized, net_text, number, percent
from ev.present.report import figures
from ev.present.report.blocks import Document, Heading, Image, PageBreak, Paragraph, Quote, Table, kv_table, pct
from ev.present.report.model import DEAL_CLASSES, UP_SYMBOLS, Report
from ev.present.report.texts import check_language, t, t_or, yes_no

#: a number longer than this (exact fractions of resplit games) is not printed in the PDF's tables
LONG_NUMBER = 48


# ----- helpers -----------------------------------------------------------------------------
def _ups(mapping: dict) -> list[str]:
    return [u for u in UP_SYMBOLS if u in mapping]


def _kv(rows: list[tuple[str, str]], lang: str, text: bool = False) -> Table:
    return kv_table(rows, lang, text)


def _pct(x: float | None, lang: str, digits: int = 6, sign: bool = False) -> str:
    return pct(x, lang, digits, sign)


def _num_pct(x: float | None, lang: str, digits: int = 4, sign: bool = False) -> str:
    """A fraction in percent without the unit (the column header names it)."""
    return "–" if x is None else number(100 * x, digits, lang, sign)


def _reason(section: dict, lang: str) -> str:
    reason = section.get("reason", "")
    key = {"skipped (--simulate-rounds 0)": "skipped.simulation",
           "skipped (--skip-rules-effect)": "skipped.rules_effect"}.get(reason)
    return t(key, lang) if key else reason


def _not_available(section: dict, lang: str) -> Paragraph:
    return Paragraph(t("not_available", lang, reason=_reason(section, lang)))


def _open_section(doc: Document, key: str, section: dict, lang: str) -> bool:
    """Add the section's heading; if its figures are not available, say why and return False."""
    doc.add(Heading(t(key, lang)))
    if section.get("available"):
        return True
    doc.add(_not_available(section, lang))
    return False


# ----- the document ---------------------------------------------------------------------------
def build_document(report: Report, lang: str) -> Document:
    check_language(lang)
    ident, method = report.identification, report.method
    from ev.present.report import lab_blocks
    from ev.present.report.strategy_blocks import appendix_blocks
    game = ident["game"] if ident["game"] != "custom rule set" else t("custom_rule_set", lang)
    meta = ident["meta"]
    doc_id = f" · {meta['document_id']}" if meta.get("document_id") else ""
    doc = Document(lang=lang, title=f"{t('title', lang)}: {game}", subtitle=t("subtitle", lang, game=game),
                   footer=f"{game}{doc_id} · bjev {method['version']} · SHA-256 {ident['rules_sha256'][:12]}…")
    doc.add(Paragraph(t("generated_by", lang, date=method["date"], version=method["version"])))
    _key_figures(doc, report, lang)
    _glance(doc, report, lang)
    _identification(doc, report, lang)
    doc.add(*lab_blocks.meta_blocks(report, lang))
    doc.add(*lab_blocks.reading_blocks(report, lang))
    _method(doc, report, lang)
    doc.add(*lab_blocks.assumption_blocks(report, lang))
    _rtp(doc, report, lang)
    doc.add(*lab_blocks.strategies_blocks(report, lang))
    doc.add(*lab_blocks.compliance_blocks(report, lang))
    _upcards(doc, report, lang)
    _decisions(doc, report, lang)
    doc.add(*lab_blocks.exposure_blocks(report, lang))
    _volatility(doc, report, lang)
    doc.add(*lab_blocks.volatility_index_blocks(report, lang))
    doc.add(*lab_blocks.monitoring_blocks(report, lang))
    _strategy(doc, report, lang)
    _sensitivity(doc, report, lang)
    _verification(doc, report, lang)
    doc.add(*lab_blocks.reproducibility_blocks(report, lang))
    if report.strategy.get("available"):
        doc.add(*appendix_blocks(report.strategy, lang, Rules(**ident["rules"])))
        doc.add(*lab_blocks.disclosure_blocks(report, lang))
    doc.add(*lab_blocks.self_check_blocks(report, lang))
    doc.add_contents(t("contents", lang))
    return doc


def _key_figures(doc: Document, r: Report, lang: str) -> None:
    rtp, vol = r.rtp, r.volatility
    doc.add(Heading(t("key_figures", lang), 2), _kv([
        (t("rtp_total_wagered", lang), _pct(rtp["rtp_total_wagered"], lang)),
        (t("rtp_initial", lang), _pct(rtp["rtp_initial"], lang)),
        (t("house_edge", lang), _pct(rtp["house_edge"], lang)),
        (t("expected_wager", lang), number(rtp["expected_total_wager"], 9, lang)),
        (t("sd", lang), number(vol["sd"], 9, lang)),
        (t("hit_frequency", lang), _pct(vol["hit_frequency"], lang, 4)),
    ], lang))
    if vol.get("distribution_method") == "independent":
        doc.add(Paragraph(t("key_independent", lang), note=True))
    doc.add(_published(rtp, lang))


def _glance(doc: Document, r: Report, lang: str) -> None:
    """The title page's summary: the rules, the play behind the figures, the lowest RTP of any legal play, and
    the verdicts a reader looks for first (simulation, self-checks, minimum-RTP requirements)."""
    split = t(f"split.{r.method['split_strategy']}", lang)
    rows = [(t("glance.rules", lang), rules_summary(Rules(**r.identification["rules"]), lang)),
            (t("glance.play", lang), t("glance.play_value", lang, split=split))]
    minimum = r.strategies.get("minimum") or {}
    if minimum.get("available"):        # over all legal play, or (resplits, larger shoes) split hands CDZ- only
        label = "glance.minimum" if minimum.get("scope") == SCOPE_ALL else "glance.minimum_cdz"
        # the lowest EV is the lowest RTP per initial bet, and a floor per total wagered (every round stakes at
        # least the initial bet); that strategy's own RTP per total wagered is not the minimum in that convention
        rows.append((t(label, lang), _pct(minimum["rtp_initial"], lang)))
    v = r.verification
    acceptance = v.get("acceptance") if v.get("available") else None
    if acceptance:
        verdict = t("glance.pass" if acceptance["passed"] else "glance.fail", lang)
        rows.append((t("glance.simulation", lang), t("glance.sim_value", lang, verdict=verdict, rounds=integer(
            v["rounds"], lang), made=acceptance["checks_made"])))
    else:
        rows.append((t("glance.simulation", lang), t("glance.sim_none", lang)))
    checks = r.self_checks.get("checks", [])
    rows.append((t("glance.self_checks", lang), t("glance.checks_value", lang, total=len(checks),
                                                   passed=sum(bool(c["passed"]) for c in checks))))
    required = (r.strategies.get("compliance") or {}).get("requirements", [])
    failed = sum(q["passed"] is False for q in required)
    rows.append((t("glance.compliance", lang),
                 t("glance.compliance_none", lang) if not required else
                 t("glance.compliance_some", lang, failed=failed, n=len(required)) if failed else
                 t("glance.compliance_all", lang, n=len(required)) if all(q["passed"] for q in required) else
                 t("compliance.not_judged", lang)))
    doc.add(Heading(t("glance.title", lang), 2), _kv(rows, lang, text=True))


def published_text(published: dict, lang: str) -> str:
    """A published RTP as the game prints it: '99.59 %' ('99,59 %')."""
    return percent(published["value"], published["decimals"], lang)


def _published(rtp: dict, lang: str) -> Paragraph:
    """The sentence comparing the RTP with the published figure; or that none was given."""
    pub = rtp["published"]
    if pub is None:
        return Paragraph(t("rtp_no_published", lang))
    if pub["source"] == "seed":          # the seed game: its own words, per total wagered
        key = "rtp_published" if rtp["matches_published"] else "rtp_not_published"
        return Paragraph(t(key, lang, value=_pct(rtp["rtp_total_wagered"], lang), published=published_text(pub, lang),
                           rounded=percent(rtp["rtp_total_wagered"], 2, lang), initial=_pct(rtp["rtp_initial"], lang)))
    value = rtp["rtp_total_wagered"] if pub["convention"] == "total_wagered" else rtp["rtp_initial"]
    fields = {"convention": t(f"convention.{pub['convention']}", lang), "value": _pct(value, lang),
              "rounded": percent(value, pub["decimals"], lang), "published": published_text(pub, lang),
              "diff": number(100 * (value - pub["value"]), pub["decimals"] + 2, lang, sign=True)}
    return Paragraph(t("rtp_published_meta" if rtp["matches_published"] else "rtp_differs_meta", lang, **fields))


def _identification(doc: Document, r: Report, lang: str) -> None:
    ident = r.identification
    rules = ident["rules"]
    game = ident["game"] if ident["game"] != "custom rule set" else t("custom_rule_set", lang)
    doc.add(PageBreak(), Heading(t("s1", lang)), _kv([
        (t("game", lang), game),
        (t("rule_set", lang), t("rule_set_default" if ident["default_game"] else "rule_set_other", lang)),
        (t("rules_summary", lang), rules_summary(Rules(**rules), lang)),
        (t("rules_sha", lang), ident["rules_sha256"]),
    ], lang, text=True))
    if ident["seed_rules_quoted"]:
        from ev.present.report.model import seed_rule_text
        doc.add(Paragraph(t("rules_quoted", lang)), Quote(seed_rule_text(lang)))
    else:
        doc.add(Paragraph(t("rules_not_quoted", lang)))
    ruleset = Rules(**rules)
    doc.add(Heading(t("rule_parameters", lang), 2),
            Table([t("parameter", lang), t("value", lang), t("meaning", lang)],
                  [[name, _rule_value(name, rules[name], lang),
                    t(f"rule.{name}", lang) + ("" if ruleset.has_effect(name) else f" ({t('rule_no_effect', lang)})")]
                   for name in FIELD_NAMES if name in rules], align="lll", widths=[3, 1.8, 5], small=True))


def _rule_value(name: str, value, lang: str) -> str:
    """A rule value in words ('yes', 'ten only', 'original bet'); numbers and payouts as they are."""
    if isinstance(value, bool):
        return yes_no(value, lang)
    return t_or(f"value.{name}.{value}", lang, str(value).replace("-", "–"))


def _method(doc: Document, r: Report, lang: str) -> None:
    m = r.method
    rules = Rules(**r.identification["rules"])
    doc.add(Heading(t("s2", lang)),
            Paragraph(t("method_enum", lang, cards=integer(m["cards"], lang))),
            Paragraph(rule_text.peek_method(rules, lang)),
            Paragraph(t("method_split", lang, name=t(f"split.{m['split_strategy']}", lang),
                        exactness=rule_text.split_exactness(rules, lang))),
            Paragraph(t("method_rtp", lang)),
            _kv([(t("software", lang), f"bjev {m['version']}"),
                 (t("git_commit", lang), m["git_commit"] or t("repro.not_recorded", lang)),
                 (t("rules_sha", lang), m["rules_sha256"]),
                 (t("split_strategy", lang), t(f"split.{m['split_strategy']}", lang)),
                 (t("date", lang), m["timestamp"])], lang, text=True))


def _rtp(doc: Document, r: Report, lang: str) -> None:
    rtp = r.rtp
    doc.add(Heading(t("s3", lang)), _kv([
        (t("ev", lang), _pct(rtp["ev"], lang, sign=True)),
        (t("house_edge", lang), _pct(rtp["house_edge"], lang)),
        (t("rtp_initial", lang), _pct(rtp["rtp_initial"], lang)),
        (t("expected_wager", lang), number(rtp["expected_total_wager"], 9, lang)),
        (t("rtp_total_wagered", lang), _pct(rtp["rtp_total_wagered"], lang)),
        (t("house_edge_tw", lang), _pct(rtp["house_edge_total_wagered"], lang)),
    ], lang))
    doc.add(_published(rtp, lang))
    exact = rtp["exact"]
    doc.add(Heading(t("exact_title", lang), 2))
    if exact.get("available"):
        rows = []
        for key, label in (("ev", "exact_ev"), ("rtp_initial", "exact_rtp"), ("expected_total_wager", "exact_wager"),
                           ("rtp_total_wagered", "exact_rtp_tw")):
            numerator, _, denominator = exact[key].partition("/")
            rows += [(f"{t(label, lang)}, {t('exact_numerator', lang)}", _long(numerator, lang)),
                     (f"{t(label, lang)}, {t('exact_denominator', lang)}", _long(denominator, lang)),
                     (f"{t(label, lang)}, {t('exact_decimal', lang)}", localized(exact[f"{key}_decimal"], lang))]
        doc.add(_kv(rows, lang), Paragraph(t("exact_note", lang), note=True))
    else:
        doc.add(_not_available(exact, lang))
    if not r.strategy.get("available"):
        doc.add(Paragraph(t("no_chart_rtp", lang, reason=r.strategy.get("reason", "")), note=True))


def _long(digits: str, lang: str) -> str:
    """An integer of an exact fraction on its own line; too long for a table cell: its length (in report.json)."""
    if len(digits) > LONG_NUMBER:
        return t("exact_long", lang, digits=integer(len(digits.lstrip("-")), lang))
    return digits


def _upcards(doc: Document, r: Report, lang: str) -> None:
    u = r.upcards
    ups = _ups(u["p_upcard"])
    rows = [[u_, number(u["p_upcard"][u_], 6, lang), _num_pct(u["ev_by_upcard"][u_], lang, 4, sign=True),
             _num_pct(u["p_upcard"][u_] * u["ev_by_upcard"][u_], lang, 4, sign=True)] for u_ in ups]
    doc.add(Heading(t("s4", lang)),
            Table([t("up", lang), t("p_up", lang), f"{t('ev_given_up', lang)} (%)", f"{t('contribution', lang)} (%)"],
                  rows, widths=[1.5, 2, 2.5, 2.5]),
            Paragraph(t("ev_by_up_note", lang, ev=_pct(r.rtp["ev"], lang, sign=True)), note=True),
            Image(partial(figures.ev_by_upcard_png, r.charts["ev_by_upcard"], lang, t("fig_ev_by_up", lang),
                          t("up", lang)), t("fig_ev_by_up", lang), 0.7, "ev-by-upcard.png"))
    outcomes = u["dealer_outcomes"]
    head = [t("up", lang)] + [t(f"outcome.{o}", lang) if o in ("bust", "blackjack") else o for o in outcomes]
    doc.add(Heading(t("dealer_title", lang), 2),
            Table(head, [[u_] + [number(u["dealer_unconditioned"][u_][o], 4, lang) for o in outcomes] for u_ in ups],
                  small=True),
            Paragraph(t("dealer_note", lang), note=True))
    doc.add(Heading(t("dealer_cond_title", lang), 2))
    cond = u["dealer_conditioned"]
    if cond:
        doc.add(Table(head, [[u_] + [number(cond[u_][o], 4, lang) for o in outcomes] for u_ in _ups(cond)],
                      small=True),
                Paragraph(t("dealer_cond_note", lang,
                            reason=rule_text.settled_reason(Rules(**r.identification["rules"]), lang)), note=True))
    else:
        doc.add(Paragraph(t("dealer_cond_none", lang)))
    classes = u["deal_classes"]
    head = [t("up", lang), t("p_up", lang)] + [t(f"class.{c}", lang) for c in DEAL_CLASSES]
    rows = [[u_, number(u["p_upcard"][u_], 6, lang)] + [number(classes[u_][c], 6, lang) for c in DEAL_CLASSES]
            for u_ in ups]
    rows.append([t("total", lang), number(sum(u["p_upcard"].values()), 6, lang)]
                + [number(u["deal_class_totals"][c], 6, lang) for c in DEAL_CLASSES])
    doc.add(Heading(t("deals_title", lang), 2), Table(head, rows, small=True, bold_last=True),
            Paragraph(t("deals_note", lang), note=True))


def _decisions(doc: Document, r: Report, lang: str) -> None:
    d = r.decisions
    doc.add(Heading(t("s5", lang)), _kv([
        (t("p_double", lang), _pct(d["p_double"], lang, 4)),
        (t("p_split", lang), _pct(d["p_split"], lang, 4)),
        (t("p_insurance", lang), _pct(d["p_insurance"], lang, 4)),
        (t("p_even_money", lang), _pct(d["p_even_money"], lang, 4)),
        (t("p_player_bj", lang), _pct(d["p_player_blackjack"], lang, 4)),
        (t("p_dealer_bj", lang), _pct(d["p_dealer_blackjack"], lang, 4)),
        (t("expected_wager", lang), number(d["expected_total_wager"], 9, lang)),
    ], lang))
    if d.get("p_double_approximate"):
        doc.add(Paragraph(t("decisions_independent", lang), note=True))
    if r.assumptions.get("returned_wagers_possible"):
        doc.add(Paragraph(t("decisions_returned", lang, cards=join_and(
            rule_text.original_only_ups(Rules(**r.identification["rules"])), lang)), note=True))
    doc.add(Heading(t("insurance_title", lang), 2))
    if d["insurance_offered"] and d["insurance"]:
        doc.add(Paragraph(t("insurance_intro", lang)),
                Table([t("tens_in_hand", lang), t("p_hand_given_ace", lang), t("p_dealer_bj", lang),
                       t("insurance_ev", lang), t("take", lang)],
                      [[str(g["tens_in_hand"]), number(g["probability"], 6, lang),
                        number(g["p_dealer_blackjack"], 6, lang), number(g["insurance_ev"], 6, lang, sign=True),
                        yes_no(g["taken"], lang)] for g in d["insurance"]]
                      + [[t("total", lang), number(sum(g["probability"] for g in d["insurance"]), 6, lang), "", "",
                          ""]], widths=[4, 2, 2, 2.2, 1.2], bold_last=True),
                Paragraph(t("insurance_left_out" if d["even_money"] else "insurance_left_out_no_even", lang,
                            p=number(d["p_blackjack_given_ace"], 6, lang),
                            total=number(sum(g["probability"] for g in d["insurance"]), 6, lang)), note=True))
        key = "insurance_never" if d["insurance_never_worth_taking"] else "insurance_sometimes"
        doc.add(Paragraph(t(key, lang, best=number(d["insurance_best_ev"], 6, lang, sign=True))))
    else:
        doc.add(Paragraph(t("insurance_off", lang)))
    doc.add(Heading(t("even_title", lang), 2))
    em = d["even_money"]
    if em:
        payout = number(em["ev_declined"] / (1 - em["p_dealer_blackjack"]), 1, lang)
        doc.add(Paragraph(t("even_text", lang, p=number(em["p_dealer_blackjack"], 6, lang),
                            taken=number(em["ev_even_money"], 6, lang), payout=payout,
                            declined=number(em["ev_declined"], 6, lang),
                            diff=number(em["advantage_of_declining"], 6, lang, sign=True),
                            verdict=t("even_take" if em["take"] else "even_decline", lang))))
    else:
        doc.add(Paragraph(t("even_off", lang)))


def _volatility(doc: Document, r: Report, lang: str) -> None:
    v = r.volatility
    dist = v["distribution"]
    title = "dist_title_approx" if v.get("distribution_method") == "independent" else "dist_title"
    doc.add(Heading(t("s6", lang)), Heading(t(title, lang), 2),
            Table([t("net", lang), t("probability", lang)],
                  [[_signed(k, lang), number(p, 9, lang)] for k, p in dist.items()]
                  + [[t("total", lang), number(sum(dist.values()), 9, lang)]], align="rr", widths=[2, 2],
                  bold_last=True),
            Image(partial(figures.distribution_png, r.charts["distribution"], lang, t("fig_dist", lang),
                          t("net", lang), t("probability", lang)), t("fig_dist", lang), 0.7, "distribution.png"),
            _kv([(t("sd", lang), number(v["sd"], 9, lang)),
                 (t("variance", lang), number(v["variance"], 9, lang)),
                 (t("skewness", lang), number(v["skewness"], 6, lang)),
                 (t("hit_frequency", lang), _pct(v["hit_frequency"], lang, 4)),
                 (t("p_push", lang), _pct(v["p_push"], lang, 4)),
                 (t("p_loss", lang), _pct(v["p_loss"], lang, 4)),
                 (t("largest_win_optimal", lang), t("bets", lang, x=_signed(net_text(v["largest_win"]), lang))),
                 (t("largest_loss_optimal", lang), t("bets", lang, x=_signed(net_text(v["largest_loss"]), lang))),
                 (t("rounds_for_ci_pp", lang), integer(v["rounds_for_ci"], lang))], lang),
            Paragraph(t("ci_note_pp", lang, n=integer(v["rounds_for_ci"], lang))))
    if v.get("distribution_method") == "independent":
        doc.add(Paragraph(t("dist_independent", lang, gap=number(v["mean_minus_ev"], 10, lang, sign=True)), note=True))


def _signed(key: str, lang: str) -> str:
    text = key if key.startswith("-") or key == "0" else "+" + key
    return localized(text, lang)


def _strategy(doc: Document, r: Report, lang: str) -> None:
    s = r.strategy
    doc.add(Heading(t("s7", lang)))
    if not s.get("available"):
        doc.add(Paragraph(t("chart_not_available", lang, reason=s.get("reason", ""))))
        return
    doc.add(Paragraph(t("chart_summary", lang, ev=_pct(s["ev"], lang, sign=True), rtp_i=_pct(s["rtp_initial"], lang),
                        rtp_tw=_pct(s["rtp_total_wagered"], lang), cost=_pct(s["cost_vs_optimal"], lang, 4))))
    from ev.present.report.strategy_blocks import strategy_blocks
    doc.add(*strategy_blocks(s, lang))


def _sensitivity(doc: Document, r: Report, lang: str) -> None:
    s = r.sensitivity
    if not _open_section(doc, "s8", s, lang):
        return
    if s["readings"]:
        pub = r.rtp["published"]
        head = [t("reading", lang), t("col.ev_pct", lang), t("col.rtp_i_pct", lang), t("col.rtp_tw_pct", lang)]
        if pub is not None:
            head.append(t("gives_published", lang, published=published_text(pub, lang)))
        rows = [[t_or(f"reading.{v['label']}", lang, v["label"])
                 + (f" ({t('used', lang)})" if v["reading_used"] else ""),
                 _num_pct(v["ev"], lang, 4, sign=True), _num_pct(v["rtp_initial"], lang, 4),
                 _num_pct(v["rtp_total_wagered"], lang, 4)]
                + ([yes_no(v["matches_published"], lang)] if pub is not None else []) for v in s["readings"]]
        doc.add(Heading(t("readings_table", lang), 2),
                Table(head, rows, align="lrrrc"[:len(head)], widths=[6, 2, 2, 2, 1.5][:len(head)], small=True),
                Paragraph(t("readings_note", lang), note=True))
    doc.add(Heading(t("effects_table", lang), 2),
            Table([t("change", lang), t("col.ev_pct", lang), f"{t('ev_change', lang)} ({t('unit.pp', lang)})",
                   t("col.rtp_i_pct", lang), t("col.rtp_tw_pct", lang)],
                  [[t_or(f"effect.{v['label']}", lang, v["label"]), _num_pct(v["ev"], lang, 4, sign=True),
                    _num_pct(v["ev_change"], lang, 4, sign=True), _num_pct(v["rtp_initial"], lang, 4),
                    _num_pct(v["rtp_total_wagered"], lang, 4)] for v in s["effects"]],
                  widths=[5, 2, 2, 2, 2], small=True),
            Paragraph(t("effects_note", lang), note=True))
    if s.get("left_out"):
        doc.add(Paragraph(t("effects_left_out", lang, changes=join_and(
            [t_or(f"effect.{label}", lang, label) for label in s["left_out"]], lang)), note=True))


def _verification(doc: Document, r: Report, lang: str) -> None:
    v = r.verification
    if not _open_section(doc, "s9", v, lang):
        return
    doc.add(Paragraph(t("sim_intro", lang)),
            _kv([(t("rounds", lang), integer(v["rounds"], lang)),
                 (t("seed", lang), str(v["seed"])),
                 (t("generator", lang), v["generator"]),
                 (t("workers", lang), str(v["workers"])),
                 (t("sim_strategy", lang), t("strategy.optimal_cd", lang)
                  if v["strategy"].startswith("optimal composition-dependent") else v["strategy"]),
                 (t("seconds", lang), f"{number(v['seconds'], 1, lang)} s")], lang, text=True))
    a = v["acceptance"]
    doc.add(Paragraph(t("sim_rule", lang, z=number(a["z_limit"], 2, lang), level=number(a["level"], 3, lang),
                        total=number(3 * a["level"], 3, lang))))
    if r.volatility.get("distribution_method") == "independent":
        doc.add(Paragraph(t("sim_rule_independent", lang), note=True))
    rows = []
    for key, label in (("rtp_initial", "rtp_i_short"), ("rtp_total_wagered", "rtp_tw_short")):
        f = v[key]
        rows.append([t(label, lang), _num_pct(f["simulated"], lang, 4), _interval(f["ci95"], lang),
                     _interval(f["ci99"], lang), _num_pct(f["exact"], lang, 4), _z(f["z"], f.get("se"), lang),
                     f"{yes_no(f['exact_in_ci95'], lang)} / {yes_no(f['exact_in_ci99'], lang)}"])
    doc.add(Table([t("rtp_unit", lang), f"{t('simulated', lang)} (%)", f"{t('ci95', lang)} (%)",
                   f"{t('ci99', lang)} (%)", f"{t('exact', lang)} (%)", t("z", lang), t("inside", lang)], rows,
                  widths=[2.6, 1.7, 3.2, 3.2, 1.7, 1, 1.8], small=True))
    if "distinguishing" in v:
        from ev.present.report.lab_blocks import distinguishing_blocks
        doc.add(*distinguishing_blocks(r, lang))
    doc.add(Heading(t("chi_title", lang), 2))
    if v["chi_square"] is not None:
        doc.add(Paragraph(t("chi_text", lang, chi2=number(v["chi_square"], 3, lang), dof=v["chi_square_dof"],
                            p=number(v["chi_square_p_value"], 4, lang))),
                Table([t("net", lang), t("observed", lang), t("expected", lang)],
                      [[", ".join(_signed(net_text(x), lang) for x in c["values"]), integer(c["observed"], lang),
                        number(c["expected"], 1, lang)] for c in v["chi_square_cells"]], widths=[2, 2, 2]))
    doc.add(Paragraph(verdict_text(v["acceptance"], lang)))
    doc.add(Heading(t("freq_title", lang), 2),
            Table([t("freq_unit", lang), f"{t('simulated', lang)} (%)", f"{t('exact', lang)} (%)", t("z", lang)],
                  [[t(f"freq.{name}", lang), _num_pct(f["simulated"], lang, 4), _num_pct(f["exact"], lang, 4),
                    _z(f["z"], f.get("se"), lang)]
                   for name, f in v["frequencies"].items()], widths=[3, 2, 2, 1]),
            Paragraph(t("z_undefined", lang), note=True))


def verdict_text(a: dict, lang: str) -> str:
    """The acceptance rule's verdict (``ev.analysis.simulation.acceptance``) in one sentence."""
    if a["passed"] is None:
        return t("sim_no_verdict", lang)
    if a["passed"]:
        return t("sim_pass", lang, made=a["checks_made"])
    failed = [t(f"sim_check.{c['check']}", lang,
                value=(str(c["value"]) if c["check"] == "support" else
                       number(c["value"], 2 if c["statistic"] == "z" else 4, lang, sign=c["statistic"] == "z")))
              for c in a["checks"] if c["passed"] is False]
    return t("sim_fail", lang, failed="; ".join(failed), total=number(a["false_fail_at_most"], 3, lang))


def _z(z: float | None, se: float | None, lang: str) -> str:
    """A z-score, or '–' where it is undefined (no exact value, or a zero standard error)."""
    if z is None or se is None or se <= 0:
        return "–"
    return number(z, 2, lang, sign=True)


def _interval(ci, lang: str) -> str:
    return f"{number(100 * ci[0], 4, lang)} – {number(100 * ci[1], 4, lang)}"


__all__ = [
    "RANK_SYMBOLS",
    "Document",
    "Heading",
    "Image",
    "PageBreak",
    "Paragraph",
    "Quote",
    "Table",
    "build_document",
]
