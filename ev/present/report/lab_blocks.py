"""The report's blocks for a test lab: identification, assumptions, the peek reading, the strategy table,
exposure, volatility index, what the simulation can tell apart, reproducibility, sign-off and disclosure.

Like ``document``, these only format figures of the :class:`Report`; they compute nothing.
"""
from __future__ import annotations

from functools import partial

from ev.analysis.strategies import SCOPE_ALL
from ev.core.rules import Rules
from ev.present import rule_text
from ev.present.i18n import counted, join_and, tn
from ev.present.numbers import integer, number, percent, scientific
from ev.present.report.blocks import Heading, Paragraph, Table, kv_table, pct
from ev.present.report.lab import DEFAULT_SEED
from ev.present.report.model import SEARCH_DECKS, Report
from ev.present.report.texts import t, t_or

BLANK_ROWS = ("supplier", "game_name", "game_id", "game_version", "jurisdiction", "document_id", "author",
              "reviewer", "approver")


def _blank(value, lang: str) -> str:
    return t("blank", lang) if value in (None, "") else str(value)


def meta_blocks(r: Report, lang: str) -> list:
    """Identification of the document and the game: the metadata fields, blanks where not given."""
    meta = r.identification["meta"]
    limits = (f"{_money(meta['min_bet'], meta, lang)} / {_money(meta['max_bet'], meta, lang)}"
              if meta.get("min_bet") is not None or meta.get("max_bet") is not None else t("blank", lang))
    rows = [(t(f"meta.{k}", lang), _blank(meta.get(k), lang)) for k in BLANK_ROWS]
    rows.append((t("meta.table_limits", lang), limits))
    blocks: list = [Heading(t("meta_title", lang), 2), Paragraph(t("meta_intro", lang), note=True),
                    kv_table(rows, lang, text=True)]
    revisions = meta.get("revision") or [{}]
    keys = ("revision", "date", "author", "description")
    blocks += [Heading(t("revision_title", lang), 2),
               Table([t(f"revision.{k}", lang) for k in keys],
                     [[_blank(rev.get(k), lang) for k in keys] for rev in revisions], align="llll",
                     widths=[1.2, 1.5, 2.5, 5])]
    return blocks


def _money(value, meta: dict, lang: str) -> str:
    if value is None:
        return t("blank", lang)
    text = number(value, 2, lang)
    return f"{text} {meta['currency']}" if meta.get("currency") else text


def assumption_blocks(r: Report, lang: str) -> list:
    a, m = r.assumptions, r.method
    decks = tn("rules.decks", m["decks"], lang)
    blocks: list = [Heading(t("assumptions_title", lang), 2),
                    Paragraph(t("assume.deck", lang, decks=decks, cards=counted(m["cards"], "cards", lang,
                                                                                 integer(m["cards"], lang)))),
                    Paragraph(t("assume.hole_card", lang)), Paragraph(t("assume.rng", lang)),
                    Paragraph(t("assume.side_bets", lang)), Paragraph(_stakes(r, lang))]
    if a["returned_wagers_possible"]:
        cards = join_and(rule_text.original_only_ups(Rules(**r.identification["rules"])), lang)
        text = t("assume.returned", lang, cards=cards, at_risk=number(a["expected_total_wager_at_risk"], 9, lang),
                 rtp_at_risk=pct(a["rtp_total_wagered_at_risk"], lang),
                 placed=number(a["expected_total_wager_placed"], 9, lang),
                 rtp_placed=pct(a["rtp_total_wagered_placed"], lang))
        if a["lower_bound"]:
            text += t("assume.returned_bound", lang)
        blocks.append(Paragraph(text))
    else:
        blocks.append(Paragraph(t("assume.no_returned", lang)))
    return blocks


def _stakes(r: Report, lang: str) -> str:
    """The stakes paragraph: what a round's stake counts, and the even-money convention in force."""
    rtp = r.rtp
    if not r.identification["rules"]["even_money"]:
        return t("assume.stakes", lang, even_money=t("stake.no_even_money", lang))
    text = t(f"stake.even_money.{rtp['even_money_stake']}", lang)
    other = rtp["other_even_money_stake"]
    if rtp["p_even_money"]:
        text += " " + t("stake.optimal_differs", lang, p=pct(rtp["p_even_money"], lang, 4),
                        other=number(other["stake"], 1, lang), wager=number(other["expected_total_wager"], 9, lang),
                        rtp=pct(other["rtp_total_wagered"], lang))
    else:
        text += " " + t("stake.optimal_same", lang)
    return t("assume.stakes", lang, even_money=text)


