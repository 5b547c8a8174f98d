"""A training run's directory: its checkpoint, policy and curves, each written atomically.

Every trainer (:mod:`racedeck.rl.dmc`, :mod:`racedeck.rl.expert`, :mod:`racedeck.rl.ppo`)
keeps a run as ``checkpoint.npz`` (its settings, counters and curves as JSON beside the
network's weights, their moving average when it keeps one, and Adam's moments),
``policy.npz`` (what plays: :class:`~racedeck.bots.policy.MLPPolicy`) and ``history.jsonl``
(one line per round). A file is written beside its name and renamed over it, so a run stopped
while writing keeps the previous one whole.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from racedeck.bots.policy import MLPPolicy
from racedeck.rl.network import Adam

__all__ = ["CHECKPOINT", "HISTORY", "POLICY", "Checkpoint", "RunSettings", "run_dir", "save_npz"]

CHECKPOINT = "checkpoint.npz"
"""The checkpoint's file in a run's directory."""
POLICY = "policy.npz"
"""The trained policy's file (what plays: ``policy:DIR/policy.npz``)."""
HISTORY = "history.jsonl"
"""The curves' file: one JSON line per round."""


@dataclass(frozen=True)
class RunSettings:
    """What every run has: the game and configuration, its seed and its network's hidden
    layers; as JSON in the checkpoint."""

    game: str
    config: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    hidden: tuple[int, ...] = (256, 256)
    activation: str = "relu"

    def to_json(self) -> dict[str, Any]:
        """The settings as JSON-ready data."""
        data = asdict(self)
        data["hidden"] = list(self.hidden)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Any:
        """Settings written by :meth:`to_json`."""
        return cls(**{**data, "hidden": tuple(data["hidden"])})


def run_dir(out: Path | None) -> Path:
    """A run's directory; :class:`ValueError` for a run made without one."""
    if out is None:
        raise ValueError("this run has no output directory")
    return out


def save_npz(path: Path, arrays: dict[str, Any], compressed: bool = False) -> None:
    """Write ``arrays`` to ``path`` atomically (beside it, then renamed over it)."""
    part = path.with_name(path.name + ".part")
    with part.open("wb") as f:
        if compressed:
            np.savez_compressed(f, **arrays)
        else:
            np.savez(f, **arrays)
    part.replace(path)


@dataclass
class Checkpoint:
    """What a checkpoint holds: ``meta`` (JSON: the settings, counters, curves), the
    network's ``params``, their moving ``average`` (empty when not kept) and Adam's moments."""

    meta: dict[str, Any]
    params: list[NDArray[np.float32]]
    average: list[NDArray[np.float32]]
    m: list[NDArray[np.float32]]
    v: list[NDArray[np.float32]]

    def save(self, out: Path, policy: MLPPolicy, history: list[dict[str, Any]]) -> None:
        """Write the run's directory: the checkpoint, ``policy`` and ``history``."""
        out.mkdir(parents=True, exist_ok=True)
        arrays: dict[str, Any] = {"meta": np.array(json.dumps(self.meta))}
        for prefix, values in (("p", self.params), ("a", self.average), ("m", self.m)):
            arrays.update({f"{prefix}{k}": x for k, x in enumerate(values)})
        arrays.update({f"v{k}": x for k, x in enumerate(self.v)})
        save_npz(out / CHECKPOINT, arrays)
        part = out / (POLICY + ".part")
        policy.save(part)
        part.replace(out / POLICY)
        (out / HISTORY).write_text("".join(json.dumps(entry) + "\n" for entry in history))

    @classmethod
    def of(cls, meta: dict[str, Any], params: list[Any], optimiser: Adam, average: Any = ()) -> Any:
        """The checkpoint of a run now: ``meta`` plus Adam's step count, the weights."""
        return cls(
            {**meta, "adam_steps": optimiser.steps},
            list(params),
            list(average),
            list(optimiser.m),
            list(optimiser.v),
        )

    @classmethod
    def load(cls, out: Path) -> Checkpoint:
        """The checkpoint in ``out``; :class:`ValueError` when there is none."""
        path = out / CHECKPOINT
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))

                def column(prefix: str) -> list[NDArray[np.float32]]:
                    count = sum(
                        1 for name in data.files if name[:1] == prefix and name[1:].isdigit()
                    )
                    return [data[f"{prefix}{k}"] for k in range(count)]

                return cls(meta, column("p"), column("a"), column("m"), column("v"))
        except (OSError, KeyError, ValueError) as exc:
            raise ValueError(f"{path}: no checkpoint to resume ({exc})") from None

    def restore(self, optimiser: Adam) -> None:
        """Give ``optimiser`` the checkpoint's moments and step count."""
        optimiser.m, optimiser.v = list(self.m), list(self.v)
        optimiser.steps = int(self.meta["adam_steps"])
