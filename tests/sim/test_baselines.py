"""The baselines' evaluation deals and configurations are fixed: papers cite them by version."""

from __future__ import annotations

from racedeck.core.registry import make
from racedeck.sim.baselines import (
    EVALUATION_SEED,
    EVALUATION_VERSION,
    STANDARD,
    Standard,
    baseline_bots,
    evaluation_deals,
    pairs,
    play_baselines,
)


def test_the_evaluation_deals_of_the_first_version_never_change() -> None:
    assert EVALUATION_VERSION == "racedeck-eval-1"
    assert evaluation_deals(3) == (
        12498241356265207053,
        13424957508027533073,
        7448698519779110249,
    )


def test_every_standard_configuration_is_a_game_with_its_usual_bots() -> None:
    labels = [s.label for s in STANDARD]
    assert len(set(labels)) == len(labels)
    for standard in STANDARD:
        game = make(standard.game, **standard.options)
        assert game.num_players == standard.players
        bots = baseline_bots(standard)
        assert bots[:2] == ("random", "heuristic") and bots[2].startswith("fastsearch@")


def test_pairs_put_the_stronger_bot_first() -> None:
    assert list(pairs(("random", "heuristic", "search"))) == [
        ("heuristic", "random"),
        ("search", "random"),
        ("search", "heuristic"),
    ]


def test_a_pair_is_played_on_the_evaluation_deals() -> None:
    standard = Standard("setback", {"players": 2}, "Setback · 2 players")
    [result] = play_baselines(standard, 2, workers=1, bots=("random", "heuristic"))
    assert (result.ours, result.theirs, result.games) == ("heuristic", "random", 4)
    # Deal d of the evaluation is head_to_head's deal d from the evaluation seed.
    assert result.seed == EVALUATION_SEED
    assert result.low <= result.share <= result.high and result.ours_score >= 0
