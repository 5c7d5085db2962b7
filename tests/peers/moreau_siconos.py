#!/usr/bin/python3
"""Moreau's inelastic impulse from Siconos (a peer of nsmech, test-only: Debian python3-siconos).

Reads impact problems as JSON (the fields of examples/problems/impact_*.json: M, Jn, Jt, mu, v,
tangent_dim; one problem object, or an array of them) and prints, one JSON line per problem,
Moreau's impulse as Siconos computes it: find P with u+ = u- + W P (W = J M^-1 J^T, J the
stacked rows (J_t,c, J_n,c) or (J_t1,c, J_t2,c, J_n,c) per contact), 0 <= u_n+ _|_ p_n >= 0
and Coulomb friction on the post-impact slip, i.e. Siconos' friction-contact problem
u = W r + q with q = u- (siconos.numerics FrictionContactProblem; planar: fc2d, Lemke's
pivoting method first, then the enumerative and Gauss-Seidel solvers; spatial: fc3d
Gauss-Seidel). Output: name, solver, Siconos' info (0 = solved), P in nsmech's ordering
((t, n) or (t1, t2, n) per contact), v_plus = v- + M^-1 J^T P, and the largest relative
violation of the impact law by (P, v_plus) computed here from the data.

With --check, each problem must carry "oracle": a list of {"P", "v_plus"} (the solutions of
tests/support/moreau_oracle.c, written by tests/peers/moreau_dump.c); Siconos' v_plus is
compared with the nearest, relative to max|v-|, and the program exits 1 when a difference
exceeds --tol (1e-9) or Siconos fails. Prints 'moreau_siconos_max_diff X' last.

Use Debian's /usr/bin/python3 (numpy and siconos); a python3 earlier in PATH may lack them.
"""
import argparse
import json
import sys

import numpy as np
import siconos.numerics as sn


def load(path):
    with open(path) as f:
        data = json.load(f)
    return data if isinstance(data, list) else [data]


def stacked(prob):
    """M, the stacked J in nsmech's ordering, mu, v-, d."""
    M = np.array(prob["M"], dtype=float)
    Jn = np.array(prob["Jn"], dtype=float)
    Jt = np.array(prob["Jt"], dtype=float)
    d = int(prob.get("tangent_dim", 1))
    m = Jn.shape[0]
    n = M.shape[0]
    J = np.zeros(((d + 1) * m, n))
    for c in range(m):
        J[(d + 1) * c:(d + 1) * c + d] = Jt[d * c:d * c + d]
        J[(d + 1) * c + d] = Jn[c]
    mu = np.array(prob["mu"], dtype=float)
    v = np.array(prob["v"], dtype=float)
    return M, J, mu, v, d


def to_siconos(d, m):
    """Permutation: Siconos' index i is nsmech's index perm[i] ((n, t..) per contact)."""
    perm = []
    for c in range(m):
        base = (d + 1) * c
        perm.append(base + d)
        perm.extend(base + k for k in range(d))
    return np.array(perm)


def violation(M, J, mu, vm, d, P, vp):
    """Largest relative violation of Moreau's law by (P, v+), from the data."""
    m = len(mu)
    um = J @ vm
    up = J @ vp
    us = max(np.max(np.abs(um)), 1e-300)
    ps = max(np.max(np.abs(P)), 1e-300)
    mom = np.max(np.abs(M @ (vp - vm) - J.T @ P))
    msc = np.max(np.abs(M)) * np.max(np.abs(vm)) + np.max(np.abs(J)) * ps
    viol = mom / msc
    for c in range(m):
        b = (d + 1) * c
        pt, pn = P[b:b + d], P[b + d]
        ut, un = up[b:b + d], up[b + d]
        viol = max(viol, -un / us, -pn / ps, abs(un * pn) / (us * ps),
                   (np.linalg.norm(pt) - mu[c] * pn) / ps)
        nut = np.linalg.norm(ut)
        if nut > 1e-9 * us:
            viol = max(viol, np.linalg.norm(pt + mu[c] * pn * ut / nut) / ps)
    return float(viol)


def options(solver_id, tol=1e-14, iters=100000):
    so = sn.SolverOptions(solver_id)
    so.dparam[sn.SICONOS_DPARAM_TOL] = tol
    so.iparam[sn.SICONOS_IPARAM_MAX_ITER] = iters
    return so


def solve(prob):
    M, J, mu, vm, d = stacked(prob)
    m = len(mu)
    X = np.linalg.solve(M, J.T)
    W = J @ X
    perm = to_siconos(d, m)
    Ws = np.ascontiguousarray(W[np.ix_(perm, perm)])
    qs = np.ascontiguousarray((J @ vm)[perm])
    fc = sn.FrictionContactProblem(d + 1, Ws, qs, mu.copy())
    if d == 1:
        tries = [("fc2d_lemke", sn.SICONOS_FRICTION_2D_LEMKE, sn.fc2d_driver),
                 ("fc2d_enum", sn.SICONOS_FRICTION_2D_ENUM, sn.fc2d_driver),
                 ("fc2d_nsgs", sn.SICONOS_FRICTION_2D_NSGS, sn.fc2d_driver)]
    else:
        tries = [("fc3d_nsgs", sn.SICONOS_FRICTION_3D_NSGS, sn.fc3d_driver)]
    best = None
    for name, sid, driver in tries:
        r = np.zeros((d + 1) * m)
        u = np.zeros((d + 1) * m)
        info = driver(fc, r, u, options(sid))
        P = np.zeros((d + 1) * m)
        P[perm] = r
        vp = vm + X @ P
        viol = violation(M, J, mu, vm, d, P, vp)
        cand = {"name": prob.get("name", ""), "solver": name, "info": int(info),
                "P": P.tolist(), "v_plus": vp.tolist(), "violation": viol}
        if best is None or (cand["info"], viol) < (best["info"], best["violation"]):
            best = cand
        if info == 0 and viol <= 1e-9:
            break
    return best, vm


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("problems", help="JSON problem file (an object or an array of them)")
    ap.add_argument("--check", action="store_true",
                    help="compare with each problem's 'oracle' solutions; exit 1 beyond --tol")
    ap.add_argument("--tol", type=float, default=1e-9)
    args = ap.parse_args()
    worst = 0.0
    bad = 0
    for prob in load(args.problems):
        res, vm = solve(prob)
        if args.check:
            vs = max(np.max(np.abs(vm)), 1e-300)
            sols = prob.get("oracle", [])
            vp = np.array(res["v_plus"])
            diffs = [np.max(np.abs(vp - np.array(s["v_plus"]))) / vs for s in sols]
            diff = float(min(diffs)) if diffs else float("inf")
            res["oracle_solutions"] = len(sols)
            res["diff_v_plus"] = diff
            worst = max(worst, diff)
            ok = res["info"] == 0 and res["violation"] <= args.tol and diff <= args.tol
            bad += not ok
            print("%-20s %-10s info %d violation %.1e  oracle solutions %d  "
                  "max|dv+|/max|v-| %.2e  %s" % (res["name"], res["solver"], res["info"],
                                                  res["violation"], len(sols), diff,
                                                  "ok" if ok else "DISAGREE"))
        else:
            print(json.dumps(res))
    if args.check:
        print("moreau_siconos_max_diff %.3e" % worst)
        if bad:
            print("moreau_siconos: %d problem(s) disagree beyond %g" % (bad, args.tol),
                  file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
