/*
 * nsmech — formally specified nonsmooth mechanics for robot controllers.
 * Umbrella header: includes every module header.
 */
#ifndef NSMECH_H
#define NSMECH_H

#include "nsmech/base.h"
#include "nsmech/linalg.h"
#include "nsmech/setvalued.h"
#include "nsmech/contact.h"
#include "nsmech/impact.h"
#include "nsmech/outcome.h"
#include "nsmech/geometry.h"
#include "nsmech/projection.h"
#include "nsmech/check.h"

#endif
