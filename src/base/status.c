/* Status codes: a fixed, human-readable name for every nsm_status. */
#include "nsmech/base.h"

const char *nsm_status_str(nsm_status s)
{
    switch (s) {
    case NSM_OK:                 return "ok";
    case NSM_ERR_NULL:           return "a required pointer argument is NULL";
    case NSM_ERR_SIZE:           return "a dimension is out of range";
    case NSM_ERR_ARG:            return "an argument value is out of its domain";
    case NSM_ERR_NOT_FINITE:     return "an input contains NaN or an infinity";
    case NSM_ERR_NOT_SPD:        return "a matrix is not symmetric positive definite";
    case NSM_ERR_RANK:           return "a rank or solvability condition fails";
    case NSM_ERR_BOUND:          return "an a-priori bound was exceeded";
    case NSM_ERR_NO_CONVERGENCE: return "an iteration did not converge";
    case NSM_ERR_WORKSPACE:      return "the workspace is too small";
    case NSM_ERR_ALIAS:          return "outputs overlap inputs where that is forbidden";
    case NSM_ERR_NO_BOUND:       return "no a-priori bound: the contacts may wedge (gamma = 0: a cone point with J^T Lambda ~ 0 was found)";
    case NSM_ERR_NOT_CERTIFIED:  return "no a-priori bound certified within the iteration budget (gamma > 0 not shown; info.fw_gap is the duality gap left)";
    case NSM_ERR_OVERFLOW:       return "finite inputs overflowed to a non-finite result";
    case NSM_STATUS_COUNT:       break;
    }
    return "unknown status";
}
