"""PNG plots of a report, drawn with matplotlib's object API on the Agg canvas.

No pyplot: figures are plain :class:`matplotlib.figure.Figure` objects, so plotting keeps no
global state and needs no display.

Distributions show their bulk: a few far values would stretch the axis until the rest is a
handful of bars, so :func:`bulk_range` cuts each tail at the 1st and 99th percentile when it
reaches farther than a quarter of the bulk's width beyond it. What lies beyond is gathered in one
overflow bar at that end (``≥25``), drawn on a grey band and noted on the plot; the plots return
these :class:`Overflow` s so that captions can say the same in words.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

# matplotlib is imported where a plot is drawn: the findings use this module's data classes
# (Overflow, Interval), and importing matplotlib costs half a second to everyone who reads them.
if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "PALETTE",
    "TAIL_QUANTILE",
    "Interval",
    "Overflow",
    "bands",
    "boxes",
    "bulk_range",
    "count_bars",
    "histogram",
    "interval_bars",
]

PALETTE = ("#3b6fb6", "#e07b39", "#4a9a5b", "#c44e52", "#8172b2", "#937860", "#da8bc3", "#8c8c8c")
"""Series colours, in order (colour-blind friendly enough, and distinct in grey print)."""

_DPI = 110
_MAX_LABELLED_BARS = 16

TAIL_QUANTILE = 0.99
"""Distribution plots show each value up to this quantile (and down from ``1 - TAIL_QUANTILE``)
in its own bar when the values beyond reach far (see :func:`bulk_range`)."""

_LONG_TAIL = 0.25
"""A tail is cut when it reaches farther than this share of the bulk's width beyond it."""

_OVERFLOW_BAND = "#ececec"


@dataclass(frozen=True, slots=True)
class Interval:
    """A value with its 95% interval."""

    value: float
    low: float
    high: float


@dataclass(frozen=True, slots=True)
class Overflow:
    """Values gathered into one bar at an end of a distribution plot.

    ``side`` is ``"above"`` or ``"below"``; ``cut`` the last value that has a bar of its own on
    that side; ``count`` how many observations the bar holds, ``share`` their share of all, and
    ``extreme`` the farthest of them. ``label`` is the bar's tick label (``≥25``).
    """

    side: str
    cut: float
    count: float
    share: float
    extreme: float
    label: str

    def note(self, unit: str = "games") -> str:
        """``3 games above 24 (up to 39) are gathered in the ≥25 bar.``"""
        what = _singular(unit) if self.count == 1 else unit
        return (
            f"{_number(self.count)} {what} {self.side} {_number(self.cut)} "
            f"({'down' if self.side == 'below' else 'up'} to "
            f"{_number(self.extreme)}) {'is' if self.count == 1 else 'are'} gathered in the "
            f"{self.label} bar."
        )


def _singular(unit: str) -> str:
    """``games of all decks`` → ``game of all decks``; ``series`` stays ``series``."""
    first, _, rest = unit.partition(" ")
    if first.endswith("s") and not first.endswith("series"):
        first = first[:-1]
    return f"{first} {rest}" if rest else first


def _number(x: float) -> str:
    return f"{x:,.0f}" if float(x).is_integer() else f"{x:,.3g}"


def _quantile(counts: Sequence[tuple[float, float]], q: float) -> float:
    """The nearest-rank ``q`` quantile of values given as sorted ``(value, count)`` pairs."""
    total = sum(c for _, c in counts)
    rank = max(1.0, math.ceil(q * total - 1e-9))
    seen = 0.0
    for value, c in counts:
        seen += c
        if seen >= rank:
            return value
    return counts[-1][0]


def bulk_range(counts: Mapping[float, float]) -> tuple[float | None, float | None]:
    """Where a distribution plot cuts its tails: ``(low, high)``, each ``None`` when uncut.

    ``counts`` maps values to how often they occur. The bulk runs from the 1st to the 99th
    percentile (nearest rank, :data:`TAIL_QUANTILE`); a tail is cut at its percentile when its
    farthest value lies more than a quarter of the bulk's width beyond it, so that a few far
    values do not squeeze the rest of the plot. A short tail keeps every value on the axis.
    """
    pairs = sorted((float(v), float(c)) for v, c in counts.items() if c > 0)
    if len(pairs) < 3:
        return None, None
    low = _quantile(pairs, 1 - TAIL_QUANTILE)
    high = _quantile(pairs, TAIL_QUANTILE)
    reach = _LONG_TAIL * max(high - low, 1.0)
    cut_low = low if low - pairs[0][0] > reach else None
    cut_high = high if pairs[-1][0] - high > reach else None
    return cut_low, cut_high


