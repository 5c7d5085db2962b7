"""The functions of nsmech over libnsmech.so. Each fills the library's structs the way the nsm
program does (tools/nsm/*.c) and returns a dict with the field names of the program's JSON
output, values as numpy arrays (vectors, matrices) and Python numbers (scalars)."""
import collections
import ctypes
import threading

import numpy as np

from . import _lib as L
from ._lib import lib


class Error(Exception):
    """A status other than NSM_OK, or an argument rejected before the call.

    status: the status name ("NSM_ERR_ARG", ...); code: its value; text: nsm_status_str's
    text; function: the library function (or the Python check) that failed; arg: the argument
    at fault when known (the library's nsm_impact_arg_fault for impacts, the Python checks'
    argument name otherwise), else None; result: for an impact run that ended with a
    reportable status (bound exceeded, no convergence, no bound, not certified) the complete
    result, as the nsm program prints it, else None."""

    def __init__(self, code, function, arg=None, detail=None, result=None):
        self.code = int(code)
        self.status = L.STATUS_NAMES[self.code] if 0 <= self.code < len(L.STATUS_NAMES) \
            else f"status {self.code}"
        self.text = status_str(self.code)
        self.function = function
        self.arg = arg
        self.detail = detail
        self.result = result
        msg = f"{function}: {self.status} ({self.text})"
        if arg:
            msg += f", argument '{arg}'"
        if detail:
            msg += f": {detail}"
        super().__init__(msg)


def status_str(code):
    """The library's text of a status (nsm_status_str)."""
    return lib.nsm_status_str(int(code)).decode()


# --- workspaces: allocated once per call shape, per thread -----------------------------------
_CACHE_SIZE = 32
_tls = threading.local()


def _work(key, size):
    """A zeroed-once double array of `size` entries for the call shape `key`, reused by later
    calls of the same shape in this thread (the library writes every entry it reads)."""
    cache = getattr(_tls, "cache", None)
    if cache is None:
        cache = _tls.cache = collections.OrderedDict()
    w = cache.get(key)
    if w is None or w.size < size:
        w = np.zeros(max(int(size), 1))
        cache[key] = w
        while len(cache) > _CACHE_SIZE:
            cache.popitem(last=False)
    else:
        cache.move_to_end(key)
    return w


def workspace_cache_info():
    """The call shapes whose workspaces this thread holds: {key: doubles}."""
    cache = getattr(_tls, "cache", None) or {}
    return {k: v.size for k, v in cache.items()}


# --- argument conversion ---------------------------------------------------------------------
def _ptr(a):
    return None if a is None else a.ctypes.data_as(L.PD)


def _size_error(function, arg, detail):
    return Error(L.STATUS["NSM_ERR_SIZE"], function, arg, detail)


def _matrix(function, name, x, rows=None, cols=None):
    try:
        a = np.array(x, dtype=np.float64, order="C", copy=True)
    except (TypeError, ValueError) as exc:
        raise Error(L.STATUS["NSM_ERR_ARG"], function, name, f"not a real matrix ({exc})")
    if a.ndim == 1 and a.size == 0:
        a = a.reshape(0, cols if cols is not None else 0)
    if a.ndim != 2:
        raise _size_error(function, name, f"expected a matrix, got {a.ndim} dimension(s)")
    if (rows is not None and a.shape[0] != rows) or (cols is not None and a.shape[1] != cols):
        want = f"{'?' if rows is None else rows}x{'?' if cols is None else cols}"
        raise _size_error(function, name, f"expected {want}, got {a.shape[0]}x{a.shape[1]}")
    return np.ascontiguousarray(a)


def _vector(function, name, x, n=None):
    try:
        a = np.array(x, dtype=np.float64, order="C", copy=True)
    except (TypeError, ValueError) as exc:
        raise Error(L.STATUS["NSM_ERR_ARG"], function, name, f"not a real vector ({exc})")
    if a.ndim != 1:
        raise _size_error(function, name, f"expected a vector, got {a.ndim} dimension(s)")
    if n is not None and a.shape[0] != n:
        raise _size_error(function, name, f"expected {n} entries, got {a.shape[0]}")
    return np.ascontiguousarray(a)


def _finite(function, **arrays):
    for name, a in arrays.items():
        if a is not None and not np.all(np.isfinite(a)):
            raise Error(L.STATUS["NSM_ERR_NOT_FINITE"], function, name, "NaN or infinity")


def _check(status, function, arg=None):
    if status != 0:
        raise Error(status, function, arg)