def _row(r: Report, key: str) -> dict:
    """The strategy table's row ``key``."""
    return next(row for row in r.strategies["rows"] if row["key"] == key)


def reading_blocks(r: Report, lang: str) -> list:
    """The peek reading argued from the text (item 5)."""
    pr, rd = r.peek_reading, r.identification["readings"]
    seed = r.identification["default_game"]
    blocks: list = [Heading(t("readings_title", lang), 2)]
    blocks.append(Paragraph(t("peek.text_en", lang)) if seed else Paragraph(t("readings_custom", lang)))
    if seed:
        blocks.append(Paragraph(t("peek.reading_used", lang)))
    unchecked = (t(f"takes.{rd['unchecked_blackjack_takes']}", lang) if rd["unchecked_blackjack_possible"]
                 else t("peek.no_effect", lang))
    blocks.append(Paragraph(t("peek.other_rules", lang, peek=t(f"peek.{rd['peek']}", lang), unchecked=unchecked)))
    if not seed:
        return blocks
    if pr.get("available") and r.rtp["published"] is not None and pr["consistent"]:
        names = [t_or(f"reading.{label}", lang, label) for label in pr["consistent"]]
        blocks.append(Paragraph(t("peek.consistent", lang, readings="; ".join(names))))
        for item in pr["inconsistent"]:
            blocks.append(Paragraph(t("peek.inconsistent", lang, reading=t_or(f"reading.{item['label']}", lang,
                                                                               item["label"]),
                                      rtp=pct(item["rtp_total_wagered"], lang, 4))))
    elif not pr.get("available"):
        blocks.append(Paragraph(t("peek.unavailable", lang)))
    blocks.append(Paragraph(t("peek.recommend", lang)))
    face = r.sensitivity.get("face_value")
    minimum = r.strategies.get("minimum")
    if face and minimum:
        blocks.append(Paragraph(t("face.text", lang, opt_tw=pct(face["optimal"]["rtp_total_wagered"], lang, 4),
                                  opt_i=pct(face["optimal"]["rtp_initial"], lang, 4),
                                  min_tw=pct(face["minimum"]["rtp_total_wagered"], lang, 4),
                                  min_i=pct(face["minimum"]["rtp_initial"], lang, 4),
                                  base_tw=pct(r.rtp["rtp_total_wagered"], lang, 4),
                                  base_i=pct(r.rtp["rtp_initial"], lang, 4),
                                  bmin_tw=pct(minimum["rtp_total_wagered"], lang, 4),
                                  bmin_i=pct(minimum["rtp_initial"], lang, 4))
                                + (" " + t("face.same_optimal", lang)
                                   if abs(face["optimal"]["ev"] - _row(r, r.strategies["published_refers_to"])["ev"])
                                   < 1e-14 else "")))
    if lang == "pl":
        blocks.append(Paragraph(t("rtp_published_pl", lang)))
    return blocks


