"""Levels: each level id plays as the bot its game names for it, wherever a bot name is taken."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import racedeck
from racedeck.bots.fast_search import FastSearchBot
from racedeck.bots.levels import LEVEL_BOTS, LEVELS, find_level, level_bot, level_ids
from racedeck.bots.random_bot import RandomBot
from racedeck.bots.registry import available_bots, available_levels, make_bot
from racedeck.bots.search import SearchBot, SearchBudget
from racedeck.sim.simulate import simulate

GAMES = ("why-first", "six-day-race", "setback")


def test_four_levels_weakest_first_each_said_in_words() -> None:
    assert level_ids() == ("beginner", "casual", "strong", "expert")
    assert [level.title for level in LEVELS] == ["Beginner", "Casual", "Strong", "Expert"]
    assert all(level.about for level in LEVELS)
    assert LEVEL_BOTS.keys() == set(level_ids())


@pytest.mark.parametrize("game_id", GAMES)
def test_each_level_plays_as_its_bot(game_id: str) -> None:
    game = racedeck.make(game_id, players=2)
    assert available_levels(game_id) == level_ids()
    assert isinstance(make_bot("beginner", game, 0, 1), RandomBot)
    casual = make_bot("casual", game, 0, 1)
    assert type(casual) is type(make_bot("heuristic", game, 0, 1))
    strong = make_bot("Strong", game, 1, 1)  # any case, as a bot name
    assert isinstance(strong, SearchBot)
    expert = make_bot(" expert ", game, 0, 1)
    assert isinstance(expert, FastSearchBot)
    for level in level_ids():
        bot = level_bot(level, game_id)
        assert bot.partition("@")[0] in available_bots(game_id)


def test_why_first_plays_strong_at_a_smaller_budget() -> None:
    """Measured: Expert beats the default search only narrowly there (docs/levels.md)."""
    assert level_bot("strong", "why-first") == "search@200"
    game = racedeck.make("why-first", players=3)
    bot = make_bot("strong", game, 0, 1)
    assert isinstance(bot, SearchBot) and bot.budget == SearchBudget(iterations=200)
    assert level_bot("strong", "setback") == LEVEL_BOTS["strong"] == "search"


def test_a_level_the_game_names_itself_wins_over_the_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    plugin = SimpleNamespace(BOTS={}, LEVELS={"expert": "search@7"})
    monkeypatch.setattr("racedeck.bots.levels.optional_plugin", lambda game_id, face: plugin)
    assert level_bot("expert", "setback") == "search@7"
    assert level_bot("casual", "setback") == "heuristic"
    bot = make_bot("expert", racedeck.make("setback", players=2), 0, 1)
    assert isinstance(bot, SearchBot) and bot.budget == SearchBudget(iterations=7)


def test_an_unknown_level_or_bot_names_what_is_legal() -> None:
    with pytest.raises(ValueError, match="no level 'master'; levels are beginner, casual"):
        level_bot("master", "why-first")
    game = racedeck.make("why-first", players=3)
    with pytest.raises(
        ValueError,
        match="no bot 'master' for why-first; levels: beginner, casual, strong, expert; "
        "bots: fastsearch, heuristic, learned, random, search",
    ):
        make_bot("master", game, 0, 1)
    with pytest.raises(ValueError, match="level 'expert' takes no parameter"):
        make_bot("expert@500", game, 0, 1)
    assert find_level("nobody") is None


def test_levels_play_in_a_simulation_by_their_ids() -> None:
    result = simulate("setback", {"players": 2}, ["beginner", "casual"], games=4, seed=3)
    assert result.by_bot.keys() == {"beginner", "casual"}
