// eagerpp - the umbrella header of the core: the facade, free functions, autodiff, printing
// SPDX-License-Identifier: MIT
//
// Include a backend too, e.g. <eagerpp/eigen.hpp> or <eagerpp/xtensor.hpp>; this header includes
// none.
#pragma once

#include "eagerpp/astensor.hpp"
#include "eagerpp/autodiff/checkpoint.hpp"
#include "eagerpp/autodiff/grad.hpp"
#include "eagerpp/autodiff/jacobian.hpp"
#include "eagerpp/backend.hpp"
#include "eagerpp/dtypes.hpp"
#include "eagerpp/error.hpp"
#include "eagerpp/format.hpp"
#include "eagerpp/functions.hpp"
#include "eagerpp/linalg.hpp"
#include "eagerpp/memory.hpp"
#include "eagerpp/ops/array_api.hpp"
#include "eagerpp/shape.hpp"
#include "eagerpp/tensor.hpp"
#include "eagerpp/to.hpp"

/// The version of eagerpp.
#define EAGERPP_VERSION_MAJOR 0
#define EAGERPP_VERSION_MINOR 1
#define EAGERPP_VERSION_PATCH 0
