"""*Why First?*: Leo in the two-player game (WF-9), where stages are scored (WF-6), and the
tactical variant (WF-10) against the base game."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from racedeck.report import plots, wording
from racedeck.report.analysis import bot_standings, seat_balance
from racedeck.report.batches import MAIN, Batch, BatchResult, batch_seed, fit_lineup
from racedeck.report.document import Cell, Column, Figure, Section, Table
from racedeck.report.findings.base import Findings, GameFindings
from racedeck.report.findings.generic import balance_json, intervals
from racedeck.report.lessons.why_first import SECOND_PLACE
from racedeck.report.stats import (
    detectable_difference,
    mean_difference_test,
    mean_of,
    proportion_test,
    two_proportion_test,
)

__all__ = ["LESSON", "WHY_FIRST"]

TWO_PLAYER = "two-player"
EDGE = "edge-"
_EDGE_BOTS = ("heuristic", "random")


def _variant(config: dict[str, Any]) -> str:
    return str(config.get("variant", "base"))


def _lower(sentence: str) -> str:
    """A sentence of :func:`wording.spread_sentence` to follow a lead-in: "No …" in lower case
    (one that opens with a seat's name keeps it)."""
    return "no" + sentence[2:] if sentence.startswith("No ") else sentence


def _other(variant: str) -> str:
    return "base" if variant == "tactical" else "tactical"


def extra_batches(main: Batch, games: int) -> list[Batch]:
    """Two players with Leo; the other variant; heuristic against random in both variants."""
    players = int(main.config.get("players", 4))
    variant = _variant(main.config)
    other = _other(variant)
    out = []
    if players != 2:
        out.append(
            Batch(
                TWO_PLAYER,
                "Two players with Leo",
                main.game_id,
                {**main.config, "players": 2},
                fit_lineup(main.lineup, 2),
                games,
                batch_seed(main.seed, TWO_PLAYER),
            )
        )
    out.append(
        Batch(
            other,
            f"The {other} variant",
            main.game_id,
            {**main.config, "variant": other},
            main.lineup,
            games,
            batch_seed(main.seed, other),
        )
    )
    lineup = (_EDGE_BOTS[0], *[_EDGE_BOTS[1]] * (players - 1))
    for v in ("base", "tactical"):
        key = EDGE + v
        out.append(
            Batch(
                key,
                f"One heuristic bot against random bots, {v}",
                main.game_id,
                {**main.config, "variant": v},
                lineup,
                games,
                batch_seed(main.seed, key),
                note="rotated over the seats",
            )
        )
    return out


def _leo(result: BatchResult, out: Path) -> Findings:
    balance = seat_balance(result)
    leo = len(result.names) - 1
    share = balance.shares[leo]
    test = proportion_test(balance.wins[leo], result.n, balance.fair)
    image = "leo_wins.png"
    plots.interval_bars(
        out / image,
        balance.labels,
        {"win share": intervals(balance.shares)},
        title=f"Two players with Leo: win share ({wording.count(result.n)} games)",
        ylabel="share of games won",
        reference=balance.fair,
        reference_label=f"fair share {wording.pct(balance.fair)}",
    )
    rows: list[list[Cell]] = [
        [
            balance.labels[i],
            balance.wins[i],
            s.value,
            s.low,
            s.high,
            mean_of([g.scores[i] for g in result.games]).value,
        ]
        for i, s in enumerate(balance.shares)
    ]
    table = Table(
        (
            Column("figure", "text"),
            Column("wins"),
            Column("win share", "pct"),
            Column("95% CI low", "pct"),
            Column("95% CI high", "pct"),
            Column("mean total"),
        ),
        rows,
    )
    sentence = wording.fair_share_sentence(
        "In the two-player game Leo", share, balance.fair, test, of="games"
    )
    seats = wording.spread_sentence(
        balance.labels[:2], balance.values[:2], result.n, balance.test, balance.gap
    )
    section = Section(
        "leo",
        "Leo in the two-player game",
        [
            "With two players the engine plays a third figure, Leo, who flips his own cards "
            "onto himself (WF-9); he wins like anyone else when his total is the second "
            f"highest. Bots: {', '.join(result.batch.lineup)}.",
            sentence,
            f"Between the two players: {seats}",
        ],
        [
            Figure(
                image,
                "Two players with Leo: win share",
                "Share of two-player games won by each player and by Leo, with 95% Wilson "
                "intervals; the dashed line is a third of the games.",
                table,
            )
        ],
    )
    data = {"leo": {**balance_json(balance), "leo_test": test.to_json()}}
    return Findings([section], [f"Leo: {sentence}"], data)


def _spaces(result: BatchResult) -> tuple[Counter[int], int, int]:
    counts: Counter[int] = Counter()
    nobody = stages = 0
    for g in result.games:
        for space in g.extra.get("spaces", []):
            stages += 1
            if space is None:
                nobody += 1
            else:
                counts[int(space)] += 1
    return counts, nobody, stages


def _scoring_space(results: list[BatchResult], out: Path, main: str) -> Findings:
    image = "scoring_space.png"
    series: dict[str, Counter[int]] = {}
    nobody: dict[str, float] = {}
    stats: dict[str, dict[str, Any]] = {}
    for r in results:
        name = _variant(r.batch.config)
        counts, none, stages = _spaces(r)
        series[name], nobody[name] = counts, float(none)
        spaces = [float(v) for v, c in counts.items() for _ in range(c)]
        m = mean_of(spaces)
        negative = sum(c for v, c in counts.items() if v < 0)
        stats[name] = {
            "stages": stages,
            "nobody_scores": none,
            "mean_space": m.value,
            "ci95": [m.low, m.high],
            "negative_share": negative / stages if stages else 0.0,
            "counts": {str(v): c for v, c in sorted(counts.items())},
        }
    plots.count_bars(
        out / image,
        series,
        title="Where the scoring (second) figure stands when a stage is scored",
        xlabel="scoring space (points for the figures on it)",
        ylabel="share of stages",
        unit="stages",
        extra=nobody,
        extra_label="none",
        whole=True,  # the track bounds the spaces (WF-1): no far tail, and every space counts
    )
    values = sorted({v for c in series.values() for v in c})
    names = list(series)
    columns = [Column("space", "text")]
    for name in names:
        columns += [Column(f"stages ({name})", "int"), Column(f"share ({name})", "pct")]
    rows: list[list[Any]] = []
    for v in [None, *values]:
        row: list[Any] = ["none (all on one space)" if v is None else f"{v:+d}"]
        for name in names:
            c = nobody[name] if v is None else series[name].get(v, 0)
            total = stats[name]["stages"]
            row += [int(c), c / total if total else 0.0]
        rows.append(row)
    paragraphs = [
        "A stage scores the second farthest distinct space: every figure on it gains that many "
        "points, which may be negative, and nobody scores when all figures share one space "
        "(WF-6). The distribution shows how often each space decides a stage."
    ]
    summary = ""
    for name in names:
        s = stats[name]
        text = (
            f"In the {name} game the scoring space averages {s['mean_space']:+.2f} "
            f"(95% CI {s['ci95'][0]:+.2f} to {s['ci95'][1]:+.2f}); "
            f"{wording.pct(s['negative_share'])} of stages score a negative space and "
            f"{wording.pct(s['nobody_scores'] / s['stages'] if s['stages'] else 0.0)} "
            "score nobody."
        )
        paragraphs.append(text)
        if name == main:
            summary = f"Scoring space: {text}"
    section = Section(
        "scoring-space",
        "The scoring space",
        paragraphs,
        [
            Figure(
                image,
                "Scoring space",
                "Share of stages scored on each space, by variant ('none': all figures shared "
                "one space).",
                Table(tuple(columns), rows),
            )
        ],
    )
    return Findings([section], [summary], {"scoring_space": stats})


def _variants(results: dict[str, BatchResult], out: Path) -> Findings:
    base, tactical = results["base"], results["tactical"]
    pair = [base, tactical]
    balances = [seat_balance(r) for r in pair]
    seats = base.seats
    labels = list(balances[0].labels[:seats])
    seats_image = "variant_seats.png"
    plots.interval_bars(
        out / seats_image,
        labels,
        {
            f"{_variant(r.batch.config)} ({wording.count(r.n)} games)": intervals(b.shares[:seats])
            for r, b in zip(pair, balances, strict=True)
        },
        title="Win share by seat: base game and tactical variant",
        ylabel="share of games won",
        reference=balances[0].fair,
        reference_label=f"fair share {wording.pct(balances[0].fair)}",
    )
    totals = [[s for g in r.games for s in g.scores] for r in pair]
    winning = [[g.scores[w] for g in r.games for w in g.winners] for r in pair]
    totals_image = "variant_totals.png"
    plots.boxes(
        out / totals_image,
        ["base\nevery figure", "base\nwinners", "tactical\nevery figure", "tactical\nwinners"],
        [totals[0], winning[0], totals[1], winning[1]],
        title="Final totals: base game and tactical variant",
        ylabel="total points",
    )
    edges = [results[EDGE + v] for v in ("base", "tactical")]
    standings = [next(s for s in bot_standings(r) if s.bot == _EDGE_BOTS[0]) for r in edges]
    edge_image = "variant_heuristic_edge.png"
    plots.interval_bars(
        out / edge_image,
        [f"{_variant(r.batch.config)} ({wording.count(r.n)} games)" for r in edges],
        {"heuristic": intervals([s.share for s in standings])},
        title="The heuristic bot against random bots",
        ylabel="share of games won by the heuristic bot",
        reference=standings[0].fair,
        reference_label=f"fair share {wording.pct(standings[0].fair)}",
    )
    edge_test = two_proportion_test(standings[0].wins, edges[0].n, standings[1].wins, edges[1].n)
    totals_test = mean_difference_test(totals[1], totals[0])
    winning_test = mean_difference_test(winning[1], winning[0])
    decisions = [mean_of([float(g.decisions) for g in r.games]) for r in pair]
    rows: list[list[Any]] = []
    for r, b, t, w, d, s in zip(pair, balances, totals, winning, decisions, standings, strict=True):
        mt, mw = mean_of(t), mean_of(w)
        rows.append(
            [
                _variant(r.batch.config),
                r.n,
                b.test.p_value,
                mt.value,
                mw.value,
                d.value,
                s.share.value,
                s.share.low,
                s.share.high,
            ]
        )
    table = Table(
        (
            Column("variant", "text"),
            Column("games", "int"),
            Column("seat balance p (chi-square)", "p"),
            Column("mean total"),
            Column("mean winning total"),
            Column("mean decisions"),
            Column("heuristic win share", "pct"),
            Column("95% CI low", "pct"),
            Column("95% CI high", "pct"),
        ),
        rows,
    )
    seat_words = [
        f"In the {_variant(r.batch.config)} game, "
        + _lower(wording.spread_sentence(labels, b.values[:seats], r.n, b.test, b.gap))
        for r, b in zip(pair, balances, strict=True)
    ]
    totals_words = (
        f"The tactical variant changes the mean final total from {totals_test.b:.2f} to "
        f"{totals_test.a:.2f} points and the mean winning total from {winning_test.b:.2f} to "
        f"{winning_test.a:.2f} ({'significant' if winning_test.significant else 'not significant'}"
        f" for the winning total: z-test, {wording.p_text(winning_test.p_value)}); games take "
        f"{decisions[1].value:.0f} decisions instead of {decisions[0].value:.0f}, since every "
        "card also moves a figure its player chooses (WF-10)."
    )
    edge_words = (
        f"One heuristic bot among random bots wins {wording.pct(standings[0].share.value)} of "
        f"base games (95% CI {wording.pct_interval(standings[0].share)}) and "
        f"{wording.pct(standings[1].share.value)} of tactical games "
        f"({wording.pct_interval(standings[1].share)}), against a fair share of "
        f"{wording.pct(standings[0].fair)}; between the variants "
        + wording.comparison_verdict(edge_test, standings[0].fair, edges[0].n, edges[1].n)
        + "."
    )
    told = detectable_difference(balances[0].fair, base.n, tactical.n)
    resolution = wording.resolution_sentence(
        balances[0].fair, base.n, tactical.n, lead="A seat compared between the variants"
    )
    section = Section(
        "tactical",
        "The tactical variant",
        [
            "In the tactical variant cards are committed without a target and then move one "
            "chosen figure each, highest white number first (WF-10). Same bots, same player "
            "count, independent seeds.",
            *seat_words,
            resolution,
            totals_words,
            edge_words,
        ],
        [
            Figure(
                seats_image,
                "Seat balance by variant",
                "Win share by seat in each variant, with 95% Wilson intervals. These games "
                "cannot tell the variants apart in a seat's share by less than "
                f"{wording.percentage_points(told)} (95% confidence, 80% power).",
                Table(
                    (Column("seat", "text"), Column("base", "pct"), Column("tactical", "pct")),
                    [
                        [labels[i], balances[0].values[i], balances[1].values[i]]
                        for i in range(seats)
                    ],
                ),
            ),
            Figure(
                totals_image,
                "Final totals by variant",
                "Distribution of every figure's final total, and of the winners' totals.",
                table,
            ),
            Figure(
                edge_image,
                "The heuristic bot's edge by variant",
                "Share of games won by one heuristic bot seated with random bots (lineup "
                "rotated over the seats), with 95% Wilson intervals.",
                Table(
                    (
                        Column("variant", "text"),
                        Column("games", "int"),
                        Column("heuristic wins"),
                        Column("win share", "pct"),
                        Column("95% CI low", "pct"),
                        Column("95% CI high", "pct"),
                        Column("fair share", "pct"),
                        Column("p (vs fair)", "p"),
                    ),
                    [
                        [
                            _variant(r.batch.config),
                            r.n,
                            s.wins,
                            s.share.value,
                            s.share.low,
                            s.share.high,
                            s.fair,
                            s.test.p_value,
                        ]
                        for r, s in zip(edges, standings, strict=True)
                    ],
                ),
            ),
        ],
    )
    data = {
        "variants": {
            _variant(r.batch.config): {
                "seats": balance_json(b),
                "mean_total": mean_of(t).value,
                "mean_winning_total": mean_of(w).value,
                "mean_decisions": d.value,
                "heuristic_edge": {
                    "share": s.share.value,
                    "ci95": [s.share.low, s.share.high],
                    "fair_share": s.fair,
                    "test": s.test.to_json(),
                },
            }
            for r, b, t, w, d, s in zip(
                pair, balances, totals, winning, decisions, standings, strict=True
            )
        },
        "variant_tests": {
            "heuristic_edge": edge_test.to_json(),
            "mean_total": totals_test.to_json(),
            "mean_winning_total": winning_test.to_json(),
        },
    }
    return Findings([section], [f"Tactical variant: {totals_words} {edge_words}"], data)


def findings(results: dict[str, BatchResult], out: Path) -> Findings:
    """Leo, the scoring space and the tactical variant."""
    main = results[MAIN]
    variant = _variant(main.batch.config)
    by_variant = {variant: main, _other(variant): results[_other(variant)]}
    found = Findings()
    two = main if len(main.names) > main.seats else results.get(TWO_PLAYER)
    if two is not None and two.n:
        found.add(_leo(two, out))
    found.add(_scoring_space([by_variant["base"], by_variant["tactical"]], out, variant))
    found.add(_variants({**results, **by_variant}, out))
    return found


def fixed_length(result: BatchResult, decisions: int) -> str | None:
    """Why every game takes ``decisions`` decisions, when the rules account for exactly that
    many: stages × card rounds × players, the last card of a stage playing itself (WF-5); in
    the tactical variant every card also moves a figure its player chooses (WF-10)."""
    stages = int(result.config_value("stages", 5))
    rounds = int(result.config_value("hand_size", 5))
    players = result.seats
    if _variant(result.batch.config) == "tactical":
        count = stages * players * ((rounds - 1) + rounds)
        words = (
            f"{stages} stages (WF-7) × {players} players × ({rounds - 1} cards to commit, the "
            f"last one playing itself (WF-5), + {rounds} figures to move (WF-10))"
        )
    else:
        count = stages * players * (rounds - 1)
        words = (
            f"{stages} stages (WF-7) × {players} players × {rounds - 1} card rounds with a "
            f"choice, the {rounds}th card playing itself (WF-5)"
        )
    if count != decisions:
        return None  # the count has another cause (e.g. forced moves): no made-up reason
    return f"the rules fix it at {words} = {decisions}"


WHY_FIRST = GameFindings(
    score="total points",
    turns=None,
    extra_batches=extra_batches,
    findings=findings,
    fixed_length=fixed_length,
)
"""The *Why First?* part of a report."""


FINDINGS = WHY_FIRST
"""What a report knows about the game (its ``findings`` plugin)."""

LESSON = SECOND_PLACE
"""What the section on the learned bot measures of the game: how often it plays for second."""
