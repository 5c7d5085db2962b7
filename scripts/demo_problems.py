#!/usr/bin/env python3
"""Run every examples/problems/*.json through nsm; write the JSON results, for sampled
impacts a CSV and a gnuplot script of the post-impact contact normal velocities, and for
outcome sets ("policy": "set") one of the first requested projection with its hull, into the
output folder. Prints one summary line per problem: name | status | key numbers | plot."""
import json
import os
import subprocess
import sys


def main(nsm, outdir, problems):
    ok = True
    for path in problems:
        name = os.path.splitext(os.path.basename(path))[0]
        with open(path) as f:  # impact problems have contact rows Jn, dynamics ones do not
            cmd = "impact" if "Jn" in json.load(f) else "dynamics"
        run = subprocess.run([nsm, cmd, path], capture_output=True, text=True)
        if run.stdout:
            with open(os.path.join(outdir, name + ".json"), "w") as f:
                f.write(run.stdout)
        if run.returncode != 0:
            print(f"DEMO {name} | FAILED (exit {run.returncode}) | {run.stderr.strip()} | -")
            ok = False
            continue
        res = json.loads(run.stdout)
        plot = "-"
        if cmd == "dynamics":
            worst = max(v for k, v in res["residuals"].items() if not isinstance(v, bool))
            key = f"rank {res['rank']}, mu {res['mu']:.4g}, max identity residual {worst:.1e}"
        elif res.get("policy") == "sample":
            key = f"{res['accepted']} accepted, {res['rejected']} rejected"
            plot = write_scatter(outdir, name, path, res)
        elif res.get("policy") == "set":
            nv = len(res["hull"][0]["vertices"]) if res["hull"] else 0
            key = (f"{res['runs']} runs, {res['accepted']} accepted, {res['rejected']} rejected, "
                   f"hull of projection 0: {nv} vertices")
            plot = write_set(outdir, name, path, res)
        else:
            key = (f"s {res['s']:.4g} <= bound {res['s_bound']:.4g} ({res['bound_kind']}), "
                   f"energy {res['energy_minus']:.4g} -> {res['energy_plus']:.4g}")
        print(f"DEMO {name} | {res['status']} | {key} | {plot}")
    return ok


def gp_header(name, what, xlabel, ylabel):
    """The lines every problem plot starts with: terminal, output, title, labels, key, grid."""
    return f"""set terminal pngcairo size 800,600 noenhanced
set output '{name}.png'
set datafile separator ','
set title '{name} (nsm impact, {what}'
set xlabel '{xlabel} [m/s]'
set ylabel '{ylabel} [m/s]'
set key outside bottom center horizontal
set grid
"""


def write_scatter(outdir, name, path, res):
    """Post-impact normal velocities of the first two contacts, one point per outcome."""
    with open(path) as f:
        pb = json.load(f)
    jn = pb["Jn"]
    if len(jn) < 2:
        return "-"
    csv = os.path.join(outdir, name + ".csv")
    with open(csv, "w") as f:
        f.write("seed,status,un0,un1\n")
        for o in res["outcomes"]:
            v = o["v_plus"]
            u = [sum(a * b for a, b in zip(row, v)) for row in jn[:2]]
            f.write(f"{o['seed']},{o['status']},{u[0]:.17g},{u[1]:.17g}\n")
    with open(os.path.join(outdir, name + ".gp"), "w") as f:
        f.write(gp_header(name, "sampled): post-impact contact velocities",
                          "contact 0 normal velocity J_n0 v+", "contact 1 normal velocity J_n1 v+"))
        f.write(f"""plot '{name}.csv' every ::1 using 3:4 with points pt 7 ps 1.2 title 'sampled outcomes'
""")
    return os.path.join(outdir, name + ".png")


def write_set(outdir, name, path, res):
    """The outcomes in the first projection of "project" by source, and that projection's hull."""
    with open(path) as f:
        pb = json.load(f)
    if not res["hull"]:
        return "-"
    rx, ry = pb["project"][0], pb["project"][1]
    csv = os.path.join(outdir, name + ".csv")
    with open(csv, "w") as f:
        f.write("source,status,x,y\n")
        for o in res["outcomes"]:
            v = o["v_plus"]
            x = sum(a * b for a, b in zip(rx, v))
            y = sum(a * b for a, b in zip(ry, v))
            f.write(f"{o['source']},{o['status']},{x:.17g},{y:.17g}\n")
    verts = res["hull"][0]["vertices"]
    with open(os.path.join(outdir, name + "_hull.csv"), "w") as f:
        for x, y in verts + verts[:1]:
            f.write(f"{x:.17g},{y:.17g}\n")
    with open(os.path.join(outdir, name + ".gp"), "w") as f:
        f.write(gp_header(name, "policy set): projection 0 of v+ and its hull",
                          "project row 0 . v+", "project row 1 . v+"))
        f.write(f"""set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05
plot '{name}.csv' every ::1 using (strcol(1) eq 'sampled' ? $3 : 1/0):4 with points pt 7 ps 0.5 lc rgb '#9f9f9f' title 'bang-bang', \\
     '{name}.csv' every ::1 using (strcol(1) eq 'schedule' ? $3 : 1/0):4 with points pt 6 ps 0.5 lc rgb '#17becf' title 'schedules', \\
     '{name}.csv' every ::1 using (strcol(1) eq 'extremal' ? $3 : 1/0):4 with points pt 8 ps 1.2 lc rgb '#ff7f0e' title 'extremal', \\
     '{name}_hull.csv' using 1:2 with lines dt 2 lc rgb '#1f77b4' title 'hull', \\
     '{name}.csv' every ::1 using (strcol(1) eq 'sequential' ? $3 : 1/0):4 with points pt 5 ps 1.5 lc rgb '#d62728' title 'sequential', \\
     '{name}.csv' every ::1 using (strcol(1) eq 'simultaneous' ? $3 : 1/0):4 with points pt 9 ps 2 lc rgb '#2ca02c' title 'simultaneous'
""")
    return os.path.join(outdir, name + ".png")


if __name__ == "__main__":
    sys.exit(0 if main(sys.argv[1], sys.argv[2], sys.argv[3:]) else 1)
