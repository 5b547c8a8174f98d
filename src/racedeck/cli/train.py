"""``racedeck train``: train a game's agent by self-play, with progress, curves and resume."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from racedeck.cli.console import console, err_console, fail
from racedeck.cli.options import GameArgument, OptionsOption, PlayersOption, game_config

if TYPE_CHECKING:
    from racedeck.rl.evaluation import Evaluation

__all__ = ["plot_curve", "train"]

METHODS = ("ppo", "expert", "dmc")
"""The training methods, the default first (docs/learned.md says why)."""


def train(
    game: GameArgument,
    players: PlayersOption = None,
    option: OptionsOption = None,
    method: Annotated[
        str,
        typer.Option(
            help="ppo: imitate the heuristic bot, then PPO against it; "
            "expert: imitate it, then learn the compiled search's decisions; "
            "dmc: Deep Monte-Carlo self-play, started from the heuristic's play"
        ),
    ] = "ppo",
    minutes: Annotated[float, typer.Option(help="wall time to train for")] = 60.0,
    rounds: Annotated[
        int | None,
        typer.Option(help="stop after this many rounds in all (the same run on any machine)"),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(help="the run's directory (default: runs/GAME-pN-METHOD-sSEED)"),
    ] = None,
    seed: Annotated[int, typer.Option(help="the run's seed: the same seed, the same run")] = 0,
    resume: Annotated[
        bool, typer.Option("--resume", help="go on with the run saved in --out")
    ] = False,
    hidden: Annotated[str, typer.Option(help="hidden layers' widths")] = "256,256",
    envs: Annotated[int, typer.Option(help="dmc, ppo: games played side by side")] = 256,
    horizon: Annotated[
        int, typer.Option(help="ppo: the learner's decisions per game and round")
    ] = 64,
    entropy: Annotated[
        float,
        typer.Option(help="ppo: the entropy bonus's weight (larger keeps the policy exploring)"),
    ] = 0.003,
    opponents: Annotated[
        str,
        typer.Option(
            help="ppo: who plays the other seats: heuristic or random (compiled, fast), or any "
            "bot (e.g. fastsearch@500, the search at its default budget; played by the engine), "
            "or several joined by + taking the games in turn (fastsearch@500+heuristic)"
        ),
    ] = "heuristic",
    epochs: Annotated[int, typer.Option(help="ppo: passes over each round's decisions")] = 2,
    minibatch: Annotated[int, typer.Option(help="ppo: decisions per update")] = 2048,
    round_steps: Annotated[int, typer.Option(help="dmc: steps of every game per round")] = 400,
    warm_rounds: Annotated[
        int, typer.Option(help="dmc: rounds handing the play from the heuristic to the network")
    ] = 20,
    teacher_iterations: Annotated[
        int, typer.Option(help="expert: the search's iterations per decision")
    ] = 300,
    chunk_games: Annotated[int, typer.Option(help="expert: games searched per round")] = 16,
    warm_samples: Annotated[
        int, typer.Option(help="expert, ppo: heuristic decisions imitated first")
    ] = 2_000_000,
    eval_games: Annotated[
        int, typer.Option(help="games against the heuristic bot after each round")
    ] = 2000,
    workers: Annotated[
        int | None,
        typer.Option(
            help="expert: processes searching; ppo against bots played by the engine: processes "
            "playing their games (default: one per core; 0: none, all in this one)"
        ),
    ] = None,
    init: Annotated[
        Path | None,
        typer.Option(
            help="expert, ppo: start from this saved policy (e.g. the shipped learned bot's "
            "file) instead of imitating the heuristic"
        ),
    ] = None,
    backend: Annotated[
        str,
        typer.Option(
            help="where the network learns: numpy, jax (JAX's default device: a GPU when it "
            "has one) or auto (jax when a GPU build of JAX is installed, else numpy)"
        ),
    ] = "auto",
    ship: Annotated[
        bool,
        typer.Option("--ship", help="at the end, make the policy the game's shipped learned bot"),
    ] = False,
) -> None:
    """Train an agent for GAME by self-play and save it as a policy bot (``policy:PATH``).

    Every round prints the samples learned, their speed, the loss and the policy's share of
    the win against the heuristic bot (with its 95% interval); the run's directory keeps the
    checkpoint (after every round), the policy (policy.npz), the curves (history.jsonl,
    curve.png). Stopped with Ctrl-C, a run goes on with --resume exactly as if never stopped.
    """
    from racedeck.rl.dmc import DMCSettings, DMCTrainer
    from racedeck.rl.expert import ExpertSettings, ExpertTrainer
    from racedeck.rl.network import describe_backend, resolve_backend
    from racedeck.rl.ppo import PPOSettings, PPOTrainer

    if method not in METHODS:
        raise fail(f"--method {method!r} is not one of: {', '.join(METHODS)}")
    try:
        config = game_config(game, option or [], players=players)
        widths = tuple(int(w) for w in hidden.split(","))
    except ValueError as exc:
        raise fail(str(exc)) from exc
    try:
        backend = resolve_backend(backend)
    except ValueError as exc:
        raise fail(str(exc)) from exc
    count = config.get("players", "")
    processes = workers if workers is not None else os.cpu_count() or 1
    out = out or Path("runs") / f"{game}-p{count}-{method}-s{seed}"
    trainer: Any
    if resume:
        try:
            if method == "dmc":
                trainer = DMCTrainer.resume(out, backend)
            else:
                trainer = (
                    ExpertTrainer.resume(out, backend=backend)
                    if method == "expert"
                    else PPOTrainer.resume(out, workers=processes, backend=backend)
                )
        except ValueError as exc:
            raise fail(str(exc)) from exc
        err_console.print(f"Resuming {out} after {len(trainer.history)} rounds.")
    elif (out / "checkpoint.npz").exists():
        raise fail(f"{out} holds a run already: --resume to go on with it, or another --out")
    elif method != "ppo" and opponents != "heuristic":
        raise fail("--opponents sets ppo runs' opponents only")
    elif method == "dmc":
        settings = DMCSettings(
            game, config, seed=seed, hidden=widths, envs=envs, round_steps=round_steps,
            warm_rounds=warm_rounds, eval_games=eval_games,
        )  # fmt: skip
        trainer = DMCTrainer(settings, out, backend)
    elif method == "expert":
        expert = ExpertSettings(
            game, config, seed=seed, hidden=widths, teacher_iterations=teacher_iterations,
            chunk_games=chunk_games, warm_samples=warm_samples, eval_games=eval_games,
        )  # fmt: skip
        trainer = ExpertTrainer(expert, out, backend)
    else:
        ppo = PPOSettings(
            game, config, seed=seed, hidden=widths, warm_samples=warm_samples,
            eval_games=eval_games, envs=envs, horizon=horizon, entropy=entropy,
            opponents=opponents, epochs=epochs, minibatch=minibatch,
        )  # fmt: skip
        try:
            trainer = PPOTrainer(ppo, out, workers=processes, backend=backend)
        except ValueError as exc:
            raise fail(str(exc)) from exc
    if init is not None and not resume:
        from racedeck.bots.policy import MLPPolicy

        if method == "dmc":
            raise fail("--init starts expert and ppo runs only")
        try:
            trainer.start_from(MLPPolicy.load(init))
        except ValueError as exc:
            raise fail(str(exc)) from exc

    console.print(f"Learning on {describe_backend(backend)}.", highlight=False)

    def report(stats: Any, evaluation: Evaluation | None) -> None:
        done = len(trainer.history)
        speed = stats.samples / stats.seconds if stats.seconds > 0 else 0.0
        line = (
            f"round {done:>4}  {trainer.samples:>12,} samples  {speed:>9,.0f}/s  "
            f"loss {getattr(stats, 'loss', getattr(stats, 'policy_loss', 0.0)):.4f}"
        )
        if trainer.history[-1].get("games"):
            line += f"  won {trainer.history[-1]['won']:6.1%} of {trainer.history[-1]['games']}"
        if evaluation is not None:
            line += (
                f"  vs heuristic {evaluation.share:6.1%} "
                f"[{100 * evaluation.low:.1f}, {100 * evaluation.high:.1f}]"
                f" (equal {evaluation.fair:.0%})"
            )
        console.print(line, highlight=False)

    try:
        if method == "dmc":
            trainer.train(seconds=60.0 * minutes, rounds=rounds, report=report)
        elif method == "ppo":
            trainer.train(seconds=60.0 * minutes, chunks=rounds, report=report)
        else:
            trainer.train(seconds=60.0 * minutes, chunks=rounds, workers=workers, report=report)
    except KeyboardInterrupt:
        err_console.print(
            f"[yellow]Stopped.[/] {len(trainer.history)} rounds are saved in {out}; "
            f"go on with: racedeck train {game} --method {method} --out {out} --resume"
        )
        raise typer.Exit(130) from None
    finally:
        if method == "ppo":
            trainer.close()
        if trainer.history:
            plot_curve(trainer.history, out / "curve.png", f"{game} {config}")
    console.print(f"Policy: {out / 'policy.npz'} — play it as policy:{out / 'policy.npz'}")
    if ship:
        from racedeck.bots.learned import ship as ship_policy
        from racedeck.bots.policy import MLPPolicy

        shipped = ship_policy(MLPPolicy.load(out / "policy.npz"))
        console.print(f"Shipped as the learned bot: {shipped}")


def plot_curve(history: list[dict[str, Any]], path: Path, title: str) -> None:
    """The share of the win against the heuristic bot over samples learned, with its 95%
    band and equal play's share, as a PNG."""
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter

    points = [(h["total_samples"], h["eval"]) for h in history if "eval" in h]
    if not points:
        return
    x = [p[0] for p in points]
    fig = Figure(figsize=(7, 4), dpi=110)
    ax = fig.add_subplot()
    ax.plot(x, [100 * e["share"] for _, e in points], color="#1f6f8b", label="trained policy")
    ax.fill_between(
        x,
        [100 * e["low"] for _, e in points],
        [100 * e["high"] for _, e in points],
        color="#1f6f8b",
        alpha=0.2,
        linewidth=0,
        label="95% interval",
    )
    ax.axhline(100 * points[0][1]["fair"], color="#999", linestyle="--", label="equal play")
    ax.set_xlabel("decisions learned")
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v / 1e6:g} M" if v else "0"))
    ax.set_ylabel("share of the win vs heuristic (%)")
    ax.set_title(title)
    ax.legend(loc="lower right")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
