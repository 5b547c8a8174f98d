"""Policies: what chooses actions from observations, as opponents in the environments and as
bots (``policy:PATH``), saved and loaded without any training framework.

A *policy* is any callable ``policy(observations, masks) -> actions`` over a batch: the
observations of the seats to act (float32, ``(n, observation_size)``, the game's encoding of
each seat's view, :mod:`racedeck.rl.observations`) and their legal-action masks (bool,
``(n, num_actions)``) give one action index per row, among the legal ones. Every face takes one
where it takes a bot's name: ``opponents=`` of :class:`~racedeck.rl.single.RacedeckGym`
(``gymnasium.make("racedeck/WhyFirst-v0", opponents=policy)``) and of
:class:`~racedeck.rl.vector.RacedeckVectorEnv`, which then asks the policy once a round for
every game where an opponent is to act.

:class:`MLPPolicy` is the network the examples train, in plain NumPy: saved as one ``.npz``
file with its game, configuration and layers, loaded back anywhere NumPy is, and played by
:class:`PolicyBot`, a bot that sees its seat's view only (its encoding, like the environments',
from the game's ``observation`` plugin) — by the name ``policy:PATH`` wherever bots are named
(``racedeck simulate``, ``racedeck tournament``; :func:`racedeck.bots.registry.make_bot`).

>>> import numpy as np
>>> policy = MLPPolicy.random("why-first", {"players": 3}, hidden=(16,), seed=1)
>>> masks = np.zeros((2, policy.num_actions), np.bool_)
>>> masks[:, 3] = True
>>> policy(np.zeros((2, policy.observation_size), np.float32), masks).tolist()
[3, 3]
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from racedeck.bots.base import Bot
from racedeck.core.game import Game
from racedeck.core.registry import make
from racedeck.plugins import plugin

__all__ = [
    "ACTIVATIONS",
    "FORMAT",
    "MLPPolicy",
    "Policy",
    "PolicyBot",
    "choose",
    "is_policy",
    "policy_bot",
]

Policy = Callable[[NDArray[np.float32], NDArray[np.bool_]], Any]
"""``policy(observations, masks) -> actions``, one action index per row (see the module)."""

FORMAT = "racedeck-mlp-policy/1"
"""The saved file's format name, checked on loading."""

ACTIVATIONS = ("tanh", "relu")
"""The hidden layers' activations a policy may use (files without one are ``tanh``)."""


def is_policy(opponent: object) -> bool:
    """Whether ``opponent`` is a policy rather than a bot's name."""
    return callable(opponent) and not isinstance(opponent, str)


def choose(
    policy: Policy, observations: NDArray[np.float32], masks: NDArray[np.bool_]
) -> NDArray[np.int64]:
    """``policy``'s actions for the rows, checked: one whole number per row, each legal in its
    mask (:class:`ValueError` naming the first row that is not)."""
    actions = np.asarray(policy(observations, masks))
    n = observations.shape[0]
    if actions.shape != (n,) or not np.issubdtype(actions.dtype, np.integer):
        raise ValueError(
            f"a policy must return {n} whole numbers (one action index per row), "
            f"not {actions.dtype} of shape {actions.shape}"
        )
    inside = (actions >= 0) & (actions < masks.shape[1])
    legal = inside & masks[np.arange(n), np.where(inside, actions, 0)]
    if not legal.all():
        row = int(np.flatnonzero(~legal)[0])
        raise ValueError(
            f"the policy chose action {int(actions[row])} in row {row}, which its mask does not "
            f"allow (legal: {np.flatnonzero(masks[row]).tolist()})"
        )
    return actions.astype(np.int64)