# --- projector -------------------------------------------------------------------------------
def projector(A, n=None, rtol=L.NSM_RANK_RTOL_DEFAULT):
    """P = I - A⁺A, Q = A⁺A and A⁺ of the m×n constraint matrix A (nsm_proj_projector).
    A with m = 0 rows needs n (or shape (0, n)). Returns {"rank", "P", "Q", "Apinv"}."""
    fn = "nsm_proj_projector"
    if n is not None:
        n = int(n)
    A = _matrix(fn, "A", A, cols=n)
    m, n = A.shape
    if n == 0:
        raise _size_error(fn, "A", "n = 0 columns")
    _finite(fn, A=A)
    P = np.empty((n, n))
    Q = np.empty((n, n))
    X = np.empty((n, m))
    res = L.ProjProjectorResult(0, _ptr(P), _ptr(Q), _ptr(X) if m > 0 else None)
    lw = lib.nsm_proj_projector_work(n, m)
    if lw == 0:
        raise _size_error(fn, "A", f"{m}x{n} beyond the library's limits")
    w = _work(("projector", n, m), lw)
    _check(lib.nsm_proj_projector(n, m, _ptr(A) if m > 0 else None, float(rtol),
                                  ctypes.byref(res), _ptr(w), lw), fn,
           "rtol" if not 0 <= rtol < 1 else None)
    return {"rank": int(res.rank), "P": P, "Q": Q, "Apinv": X}


