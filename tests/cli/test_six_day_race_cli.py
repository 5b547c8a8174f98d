"""Six Day Race in the terminal, driven as a person would drive it."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from scripted import script
from typer.testing import CliRunner

import racedeck
from racedeck.cli.app import app
from racedeck.cli.play import play_in_terminal
from racedeck.cli.prompt import Prompter, Quit
from racedeck.cli.records import load_record
from racedeck.cli.six_day_race_ui import SixDayRaceUI, format_points
from racedeck.cli.terminal_ui import ui_for
from racedeck.core.events import Event
from racedeck.games.six_day_race.actions import PlayCard
from racedeck.games.six_day_race.view import SixDayRaceView

runner = CliRunner()
PLAY = ["play", "six-day-race"]
SHORT_TRACK = ["-o", "line=40", "-o", "sprints=[13,26]", "-o", "rider_change=15", "-o", "crash=25"]
"""A short track with both sprints, the rider change and the crash space (fewer cards to play)."""


def _answers(count: int = 4000) -> str:
    """Inputs that cycle 1..7: values not in the moving rider's hand are refused and re-asked."""
    return "\n".join(str(1 + i % 7) for i in range(count)) + "\n"


def _text(renderable: object, width: int = 120) -> str:
    console = Console(record=True, width=width, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def test_play_one_race_with_five_players_and_replay_it(tmp_path: Path) -> None:
    record = tmp_path / "race.json"
    result = runner.invoke(
        app,
        [*PLAY, "--players", "5", "--races", "1", "--seed", "3", "--record", str(record)],
        input=_answers(),
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Race 1 of 1" in out
    assert " 80┃" in out and "┃ sprint 27 54" in out and " 5L" in out  # the short strip
    # the short screen (the console of a test is 80×25) shows the hand at the card prompt
    assert "Your turn: 1 You at 0 · cards 1 1 1 1  2 2 2 2  3 3 3  4 4 4  5 5  7  (17)" in out
    assert " ×2 → " in out  # a slipstream preview
    # 6 is not a green card: refused and asked again
    assert "6 is not one of the choices. Play one of your cards: 1 2 3 4 5 7 (? for help)." in out
    assert "Play which card?" in out
    assert "sprint 1" in out and "finish" in out and "laps lost" in out  # the score sheet
    assert "Series over" in out and "Game over" in out
    saved = load_record(record)
    assert saved.seed == 3
    game = saved.make_game()
    states = [step.state for step in racedeck.replay(saved)]
    assert game.outcome(states[-1]) is not None

    shown = runner.invoke(app, ["replay", str(record)])
    assert shown.exit_code == 0, shown.output
    assert "Race 1 of 1 starts" in shown.output
    assert "Series over" in shown.output
    assert "card_committed" not in shown.output


def test_play_two_riders_each_over_two_races(tmp_path: Path) -> None:
    record = tmp_path / "two.json"
    saved = ["--record", str(record)]
    result = runner.invoke(
        app,
        [*PLAY, "-p", "3", "--riders", "2", "--races", "2", "--seed", "4", *SHORT_TRACK, *saved],
        input=_answers(),
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "6 riders" in out
    assert "1a You-1:" in out and "1b You-2:" in out  # both own hands
    assert "Race 2 of 2 starts" in out
    assert "Series after 1 of 2 races" in out  # the sheet between the races …
    assert out.index("Series after 1 of 2 races") < out.index("Race 2 of 2 starts")  # … in order
    assert "Series after 2 of 2 races" in out and "Series over" in out
    assert len(load_record(record).actions) > 20


def test_simulate_six_day_race_as_json() -> None:
    # A few games show the JSON form as well as forty did (it counts them all the same).
    args = ["simulate", "six-day-race", "--players", "4", "--games", "6", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 6
    assert len(data["contestants"]) == 4
    short = runner.invoke(app, [*args, "--riders", "1", "--races", "2"])
    assert short.exit_code == 0, short.output
    assert json.loads(short.stdout)["config"]["races"] == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["play", "six-day-race", "--riders", "2", "--players", "6"],
            "two riders per player are for 4 players or fewer (SD-12)",
        ),
        (
            ["simulate", "six-day-race", "--riders", "2", "--players", "6"],
            "two riders per player are for 4 players or fewer (SD-12)",
        ),
        (["play", "six-day-race", "--races", "0"], "option races=0 is not allowed: below 1"),
        (["play", "why-first", "--riders", "2"], "unknown option"),
        (["simulate", "why-first", "--races", "3"], "unknown option"),
    ],
)
def test_bad_options_get_a_clear_error(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())  # the console wraps long lines


def test_points_are_written_as_people_write_them() -> None:
    assert format_points("20/3") == "6⅔"
    assert format_points(Fraction(7, 2)) == "3½"
    assert format_points("1/3") == "⅓"
    assert format_points("16/7") == "2 2/7"
    assert format_points(6) == "6"


@pytest.mark.parametrize("width", [120, 100, 80, 60])
def test_the_strip_fits_the_terminal(width: int) -> None:
    game = racedeck.make("six-day-race", players=4)
    state = game.new_initial_state(1)
    for _ in range(30):
        seat = state.pending[0]
        state = game.apply(state, seat, game.legal_actions(state, seat)[-1])
    ui = ui_for(game, ["You", "Bot 2", "Bot 3", "Bot 4"])
    assert isinstance(ui, SixDayRaceUI)
    strip = _text(ui.render_strip(game.observe(state, 0), width), width)
    lines = strip.splitlines()
    assert all(len(line.rstrip()) <= width for line in lines)
    assert any("FIN┃" in line for line in lines)
    assert "1a" in strip and "4b" in strip


def test_preview_names_slipstream_and_special_spaces() -> None:
    game = racedeck.make("six-day-race", players=3, riders=1, random_first=False)
    ui = ui_for(game, ["You", "Bot 2", "Bot 3"])
    assert isinstance(ui, SixDayRaceUI)
    base = game.observe(game.new_initial_state(0), 0)
    view = replace(base, positions=(14, 17, 17), current=0)
    assert ui.preview(view, 0, 3).plain.startswith("3 → 17 ×3 → 23")
    view = replace(base, positions=(25, 28, 0), current=0)
    assert "crosses sprint 1 1st: +5" in ui.preview(view, 0, 3).plain
    assert "FAHRERWECHSEL" in ui.preview(view, 0, 5).plain  # 30: no slipstream there
    view = replace(base, positions=(46, 50, 0), current=0)
    plain = ui.preview(view, 0, 4).plain
    assert plain.startswith("4 → 50  (1 there, no slipstream)") and "STURZ" in plain
    view = replace(base, positions=(78, 0, 0), current=0)
    assert "crosses the line and wins the race!" in ui.preview(view, 0, 4).plain


def test_only_the_first_pass_of_a_rider_in_a_race_is_shown() -> None:
    game = racedeck.make("six-day-race", players=3)
    ui = ui_for(game, ["You", "Bot 2", "Bot 3"])
    passed = [Event("passed", {"rider": 1}), Event("passed", {"rider": 2})]
    assert len(ui.visible_events(passed)) == 2
    assert ui.visible_events(passed) == []
    again = ui.visible_events([Event("race_started", {"race": 2, "order": []}), *passed])
    assert [e.kind for e in again] == ["race_started", "passed", "passed"]
    assert ui.visible_events([Event("card_committed", {})]) == []


# -- one way to type (cli/prompt.py) -------------------------------------------------------------


def _asking(riders: int, *answers: str) -> tuple[SixDayRaceUI, SixDayRaceView, Prompter]:
    """The UI of seat 0 at the start of a race, its rider 0 to move, and a scripted person."""
    game = racedeck.make("six-day-race", players=3, riders=riders, random_first=False)
    ui = ui_for(game, ["You", "Bot 2", "Bot 3"])
    assert isinstance(ui, SixDayRaceUI)
    view = game.observe(game.new_initial_state(0), 0)
    assert view.current == 0 and [a.value for a in view.legal_actions] == [1, 2, 3, 4, 5, 7]
    console = Console(record=True, width=80, height=24, file=io.StringIO())
    return ui, view, Prompter(script(*answers), console)


@pytest.mark.parametrize("answer", ["5", " 5 ", "+5", "play 5", "PLAY 5", "play+5"])
def test_a_card_is_typed_by_its_value(answer: str) -> None:
    ui, view, prompter = _asking(1, answer)
    assert ui.ask_action(view, prompter) == PlayCard(5)


def test_the_previews_are_listed_by_value_so_a_number_is_always_a_value() -> None:
    ui, view, prompter = _asking(1, "3")
    view = replace(view, legal_actions=tuple(PlayCard(v) for v in (1, 3, 5, 7)))
    assert ui.ask_action(view, prompter) == PlayCard(3)  # not the third line (a 5)
    lines = prompter.console.export_text().splitlines()
    assert [line.split()[0] for line in lines[1:5]] == ["1", "3", "5", "7"]


@pytest.mark.parametrize(
    "answer", ["5 1a", "1a 5", "1A5", "You-1 5", "5 you-1", "you-1 play 5", "1a play 5"]
)
def test_with_two_riders_the_moving_rider_may_be_named_by_label_or_name(answer: str) -> None:
    ui, view, prompter = _asking(2, answer)  # SD-12: seat 0 races 1a You-1 and 1b You-2
    assert ui.ask_action(view, prompter) == PlayCard(5)


def test_naming_the_rider_not_on_turn_is_refused_with_whose_turn_it_is() -> None:
    ui, view, prompter = _asking(2, "5 1b", "You-2 5", "6", "2")
    assert ui.ask_action(view, prompter) == PlayCard(2)
    said = " ".join(prompter.console.export_text().split())
    assert said.count("Play one of You-1's cards: 1 2 3 4 5 7 (? for help).") == 3
    assert "5 1b is not one of the choices." in said
    assert "6 is not one of the choices." in said


def test_help_says_what_the_card_prompt_takes_and_undo_has_nothing_to_take_back() -> None:
    ui, view, prompter = _asking(2, "?", "undo", "7")
    assert ui.ask_action(view, prompter) == PlayCard(7)
    said = " ".join(prompter.console.export_text().split())
    assert "Type the value of the card to play: 7, +7 or play 7." in said
    assert "The lines above are listed by value" in said
    assert "You may name the moving rider too (7 1a, You-1 7)" in said
    assert "riders move in seat order (SD-4, SD-12): it is You-1's turn." in said
    assert "A card is a whole move, so there is nothing to undo." in said
    assert "At every prompt: ? or help" in said  # the common commands
    assert "Nothing to undo here: a move is final once it is complete." in said
    one = _asking(1, "help", "1")
    assert one[0].ask_action(one[1], one[2]) == PlayCard(1)
    assert "name the moving rider" not in one[2].console.export_text()


def test_quit_at_the_card_prompt_leaves_the_game() -> None:
    ui, view, prompter = _asking(1, "quit")
    with pytest.raises(Quit):
        ui.ask_action(view, prompter)


# -- screens that wait and fit -------------------------------------------------------------------


def _answer_from(prompts: list[str]) -> Callable[[str], str]:
    """A person who plays the highest card offered and presses Enter at every pause."""

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        if prompt.startswith("Press Enter"):
            return ""
        return prompt.split("(")[1].split(")")[0].split()[-1]

    return ask


@pytest.mark.parametrize(("players", "riders"), [(3, 1), (3, 2), (6, 1)])
def test_every_race_end_shows_its_sheet_and_waits_for_enter(
    tmp_path: Path, players: int, riders: int
) -> None:
    # Three races (a race end before another, and the last) on a short track with both
    # sprints: the race ends are what is looked at, and full-length races cost seconds each.
    short = {"line": 30, "sprints": (10, 20), "rider_change": 12, "crash": 17}
    game = racedeck.make("six-day-race", players=players, riders=riders, races=3, **short)
    console = Console(record=True, width=80, height=24, file=io.StringIO())
    prompts: list[str] = []
    bots = ["human", *["random"] * (players - 1)]
    code = play_in_terminal(game, 7, 0, bots, tmp_path / "r.json", console, _answer_from(prompts))
    assert code == 0
    out = console.export_text()
    pauses = [i for i, p in enumerate(prompts) if p.startswith("Press Enter")]
    assert len(pauses) == 2  # after races 1 and 2; the last race's sheet ends the game
    for race in (1, 2):
        over = out.index(f"Race {race} result: 1. ")
        sheet = out.index(f"Series after {race} of 3 races")
        assert over < out.index(f"Race {race} of 3 ", over + 1) < sheet
        assert sheet < out.index(f"Race {race + 1} of 3 starts")
    assert "Series after 3 of 3 races" in out and "Series over. Winner" in out
    last = out[out.index("Game over") :]  # the last race's sheet, with where riders ended
    assert re.search(r"Race 3 of 3\s+place +rider +pos +sprint 1", last)


def _screen_lines(ui: SixDayRaceUI, view: SixDayRaceView, width: int, height: int) -> list[str]:
    """What the person sees from the table to the card prompt, as play.py prints it."""
    console = Console(record=True, width=width, height=height, file=io.StringIO())
    ui.width = width
    console.print()
    console.print(ui.render(view))
    prompts: list[str] = []
    prompter = Prompter(_answer_from(prompts), console)
    ui.ask_action(view, prompter)
    return [*console.export_text().rstrip("\n").splitlines(), *prompts]


def _midrace(players: int, riders: int, moves: int, seed: int) -> tuple[SixDayRaceUI, Any]:
    game = racedeck.make("six-day-race", players=players, riders=riders)
    state = game.new_initial_state(seed)
    for _ in range(moves):
        seat = state.pending[0]
        state = game.apply(state, seat, game.legal_actions(state, seat)[0])
    while 0 not in state.pending:
        seat = state.pending[0]
        state = game.apply(state, seat, game.legal_actions(state, seat)[-1])
    ui = ui_for(game, ["You", *[f"Bot {i}" for i in range(2, players + 1)]])
    assert isinstance(ui, SixDayRaceUI)
    return ui, game.observe(state, 0)


@pytest.mark.parametrize(("players", "riders"), [(3, 1), (3, 2), (6, 1)])
@pytest.mark.parametrize("moves", [0, 6, 15])
def test_the_turn_screen_fits_80_by_24_and_is_whole_at_160_by_50(
    players: int, riders: int, moves: int
) -> None:
    ui, view = _midrace(players, riders, moves, seed=moves)
    small = _screen_lines(ui, view, 80, 24)
    assert len(small) <= 24, "\n".join(small)
    assert all(len(line) <= 80 for line in small)
    assert small[-1].startswith("Play which card?")
    assert "laps lost" in "\n".join(small) and "Your turn:" in "\n".join(small)
    big = _screen_lines(ui, view, 160, 50)
    assert len(big) <= 50
    whole = "\n".join(big)
    assert "Sprint 1 at 27" in whole and "Grey decks" in whole and " FW " in whole


def test_the_race_end_sheet_fits_80_by_24() -> None:
    game = racedeck.make("six-day-race", players=6, races=2)
    state = game.new_initial_state(2)
    table_events: list[Event] = []
    while state.race == 0:
        seat = state.pending[0]
        step = game.step(state, seat, game.legal_actions(state, seat)[-1])
        state = step.state
        table_events += step.events
    scored = next(e for e in table_events if e.kind == "race_scored")
    ui = ui_for(game, ["You", *[f"Bot {i}" for i in range(2, 7)]])
    text = _text(ui.render_stage_end(game.observe(state, 0), scored), 80)
    lines = text.rstrip("\n").splitlines()
    assert len(lines) + 4 <= 24  # with the race's result in words above and the pause below
    assert all(len(line) <= 80 for line in lines)
    assert "fewest laps lost wins, then most points (SD-11)" in text


# -- laps lost, one way -------------------------------------------------------------------------


def test_laps_lost_are_counted_without_a_sign_everywhere() -> None:
    ui, view = _midrace(3, 1, 6, seed=1)
    screen = "\n".join(_screen_lines(ui, view, 160, 50))
    assert "laps lost" in screen and "laps down" not in screen
    assert "-5" not in screen and "−" not in screen
    assert "5L…1L laps lost if the race ends there or behind" in screen
    riders = _text(ui.render_riders(view), 120)
    assert re.search(r"1 You\s+\d+\s+\d+\s+5\s", riders)  # SD-10: 5 laps lost if it ended now
    event = Event(
        "race_scored",
        {
            "race": 1,
            "riders": [
                {"rider": 0, "place": 1, "finish": 10, "sprints": [5, 0], "laps": 0},
                {"rider": 1, "place": 2, "finish": 6, "sprints": [0, 3], "laps": 1},
                {"rider": 2, "place": 3, "finish": 4, "sprints": [0, 0], "laps": 3},
            ],
        },
    )
    said = ui.race_game.describe_event(event, ["You", "Bot 2", "Bot 3"])
    assert said == (
        "Race 1 result: 1. You (finish 10, sprints 5); 2. Bot 2 (finish 6, sprints 3, "
        "1 lap lost); 3. Bot 3 (finish 4, sprints 0, 3 laps lost)."
    )


def test_narration_about_you_reads_in_the_second_person() -> None:
    game = racedeck.make("six-day-race", players=3, riders=1)
    ui = ui_for(game, ["You", "Bot 2", "Bot 3"])
    change = Event("rider_change", {"rider": 0, "discarded": 9, "drawn": [7, 4]})
    assert ui.describe_events([change]) == [
        "You change riders on FAHRERWECHSEL: 9 cards discarded, 7 drawn from deck 1-3 and "
        "4 from deck 4-6."
    ]
    two = ui_for(racedeck.make("six-day-race", players=3, riders=2), ["You", "Bot 2", "Bot 3"])
    assert two.describe_events([change]) == [
        "You-1 changes riders on FAHRERWECHSEL: 9 cards discarded, 7 drawn from deck 1-3 and "
        "4 from deck 4-6."
    ]  # a rider called You-1 is somebody else: the third person
    riders = [
        Event("crash", {"rider": 0}),
        Event("passed", {"rider": 0}),
        Event("crossed_line", {"rider": 0, "place": 1}),
        Event("sprint", {"rider": 0, "sprint": 1, "place": 2, "points": 3}),
    ]
    assert ui.describe_events(riders) == [
        "You crash on STURZ (next turn lost).",
        "You pass: no cards left.",
        "You cross the line first, winning the race!",
        "You cross sprint 1 2nd: +3",
    ]
    assert two.describe_events(riders) == [
        "You-1 crashes on STURZ (next turn lost).",
        "You-1 passes: no cards left.",
        "You-1 crosses the line first, winning the race!",
        "You-1 crosses sprint 1 2nd: +3",
    ]


def test_a_six_race_series_sheet_keeps_one_line_per_player_at_80_columns() -> None:
    game = racedeck.make("six-day-race", players=4, riders=2)  # SD-11: 6 races by default
    state = game.new_initial_state(3)
    turn = 0
    while game.outcome(state) is None:
        seat = state.pending[0]
        legal = game.legal_actions(state, seat)
        state = game.apply(state, seat, legal[turn % len(legal)])
        turn += 1
    ui = ui_for(game, ["You", "Bot 2", "Bot 3", "Bot 4"])
    assert isinstance(ui, SixDayRaceUI)
    lines = _text(ui.render_series(game.observe(state, 0)), 80).rstrip("\n").splitlines()
    assert lines[0].startswith("Series after 6 of 6 races: fewest laps lost wins")
    assert re.match(r" player +R1 .* R6 +laps lost +points", lines[1])
    assert len(lines) == 3 + 4 and all(len(line.rstrip()) <= 80 for line in lines)
    assert all(re.search(r"\d+ \d+L", row) for row in lines[3:])  # points, then laps lost
