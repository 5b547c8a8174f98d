"""A trainable multilayer perceptron in plain NumPy: forward, backward and Adam.

The trainers' networks are small (a few hundred thousand weights) and their batches large, so
a float32 matrix product per layer on NumPy's BLAS is as fast as a framework on a CPU and needs
none. :meth:`Network.policy` gives the trained network as the
:class:`~racedeck.bots.policy.MLPPolicy` that plays it everywhere (same layers, same
activation).

A trainer talks to its network through :class:`Learner` only, so the same network can learn
elsewhere: :func:`make_network` gives the NumPy one or, with ``backend="jax"``, a
:class:`~racedeck.rl.jax_network.JaxNetwork` on JAX's default device — a GPU when JAX has
one, else the CPU.

>>> import numpy as np
>>> net = Network.create([4, 8, 3], seed=0)
>>> x = np.ones((2, 4), np.float32)
>>> out, cache = net.forward(x)
>>> grads = net.backward(cache, np.ones_like(out))
>>> [g.shape for g in grads]
[(4, 8), (8,), (8, 3), (3,)]
"""

from __future__ import annotations

import importlib.util
import pkgutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from racedeck.bots.policy import ACTIVATIONS, MLPPolicy

__all__ = [
    "BACKENDS",
    "Adam",
    "Learner",
    "Network",
    "describe_backend",
    "make_network",
    "resolve_backend",
]

Array = NDArray[np.float32]

BACKENDS = ("numpy", "jax")
"""Where a network can learn: ``numpy`` (this module) or ``jax`` (JAX's default device)."""


class Learner(Protocol):
    """What a trainer needs of its network: the outputs and the gradients of a batch, an
    optimiser's step, a moving average, and the weights as NumPy arrays (to save, to play)."""

    activation: str
    params: list[Array]
    """The weights and biases, alternating, as NumPy arrays (setting them replaces all)."""

    @property
    def sizes(self) -> list[int]:
        """The layers' widths, inputs first."""

    def forward(self, x: Array) -> tuple[Array, Any]:
        """The outputs for rows ``x`` (NumPy) and what :meth:`backward` needs."""

    def predict(self, x: Array) -> Array:
        """The outputs for rows ``x``."""

    def backward(self, cache: Any, grad: Array) -> Any:
        """The weights' gradients, given the outputs' gradient ``grad``."""

    def update(self, optimiser: Adam, grads: Any) -> float:
        """One step of ``optimiser`` on the weights; the gradients' norm before clipping."""

    def blend(self, other: Any, decay: float) -> None:
        """``w = decay * w + (1 - decay) * other``, weight by weight."""

    def copy(self) -> Learner:
        """A network with copies of these weights, on the same backend."""

    def policy(self, game_id: str, config: dict[str, Any], value_head: bool = False) -> MLPPolicy:
        """The network as the policy that plays it."""


def resolve_backend(name: str) -> str:
    """The backend ``name`` means: itself, or for ``auto`` ``jax`` when a GPU build of JAX is
    installed (a ``jax_cuda*`` or ``jax_rocm*`` plugin) and ``numpy`` otherwise — decided
    without starting JAX, which a process must not have started before it forks its workers.
    :class:`ValueError` for an unknown name."""
    if name in BACKENDS:
        return name
    if name != "auto":
        raise ValueError(f"unknown backend {name!r}: auto, {', '.join(BACKENDS)}")
    plugins = [
        m.name for m in pkgutil.iter_modules() if m.name.startswith(("jax_cuda", "jax_rocm"))
    ]
    return "jax" if plugins and importlib.util.find_spec("jax") is not None else "numpy"


def describe_backend(name: str) -> str:
    """Where a network of backend ``name`` learns, for people: ``numpy (cpu)``, ``jax (gpu
    (NVIDIA A100))``, ``jax (cpu)``."""
    if name == "jax":
        from racedeck.rl.jax_network import device

        return f"jax ({device()})"
    return "numpy (cpu)"


def make_network(
    sizes: Sequence[int], activation: str = "relu", seed: int = 0, backend: str = "numpy"
) -> Learner:
    """A fresh network (:meth:`Network.create`'s weights, the same for every backend) that
    learns on ``backend`` (:data:`BACKENDS`); :class:`ValueError` for another name,
    :class:`~racedeck.extras.MissingExtra` for ``jax`` without JAX installed."""
    net = Network.create(sizes, activation, seed)
    if backend == "numpy":
        return net
    if backend == "jax":
        from racedeck.extras import needs

        with needs("the jax backend"):  # JAX: only when asked for
            from racedeck.rl.jax_network import JaxNetwork

        return JaxNetwork(net.params, activation)
    raise ValueError(f"unknown backend {backend!r}: {', '.join(BACKENDS)}")


