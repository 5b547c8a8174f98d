"""The sections every report has: seat balance, bots, scores and game length."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from racedeck.report import plots, wording
from racedeck.report.analysis import (
    SeatBalance,
    bot_standings,
    position_balance,
    seat_balance,
)
from racedeck.report.batches import BatchResult
from racedeck.report.document import Column, Figure, Section, Table
from racedeck.report.findings.base import Findings, five_numbers, with_overflows
from racedeck.report.plots import Interval
from racedeck.report.stats import mean_of

__all__ = [
    "DISTRIBUTION_COLUMNS",
    "balance_json",
    "bots_findings",
    "intervals",
    "length_findings",
    "scores_findings",
    "seat_findings",
    "turn_order_findings",
]

DISTRIBUTION_COLUMNS = (
    Column("mean"),
    Column("sd"),
    Column("min"),
    Column("lower quartile"),
    Column("median"),
    Column("upper quartile"),
    Column("max"),
)


def intervals(shares: Sequence[Any]) -> list[Interval]:
    """Shares (or means) as plot intervals."""
    return [Interval(s.value, s.low, s.high) for s in shares]


def balance_json(balance: SeatBalance) -> dict[str, Any]:
    """The numbers of a seat balance for ``data.json``."""
    best, worst, gap = balance.gap
    return {
        "labels": list(balance.labels),
        "wins": list(balance.wins),
        "shares": [s.value for s in balance.shares],
        "ci95": [[s.low, s.high] for s in balance.shares],
        "games": balance.games,
        "fair_share": balance.fair,
        "chi_square": balance.test.to_json(),
        "largest_gap": {
            "best": balance.labels[best],
            "worst": balance.labels[worst],
            **gap.to_json(),
        },
    }


def _seat_bots(result: BatchResult, seat: int) -> str:
    if seat >= result.seats:
        return "engine"
    if result.batch.rotated:
        return "rotated"
    return result.batch.lineup[seat]


def seat_findings(result: BatchResult, out: Path, score: str) -> Findings:
    """Win share by seat with 95% intervals and the chi-square test of equal shares."""
    balance = seat_balance(result)
    image = "seat_wins.png"
    plots.interval_bars(
        out / image,
        balance.labels,
        {"win share": intervals(balance.shares)},
        title=f"Win share by seat ({wording.count(result.n)} games)",
        ylabel="share of games won",
        reference=balance.fair,
        reference_label=f"fair share {wording.pct(balance.fair)}",
    )
    contestants = len(result.names)
    rows: list[list[Any]] = []
    for i in range(contestants):
        scores = [g.scores[i] for g in result.games]
        ranks = [g.ranks[i] for g in result.games]
        s = balance.shares[i]
        rows.append(
            [
                balance.labels[i],
                _seat_bots(result, i),
                balance.wins[i],
                s.value,
                s.low,
                s.high,
                mean_of(scores).value,
                mean_of(ranks).value,
            ]
        )
    table = Table(
        (
            Column("seat", "text"),
            Column("bot", "text"),
            Column("wins"),
            Column("win share", "pct"),
            Column("95% CI low", "pct"),
            Column("95% CI high", "pct"),
            Column(f"mean {score}"),
            Column("mean rank"),
        ),
        rows,
    )
    sentence = wording.spread_sentence(
        balance.labels[: result.seats],
        balance.values[: result.seats],
        result.n,
        balance.test,
        balance.gap,
    )
    paragraphs = [sentence]
    if result.batch.rotated:
        paragraphs.append(
            "The bot lineup is rotated one seat per game, so every bot plays every seat "
            "equally often and the seat effect is measured apart from the bots."
        )
    fig = Figure(
        image,
        "Win share by seat",
        "Share of games each seat won, with 95% Wilson intervals; the dashed line is the fair "
        "share. A shared win counts as a fraction for each winner.",
        table,
    )
    section = Section("seats", "Seat balance", paragraphs, [fig])
    return Findings([section], [f"Seat balance: {sentence}"], {"seats": balance_json(balance)})


def turn_order_findings(
    result: BatchResult,
    out: Path,
    order_of: Callable[[Any], Sequence[int]],
    why: str,
    xlabel: str = "turn position",
) -> Findings:
    """Win share by turn position (first to move, second…) with the chi-square test."""
    balance = position_balance(result, order_of, "mover")
    labels = [f"{_ordinal(j + 1)} to move" for j in range(len(balance.labels))]
    short = [_ordinal(j + 1) for j in range(len(balance.labels))]
    balance = SeatBalance(
        tuple(labels),
        balance.wins,
        balance.shares,
        balance.games,
        balance.fair,
        balance.test,
        balance.gap,
    )
    image = "turn_order_wins.png"
    plots.interval_bars(
        out / image,
        short,
        {"win share": intervals(balance.shares)},
        title=f"Win share by turn order ({wording.count(balance.games)} games)",
        ylabel="share of games won",
        xlabel=xlabel,
        reference=balance.fair,
        reference_label=f"fair share {wording.pct(balance.fair)}",
    )
    table = Table(
        (
            Column("turn position", "text"),
            Column("wins"),
            Column("win share", "pct"),
            Column("95% CI low", "pct"),
            Column("95% CI high", "pct"),
        ),
        [
            [labels[j], balance.wins[j], s.value, s.low, s.high]
            for j, s in enumerate(balance.shares)
        ],
    )
    sentence = wording.spread_sentence(
        labels, balance.values, balance.games, balance.test, balance.gap, what="turn-order"
    )
    section = Section(
        "turn-order",
        "Turn order",
        [why, sentence],
        [
            Figure(
                image,
                "Win share by turn order",
                "Share of games won by the player who moved first, second…, with 95% Wilson "
                "intervals; the dashed line is the fair share.",
                table,
            )
        ],
    )
    return Findings([section], [f"Turn order: {sentence}"], {"turn_order": balance_json(balance)})


def _ordinal(n: int) -> str:
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n if n < 20 else n % 10, 'th') }"


def bots_findings(result: BatchResult, out: Path) -> Findings:
    """Each bot's share of the games its seats won, against its fair share."""
    standings = bot_standings(result)
    k = len(result.names)
    image = "bot_wins.png"
    labels = [f"{s.bot}\n({s.seats} of {k} seats)" for s in standings]
    plots.interval_bars(
        out / image,
        labels,
        {"win share": intervals([s.share for s in standings])},
        title=f"Games won by each bot's seats ({wording.count(result.n)} games)",
        ylabel="share of games won",
        reference=[s.fair for s in standings],
        reference_label="fair share of its seats",
    )
    table = Table(
        (
            Column("bot", "text"),
            Column("seats", "int"),
            Column("wins"),
            Column("win share", "pct"),
            Column("95% CI low", "pct"),
            Column("95% CI high", "pct"),
            Column("fair share", "pct"),
            Column("p (vs fair)", "p"),
        ),
        [
            [
                s.bot,
                s.seats,
                s.wins,
                s.share.value,
                s.share.low,
                s.share.high,
                s.fair,
                s.test.p_value,
            ]
            for s in standings
        ],
    )
    sentences = [
        wording.fair_share_sentence(f"{s.bot} ({s.seats} of {k} seats)", s.share, s.fair, s.test)
        for s in standings
    ]
    section = Section(
        "bots",
        "Bots",
        [
            *sentences,
            "Tested with a one-proportion z-test against the fair share of the seats the bot "
            "holds; the lineup is rotated over the seats so seat effects average out.",
        ],
        [
            Figure(
                image,
                "Win share by bot",
                "Share of games won by the seats a bot played, with 95% Wilson intervals; the "
                "dashed marks are each bot's fair share (its seats over all contestants).",
                table,
            )
        ],
    )
    data = {
        "bots": [
            {
                "bot": s.bot,
                "seats": s.seats,
                "wins": s.wins,
                "share": s.share.value,
                "ci95": [s.share.low, s.share.high],
                "fair_share": s.fair,
                "test": s.test.to_json(),
            }
            for s in standings
        ]
    }
    return Findings([section], [f"Bots: {s}" for s in sentences], data)


