// eagerpp - eagerpp::xtensor_compiled: the explicit instantiation of ep::Tensor<ep::xtensor<T>> and
// its operators for float and double, which the backend's header declares extern to the
// translation units that link this library (include/eagerpp/detail/instantiate.hpp)
// SPDX-License-Identifier: MIT
#include "eagerpp/detail/instantiate.hpp"
#include "eagerpp/eagerpp.hpp"
#include "eagerpp/xtensor.hpp"

EAGERPP_INSTANTIATE(, ep::xtensor<float>)
EAGERPP_INSTANTIATE(, ep::xtensor<double>)