def strategies_blocks(r: Report, lang: str) -> list:
    """The RTP of every strategy, the minimum last (item 1); rows these rules do not support, with the reason."""
    s = r.strategies
    rows = [[t_or(f"row.{row['key']}", lang, row["name"]), number(100 * row["ev"], 4, lang, sign=True),
             number(100 * row["rtp_initial"], 4, lang), number(100 * row["rtp_total_wagered"], 4, lang),
             number(row["expected_total_wager"], 6, lang)] if row["available"] else
            [t_or(f"row.{row['key']}", lang, row["name"]), "–", "–", "–", "–"] for row in s["rows"]]
    blocks: list = [Heading(t("strategies_title", lang), 2), Paragraph(t("strategies_intro", lang))]
    pub = r.rtp["published"]
    if pub is not None:
        from ev.present.report.document import published_text
        blocks.append(Paragraph(t("strategies_published", lang, published=published_text(pub, lang),
                                  convention=t(f"convention.{pub['convention']}", lang),
                                  row=t_or(f"row.{s['published_refers_to']}", lang, s["published_refers_to"]))))
    blocks.append(Table([t("col.strategy", lang), t("col.ev_pct", lang), t("col.rtp_i_pct", lang),
                         t("col.rtp_tw_pct", lang), t("col.ew_bets", lang)], rows, widths=[4.2, 2, 2, 2, 1.8]))
    splits = [row["key"].removeprefix("optimal-") for row in s["rows"]
              if row["key"].startswith("optimal-") and row["available"]]
    if len(splits) > 1:      # what CDZ-, CDP1, CDP and truly optimal split play mean, where the table names them
        blocks.append(Paragraph(t("strategies_split_rows", lang, ways="; ".join(t(f"split.{k}", lang) for k in splits)),
                                note=True))
    for row in s["rows"]:
        if not row["available"]:
            blocks.append(Paragraph(t("strategies_missing", lang, row=t_or(f"row.{row['key']}", lang, row["name"]),
                                      reason=t(row["reason_key"], lang, **row["reason_fields"])
                                      if row.get("reason_key") else row["reason"]), note=True))
    others = [row for row in s["rows"] if row["available"] and row.get("other_even_money_stake")]
    if others:
        stake = others[0]["other_even_money_stake"]["stake"]
        blocks.append(Paragraph(t("strategies_even_money", lang, stake=number(stake, 1, lang), rows="; ".join(
            t("strategies_even_money_row", lang, row=t_or(f"row.{row['key']}", lang, row["name"]),
              wager=number(row["other_even_money_stake"]["expected_total_wager"], 6, lang),
              rtp=pct(row["other_even_money_stake"]["rtp_total_wagered"], lang, 4)) for row in others)), note=True))
    if s.get("minimum"):
        blocks.append(Paragraph(minimum_text(s["minimum"], lang), note=True))
    rules = Rules(**r.identification["rules"])
    blocks.append(Paragraph(t("strategies_never_bust", lang, mimic=rule_text.mimic_dealer(rules, lang)), note=True))
    if any(row["key"] == "random" for row in s["rows"]):
        blocks.append(Paragraph(t("strategies_random", lang), note=True))
    return blocks


def compliance_blocks(r: Report, lang: str) -> list:
    """Each regulator's minimum RTP (``--meta`` [[requirement]]) against the game's figure on its basis and
    pass/fail; without any, the same table with blanks to fill in."""
    c = r.strategies.get("compliance") or {"requirements": []}
    head = [t(f"compliance.col_{k}", lang) for k in ("name", "minimum", "basis", "convention", "figure", "result")]
    widths = [3.2, 1.6, 2.6, 1.8, 1.6, 1.6]
    if not c["requirements"]:
        return [Heading(t("compliance_title", lang), 2), Paragraph(t("compliance_none", lang)),
                Table(head, [[t("blank", lang)] * len(head)], align="lrllrl", widths=widths, small=True)]
    rows = []
    for q in c["requirements"]:
        result = ("compliance.not_judged" if q["passed"] is None else
                  "compliance.met" if q["passed"] else "compliance.not_met")
        rows.append([q["name"] or t("compliance.unnamed", lang),
                     pct(q["minimum_rtp"]["value"], lang, q["minimum_rtp"]["decimals"]),
                     t(f"basis.{q['basis']}", lang), t(f"convention.{q['convention']}", lang),
                     "–" if q["figure"] is None else pct(q["figure"], lang, 4), t(result, lang)])
    return [Heading(t("compliance_title", lang), 2), Paragraph(t("compliance_intro", lang)),
            Table(head, rows, align="lrllrl", widths=widths, small=True)]


def minimum_text(m: dict, lang: str) -> str:
    """What the minimum row covers, and the claim "no legal play returns less" only where it is proven."""
    fields = {"rtp_i": pct(m["rtp_initial"], lang, 4), "rtp_tw": pct(m["rtp_total_wagered"], lang, 4)}
    if m.get("scope") == SCOPE_ALL:
        return t("strategies_min_proven", lang, **fields)
    if (m.get("scope_reason") or "").startswith("the search over split hands' play is made for shoes"):
        return t("strategies_min_restricted_decks", lang, limit=SEARCH_DECKS, **fields)
    return t("strategies_min_restricted", lang, **fields)