# --- dynamics --------------------------------------------------------------------------------
def dynamics(M, C, A, Adot, f, fg, qdot, B=None, Mdot=None, mu="optimal", rank_rtol=None,
             q=None, q_target=None, Kp=None, Kd=None, sigma=None):
    """Constrained dynamics of one state, as `nsm dynamics` computes it: the fields of its
    problem file as arguments (B, Mdot and the control law's q, q_target, Kp, Kd, sigma
    optional), its result's fields in the returned dict: status, n, m, rank, mu, qddot, fc, P,
    Mbar, with B also rank_PB, R, Gamma, with the control law also f_control, u, eta, and
    residuals (the identity residuals of the check module)."""
    fn = "dynamics"
    M = _matrix(fn, "M", M)
    n = M.shape[0]
    if n == 0 or M.shape[1] != n:
        raise _size_error(fn, "M", f"must be a non-empty square matrix, got {M.shape}")
    C = _matrix(fn, "C", C, n, n)
    A = _matrix(fn, "A", A, cols=n)
    m = A.shape[0]
    Adot = _matrix(fn, "Adot", Adot, m, n)
    f = _vector(fn, "f", f, n)
    fg = _vector(fn, "fg", fg, n)
    qd = _vector(fn, "qdot", qdot, n)
    has_B = B is not None
    B = _matrix(fn, "B", B, rows=n) if has_B else None
    k = B.shape[1] if has_B else 0
    has_Mdot = Mdot is not None
    Mdot = _matrix(fn, "Mdot", Mdot, n, n) if has_Mdot else None
    ctl = {"q": q, "q_target": q_target, "Kp": Kp, "Kd": Kd, "sigma": sigma}
    has_ctl = any(v is not None for v in ctl.values())
    if has_ctl:
        for name, v in ctl.items():
            if v is None:
                raise Error(L.STATUS["NSM_ERR_NULL"], fn, name,
                            "missing (the control law needs q, q_target, Kp, Kd, sigma)")
        if not has_B:
            raise Error(L.STATUS["NSM_ERR_NULL"], fn, "B",
                        "missing (the control law needs the input matrix)")
        q = _vector(fn, "q", q, n)
        qt = _vector(fn, "q_target", q_target, n)
    _finite(fn, M=M, C=C, A=A, Adot=Adot, f=f, fg=fg, qdot=qd, B=B, Mdot=Mdot)
    opts = L.ProjOpts(L.NSM_RANK_RTOL_DEFAULT, 0, 1.0, 1, 1e-12)
    if isinstance(mu, str):
        if mu != "optimal":
            raise Error(L.STATUS["NSM_ERR_ARG"], fn, "mu",
                        'must be a positive finite number or "optimal"')
    else:
        mu = float(mu)
        if not (mu > 0.0) or mu > 1e300:
            raise Error(L.STATUS["NSM_ERR_ARG"], fn, "mu",
                        'must be a positive finite number or "optimal"')
        opts.mu_mode, opts.mu = 1, mu
    if rank_rtol is not None:
        if not (0.0 <= rank_rtol < 1.0):
            raise Error(L.STATUS["NSM_ERR_ARG"], fn, "rank_rtol", "must be in [0, 1)")
        opts.rank_rtol = float(rank_rtol)
    gains = L.ProjGains(0.0, 0.0, 0.0, L.NSM_PROJ_VEL_ZTOL_DEFAULT, L.NSM_PROJ_XI_TOL_DEFAULT)
    if has_ctl:
        gains.kp, gains.kd, gains.sigma = float(Kp), float(Kd), float(sigma)
        if not gains.kp > 0:
            raise Error(L.STATUS["NSM_ERR_ARG"], fn, "Kp", "must be > 0")
        if not gains.kd > 0:
            raise Error(L.STATUS["NSM_ERR_ARG"], fn, "Kd", "must be > 0")
        if not (gains.sigma > 1 or gains.sigma == 0):
            raise Error(L.STATUS["NSM_ERR_ARG"], fn, "sigma",
                        "must be > 1 (law (21)) or 0 (the law that converges)")

    z = np.zeros
    qdd, fc, P, Mbar, Q = z(n), z(n), z((n, n)), z((n, n)), z((n, n))
    Apinv, Lam, Pdot, S, Cbar = z((n, m)), z((n, n)), z((n, n)), z((n, n)), z((n, n))
    Gamma, R, fctl, u = z((k, n)), z((n, n)), z(n), z(k)
    lw = max(lib.nsm_proj_dynamics_work(n, m), lib.nsm_proj_projector_work(n, m),
             lib.nsm_proj_rates_work(n), lib.nsm_proj_oblique_work(n), lib.nsm_proj_cbar_work(n),
             lib.nsm_proj_actuation_work(n, k) if has_B else 0, lib.nsm_proj_control_work(n),
             lib.nsm_check_skew_work(n), lib.nsm_check_pd_work(n))
    w = _work(("dynamics", n, m, k), lw)
    pA = _ptr(A) if m > 0 else None
    pAd = _ptr(Adot) if m > 0 else None
    prob = L.ProjProblem(n, m, _ptr(M), _ptr(C), pA, pAd, _ptr(f), _ptr(fg), _ptr(qd))
    dyn = L.ProjDynamicsResult(_ptr(qdd), _ptr(fc), _ptr(P), _ptr(Mbar), L.ProjInfo(0, 0.0))
    s = lib.nsm_proj_dynamics(ctypes.byref(prob), ctypes.byref(opts), ctypes.byref(dyn),
                              _ptr(w), lw)
    _check(s, "nsm_proj_dynamics", "M" if s == L.STATUS["NSM_ERR_NOT_SPD"] else None)
    rank, mu_used = int(dyn.info.rank), float(dyn.info.mu)
    # The pieces of the residuals, as the program computes them (P is then the projector's).
    pr = L.ProjProjectorResult(0, _ptr(P), _ptr(Q), _ptr(Apinv) if m > 0 else None)
    _check(lib.nsm_proj_projector(n, m, pA, opts.rank_rtol, ctypes.byref(pr), _ptr(w), lw),
           "nsm_proj_projector", "A")
    rr = L.ProjRatesResult(_ptr(Lam), _ptr(Pdot))
    _check(lib.nsm_proj_rates(n, m, _ptr(Apinv) if m > 0 else None, pAd, _ptr(P),
                              ctypes.byref(rr), _ptr(w), lw), "nsm_proj_rates", "Adot")
    _check(lib.nsm_proj_oblique(n, _ptr(M), _ptr(Mbar), _ptr(P), _ptr(S), _ptr(w), lw),
           "nsm_proj_oblique", "M")
    _check(lib.nsm_proj_cbar(ctypes.byref(prob), _ptr(P), _ptr(Lam), mu_used, _ptr(Cbar),
                             _ptr(w), lw), "nsm_proj_cbar", "C")
    out = {"status": "ok", "n": n, "m": m, "rank": rank, "mu": mu_used, "qddot": qdd, "fc": fc,
           "P": P, "Mbar": Mbar}
    if has_B:
        act = L.ProjActuationInput(n, k, rank, _ptr(P), _ptr(B), opts.rank_rtol)
        ar = L.ProjActuationResult(0, _ptr(Gamma), _ptr(R))
        s = lib.nsm_proj_actuation(ctypes.byref(act), ctypes.byref(ar), _ptr(w), lw)
        if s == L.STATUS["NSM_ERR_RANK"]:
            raise Error(s, "nsm_proj_actuation", "B",
                        f"unsolvable actuation: rank(PB) = {ar.rank_pb} but n - r = {n - rank}")
        _check(s, "nsm_proj_actuation", "B")
        out.update({"rank_PB": int(ar.rank_pb), "R": R, "Gamma": Gamma})
    if has_ctl:
        cin = L.ProjControlInput(n, k, _ptr(P), _ptr(R), _ptr(Gamma), _ptr(fg), _ptr(q),
                                 _ptr(qt), _ptr(qd), None)
        cr = L.ProjControlResult(_ptr(fctl), _ptr(u), L.NSM_UNIT_DIRECTION)
        _check(lib.nsm_proj_control(ctypes.byref(cin), ctypes.byref(gains), ctypes.byref(cr),
                                    _ptr(w), lw), "nsm_proj_control", "Kp, Kd, sigma")
        out.update({"f_control": fctl, "u": u,
                    "eta": "direction" if cr.eta_case == L.NSM_UNIT_DIRECTION else "fixed_unit"})
    out["residuals"] = _residuals(n, P, Q, R if has_B else None, S, Lam, Pdot, M,
                                  Mdot if has_Mdot else None, Cbar, Mbar, mu_used, w, lw)
    return out