def _overflows(
    every: Mapping[float, float], low: float | None, high: float | None, step: float
) -> list[Overflow]:
    """The overflow bars at the cuts of :func:`bulk_range`, for ``every`` series' counts by
    value together; ``step`` is 1 for whole numbers (labels ``≥25``) and 0 for measures on a
    continuous scale (``>2.5``)."""
    out = []
    total = sum(every.values())
    for side, cut in (("below", low), ("above", high)):
        if cut is None:
            continue
        beyond = {v: c for v, c in every.items() if (v < cut if side == "below" else v > cut)}
        count = sum(beyond.values())
        if not count:
            continue
        extreme = min(beyond) if side == "below" else max(beyond)
        if step:  # whole numbers: the bar starts at the next value
            edge = cut - step if side == "below" else cut + step
            label = f"≤{_number(edge)}" if side == "below" else f"≥{_number(edge)}"
        else:
            label = f"<{_number(cut)}" if side == "below" else f">{_number(cut)}"
        out.append(Overflow(side, cut, count, count / total if total else 0.0, extreme, label))
    return out


def _mark_overflows(
    ax: Axes, overflows: Sequence[Overflow], spans: Sequence[float], unit: str
) -> None:
    """Grey bands behind the overflow bars (``spans`` holds each band's centre and the bar
    width: left band first) and one note in the corner that says what they hold."""
    width = spans[-1]
    notes = []
    for o, centre in zip(overflows, spans[:-1], strict=False):
        ax.axvspan(centre - width / 2, centre + width / 2, color=_OVERFLOW_BAND, zorder=0)
        notes.append(o.note(unit))
    ax.text(
        0.99,
        0.97,
        "\n".join(textwrap.fill(n, 44) for n in notes),
        transform=ax.transAxes,
        ha="right",
        va="top",
        fontsize=8,
        color="#444444",
        bbox={"facecolor": "white", "edgecolor": "#cccccc", "boxstyle": "round,pad=0.4"},
    )


def _percent_axis(ax: Axes) -> None:
    """Shares as percentages on ticks at whole steps (1, 2, 5, 10 …: no 2.5% shown as 2%)."""
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    ax.yaxis.set_major_locator(MaxNLocator(nbins="auto", steps=[1, 2, 5, 10]))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{round(x * 100, 6):g}%"))