def _line(description: str, lang: str) -> str:
    """A line of play ('split 2 hands, 0 doubled, insured') in ``lang``."""
    parts = [p.strip() for p in description.split(",")]
    insured = parts[-1] == "insured"
    if insured:
        parts = parts[:-1]
    if parts[0].startswith("split"):
        hands, doubled = parts[0].split()[1], parts[1].split()[0]
        text = t("line.split_none" if doubled == "0" else "line.split", lang, hands=hands, doubled=doubled)
    else:
        text = t(f"line.{', '.join(parts)}", lang)
    return text + (f", {t('line.insured', lang)}" if insured else "")


def exposure_blocks(r: Report, lang: str) -> list:
    """Maximum stake, loss and win per round (item 2)."""
    e = r.exposure
    rows = []
    for key, optimal in (("stake", None), ("loss", -e["optimal_largest_loss"]), ("win", e["optimal_largest_win"])):
        rows.append([t(f"exposure.{key}", lang), number(e[f"max_{key}"], 1, lang),
                     "–" if optimal is None else number(optimal, 1, lang),
                     "; ".join(_line(x, lang) for x in e[f"max_{key}_lines"])])
    blocks: list = [Heading(t("exposure_title", lang), 2),
                    Paragraph(t("exposure_intro", lang, lines=counted(e["lines_enumerated"], "lines", lang,
                                                                       integer(e["lines_enumerated"], lang)))),
                    Table(["", t("exposure.col_any", lang), t("exposure.col_optimal", lang),
                           t("exposure.col_line", lang)], rows, align="lrrl", widths=[2.4, 2.2, 2.2, 4.6]),
                    Paragraph(t("exposure.no_optimal_stake", lang), note=True)]
    if e.get("table_max_bet") is not None:
        meta = r.identification["meta"]
        blocks.append(Paragraph(t("exposure.limits", lang, min=_money(e["table_min_bet"], meta, lang),
                                  max=_money(e["table_max_bet"], meta, lang),
                                  stake=_money(e["max_stake_at_table_max"], meta, lang),
                                  win=_money(e["max_win_at_table_max"], meta, lang))))
    else:
        blocks.append(Paragraph(t("exposure.no_limits" if r.identification["default_game"] else
                                  "exposure.no_limits_custom", lang)))
    return blocks


def volatility_index_blocks(r: Report, lang: str) -> list:
    """The volatility index and the confidence-interval table (item 7)."""
    from ev.present.report.lab import Z_LEVELS
    v = r.volatility
    levels = list(Z_LEVELS)
    vi_rows = [[level, number(Z_LEVELS[level], 4, lang), number(v["volatility_index"][level], 4, lang)]
               for level in levels]
    ci_rows = [[integer(row["rounds"], lang)] + [number(100 * row["half_width"][level], 4, lang)
                                                  for level in levels] for row in v["ci_rounds"]]
    return [Heading(t("vi_title", lang), 2), Paragraph(t("vi_intro", lang, sd=number(v["sd"], 6, lang))),
            Table([t("col.confidence", lang), t("col.z", lang), t("col.vi", lang)], vi_rows, widths=[2, 1.5, 2.5]),
            Heading(t("ci_table_title", lang), 2),
            Paragraph(t("ci_table_intro", lang, rtp=pct(v["ci_rounds"][0]["rtp_initial"], lang))),
            Table([t("col.rounds", lang)] + [t("col.half", lang, level=level) for level in levels], ci_rows,
                  widths=[2.2, 2, 2, 2])]