def _residuals(n, P, Q, R, S, Lam, Pdot, M, Mdot, Cbar, Mbar, mu, w, lw):
    r = ctypes.c_double()
    out = {}

    def add(key, name, *args):
        _check(getattr(lib, name)(n, *[_ptr(a) for a in args], ctypes.byref(r)), name)
        out[key] = r.value

    add("P2-P", "nsm_check_idempotent", P)
    add("P-PT", "nsm_check_symmetry", P)
    if R is not None:
        add("PR-P", "nsm_check_pr", P, R)
        add("R2-R", "nsm_check_idempotent", R)
    add("S2-S", "nsm_check_idempotent", S)
    add("QS-S", "nsm_check_qs", Q, S)
    add("SQ-Q", "nsm_check_sq", S, Q)
    add("PLambda", "nsm_check_plambda", P, Lam)
    if Mdot is not None:
        sk = L.CheckSkewInput(_ptr(P), _ptr(Pdot), _ptr(M), _ptr(Mdot), _ptr(Cbar), mu)
        _check(lib.nsm_check_skew(n, ctypes.byref(sk), ctypes.byref(r), _ptr(w), lw),
               "nsm_check_skew")
        out["skew"] = r.value
    pd = ctypes.c_int()
    _check(lib.nsm_check_pd(n, _ptr(Mbar), ctypes.byref(pd), _ptr(w), lw), "nsm_check_pd")
    out["Mbar_positive_definite"] = bool(pd.value)
    return out


# --- impacts ---------------------------------------------------------------------------------
_POLICIES = {"simultaneous": L.POLICY_SIMULTANEOUS, "sequential": L.POLICY_SEQUENTIAL,
             "priority": L.POLICY_PRIORITY, "schedule": L.POLICY_SCHEDULE,
             "moreau": L.POLICY_MOREAU, "sample": L.POLICY_SAMPLED,
             "bangbang": L.POLICY_BANGBANG, "set": None}
_OPTIONS = {"tangent_dim", "order", "dwell", "samples", "seed", "hold", "cycles", "tol", "steps",
            "fw_iters", "slip_rest", "project", "ztol", "ntol", "fallback_steps", "hull_tol"}
# The program's machine-readable names of the statuses after which a run's outputs are written.
_REPORTABLE = {0: "ok", L.STATUS["NSM_ERR_BOUND"]: "bound_exceeded",
               L.STATUS["NSM_ERR_NO_CONVERGENCE"]: "no_convergence",
               L.STATUS["NSM_ERR_NO_BOUND"]: "no_bound",
               L.STATUS["NSM_ERR_NOT_CERTIFIED"]: "not_certified"}
_SOURCES = {L.POLICY_SEQUENTIAL: "sequential", L.POLICY_PRIORITY: "priority",
            L.POLICY_SIMULTANEOUS: "simultaneous", L.POLICY_EXTREMAL: "extremal",
            L.POLICY_EXTREMAL_V: "extremal", L.POLICY_SCHEDULE: "schedule",
            L.POLICY_MOREAU: "moreau"}


def _count(fn, name, x, lo, hi):
    try:
        xf = float(x)
        ok = not isinstance(x, bool) and np.isfinite(xf) and xf == int(xf) and lo <= xf <= hi
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise Error(L.STATUS["NSM_ERR_ARG"], fn, name,
                    f"must be a whole number in [{lo:.0f}, {hi:.0f}], got {x!r}")
    return int(xf)