@dataclass
class Network:
    """Layers ``x @ W + b`` with ``activation`` between them (``relu`` or ``tanh``); the
    last layer is linear. ``params`` alternates weights and biases."""

    params: list[Array]
    activation: str = "relu"

    @classmethod
    def create(cls, sizes: Sequence[int], activation: str = "relu", seed: int = 0) -> Network:
        """Fresh layers of ``sizes`` (inputs first): He-scaled normal weights for ``relu``,
        Glorot-scaled for ``tanh``, zero biases; the last layer starts small so the first
        estimates are near zero."""
        if activation not in ACTIVATIONS:
            raise ValueError(f"unknown activation {activation!r}: {', '.join(ACTIVATIONS)}")
        rng = np.random.default_rng(seed)
        params: list[Array] = []
        gain = 2.0 if activation == "relu" else 1.0
        last = len(sizes) - 2
        for k, (a, b) in enumerate(pairwise(sizes)):
            scale = np.sqrt(gain / a) * (0.1 if k == last else 1.0)
            params.append((rng.standard_normal((a, b)) * scale).astype(np.float32))
            params.append(np.zeros(b, np.float32))
        return cls(params, activation)

    @property
    def sizes(self) -> list[int]:
        """The layers' widths, inputs first."""
        return [int(self.params[0].shape[0])] + [int(b.shape[0]) for b in self.params[1::2]]

    def forward(self, x: Array) -> tuple[Array, list[Array]]:
        """The outputs for rows ``x`` and what :meth:`backward` needs (each layer's input)."""
        cache: list[Array] = []
        last = len(self.params) // 2 - 1
        for k in range(last + 1):
            cache.append(x)
            x = x @ self.params[2 * k] + self.params[2 * k + 1]
            if k < last:
                x = np.maximum(x, 0.0) if self.activation == "relu" else np.tanh(x)
        return x, cache

    def predict(self, x: Array) -> Array:
        """The outputs for rows ``x``."""
        return self.forward(x)[0]

    def backward(self, cache: list[Array], grad: Array) -> list[Array]:
        """The gradients of ``params`` given the outputs' gradient ``grad`` (summed over rows,
        so scale ``grad`` for a mean)."""
        grads: list[Array] = [np.empty(0, np.float32)] * len(self.params)
        for k in range(len(cache) - 1, -1, -1):
            x = cache[k]
            grads[2 * k] = x.T @ grad
            grads[2 * k + 1] = grad.sum(axis=0)
            if k == 0:
                break
            grad = grad @ self.params[2 * k].T
            # x is the activation's output: its derivative from the output alone.
            grad = grad * (x > 0) if self.activation == "relu" else grad * (1.0 - x * x)
        return grads

    def update(self, optimiser: Adam, grads: list[Array]) -> float:
        """One step of ``optimiser`` on the weights from ``grads`` (:meth:`backward`'s); the
        gradients' global norm before clipping."""
        return optimiser.step(self.params, grads)

    def blend(self, other: Network, decay: float) -> None:
        """Move the weights towards ``other``'s: ``w = decay * w + (1 - decay) * other`` (a
        moving average of a learner's weights)."""
        for slow, fast in zip(self.params, other.params, strict=True):
            slow *= decay
            slow += (1.0 - decay) * fast

    def copy(self) -> Network:
        """A network with copies of these weights."""
        return Network([p.copy() for p in self.params], self.activation)

    def policy(self, game_id: str, config: dict[str, Any], value_head: bool = False) -> MLPPolicy:
        """The network as the policy that plays it (greedy over its action outputs; the last
        output a value estimate when ``value_head``); copies."""
        return MLPPolicy(
            game_id,
            dict(config),
            [w.copy() for w in self.params[0::2]],
            [b.copy() for b in self.params[1::2]],
            activation=self.activation,
            value_head=value_head,
        )


@dataclass
class Adam:
    """Adam (Kingma & Ba) with optional global gradient-norm clipping."""

    lr: float = 3e-4
    beta1: float = 0.9
    beta2: float = 0.999
    eps: float = 1e-8
    clip: float | None = 10.0
    steps: int = 0
    m: list[Any] = field(default_factory=list)
    """The first moments, one per weight array: NumPy arrays, or a JAX network's on its
    device (:meth:`Learner.update` keeps them where its weights are)."""
    v: list[Any] = field(default_factory=list)
    """The second moments, as :attr:`m`."""

    def advance(self) -> float:
        """Count one more step and give its step size: the learning rate with Adam's bias
        corrections for the step count."""
        self.steps += 1
        b1, b2 = self.beta1, self.beta2
        # A NumPy double, not a Python float: NumPy's step is then worked out in double
        # precision and rounded once to float32.
        return np.float64(self.lr * np.sqrt(1.0 - b2**self.steps) / (1.0 - b1**self.steps))

    def step(self, params: list[Array], grads: list[Array]) -> float:
        """Update ``params`` in place; the gradients' global norm before clipping."""
        if not self.m:
            self.m = [np.zeros_like(p) for p in params]
            self.v = [np.zeros_like(p) for p in params]
        norm = float(np.sqrt(sum(float(np.vdot(g, g)) for g in grads)))
        scale = 1.0
        if self.clip is not None and norm > self.clip:
            scale = self.clip / norm
        rate = self.advance()
        b1, b2 = self.beta1, self.beta2
        for p, g, m, v in zip(params, grads, self.m, self.v, strict=True):
            if scale != 1.0:
                g = g * scale
            m *= b1
            m += (1.0 - b1) * g
            v *= b2
            v += (1.0 - b2) * (g * g)
            p -= (rate * m / (np.sqrt(v) + self.eps)).astype(np.float32)
        return norm
