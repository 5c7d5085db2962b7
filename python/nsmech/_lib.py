"""Loading libnsmech.so, the ctypes mirrors of the public structs of include/nsmech/*.h and the
prototypes of the functions the package calls. Internal: use the functions of nsmech."""
import ctypes
import ctypes.util
import os

c_size_t = ctypes.c_size_t
c_double = ctypes.c_double
c_int = ctypes.c_int
c_ulong = ctypes.c_ulong
PD = ctypes.POINTER(c_double)
PSZ = ctypes.POINTER(c_size_t)
PINT = ctypes.POINTER(c_int)

# nsm_status (include/nsmech/base.h), in enum order.
STATUS_NAMES = (
    "NSM_OK", "NSM_ERR_NULL", "NSM_ERR_SIZE", "NSM_ERR_ARG", "NSM_ERR_NOT_FINITE",
    "NSM_ERR_NOT_SPD", "NSM_ERR_RANK", "NSM_ERR_BOUND", "NSM_ERR_NO_CONVERGENCE",
    "NSM_ERR_WORKSPACE", "NSM_ERR_ALIAS", "NSM_ERR_NO_BOUND", "NSM_ERR_NOT_CERTIFIED",
    "NSM_ERR_OVERFLOW",
)
STATUS = {name: code for code, name in enumerate(STATUS_NAMES)}

# nsm_policy_kind (include/nsmech/impact.h).
POLICY_SEQUENTIAL, POLICY_SIMULTANEOUS, POLICY_SAMPLED, POLICY_PRIORITY, POLICY_BANGBANG, \
    POLICY_EXTREMAL, POLICY_EXTREMAL_V, POLICY_SCHEDULE, POLICY_MOREAU = range(9)

NSM_RANK_RTOL_DEFAULT = 1e-10
NSM_PROJ_VEL_ZTOL_DEFAULT = 1e-12
NSM_PROJ_XI_TOL_DEFAULT = 1e-9
NSM_PRNG_MOD = 2147483647
NSM_SCHEDULE_MAX_CYCLES = 1000000
NSM_OUTCOME_MAX_M = 16
NSM_OUTCOME_MAX_PLANES = 64
NSM_OUTCOME_SLIP_REST = 1.0 / 256.0
NSM_OUTCOME_HULL_TOL = 1e-3
NSM_UNIT_DIRECTION = 0


class Struct(ctypes.Structure):
    """A mirror of a C struct; C_NAME is its typedef name in the public headers."""
    C_NAME = ""


# --- projection.h ----------------------------------------------------------------------------
class ProjProblem(Struct):
    C_NAME = "nsm_proj_problem"
    _fields_ = [("n", c_size_t), ("m", c_size_t), ("M", PD), ("C", PD), ("A", PD),
                ("Adot", PD), ("f", PD), ("fg", PD), ("qd", PD)]


class ProjProjectorResult(Struct):
    C_NAME = "nsm_proj_projector_result"
    _fields_ = [("rank", c_size_t), ("P", PD), ("Q", PD), ("Apinv", PD)]


class ProjRatesResult(Struct):
    C_NAME = "nsm_proj_rates_result"
    _fields_ = [("Lambda", PD), ("Pdot", PD)]


class ProjOpts(Struct):
    C_NAME = "nsm_proj_opts"
    _fields_ = [("rank_rtol", c_double), ("mu_mode", c_int), ("mu", c_double),
                ("check_spd", c_int), ("sym_rtol", c_double)]


class ProjInfo(Struct):
    C_NAME = "nsm_proj_info"
    _fields_ = [("rank", c_size_t), ("mu", c_double)]


class ProjDynamicsResult(Struct):
    C_NAME = "nsm_proj_dynamics_result"
    _fields_ = [("qdd", PD), ("fc", PD), ("P", PD), ("Mbar", PD), ("info", ProjInfo)]


class ProjActuationInput(Struct):
    C_NAME = "nsm_proj_actuation_input"
    _fields_ = [("n", c_size_t), ("k", c_size_t), ("r", c_size_t), ("P", PD), ("B", PD),
                ("rtol", c_double)]


class ProjActuationResult(Struct):
    C_NAME = "nsm_proj_actuation_result"
    _fields_ = [("rank_pb", c_size_t), ("Gamma", PD), ("R", PD)]


class ProjGains(Struct):
    C_NAME = "nsm_proj_gains"
    _fields_ = [("kp", c_double), ("kd", c_double), ("sigma", c_double), ("vel_ztol", c_double),
                ("xi_tol", c_double)]


