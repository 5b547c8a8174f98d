"""Narration to a player called "You" reads in the second person: "You move Bot 3",
"Bot 2 moves you", never "You moves". Checked on the narration of many random games of every
game, through each game's terminal UI."""

from __future__ import annotations

import random
import re

import pytest

import racedeck
from racedeck.cli.terminal_ui import second_person, ui_for
from racedeck.core import Table

# A third-person verb after You ("You moves", "You is", "You has"), but not a verb whose plain
# form ends in s ("You cross", "You pass").
THIRD_PERSON = re.compile(r"\bYou(?![-\w]) (?:also )?[a-z]+(?<!s)s\b")
# Further verbs in a clause whose subject is You: "You crash … and loses a turn", "You play 3
# → lands on 17", "You change riders: discards 3 cards".
AND_THIRD_PERSON = re.compile(r"^(?:Game over: )?You(?![-\w])[^;]* (?:and|→|:) [a-z]+(?<!s)s\b")
# You as an object, capitalised like a name in the middle of a sentence.
OBJECT = re.compile(r"\b(?:of|on|moves|by) You\b")

GAMES = [
    ("why-first", {"players": 2}),
    ("why-first", {"players": 3}),
    ("why-first", {"players": 4, "variant": "tactical"}),
    ("six-day-race", {"players": 3}),  # two riders each: You-1 and You-2 stay third person
    ("six-day-race", {"players": 5, "riders": 1}),
    ("setback", {"players": 2}),
    ("setback", {"players": 4}),
]


def narration(game_id: str, options: dict[str, object], seed: int) -> list[str]:
    """Every line the terminal shows the player called You in one random game."""
    game = racedeck.make(game_id, **options)
    names = [f"Bot {i + 1}" for i in range(game.num_players)]
    names[seed % game.num_players] = "You"
    table = Table(game, seed)
    rng = random.Random(seed)
    for _ in range(4000):
        if not table.pending:
            break
        seat = rng.choice(table.pending)
        table.submit(seat, rng.choice(game.legal_actions(table.state, seat)))
    ui = ui_for(game, names)
    return [line for _, events in table.history for line in ui.describe_events(list(events))]


@pytest.mark.parametrize(("game_id", "options"), GAMES, ids=lambda x: str(x))
def test_random_games_speak_to_you_in_the_second_person(
    game_id: str, options: dict[str, object]
) -> None:
    lines = [line for seed in range(4) for line in narration(game_id, options, seed)]
    about_you = [line for line in lines if re.search(r"\b[Yy]ou\b", line)]
    assert len(about_you) > 10
    for line in lines:
        assert not THIRD_PERSON.search(line), line
        assert not AND_THIRD_PERSON.search(line), line
        assert not OBJECT.search(line), line


@pytest.mark.parametrize(
    ("line", "spoken"),
    [
        ("You moves Bot 3: +3 -1 = +2, 0 → 2.", "You move Bot 3: +3 -1 = +2, 0 → 2."),
        ("Bot 2 moves You: +1 = +1, 3 → 4.", "Bot 2 moves you: +1 = +1, 3 → 4."),
        ("You moves You: +2 = +2, 0 → 2.", "You move yourself: +2 = +2, 0 → 2."),
        (
            "Bot 2's card, face down: -2 in front of You.",
            "Bot 2's card, face down: -2 in front of you.",
        ),
        ("You's card, face down: #4 (+2).", "Your card, face down: #4 (+2)."),
        (
            "Stage 2 scored: second farthest space is 3; You scores +3.",
            "Stage 2 scored: second farthest space is 3; You score +3.",
        ),
        (
            "You crosses the line first and wins the race!",
            "You cross the line first and win the race!",
        ),
        ("You plays 3 → lands on 17", "You play 3 → land on 17"),
        (
            "You changes riders on FAHRERWECHSEL: discards 3 cards, draws 7 from deck 1-3.",
            "You change riders on FAHRERWECHSEL: discard 3 cards, draw 7 from deck 1-3.",
        ),
        ("You-1 crashes on STURZ and loses a turn.", "You-1 crashes on STURZ and loses a turn."),
        ("You goes first; the board has 3 lanes.", "You go first; the board has 3 lanes."),
        ("You also reaches FINISH, too late to win.", "You also reach FINISH, too late to win."),
        ("Bot 2 plays FOE-2 on You.", "Bot 2 plays FOE-2 on you."),
        ("No effect on You (on START).", "No effect on you (on START)."),
        (
            "A SKIP lies in front of You: they lose their next turn.",
            "A SKIP lies in front of you: you lose your next turn.",
        ),
        ("Bot 2 and You trade places.", "Bot 2 and You trade places."),
        (
            "Series over (You 2 laps lost/10 pts). Winner: You.",
            "Series over (You 2 laps lost/10 pts). Winner: You.",
        ),
    ],
)
def test_pinned_lines(line: str, spoken: str) -> None:
    assert second_person(line) == spoken
