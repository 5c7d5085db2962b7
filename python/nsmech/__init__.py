"""nsmech — Python interface to libnsmech (ctypes + numpy).

    import nsmech
    out = nsmech.impact(M, Jn, Jt, mu, v, policy="sequential")
    out["v_plus"]

Functions: projector, dynamics, impact, outcome_set, run, cone_project (results: dicts with the field names of
the nsm program's JSON output), plot_outcome_set (matplotlib, optional). A status other than
NSM_OK raises nsmech.Error. The shared library is $NSMECH_LIB, else ../build/libnsmech.so
beside this package's folder, else the installed libnsmech.so.0. docs/python.md."""
from ._api import (Error, cone_project, dynamics, hull2d, impact, outcome_set, projector, run, status_str,
                   workspace_cache_info)
from ._lib import lib as _lib_handle
from .plot import plot_outcome_set

__all__ = ["Error", "cone_project", "dynamics", "hull2d", "impact", "outcome_set", "plot_outcome_set",
           "projector", "run", "status_str", "workspace_cache_info", "library_path"]

library_path = _lib_handle.path
