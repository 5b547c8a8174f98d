"""What a form needs to offer a game to people: presets (how long to play), list options whose
items each get their own field, and the rulings an option sets (``/api/games``)."""

from __future__ import annotations

import re
import statistics
from pathlib import Path

import pytest

import racedeck  # noqa: F401  (registers the games)
from racedeck.core.registry import available_games, get_spec
from racedeck.core.spec import PRESETS
from racedeck.games.setback.cards import DEFAULT_DECK, parse_card_type
from racedeck.sim.play import make_bots, play_game

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"
GAMES = ("why-first", "six-day-race", "setback")


def test_the_three_games_are_the_registered_ones() -> None:
    assert set(GAMES) <= set(available_games())


@pytest.mark.parametrize("game_id", GAMES)
def test_every_preset_is_a_valid_game_for_every_player_count(game_id: str) -> None:
    spec = get_spec(game_id)
    assert set(spec.presets) <= set(PRESETS)
    assert spec.presets["standard"] == {}, "standard is the rulebook's game"
    assert "quick" in spec.presets
    for options in spec.presets.values():
        for players in range(spec.min_players, spec.max_players + 1):
            spec.make_config(players=players, **options)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_quick_game_is_shorter_and_a_long_one_longer(game_id: str) -> None:
    """Measured, not assumed: random play over a few deals, in decisions."""
    spec = get_spec(game_id)

    def decisions(preset: str) -> float:
        game = spec.factory(spec.make_config(players=3, **spec.presets[preset]))
        names = ["random"] * 3
        return statistics.mean(
            play_game(game, make_bots(game, names, seed), seed=seed).decisions for seed in range(4)
        )

    lengths = [decisions(p) for p in PRESETS if p in spec.presets]
    assert lengths == sorted(lengths) and len(set(lengths)) == len(lengths), lengths


@pytest.mark.parametrize("game_id", GAMES)
def test_a_list_option_says_what_its_items_stand_for(game_id: str) -> None:
    for opt in get_spec(game_id).options():
        if not isinstance(opt.default, tuple):
            assert opt.length is None and opt.max_items is None and opt.labels is None
            continue
        assert opt.max_items is not None and len(opt.default) <= opt.max_items
        if opt.length is not None:
            assert len(opt.default) == opt.length
            if opt.labels is not None:
                assert len(opt.labels) == opt.length, opt.name


def test_setbacks_deck_names_every_card_it_may_hold_the_rulebooks_first() -> None:
    """SB-2: the rulebook's deck in its order, then every other card a custom deck may hold."""
    deck = next(o for o in get_spec("setback").options() if o.name == "deck")
    assert deck.labels is not None
    assert list(deck.labels[: len(DEFAULT_DECK)]) == [name for name, _ in DEFAULT_DECK]
    assert (
        len(set(deck.labels)) == len(deck.labels) == 37
    )  # 3 kinds × 4 amounts × FREE or not, 7 actions × 2 − DRAW*
    for name in deck.labels:
        assert parse_card_type(name).name == name
    # A deck built from the labels is accepted as it is.
    get_spec("setback").make_config(deck=[[name, 1] for name in deck.labels])


@pytest.mark.parametrize("game_id", GAMES)
def test_every_ruling_an_option_cites_is_a_heading_of_the_rules_page(game_id: str) -> None:
    text = (RULES / f"{game_id}.md").read_text(encoding="utf-8")
    headings = set(re.findall(r"^### ([A-Z]{2}-\d+) ·", text, re.MULTILINE))
    cited = {r for o in get_spec(game_id).options() for r in o.rulings}
    assert cited and cited <= headings, cited - headings