@dataclass
class MLPPolicy:
    """A masked multilayer perceptron over a game's observations: hidden layers with
    ``activation`` (``tanh`` or ``relu``), one score per action (a logit, or a trained value
    estimate); the legal action of the highest score, or one drawn from the masked softmax when
    ``sample`` (from ``rng``)."""

    game_id: str
    config: dict[str, Any]
    weights: list[NDArray[np.float32]]
    biases: list[NDArray[np.float32]]
    activation: str = "tanh"
    value_head: bool = False
    """The last output is a value estimate (the seat's expected share of the win), not an
    action's score."""
    sample: bool = False
    rng: np.random.Generator = field(default_factory=lambda: np.random.default_rng(0))

    @property
    def observation_size(self) -> int:
        """The length of the observations it reads."""
        return int(self.weights[0].shape[0])

    @property
    def num_actions(self) -> int:
        """The number of action indices it scores."""
        return int(self.weights[-1].shape[1]) - int(self.value_head)

    @classmethod
    def random(
        cls,
        game_id: str,
        config: dict[str, Any],
        hidden: Sequence[int] = (128, 128),
        seed: int = 0,
    ) -> MLPPolicy:
        """An untrained network for ``game_id``'s configuration (scaled normal weights)."""
        game = make(game_id, **config)
        size = plugin(game_id, "observation").observer(game).size
        actions = plugin(game_id, "encoding").action_encoding(game).num_distinct_actions
        rng = np.random.default_rng(seed)
        sizes = [size, *hidden, actions]
        weights = [
            (rng.standard_normal((a, b)) / np.sqrt(a)).astype(np.float32)
            for a, b in pairwise(sizes)
        ]
        biases = [np.zeros(b, np.float32) for b in sizes[1:]]
        return cls(game_id, dict(config), weights, biases)

    def logits(self, observations: NDArray[np.float32]) -> NDArray[np.float32]:
        """The network's scores of every action, ``(n, num_actions)``."""
        return self.outputs(observations)[:, : self.num_actions]

    def values(self, observations: NDArray[np.float32]) -> NDArray[np.float32]:
        """The value estimates of the rows, ``(n,)``; :class:`ValueError` without a value
        head."""
        if not self.value_head:
            raise ValueError("this policy has no value estimates")
        return self.outputs(observations)[:, -1]

    def outputs(self, observations: NDArray[np.float32]) -> NDArray[np.float32]:
        """Everything the network gives for the rows: the actions' scores, then the value
        when it has a value head."""
        x = observations.astype(np.float32, copy=False)
        return self._after_first(x @ self.weights[0] + self.biases[0])

    def _after_first(self, h: NDArray[np.float32]) -> NDArray[np.float32]:
        """The outputs from the first layer's sums ``h``: every later layer, with the
        activation before each."""
        relu = self.activation == "relu"
        for w, b in zip(self.weights[1:], self.biases[1:], strict=True):
            h = np.maximum(h, 0.0) if relu else np.tanh(h)
            h = h @ w + b
        return h

    def best(self, observation: NDArray[np.float32], legal: Sequence[int]) -> int:
        """The legal action of the highest score for one observation, among the indices
        ``legal`` (the lowest index among equal scores): what a one-row call gives without
        ``sample``, for a bot's single decision.

        The first layer is summed over the observation's non-zero entries only: an
        observation is mostly one-hot fields, so a decision reads a few dozen of the first
        layer's rows rather than all of them (and keeps them in the cache between the other
        seats' moves). The scores equal the batch's to float32 rounding; only a near-tie,
        closer than that rounding, may be broken the other way."""
        x = observation.astype(np.float32, copy=False).ravel()
        nonzero = np.flatnonzero(x)
        h = self._after_first(x[nonzero] @ self.weights[0][nonzero] + self.biases[0])
        candidates = np.sort(np.asarray(legal, np.int64))
        if candidates.size == 0 or candidates[0] < 0 or candidates[-1] >= self.num_actions:
            raise ValueError(
                f"legal action indices lie in 0 to {self.num_actions - 1}, got {list(legal)}"
            )
        return int(candidates[int(np.argmax(h[candidates]))])

    def __call__(
        self, observations: NDArray[np.float32], masks: NDArray[np.bool_]
    ) -> NDArray[np.int64]:
        """One legal action per row (see the class)."""
        scores = np.where(masks, self.logits(observations), -np.inf)
        if not self.sample:
            chosen: NDArray[np.int64] = scores.argmax(axis=1).astype(np.int64)
            return chosen
        scores = scores - scores.max(axis=1, keepdims=True)
        p = np.exp(scores)
        p /= p.sum(axis=1, keepdims=True)
        u = 1.0 - self.rng.random((p.shape[0], 1))  # in (0, 1]
        # The first action whose cumulative probability reaches u: one of positive
        # probability, so a legal one (the last legal one when rounding leaves the sum short).
        drawn = (p.cumsum(axis=1) < u).sum(axis=1)
        last = masks.shape[1] - 1 - masks[:, ::-1].argmax(axis=1)
        chosen = np.minimum(drawn, last).astype(np.int64)
        return chosen

    def save(self, path: str | Path) -> Path:
        """Write the policy to ``path`` (``.npz``): its game, configuration and layers."""
        meta = {
            "format": FORMAT,
            "game": self.game_id,
            "config": self.config,
            "activation": self.activation,
            "value_head": self.value_head,
        }
        arrays: dict[str, Any] = {"meta": np.array(json.dumps(meta))}
        for k, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            arrays[f"w{k}"] = w
            arrays[f"b{k}"] = b
        target = Path(path)
        with target.open("wb") as out:
            np.savez(out, **arrays)
        return target

    @classmethod
    def load(cls, path: str | Path) -> MLPPolicy:
        """A policy written by :meth:`save`; :class:`ValueError` for any other file."""
        try:
            with np.load(Path(path), allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                layers = sum(1 for name in data.files if name.startswith("w"))
                weights = [data[f"w{k}"].astype(np.float32) for k in range(layers)]
                biases = [data[f"b{k}"].astype(np.float32) for k in range(layers)]
        except (OSError, KeyError, ValueError) as exc:
            raise ValueError(f"{path}: not a saved racedeck policy ({exc})") from None
        if meta.get("format") != FORMAT:
            raise ValueError(f"{path}: format {meta.get('format')!r}, expected {FORMAT!r}")
        activation = str(meta.get("activation", "tanh"))
        if activation not in ACTIVATIONS:
            raise ValueError(f"{path}: unknown activation {activation!r}")
        return cls(
            str(meta["game"]),
            dict(meta["config"]),
            weights,
            biases,
            activation,
            bool(meta.get("value_head", False)),
        )


class PolicyBot(Bot):
    """A policy playing one seat as a bot: from the seat's view only, encoded as the
    environments encode it; its choice decoded by the game's action encoding."""

    name = "policy"

    def __init__(self, game: Game[Any, Any, Any], seat: int, seed: int, policy: Policy) -> None:
        super().__init__(game, seat, seed)
        self.policy = policy
        self._encode = plugin(game.spec.id, "observation").observer(game).encode
        self._encoding = plugin(game.spec.id, "encoding").action_encoding(game)

    def act(self, view: Any) -> Any:
        """The policy's action for ``view``."""
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        indices = self._encoding.indices(legal)
        observation = self._encode(view)
        policy = self.policy
        if isinstance(policy, MLPPolicy) and not policy.sample:
            # The network's own argmax is legal by construction: no batch, no mask, no check.
            return self._encoding.action(policy.best(observation, indices))
        mask = np.zeros((1, self._encoding.num_distinct_actions), np.bool_)
        mask[0, indices] = True
        batch = observation[None, :].astype(np.float32, copy=False)
        return self._encoding.action(int(choose(policy, batch, mask)[0]))


def policy_bot(path: str, game: Game[Any, Any, Any], seat: int, seed: int) -> PolicyBot:
    """The bot of ``policy:PATH``: the policy saved at ``path`` in ``seat``;
    :class:`ValueError` when the file is not a policy of this game's configuration."""
    policy = _loaded(str(Path(path).resolve()), _stamp(path))
    want = (game.spec.id, plugin(game.spec.id, "observation").observer(game).size)
    have = (policy.game_id, policy.observation_size)
    if (
        have != want
        or policy.num_actions
        != plugin(game.spec.id, "encoding").action_encoding(game).num_distinct_actions
    ):
        raise ValueError(
            f"{path}: a policy of {policy.game_id} {policy.config} "
            f"(observations of {policy.observation_size}), not of this {game.spec.id} game"
        )
    return PolicyBot(game, seat, seed, policy)


def _stamp(path: str) -> float:
    try:
        return Path(path).stat().st_mtime
    except OSError as exc:
        raise ValueError(f"no policy at {path}: {exc.strerror}") from None


@lru_cache(maxsize=16)
def _loaded(path: str, stamp: float) -> MLPPolicy:
    """A saved policy, read once per file version (a bot may be made for every decision)."""
    return MLPPolicy.load(path)
