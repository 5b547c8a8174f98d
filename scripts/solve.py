"""Regenerate ``docs/solved.md``: every small solvable configuration solved by CFR+, and how
far each bot is from its equilibrium.

For each configuration of :data:`racedeck.rl.solvable.CONFIGS`: the size of its game tree,
CFR+ (OpenSpiel's ``CFRPlusSolver``) with the NashConv of its average policy at checkpoints,
the NashConv of every bot playing every seat (:mod:`racedeck.rl.solvable.policies`), and what
the solved policy does (``why_first_lessons``). Writes the page, its JSON and the plot
``docs/solved/convergence.png``.

Usage::

    python scripts/solve.py                          # every configuration, docs/solved.md
    python scripts/solve.py --config why-first-duel-2 --iterations 20 --out /tmp/s.md
    python scripts/solve.py --render                 # the page again from docs/solved.json
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from racedeck.rl.solvable import CONFIGS, find_config, load
from racedeck.rl.solvable.analysis import mixing, tree_size
from racedeck.rl.solvable.policies import BotPolicy, Gap, gap
from racedeck.rl.solvable.setback_lessons import setback_columns
from racedeck.rl.solvable.six_day_race_lessons import race_columns
from racedeck.rl.solvable.solver import solve
from racedeck.rl.solvable.why_first_lessons import duel_columns

ROOT = Path(__file__).resolve().parents[1]
BOTS = ("random", "heuristic", "search@200", "fastsearch@500", "learned")
"""The bots measured: the search budgets are iterations, so each answer is reproducible."""
SEED = 0
FIRST = "first mover's win share"
LESSONS: dict[str, Callable[[Any, Any], dict[str, tuple[float, ...]]]] = {
    "why-first": duel_columns,
    "six-day-race": race_columns,
    "setback": setback_columns,
}
"""What each game's policies are asked, by game (see the modules of the functions)."""
LEGENDS = {
    "why-first": (
        "With one stage, the second distinct space scores its number for every figure on it "
        "(WF-6), and the second-best total wins (WF-7): a figure that scores a positive "
        "number has the best total and loses unless others share it, one that scores a "
        "negative number wins unless every total is equal. 'Leo wins': Leo is among the "
        "winners. The target columns are shares of a seat's decisions (the automatic last "
        "round, WF-5, is not one); 'plus card on self' places a positive card in front of "
        "its own figure."
    ),
    "six-day-race": (
        "'first mover': the player whose rider moves first (SD-4). 'opens with v': the "
        "share of riders' first cards that are a v."
    ),
    "setback": (
        "'first mover': the player who takes the first turn (SB-3). 'blocks when able': "
        "BLOCK answers among the windows that ask a seat holding a BLOCK (SB-9). 'plays': "
        "the card played as the Hand Action (SB-3)."
    ),
}
"""What each game's columns mean, above its table."""


def checkpoints(iterations: int) -> list[int]:
    """Iteration counts where the average policy is measured: 1, 2, 5, 10, 20 … up to
    ``iterations``."""
    marks, base = [], 1
    while base <= iterations:
        marks.extend(m for m in (base, 2 * base, 5 * base) if m <= iterations)
        base *= 10
    return sorted({*marks, iterations})


