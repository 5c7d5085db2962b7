"""Property-based tests of nsmech (Hypothesis): every property is checked against an
independent numpy computation or an identity written here, never against the library's own
output (except the last: the outcome set holds the sequential runs).

Deterministic: derandomize=True, no example database; cases Hypothesis found are kept as
@example regression cases below (none found so far). Example counts: NSM_PY_EXAMPLES scales
them (default 1)."""
import itertools
import os
import unittest

import numpy as np
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

import nsmech

SCALE = float(os.environ.get("NSM_PY_EXAMPLES", "1"))


def cases(n):
    return settings(max_examples=max(1, int(n * SCALE)), derandomize=True, database=None,
                    deadline=None, print_blob=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def ints(shape, lo=-4, hi=4):
    """A strategy for an integer-valued float array (well-conditioned, exact dependent rows)."""
    size = int(np.prod(shape)) if shape else 1
    return st.lists(st.integers(lo, hi), min_size=size, max_size=size).map(
        lambda xs: np.array(xs, dtype=float).reshape(shape))


@st.composite
def constraints(draw, max_n=6, max_m=5):
    """(A, Adot) with n columns, m rows of rank r <= m: A = C·B, Adot = C·Bdot (redundant rows
    are combinations of the others, in A and in Adot alike)."""
    n = draw(st.integers(1, max_n))
    r = draw(st.integers(0, min(n, max_m)))
    m = draw(st.integers(r, max_m))
    B = draw(ints((r, n)))
    Bd = draw(ints((r, n)))
    if r > 0 and m > r:
        Cm = np.vstack([np.eye(r), draw(ints((m - r, r), -2, 2))])
        perm = draw(st.permutations(list(range(m))))
        Cm = Cm[perm]
    else:
        Cm = np.eye(m, r)
    return n, Cm @ B, Cm @ Bd


def spd(draw, n):
    R = draw(ints((n, n), -3, 3))
    return R @ R.T + n * np.eye(n)


def numpy_rank(A, rtol=1e-10):
    if A.size == 0:
        return 0
    s = np.linalg.svd(A, compute_uv=False)
    return int(np.sum(s > rtol * s[0])) if s[0] > 0 else 0


class Projector(unittest.TestCase):
    @cases(300)
    @given(constraints())
    def test_projector_identities(self, nAd):
        n, A, _ = nAd
        out = nsmech.projector(A, n=n)
        P, Q, X = out["P"], out["Q"], out["Apinv"]
        self.assertEqual(out["rank"], numpy_rank(A))
        tol = 1e-11
        np.testing.assert_allclose(P @ P, P, atol=tol)              # idempotent
        np.testing.assert_array_equal(P, P.T)                       # symmetric, exactly
        np.testing.assert_array_equal(Q, Q.T)
        np.testing.assert_allclose(P + Q, np.eye(n), atol=tol)
        if A.shape[0] > 0:
            scale = max(1.0, np.abs(A).max())
            np.testing.assert_allclose(A @ P, 0, atol=tol * scale)  # A P = 0
            np.testing.assert_allclose(X, np.linalg.pinv(A, rcond=1e-10), atol=1e-9)
        # P against numpy: I minus the projector on the row space from numpy's SVD
        if out["rank"] > 0:
            _, _, Vt = np.linalg.svd(A)
            V = Vt[:out["rank"]].T
            np.testing.assert_allclose(P, np.eye(n) - V @ V.T, atol=1e-10)
        else:
            np.testing.assert_allclose(P, np.eye(n), atol=0)


class Dynamics(unittest.TestCase):
    @cases(300)
    @given(st.data())
    def test_kkt_solution(self, data):
        """For admissible q̇ (A q̇ = 0), q̈ solves the KKT system
        [M Aᵀ; A 0] [q̈; -λ] = [f + f_g - C q̇; -Ȧ q̇] (numpy's least squares, the matrix singular
        with redundant rows), and f_c = M q̈ - f - f_g + C q̇ = Aᵀλ."""
        n, A, Ad = data.draw(constraints())
        m = A.shape[0]
        M = spd(data.draw, n)
        C = data.draw(ints((n, n)))
        f, fg, raw = data.draw(ints((n,))), data.draw(ints((n,))), data.draw(ints((n,)))
        Pn = np.eye(n)
        if numpy_rank(A) > 0:
            _, _, Vt = np.linalg.svd(A)
            V = Vt[:numpy_rank(A)].T
            Pn = np.eye(n) - V @ V.T
        qd = Pn @ raw                                                # admissible velocity
        out = nsmech.dynamics(M, C, A, Ad, f, fg, qd)
        K = np.block([[M, A.T], [A, np.zeros((m, m))]])
        rhs = np.concatenate([f + fg - C @ qd, -Ad @ qd])
        sol, *_ = np.linalg.lstsq(K, rhs, rcond=None)
        qdd = sol[:n]
        scale = 1.0 + np.abs(rhs).max()
        np.testing.assert_allclose(out["qddot"], qdd, atol=1e-8 * scale)
        np.testing.assert_allclose(M @ out["qddot"], f + fg - C @ qd + out["fc"],
                                   atol=1e-8 * scale * np.abs(M).max())
        if m > 0:  # the constraint force lies in the range of Aᵀ
            np.testing.assert_allclose(Pn @ out["fc"], 0, atol=1e-8 * scale * np.abs(M).max())
        self.assertEqual(out["rank"], numpy_rank(A))
        np.testing.assert_allclose(out["P"], Pn, atol=1e-10)


def numpy_polar_project(mu, x_n, x_t):
    """Projection on the polar cone K° = {mu·‖t‖ <= -n}: in the coordinates (s, z) = (-n, t)
    the cone {mu·‖z‖ <= s}, whose boundary rays are r·(mu, ẑ); a point outside it and outside
    its own polar projects on the ray through its tangent direction ẑ (no division by mu, so
    mu = 0, the half-space n <= 0, is the same formula)."""
    s0, r = -x_n, np.linalg.norm(x_t)
    if mu * r <= s0:                      # in K°
        return x_n, x_t.copy()
    if r <= -mu * s0:                     # in the polar of K°, which is K: projects to 0
        return 0.0, np.zeros_like(x_t)
    a = (mu * s0 + r) / (1 + mu * mu)     # x·(mu, ẑ) / ‖(mu, ẑ)‖²
    return -a * mu, a * x_t / r


class Cone(unittest.TestCase):
    @cases(600)
    @given(st.floats(0, 4), st.floats(-10, 10), st.lists(st.floats(-10, 10), min_size=1,
                                                           max_size=2))
    @example(2e-323, 0.0, [0.0])  # found by Hypothesis (a test bug: 1/mu overflowed)
    @example(0.0, -1.0, [2.0])
    @example(1.0, 0.0, [0.0, 0.0])
    def test_moreau_decomposition(self, mu, x_n, x_t):
        """x = P_K(x) + P_K°(x) with the polar part from numpy; P_K(x) in K, x - P_K(x) in K°,
        and the two orthogonal (Moreau's decomposition)."""
        x_t = np.array(x_t)
        pn, pt = nsmech.cone_project(mu, x_n, x_t)
        qn, qt = numpy_polar_project(mu, x_n, x_t)
        tol = 1e-12 * (1 + abs(x_n) + np.abs(x_t).max()) * (1 + mu)
        self.assertAlmostEqual(pn + qn, x_n, delta=tol)
        np.testing.assert_allclose(pt + qt, x_t, atol=tol)
        self.assertGreaterEqual(pn, -tol)
        self.assertLessEqual(np.linalg.norm(pt), mu * pn + tol)           # in K
        rn, rt = x_n - pn, x_t - pt
        self.assertLessEqual(mu * np.linalg.norm(rt), -rn + tol)           # in K°
        self.assertAlmostEqual(pn * rn + pt @ rt, 0.0, delta=tol * (1 + abs(x_n) + np.abs(x_t).sum()))


@st.composite
def impact_problems(draw, max_n=5, max_k=3):
    """A contact problem in which at least one contact penetrates: M SPD, Jn and Jt with
    small integer entries, friction in [0, 1.5], v with Jn v having a negative entry."""
    n = draw(st.integers(2, max_n))
    k = draw(st.integers(1, max_k))
    d = draw(st.integers(1, 2))
    M = spd(draw, n)
    Jn = draw(ints((k, n), -2, 2))
    assume(np.all(np.abs(Jn).sum(axis=1) > 0))
    Jt = draw(ints((k * d, n), -2, 2))
    mu = np.array(draw(st.lists(st.sampled_from([0.0, 0.1, 0.3, 0.5, 1.0, 1.5]),
                                min_size=k, max_size=k)))
    v = draw(ints((n,), -3, 3))
    assume(np.min(Jn @ v) < -0.5)
    return M, Jn, Jt, mu, v, d


# Runs without a bound (wedging contacts) integrate up to fallback_steps (10^6 by default,
# seconds each); the tests skip those runs, so they cap the fallback.
FAST = {"steps": 400, "fallback_steps": 2000}

REPORTABLE = {"NSM_ERR_BOUND", "NSM_ERR_NO_CONVERGENCE", "NSM_ERR_NO_BOUND",
              "NSM_ERR_NOT_CERTIFIED"}


def solve_or_none(*args, **kw):
    """The impact's result, or None when the run ended without an answer it vouches for (no
    bound, bound exceeded, ...: statuses the library documents, not a failure here)."""
    try:
        return nsmech.impact(*args, **kw)
    except nsmech.Error as e:
        if e.status in REPORTABLE:
            return None
        raise


class Impact(unittest.TestCase):
    @cases(400)
    @given(impact_problems(), st.sampled_from(["simultaneous", "sequential", "priority",
                                               "moreau"]))
    def test_invariants(self, prob, policy):
        M, Jn, Jt, mu, v, d = prob
        out = solve_or_none(M, Jn, Jt, mu, v, policy=policy, tangent_dim=d, **FAST)
        assume(out is not None)
        vp, ln, lt = out["v_plus"], out["impulse_n"], out["impulse_t"].reshape(-1, d)
        e_minus, e_plus = 0.5 * v @ M @ v, 0.5 * vp @ M @ vp
        self.assertLessEqual(e_plus, e_minus * (1 + 1e-9) + 1e-12)          # energy
        for c in range(len(mu)):                                            # cones
            self.assertGreaterEqual(ln[c], -1e-12)
            self.assertLessEqual(np.linalg.norm(lt[c]), mu[c] * ln[c] * (1 + 1e-9) + 1e-12)
        tol = 1e-9 * (1 + np.abs(Jn @ v).max())
        self.assertGreaterEqual((Jn @ vp).min(), -tol)                      # no penetration
        impulse = Jn.T @ ln + Jt.T @ lt.ravel()                              # momentum
        scale = 1 + np.abs(M).max() * np.abs(v).max()
        np.testing.assert_allclose(M @ (vp - v), impulse, atol=1e-9 * scale)
        self.assertAlmostEqual(out["energy_minus"], e_minus, delta=1e-12 * (1 + e_minus))
        self.assertAlmostEqual(out["s"], ln.sum(), delta=1e-9 * (1 + out["s"]))


class OutcomeSet(unittest.TestCase):
    @cases(40)
    @given(impact_problems(max_n=4, max_k=3))
    def test_set_contains_sequential_outcomes(self, prob):
        """Every sequential order's outcome (nsmech.impact, policy sequential) is a point of
        the outcome set with the set's options."""
        M, Jn, Jt, mu, v, d = prob
        k = len(mu)
        try:
            res = nsmech.outcome_set(M, Jn, Jt, mu, v, samples=8, seed=3, tangent_dim=d,
                                     **FAST)
        except nsmech.Error as e:
            assume(e.status not in REPORTABLE)
            raise
        pts = res["outcomes"]["v_plus"]
        self.assertEqual(pts.shape, (res["runs"], len(v)))
        for order in itertools.permutations(range(k)):
            out = solve_or_none(M, Jn, Jt, mu, v, policy="sequential", order=list(order),
                                tangent_dim=d, slip_rest=1 / 256, **FAST)
            if out is None:
                continue
            dist = np.abs(pts - out["v_plus"]).max(axis=1).min()
            self.assertLessEqual(dist, 1e-12 * (1 + np.abs(v).max()), f"order {order}")


class Errors(unittest.TestCase):
    def test_shape_errors_name_the_argument(self):
        M = np.eye(3)
        with self.assertRaises(nsmech.Error) as cm:
            nsmech.impact(M, [[1, 0, 0]], [[0, 1, 0]], [0.5], [0, -1])
        self.assertEqual(cm.exception.arg, "v")
        self.assertEqual(cm.exception.status, "NSM_ERR_SIZE")
        with self.assertRaises(nsmech.Error) as cm:
            nsmech.impact(M, [[1, 0, 0]], [[0, 1, 0]], [-0.5], [0, -1, 0])
        self.assertEqual(cm.exception.arg, "mu")

    def test_library_status_and_arg_fault(self):
        with self.assertRaises(nsmech.Error) as cm:
            nsmech.impact(np.eye(2), [[1, 0]], [[0, 1]], [0.5], [0, -1], ztol=-1.0)
        e = cm.exception
        self.assertEqual((e.status, e.arg), ("NSM_ERR_ARG", "opts.ztol"))
        self.assertEqual(e.text, nsmech.status_str(3))
        with self.assertRaises(nsmech.Error) as cm:
            nsmech.dynamics(np.diag([1.0, -1.0]), np.zeros((2, 2)), np.zeros((0, 2)),
                            np.zeros((0, 2)), [0, 0], [0, 0], [0, 0])
        self.assertEqual(cm.exception.status, "NSM_ERR_NOT_SPD")

    def test_workspace_reused(self):
        A = np.array([[1.0, 2.0, 0.0]])
        nsmech.projector(A)
        before = nsmech.workspace_cache_info()
        nsmech.projector(2 * A)
        self.assertEqual(nsmech.workspace_cache_info(), before)
        self.assertIn(("projector", 3, 1), before)


if __name__ == "__main__":
    unittest.main()
