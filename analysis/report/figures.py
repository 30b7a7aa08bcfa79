"""Matplotlib helpers of the report: a headless figure, the labelling check and PNG encoding,
error bars from interval ends, bars of estimates with their CIs."""

from __future__ import annotations

import io
from dataclasses import dataclass, field

DPI = 110


@dataclass
class FigureInfo:
    """One rendered figure: its PNG bytes and what a reader (or a test) needs to know."""
    name: str                 # file stem, unique within the report
    title: str
    caption: str
    axes: list[dict]          # per data axes: {"title", "xlabel", "ylabel"}
    legend: list[str]         # legend entries (all legends of the figure)
    png: bytes = field(repr=False, default=b"")
    width: int = 0
    height: int = 0
    path: str | None = None   # where write_report put the PNG


def new_figure(width: float, height: float):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    fig = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def finish(fig, name: str, caption: str, data_axes) -> FigureInfo:
    """Check the figure is labelled (title, axis labels, a legend), render it to PNG bytes."""
    title = fig.get_suptitle()
    axes = [{"title": ax.get_title(), "xlabel": ax.get_xlabel(), "ylabel": ax.get_ylabel()}
            for ax in data_axes]
    legends = [lg for lg in [ax.get_legend() for ax in fig.axes] + list(fig.legends) if lg is not None]
    entries = [t.get_text() for lg in legends for t in lg.get_texts()]
    missing = [f"axes {k}: {w}" for k, a in enumerate(axes) for w in ("xlabel", "ylabel") if not a[w]]
    if not (title or all(a["title"] for a in axes)):
        missing.append("title")
    if not entries:
        missing.append("legend")
    if missing:  # a programming error in a section module, not bad input
        raise AssertionError(f"figure {name} lacks {', '.join(missing)}")
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
    png = buf.getvalue()
    w, h = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    return FigureInfo(name, title or axes[0]["title"], caption, axes, entries, png, w, h)


def label_axes(ax, xlabel: str, ylabel: str, title: str | None = None, *, title_size=None,
               legend_size=8, legend_cols: int = 1) -> None:
    """What :func:`finish` checks a data axes for: axis labels, a title (unless the figure has a
    suptitle), a legend (small type); and a light grid."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title is not None:
        ax.set_title(title, **({} if title_size is None else {"fontsize": title_size}))
    ax.legend(fontsize=legend_size, ncol=legend_cols)
    ax.grid(alpha=0.3)


def yerr(v, lo, hi):
    """Error-bar lengths from interval ends (clipped at 0 against rounding)."""
    import numpy as np
    v, lo, hi = (np.asarray(a, dtype=float) for a in (v, lo, hi))
    return [np.clip(v - lo, 0, None), np.clip(hi - v, 0, None)]


def bars(ax, x, es, scale, color, label, horizontal=False):
    """Bars of estimates with their 95% CI as black error bars."""
    import numpy as np
    v = np.array([e.value for e in es]) * scale
    lo = np.array([e.lo for e in es]) * scale
    hi = np.array([e.hi for e in es]) * scale
    if horizontal:
        ax.barh(x, v, color=color, alpha=0.75, label=label)
        ax.errorbar(v, x, xerr=yerr(v, lo, hi), fmt="none", ecolor="black", capsize=3, label="95% CI")
        ax.grid(axis="x", alpha=0.3)
    else:
        ax.bar(x, v, color=color, alpha=0.75, label=label)
        ax.errorbar(x, v, yerr=yerr(v, lo, hi), fmt="none", ecolor="black", capsize=4, label="95% CI")
        ax.grid(axis="y", alpha=0.3)
