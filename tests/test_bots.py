"""Bots: they see views only, they are reproducible, and the heuristic beats random."""

from __future__ import annotations

from typing import Any

import pytest
from budget import scaled

import racedeck
from racedeck.bots import RandomBot, WhyFirstHeuristicBot, available_bots, make_bot
from racedeck.bots.why_first import second_place_chance
from racedeck.games.why_first import WhyFirstView
from racedeck.sim import make_bots, play_game, simulate


def test_make_bot_names_unknown_bot() -> None:
    game = racedeck.make("why-first", players=3)
    with pytest.raises(
        ValueError,
        match="levels: beginner, casual, strong, expert; bots: fastsearch, heuristic, learned, ",
    ):
        make_bot("genius", game, 0, 1)
    assert available_bots("why-first") == ("fastsearch", "heuristic", "learned", "random", "search")


class _Spy(RandomBot):
    seen: list[Any]

    def act(self, view: Any) -> Any:
        self.seen.append(view)
        return super().act(view)


def test_bots_receive_views_never_states() -> None:
    game = racedeck.make("why-first", players=3)
    spies = [_Spy(game, seat, seat) for seat in range(3)]
    for spy in spies:
        spy.seen = []
    play_game(game, spies, seed=4)
    for seat, spy in enumerate(spies):
        assert spy.seen, "every seat decides at least once"
        for view in spy.seen:
            assert isinstance(view, WhyFirstView)
            assert view.seat == seat


def test_games_with_bots_are_reproducible() -> None:
    game = racedeck.make("why-first", players=4)
    names = ["heuristic", "random", "heuristic", "random"]
    a = play_game(game, make_bots(game, names, 9), seed=3)
    b = play_game(game, make_bots(game, names, 9), seed=3)
    assert a.record == b.record
    assert a.outcome == b.outcome


def test_second_place_chance_prefers_the_window_between_first_and_third() -> None:
    # Others have 10 and 4: a total of 7 sits in the winning window (WF-7), 12 and 2 do not.
    def chance(mine: float) -> float:
        return second_place_chance([mine, 10, 4], 0, spread=0.75)

    assert chance(7) > 0.9
    assert chance(12) < 0.1
    assert chance(2) < 0.1


@pytest.mark.parametrize(
    ("config", "bots", "games"),
    [
        ({"players": 4}, ["heuristic", "random", "random", "random"], 100),
        ({"players": 2}, ["heuristic", "random"], 100),
        (
            {"players": 5, "variant": "tactical"},
            ["heuristic", "random", "random", "random", "random"],
            60,
        ),
    ],
)
def test_heuristic_beats_random_clearly(
    config: dict[str, Any], bots: list[str], games: int
) -> None:
    """The heuristic's 95% interval lies above a fair share (1 / contestants, Leo included)."""
    # Games per case: the interval's low end stays well above a fair share in each (0.37 vs
    # 0.25 and 0.44 vs 0.33 of 100 games, 0.40 vs 0.2 of 60 in the tactical variant, where
    # the heuristic wins half its games); the ladder measures the strength itself.
    result = simulate("why-first", config, bots, games=scaled(games, least=games), seed=11)
    contestants = len(result.contestants)
    heuristic = result.contestants[0]
    assert heuristic.bot == "heuristic"
    assert heuristic.win_share.low > 1 / contestants
    for other in result.contestants[1:]:
        assert heuristic.win_share.value > other.win_share.value


def test_heuristic_plays_every_phase_of_the_tactical_variant() -> None:
    game = racedeck.make("why-first", players=3, variant="tactical")
    bots = [WhyFirstHeuristicBot(game, s, s) for s in range(3)]
    result = play_game(game, bots, seed=2)
    types = {a.action["type"] for a in result.record.actions}
    assert types == {"commit", "move"}


@pytest.mark.parametrize(
    "config",
    [{"players": 4, "races": 2}, {"players": 6, "races": 1}, {"players": 2, "races": 2}],
)
def test_six_day_race_heuristic_beats_random_clearly(config: dict[str, Any]) -> None:
    bots = ["heuristic"] + ["random"] * (config["players"] - 1)
    # 30 games: it wins two thirds or more of them; the low ends are 0.49, 0.39 and 0.83
    # against fair shares of 0.25, 0.17 and 0.5.
    result = simulate("six-day-race", config, bots, games=scaled(30, least=30), seed=5)
    heuristic = result.contestants[0]
    assert heuristic.win_share.low > 1 / config["players"]


def test_six_day_race_heuristic_takes_the_slipstream() -> None:
    """SD-5: with a 3 that lands on three riders (12 spaces) against a plain 5, take the 3."""
    game = racedeck.make("six-day-race", players=4, riders=1, random_first=False)
    state = game.new_initial_state(1)
    state.positions = [10, 13, 13, 13]
    state.hands[0] = [3, 5]
    view = game.observe(state, 0)
    bot = make_bot("heuristic", game, 0, 1)
    assert bot.act(view).value == 3


@pytest.mark.parametrize(("players", "games"), [(2, 30), (3, 30), (5, 60)])
def test_setback_heuristic_beats_random_clearly(players: int, games: int) -> None:
    bots = ["heuristic"] + ["random"] * (players - 1)
    # The low end is 0.70 and 0.52 of 30 games, 0.36 of 60, against fair shares of 0.5, 0.33
    # and 0.2 (five players need the 60: the heuristic wins under half of them).
    games = scaled(games, least=games)
    result = simulate("setback", {"players": players}, bots, games=games, seed=7)
    assert result.contestants[0].win_share.low > 1 / players


def test_setback_heuristic_blocks_a_threat_and_passes_on_trifles() -> None:
    """SB-9: BLOCK a FOE-2 aimed at us; let a rival's harmless DRAW stand."""
    from racedeck.games.setback import Block, Pass, Play, parse_card_type

    game = racedeck.make("setback", players=3)
    state = game.new_initial_state(3)
    block = next(i for i, t in enumerate(game.types) if t.kind == "BLOCK")
    state.hands[0] = [block]
    state.row[0], state.lane[0] = 2, 0
    state.phase = "window"
    state.asked = [0]
    state.pending = (0,)
    bot = make_bot("heuristic", game, 0, 1)
    for card, target, expected in [("FOE-2", 0, Block()), ("DRAW", -1, Pass())]:
        play = Play(parse_card_type(card), target=target)
        state.stack = [{"by": 1, "source": "hand", "card": 0, "play": play}]
        assert bot.act(game.observe(state, 0)) == expected