def _figure(width: float = 7.5, height: float = 4.2) -> tuple[Figure, Axes]:
    from matplotlib.figure import Figure

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
        _percent_axis(ax)
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
    unit: str = "games",
    extra: Mapping[str, float] | None = None,
    extra_label: str = "",
    tick: str = "{}",
    shares: bool = False,
    notes: Mapping[int, str] | None = None,
    whole: bool = False,
) -> list[Overflow]:
    """The distribution of a whole-number measure as shares, side by side for several series.

    ``series`` maps a name to counts by value; every value between the smallest and the
    largest gets a slot, up to the tails :func:`bulk_range` cuts, which go to overflow bars
    (returned). ``whole=True`` keeps every value (for a few categories that all matter).
    ``extra`` adds one slot at the left (e.g. "nobody scored"), counted against the same
    totals. ``tick`` formats a value's label (``"×{}"``); ``shares`` writes each bar's share
    above it (one series only); ``notes`` writes a line of words above the bar of a value.
    ``unit`` names what is counted in the overflow note (games, series, stages).
    """
    every: dict[float, float] = {}
    for counts in series.values():
        for v, c in counts.items():
            every[v] = every.get(v, 0.0) + c
    low, high = (None, None) if whole else bulk_range(every)
    values = sorted(v for v in every if every[v] > 0) or [0]
    lo = int(values[0] if low is None else low)
    hi = int(values[-1] if high is None else high)
    overflows = _overflows(every, low, high, 1)
    below = next((o for o in overflows if o.side == "below"), None)
    above = next((o for o in overflows if o.side == "above"), None)
    slots: list[tuple[int, int]] = []  # (first, last) value of each slot
    if below is not None:
        slots.append((int(values[0]), lo - 1))
    slots += [(v, v) for v in range(lo, hi + 1)]
    if above is not None:
        slots.append((hi + 1, int(values[-1])))
    labels = [tick.format(a) for a, _ in slots]
    if below is not None:
        labels[0] = below.label
    if above is not None:
        labels[-1] = above.label
    offset = 0
    if extra is not None:
        labels = [extra_label, *labels]
        offset = 1
    fig, ax = _figure(max(6.5, min(12.0, 2.0 + 0.28 * len(labels) * max(1, len(series)))))
    k = len(series)
    width = 0.85 / max(k, 1)
    top = 0.0
    for j, (name, counts) in enumerate(series.items()):
        total = sum(counts.values()) + (extra.get(name, 0.0) if extra else 0.0)
        heights = [
            sum(c for v, c in counts.items() if a <= v <= b) / total if total else 0.0
            for a, b in slots
        ]
        if extra is not None:
            heights = [(extra.get(name, 0.0) / total) if total else 0.0, *heights]
        xs = [i - 0.425 + width * (j + 0.5) for i in range(len(labels))]
        ax.bar(xs, heights, width * 0.95, color=PALETTE[j % len(PALETTE)], label=name)
        top = max(top, *heights)
        if shares and k == 1:
            for x, h in zip(xs, heights, strict=True):
                if h > 0:
                    ax.annotate(
                        f"{h:.1%}" if h >= 0.001 else "<0.1%",
                        (x, h),
                        xytext=(0, 2),
                        textcoords="offset points",
                        ha="center",
                        va="bottom",
                        fontsize=8,
                    )
    for value, words in (notes or {}).items():
        slot = next((i for i, (a, b) in enumerate(slots) if a <= value <= b), None)
        if slot is None:
            continue
        x = slot + offset
        height = max(
            (sum(c for v, c in counts.items() if v == value) / (sum(counts.values()) or 1))
            for counts in series.values()
        )
        right = x > len(labels) / 2
        ax.annotate(
            textwrap.fill(words, 26),
            (x, height),
            xytext=(-8 if right else 8, 48),
            textcoords="offset points",
            ha="right" if right else "left",
            va="bottom",
            fontsize=8,
            color="#333333",
            # The line stops short of the bar, above the share written on it.
            arrowprops={"arrowstyle": "-", "color": "#777777", "linewidth": 0.8, "shrinkB": 14},
        )
    step = max(1, len(labels) // 20)
    ticks = list(range(0, len(labels), step))
    if len(labels) - 1 not in ticks and (below or above):
        ticks.append(len(labels) - 1)  # the overflow bar always names its range
    ax.set_xticks(ticks, [labels[i] for i in ticks])
    _percent_axis(ax)
    ax.set_ylim(0, max(top, 0.01) * (1.35 if notes or overflows else 1.12))
    ax.set_title(title)
    ax.set_xlabel(_wrap(xlabel, int(11 * fig.get_figwidth())))
    ax.set_ylabel(ylabel)
    if k > 1:  # the overflow note takes the upper right corner when there is one
        ax.legend(frameon=False, fontsize=9, loc="upper left" if overflows else "upper right")
    if extra is not None:
        ax.axvline(offset - 0.5, color="#999999", linewidth=0.8)
    if overflows:
        centres = [offset if o.side == "below" else len(labels) - 1 for o in overflows]
        _mark_overflows(ax, overflows, [*centres, 1.0], unit)
    _save(fig, path)
    return overflows


def histogram(
    path: Path,
    series: Mapping[str, Sequence[float]],
    *,
    title: str,
    xlabel: str,
    ylabel: str = "share of games",
    unit: str = "games",
    bins: int = 30,
) -> list[Overflow]:
    """Histograms of a measure as shares of each series' games; several series are drawn as
    outlines over a common set of bins so they can be compared. Tails that
    :func:`bulk_range` cuts go to an overflow bin at that end (returned)."""
    fig, ax = _figure()
    every: dict[float, float] = {}
    for vals in series.values():
        for v in vals:
            every[float(v)] = every.get(float(v), 0.0) + 1
    cut_low, cut_high = bulk_range(every)
    lo, hi = (min(every), max(every)) if every else (0.0, 1.0)
    lo = lo if cut_low is None else cut_low
    hi = hi if cut_high is None else cut_high
    if hi <= lo:
        hi = lo + 1
    whole = all(float(v).is_integer() for v in every)
    if whole:
        # Whole numbers: bins of a whole width starting half below one, so that every bin
        # holds the same count of possible values (uneven bins draw false spikes).
        width = float(max(1, math.ceil((hi - lo + 1) / bins)))
        count = math.ceil((hi - lo + 1) / width)
        edges = [lo - 0.5 + width * i for i in range(count + 1)]
    else:
        width = (hi - lo) / bins
        edges = [lo + width * i for i in range(bins + 1)]
    # The cuts move to the bin edges, so that no bin is split between the bulk and a tail.
    step = 1.0 if whole else 0.0
    first_shown = edges[0] + 0.5 if whole else edges[0]
    last_shown = edges[-1] - 0.5 if whole else edges[-1]
    overflows = _overflows(
        every,
        first_shown if cut_low is not None else None,
        last_shown if cut_high is not None else None,
        step,
    )
    below = any(o.side == "below" for o in overflows)
    above = any(o.side == "above" for o in overflows)
    if below:
        edges = [edges[0] - width, *edges]
    if above:
        edges = [*edges, edges[-1] + width]
    several = len(series) > 1
    for j, (name, vals) in enumerate(series.items()):
        if not vals:
            continue
        # Values beyond a cut are drawn in the overflow bin at that end.
        shown = [
            edges[0] + width / 2
            if below and v < first_shown
            else edges[-1] - width / 2
            if above and v > last_shown
            else v
            for v in vals
        ]
        weights = [1.0 / len(vals)] * len(vals)
        color = PALETTE[j % len(PALETTE)]
        if several:
            ax.hist(
                shown, edges, weights=weights, histtype="step", linewidth=2, color=color, label=name
            )
        else:
            ax.hist(shown, edges, weights=weights, color=color, edgecolor="white", linewidth=0.5)
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=whole, nbins=12))
    if overflows:
        centres = [
            edges[0] + width / 2 if o.side == "below" else edges[-1] - width / 2 for o in overflows
        ]
        # Inner ticks keep clear of the overflow labels, which are wider than a number.
        clear = (edges[-1] - edges[0]) / 12
        inner = [
            t
            for t in ax.get_xticks()
            if edges[0] + width <= t <= edges[-1] - width
            and all(abs(t - c) >= clear for c in centres)
        ]
        ticks, labels = list(inner), [_number(t) for t in inner]
        for o, centre in zip(overflows, centres, strict=True):
            ticks.append(centre)
            labels.append(o.label)
        ax.set_xticks(ticks, labels)
        ax.set_xlim(edges[0] - width / 2, edges[-1] + width / 2)
        _mark_overflows(ax, overflows, [*centres, width], unit)
    _percent_axis(ax)
    ax.set_ylim(0, ax.get_ylim()[1] * (1.25 if overflows else 1.0))
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if several:
        ax.legend(frameon=False, fontsize=9, loc="upper left" if overflows else "best")
    _save(fig, path)
    return overflows


