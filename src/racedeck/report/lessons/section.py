"""The section "What the learned bot teaches": its opening choices beside the field bot's, how
its value estimates move through a game, and what the game's own lesson measures."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from racedeck.core.registry import get_spec
from racedeck.report import plots, wording
from racedeck.report.document import Cell, Column, Figure, Section, Table
from racedeck.report.findings.base import Findings
from racedeck.report.lessons.base import GameLesson, LessonGames, SeatGame
from racedeck.report.stats import Mean, mean_of
from racedeck.sim.stats import Share

__all__ = [
    "KEY",
    "MIN_SEATS",
    "OTHER",
    "TITLE",
    "TOP_CHOICES",
    "absent_note",
    "lesson_findings",
    "opening_choices",
    "value_curve",
]

KEY = "learned"
TITLE = "What the learned bot teaches"

TOP_CHOICES = 8
"""The first choices shown one by one; the rarer ones are counted together."""

OTHER = "other choices"

MIN_SEATS = 5
"""A decision number is drawn for a group of seats only when this many reached it: a mean of
fewer says little, and long games are few."""


def absent_note(game_id: str) -> str:
    """The one line the report gives instead of the section."""
    return (
        f"none ships for {get_spec(game_id).title} with these options; --policy PATH adds "
        f"the section “{TITLE}”"
    )


def opening_choices(
    learned: Sequence[SeatGame], field: Sequence[SeatGame], top: int = TOP_CHOICES
) -> tuple[list[str], dict[str, float], dict[str, float]]:
    """The first choices to show (most frequent over both bots first, the rest as
    :data:`OTHER`) and each bot's share of its seats that had a choice, by choice."""
    mine = Counter(s.first for s in learned if s.first is not None)
    theirs = Counter(s.first for s in field if s.first is not None)
    both = mine + theirs
    ranked = sorted(both, key=lambda c: (-both[c], c))
    shown = ranked[:top] if len(ranked) <= top else ranked[: top - 1]
    rest = [c for c in ranked if c not in shown]
    labels = shown + ([OTHER] if rest else [])

    def shares(counts: Counter[str]) -> dict[str, float]:
        total = sum(counts.values())
        out = {c: counts[c] / total if total else 0.0 for c in shown}
        if rest:
            out[OTHER] = sum(counts[c] for c in rest) / total if total else 0.0
        return out

    return labels, shares(mine), shares(theirs)


def value_curve(seats: Sequence[SeatGame], least: int = MIN_SEATS) -> list[tuple[int, Mean]]:
    """The mean value estimate (:func:`~racedeck.report.stats.mean_of`) at each decision
    number from 1, as long as ``least`` seats reached it."""
    out: list[tuple[int, Mean]] = []
    decision = 1
    while True:
        values = [s.values[decision - 1] for s in seats if len(s.values) >= decision]
        if len(values) < least:
            return out
        out.append((decision, mean_of(values)))
        decision += 1


def _openings(games: LessonGames, out: Path) -> tuple[list[str], Figure, str]:
    labels, mine, theirs = opening_choices(games.learned, games.field_games)
    n_mine = sum(1 for s in games.learned if s.first is not None)
    n_theirs = sum(1 for s in games.field_games if s.first is not None)
    field = f"{games.field} bot"
    image = "learned_openings.png"
    plots.interval_bars(
        out / image,
        labels,
        {
            "learned policy": [_interval(Share.of(mine[c] * n_mine, n_mine)) for c in labels],
            field: [_interval(Share.of(theirs[c] * n_theirs, n_theirs)) for c in labels],
        },
        title=f"The seat's first choice, learned policy and {field} ({wording.count(games.n)} "
        "deals)",
        ylabel="share of deals",
    )
    agree = sum(
        1
        for a, b in zip(games.learned, games.field_games, strict=True)
        if a.first is not None and a.first == b.first
    )
    table = Table(
        (Column("first choice", "text"), Column("learned policy", "pct"), Column(field, "pct")),
        [[c, mine[c], theirs[c]] for c in labels],
    )
    caption = (
        "The seat's first decision with more than one legal action, named as the game names "
        'actions ("itself" is the seat\'s own figure or player); 95% intervals. The '
        f"{field} in the same seat of the same deal saw the same situation."
    )
    named = [c for c in labels if c != OTHER]  # "other choices" is no choice of its own
    favourite = max(named, key=lambda c: mine[c]) if named else None
    usual = max(named, key=lambda c: theirs[c]) if named else None
    words = (
        "Opening choices: what the seat does at its first decision with a choice. "
        f"On {wording.pct(agree / games.n if games.n else 0.0)} of the deals the learned "
        f"policy chose what the {field} chose."
    )
    summary = ""
    if favourite is not None and usual is not None:
        summary = (
            f"its most frequent first choice is “{favourite}” ({wording.pct(mine[favourite])}); "
            f"the {field}'s is “{usual}” ({wording.pct(theirs[usual])})."
        )
        words += f" I{summary[1:]}"
    return [words], Figure(image, "Opening choices", caption, table), summary