def run_config(name: str, iterations: int | None, bots: list[str]) -> dict[str, Any]:
    """Solve one configuration and measure every bot on it."""
    config = find_config(name)
    game = load(name)
    started = time.perf_counter()
    size = tree_size(game)
    walked = time.perf_counter() - started
    print(f"{name}: {size.histories} histories, info states {size.info_states} ({walked:.1f} s)")
    count = iterations or config.iterations
    curve: list[dict[str, Any]] = []
    clock = time.perf_counter()

    def heard(mark: int, found: Gap) -> None:
        curve.append(
            {
                "iterations": mark,
                "nash_conv": found.nash_conv,
                "seconds": time.perf_counter() - clock,
            }
        )
        print(f"  CFR+ {mark:4d}: NashConv {found.nash_conv:.6f}", flush=True)

    solution = solve(game, checkpoints(count), heard)
    solved_in = time.perf_counter() - clock
    measured: dict[str, Any] = {}
    teach = LESSONS.get(config.game_id)

    def lessons_of(joint: Any) -> dict[str, tuple[float, ...]]:
        found = {} if teach is None else teach(game, joint)
        return {**found, "mixes": (mixing(game, joint),)}

    lessons = {"CFR+": lessons_of(solution.policy)}
    for bot in bots:
        clock = time.perf_counter()
        try:
            policy = BotPolicy(game, bot, SEED)
        except ValueError as refused:
            measured[bot] = {"refused": str(refused)}
            print(f"  {bot}: {refused}")
            continue
        found = gap(game, policy)
        lessons[bot] = lessons_of(policy)
        seconds = time.perf_counter() - clock
        measured[bot] = {
            "nash_conv": found.nash_conv,
            "improvements": list(found.improvements),
            "seconds": seconds,
        }
        print(f"  {bot}: NashConv {found.nash_conv:.4f} ({seconds:.1f} s)", flush=True)
    return {
        "name": name,
        "summary": config.summary,
        "restriction": config.restriction,
        "options": {k: list(v) if isinstance(v, tuple) else v for k, v in config.options.items()},
        "deals": len(game.deals),
        "histories": size.histories,
        "terminals": size.terminals,
        "info_states": list(size.info_states),
        "walk_seconds": walked,
        "iterations": solution.iterations,
        "solve_seconds": solved_in,
        "curve": curve,
        "equilibrium": {
            "nash_conv": solution.gap.nash_conv,
            "improvements": list(solution.gap.improvements),
        },
        "bots": measured,
        "lessons": {who: {k: list(v) for k, v in found.items()} for who, found in lessons.items()},
    }


def plot(results: list[dict[str, Any]], path: Path) -> None:
    """CFR+'s NashConv by iteration, one panel per configuration, the bots' as lines."""
    from matplotlib.figure import Figure

    from racedeck.report.plots import PALETTE

    cols = min(2, len(results))
    rows = -(-len(results) // cols)
    figure = Figure(figsize=(5.6 * cols, 4.4 * rows), dpi=110, layout="constrained")
    grid = figure.subplots(rows, cols, squeeze=False)
    axes = [ax for row in grid for ax in row]
    for ax in axes[len(results) :]:
        ax.set_visible(False)
    for ax, result in zip(axes, results, strict=False):
        xs = [p["iterations"] for p in result["curve"]]
        ys = [max(p["nash_conv"], 1e-6) for p in result["curve"]]
        ax.plot(xs, ys, marker="o", color="black", label="CFR+ average policy")
        measured = [(b, m) for b, m in result["bots"].items() if "nash_conv" in m]
        # Bots can lie on top of one another: each its own dash as well as its colour.
        dashes = ["--", ":", "-.", (0, (6, 2, 1, 2, 1, 2))]
        for i, (bot, m) in enumerate(measured):
            value = m["nash_conv"]
            colour = PALETTE[i % len(PALETTE)]
            if value < 1e-9:
                # A log axis has no 0: the legend says so instead of a line.
                ax.plot([], [], color=colour, linestyle="none", label=f"{bot}: 0 (not drawn)")
                continue
            ax.axhline(
                value, color=colour, linestyle=dashes[i % len(dashes)], label=f"{bot}: {value:.3f}"
            )
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("CFR+ iterations")
        ax.set_ylabel("NashConv (win share a best response gains)")
        ax.set_title(result["name"])
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize=8, loc="lower left")
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path)


def _at(result: dict[str, Any], who: str, column: str) -> float:
    """A column of ``who``'s lessons, averaged over the seats where it has one a seat."""
    values: list[float] = result["lessons"][who][column]
    return sum(values) / len(values)