class _Problem:
    """The parsed impact problem: arrays, contact count, tangent dimension, options."""

    def __init__(self, fn, M, Jn, Jt, mu, v, policy, options):
        unknown = sorted(set(options) - _OPTIONS)
        if unknown:
            raise TypeError(f"{fn}: unknown option(s) {', '.join(unknown)} "
                            f"(known: {', '.join(sorted(_OPTIONS))})")
        if policy not in _POLICIES:
            raise Error(L.STATUS["NSM_ERR_ARG"], fn, "policy",
                        f"unknown policy {policy!r} ({', '.join(_POLICIES)})")
        self.policy = policy
        self.M = _matrix(fn, "M", M)
        n = self.n = self.M.shape[0]
        if n == 0 or self.M.shape[1] != n:
            raise _size_error(fn, "M", f"must be a non-empty square matrix, got {self.M.shape}")
        self.Jn = _matrix(fn, "Jn", Jn, cols=n)
        k = self.k = self.Jn.shape[0]
        if k == 0:
            raise _size_error(fn, "Jn", "needs at least one contact row")
        Jt_rows = np.shape(Jt)[0] if np.ndim(Jt) == 2 else None
        d = options.get("tangent_dim")
        if d is None:
            d = Jt_rows // k if Jt_rows in (k, 2 * k) else 1
        self.d = _count(fn, "tangent_dim", d, 1, 2)
        self.Jt = _matrix(fn, "Jt", Jt, k * self.d, n)
        self.mu = _vector(fn, "mu", mu, k)
        self.v = _vector(fn, "v", v, n)
        _finite(fn, M=self.M, Jn=self.Jn, Jt=self.Jt, mu=self.mu, v=self.v)
        if np.any(self.mu < 0):
            c = int(np.argmax(self.mu < 0))
            raise Error(L.STATUS["NSM_ERR_ARG"], fn, "mu",
                        f"entry [{c}] is negative (friction must be >= 0)")
        ordered = policy in ("sequential", "priority", "schedule")
        histories = policy in ("sample", "bangbang", "set")

        def only(name, ok, where):
            if name in options and not ok:
                raise Error(L.STATUS["NSM_ERR_ARG"], fn, name, f"only meaningful with {where}")

        only("order", ordered, 'policy "sequential", "priority" or "schedule"')
        only("dwell", policy == "schedule", 'policy "schedule"')
        only("samples", histories, 'policy "sample", "bangbang" or "set"')
        only("hold", histories, 'policy "sample", "bangbang" or "set"')
        only("cycles", policy == "schedule", 'policy "schedule"')
        only("project", policy == "set", 'policy "set"')
        only("hull_tol", policy == "set", 'policy "set"')
        self.order = None
        if ordered:
            o = options.get("order")
            o = list(range(k)) if o is None else [x for x in np.asarray(o).ravel()]
            if not 1 <= len(o) <= k:
                raise Error(L.STATUS["NSM_ERR_ARG"], fn, "order",
                            f"expected 1 to {k} contact indices, got {len(o)}")
            seen = set()
            for i, x in enumerate(o):
                if not (0 <= x < k) or x != int(x) or int(x) in seen:
                    raise Error(L.STATUS["NSM_ERR_ARG"], fn, "order",
                                f"entry [{i}] is not a new contact index in 0..{k - 1}")
                seen.add(int(x))
            o = [int(x) for x in o] + [c for c in range(k) if c not in seen]
            self.order = np.array(o, dtype=np.uintp)
        self.dwell = None
        if policy == "schedule":
            if "dwell" not in options:
                raise Error(L.STATUS["NSM_ERR_NULL"], fn, "dwell",
                            'missing (the "schedule" policy needs one dwell per contact, in '
                            "units of the impulse scale S)")
            self.dwell = _vector(fn, "dwell", options["dwell"], k)
            if not np.all(self.dwell >= 0):
                raise Error(L.STATUS["NSM_ERR_ARG"], fn, "dwell", "entries must be >= 0")
        samples = options.get("samples")
        if samples is None:
            if policy in ("sample", "bangbang"):
                raise Error(L.STATUS["NSM_ERR_NULL"], fn, "samples",
                            f'missing (the "{policy}" policy needs a history count)')
            samples = 2048
        self.samples = _count(fn, "samples", samples, 1, 1e6)
        self.seed = _count(fn, "seed", options.get("seed", 0), 0, 2147483646)
        hold = options.get("hold")
        self.hold = 0 if hold is None else _count(fn, "hold", hold, 1, 1e6)
        if "cycles" in options:
            self.hold = _count(fn, "cycles", options["cycles"], 1, L.NSM_SCHEDULE_MAX_CYCLES)
        opts = L.impact_opts_default()
        if options.get("tol") is not None:
            if not options["tol"] > 0:
                raise Error(L.STATUS["NSM_ERR_ARG"], fn, "tol", "must be > 0")
            opts.vtol = float(options["tol"])
        for name in ("steps", "fw_iters"):
            if options.get(name) is not None:
                setattr(opts, name, _count(fn, name, options[name], 1, 1e6))
        if options.get("fallback_steps") is not None:
            opts.fallback_steps = _count(fn, "fallback_steps", options["fallback_steps"], 1, 1e8)
        for name in ("ztol", "ntol"):
            if options.get(name) is not None:
                setattr(opts, name, float(options[name]))
        self.has_slip_rest = options.get("slip_rest") is not None
        if self.has_slip_rest:
            sr = float(options["slip_rest"])
            if not 0.0 <= sr <= 1.0:
                raise Error(L.STATUS["NSM_ERR_ARG"], fn, "slip_rest", "must be in [0, 1]")
            opts.slip_rest = sr
        self.hull_tol = 0.0
        if options.get("hull_tol") is not None:
            self.hull_tol = float(options["hull_tol"])
            if not 0.0 <= self.hull_tol <= 1.0:
                raise Error(L.STATUS["NSM_ERR_ARG"], fn, "hull_tol", "must be in [0, 1]")
        self.opts = opts
        self.project = None
        if options.get("project") is not None:
            pj = _matrix(fn, "project", options["project"], cols=n)
            if pj.shape[0] == 0 or pj.shape[0] % 2:
                raise _size_error(fn, "project", "needs an even number of rows (rows 2i and "
                                  f"2i+1 are the axes of projection i), got {pj.shape[0]}")
            _finite(fn, project=pj)
            self.project = pj
        lw = lib.nsm_impact_work(n, k)
        if lw == 0:
            raise _size_error(fn, "Jn", f"{k} contacts on {n} coordinates exceed the limits")
        self.lw = lw
        self.work = _work(("impact", n, k), lw)
        self.cprob = L.ContactProblem(n, k, self.d, _ptr(self.M), _ptr(self.Jn), _ptr(self.Jt),
                                      _ptr(self.mu), _ptr(self.v))
        self.vp = np.zeros(n)
        self.lam = np.zeros((self.d + 1) * k)
        self.res = L.ImpactResult(_ptr(self.vp), _ptr(self.lam))

    def solve(self, pol, opts):
        """One run; returns (status, dict of the run's fields as the program prints them)."""
        s = lib.nsm_impact_solve(ctypes.byref(self.cprob), ctypes.byref(pol), ctypes.byref(opts),
                                 ctypes.byref(self.res), _ptr(self.work), self.lw)
        if s not in _REPORTABLE:
            fault = None
            if s in (L.STATUS["NSM_ERR_ARG"], L.STATUS["NSM_ERR_NULL"]):
                f = lib.nsm_impact_arg_fault(self.k, self.d, _ptr(self.mu), ctypes.byref(pol),
                                             ctypes.byref(opts))
                fault = f.decode() if f else None
            raise Error(s, "nsm_impact_solve", fault)
        info = self.res.info
        lam = self.lam.reshape(self.k, self.d + 1)
        run = {"v_plus": self.vp.copy(), "impulse_n": lam[:, self.d].copy(),
               "impulse_t": lam[:, :self.d].ravel().copy(), "s": info.s, "s_bound": info.bound,
               "bound_kind": "none" if not info.has_bound
               else "lemma2" if self.k == 1 and self.d == 1 else "gamma",
               "energy_minus": info.energy_minus, "energy_plus": info.energy_plus,
               "steps": int(info.steps)}
        return s, run


