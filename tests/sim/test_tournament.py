"""Round-robin tournaments: fair seatings, exact resumption, sensible ratings."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from racedeck.core.rng import derive_seed
from racedeck.sim.ratings import rate_games
from racedeck.sim.runner import PlayedGame
from racedeck.sim.tournament import Tournament, play_tournament, round_robin, summarise
from racedeck.store.tournaments import StoredGame, TournamentStore


@pytest.mark.parametrize(
    ("bots", "players"),
    [(("a", "b"), 2), (("a", "b"), 3), (("a", "b", "c"), 3), (("a", "b", "c"), 2), (("a", "b"), 4)],
)
def test_every_bot_holds_every_seat_equally_often(bots: tuple[str, ...], players: int) -> None:
    schedule = round_robin(bots, players)
    assert len(set(schedule)) == len(schedule)
    assert all(len(set(lineup)) >= 2 for lineup in schedule)  # nobody only meets itself
    for bot in bots:
        per_seat = Counter(seat for lineup in schedule for seat, b in enumerate(lineup) if b == bot)
        assert len(per_seat) == players
        assert len(set(per_seat.values())) == 1, (bot, per_seat)
    # every bot gets the same number of seats in total
    assert len({sum(lineup.count(bot) for lineup in schedule) for bot in bots}) == 1


def test_schedule_of_three_bots_in_three_seats() -> None:
    schedule = round_robin(("a", "b", "c"), 3)
    # 10 multisets of three, minus aaa, bbb, ccc; three rotations each
    assert len(schedule) == 21
    assert schedule[:3] == (("a", "a", "b"), ("a", "b", "a"), ("b", "a", "a"))
    assert round_robin(("solo",), 3) == (("solo", "solo", "solo"),)
    with pytest.raises(ValueError, match="different"):
        round_robin(("a", "a"), 2)


def test_game_i_is_defined_by_the_parameters_and_i() -> None:
    t = Tournament.create("why-first", ["random", "heuristic"], players=3, seed=11)
    again = Tournament.create("why-first", ["random", "heuristic"], config={"players": 3}, seed=11)
    assert t == again and t.to_json() == again.to_json()
    job = t.job(8)
    assert job.seed == derive_seed(11, 8)
    assert job.bots == t.schedule[8 % len(t.schedule)]
    assert job.config == t.config and t.config["stages"] == 5  # the full configuration


def test_default_players_follow_the_bots_within_the_game_range() -> None:
    assert Tournament.create("why-first", ["random", "heuristic"]).players == 2
    assert Tournament.create("why-first", ["random"]).players == 2
    seven = [f"bad{i}" for i in range(7)]
    with pytest.raises(ValueError, match="no bot 'bad0'"):
        Tournament.create("why-first", seven)
    with pytest.raises(ValueError, match="no bot 'nobody'"):
        Tournament.create("why-first", ["random", "nobody"])
    with pytest.raises(ValueError, match="2 to 6 players"):
        Tournament.create("why-first", ["random"], players=7)


def _stored(t: Tournament, played: PlayedGame) -> StoredGame:
    i = played.index
    return StoredGame(
        i, t.lineup(i), t.game_seed(i), played.outcome, played.record, played.decisions, 0.0
    )


def test_interrupted_and_resumed_equals_one_run(tmp_path: Path) -> None:
    t = Tournament.create("why-first", ["random", "heuristic"], players=3, seed=4)
    whole = play_tournament(t, range(30), workers=1)

    store = TournamentStore(tmp_path / "t.sqlite")
    row = store.tournament(
        game=t.game_id,
        rules_version=t.rules_version,
        config=t.config,
        bots=t.bots,
        players=t.players,
        seed=t.seed,
    )
    assert row is not None
    played_indices: list[int] = []

    def keep(played: PlayedGame) -> None:
        store.add_game(row.id, _stored(t, played))  # raises if a game were stored twice
        played_indices.append(played.index)
        if len(played_indices) == 7:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        play_tournament(t, range(30), workers=2, on_game=keep)
    assert store.count_games(row.id) == 7
    done = store.game_indices(row.id)
    play_tournament(t, [i for i in range(30) if i not in done], workers=2, on_game=keep)

    assert sorted(played_indices) == list(range(30))  # each game played exactly once
    stored = {g.index: g.outcome for g in store.games(row.id)}
    assert stored == {i: p.outcome for i, p in whole.items()}
    assert (
        summarise(t, stored).to_json()
        == summarise(t, {i: p.outcome for i, p in whole.items()}).to_json()
    )
    store.close()


def test_heuristic_is_rated_above_random_in_three_player_why_first() -> None:
    t = Tournament.create("why-first", ["random", "heuristic"], players=3, seed=1)
    result = summarise(
        t, {i: p.outcome for i, p in play_tournament(t, range(60), workers=1).items()}
    )
    first, second = result.standings
    assert first.bot == "heuristic" and second.bot == "random"
    assert first.rating.ordinal > second.rating.ordinal and first.rating.mu > second.rating.mu
    assert first.win_share.value > second.win_share.value
    assert first.games == second.games == 60 and first.seat_games == second.seat_games == 90
    assert sum(s.wins for s in result.standings) == pytest.approx(60)
    assert sum(s.wins for s in result.seats) == pytest.approx(60)
    assert [s.name for s in result.seats] == ["seat 1", "seat 2", "seat 3"]


def test_two_player_why_first_rates_the_bots_without_leo() -> None:
    t = Tournament.create("why-first", ["heuristic", "random"], seed=2)
    assert t.players == 2
    outcomes = {i: p.outcome for i, p in play_tournament(t, range(40), workers=1).items()}
    assert all(len(o.ranks) == 3 for o in outcomes.values())  # Leo is in every outcome
    result = summarise(t, outcomes)
    assert [s.name for s in result.seats] == ["seat 1", "seat 2", "Leo"]
    assert sum(s.wins for s in result.seats) == pytest.approx(40)
    leo_wins = result.seats[2].wins
    assert sum(s.wins for s in result.standings) == pytest.approx(40 - leo_wins)
    by_bot = {s.bot: s for s in result.standings}
    assert set(by_bot) == {"heuristic", "random"} and by_bot["heuristic"].seat_games == 40
    # the ratings equal rating the two seats alone, Leo's place dropped
    expected = rate_games(t.bots, [(t.lineup(i), outcomes[i].ranks[:2]) for i in sorted(outcomes)])
    assert by_bot["random"].rating == expected["random"]


def test_a_bot_meeting_only_itself_keeps_its_mean() -> None:
    ratings = rate_games(["a", "b"], [(("a", "a"), (1, 2))] * 5)
    assert ratings["a"].mu == pytest.approx(25.0)
    assert ratings["a"].sigma < ratings["b"].sigma  # it did play, so it is a little surer
    assert ratings["b"].mu == 25.0


def test_a_bot_in_two_seats_is_credited_with_the_mean_of_its_seats() -> None:
    # a wins and comes last; b in the middle twice over: a's gain and loss cancel against b
    once = rate_games(["a", "b"], [(("a", "b", "a"), (1, 2, 3))])
    assert once["a"].mu == pytest.approx(25.0, abs=0.5)
    twice_a_ahead = rate_games(["a", "b"], [(("a", "b", "a"), (1, 2, 2))])
    assert twice_a_ahead["a"].mu > 25 > twice_a_ahead["b"].mu
