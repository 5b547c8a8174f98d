"""A fixed numbering of a game's actions under one configuration, for learning and search faces.

Reinforcement-learning environments, OpenSpiel games and compact records need what the rules
do not: every action the game can ever make legal under a configuration, numbered once, so that
a policy can output an index and a mask can say which indices are legal now. An
:class:`ActionEncoding` is that numbering — ``num_distinct_actions``, action ↔ index in both
directions, a legal mask from a seat's view (or a state), and the most actions a game can take
— and every face shares the one each game builds for its configuration (registered as the
game's ``encoding`` plugin: a module with ``action_encoding(game)``).

The numbering depends on the configuration only, never on a state, so index ``i`` means the
same action in every game of that configuration.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from racedeck.core.game import Game

__all__ = ["ActionEncoding"]

A = TypeVar("A")


class ActionEncoding(Generic[A]):
    """The actions of one game and configuration, numbered ``0 .. num_distinct_actions - 1``.

    ``actions`` lists every action the game can ever make legal under the configuration, each
    once (actions are hashable values); the index of an action is its place in the list.
    ``max_game_length`` bounds the number of accepted actions (the state's move number) of any
    game of this configuration.
    """

    __slots__ = ("_actions", "_index", "max_game_length")

    def __init__(self, actions: Sequence[A], max_game_length: int) -> None:
        self._actions: tuple[A, ...] = tuple(actions)
        self._index: dict[A, int] = {}
        for i, action in enumerate(self._actions):
            if action in self._index:
                raise ValueError(
                    f"the action {action} is numbered twice (indices {self._index[action]} and {i})"
                )
            self._index[action] = i
        if max_game_length < 1:
            raise ValueError(f"max_game_length must be at least 1, got {max_game_length}")
        self.max_game_length = max_game_length

    @property
    def num_distinct_actions(self) -> int:
        """How many actions are numbered."""
        return len(self._actions)

    @property
    def actions(self) -> tuple[A, ...]:
        """Every numbered action, in index order."""
        return self._actions

    def index(self, action: A) -> int:
        """The index of ``action``; :class:`ValueError` naming it when it has none."""
        try:
            return self._index[action]
        except KeyError:
            raise ValueError(f"the action {action} has no index in this encoding") from None

    def action(self, index: int) -> A:
        """The action numbered ``index``; :class:`ValueError` when no action has that number."""
        # A bool or a float would pass as an index of a Python tuple or be truncated: refuse.
        if not isinstance(index, int) or isinstance(index, bool):
            raise ValueError(f"an action index is an integer, got {index!r}")
        if not 0 <= index < len(self._actions):
            raise ValueError(
                f"there is no action {index} (actions are numbered 0 to {len(self._actions) - 1})"
            )
        return self._actions[index]

    def indices(self, actions: Iterable[A]) -> list[int]:
        """The indices of ``actions``, in their order."""
        table = self._index
        try:
            return [table[a] for a in actions]
        except KeyError as exc:
            raise ValueError(f"the action {exc.args[0]} has no index in this encoding") from None

    def mask(self, actions: Iterable[A]) -> list[int]:
        """``num_distinct_actions`` zeros, with a one at the index of each of ``actions``."""
        out = [0] * len(self._actions)
        for i in self.indices(actions):
            out[i] = 1
        return out

    def legal_mask(self, view: Any) -> list[int]:
        """The mask of ``view.legal_actions``: what the view's seat may do now (all zeros for a
        seat that is not asked, or a spectator)."""
        return self.mask(view.legal_actions)

    def legal_mask_of(self, game: Game[Any, A, Any], state: Any, seat: int) -> list[int]:
        """The mask of ``game.legal_actions(state, seat)`` (equal to :meth:`legal_mask` of
        that seat's view, without building the view)."""
        return self.mask(game.legal_actions(state, seat))
