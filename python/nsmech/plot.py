"""Plotting an outcome set (matplotlib is imported only when a plot is drawn)."""
import numpy as np


def plot_outcome_set(result, project, plane=0, ax=None, title=None):
    """Draw the outcomes of outcome_set(...) projected on plane `plane` of `project` (2·p rows
    of n entries; rows 2i and 2i + 1 are the axes): accepted outcomes as points by source,
    rejected ones as crosses, and the hull of the accepted ones when the result has it.
    Returns the matplotlib Axes."""
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:  # optional dependency
        raise ImportError("nsmech.plot_outcome_set needs matplotlib "
                          "(Debian: python3-matplotlib)") from exc
    project = np.asarray(project, dtype=float)
    p, q = project[2 * plane], project[2 * plane + 1]
    outs = result["outcomes"]
    vp = np.asarray(outs["v_plus"], dtype=float).reshape(len(outs["status"]), -1)
    x, y = vp @ p, vp @ q
    ok = np.asarray(outs["status"]) == "ok"
    src = np.asarray(outs["source"])
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 6))
    for name in sorted(set(src[ok])):
        sel = ok & (src == name)
        ax.scatter(x[sel], y[sel], s=8, label=f"{name} ({int(sel.sum())})")
    if np.any(~ok):
        ax.scatter(x[~ok], y[~ok], marker="x", c="grey", s=12, label=f"rejected ({int((~ok).sum())})")
    hulls = result.get("hull") or []
    if plane < len(hulls) and len(hulls[plane]["vertices"]) > 0:
        h = np.asarray(hulls[plane]["vertices"])
        h = np.vstack([h, h[:1]])
        ax.plot(h[:, 0], h[:, 1], "k-", lw=1, label="hull of the accepted outcomes")
    ax.set_xlabel(f"projection row {2 * plane} · v+")
    ax.set_ylabel(f"projection row {2 * plane + 1} · v+")
    ax.set_title(title or f"outcome set: {int(ok.sum())} accepted of {len(ok)} runs")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    return ax
