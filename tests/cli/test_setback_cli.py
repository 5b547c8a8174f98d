"""Setback in the terminal, driven as a person would drive it."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from budget import scaled
from rich.console import Console
from typer.testing import CliRunner

import racedeck
from racedeck.cli.app import app
from racedeck.cli.prompt import Prompter
from racedeck.cli.records import load_record
from racedeck.cli.setback_ui import SetbackUI, card_style, second_person, typed_form
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
from racedeck.games.setback.view import SetbackView

runner = CliRunner()
PLAY = ["play", "setback", "--players", "3", "--bots", "random"]
ONES = "1\n" * 4000
"""Option 1 is always a legal choice: the menus number the legal actions only."""
GAMES = scaled(2)
"""Random games walked through screen by screen, per table size (``RACEDECK_TEST_BUDGET``
scales it)."""
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


def _answers(*answers: str, prompts: list[str] | None = None) -> Callable[[str], str]:
    """An ``ask`` for ``SetbackUI.ask_action`` giving ``answers`` in turn (and keeping the
    prompts in ``prompts``); it fails when they run out (or after ``MAX_ASKS``), so a UI that
    keeps re-asking cannot loop forever."""
    given = iter(answers[:MAX_ASKS])

    def ask(prompt: str) -> str:
        if prompts is not None:
            prompts.append(prompt)
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
    assert "Your hand: ALL-2  TRADE  SKIP    Draw pile 69 · discards 0" in out
    assert "▶ 1  You  3 cards    2  Bot 2  3 cards    3  Bot 3  3 cards" in out
    assert "Hand Action: play one card, plus any FREE ones (marked *, and DRAW)." in out
    assert "  SKIP  2) Bot 2   3) Bot 3" in out  # the menu, grouped by card
    # everyone on START: no two tokens to TRADE (FAQ 4: the card is played for no effect)
    assert "  TRADE 4) no legal target: played for no effect" in out
    assert "Your choice (1-4, or text like ALL-2): " in out
    assert "You draw BLOCK." in out and "Bot 2 draws 1." in out  # your own cards by name
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
        if line.startswith("BLOCK window: Bot") and line.endswith("— BLOCK it?")
    ]
    assert asked, "the human was never asked to BLOCK a bot's action"
    answers = "  1) [b]lock: cancel the action   2) [p]ass: let it stand\n"
    assert answers + "BLOCK or pass (b/p, or board to see it)? " in out
    assert re.search(r"ALL[+-]\d: who moves next", out)
    assert "REVAMP: a new lane 1 — move your token into it?" in out
    assert "A BLOCK may answer" not in out  # window_opened is noise
    assert "Game over" in out and "🏆" in out
    assert re.search(r"(reaches FINISH and wins|reach FINISH and win)!", out)
    assert re.search(r"rank  player +reached", out)

    saved = load_record(record)
    assert saved.seed == 30
    game = saved.make_game()
    states = [step.state for step in racedeck.replay(saved)]
    assert game.outcome(states[-1]) is not None
    shown = runner.invoke(app, ["replay", str(record)])
    assert shown.exit_code == 0, shown.output
    assert "FINISH and win" in shown.output and "reached" in shown.output


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
    out = " ".join(result.output.split())  # the console folds long lines
    # SKIP P2, SKIP P3, and TRADE for no effect (everyone is on START: no pair to trade)
    assert "Please choose. Type a number from 1 to 3 (? for help)." in out
    assert "There is no choice 0." in out and "There is no choice 99." in out
    assert "Cannot read hello as a card, player or lane. Type a number from 1 to 3" in out
    assert "There is no player P9: players are P1 to P3." in out
    assert "You play SKIP on Bot 3." in out  # the text form, in any case
    assert "'" not in out.split("You play SKIP")[0].split("3 lanes.")[1]  # no stray quotes


def _view(game: Setback, state: SetbackState, seat: int = 0) -> SetbackView:
    view = game.observe(state, seat)
    assert isinstance(view, SetbackView)
    return view


def _asked(
    ui: SetbackUI, view: SetbackView, *answers: str, width: int = 100, height: int = 50
) -> tuple[object, str]:
    """What ``ask_action`` returns for ``answers``, and what it printed."""
    console = Console(record=True, width=width, height=height, file=io.StringIO())
    action = ui.ask_action(view, Prompter(_answers(*answers), console))
    return action, console.export_text()


def _reader(
    ui: SetbackUI, view: SetbackView, width: int = 100, height: int = 50
) -> Callable[[str], object]:
    """What ``ask_action`` returns for one answer, for many answers to the same ``view``.

    ``ask_action`` fits the menu to the screen (drawing the board to measure what is left)
    and then reads the answer from that menu with ``ask_in_parts``; the fitting depends on
    the view and the screen alone, so it is done once here and each answer is read from the
    same menu, as ``ask_action`` reads it. A BLOCK window is asked by ``ask_action`` itself
    (its own question, no menu to fit)."""
    if view.window_open:
        return lambda answer: _asked(ui, view, answer, width=width, height=height)[0]
    console = Console(width=width, height=height, file=io.StringIO())
    groups = ui.menu(view)
    first = ui.fold(groups, width, ui.menu_room(view, console))

    def read(answer: str) -> object:
        screen = Console(record=True, width=width, height=height, file=io.StringIO())
        return ui.ask_in_parts(view, Prompter(_answers(answer), screen), groups, first)

    return read


def test_text_forms_may_be_typed_loosely() -> None:
    game = racedeck.make("setback", players=3)
    assert isinstance(game, Setback)
    state = game.new_initial_state(3)  # P1 to play TRADE, SKIP, BLOCK; every token on START
    state.row[2], state.lane[2] = 1, 1  # P3 on the board: P1 (on START) and P3 may trade
    trade = Play(parse_card_type("TRADE"), target=0, other=2)
    assert trade in game.legal_actions(state, 0)
    view = _view(game, state)
    ui = _ui(game)
    for answer in (
        "TRADE P1<>P3",
        "trade p1 p3",
        " Trade  P1 P3 ",
        "trade P1<>p3",
        "trade p3 p1",  # a swap: either order
        "TRADE you bot 3",  # players by name
        "trade me Bot3",
    ):
        assert _asked(ui, view, answer)[0] == trade, answer
    # P3 may trade with P1 or with P2 (on START): "trade p3" is either, and is asked again.
    action, out = _asked(ui, view, "trade p3", "trade p1 p3")
    assert action == trade
    assert "trade p3 could be 3) You ⇄ Bot 3 or 4) Bot 2 ⇄ Bot 3." in out


def test_a_part_only_one_choice_fits_may_be_left_out() -> None:
    """``MOVE+1`` alone, ``skip``, ``foe-1``: accepted when one legal action fits; when several
    do, the refusal names them by number and the text that picks one is accepted."""
    game = racedeck.make("setback", players=2)
    assert isinstance(game, Setback)
    ui = _ui(game)
    # On START with two lanes: MOVE+1 could enter either lane.
    state = _find(
        game,
        lambda v: (
            v.phase == "hand"
            and v.tokens[0][0] < 0
            and sum(
                isinstance(a, Play) and a.card.kind == "MOVE" and a.card.amount > 0
                for a in v.legal_actions
            )
            == 2
        ),
    )
    view = _view(game, state)
    moves = [a for a in view.legal_actions if isinstance(a, Play) and a.card.kind == "MOVE"]
    face = moves[0].card.name
    action, out = _asked(ui, view, face, f"{face} lane 2")
    assert action == moves[1]
    _, order = ui.render_menu(view, 100)
    numbers = [order.index(m) + 1 for m in moves]
    assert f"{face} could be {numbers[0]}) enter lane 1" in out
    assert f"or {numbers[1]}) enter lane 2" in out and "add the player or lane" in out
    for answer in (f"{face.lower()} l1", f"{face[:4]} {face[4:]} lane 1", f"{face} 1"[:-2] + " L1"):
        assert _asked(ui, view, answer)[0] == moves[0], answer
    # On the board: a MOVE card has one way to be played; typed without a lane or star.
    state = _find(
        game,
        lambda v: (
            v.phase == "hand"
            and v.tokens[0][0] >= 0
            and sum(isinstance(a, Play) and a.card.kind == "MOVE" for a in v.legal_actions) == 1
        ),
    )
    view = _view(game, state)
    move = next(a for a in view.legal_actions if isinstance(a, Play) and a.card.kind == "MOVE")
    assert move.lane == -1
    typed = move.card.name.lower().rstrip("*").replace("move", "move ")
    assert _asked(ui, view, typed)[0] == move
    # Two players: SKIP has one target, so ``skip`` alone will do.
    state = _find(
        game,
        lambda v: any(isinstance(a, Play) and a.card.kind == "SKIP" for a in v.legal_actions),
    )
    view = _view(game, state)
    skip = next(a for a in view.legal_actions if isinstance(a, Play) and a.card.kind == "SKIP")
    assert _asked(ui, view, "skip")[0] == skip
    assert _asked(ui, view, "SKIP Bot 2")[0] == skip
    assert _asked(ui, view, "skip P2")[0] == skip


def test_an_illegal_text_form_is_asked_again() -> None:
    """TRADE P2<>P3 would swap two tokens on START: not offered, so the question is asked again
    with what TRADE can be; the TRADE for no effect (FAQ 4), typed as ``trade``, is legal."""
    game = racedeck.make("setback", players=3)
    assert isinstance(game, Setback)
    view = _view(game, game.new_initial_state(3))
    no_effect = Play(parse_card_type("TRADE"))
    assert no_effect in view.legal_actions
    ui = _ui(game)
    action, out = _asked(ui, view, "TRADE P2<>P3", "cut p2", "trade")
    assert action == no_effect
    assert (
        "TRADE P2<>P3 is not possible now; TRADE can be 3) no legal target: played for no "
        "effect. Type a number from 1 to 3 (? for help)." in " ".join(out.split())
    )
    assert "cut p2: no CUT card among the choices now." in out
    with pytest.raises(pytest.fail.Exception, match="ran out"):
        _asked(ui, view, "TRADE P2<>P3")


def test_help_lists_what_the_prompt_accepts() -> None:
    game = racedeck.make("setback", players=3)
    assert isinstance(game, Setback)
    view = _view(game, game.new_initial_state(3))
    ui = SetbackUI(game, ["Ann", "Bot 2", "Bot 3"])
    action, out = _asked(ui, view, "?", "undo", "skip ann", "skip bot 2")
    assert action == Play(parse_card_type("SKIP"), target=1)
    text = " ".join(out.split())
    assert (
        "Type a number from 1 to 3, or the choice as text, e.g. SKIP P2 · TRADE. Leave out a "
        "player or lane that only one choice fits (MOVE+1 alone when only one lane is open); "
        "case and spaces do not matter. Players: P1 = Ann (or you), P2 = Bot 2, P3 = Bot 3 "
        "(board label or name). Lanes: lane 1 to lane 3, or L1. * marks a FREE card: any "
        "number of FREE cards may be played besides your one non-FREE card (on the board a * "
        "counts for nothing)."
    ) in text
    assert "rules and a ruling's id for that ruling" in text  # the commands of every prompt
    # one step: nothing to take back
    assert "Nothing to undo here: a move is final once it is complete." in text
    # Ann may not SKIP herself: the refusal says what SKIP can be
    assert "skip ann is not possible now; SKIP can be 1) Bot 2 or 2) Bot 3." in text


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
    view = _view(game, state)
    ui = _ui(game)
    action, out = _asked(ui, view, "maybe", "7", "?", "board", "p")
    assert action == Pass()
    assert "FINISH ╞" in out  # the board, on request
    assert "— BLOCK it?\n  1) [b]lock: cancel the action   2) [p]ass: let it stand" in out
    assert "maybe is not one of the choices. Type b to BLOCK or p to pass (? for help)." in out
    assert "There is no choice 7." in out
    assert "Type b, block or 1 to play a BLOCK from your hand: it cancels the action" in out
    assert "Type p, pass or 2 to let it stand." in " ".join(out.split())
    for answer in ("b", "BLOCK", "1", " Block "):
        assert _asked(ui, view, answer)[0] == Block()
    for answer in ("p", "Pass", "2"):
        assert _asked(ui, view, answer)[0] == Pass()
    # The window is asked without the board: after every declaration, it would scroll away.
    shown = _text(ui.render(view))
    assert "FINISH" not in shown and "Your hand:" in shown
    assert all(ui.where(view, seat) in shown for seat in range(3))


def test_sb9_answering_block_says_the_answers_are_simultaneous_and_who_comes_first() -> None:
    """SB-9 amended again: the help says everyone answers at once and unseen, and which BLOCK
    is played when several are; when another player's BLOCK comes first, a line says why the
    person's own stays in their hand (and nothing when theirs is the one played)."""
    game = racedeck.make("setback", players=3)
    assert isinstance(game, Setback)
    state = _find(
        game,
        lambda v: (
            v.window_open
            and v.declared is not None
            and v.declared["player"] == 1
            and not v.blocks
            and Block() in v.legal_actions
        ),
    )
    view = _view(game, state)
    ui = _ui(game)
    action, out = _asked(ui, view, "?", "b")
    assert action == Block()
    assert (
        "Everyone asked answers at once, and nobody sees an answer before the last is in; if "
        "several BLOCK, only the first in seating order after Bot 2 plays it, and the others "
        "keep theirs (SB-9)."
    ) in " ".join(out.split())
    first = Event("block_played", {"player": 2, "blocks": 1})
    lines = ui.describe_events([first])
    assert lines == [
        "Bot 3 plays BLOCK!",
        "Bot 3 BLOCKed as well and comes first in seating order: your BLOCK is not played and "
        "stays in your hand.",
    ]
    assert ui.describe_events([first]) == ["Bot 3 plays BLOCK!"]  # said once
    _asked(ui, view, "b")
    assert ui.describe_events([Event("block_played", {"player": 0, "blocks": 1})]) == [
        "You play BLOCK!"
    ]


