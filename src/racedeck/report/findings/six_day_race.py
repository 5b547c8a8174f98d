"""*Six Day Race*: slipstream (SD-5), FAHRERWECHSEL (SD-6), laps lost (SD-10) and STURZ (SD-7)
by seat, and the turn order of the first race (SD-4)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from racedeck.report import plots, wording
from racedeck.report.batches import MAIN, Batch, BatchResult
from racedeck.report.document import Column, Figure, Section, Table
from racedeck.report.findings.base import Findings, GameFindings, five_numbers
from racedeck.report.findings.generic import DISTRIBUTION_COLUMNS, intervals, turn_order_findings
from racedeck.report.measures import GameMeasures
from racedeck.report.stats import Mean, mean_of

__all__ = ["SIX_DAY_RACE"]


def extra_batches(main: Batch, games: int) -> list[Batch]:
    """None: everything is measured on the main batch."""
    return []


def _start_order(g: GameMeasures) -> Sequence[int]:
    return [int(s) for s in g.extra.get("start_order", [])]


def _per_seat(result: BatchResult, key: str) -> list[Mean]:
    return [mean_of([float(g.extra[key][i]) for g in result.games]) for i in range(result.seats)]


def _slipstream(result: BatchResult, out: Path) -> Findings:
    multipliers: Counter[int] = Counter()
    for g in result.games:
        for m, c in g.extra["multipliers"].items():
            multipliers[int(m)] += int(c)
    moves = sum(multipliers.values())
    multiplied = sum(c for m, c in multipliers.items() if m > 1)
    extra = sum(int(g.extra["slip_extra"]) for g in result.games)
    refused = sum(int(g.extra["refused"]) for g in result.games)
    mean_factor = (
        sum(m * c for m, c in multipliers.items() if m > 1) / multiplied if multiplied else 0.0
    )
    per_game = mean_of([float(sum(g.extra["slip_by_seat"])) for g in result.games])
    image = "slipstream.png"
    plots.count_bars(
        out / image,
        {"moves": dict(multipliers)},
        title=f"Slipstream: how far moves are multiplied ({wording.count(moves)} moves)",
        xlabel="multiplier of the card's value (1 = no slipstream)",
        ylabel="share of moves",
    )
    table = Table(
        (Column("multiplier", "text"), Column("moves", "int"), Column("share of moves", "pct")),
        [[f"×{m}", c, c / moves if moves else 0.0] for m, c in sorted(multipliers.items())],
    )
    by_seat = _per_seat(result, "slip_by_seat")
    seat_image = "slipstream_by_seat.png"
    plots.interval_bars(
        out / seat_image,
        result.names[: result.seats],
        {"multiplied moves": intervals(by_seat)},
        title="Slipstreamed moves per series, by seat",
        ylabel="moves per series (mean)",
        percent=False,
    )
    share = multiplied / moves if moves else 0.0
    sentence = (
        f"{wording.pct(share)} of moves are multiplied by slipstream, ×{mean_factor:.2f} on "
        f"average when they are ({per_game.value:.1f} multiplied moves per series, gaining "
        f"{extra / multiplied if multiplied else 0.0:.1f} extra spaces each)."
    )
    section = Section(
        "slipstream",
        "Slipstream",
        [
            "A rider landing on a space with k other riders moves on k more times the card's "
            "value (SD-5), except on FAHRERWECHSEL and STURZ where nobody slipstreams.",
            sentence,
            f"Slipstream was refused on a special space {refused / result.n:.2f} times per series.",
        ],
        [
            Figure(
                image,
                "Slipstream multipliers",
                "Share of all moves by the factor slipstream multiplied them with.",
                table,
            ),
            Figure(
                seat_image,
                "Slipstreamed moves by seat",
                "Mean number of multiplied moves per series for each seat's riders, with 95% "
                "intervals.",
                Table(
                    (
                        Column("seat", "text"),
                        Column("mean per series"),
                        Column("95% CI low"),
                        Column("95% CI high"),
                    ),
                    [
                        [name, m.value, m.low, m.high]
                        for name, m in zip(result.names, by_seat, strict=False)
                    ],
                ),
            ),
        ],
    )
    data = {
        "slipstream": {
            "moves": moves,
            "multiplied": multiplied,
            "share_multiplied": share,
            "mean_multiplier_when_multiplied": mean_factor,
            "extra_spaces": extra,
            "refused_on_special": refused,
            "multipliers": {str(m): c for m, c in sorted(multipliers.items())},
            "per_seat_mean": [m.value for m in by_seat],
        }
    }
    return Findings([section], [f"Slipstream: {sentence}"], data)


def _rider_changes(result: BatchResult, out: Path) -> Findings:
    totals = [sum(int(c) for c in g.extra["rider_changes"]) for g in result.games]
    image = "rider_changes.png"
    constant = len(set(totals)) == 1
    if not constant:  # a single bar would say less than the sentence below
        plots.count_bars(
            out / image,
            {"series": dict(Counter(totals))},
            title="FAHRERWECHSEL: rider changes per series (all riders)",
            xlabel="rider changes in a series",
            ylabel="share of series",
        )
    by_seat = _per_seat(result, "rider_changes")
    m = mean_of([float(t) for t in totals])
    none = sum(1 for t in totals if t == 0) / len(totals) if totals else 0.0
    if constant:
        sentence = (
            f"Riders change on FAHRERWECHSEL exactly {totals[0]} times in every series "
            f"({wording.count(len(totals))} series): with these bots the number never varies."
        )
    else:
        sentence = (
            f"Riders change on FAHRERWECHSEL {m.value:.2f} times per series (95% CI "
            f"{m.low:.2f}–{m.high:.2f}); {wording.pct(none)} of series see no change at all."
        )
    table = Table(
        (
            Column("seat", "text"),
            Column("changes per series"),
            Column("95% CI low"),
            Column("95% CI high"),
        ),
        [[name, s.value, s.low, s.high] for name, s in zip(result.names, by_seat, strict=False)],
    )
    section = Section(
        "rider-change",
        "Rider changes (FAHRERWECHSEL)",
        [
            "A rider ending a move on FAHRERWECHSEL discards the hand and draws a fresh grey "
            "one (SD-6).",
            sentence,
        ],
    )
    if constant:
        section.tables.append(("Rider changes per series, by seat", table))
    else:
        section.figures.append(
            Figure(
                image,
                "Rider changes per series",
                "Share of series by the number of FAHRERWECHSEL uses; the table gives the "
                "mean per seat.",
                table,
            )
        )
    data = {
        "rider_changes": {
            "per_series": five_numbers([float(t) for t in totals]),
            "per_seat_mean": [s.value for s in by_seat],
        }
    }
    return Findings([section], [f"Rider changes: {sentence}"], data)


def _laps_and_crashes(result: BatchResult, out: Path) -> Findings:
    laps = _per_seat(result, "laps")
    crashes = _per_seat(result, "crashes")
    names = list(result.names[: result.seats])
    image = "laps_and_crashes.png"
    plots.interval_bars(
        out / image,
        names,
        {"laps lost": intervals(laps), "crashes (STURZ)": intervals(crashes)},
        title="Laps lost and crashes per series, by seat",
        ylabel="per series (mean)",
        percent=False,
    )
    worst = max(range(len(laps)), key=lambda i: laps[i].value)
    best = min(range(len(laps)), key=lambda i: laps[i].value)
    sentence = (
        f"A seat loses {mean_of([m.value for m in laps]).value:.2f} laps per series on average "
        f"(from {laps[best].value:.2f} for {names[best]} to {laps[worst].value:.2f} for "
        f"{names[worst]}) and crashes on STURZ {mean_of([m.value for m in crashes]).value:.2f} "
        "times."
    )
    overall = [float(x) for g in result.games for x in g.extra["laps"]]
    rows: list[list[Any]] = [
        [
            names[i],
            laps[i].value,
            laps[i].low,
            laps[i].high,
            crashes[i].value,
            crashes[i].low,
            crashes[i].high,
        ]
        for i in range(len(names))
    ]
    section = Section(
        "laps",
        "Laps lost and crashes",
        [
            "Laps lost decide the series before points (SD-10, SD-11): a rider still short of "
            "the line when the race ends loses one lap per four spaces, at most five. A rider "
            "ending a move on STURZ loses a turn (SD-7).",
            sentence,
        ],
        [
            Figure(
                image,
                "Laps lost and crashes by seat",
                "Mean laps lost and STURZ crashes per series for each seat (both riders of a "
                "two-rider seat counted), with 95% intervals.",
                Table(
                    (
                        Column("seat", "text"),
                        Column("laps lost"),
                        Column("laps 95% CI low"),
                        Column("laps 95% CI high"),
                        Column("crashes"),
                        Column("crashes 95% CI low"),
                        Column("crashes 95% CI high"),
                    ),
                    rows,
                ),
            )
        ],
        [
            (
                "Laps lost per seat and series",
                Table(
                    (Column("measure", "text"), *DISTRIBUTION_COLUMNS),
                    [["laps lost", *five_numbers(overall)]],
                ),
            )
        ],
    )
    data = {
        "laps_lost": {"per_seat_mean": [m.value for m in laps], "all": five_numbers(overall)},
        "crashes": {"per_seat_mean": [m.value for m in crashes]},
    }
    return Findings([section], [f"Laps lost: {sentence}"], data)


def findings(results: dict[str, BatchResult], out: Path) -> Findings:
    """Turn order, slipstream, rider changes, laps lost and crashes."""
    main = results[MAIN]
    found = Findings()
    if main.config_value("random_first", True):
        why = (
            "The first race starts with a player drawn at random (SD-4) and every later race "
            "with whoever finished last (SD-11), so the seats are alike by construction; the "
            "order of the first race is what could favour someone."
        )
    else:
        why = (
            "Seat 1 starts the first race (random_first is off) and every later race starts "
            "with whoever finished last (SD-11): turn order and seat coincide in the first race."
        )
    found.add(turn_order_findings(main, out, _start_order, why, "turn position in the first race"))
    found.add(_slipstream(main, out))
    found.add(_rider_changes(main, out))
    found.add(_laps_and_crashes(main, out))
    return found


SIX_DAY_RACE = GameFindings(
    score="series points",
    turns="cards played",
    extra_batches=extra_batches,
    findings=findings,
    order_of=_start_order,
)
"""The *Six Day Race* part of a report."""


FINDINGS = SIX_DAY_RACE
"""What a report knows about the game (its ``findings`` plugin)."""