def monitoring_blocks(r: Report, lang: str) -> list:
    """The limits of the observed RTP after n rounds, both conventions, and their plot (``bjev monitor``)."""
    from ev.present.report import figures
    from ev.present.report.blocks import Image
    m = r.volatility.get("monitoring")
    if not m:
        return []
    levels = m["confidences"]
    head = [t("col.rounds", lang)] + [f"{number(100 * c, 1 if 100 * c % 1 else 0, lang)} %" for c in levels]
    blocks: list = [Heading(t("monitor_title", lang), 2),
                    Paragraph(t("monitor_intro", lang, exact=integer(m["exact_max_rounds"], lang),
                                error=number(100 * max(m["switch_error"].values()), 5, lang)))]
    for convention in ("initial", "total_wagered"):
        rows = [row for row in m["limits"] if row["convention"] == convention]
        if not rows:
            continue
        cell = {(row["rounds"], row["confidence"]): row for row in rows}
        body = [[integer(n, lang)] + [f"{number(100 * cell[n, c]['low'], 4, lang)} – "
                                      f"{number(100 * cell[n, c]['high'], 4, lang)}" for c in levels]
                for n in m["rounds"]]
        blocks += [Paragraph(t(f"monitor_table.{convention}", lang, rtp=pct(rows[0]["expected"], lang, 4)),
                             caption=True),
                   Table(head, body, widths=[2.2, 2.6, 2.6, 2.6], small=True)]
    blocks.append(Paragraph(t("monitor_note", lang), note=True))
    if m.get("distribution_method") == "independent":
        blocks.append(Paragraph(t("monitor_independent", lang, gap=number(m["mean_minus_ev"], 10, lang, sign=True),
                                  exact=integer(m["exact_max_rounds"], lang)), note=True))
    initial = [row for row in m["limits"] if row["convention"] == "initial"]
    blocks.append(Image(partial(figures.monitoring_png, initial, lang, t("fig_monitor", lang), t("col.rounds", lang),
                                t("monitor_axis", lang), t("monitor_expected", lang), t("monitor_band", lang)),
                        t("fig_monitor", lang), 0.75, "monitoring.png"))
    return blocks


def distinguishing_blocks(r: Report, lang: str) -> list:
    """What the simulation can and cannot tell apart, and the rounds needed to confirm a published RTP (item 8)."""
    v = r.verification
    d = v["distinguishing"]
    blocks = [Paragraph(t("sim_repro" if v["seed"] == DEFAULT_SEED else "sim_repro_given", lang, seed=str(v["seed"]))),
              Paragraph(t("sim_distinguish", lang, rounds=integer(d["rounds"], lang),
                          half=number(100 * d["half_width_95"], 4, lang),
                          apart=number(100 * d["conventions_apart"], 4, lang),
                          can=t("can.yes" if d["distinguishes_conventions"] else "can.no", lang)))]
    pub = d["published"]
    if pub is None:
        return blocks + [Paragraph(t("sim_no_published", lang))]
    from ev.present.report.document import published_text
    fields = {"published": published_text(pub, lang), "convention": t(f"convention.{pub['convention']}", lang),
              "low": percent(d["published_interval"][0], pub["decimals"] + 1, lang),
              "high": percent(d["published_interval"][1], pub["decimals"] + 1, lang),
              "margin": number(100 * abs(d["margin"]), pub["decimals"] + 2, lang)}
    if d["rounds_to_confirm_published"] is None:
        return blocks + [Paragraph(t("sim_confirm_outside", lang, **fields))]
    return blocks + [Paragraph(t("sim_confirm", lang, needed=integer(d["rounds_to_confirm_published"], lang),
                                 sd_note=t("sim_sd_note", lang) if pub["convention"] == "total_wagered" else "",
                                 **fields))]


def reproducibility_blocks(r: Report, lang: str) -> list:
    """Section 10: everything to reproduce the report, and the sign-off block (item 3)."""
    p, ident = r.reproducibility, r.identification
    rows = [(t("repro.version", lang), f"bjev {p['version']}"),
            (t("repro.commit", lang), p["git_commit"] or t("repro.not_recorded", lang)),
            (t("repro.python", lang), f"{p['implementation']} {p['python']}"),
            (t("repro.platform", lang), p["platform"]),
            (t("repro.command", lang), p["command_line"] or t("repro.api", lang)),
            (t("repro.rules_sha", lang), p["rules_sha256"])]
    if ident.get("rule_text_sha256"):
        rows += [(t("repro.text_sha", lang, code=code), digest) for code, digest in ident["rule_text_sha256"].items()]
    else:
        rows.append((t("repro.text_sha", lang, code="–"), t("repro.no_text", lang)))
    rows.append((t("repro.seed", lang), str(p["seed"]) if p["seed"] is not None else t("repro.no_seed", lang)))
    meta = ident["meta"]
    sign = [[t(f"meta.{role}", lang), _blank(meta.get(role), lang), t("blank", lang), t("blank", lang)]
            for role in ("author", "reviewer", "approver")]
    return [Heading(t("s10", lang)), Paragraph(t("repro_intro", lang)), kv_table(rows, lang, text=True),
            Heading(t("signoff_title", lang), 2), Paragraph(t("signoff_intro", lang)),
            Table([t("sign.role", lang), t("sign.name", lang), t("sign.date", lang), t("sign.signature", lang)],
                  sign, align="llll", widths=[2, 3.5, 2.5, 3.5], tall=True)]