def _columns(runs, keys):
    """The runs' fields as columns: numpy arrays stacked over the runs."""
    out = {}
    for key in keys:
        vals = [r[key] for r in runs]
        out[key] = np.array(vals) if vals else np.zeros(0)
    return out


_RUN_KEYS = ("v_plus", "impulse_n", "impulse_t", "s", "s_bound", "bound_kind", "energy_minus",
             "energy_plus", "steps")


def impact(M, Jn, Jt, mu, v, policy="simultaneous", **options):
    """Multiple frictional impacts, as `nsm impact` computes them: the problem file's fields
    as arguments and options (tangent_dim, inferred from Jt's rows when omitted; order, dwell,
    cycles, samples, seed, hold, tol, steps, fw_iters, slip_rest, project; also ztol, ntol,
    fallback_steps of nsm_impact_opts). A single run (simultaneous, sequential, priority,
    schedule, moreau) returns status, policy, v_plus, impulse_n, impulse_t (k·d, contact by
    contact), s, s_bound, bound_kind, energy_minus, energy_plus, steps; "sample" and
    "bangbang" return status, policy, outcomes (each field a column over the runs, with seed
    and the run's status), accepted, rejected; "set" is outcome_set(...)."""
    if policy == "set":
        return outcome_set(M, Jn, Jt, mu, v, **options)
    fn = "impact"
    p = _Problem(fn, M, Jn, Jt, mu, v, policy, options)
    ratios = np.ones(p.k)
    pol = L.ImpactPolicy()
    pol.kind = _POLICIES[policy]
    pol.order = p.order.ctypes.data_as(L.PSZ) if p.order is not None else None
    pol.ratios = _ptr(ratios)
    pol.dwell = _ptr(p.dwell)
    pol.hold = p.hold if p.hold > 0 else 1
    if policy not in ("sample", "bangbang"):
        s, run = p.solve(pol, p.opts)
        out = {"status": _REPORTABLE[s], "policy": policy}
        out.update(run)
        if s != 0:
            raise Error(s, "nsm_impact_solve", None,
                        "the result is in the exception's result", result=out)
        return out
    runs = []
    for i in range(p.samples):
        pol.seed = (p.seed + i) % L.NSM_PRNG_MOD
        s, run = p.solve(pol, p.opts)
        run["seed"] = int(pol.seed)
        run["status"] = _REPORTABLE[s]
        runs.append(run)
    accepted = sum(r["status"] == "ok" for r in runs)
    return {"status": "ok", "policy": policy,
            "outcomes": _columns(runs, ("seed", "status") + _RUN_KEYS),
            "accepted": accepted, "rejected": p.samples - accepted}