def test_a_block_on_a_block_says_what_it_would_cancel() -> None:
    game = racedeck.make("setback", players=3)
    assert isinstance(game, Setback)
    state = _find(
        game, lambda v: v.window_open and len(v.blocks) == 1 and Block() in v.legal_actions
    )
    view = _view(game, state)
    question = _text(_ui(game).question(view))
    assert "BLOCKed by" in question and "— BLOCK the BLOCK?" in question
    assert "1) [b]lock: cancel that BLOCK (the action stands)   2) [p]ass: the BLOCK stands" in (
        question
    )


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
    for seed in range(GAMES):
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
    state = _find(
        game,
        lambda v: (
            any(0 <= r < v.rows for r, _ in v.tokens) and v.rows_removed and not v.window_open
        ),
    )
    view = game.observe(state, 0)
    board = _text(ui.render(view))
    for row in range(view.rows):
        for face in view.grid[row]:
            assert face in board
    assert f"Draw pile {view.draw_size}" in board
    assert f"START moved up {view.rows_removed} row" in board
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
    # A few games show the JSON form as well as thirty did (it counts them all the same).
    args = ["simulate", "setback", "--players", "4", "--games", "6", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 6
    assert len(data["contestants"]) == 4


def test_a_long_menu_is_asked_in_two_parts_and_undo_goes_back() -> None:
    """At 80×24 with six players the longest cards fold into ``N choices…``; picking one asks
    for its target, where ``undo`` goes back to the cards. A whole text form is taken at once."""
    game = racedeck.make("setback", players=6)
    assert isinstance(game, Setback)
    ui = _ui(game)
    ui.width = 80
    state = _find(game, lambda v: v.phase == "hand" and len(v.legal_actions) > 25)
    view = _view(game, state)
    console = Console(width=80, height=24, file=io.StringIO())
    first = ui.fold(ui.menu(view), 80, ui.menu_room(view, console))
    menu, order = ui.render_groups(first, 80)
    folded = [i for i, value in enumerate(order) if not isinstance(value, Play | Step)]
    assert folded and "choices…" in menu.plain
    assert len(menu.plain.splitlines()) <= ui.menu_room(view, console)
    part = order[folded[0]]
    heading, options = ui.menu(view)[part.index]
    wanted = options[-1][0]
    answers = (str(folded[0] + 1), "undo", str(folded[0] + 1), str(len(options)))
    prompts: list[str] = []
    console = Console(record=True, width=80, height=24, file=io.StringIO())
    action = ui.ask_action(view, Prompter(_answers(*answers, prompts=prompts), console))
    out = console.export_text()
    assert action == wanted
    which = f"Which {heading.plain}? (1-{len(options)}, undo for another card): "
    assert prompts == [prompts[0], which, prompts[0], which]
    assert prompts[0] == ui.prompt_text(order) and prompts[0].startswith("Your choice (1-")
    assert out.count("Hand Action:") == 2  # undo asks for the card again
    # the whole text form at the first part
    assert _asked(ui, view, str(wanted), width=80, height=24)[0] == wanted


def test_the_free_mark_is_explained_where_it_shows() -> None:
    game = racedeck.make("setback", players=3)
    assert isinstance(game, Setback)
    ui = _ui(game)
    ui.width = 80
    state = _find(
        game,
        lambda v: any(face.endswith("*") for face in v.hand) and not v.window_open,
        range(200),
    )
    shown = _text(ui.render(_view(game, state)), 80)
    assert "* FREE: playable besides your one card" in shown
    state = _find(
        game,
        lambda v: v.phase == "board" and v.grid[v.tokens[0][0]][v.tokens[0][1]].endswith("*"),
        range(400),
    )
    question = " ".join(_text(ui.question(_view(game, state))).split())
    assert "(its * counts for nothing there). How?" in question  # SB-3


def test_narration_addresses_you() -> None:
    game = racedeck.make("setback", players=3)
    ui = _ui(game)  # type: ignore[arg-type]
    play = {"type": "play", "card": "SKIP", "target": 0}
    lines = ui.describe_events(
        [
            Event("declared", {"player": 1, "source": "hand", "play": play}),
            Event("skip_placed", {"player": 0}),
            Event("traded", {"a": 2, "b": 0}),
            Event("finished", {"player": 0, "wins": False}),
            Event("cards_received", {"player": 0, "cards": ["MOVE+1*"]}, audience=0),
        ]
    )
    assert lines == [
        "Bot 2 plays SKIP on you.",
        "A SKIP lies in front of you: you lose your next turn.",
        "Bot 3 and you trade places.",
        "You reach FINISH as well, too late to win.",
        "You draw MOVE+1*.",
    ]
    drawn = [
        Event("cards_drawn", {"player": 0, "count": 1}),
        Event("cards_received", {"player": 0, "cards": ["MOVE+1*"]}, audience=0),
        Event("cards_drawn", {"player": 1, "count": 2}),
        Event("cards_received", {"player": 1, "cards": ["CUT", "DRAW"]}, audience=1),
    ]
    shown = ui.describe_events(ui.visible_events(drawn))
    assert shown == ["You draw MOVE+1*.", "Bot 2 draws 2."]  # nobody else's cards


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_screens_fit_80_by_24(players: int) -> None:
    """Board, players, hand, question, menu and prompt leave at least two lines of 24 for
    what happened since (three unless the hand is long and the menu cannot fold); the first
    part of a folded menu counts. The end screen fits too."""
    game = racedeck.make("setback", players=players)
    assert isinstance(game, Setback)
    ui = _ui(game)
    ui.width = 80
    for seed in range(GAMES):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            seat = state.pending[0]
            if seat == 0 and game.forced_action(state, 0) is None:
                view = _view(game, state)
                console = Console(width=80, height=24, file=io.StringIO(), record=True)
                console.print(ui.render(view))
                seen: list[str] = []

                def ask(prompt: str, seen: list[str] = seen, console: Console = console) -> str:
                    if not seen:
                        seen.append(console.export_text(clear=False) + prompt)
                    return "1"

                ui.ask_action(view, Prompter(ask, console))
                lines = seen[0].splitlines()
                assert len(lines) <= 24 - 2, seen[0]
                assert all(len(line.rstrip()) <= 80 for line in lines), seen[0]
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        outcome = game.outcome(state)
        final = _text(ui.render_outcome(_view(game, state), outcome), 80)
        assert len(final.splitlines()) <= 24 - 5, final  # the rule, the record line, events


def test_a_whole_game_with_a_name_help_undo_and_text(tmp_path: Path) -> None:
    record = tmp_path / "ann.json"
    args = [*PLAY, "--seed", "30", "--name", "Ann", "--record", str(record)]
    result = runner.invoke(app, args, input="?\nundo\nskip bot 2\n" + ONES)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Players: P1 = Ann (or you), P2 = Bot 2, P3 = Bot 3" in " ".join(out.split())
    assert "Nothing to undo here" in out
    assert "Ann plays SKIP on Bot 2." in out
    assert "Game over" in out and load_record(record).meta["names"][0] == "Ann"


def test_quit_at_a_setback_prompt_keeps_the_record(tmp_path: Path) -> None:
    record = tmp_path / "quit.json"
    result = runner.invoke(app, [*PLAY, "--seed", "30", "--record", str(record)], input="1\nquit\n")
    assert result.exit_code == 0, result.output
    assert "You left the game." in result.output
    assert load_record(record).actions


@pytest.mark.parametrize("players", [2, 3, 6])
def test_every_choice_is_picked_by_its_own_text(players: int) -> None:
    """In real games, each legal action's text form (``str``, and the way a person types it:
    ``TRADE P2 P3``) names that action and no other; so does its list number."""
    game = racedeck.make("setback", players=players)
    assert isinstance(game, Setback)
    ui = _ui(game)
    for seed in range(GAMES):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            seat = state.pending[0]
            if seat == 0 and game.forced_action(state, 0) is None:
                view = _view(game, state)
                _, order = ui.render_menu(view, 200)
                read = _reader(ui, view)
                for action in view.legal_actions:
                    for text in {str(action), typed_form(action), typed_form(action).lower()}:
                        assert read(text) == action, text
                number = rng.randrange(len(order))
                assert _asked(ui, view, str(number + 1))[0] == order[number]
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