def scores_findings(result: BatchResult, out: Path, score: str, note: str) -> Findings:
    """The distribution of final scores by seat."""
    image = "scores.png"
    samples = [[g.scores[i] for g in result.games] for i in range(len(result.names))]
    plots.boxes(
        out / image,
        result.names,
        samples,
        title=f"Final {score} by seat ({wording.count(result.n)} games)",
        ylabel=score,
    )
    table = Table(
        (Column("seat", "text"), *DISTRIBUTION_COLUMNS),
        [[name, *five_numbers(s)] for name, s in zip(result.names, samples, strict=True)],
    )
    section = Section(
        "scores",
        "Scores",
        [note],
        [Figure(image, f"Final {score} by seat", "Distribution of the final scores.", table)],
    )
    data = {
        "scores": {name: five_numbers(s) for name, s in zip(result.names, samples, strict=True)}
    }
    return Findings([section], [], data)


def length_findings(
    result: BatchResult,
    out: Path,
    turns: str | None,
    fixed: Callable[[BatchResult, int], str | None] | None = None,
    note: str = "",
) -> Findings:
    """Game length in decisions, and in the game's own unit (turns, cards played); where every
    game is equally long, ``fixed(result, length)`` gives the reason in words, and ``note``
    says how decisions and the game's unit relate."""
    decisions = [float(g.decisions) for g in result.games]
    measures: list[tuple[str, str, list[float]]] = [
        ("decisions", "length_decisions.png", decisions)
    ]
    section = Section("length", "Game length")
    if turns is not None:
        values = [float(g.turns) for g in result.games if g.turns is not None]
        if values == decisions:
            measures = [(turns, "length_turns.png", values)]
            section.paragraphs.append(
                f"Every decision is one of the {turns}: they coincide. {note}".strip()
            )
        else:
            measures.append((turns, "length_turns.png", values))
            if note:
                section.paragraphs.append(note)
    data: dict[str, Any] = {}
    summary = []
    for name, image, values in measures:
        numbers = five_numbers(values)
        data[name] = numbers
        if values and min(values) == max(values):
            # A game without a unit of its own (turns is None) has its length fixed by rules;
            # the game's findings say which rules, where they can.
            why = ""
            if turns is None and len(values) > 1:
                reason = fixed(result, int(values[0])) if fixed is not None else None
                why = f": {reason}" if reason else ": the rules fix the length"
            section.paragraphs.append(
                f"Every game took exactly {wording.count(values[0])} {name}{why}."
            )
            continue
        m = mean_of(values)
        overflows = plots.histogram(
            out / image,
            {name: values},
            title=f"Game length in {name} ({wording.count(len(values))} games)",
            xlabel=f"{name} per game",
        )
        table = Table(
            (Column("measure", "text"), *DISTRIBUTION_COLUMNS),
            [[name, *numbers]],
        )
        section.figures.append(
            Figure(
                image,
                f"Game length in {name}",
                with_overflows(f"Distribution of {name} per game.", overflows),
                table,
            )
        )
        # Quartiles of whole counts read as whole counts (230, not 230.25).
        q1, q3 = (float(numbers[i] or 0.0) for i in (3, 5))
        quartiles = (
            f"{q1:.0f} and {q3:.0f}"
            if all(v.is_integer() for v in values)
            else (f"{q1:g} and {q3:g}")
        )
        section.paragraphs.append(
            f"A game takes {m.value:.1f} {name} on average (95% CI {m.low:.1f}–{m.high:.1f}; "
            f"half of the games between {quartiles})."
        )
    if section.paragraphs:  # the game's own unit, where it has one, says most
        summary.append(f"Length: {section.paragraphs[-1]}")
    return Findings([section], summary, {"length": data})