class ProjControlInput(Struct):
    C_NAME = "nsm_proj_control_input"
    _fields_ = [("n", c_size_t), ("k", c_size_t), ("P", PD), ("R", PD), ("Gamma", PD),
                ("fg", PD), ("q", PD), ("qstar", PD), ("qd", PD), ("xi", PD)]


class ProjControlResult(Struct):
    C_NAME = "nsm_proj_control_result"
    _fields_ = [("f", PD), ("u", PD), ("eta_case", c_int)]


# --- check.h ---------------------------------------------------------------------------------
class CheckSkewInput(Struct):
    C_NAME = "nsm_check_skew_input"
    _fields_ = [("P", PD), ("Pdot", PD), ("M", PD), ("Mdot", PD), ("Cbar", PD),
                ("mu", c_double)]


# --- impact.h --------------------------------------------------------------------------------
class ImpactPolicy(Struct):
    C_NAME = "nsm_impact_policy"
    _fields_ = [("kind", c_int), ("order", PSZ), ("ratios", PD), ("seed", c_ulong),
                ("hold", c_size_t), ("dir", PD), ("vdir", PD), ("dwell", PD)]


class ImpactOpts(Struct):
    C_NAME = "nsm_impact_opts"
    _fields_ = [("steps", c_size_t), ("ztol", c_double), ("ntol", c_double), ("vtol", c_double),
                ("fw_iters", c_size_t), ("fallback_steps", c_size_t), ("slip_rest", c_double)]


def impact_opts_default(slip_rest=0.0):
    """NSM_IMPACT_OPTS_REST(slip_rest); NSM_IMPACT_OPTS_DEFAULT for 0."""
    return ImpactOpts(2000, 1e-12, 1e-12, 1e-9, 5000, 1000000, slip_rest)


class ImpactInfo(Struct):
    C_NAME = "nsm_impact_info"
    _fields_ = [("s", c_double), ("bound", c_double), ("gamma_lb", c_double),
                ("fw_gap", c_double), ("energy_minus", c_double), ("energy_plus", c_double),
                ("check_tol", c_double), ("steps", c_size_t), ("step_cap", c_size_t),
                ("forced", c_size_t), ("has_bound", c_int), ("terminated", c_int)]


class ContactProblem(Struct):
    C_NAME = "nsm_contact_problem"
    _fields_ = [("n", c_size_t), ("m", c_size_t), ("d", c_size_t), ("M", PD), ("Jn", PD),
                ("Jt", PD), ("mu", PD), ("v_minus", PD)]


class ImpactResult(Struct):
    C_NAME = "nsm_impact_result"
    _fields_ = [("v_plus", PD), ("Lambda", PD), ("info", ImpactInfo)]


# --- outcome.h -------------------------------------------------------------------------------
class OutcomeOpts(Struct):
    C_NAME = "nsm_outcome_opts"
    _fields_ = [("impact", ImpactOpts), ("nsamples", c_size_t), ("seed", c_ulong),
                ("hold", c_size_t), ("nplanes", c_size_t), ("planes", PD),
                ("hull_tol", c_double)]


class OutcomeResult(Struct):
    C_NAME = "nsm_outcome_result"
    _fields_ = [("cap", c_size_t), ("v_plus", PD), ("status", PINT), ("kind", PINT),
                ("nruns", c_size_t), ("accepted", c_size_t)]


class PolicyStore(Struct):
    C_NAME = "nsm_policy_store"
    _fields_ = [("order", c_size_t * NSM_OUTCOME_MAX_M), ("ratios", c_double * NSM_OUTCOME_MAX_M),
                ("dir", c_double * (3 * NSM_OUTCOME_MAX_M)),
                ("dwell", c_double * NSM_OUTCOME_MAX_M)]


STRUCTS = (ProjProblem, ProjProjectorResult, ProjRatesResult, ProjOpts, ProjInfo,
           ProjDynamicsResult, ProjActuationInput, ProjActuationResult, ProjGains,
           ProjControlInput, ProjControlResult, CheckSkewInput, ImpactPolicy, ImpactOpts,
           ImpactInfo, ContactProblem, ImpactResult, OutcomeOpts, OutcomeResult, PolicyStore)

