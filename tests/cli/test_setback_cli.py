"""Setback in the terminal, driven as a person would drive it."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import racedeck
from racedeck.cli.app import app
from racedeck.cli.prompt import Prompter
from racedeck.cli.records import load_record
from racedeck.cli.setback_ui import SetbackUI, card_style, second_person
from racedeck.cli.terminal_ui import ui_for
from racedeck.core.events import Event
from racedeck.games.setback import (
    Block,
    Pass,
    Play,
    Setback,
    SetbackState,
    Step,
    parse_card_type,
)

runner = CliRunner()
PLAY = ["play", "setback", "--players", "3", "--bots", "random"]
ONES = "1\n" * 4000
"""Option 1 is always a legal choice: the menus number the legal actions only."""
MAX_ASKS = 50
"""An ``ask`` in these tests answers at most this often: a question asked again and again on the
same answer fails instead of looping."""


def _text(renderable: object, width: int = 100) -> str:
    console = Console(record=True, width=width, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def _ui(game: Setback, human: int = 0) -> SetbackUI:
    names = ["You" if seat == human else f"Bot {seat + 1}" for seat in range(game.num_players)]
    ui = ui_for(game, names)
    assert isinstance(ui, SetbackUI)
    return ui


def _answers(*answers: str) -> Callable[[str], str]:
    """An ``ask`` for ``SetbackUI.ask_action`` giving ``answers`` in turn; it fails when they run
    out (or after ``MAX_ASKS``), so a UI that keeps re-asking cannot loop forever."""
    given = iter(answers[:MAX_ASKS])

    def ask(prompt: str) -> str:
        answer = next(given, None)
        if answer is None:
            pytest.fail(f"asked again after the answers {answers!r} ran out: {prompt!r}")
        return answer

    return ask


def _find(game: Setback, wanted: object, seeds: range = range(40)) -> SetbackState:
    """The first state of random games where seat 0 is asked and ``wanted(view)`` holds."""
    for seed in seeds:
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            if 0 in state.pending and wanted(game.observe(state, 0)):  # type: ignore[operator]
                return state
            seat = state.pending[0]
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    raise AssertionError("no such state in the seeds tried")


def test_play_a_whole_game_and_replay_it(tmp_path: Path) -> None:
    record = tmp_path / "setback.json"
    result = runner.invoke(app, [*PLAY, "--seed", "30", "--record", str(record)], input=ONES)
    assert result.exit_code == 0, result.output
    out = result.output
    # the board: FINISH on top, rows from the last down, START with its tokens at the bottom
    assert "FINISH ╞═" in out and "row 6  │" in out and "row 1  │" in out
    assert out.index("FINISH ╞") < out.index("row 6  │") < out.index("row 1  │")
    assert "START  ╞══" in out and "lane 3" in out
    assert "Your hand: ALL-2  TRADE  SKIP" in out
    assert "Hand Action: play a card" in out
    assert "  SKIP  2) Bot 2   3) Bot 3" in out  # the menu, grouped by card
    # everyone on START: no two tokens to TRADE (FAQ 4: the card is played for no effect)
    assert "  TRADE 4) no legal target: played for no effect" in out
    assert "Your choice (number, or text like 'ALL-2'): " in out
    assert "— Your turn —" in out and "You go first" in out  # "You", in the second person
    assert "Bot 2 is dealt" not in out  # another seat's private events are not shown
    # Another game (SB-9 amended changed which games show what): a bot's action, and the
    # human holds a BLOCK: asked plainly.
    other = runner.invoke(app, [*PLAY, "--seed", "1"], input=ONES)
    assert other.exit_code == 0, other.output
    out = other.output
    asked = [
        line
        for line in out.splitlines()
        if line.endswith("— BLOCK it? [b]lock / [p]ass") and not line.startswith("You")
    ]
    assert asked, "the human was never asked to BLOCK a bot's action"
    assert "(your BLOCK would cancel the action)" in out
    assert re.search(r"ALL[+-]\d: who moves next", out)
    assert "REVAMP: a new lane 1 — move your token into it?" in out
    assert "A BLOCK may answer" not in out  # window_opened is noise
    assert "Game over" in out and "🏆" in out
    assert re.search(r"(reaches FINISH and wins|reach FINISH and win)!", out)
    assert "rank" in out and "reached" in out

    saved = load_record(record)
    assert saved.seed == 30
    game = saved.make_game()
    states = [step.state for step in racedeck.replay(saved)]
    assert game.outcome(states[-1]) is not None
    shown = runner.invoke(app, ["replay", str(record)])
    assert shown.exit_code == 0, shown.output
    assert "FINISH and win" in shown.output and "Result" in shown.output


def test_default_bots_play_setback(tmp_path: Path) -> None:
    record = tmp_path / "default.json"
    args = ["play", "setback", "--players", "3", "--seed", "5", "--record", str(record)]
    result = runner.invoke(app, args, input=ONES)
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output
    assert load_record(record).meta["names"] == ["You", "Bot 2", "Bot 3"]


def test_bad_input_is_asked_again(tmp_path: Path) -> None:
    answers = "\n0\n99\nhello\nSKIP P9\nskip p3\n" + ONES
    result = runner.invoke(
        app, [*PLAY, "--seed", "3", "--record", str(tmp_path / "r.json")], input=answers
    )
    assert result.exit_code == 0, result.output
    out = result.output
    # SKIP P2, SKIP P3, and TRADE for no effect (everyone is on START: no pair to trade)
    assert "Please choose. Type a number from 1 to 3." in out
    assert "There is no choice 0." in out and "There is no choice 99." in out
    assert "'hello': cannot read 'hello' as an action." in out
    assert "'SKIP P9'" in out
    assert "You play SKIP on Bot 3." in out  # the text form, in any case


def test_text_forms_may_be_typed_loosely() -> None:
    game = racedeck.make("setback", players=3)
    assert isinstance(game, Setback)
    state = game.new_initial_state(3)  # P1 to play TRADE, SKIP, BLOCK; every token on START
    state.row[2], state.lane[2] = 1, 1  # P3 on the board: P1 (on START) and P3 may trade
    trade = Play(parse_card_type("TRADE"), target=0, other=2)
    assert trade in game.legal_actions(state, 0)
    view = game.observe(state, 0)
    ui = _ui(game)
    console = Console(record=True, width=100, file=io.StringIO())
    for answer in ("TRADE P1<>P3", "trade p1 p3", " Trade  P1 P3 ", "trade P1<>p3"):
        assert ui.ask_action(view, Prompter(_answers(answer), console)) == trade


def test_an_illegal_text_form_is_asked_again() -> None:
    """TRADE P2<>P3 would swap two tokens on START: not offered, so the question is asked again;
    the TRADE for no effect (FAQ 4), typed as ``trade``, is legal."""
    game = racedeck.make("setback", players=3)
    assert isinstance(game, Setback)
    state = game.new_initial_state(3)
    view = game.observe(state, 0)
    no_effect = Play(parse_card_type("TRADE"))
    assert no_effect in view.legal_actions
    ui = _ui(game)
    console = Console(record=True, width=100, file=io.StringIO())
    assert ui.ask_action(view, Prompter(_answers("TRADE P2<>P3", "trade"), console)) == no_effect
    out = console.export_text()
    assert "'TRADE P2<>P3'" in out and out.count("Type a number from 1 to 3.") == 1
    with pytest.raises(pytest.fail.Exception, match="ran out"):
        ui.ask_action(view, Prompter(_answers("TRADE P2<>P3"), console))


def test_the_block_question_takes_b_or_p_and_re_asks() -> None:
    game = racedeck.make("setback", players=3)
    assert isinstance(game, Setback)
    state = _find(
        game,
        # SB-9 amended: a window asks seat 0 whatever it holds; with a BLOCK it has a choice.
        lambda v: (
            v.window_open
            and v.declared is not None
            and v.declared["player"] != 0
            and Block() in v.legal_actions
        ),
    )
    view = game.observe(state, 0)
    ui = _ui(game)
    console = Console(record=True, width=100, file=io.StringIO())
    assert ui.ask_action(view, Prompter(_answers("maybe", "7", "p"), console)) == Pass()
    out = console.export_text()
    assert "BLOCK it? [b]lock / [p]ass" in out or "BLOCK the BLOCK? [b]lock / [p]ass" in out
    assert "Type b to BLOCK or p to pass." in out
    assert "There is no choice 7." in out
    for answer in ("b", "BLOCK", "1"):
        assert ui.ask_action(view, Prompter(_answers(answer), console)) == Block()
    # the render says what was declared only when the viewer is not asked (the question does)
    assert "BLOCK window ·" not in _text(ui.render(view))
    assert "Your hand:" in _text(ui.render(view))


def test_all_and_revamp_steps_say_what_is_chosen() -> None:
    game = racedeck.make("setback", players=3)
    assert isinstance(game, Setback)
    ui = _ui(game)
    state = _find(game, lambda v: v.phase == "step" and v.context.get("kind") == "all")
    view = game.observe(state, 0)
    question = _text(ui.question(view))
    assert re.match(r"ALL[+-]\d: who moves next", question)
    menu, order = ui.render_menu(view, 100)
    assert sorted(map(str, order)) == sorted(map(str, view.legal_actions))
    assert all(isinstance(a, Step) for a in order)
    assert "1)" in menu.plain and ("lane" in menu.plain or "move" in menu.plain)
    state = _find(game, lambda v: v.phase == "step" and v.context.get("kind") == "place")
    question = _text(ui.question(game.observe(state, 0)))
    assert "REVAMP: the lane is gone — into which lane of row" in question


def test_long_menus_are_folded_by_target() -> None:
    game = racedeck.make("setback", players=6)
    assert isinstance(game, Setback)
    ui = _ui(game)
    state = _find(game, lambda v: len(v.legal_actions) > 20)
    view = game.observe(state, 0)
    menu, order = ui.render_menu(view, 80)
    assert len(order) == len(view.legal_actions) > 20
    lines = menu.plain.splitlines()
    assert len(lines) < len(order)  # several choices per line
    assert all(len(line) <= 80 for line in lines)


@pytest.mark.parametrize(("players", "lanes"), [(2, 2), (3, 3), (5, 4), (6, 6)])
def test_every_screen_fits_80_columns(players: int, lanes: int) -> None:
    game = racedeck.make("setback", players=players, lanes=lanes)
    assert isinstance(game, Setback)
    ui = _ui(game)
    ui.width = 80
    for seed in range(3):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            if 0 in state.pending:
                view = game.observe(state, 0)
                text = _text(ui.render(view), 80) + _text(ui.question(view), 80)
                menu, order = ui.render_menu(view, 80)
                text += menu.plain
                assert all(len(line.rstrip()) <= 80 for line in text.splitlines()), text
                assert sorted(map(str, order)) == sorted(map(str, view.legal_actions))
            seat = state.pending[0]
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        outcome = game.outcome(state)
        final = _text(ui.render_outcome(game.observe(state, None), outcome), 80)
        assert "FINISH and win" in final
        assert all(len(line.rstrip()) <= 80 for line in final.splitlines())


def test_the_board_shows_cards_tokens_and_piles() -> None:
    game = racedeck.make("setback", players=3)
    assert isinstance(game, Setback)
    ui = _ui(game)
    state = _find(game, lambda v: any(0 <= r < v.rows for r, _ in v.tokens) and v.rows_removed)
    view = game.observe(state, 0)
    board = _text(ui.render(view))
    for row in range(view.rows):
        for face in view.grid[row]:
            assert face in board
    assert f"Draw pile {view.draw_size}" in board
    assert "removed: START has moved up" in board
    assert f"row {view.rows}  │" in board and "row 1  │" in board
    row, lane = next((r, ln) for r, ln in view.tokens if 0 <= r < view.rows)
    line = next(x for x in board.splitlines() if x.startswith(f"row {row + 1} "))
    cell = line.split("│")[lane + 1]
    assert view.grid[row][lane] in cell and re.search(r"\d", cell.replace(view.grid[row][lane], ""))


def test_card_colours_and_play_labels() -> None:
    assert card_style("MOVE+1") == "green" and card_style("FOE-2") == "bold red"
    assert card_style("BLOCK") != card_style("SKIP") and "on" in card_style("BLOCK")
    game = racedeck.make("setback", players=3)
    assert isinstance(game, Setback)
    ui = _ui(game)
    view = game.observe(game.new_initial_state(3), 0)
    skip = next(a for a in view.legal_actions if isinstance(a, Play) and a.card.kind == "SKIP")
    assert ui.play_label(view, skip) == "Bot 2"


def test_noise_is_hidden_and_you_is_second_person() -> None:
    game = racedeck.make("setback", players=3)
    ui = _ui(game)  # type: ignore[arg-type]
    events = [
        Event("window_opened", {"blocks": 0}),
        Event("block_played", {"player": 1, "blocks": 1}),
        Event("window_closed", {"blocks": 1, "cancelled": True}),
        Event("cancelled", {"player": 0, "play": {"type": "play", "card": "MOVE+1"}}),
        Event("window_closed", {"blocks": 2, "cancelled": False}),
        Event("turn_started", {"player": 0}),
    ]
    kinds = [e.kind for e in ui.visible_events(events)]
    assert kinds == ["block_played", "cancelled", "window_closed", "turn_started"]
    lines = ui.describe_events(ui.visible_events(events))
    assert lines[1] == "Your action is cancelled." and lines[-1] == "— Your turn —"
    assert second_person("You reaches FINISH and wins!") == "You reach FINISH and win!"
    assert second_person("Game over: You wins.") == "Game over: You win."
    assert second_person("Bot 2 reaches FINISH and wins!") == "Bot 2 reaches FINISH and wins!"
    assert second_person("You stands on SKIP and loses the turn.") == (
        "You stand on SKIP and lose the turn."
    )


def test_simulate_setback_as_json() -> None:
    args = ["simulate", "setback", "--players", "4", "--games", "30", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 30
    assert len(data["contestants"]) == 4
