#!/usr/bin/env python3
"""Run every examples/problems/*.json through nsm; write the JSON results, and for sampled
impacts a CSV and a gnuplot script of the post-impact contact normal velocities, into the
output folder. Prints one summary line per problem: name | status | key numbers | plot."""
import json
import os
import subprocess
import sys


def main(nsm, outdir, problems):
    ok = True
    for path in problems:
        name = os.path.splitext(os.path.basename(path))[0]
        cmd = "impact" if name.startswith("impact") else "dynamics"
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
        else:
            key = (f"s {res['s']:.4g} <= bound {res['s_bound']:.4g} ({res['bound_kind']}), "
                   f"energy {res['energy_minus']:.4g} -> {res['energy_plus']:.4g}")
        print(f"DEMO {name} | {res['status']} | {key} | {plot}")
    return ok


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
        f.write(f"""set terminal pngcairo size 800,600 noenhanced
set output '{name}.png'
set datafile separator ','
set title '{name} (nsm impact, sampled): post-impact contact velocities'
set xlabel 'contact 0 normal velocity J_n0 v+ [m/s]'
set ylabel 'contact 1 normal velocity J_n1 v+ [m/s]'
set key outside bottom center
set grid
plot '{name}.csv' every ::1 using 3:4 with points pt 7 ps 1.2 title 'sampled outcomes'
""")
    return os.path.join(outdir, name + ".png")


if __name__ == "__main__":
    sys.exit(0 if main(sys.argv[1], sys.argv[2], sys.argv[3:]) else 1)
