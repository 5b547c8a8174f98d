"""Building a balance report: plan the batches, play what is missing, analyse, write the page.

A run keeps every finished game in ``DIR/games.jsonl`` as it arrives, so an interrupted run
loses nothing and the same command run again plays only the games still missing.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import racedeck
from racedeck.core.registry import get_spec, make
from racedeck.report import html, wording
from racedeck.report.batches import MAIN, Batch, BatchResult
from racedeck.report.document import Report
from racedeck.report.findings import Findings, findings_for
from racedeck.report.findings.generic import (
    bots_findings,
    length_findings,
    scores_findings,
    seat_findings,
)
from racedeck.report.journal import FILE_NAME, Journal, load_journal
from racedeck.report.lessons.base import LessonGames, lesson_for
from racedeck.report.lessons.section import TITLE, absent_note, lesson_findings
from racedeck.report.measures import GameMeasures, measure_game
from racedeck.report.stats import detectable_difference, games_to_detect
from racedeck.sim.play import make_bots
from racedeck.sim.runner import GameJob, run_jobs

__all__ = [
    "METHOD",
    "POLICY_GAMES",
    "ReportRequest",
    "ReportRun",
    "comparison_games",
    "fair_share",
    "plan_batches",
]

METHOD = [
    "A win share is the share of games won; a win shared by k figures counts 1/k for each. "
    "Intervals are 95% Wilson score intervals (means: normal 95% intervals).",
    "Seat balance: Pearson's chi-square goodness-of-fit test of the seats' win counts against "
    "equal shares (seats − 1 degrees of freedom). The largest gap between two seats is tested "
    "with a z-test for two shares of the same games (variance (pa + pb − (pa − pb)²)/n), "
    "Bonferroni-corrected for every pair of seats since it was picked for being largest.",
    "Bots: a one-proportion z-test of the games a bot's seats won against its fair share "
    "(the seats it holds ÷ all contestants); mixed lineups are rotated one seat per game.",
    "Batches compared with each other (variants, decks) use independent seeds: two-proportion "
    "z-tests for shares, large-sample z-tests with Welch's standard error for means.",
    "Games a comparison needs: to tell win shares p1 and p2 of two batches apart at 95% "
    "confidence with 80% power, each batch needs n = (1.960 √(2 p̄(1 − p̄)) + 0.842 "
    "√(p1(1 − p1) + p2(1 − p2)))² / (p1 − p2)² games, p̄ = (p1 + p2)/2 (the standard "
    "two-proportion sample size): 388 each for 50% against 60%, 1,251 each for 25% against "
    "30%. Where the batches are smaller, the report names the smallest difference they can "
    "tell (the same equation solved for p2 − p1) instead of calling a difference absent.",
    "Significant means p < 0.05, i.e. at 95% confidence. Among many tests of things that are in "
    "truth equal, about one in twenty still comes out significant by chance.",
    "Bots are programs, not people: what is found holds for the way these bots play.",
]
"""How the report's numbers were tested, in words shown on the page."""


POLICY_GAMES = 150
"""Deals the section on the learned policy plays by default (each twice: a few seconds)."""


@dataclass(frozen=True)
class ReportRequest:
    """What to report on: the main batch's game, configuration and bots, and how to run it.

    ``bots`` holds one bot spec per seat; ``games`` is the main batch's size. Comparison
    batches play half as many, or, with ``detect`` (a difference in win share such as 0.05),
    as many as a comparison needs to tell that difference at a fair seat's share
    (:func:`comparison_games`). ``workers=None`` uses every local core. ``policy`` names the
    learned policy (``policy:PATH`` or ``learned``) whose section plays ``policy_games``
    deals; ``None`` leaves the section out.
    """

    game_id: str
    config: dict[str, Any]
    bots: tuple[str, ...]
    games: int
    out: Path
    seed: int = 0
    workers: int | None = None
    ray_address: str | None = None
    detect: float | None = None
    policy: str | None = None
    policy_games: int = POLICY_GAMES


def fair_share(game_id: str, config: dict[str, Any]) -> float:
    """A fair seat's win share: one over the players."""
    return 1 / make(game_id, **config).num_players