P = ctypes.POINTER
# name: (restype, argtypes)
PROTOTYPES = {
    "nsm_status_str": (ctypes.c_char_p, [c_int]),
    "nsm_proj_projector_work": (c_size_t, [c_size_t, c_size_t]),
    "nsm_proj_projector": (c_int, [c_size_t, c_size_t, PD, c_double, P(ProjProjectorResult),
                                   PD, c_size_t]),
    "nsm_proj_rates_work": (c_size_t, [c_size_t]),
    "nsm_proj_rates": (c_int, [c_size_t, c_size_t, PD, PD, PD, P(ProjRatesResult), PD,
                               c_size_t]),
    "nsm_proj_oblique_work": (c_size_t, [c_size_t]),
    "nsm_proj_oblique": (c_int, [c_size_t, PD, PD, PD, PD, PD, c_size_t]),
    "nsm_proj_cbar_work": (c_size_t, [c_size_t]),
    "nsm_proj_cbar": (c_int, [P(ProjProblem), PD, PD, c_double, PD, PD, c_size_t]),
    "nsm_proj_dynamics_work": (c_size_t, [c_size_t, c_size_t]),
    "nsm_proj_dynamics": (c_int, [P(ProjProblem), P(ProjOpts), P(ProjDynamicsResult), PD,
                                  c_size_t]),
    "nsm_proj_actuation_work": (c_size_t, [c_size_t, c_size_t]),
    "nsm_proj_actuation": (c_int, [P(ProjActuationInput), P(ProjActuationResult), PD,
                                   c_size_t]),
    "nsm_proj_control_work": (c_size_t, [c_size_t]),
    "nsm_proj_control": (c_int, [P(ProjControlInput), P(ProjGains), P(ProjControlResult), PD,
                                 c_size_t]),
    "nsm_check_idempotent": (c_int, [c_size_t, PD, PD]),
    "nsm_check_symmetry": (c_int, [c_size_t, PD, PD]),
    "nsm_check_pr": (c_int, [c_size_t, PD, PD, PD]),
    "nsm_check_qs": (c_int, [c_size_t, PD, PD, PD]),
    "nsm_check_sq": (c_int, [c_size_t, PD, PD, PD]),
    "nsm_check_plambda": (c_int, [c_size_t, PD, PD, PD]),
    "nsm_check_skew_work": (c_size_t, [c_size_t]),
    "nsm_check_skew": (c_int, [c_size_t, P(CheckSkewInput), PD, PD, c_size_t]),
    "nsm_check_pd_work": (c_size_t, [c_size_t]),
    "nsm_check_pd": (c_int, [c_size_t, PD, PINT, PD, c_size_t]),
    "nsm_impact_work": (c_size_t, [c_size_t, c_size_t]),
    "nsm_impact_solve": (c_int, [P(ContactProblem), P(ImpactPolicy), P(ImpactOpts),
                                 P(ImpactResult), PD, c_size_t]),
    "nsm_impact_arg_fault": (ctypes.c_char_p, [c_size_t, c_size_t, PD, P(ImpactPolicy),
                                               P(ImpactOpts)]),
    "nsm_outcome_count": (c_size_t, [c_size_t, P(OutcomeOpts)]),
    "nsm_outcome_policy": (c_int, [c_size_t, P(OutcomeOpts), c_size_t, P(PolicyStore),
                                   P(ImpactPolicy)]),
    "nsm_outcome_plane_policy": (c_int, [c_size_t, c_size_t, PD, P(ImpactOpts), c_size_t, PD,
                                         P(ImpactPolicy)]),
    "nsm_outcome_next": (c_int, [P(ContactProblem), P(OutcomeOpts), c_size_t, c_size_t, PD,
                                 PINT, PSZ]),
    "nsm_hull2d": (c_int, [c_size_t, PD, PD, PSZ, PSZ, PSZ]),
    "nsm_cone_project": (c_int, [c_size_t, c_double, c_double, PD, PD, PD]),
}


def find_library():
    """The path of the shared library: $NSMECH_LIB, else ../build/libnsmech.so next to the
    package (a source tree after make), else the installed libnsmech.so.0."""
    env = os.environ.get("NSMECH_LIB")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    built = os.path.normpath(os.path.join(here, "..", "..", "build", "libnsmech.so"))
    if os.path.exists(built):
        return built
    found = ctypes.util.find_library("nsmech")
    return found if found else "libnsmech.so.0"


def load(path=None):
    path = path or find_library()
    try:
        lib = ctypes.CDLL(path)
    except OSError as exc:
        raise ImportError(
            f"nsmech: cannot load the shared library {path!r} ({exc}); build it with 'make' "
            "in the source tree, or set NSMECH_LIB to the path of libnsmech.so") from exc
    for name, (res, args) in PROTOTYPES.items():
        fn = getattr(lib, name)
        fn.restype = res
        fn.argtypes = args
    lib.path = path
    return lib


lib = load()