def teachings(results: list[dict[str, Any]]) -> list[str]:
    """What the solved policies say about the full games, in sentences built from the
    numbers (a seat's: the mean of the two seats'; each compared with uniform play, the
    ``random`` bot)."""
    out: list[str] = []
    for r in results:
        name, lessons = r["name"], r["lessons"]
        if "CFR+" not in lessons or "random" not in lessons:
            continue
        eq, rnd = "CFR+", "random"
        if name.startswith("why-first"):
            out.append(
                f"- **{name}.** Equilibrium play puts {_pct(_at(r, eq, 'on the opponent'))} of "
                f"a seat's chosen cards in front of the opponent's figure and "
                f"{_pct(_at(r, eq, 'cards on self'))} in front of its own (uniform play: a "
                f"third each). A seat's figure ends on the second space, the one that "
                f"scores (WF-6), in {_pct(_at(r, eq, 'on the scoring space'))} of "
                f"equilibrium games (uniform play: "
                f"{_pct(_at(r, rnd, 'on the scoring space'))}). With one stage, a figure on a "
                f"positive scoring space has the best total and loses (WF-7); the equilibrium "
                f"ends there "
                f"{_pct(_at(r, eq, 'scores +'))} of the time (uniform play: "
                f"{_pct(_at(r, rnd, 'scores +'))}), and on a negative one, which is the "
                f"second-best total and wins unless all tie, "
                f"{_pct(_at(r, eq, 'scores −'))} (uniform play: "
                f"{_pct(_at(r, rnd, 'scores −'))}). Leo is among the winners in "
                f"{_pct(_at(r, eq, 'Leo wins'))} of equilibrium games (uniform play: "
                f"{_pct(_at(r, rnd, 'Leo wins'))}). The equilibrium mixes at "
                f"{_pct(_at(r, eq, 'mixes'))} of the decisions play reaches (no action with "
                f"90% or more): commits are simultaneous (WF-4), so a bot that always "
                f"answers a view with the same card can be read and beaten."
            )
        elif name.startswith("six-day-race"):
            out.append(
                f"- **{name}.** The player who goes first has a "
                f"{_pct(_at(r, eq, FIRST))} share of the win at equilibrium (uniform "
                f"play: {_pct(_at(r, rnd, FIRST))}): "
                + (
                    "going first is a handicap here, where a later rider moves knowing where "
                    "the earlier ones stand and can ride their slipstream (SD-5). "
                    if _at(r, eq, FIRST) < 0.5
                    else "going first is an advantage here. "
                )
                + (
                    "The player who goes second has a winning strategy: whatever the first "
                    "plays loses, so CFR+ leaves such choices mixed and the 'opens with' "
                    "columns say little. "
                    if _at(r, eq, FIRST) < 1e-3
                    else ""
                )
                + "The race has no hidden cards once it starts (every hand is the same, "
                "SD-2, and every card played is seen): it is a game of perfect information, "
                "solved by backward induction as well as by CFR+."
            )
        elif name.startswith("setback"):
            out.append(
                f"- **{name}.** The player who goes first (SB-3) has a "
                f"{_pct(_at(r, eq, FIRST))} share of the win at equilibrium (uniform "
                f"play: {_pct(_at(r, rnd, FIRST))}). A seat asked in a BLOCK window "
                f"with a BLOCK in hand plays it {_pct(_at(r, eq, 'blocks when able'))} of "
                f"the time (uniform play: half)"
                + (
                    ": mostly, not always, so a BLOCK is sometimes worth more kept (SB-9)."
                    if 0.5 < _at(r, eq, "blocks when able") < 0.95
                    else "."
                )
            )
    return out


