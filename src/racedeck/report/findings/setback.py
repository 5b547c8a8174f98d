"""Setback: BLOCK use (SB-9), lead changes, turn order (SB-3) and the deck's composition (SB-2)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from racedeck.games.setback.cards import DEFAULT_DECK, parse_card_type
from racedeck.report import plots, wording
from racedeck.report.analysis import position_balance, seat_balance
from racedeck.report.batches import MAIN, Batch, BatchResult, batch_seed
from racedeck.report.document import Column, Figure, Section, Table
from racedeck.report.findings.base import Findings, GameFindings, with_overflows
from racedeck.report.findings.generic import intervals, turn_order_findings
from racedeck.report.measures import GameMeasures
from racedeck.report.stats import (
    detectable_difference,
    mean_difference_test,
    mean_of,
    two_proportion_test,
)

__all__ = ["SETBACK", "deck_with_more", "deck_without"]

NO_BLOCK = "deck-no-block"
MORE_SKIP = "deck-more-skip"


def _deck(config: dict[str, Any]) -> list[tuple[str, int]]:
    deck = config.get("deck", DEFAULT_DECK)
    return [(str(name), int(count)) for name, count in deck]


def deck_without(deck: Sequence[tuple[str, int]], kind: str) -> list[tuple[str, int]]:
    """``deck`` without any card of ``kind``."""
    return [(name, c) for name, c in deck if parse_card_type(name).kind != kind]


def deck_with_more(deck: Sequence[tuple[str, int]], kind: str) -> list[tuple[str, int]]:
    """``deck`` with twice the cards of ``kind`` (six when it had none)."""
    if not any(parse_card_type(name).kind == kind for name, _ in deck):
        return [*deck, (kind, 6)]
    return [(name, c * 2 if parse_card_type(name).kind == kind else c) for name, c in deck]


def _count(deck: Sequence[tuple[str, int]], kind: str) -> int:
    return sum(c for name, c in deck if parse_card_type(name).kind == kind)


def extra_batches(main: Batch, games: int) -> list[Batch]:
    """The same games with other decks: without BLOCK, and with twice the SKIP cards."""
    deck = _deck(main.config)
    variants = []
    if _count(deck, "BLOCK"):
        variants.append((NO_BLOCK, "Deck without BLOCK", deck_without(deck, "BLOCK")))
    variants.append((MORE_SKIP, "Deck with twice the SKIP cards", deck_with_more(deck, "SKIP")))
    return [
        Batch(
            key,
            title,
            main.game_id,
            {**main.config, "deck": [[name, c] for name, c in cards]},
            main.lineup,
            games,
            batch_seed(main.seed, key),
            note=f"{sum(c for _, c in cards)} cards: {_count(cards, 'BLOCK')} BLOCK, "
            f"{_count(cards, 'SKIP')} SKIP",
        )
        for key, title, cards in variants
    ]


def _turn_order(g: GameMeasures) -> Sequence[int]:
    first = int(g.extra.get("first", -1))
    n = len(g.bots)
    return [(first + j) % n for j in range(n)] if first >= 0 else []


def _mean(result: BatchResult, key: str) -> float:
    return mean_of([float(g.extra[key]) for g in result.games]).value


def _blocks(result: BatchResult, out: Path) -> Findings:
    blocks = [sum(int(b) for b in g.extra["blocks"]) for g in result.games]
    image = "blocks.png"
    overflows = plots.count_bars(
        out / image,
        {"games": dict(Counter(blocks))},
        title=f"BLOCKs played per game ({wording.count(result.n)} games)",
        xlabel="BLOCK cards played in a game",
    )
    declared = sum(int(g.extra["declared"]) for g in result.games)
    windows = sum(int(g.extra["windows"]) for g in result.games)
    cancelled = sum(int(g.extra["cancelled"]) for g in result.games)
    counter = sum(int(g.extra["counter_blocks"]) for g in result.games)
    kept = sum(int(g.extra["kept_blocks"]) for g in result.games)
    played = sum(blocks)
    m = mean_of([float(b) for b in blocks])
    none = sum(1 for b in blocks if b == 0) / len(blocks) if blocks else 0.0
    per = result.n or 1
    rows: list[list[Any]] = [
        ["actions declared", declared / per, None],
        ["…that some player could BLOCK", windows / per, windows / declared if declared else 0.0],
        ["BLOCK cards played", played / per, None],
        ["actions cancelled", cancelled / per, cancelled / declared if declared else 0.0],
        ["BLOCKs blocked in turn (counter-BLOCK)", counter / per, None],
        ["BLOCKs answered but kept (another came first)", kept / per, None],
    ]
    by_seat = [
        mean_of([float(g.extra["blocks"][i]) for g in result.games]).value
        for i in range(result.seats)
    ]
    where = f"none in {wording.pct(none)} of games" if none else "at least one in every game"
    sentence = (
        f"{m.value:.2f} BLOCKs are played per game (95% CI {m.low:.2f}–{m.high:.2f}; {where}); "
        f"they cancel {cancelled / per:.2f} actions per game, "
        f"{wording.pct(cancelled / declared if declared else 0.0)} of all declared actions and "
        f"{wording.pct(cancelled / windows if windows else 0.0)} of those that could be BLOCKed."
    )
    section = Section(
        "block",
        "BLOCK",
        [
            "Any player holding a BLOCK may cancel a declared action out of turn; a BLOCK may "
            "itself be BLOCKed, and an odd number cancels the action (SB-9). Everyone asked "
            "answers at once, unseen; when several BLOCK, only the first in seating order after "
            "the player answered plays it, and the others keep their cards.",
            sentence,
            "BLOCKs played per game by seat: "
            + ", ".join(f"{n} {b:.2f}" for n, b in zip(result.names, by_seat, strict=False))
            + ".",
        ],
        [
            Figure(
                image,
                "BLOCKs per game",
                with_overflows(
                    "Share of games by the number of BLOCK cards played; the table gives the "
                    "means per game and, where it applies, the share of declared actions.",
                    overflows,
                ),
                Table(
                    (
                        Column("per game", "text"),
                        Column("mean"),
                        Column("share of declared actions", "pct"),
                    ),
                    rows,
                ),
            )
        ],
    )
    data = {
        "block": {
            "per_game": {
                "declared": declared / per,
                "could_block": windows / per,
                "blocks_played": played / per,
                "cancelled": cancelled / per,
                "counter_blocks": counter / per,
                "kept_blocks": kept / per,
            },
            "games_without_block": none,
            "blocks_by_seat": by_seat,
        }
    }
    return Findings([section], [f"BLOCK: {sentence}"], data)


def _lead_changes(result: BatchResult, out: Path) -> Findings:
    changes = [int(g.extra["lead_changes"]) for g in result.games]
    counts = Counter(changes)
    image = "lead_changes.png"
    overflows = plots.count_bars(
        out / image,
        {"games": dict(counts)},
        title=f"Lead changes per game ({wording.count(result.n)} games)",
        xlabel="times the sole lead passed to another player",
    )
    m = mean_of([float(c) for c in changes])
    none = counts.get(0, 0) / len(changes) if changes else 0.0
    sentence = (
        f"The lead changes hands {m.value:.2f} times per game (95% CI {m.low:.2f}–"
        f"{m.high:.2f}); in {wording.pct(none)} of games it never does."
    )
    section = Section(
        "lead",
        "Lead changes",
        [
            "The leader is the player whose token is strictly farthest from START; a lead "
            "change is the lead passing to another player (moments of a shared lead do not "
            "count), followed action by action on the game's states.",
            sentence,
        ],
        [
            Figure(
                image,
                "Lead changes per game",
                with_overflows("Share of games by the number of lead changes.", overflows),
                Table(
                    (Column("lead changes", "int"), Column("games", "int"), Column("share", "pct")),
                    [[k, c, c / len(changes)] for k, c in sorted(counts.items())],
                ),
            )
        ],
    )
    return Findings(
        [section],
        [f"Lead changes: {sentence}"],
        {"lead_changes": {"mean": m.value, "ci95": [m.low, m.high], "never": none}},
    )


def _decks(results: list[BatchResult], out: Path) -> Findings:
    main = results[0]
    order = [position_balance(r, _turn_order, "mover") for r in results]
    seats = [seat_balance(r) for r in results]
    titles = [r.batch.title if r.batch.key != MAIN else "Main deck" for r in results]
    positions = [
        f"{j + 1}{['st', 'nd', 'rd'][j] if j < 3 else 'th'} to move" for j in range(main.seats)
    ]
    balance_image = "deck_turn_order.png"
    plots.interval_bars(
        out / balance_image,
        positions,
        {
            f"{t} ({wording.count(r.n)})": intervals(b.shares)
            for t, r, b in zip(titles, results, order, strict=True)
        },
        title="Win share by turn order, by deck",
        ylabel="share of games won",
        reference=order[0].fair,
        reference_label=f"fair share {wording.pct(order[0].fair)}",
    )
    turns = [[float(g.turns or 0) for g in r.games] for r in results]
    length_image = "deck_length.png"
    length_overflows = plots.histogram(
        out / length_image,
        {t: v for t, v in zip(titles, turns, strict=True)},
        title="Game length in turns, by deck",
        xlabel="turns per game",
        unit="games of all decks",
    )
    rows: list[list[Any]] = []
    sentences = []
    for t, r, o, s, v in zip(titles, results, order, seats, turns, strict=True):
        mt = mean_of(v)
        rows.append(
            [
                t,
                r.batch.note or "as configured",
                r.n,
                o.test.p_value,
                s.test.p_value,
                o.shares[0].value,
                mt.value,
                mt.low,
                mt.high,
                mean_of([float(g.decisions) for g in r.games]).value,
                _mean(r, "lead_changes"),
                mean_of([float(sum(g.extra["blocks"])) for g in r.games]).value,
            ]
        )
        if r is main:
            continue
        diff = mean_difference_test(v, turns[0])
        first = two_proportion_test(o.wins[0], o.games, order[0].wins[0], order[0].games)
        sentences.append(
            f"{t}: games take {mt.value:.1f} turns against {mean_of(turns[0]).value:.1f} "
            f"({'significantly ' if diff.significant else 'not significantly '}"
            f"{'longer' if diff.difference > 0 else 'shorter'}, z-test, "
            f"{wording.p_text(diff.p_value)}); turn order "
            + (
                f"matters significantly ({wording.p_text(o.test.p_value)})"
                if o.test.significant
                else f"shows no significant advantage ({wording.p_text(o.test.p_value)})"
            )
            + f". The first mover wins {wording.pct(o.shares[0].value)} of its games against "
            f"{wording.pct(order[0].shares[0].value)} with the main deck: "
            + wording.comparison_verdict(first, o.fair, o.games, order[0].games)
            + "."
        )
    told = detectable_difference(
        order[0].fair, main.n, min((r.n for r in results[1:]), default=main.n)
    )
    resolution = wording.resolution_sentence(
        order[0].fair,
        main.n,
        min((r.n for r in results[1:]), default=main.n),
        lead="A share compared between two decks",
    )
    table = Table(
        (
            Column("deck", "text"),
            Column("cards", "text"),
            Column("games", "int"),
            Column("turn order p (chi-square)", "p"),
            Column("seat p (chi-square)", "p"),
            Column("first mover win share", "pct"),
            Column("mean turns"),
            Column("turns 95% CI low"),
            Column("turns 95% CI high"),
            Column("mean decisions"),
            Column("lead changes per game"),
            Column("BLOCKs per game"),
        ),
        rows,
    )
    section = Section(
        "decks",
        "Deck composition",
        [
            "The same bots with other decks (SB-2), independent seeds: seat balance and game "
            "length compared with the main deck.",
            *sentences,
            resolution,
        ],
        [
            Figure(
                balance_image,
                "Turn-order balance by deck",
                "Win share by turn position for each deck, with 95% Wilson intervals. These "
                "games cannot tell two decks apart in a position's share by less than "
                f"{wording.percentage_points(told)} (95% confidence, 80% power).",
                table,
            ),
            Figure(
                length_image,
                "Game length by deck",
                with_overflows(
                    "Distribution of turns per game for each deck (outlines, as shares of each "
                    "deck's games).",
                    length_overflows,
                    "games of all decks",
                ),
                Table(
                    (Column("deck", "text"), Column("mean turns"), Column("median turns")),
                    [
                        [t, mean_of(v).value, sorted(v)[len(v) // 2] if v else None]
                        for t, v in zip(titles, turns, strict=True)
                    ],
                ),
            ),
        ],
    )
    data = {
        "decks": {
            r.batch.key: {
                "title": t,
                "turn_order_p": o.test.p_value,
                "seat_p": s.test.p_value,
                "turn_order_shares": [x.value for x in o.shares],
                "mean_turns": mean_of(v).value,
            }
            for t, r, o, s, v in zip(titles, results, order, seats, turns, strict=True)
        }
    }
    return Findings([section], [f"Deck: {s}" for s in sentences], data)


def findings(results: dict[str, BatchResult], out: Path) -> Findings:
    """Turn order, BLOCK, lead changes and deck composition."""
    main = results[MAIN]
    found = Findings()
    found.add(
        turn_order_findings(
            main,
            out,
            _turn_order,
            "The first player is drawn at random (SB-3), so the seats are alike by "
            "construction; whether moving first, second… helps is the real question.",
        )
    )
    found.add(_blocks(main, out))
    found.add(_lead_changes(main, out))
    decks = [main, *(results[k] for k in (NO_BLOCK, MORE_SKIP) if k in results)]
    if len(decks) > 1:
        found.add(_decks(decks, out))
    return found


SETBACK = GameFindings(
    score="rows reached",
    turns="turns",
    extra_batches=extra_batches,
    findings=findings,
    order_of=_turn_order,
    length_note="A turn takes several decisions: each card declared with its targets and the end "
    "of the Hand Action (SB-3), the choices a card asks for as it resolves (SB-5, SB-6), and an "
    "answer from every player asked in the BLOCK window each declaration opens, a forced pass "
    "included (SB-9 amended).",
)
"""The Setback part of a report."""


FINDINGS = SETBACK
"""What a report knows about the game (its ``findings`` plugin)."""