def comparison_games(request: ReportRequest) -> int:
    """Games in each comparison batch: enough to tell ``request.detect`` at a fair seat's
    share (:func:`racedeck.report.stats.games_to_detect`: 95% confidence, 80% power), or
    half the main batch (at least 1) without it."""
    if request.detect is None:
        return max(1, request.games // 2)
    if not 0 < request.detect < 0.5:
        raise ValueError(
            f"a difference to detect of {request.detect * 100:g} percentage points is not "
            "possible (allowed: more than 0 and less than 50)"
        )
    p = fair_share(request.game_id, request.config)
    other = p + request.detect if p + request.detect < 1 else p - request.detect
    return games_to_detect(p, other)


def plan_batches(request: ReportRequest) -> list[Batch]:
    """The main batch and the game's comparison batches (:func:`comparison_games` each)."""
    spec = get_spec(request.game_id)
    main = Batch(
        MAIN,
        "Main batch",
        request.game_id,
        dict(request.config),
        tuple(request.bots),
        request.games,
        request.seed,
        note="the game, options and bots asked for",
    )
    extra = findings_for(spec.id).extra_batches(main, comparison_games(request))
    return [main, *extra]


def _names(game_id: str, config: dict[str, Any], contestants: int) -> tuple[str, ...]:
    game = make(game_id, **config)
    seats = tuple(f"Seat {i + 1}" for i in range(game.num_players))
    figure_names = getattr(game, "figure_names", None)
    extra: tuple[str, ...] = ()
    if contestants > len(seats):
        named = tuple(figure_names()) if figure_names is not None else ()
        extra = tuple(
            named[i] if i < len(named) else f"Figure {i + 1}"
            for i in range(len(seats), contestants)
        )
    return seats + extra


class ReportRun:
    """One run of a report: what is saved, what is missing, playing it, writing the page."""

    def __init__(self, request: ReportRequest) -> None:
        if request.games < 1:
            raise ValueError("a report needs at least one game")
        self.request = request
        self.batches = plan_batches(request)
        for batch in self.batches:  # refuse unknown bots or bad options before playing
            game = make(batch.game_id, **batch.config)
            make_bots(game, batch.lineup, 0)
        if request.policy is not None:
            from racedeck.report.lessons.play import policy_of  # NumPy, loaded when asked

            if request.policy_games < 1:
                raise ValueError("the section on the learned policy needs at least one deal")
            policy_of(request.policy, make(request.game_id, **request.config))
        self.lessons: LessonGames | None = None
        self.params = {b.key: b.params() for b in self.batches}
        self.path = request.out / FILE_NAME
        saved, self.ignored = load_journal(self.path, self.params)
        self.games: dict[str, dict[int, GameMeasures]] = {
            b.key: {i: m for i, m in saved[b.key].items() if i < b.games} for b in self.batches
        }
        self.reused = self.done
        self.played = 0

    @property
    def total(self) -> int:
        """Games in all batches."""
        return sum(b.games for b in self.batches)

    @property
    def done(self) -> int:
        """Games finished (saved before or played now)."""
        return sum(len(g) for g in self.games.values())

    def missing(self) -> list[tuple[Batch, int]]:
        """The games still to play, batch by batch."""
        return [(b, i) for b in self.batches for i in range(b.games) if i not in self.games[b.key]]

    def play(self, on_game: Callable[[int], None] | None = None) -> None:
        """Play every missing game, saving each as it finishes; ``on_game(1)`` per game.

        On KeyboardInterrupt the games that finished are saved and the interrupt re-raised.
        """
        todo = self.missing()
        if not todo:
            return
        jobs = [batch.job(i, run_index) for run_index, (batch, i) in enumerate(todo)]
        with Journal(self.path) as journal:

            def on_result(job: GameJob, measures: GameMeasures) -> None:
                batch, index = todo[job.index]
                self.games[batch.key][index] = measures
                journal.append(batch.key, index, self.params[batch.key], measures)
                self.played += 1
                if on_game is not None:
                    on_game(1)

            run_jobs(
                jobs,
                measure_game,
                workers=self.request.workers,
                ray_address=self.request.ray_address,
                on_result=on_result,
            )

    def play_lessons(self, on_game: Callable[[int], None] | None = None) -> None:
        """Play the deals of the section on the learned policy, when there is one and they
        are not played yet (in this process: they are few); ``on_game(1)`` per deal."""
        r = self.request
        if r.policy is None or self.lessons is not None:
            return
        from racedeck.report.lessons.play import play_lessons

        self.lessons = play_lessons(
            r.game_id,
            r.config,
            r.policy,
            r.policy_games,
            r.seed,
            lesson_for(r.game_id),
            on_game,
        )

    def results(self) -> dict[str, BatchResult]:
        """Every batch with its games in order; all games must have been played."""
        if self.missing():
            raise RuntimeError(f"{len(self.missing())} games are still to be played")
        out = {}
        for b in self.batches:
            games = tuple(self.games[b.key][i] for i in range(b.games))
            contestants = len(games[0].scores) if games else len(b.lineup)
            out[b.key] = BatchResult(b, games, _names(b.game_id, b.config, contestants))
        return out

    def build(self) -> Report:
        """Analyse the games and write the plots; return the report (not yet written)."""
        out = self.request.out
        out.mkdir(parents=True, exist_ok=True)
        results = self.results()
        main = results[MAIN]
        game = findings_for(main.batch.game_id)
        # Balance first, then what the game's own measures show, scores and length last.
        found = Findings()
        found.add(seat_findings(main, out, game.score))
        if main.batch.rotated:
            found.add(bots_findings(main, out))
        found.add(game.findings(results, out))
        found.add(
            scores_findings(
                main,
                out,
                game.score,
                f"Scores are each contestant's final {game.score}, as the game's outcome gives "
                "them (who wins is decided by the rules, not always by the highest score).",
            )
        )
        found.add(length_findings(main, out, game.turns, game.fixed_length, game.length_note))
        if self.request.policy is not None:
            self.play_lessons()
            assert self.lessons is not None
            found.add(lesson_findings(self.lessons, out, lesson_for(main.batch.game_id)))
        return Report(
            title=f"Balance report: {get_spec(main.batch.game_id).title}",
            facts=self._facts(results),
            summary=found.summary,
            method=METHOD,
            sections=found.sections,
            data={
                "racedeck_version": racedeck.__version__,
                "batches": [{**b.describe(), "played": results[b.key].n} for b in self.batches],
                "findings": found.data,
            },
        )

    def _facts(self, results: dict[str, BatchResult]) -> list[tuple[str, str]]:
        main = results[MAIN].batch
        spec = get_spec(main.game_id)
        lineup = ", ".join(main.lineup)
        if main.rotated:
            lineup += " (rotated one seat per game)"
        config = json.dumps(main.config, sort_keys=True) if main.config else "defaults"
        others = "; ".join(
            f"{b.title} ({wording.count(b.games)} games)" for b in self.batches if b.key != MAIN
        )
        facts = [
            ("game", f"{spec.title} ({spec.id}), rules v{spec.rules_version}"),
            ("options", config),
            ("bots by seat", lineup),
            ("games", f"{wording.count(main.games)} in the main batch"),
            ("seed", str(main.seed)),
            ("learned policy", self._policy_fact()),
        ]
        if others:
            facts.append(("comparison batches", others))
            facts.append(("comparisons tell", self._resolution(results)))
        return facts

    def _policy_fact(self) -> str:
        """Which policy the section on the learned bot studies, or why it is absent."""
        r = self.request
        if r.policy is None:
            return absent_note(r.game_id)
        return f"{r.policy}, {wording.count(r.policy_games)} deals (see {TITLE})"

    def _resolution(self, results: dict[str, BatchResult]) -> str:
        """What the comparison batches can tell, and how they were sized."""
        main = results[MAIN].batch
        p = fair_share(main.game_id, main.config)
        n = min(b.games for b in self.batches if b.key != MAIN)
        d = detectable_difference(p, n, n)
        if self.request.detect is not None:
            sized = f"sized for {wording.percentage_points(self.request.detect)}"
        else:
            sized = "half the main batch"
        told = (
            f"win shares {wording.percentage_points(d)} apart or more, at a fair seat's "
            f"{wording.pct(p)} (two batches of {wording.count(n)} games, {sized}; 95% "
            "confidence, 80% power)"
        )
        if self.request.detect is None:
            need = games_to_detect(p, p + wording.PLANNED_DIFFERENCE)
            return (
                f"{told}; --detect 5 would size them for 5 percentage points "
                f"({wording.count(need)} games each)"
            )
        if main.games < n:  # a comparison with the main batch is as good as its games
            told += f"; comparisons with the {wording.count(main.games)}-game main batch tell less"
        return told

    def write(self) -> Report:
        """Build the report and write ``index.html`` and ``data.json``; return the report."""
        report = self.build()
        out = self.request.out
        (out / "index.html").write_text(html.render(report), encoding="utf-8")
        (out / "data.json").write_text(
            json.dumps(report.to_json(), indent=2, allow_nan=False) + "\n", encoding="utf-8"
        )
        return report