def bot_findings(results: list[dict[str, Any]]) -> list[str]:
    """Each configuration's bots compared: the closest to an equilibrium, those that are one,
    those a best response exploits more than uniform play."""
    out = []
    for r in results:
        scored = {b: m["nash_conv"] for b, m in r["bots"].items() if "nash_conv" in m}
        if not scored:
            continue
        best = min(scored, key=lambda b: scored[b])
        parts = [f"closest to an equilibrium: `{best}` ({scored[best]:.3f})"]
        exact = [b for b, v in scored.items() if v < 1e-9]
        if exact:
            parts.append("exactly an equilibrium: " + ", ".join(f"`{b}`" for b in exact))
        uniform = scored.get("random")
        if uniform is not None:
            worse = [b for b, v in scored.items() if b != "random" and v > uniform]
            if worse:
                parts.append(
                    "more exploitable than uniform play: " + ", ".join(f"`{b}`" for b in worse)
                )
        out.append(f"- **{r['name']}**: " + "; ".join(parts) + ".")
    return out


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def markdown(results: list[dict[str, Any]], plot_name: str) -> str:
    """The page: configurations, the table, the plot, the lessons."""
    bots = list(BOTS)
    lines = [
        "# Small configurations, solved",
        "",
        "Each game in full is far too large for an exact solution, but small configurations "
        "of it are not. `racedeck.rl.solvable` registers them with OpenSpiel as "
        "`racedeck_solvable` (parameter `config`): the root is an explicit chance node "
        "over every deal with its exact probability, the rest is the racedeck engine, seats "
        "that commit at once (WF-4) act one after another without seeing each other's "
        "face-down choice, and each seat's information state is everything it has seen "
        "(perfect recall). So OpenSpiel's CFR+, best response and NashConv run on them "
        "exactly. `scripts/solve.py` regenerates this page.",
        "",
        "## The configurations",
        "",
    ]
    for r in results:
        lines.append(f"- **{r['name']}** — {r['summary']}.")
        if r["restriction"]:
            lines.append(f"  Restricted: {r['restriction']}")
    lines += [
        "",
        "How the configurations are built:",
        "",
        "- **Chance at the root only.** A deal is enumerated by what a view can tell apart: "
        "card values in *Why First?*'s base game (WF-2), card kinds in Setback, so cards of "
        "one value are one outcome with their probabilities summed; each outcome's "
        "probability is exact (fractions, checked against the engine's shuffle in the "
        "tests). Leo's face-down pile is dealt in the order he flips it (WF-9). A history "
        "where the engine would draw chance of its own (a reshuffle of Setback's discards, "
        "a Six Day Race grey deck of mixed values, a second *Why First?* stage) is refused, "
        "so every configuration is one stage, one race, or a deck long enough.",
        "- **Simultaneous moves one after another.** *Why First?*'s commits (WF-4) and "
        "Setback's BLOCK answers (SB-9) are taken lowest seat first, the later seat not "
        "seeing the earlier choice: its information state is built from its own views, "
        "which hide it. This is OpenSpiel's turn-based conversion, and the equilibria are "
        "the simultaneous game's.",
        "- **Information states** are perfect recall: a seat's view after the deal and after "
        "every action since, with its own actions. The tests check that histories that "
        "differ only in another seat's hand or face-down choice give the same string.",
        "",
        "## Exploitability",
        "",
        "The number is **NashConv** in win shares: for the profile where every seat plays "
        "the same policy, the sum over the two seats of what that seat alone would gain in "
        "expected share of the win by switching to a best response against the other. It "
        "is 0 at a Nash equilibrium, and it is computed exactly over every deal and "
        "history. A share of the win is 1 for a lone winner, 1/k for one of k winners; Leo "
        "(WF-9) can win alone, so that game is not constant-sum and NashConv, not "
        "OpenSpiel's `exploitability`, is the measure (in the constant-sum race and "
        "Setback, `exploitability` is NashConv / 2). Bots play from their seat's view: "
        "`heuristic` and the searches (seed 0, budgets in iterations) with probability 1 "
        "on their choice, `random` uniformly.",
        "",
        "| configuration | deals | histories | information states (P1, P2) | CFR+ iterations "
        "(time) | CFR+ NashConv | " + " | ".join(bots) + " |",
        "|---|---:|---:|---|---:|---:|" + "---:|" * len(bots),
    ]
    for r in results:
        cells = []
        for bot in bots:
            m = r["bots"].get(bot)
            cells.append("—" if m is None or "nash_conv" not in m else f"{m['nash_conv']:.4f}")
        lines.append(
            f"| {r['name']} | {r['deals']} | {r['histories']:,} | "
            f"{', '.join(map(str, r['info_states']))} | "
            f"{r['iterations']} ({r['solve_seconds']:.0f} s) | "
            f"{r['equilibrium']['nash_conv']:.4f} | " + " | ".join(cells) + " |"
        )
    if any("refused" in m for r in results for m in r["bots"].values()):
        lines += ["", "A dash: no shipped policy of the bot fits the configuration (see Limits)."]
    lines += [
        "",
        f"![CFR+ NashConv by iteration, bots as dashed lines](solved/{plot_name})",
        "",
        "## What the equilibrium does",
        "",
        "Every number is a probability over the deals and the play of both seats; where a "
        "column holds two, they are P1 / P2. 'mixes' is how often a decision that play "
        "reaches (and that has a choice) gives no action 90% or more. An equilibrium need "
        "not be unique: a bot whose NashConv is 0 plays one too, and where its columns "
        "differ from CFR+'s the game leaves the choice free.",
        "",
    ]
    lines += ["### What they teach", "", *teachings(results), ""]
    lines += ["### The bots", "", *bot_findings(results), ""]
    lines += [
        "A deterministic bot (every bot here but `random`) is a pure strategy. In the "
        "*Why First?* duels, where the seats commit at once (WF-4) and the equilibrium "
        "mixes, none of the bots comes near CFR+'s NashConv. Where little is hidden (the "
        "race; Setback's sprint, whose BLOCK answers a pure strategy can get right), a "
        "search of a few hundred iterations plays an equilibrium.",
        "",
        "### For the full games",
        "",
        "- *Why First?*: playing for second place (WF-7) shows in where the cards go. The "
        "solved duels put 40–55% of their chosen cards in front of the opponent's figure, "
        "far less in front of their own, and keep their own figure off a positive scoring "
        "space much more than uniform play does. They also mix: commits are simultaneous, "
        "so a bot that always plays its best-rated card to a view can be read — in both "
        "duels the heuristic, which does, is more exploitable than uniform play. With two "
        "players, equilibrium play also keeps Leo from winning far more often than uniform "
        "play does (WF-9): both seats gain from that.",
        "- *Six Day Race*: on a short track, moving last decides the race — the second "
        "player wins with correct play. Whether that holds over a full lap with two sprints "
        "is not shown here; SD-11's reseating (the last of a race goes first in the next) "
        "is what makes the question matter.",
        "- *Setback*: on a one-row board the first turn is worth about three wins in four, "
        "and a BLOCK is played in most, not all, of the windows where it can be.",
        "",
    ]
    for r in results:
        if not r["lessons"]:
            continue
        columns = list(next(iter(r["lessons"].values())))
        legend = LEGENDS.get(find_config(r["name"]).game_id)
        lines += [f"### {r['name']}", "", *([legend, ""] if legend else [])]
        lines += [
            "| play | " + " | ".join(columns) + " |",
            "|---|" + "---:|" * len(columns),
        ]
        for who, found in r["lessons"].items():
            cells = [" / ".join(_pct(x) for x in found[c]) for c in columns]
            lines.append(f"| {who} | " + " | ".join(cells) + " |")
        lines.append("")
    lines += [
        "## Limits",
        "",
        "- The full games are far beyond this: the four hands of one stage of four-player "
        "*Why First?* alone can be dealt from the 32-card deck in about 2.6 × 10^18 ways. "
        "What carries over is the direction of the lessons above, not their numbers.",
        "- *Why First?* with two players adds Leo (WF-9), who can win alone, so the game is "
        "general-sum: CFR+ is not guaranteed to reach a Nash equilibrium there, and the "
        "NashConv it reaches is the certificate of how close it came.",
        "- `learned` plays none of these configurations: the shipped policies are for four "
        "players (*Why First?*, Six Day Race) or Setback's standard deck and board, whose "
        "observations and actions are sized otherwise.",
        "- Bots are measured as deterministic policies (one search per view, seed fixed); a "
        "search that reseeds every move plays a mixture, which may be less exploitable.",
        "",
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    """Parse the options, solve, write the page, its JSON and the plot."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", action="append", help="a configuration (default: all)")
    parser.add_argument("--iterations", type=int, help="CFR+ iterations (default: each's own)")
    parser.add_argument("--bots", default=",".join(BOTS), help="comma-separated bot names")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "solved.md")
    parser.add_argument(
        "--render",
        action="store_true",
        help="solve nothing: write the page and the plot again from the JSON beside --out",
    )
    args = parser.parse_args()
    out: Path = args.out
    if args.render:
        results = json.loads(out.with_suffix(".json").read_text())
    else:
        names = args.config or [c.name for c in CONFIGS]
        bots = [b for b in args.bots.split(",") if b]
        results = [run_config(name, args.iterations, bots) for name in names]
    plot_name = "convergence.png"
    plot(results, out.parent / out.stem / plot_name)
    out.write_text(markdown(results, plot_name))
    out.with_suffix(".json").write_text(json.dumps(results, indent=1) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