def disclosure_blocks(r: Report, lang: str) -> list:
    """Appendix B: every composition-dependent exception (item 6)."""
    d = r.disclosure
    if not d.get("rows"):
        return []
    by_cards = ", ".join(f"{counted(int(n), 'cards', lang)}: {c}" for n, c in sorted(d["by_cards"].items(),
                                                                                      key=lambda kv: int(kv[0])))
    rows = [[row["up"], row["hand"], t(f"action.{row['chart']}", lang), t(f"action.{row['best']}", lang),
             number(row["gain"], 6, lang, sign=True), number(1e9 * row["round_gain"], 6, lang)] for row in d["rows"]]
    return [Heading(t("appendix_b", lang)), Heading(t("disclosure_title", lang), 2),
            Paragraph(t("disclosure_intro", lang, count=counted(d["count"], "hands", lang, integer(d["count"], lang)),
                        by_cards=by_cards,
                        total=number(1e6 * d["round_gain_total"], 2, lang),
                        gap=number(1e6 * d["optimal_minus_chart"], 2, lang))),
            Table([t("up", lang), t("col.hand", lang), t("col.chart", lang), t("col.best", lang),
                   t("col.gain_hand", lang), t("col.gain_round_bn", lang)], rows, align="llllrr",
                  widths=[1.3, 2.6, 1.8, 1.8, 2.2, 2.6], small=True)]


def self_check_blocks(r: Report, lang: str) -> list:
    """Appendix C: every self-check with its figure, tolerance, arithmetic and verdict."""
    checks = r.self_checks.get("checks", [])
    if not checks:
        return []
    rows = []
    for c in checks:
        order = " ≥ ".join(t_or(f"row.{k}", lang, t_or(f"row.optimal-{k}", lang, k))
                           for k in c["detail"].get("order", []))
        key = c["key"] + ("_independent" if c["detail"].get("distribution_method") == "independent" else "")
        rows.append([t(f"check.{key}", lang, order=order), scientific(c["figure"], lang),
                     scientific(c["tolerance"], lang), t(f"checks.{c['arithmetic']}", lang),
                     t("checks.pass" if c["passed"] else "checks.fail", lang)])
    failed = sum(not c["passed"] for c in checks)
    return [Heading(t("appendix_c", lang)), Paragraph(t("checks_intro", lang)),
            Table([t("checks.col_check", lang), t("checks.col_figure", lang), t("checks.col_tolerance", lang),
                   t("checks.col_arithmetic", lang), t("checks.col_verdict", lang)], rows, align="lrrll",
                  widths=[6, 1.8, 1.5, 2, 1.6], small=True),
            Paragraph(t("checks.all_passed", lang) if not failed else t("checks.some_failed", lang, n=failed))]


def exceptions_csv(r: Report) -> bytes:
    """exceptions.csv: the disclosure rows (gains in initial bets, the per-round gain per million rounds too)."""
    lines = ["up,hand,cards,chart_action,best_action,gain_per_hand,gain_per_round,gain_per_million_rounds"]
    for row in r.disclosure.get("rows", []):
        lines.append(f"{row['up']},{row['hand']},{row['cards']},{row['chart']},{row['best']},"
                     f"{row['gain']:.12f},{row['round_gain']:.15f},{1e6 * row['round_gain']:.9f}")
    return ("\n".join(lines) + "\n").encode("utf-8")


__all__ = [
    "assumption_blocks",
    "disclosure_blocks",
    "distinguishing_blocks",
    "exceptions_csv",
    "exposure_blocks",
    "meta_blocks",
    "reading_blocks",
    "reproducibility_blocks",
    "self_check_blocks",
    "strategies_blocks",
    "volatility_index_blocks",
]
