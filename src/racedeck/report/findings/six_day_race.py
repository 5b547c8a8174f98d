"""*Six Day Race*: slipstream (SD-5), FAHRERWECHSEL (SD-6), laps lost (SD-10) and STURZ (SD-7)
by seat, and the turn order of the first race (SD-4)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from racedeck.report import plots, wording
from racedeck.report.batches import MAIN, Batch, BatchResult
from racedeck.report.document import Column, Figure, Section, Table
from racedeck.report.findings.base import Findings, GameFindings, five_numbers, with_overflows
from racedeck.report.findings.generic import DISTRIBUTION_COLUMNS, intervals, turn_order_findings
from racedeck.report.measures import GameMeasures
from racedeck.report.stats import Mean, mean_of

__all__ = ["SIX_DAY_RACE", "Opening", "common_opening"]


def extra_batches(main: Batch, games: int) -> list[Batch]:
    """None: everything is measured on the main batch."""
    return []


def _start_order(g: GameMeasures) -> Sequence[int]:
    return [int(s) for s in g.extra.get("start_order", [])]


def _per_seat(result: BatchResult, key: str) -> list[Mean]:
    return [mean_of([float(g.extra[key][i]) for g in result.games]) for i in range(result.seats)]


def _per_series(total: float, series: int) -> str:
    """A count per series: ``6`` when every series has the same, else ``6.13``."""
    x = total / series if series else 0.0
    return f"{x:.0f}" if x.is_integer() else f"{x:.2f}"


def _riders(result: BatchResult) -> int:
    """Riders in the race (SD-12): as measured, else one per seat."""
    games = result.games
    return int(games[0].extra.get("riders", result.seats)) if games else result.seats


def _field(result: BatchResult) -> str:
    """``8 riders (4 players racing two each, SD-12)``."""
    riders = _riders(result)
    if riders == result.seats:
        return f"{riders} riders (one per player)"
    return f"{riders} riders ({result.seats} players racing two each, SD-12)"


@dataclass(frozen=True)
class Opening:
    """The opening every race of a batch shared, when they all shared one: ``moves`` cards
    played from green hands before the first grey card, ``changes`` rider changes and
    ``refused`` slipstreams refused on a special space among them."""

    races: int
    moves: int
    changes: int
    refused: int


def common_opening(result: BatchResult) -> Opening | None:
    """The opening of every race when all races of all series opened with the same moves
    (same spaces, same card values, turn by turn), else ``None``.

    Nothing in an opening is left to chance (see the collector): every rider starts on space 0
    (SD-11) with the same green hand, which is dealt, never shuffled (SD-2). Bots that choose
    from the board and their own hand alone therefore play it alike in every race.
    """
    openings = [tuple(o) for g in result.games for o in g.extra.get("openings", [])]
    if len(openings) < 2 or len(set(openings)) != 1:
        return None
    _, moves, changes, refused = openings[0]
    return Opening(len(openings), int(moves), int(changes), int(refused))


def _opening_words(opening: Opening) -> str:
    return (
        f"Every one of the {wording.count(opening.races)} races opened with the same "
        f"{opening.moves} cards: each rider starts on space 0 (SD-11) with the same green hand, "
        "dealt and never shuffled (SD-2), so until the first grey card is played (SD-3, SD-6) "
        "nothing is left to chance, and these bots, which choose from the board and their own "
        "hand, play the opening alike in every race."
    )


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
    riders = _riders(result)
    field_at = [int(m) for g in result.games for m in g.extra.get("field_at", [])]
    field_extra = sum(int(g.extra.get("field_extra", 0)) for g in result.games)
    image = "slipstream.png"
    notes = {
        riders: f"×{riders}: all {riders - 1} other riders on the first space the card "
        "reached, the whole field"
    }
    plots.count_bars(
        out / image,
        {"moves": dict(multipliers)},
        title=f"Slipstream: how far moves are multiplied ({wording.count(moves)} moves)",
        xlabel="×k: k − 1 riders stood on the first space the card reached, so its value "
        "counted k times (SD-5)",
        ylabel="share of moves",
        unit="moves",
        tick="×{}",
        shares=True,
        notes=notes if riders > 1 else None,
        whole=True,  # few multipliers, and the rare large ones are the point
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
    paragraphs = [
        "A rider whose card first reaches a space with other riders on it moves on the card's "
        "value once more for each of them (SD-5): ×2 behind one rider, ×3 behind two, and so "
        "on, except on FAHRERWECHSEL and STURZ, where nobody slipstreams. The largest "
        f"multiplier is the whole field: the race has {_field(result)}, so ×{riders} needs "
        f"all {riders - 1} others on one space.",
        sentence,
    ]
    if field_at:
        last = max(field_at)
        gain = field_extra / len(field_at)
        line = int(result.config_value("line", 81))
        paragraphs.append(
            f"×{riders} came {_per_series(len(field_at), result.n)} times per series, always "
            f"within the first {last} moves of a race: only a field still bunched from the common "
            "start on space 0 (SD-11) stands on one space, and a few moves later it has spread "
            f"out. It is rare ({wording.pct(len(field_at) / moves if moves else 0.0)} of moves) "
            f"but large: {gain:.1f} extra spaces each ({riders - 1} times the card's value), "
            f"{gain / line:.0%} of the {line}-space lap (SD-1)."
        )
    else:
        paragraphs.append(f"No move was multiplied ×{riders}: the whole field never bunched.")
    opening = common_opening(result)
    if opening is not None and field_at and max(field_at) <= opening.moves:
        paragraphs.append(
            f"{_opening_words(opening)} The ×{riders} move is part of that opening, which is "
            f"why it comes {_per_series(len(field_at), result.n)} times per series, once in every "
            "race."
        )
    refusal = (
        "Slipstream was refused (a card first reaching FAHRERWECHSEL or STURZ with riders on "
        f"it, SD-5) {_per_series(refused, result.n)} times per series"
    )
    per_race = {c for g in result.games for c in g.extra.get("race_refused", [])}
    if opening is not None and opening.refused and per_race == {opening.refused}:
        refusal += f": {opening.refused} in every race, inside that common opening, and never later"
    paragraphs.append(refusal + ".")
    section = Section(
        "slipstream",
        "Slipstream",
        paragraphs,
        [
            Figure(
                image,
                "Slipstream multipliers",
                "Share of all moves by the factor slipstream multiplied them with (×1: no "
                f"slipstream; ×{riders}: the whole field of {riders} riders on one space).",
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
            "whole_field": {
                "moves": len(field_at),
                "latest_move_of_race": max(field_at, default=0),
            },
        }
    }
    return Findings([section], [f"Slipstream: {sentence}"], data)


def _rider_changes(result: BatchResult, out: Path) -> Findings:
    totals = [sum(int(c) for c in g.extra["rider_changes"]) for g in result.games]
    image = "rider_changes.png"
    constant = len(set(totals)) == 1
    overflows: list[plots.Overflow] = []
    if not constant:  # a single bar would say less than the sentence below
        overflows = plots.count_bars(
            out / image,
            {"series": dict(Counter(totals))},
            title="FAHRERWECHSEL: rider changes per series (all riders)",
            xlabel="rider changes in a series",
            ylabel="share of series",
            unit="series",
        )
    by_seat = _per_seat(result, "rider_changes")
    m = mean_of([float(t) for t in totals])
    none = sum(1 for t in totals if t == 0) / len(totals) if totals else 0.0
    space = int(result.config_value("rider_change", 30))
    summary = ""
    if constant:
        sentence, summary = _constant_changes(result, totals[0], space)
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
                with_overflows(
                    "Share of series by the number of FAHRERWECHSEL uses; the table gives the "
                    "mean per seat.",
                    overflows,
                    "series",
                ),
                table,
            )
        )
    data = {
        "rider_changes": {
            "per_series": five_numbers([float(t) for t in totals]),
            "per_seat_mean": [s.value for s in by_seat],
        }
    }
    return Findings([section], [f"Rider changes: {summary or sentence}"], data)


def _constant_changes(result: BatchResult, total: int, space: int) -> tuple[str, str]:
    """Why every series has the same number of rider changes, in words: the sentence for the
    section and a shorter one for the summary."""
    series = wording.count(result.n)
    per_race = {c for g in result.games for c in g.extra.get("race_changes", [])}
    races = result.games[0].extra.get("races", 0) if result.games else 0
    text = f"Riders change on FAHRERWECHSEL exactly {total} times in every series ({series} series)"
    if len(per_race) != 1 or not races:
        # The races differ, only their sum does not: no rule makes it so, so say it plainly.
        return (
            f"{text}, though not equally often in every race: a coincidence of these bots' "
            "play, which the rules do not force.",
            "",
        )
    each = next(iter(per_race))
    text += f": {each} in each of its {races} races (SD-11)"
    once = (
        "No rider can change twice in a race: a race is one lap, so a rider passes space "
        f"{space} once (SD-1, SD-6)."
    )
    opening = common_opening(result)
    if opening is not None and opening.changes == each:
        return (
            f"{text}. {once} {_opening_words(opening)} Those {opening.moves} cards put exactly "
            f"{each} riders on FAHRERWECHSEL, and no rider lands there later in any race: the "
            "number follows from the rules and these bots, not from luck.",
            f"exactly {each} per race in every series, because every race opens with the same "
            f"{opening.moves} cards (same green hands from space 0, SD-2, SD-11), which put "
            f"{each} riders on FAHRERWECHSEL.",
        )
    return (
        f"{text}. {once} The races do not all open alike, so the count is these bots' play, "
        "not a consequence of the rules.",
        "",
    )


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
    order = turn_order_findings(main, out, _start_order, why, "turn position in the first race")
    opening = common_opening(main)
    if opening is not None:
        # A fixed opening gives each turn position a fixed part in it: say so next to the
        # numbers, which would otherwise read as luck or a flaw of the seating.
        order.sections[0].paragraphs.append(
            f"With these bots every race opens with the same {opening.moves} cards (see "
            "Slipstream), so the turn order alone decides who gains in that opening (the "
            "whole-field slipstream, the rider changes) in the first race, and laps lost, which "
            "decide the series before points (SD-11), carry that gain to the end."
        )
        order.summary[0] += (
            f" With these bots every race opens with the same {opening.moves} cards, so the "
            "first race's turn order fixes who gains in that opening."
        )
    found.add(order)
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
    length_note="On its turn a rider with cards must play one, and one without passes with no "
    "choice to make (SD-4).",
)
"""The *Six Day Race* part of a report."""


FINDINGS = SIX_DAY_RACE
"""What a report knows about the game (its ``findings`` plugin)."""
