"""PNG plots of a report, drawn with matplotlib's object API on the Agg canvas.

No pyplot: figures are plain :class:`matplotlib.figure.Figure` objects, so plotting keeps no
global state and needs no display.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, PercentFormatter

__all__ = [
    "PALETTE",
    "Interval",
    "boxes",
    "count_bars",
    "histogram",
    "interval_bars",
]

PALETTE = ("#3b6fb6", "#e07b39", "#4a9a5b", "#c44e52", "#8172b2", "#937860", "#da8bc3", "#8c8c8c")
"""Series colours, in order (colour-blind friendly enough, and distinct in grey print)."""

_DPI = 110
_MAX_LABELLED_BARS = 16


@dataclass(frozen=True, slots=True)
class Interval:
    """A value with its 95% interval."""

    value: float
    low: float
    high: float


def _figure(width: float = 7.5, height: float = 4.2) -> tuple[Figure, Axes]:
    fig = Figure(figsize=(width, height), layout="constrained")
    ax = fig.add_subplot()
    ax.spines[["top", "right"]].set_visible(False)
    ax.grid(axis="y", color="#dddddd", linewidth=0.8)
    ax.set_axisbelow(True)
    return fig, ax


def _save(fig: Figure, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=_DPI)


def _wrap(label: str, width: int = 14) -> str:
    """Break a long tick label into lines so that neighbouring labels do not run together."""
    return "\n".join(
        textwrap.fill(line, width, break_long_words=False) for line in label.split("\n")
    )


def _fmt(value: float, percent: bool) -> str:
    return f"{value:.1%}" if percent else f"{value:.3g}" if abs(value) < 100 else f"{value:.0f}"


def interval_bars(
    path: Path,
    groups: Sequence[str],
    series: Mapping[str, Sequence[Interval]],
    *,
    title: str,
    ylabel: str,
    percent: bool = True,
    reference: float | Sequence[float] | None = None,
    reference_label: str = "fair share",
    xlabel: str = "",
) -> None:
    """Bars with 95% error bars: one bar per group, or grouped bars for several series.

    ``reference`` draws a dashed line (one value for all groups, or one per group) such as the
    fair share; bars are labelled with their value when there are few enough to read.
    """
    k = len(series)
    bars = len(groups) * max(k, 1)
    fig, ax = _figure(7.0 if bars <= 8 else min(12.0, 3.0 + 0.5 * bars))
    width = 0.8 / max(k, 1)
    top = 0.0
    # Values over the bars only where they fit; the table under the figure has them all.
    labelled = k <= 2 and bars <= _MAX_LABELLED_BARS
    for j, (name, values) in enumerate(series.items()):
        xs = [i - 0.4 + width * (j + 0.5) for i in range(len(groups))]
        heights = [v.value for v in values]
        below = [max(0.0, v.value - v.low) for v in values]
        above = [max(0.0, v.high - v.value) for v in values]
        ax.bar(
            xs,
            heights,
            width * 0.92,
            yerr=[below, above],
            capsize=4 if k <= 3 else 2,
            color=PALETTE[j % len(PALETTE)],
            ecolor="#333333",
            label=name if k > 1 else None,
        )
        top = max([top, *(v.high for v in values), *heights])
        if labelled:
            for x, v in zip(xs, values, strict=True):
                ax.annotate(
                    _fmt(v.value, percent),
                    (x, v.high),
                    xytext=(0, 3),
                    textcoords="offset points",
                    ha="center",
                    va="bottom",
                    fontsize=8 if k > 2 else 9,
                )
    if reference is not None:
        refs = [reference] * len(groups) if isinstance(reference, int | float) else reference
        label = reference_label
        if len(set(refs)) == 1:
            ax.axhline(refs[0], color="#555555", linestyle="--", linewidth=1, label=label)
        else:
            for i, r in enumerate(refs):
                ax.hlines(r, i - 0.45, i + 0.45, colors="#555555", linestyles="--", label=label)
                label = "_nolegend_"
        top = max(top, *refs)
    ax.set_xticks(range(len(groups)), [_wrap(g) for g in groups])
    ax.set_xlim(-0.6, len(groups) - 0.4)
    ax.set_ylim(0, top * 1.18 if top > 0 else 1)
    if percent:
        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_title(title)
    ax.set_ylabel(ylabel)
    if xlabel:
        ax.set_xlabel(xlabel)
    if k > 1 or reference is not None:
        labels = [*(series if k > 1 else []), *([reference_label] if reference is not None else [])]
        # One row when it fits the width, else two columns (a cut-off legend reads as nothing).
        ncols = len(labels) if sum(len(t) + 6 for t in labels) <= 11 * fig.get_figwidth() else 2
        fig.legend(frameon=False, fontsize=9, loc="outside lower center", ncols=ncols)
    _save(fig, path)


def boxes(
    path: Path,
    groups: Sequence[str],
    samples: Sequence[Sequence[float]],
    *,
    title: str,
    ylabel: str,
    xlabel: str = "",
) -> None:
    """Box plots (median, quartiles, whiskers at 1.5 IQR, outliers) with the mean as a dot."""
    fig, ax = _figure(max(6.0, min(11.0, 1.5 + 0.9 * len(groups))))
    parts = ax.boxplot(
        [list(s) for s in samples],
        tick_labels=[_wrap(g, 16) for g in groups],
        showmeans=True,
        patch_artist=True,
        widths=0.55,
        meanprops={"marker": "o", "markerfacecolor": "white", "markeredgecolor": "#222222"},
        medianprops={"color": "#222222"},
        flierprops={"marker": ".", "markersize": 3, "alpha": 0.4},
    )
    for i, patch in enumerate(parts["boxes"]):
        patch.set_facecolor(PALETTE[i % len(PALETTE)])
        patch.set_alpha(0.55)
    ax.set_title(title)
    ax.set_ylabel(ylabel)
    if xlabel:
        ax.set_xlabel(xlabel)
    # A figure-level label, so the layout makes room for it below the tick labels.
    fig.supxlabel("box: quartiles · line: median · dot: mean", fontsize=8, color="#555555")
    _save(fig, path)


def count_bars(
    path: Path,
    series: Mapping[str, Mapping[int, float]],
    *,
    title: str,
    xlabel: str,
    ylabel: str = "share of games",
    extra: Mapping[str, float] | None = None,
    extra_label: str = "",
) -> None:
    """The distribution of a whole-number measure as shares, side by side for several series.

    ``series`` maps a name to counts by value; every value between the smallest and the
    largest gets a slot. ``extra`` adds one slot at the left (e.g. "nobody scored"), counted
    against the same totals.
    """
    values = sorted({v for counts in series.values() for v in counts})
    lo, hi = (values[0], values[-1]) if values else (0, 0)
    slots = list(range(lo, hi + 1))
    labels = [str(v) for v in slots]
    offset = 0
    if extra is not None:
        labels = [extra_label, *labels]
        offset = 1
    fig, ax = _figure(max(6.5, min(12.0, 2.0 + 0.28 * len(labels) * max(1, len(series)))))
    k = len(series)
    width = 0.85 / max(k, 1)
    for j, (name, counts) in enumerate(series.items()):
        total = sum(counts.values()) + (extra.get(name, 0.0) if extra else 0.0)
        heights = [counts.get(v, 0) / total if total else 0.0 for v in slots]
        if extra is not None:
            heights = [(extra.get(name, 0.0) / total) if total else 0.0, *heights]
        xs = [i - 0.425 + width * (j + 0.5) for i in range(len(labels))]
        ax.bar(xs, heights, width * 0.95, color=PALETTE[j % len(PALETTE)], label=name)
    step = max(1, len(labels) // 20)
    ax.set_xticks(range(0, len(labels), step), labels[::step])
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if k > 1:
        ax.legend(frameon=False, fontsize=9)
    if extra is not None:
        ax.axvline(offset - 0.5, color="#999999", linewidth=0.8)
    _save(fig, path)


def histogram(
    path: Path,
    series: Mapping[str, Sequence[float]],
    *,
    title: str,
    xlabel: str,
    ylabel: str = "share of games",
    bins: int = 30,
) -> None:
    """Histograms of a measure as shares of each series' games; several series are drawn as
    outlines over a common set of bins so they can be compared."""
    fig, ax = _figure()
    every = [v for vals in series.values() for v in vals]
    lo, hi = (min(every), max(every)) if every else (0.0, 1.0)
    if hi <= lo:
        hi = lo + 1
    whole = all(float(v).is_integer() for v in every)
    if whole:
        # Whole numbers: bins of a whole width starting half below one, so that every bin
        # holds the same count of possible values (uneven bins draw false spikes).
        width = max(1, math.ceil((hi - lo + 1) / bins))
        count = math.ceil((hi - lo + 1) / width)
        edges = [lo - 0.5 + width * i for i in range(count + 1)]
    else:
        edges = [lo + (hi - lo) * i / bins for i in range(bins + 1)]
    several = len(series) > 1
    for j, (name, vals) in enumerate(series.items()):
        if not vals:
            continue
        weights = [1.0 / len(vals)] * len(vals)
        color = PALETTE[j % len(PALETTE)]
        if several:
            ax.hist(
                vals, edges, weights=weights, histtype="step", linewidth=2, color=color, label=name
            )
        else:
            ax.hist(vals, edges, weights=weights, color=color, edgecolor="white", linewidth=0.5)
    ax.xaxis.set_major_locator(MaxNLocator(integer=whole, nbins=12))
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if several:
        ax.legend(frameon=False, fontsize=9)
    _save(fig, path)
