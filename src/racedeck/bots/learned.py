"""``learned``: the policies trained by self-play that ship with racedeck, one per game and
player count, played from the seat's view in plain NumPy (no training framework).

The weights are in ``racedeck/bots/learned/``, one file per configuration trained
(``<game>-<players>.npz``; Six Day Race names its riders a player too:
``six-day-race-<players>x<riders>.npz``),
written by ``racedeck train`` and :func:`ship` (half precision: a few hundred kilobytes each).
A game's ``learned`` bot plays the file of its player count (and riders) whose observations and
actions have the sizes of the game's encoding; options that keep those sizes (the number of
races of a series, the time of a window) play with it as trained. :func:`learned_configs` says
which configurations have one.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from racedeck.core.game import Game
from racedeck.core.registry import get_spec
from racedeck.plugins import plugin

if TYPE_CHECKING:  # NumPy inference, loaded when a learned bot is made
    from racedeck.bots.policy import MLPPolicy, PolicyBot

__all__ = ["LEARNED", "has_learned", "learned_bot", "learned_configs", "learned_file", "ship"]

LEARNED = Path(__file__).with_name("learned")
"""Where the shipped weights are."""


def _shape(game_id: str, config: dict[str, Any]) -> tuple[int, int | None]:
    """The player count and riders a player (``None``: a game without riders) that
    ``config`` gives, options left out taking the game's defaults (Six Day Race's ``riders=0``
    is two each up to four players, SD-12)."""
    made = get_spec(game_id).make_config(**config)
    riders = getattr(made, "riders_per_player", None)
    return int(made.players), (int(riders) if riders is not None else None)


def learned_file(game_id: str, config: dict[str, Any]) -> Path:
    """The shipped file's path for ``game_id`` with ``config``'s player count (and riders)."""
    players, riders = _shape(game_id, config)
    suffix = f"x{riders}" if riders is not None else ""
    return LEARNED / f"{game_id}-{players}{suffix}.npz"


def _files(game_id: str) -> list[Path]:
    return sorted(LEARNED.glob(f"{game_id}-*.npz"))


@cache
def _policies(game_id: str) -> tuple[MLPPolicy, ...]:
    """Every shipped policy of ``game_id``, read once per process."""
    from racedeck.bots.policy import MLPPolicy

    return tuple(MLPPolicy.load(p) for p in _files(game_id))


def learned_configs(game_id: str) -> list[dict[str, Any]]:
    """The configurations the shipped policies of ``game_id`` were trained on."""
    return [dict(p.config) for p in _policies(game_id)]


def has_learned(game_id: str) -> bool:
    """Whether a policy of ``game_id`` ships."""
    return bool(_files(game_id))


def _fits(policy: MLPPolicy, game: Game[Any, Any, Any]) -> bool:
    """Same player count and riders, and observations and actions of the game's sizes."""
    game_id = game.spec.id
    if _shape(game_id, dict(policy.config)) != _shape(game_id, game.config.to_json()):
        return False
    size = plugin(game_id, "observation").observer(game).size
    actions = plugin(game_id, "encoding").action_encoding(game).num_distinct_actions
    return (policy.observation_size, policy.num_actions) == (size, actions)


def learned_bot(game: Game[Any, Any, Any], seat: int, seed: int) -> PolicyBot:
    """The ``learned`` bot for ``seat``; :class:`ValueError` naming the configurations
    trained when none fits ``game``."""
    from racedeck.bots.policy import PolicyBot

    for policy in _policies(game.spec.id):
        if _fits(policy, game):
            bot = PolicyBot(game, seat, seed, policy)
            bot.name = "learned"
            return bot
    game_id = game.spec.id
    trained = "; ".join(_described(game_id, c) for c in learned_configs(game_id))
    raise ValueError(
        f"no learned {game_id} bot for {_described(game_id, game.config.to_json())}"
        + (f"; trained: {trained}" if trained else "")
    )


def _described(game_id: str, config: dict[str, Any]) -> str:
    """``4 players, 2 riders each``, as a configuration's player count and riders read."""
    players, riders = _shape(game_id, config)
    if riders is None:
        return f"{players} players"
    return f"{players} players, {riders} rider{'s' if riders > 1 else ''} each"


def ship(policy: MLPPolicy, path: Path | None = None) -> Path:
    """Save ``policy`` among the shipped weights (or at ``path``) in half precision, which
    plays the same moves at half the size."""
    import numpy as np

    from racedeck.bots.policy import MLPPolicy

    half = MLPPolicy(
        policy.game_id,
        dict(policy.config),
        [w.astype(np.float16) for w in policy.weights],
        [b.astype(np.float16) for b in policy.biases],
        policy.activation,
        policy.value_head,
    )
    target = path or learned_file(policy.game_id, policy.config)
    target.parent.mkdir(parents=True, exist_ok=True)
    return half.save(target)