def _interval(share: Share) -> plots.Interval:
    return plots.Interval(share.value, share.low, share.high)


def _values(games: LessonGames, out: Path) -> tuple[list[str], Figure | None]:
    if not games.value_head:
        return [
            "How its value estimates move: not shown, this policy has no value head "
            "(no estimate of its share of the win)."
        ], None
    won = [s for s in games.learned if s.credit > 0]
    lost = [s for s in games.learned if s.credit == 0]
    curves = {
        f"seats that won ({len(won)})": value_curve(won),
        f"seats that did not ({len(lost)})": value_curve(lost),
    }
    fair = 1 / games.contestants
    image = "learned_values.png"
    plots.bands(
        out / image,
        {
            name: [(d, plots.Interval(m.value, m.low, m.high)) for d, m in points]
            for name, points in curves.items()
        },
        title="The learned policy's value estimate through a game",
        xlabel="the seat's decision number",
        ylabel="estimated share of the win",
        reference=fair,
        reference_label=f"fair share {wording.pct(fair)}",
    )
    by_decision: dict[int, list[Cell]] = {}
    for k, points in enumerate(curves.values()):
        for d, m in points:
            row = by_decision.setdefault(d, [d, None, None, None, None])
            row[1 + 2 * k] = m.value
            row[2 + 2 * k] = m.n
    table = Table(
        (
            Column("decision", "int"),
            Column("mean estimate, won"),
            Column("seats, won", "int"),
            Column("mean estimate, did not win"),
            Column("seats, did not win", "int"),
        ),
        [by_decision[d] for d in sorted(by_decision)],
    )
    caption = (
        "The value head's estimate of the seat's share of the win at each of its decisions, "
        "averaged over the seats that went on to win (a shared win included) and those that "
        f"did not; decisions that fewer than {MIN_SEATS} seats of a group reached are left out."
    )
    words = [
        "How its value estimates move through a game: a policy that reads the game well is "
        "unsure at first (near the fair share) and its estimates part as the game goes on, "
        "rising for the seats that go on to win and falling for the others. Where the lines part "
        "is where the game is decided, as far as the policy can tell."
    ]
    groups = ((won, "won"), (lost, "did not win"))
    few = [f"{len(g)} {what}" for g, what in groups if len(g) < MIN_SEATS]
    if few:  # a line missing from the plot is said to be missing
        words[0] += f" Too few seats for a line of their own: {' and '.join(few)}."
    return words, Figure(image, "Value estimates through a game", caption, table)


def lesson_findings(games: LessonGames, out: Path, lesson: GameLesson | None) -> Findings:
    """The section on the learned policy ``games.policy`` (see the module)."""
    field = f"{games.field} bot"
    mine = Share.of(sum(s.credit for s in games.learned), games.n)
    theirs = Share.of(sum(s.credit for s in games.field_games), games.n)
    intro = (
        f"{wording.count(games.n)} deals of this configuration, each played twice: once with "
        f"the learned policy ({games.policy}) in one seat, rotated over the seats, against "
        f"{field}s, and once by {field}s alone. One learned seat rather than a table of them: "
        f"its choices and results can then be set beside the {field}'s in the same seat of "
        "the same deal against the same opponents, whereas a table of identical players shares "
        "out places and wins evenly whatever they aim at. The learned seat won "
        f"{wording.pct(mine.value)} of its games ({wording.pct_interval(mine)}); the {field} "
        f"in its place {wording.pct(theirs.value)} ({wording.pct_interval(theirs)})."
    )
    section = Section(KEY, TITLE, [intro])
    opening_words, opening, opening_summary = _openings(games, out)
    section.paragraphs += opening_words
    section.figures.append(opening)
    value_words, values = _values(games, out)
    section.paragraphs += value_words
    if values is not None:
        section.figures.append(values)
    found = Findings(
        [section],
        [
            f"Learned policy: in one seat against {field}s it won {wording.pct(mine.value)} of "
            f"its games ({field}: {wording.pct(theirs.value)}); {opening_summary}"
        ],
        {
            KEY: {
                "policy": games.policy,
                "field": games.field,
                "deals": games.n,
                "win_share": {"learned": mine.value, "field": theirs.value},
                "value_head": games.value_head,
            }
        },
    )
    if lesson is not None:
        extra = lesson.findings(games, out)
        for part in extra.sections:  # the game's own measures join this section
            section.paragraphs += part.paragraphs
            section.figures += part.figures
            section.tables += part.tables
        found.summary += extra.summary
        found.data[KEY].update(extra.data)
    return found
