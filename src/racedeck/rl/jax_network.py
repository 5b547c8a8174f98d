"""The trainers' network on JAX: the same layers, gradients and Adam steps as
:class:`~racedeck.rl.network.Network`, computed on JAX's default device — a GPU when the
installed JAX has one (``pip install 'jax[cuda12]'``), else the CPU.

The weights and Adam's moments stay on the device between steps; a batch goes there, its
outputs come back as NumPy (the trainers' losses are NumPy), and the outputs' gradient goes
there for the backward pass. The forward pass, its gradient (``jax.vjp``), Adam's step and the
moving average are compiled once per shape (``jax.jit``). Numbers agree with the NumPy
network's to float32 rounding, not bit for bit, so a run is the same for its seed on one
backend; a checkpoint written on one goes on on the other.

>>> import numpy as np
>>> from racedeck.rl.network import Network
>>> cpu = Network.create([4, 8, 3], seed=0)
>>> net = JaxNetwork(cpu.params)
>>> x = np.ones((2, 4), np.float32)
>>> bool(np.allclose(net.predict(x), cpu.predict(x), atol=1e-6))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from numpy.typing import NDArray

from racedeck.bots.policy import ACTIVATIONS, MLPPolicy
from racedeck.rl.network import Adam, Network

__all__ = ["JaxNetwork", "device"]

Params = tuple[jax.Array, ...]


def device() -> str:
    """Where a :class:`JaxNetwork` learns: JAX's default device, e.g. ``gpu (NVIDIA A100)``
    or ``cpu``."""
    first = jax.devices()[0]
    kind = getattr(first, "device_kind", "")
    return f"{first.platform} ({kind})" if kind and first.platform != "cpu" else first.platform


def _forward(params: Params, x: jax.Array, relu: bool) -> jax.Array:
    last = len(params) // 2 - 1
    for k in range(last + 1):
        x = x @ params[2 * k] + params[2 * k + 1]
        if k < last:
            x = jnp.maximum(x, 0.0) if relu else jnp.tanh(x)
    return x


_outputs = jax.jit(_forward, static_argnames="relu")


@partial(jax.jit, static_argnames="relu")
def _gradients(params: Params, x: jax.Array, grad: jax.Array, relu: bool) -> Params:
    _, pullback = jax.vjp(lambda p: _forward(p, x, relu), params)
    grads: Params = pullback(grad)[0]
    return grads


@jax.jit
def _adam(
    params: Params,
    grads: Params,
    m: Params,
    v: Params,
    rate: jax.Array,
    b1: jax.Array,
    b2: jax.Array,
    eps: jax.Array,
    clip: jax.Array,
) -> tuple[Params, Params, Params, jax.Array]:
    """Adam's step as :meth:`Adam.step` takes it (``clip`` <= 0: no clipping)."""
    norm = jnp.sqrt(sum(jnp.vdot(g, g) for g in grads))
    scale = jnp.where((clip > 0) & (norm > clip), clip / norm, 1.0)
    new_p, new_m, new_v = [], [], []
    for p, g, mk, vk in zip(params, grads, m, v, strict=True):
        g = g * scale
        mk = mk * b1 + (1.0 - b1) * g
        vk = vk * b2 + (1.0 - b2) * (g * g)
        new_p.append(p - rate * mk / (jnp.sqrt(vk) + eps))
        new_m.append(mk)
        new_v.append(vk)
    return tuple(new_p), tuple(new_m), tuple(new_v), norm


@jax.jit
def _blend(slow: Params, fast: Params, decay: jax.Array) -> Params:
    return tuple(s * decay + (1.0 - decay) * f for s, f in zip(slow, fast, strict=True))


def _f32(value: float) -> jax.Array:
    return jnp.asarray(value, jnp.float32)


class JaxNetwork:
    """A :class:`~racedeck.rl.network.Learner` whose weights live on JAX's default device
    (see the module); made from NumPy weights (``params``: weights and biases alternating)."""

    def __init__(self, params: Sequence[NDArray[np.float32]], activation: str = "relu") -> None:
        if activation not in ACTIVATIONS:
            raise ValueError(f"unknown activation {activation!r}: {', '.join(ACTIVATIONS)}")
        self.activation = activation
        self._params: Params = tuple(jnp.asarray(np.asarray(p, np.float32)) for p in params)

    @property
    def params(self) -> list[NDArray[np.float32]]:
        """The weights and biases as NumPy arrays (copies from the device)."""
        return [np.array(p, np.float32) for p in self._params]

    @params.setter
    def params(self, values: Sequence[NDArray[np.float32]]) -> None:
        self._params = tuple(jnp.asarray(np.asarray(p, np.float32)) for p in values)

    @property
    def sizes(self) -> list[int]:
        """The layers' widths, inputs first."""
        return [int(self._params[0].shape[0])] + [int(b.shape[0]) for b in self._params[1::2]]

    @property
    def _relu(self) -> bool:
        return self.activation == "relu"

    def forward(self, x: NDArray[np.float32]) -> tuple[NDArray[np.float32], jax.Array]:
        """The outputs for rows ``x`` (NumPy) and the rows on the device, for
        :meth:`backward`."""
        rows = jnp.asarray(np.asarray(x, np.float32))
        return np.asarray(_outputs(self._params, rows, self._relu)), rows

    def predict(self, x: NDArray[np.float32]) -> NDArray[np.float32]:
        """The outputs for rows ``x``."""
        return self.forward(x)[0]

    def backward(self, cache: jax.Array, grad: NDArray[np.float32]) -> Params:
        """The gradients of the weights (on the device) given the outputs' gradient ``grad``
        (summed over rows, as :meth:`Network.backward`)."""
        grads: Params = _gradients(self._params, cache, jnp.asarray(grad, jnp.float32), self._relu)
        return grads

    def update(self, optimiser: Adam, grads: Params) -> float:
        """One step of ``optimiser`` (its settings, step count and moments; the moments kept
        on the device) from :meth:`backward`'s gradients; their norm before clipping."""
        if not optimiser.m:
            optimiser.m = [jnp.zeros_like(p) for p in self._params]
            optimiser.v = [jnp.zeros_like(p) for p in self._params]
        rate = optimiser.advance()
        params, m, v, norm = _adam(
            self._params,
            tuple(grads),
            tuple(jnp.asarray(x) for x in optimiser.m),
            tuple(jnp.asarray(x) for x in optimiser.v),
            _f32(rate),
            _f32(optimiser.beta1),
            _f32(optimiser.beta2),
            _f32(optimiser.eps),
            _f32(optimiser.clip if optimiser.clip is not None else 0.0),
        )
        self._params, optimiser.m, optimiser.v = params, list(m), list(v)
        return float(norm)

    def blend(self, other: Any, decay: float) -> None:
        """``w = decay * w + (1 - decay) * other`` (``other`` a :class:`JaxNetwork`)."""
        if not isinstance(other, JaxNetwork):
            raise TypeError(f"a JaxNetwork blends with another, not {type(other).__name__}")
        self._params = _blend(self._params, other._params, _f32(decay))

    def copy(self) -> JaxNetwork:
        """A network with these weights (arrays on the device are never changed in place, so
        sharing them is a copy)."""
        twin = JaxNetwork.__new__(JaxNetwork)
        twin.activation = self.activation
        twin._params = self._params
        return twin

    def policy(self, game_id: str, config: dict[str, Any], value_head: bool = False) -> MLPPolicy:
        """The network as the NumPy policy that plays it (see :meth:`Network.policy`)."""
        return Network(self.params, self.activation).policy(game_id, config, value_head)
