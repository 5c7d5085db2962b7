#!/usr/bin/env python3
"""The outcome set of a shipped problem (examples/problems/impact_box_corner_set.json: a box
corner hitting two walls) as a PNG, through the Python package.

    PYTHONPATH=python python3 examples/python/outcome_set_plot.py [OUT.png]

Needs a built library (make) and python3-matplotlib. Default output: build/outcome_set.png."""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt  # noqa: E402

import nsmech  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def main(out):
    with open(os.path.join(ROOT, "examples", "problems", "impact_box_corner_set.json")) as f:
        pb = json.load(f)
    res = nsmech.outcome_set(pb["M"], pb["Jn"], pb["Jt"], pb["mu"], pb["v"],
                             samples=pb["samples"], seed=pb["seed"], project=pb["project"])
    ax = nsmech.plot_outcome_set(res, pb["project"], plane=0)
    ax.set_title(f"box corner: {res['accepted']} of {res['runs']} runs accepted")
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    ax.figure.savefig(out, dpi=110, bbox_inches="tight")
    plt.close(ax.figure)
    print(f"outcome_set_plot: {res['runs']} runs, {res['accepted']} accepted, "
          f"hull of {len(res['hull'][0]['vertices'])} vertices -> {out}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "outcome_set.png"))