def hull2d(x, y):
    """Indices of the convex hull of the points (x[i], y[i]), counter-clockwise (nsm_hull2d)."""
    x = _vector("nsm_hull2d", "x", x)
    y = _vector("nsm_hull2d", "y", y, x.size)
    npts = x.size
    idx = np.zeros(npts + 1, dtype=np.uintp)
    hull = np.zeros(npts + 1, dtype=np.uintp)
    nh = ctypes.c_size_t()
    _check(lib.nsm_hull2d(npts, _ptr(x), _ptr(y), idx.ctypes.data_as(L.PSZ),
                          hull.ctypes.data_as(L.PSZ), ctypes.byref(nh)), "nsm_hull2d")
    return hull[:nh.value].astype(np.intp)


def outcome_set(M, Jn, Jt, mu, v, samples=2048, seed=0, hold=None, project=None, **options):
    """The outcome set (at most 16 contacts), as `nsm impact` with "policy": "set" computes it:
    the runs of nsm_outcome_set replayed with nsm_outcome_policy (and, with `project`, the
    extremal fan of nsm_outcome_plane_policy in each projection plane), so that each outcome
    has its impulses; hull_tol > 0 (an option, default 0: every run) stops each sampled
    family as nsm_outcome_next says. project: 2·p rows of n entries, rows 2i and 2i + 1 the axes of
    projection i. Returns status, policy, outcomes (columns over the runs: source, status and
    the fields of a single impact run), runs, accepted, rejected, and hull (per projection:
    rows, and vertices, the hull of the accepted outcomes' projection, counter-clockwise)."""
    fn = "outcome_set"
    opts = dict(options, samples=samples, seed=seed)
    if hold is not None:
        opts["hold"] = hold
    if project is not None:
        opts["project"] = project
    p = _Problem(fn, M, Jn, Jt, mu, v, "set", opts)
    if p.k > L.NSM_OUTCOME_MAX_M:
        raise _size_error(fn, "Jn", f"the set takes at most {L.NSM_OUTCOME_MAX_M} contacts, "
                          f"got {p.k}")
    oo = L.OutcomeOpts()
    oo.impact = p.opts
    oo.impact.slip_rest = p.opts.slip_rest if p.has_slip_rest else L.NSM_OUTCOME_SLIP_REST
    oo.nsamples = p.samples
    oo.seed = p.seed
    oo.hold = p.hold if p.hold > 0 else p.opts.steps
    oo.hull_tol = p.hull_tol
    base = lib.nsm_outcome_count(p.k, ctypes.byref(oo))
    nproj = 0 if p.project is None else p.project.shape[0] // 2
    oo.nplanes = nproj
    oo.planes = _ptr(p.project)
    total = lib.nsm_outcome_count(p.k, ctypes.byref(oo))
    if total == 0:
        raise Error(L.STATUS["NSM_ERR_ARG"], fn, "project",
                    f"at most {L.NSM_OUTCOME_MAX_PLANES} projections, got {nproj}")
    if p.hull_tol > 0 and total > 1000000:
        raise Error(L.STATUS["NSM_ERR_ARG"], fn, "hull_tol",
                    f"rounds take sets of at most 10^6 runs, this one has {total}")
    store = L.PolicyStore()
    vdir = np.zeros(p.n)
    runs = []
    vps = np.zeros((total, p.n))
    sts = np.zeros(total, dtype=np.intc)
    nxt = ctypes.c_size_t(0)
    r = 0
    while r < total:
        pol = L.ImpactPolicy()
        if r < base:
            s = lib.nsm_outcome_policy(p.k, ctypes.byref(oo), r, ctypes.byref(store),
                                       ctypes.byref(pol))
        else:
            s = lib.nsm_outcome_plane_policy(p.n, nproj, _ptr(p.project), ctypes.byref(oo.impact),
                                             r - base, _ptr(vdir), ctypes.byref(pol))
        _check(s, "nsm_outcome_policy", None)
        s, run = p.solve(pol, oo.impact)
        run["source"] = _SOURCES.get(pol.kind, "sampled")
        run["status"] = _REPORTABLE[s]
        vps[len(runs)] = run["v_plus"]
        sts[len(runs)] = s
        runs.append(run)
        nxt.value = r + 1
        if p.hull_tol > 0:
            _check(lib.nsm_outcome_next(ctypes.byref(p.cprob), ctypes.byref(oo), r, len(runs),
                                        _ptr(vps), sts.ctypes.data_as(L.PINT), ctypes.byref(nxt)),
                   "nsm_outcome_next", None)
        r = nxt.value
    cols = _columns(runs, ("source", "status") + _RUN_KEYS)
    ok = cols["status"] == "ok"
    accepted = int(np.count_nonzero(ok))
    hulls = []
    for i in range(nproj):
        ax, ay = p.project[2 * i], p.project[2 * i + 1]
        vps = cols["v_plus"][ok]
        # the projections as the program forms them: one sum per coordinate, in order
        x = np.zeros(len(vps))
        y = np.zeros(len(vps))
        for j in range(p.n):
            x += ax[j] * vps[:, j]
            y += ay[j] * vps[:, j]
        verts = np.zeros((0, 2))
        if len(vps) > 0:
            h = hull2d(x, y)
            verts = np.column_stack([x[h], y[h]])
        hulls.append({"rows": np.array([2 * i, 2 * i + 1]), "vertices": verts})
    return {"status": "ok", "policy": "set", "outcomes": cols, "runs": len(runs),
            "accepted": accepted, "rejected": len(runs) - accepted, "hull": hulls}


def run(problem):
    """A problem in the nsm program's file format (a dict, e.g. json.load of
    examples/problems/*.json) solved as `nsm impact` (when it has "Jn") or `nsm dynamics`
    would solve it; returns the same fields."""
    pb = dict(problem)
    if "Jn" in pb:
        args = [pb.pop(key) for key in ("M", "Jn", "Jt", "mu", "v")]
        return impact(*args, **pb)
    return dynamics(**pb)


def cone_project(mu, ln, lt):
    """Euclidean projection of (ln, lt) onto the friction cone {‖t‖ <= mu·n} (nsm_cone_project;
    lt has d = 1 or 2 entries). Returns (pn, pt)."""
    fn = "nsm_cone_project"
    lt = _vector(fn, "lt", np.atleast_1d(lt))
    if lt.size not in (1, 2):
        raise _size_error(fn, "lt", f"expected 1 or 2 entries, got {lt.size}")
    pn = ctypes.c_double()
    pt = np.zeros(lt.size)
    _check(lib.nsm_cone_project(lt.size, float(mu), float(ln), _ptr(lt), ctypes.byref(pn),
                                _ptr(pt)), fn, "mu" if not mu >= 0 else None)
    return pn.value, pt