def bands(
    path: Path,
    series: Mapping[str, Sequence[tuple[float, Interval]]],
    *,
    title: str,
    xlabel: str,
    ylabel: str,
    percent: bool = True,
    reference: float | None = None,
    reference_label: str = "",
) -> None:
    """Lines of means with their 95% interval as a shaded band, one per series.

    ``series`` maps a name to ``(x, interval)`` points in order of ``x``; ``reference`` draws a
    dashed line (such as a fair share) across the plot.
    """
    fig, ax = _figure()
    for j, (name, points) in enumerate(series.items()):
        if not points:
            continue
        color = PALETTE[j % len(PALETTE)]
        xs = [x for x, _ in points]
        ax.fill_between(
            xs, [v.low for _, v in points], [v.high for _, v in points], color=color, alpha=0.2
        )
        # Dots mark the points while they are few enough to tell apart.
        ax.plot(
            xs,
            [v.value for _, v in points],
            color=color,
            linewidth=2,
            marker="o" if len(points) <= 40 else None,
            markersize=3,
            label=name,
        )
    if reference is not None:
        ax.axhline(reference, color="#555555", linestyle="--", linewidth=1, label=reference_label)
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=12))
    if percent:
        _percent_axis(ax)
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend(frameon=False, fontsize=9, loc="best")
    # A figure-level label, so the layout makes room for it below the axis label.
    fig.supxlabel("line: mean · band: its 95% interval", fontsize=8, color="#555555")
    _save(fig, path)
