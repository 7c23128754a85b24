// eagerpp - the Dtypes suite on ep::eigen for the six integer dtypes, and promotion between dtypes
// SPDX-License-Identifier: MIT
#include <eagerpp/eigen.hpp>

#include "dtypes/dtypes_suite.hpp"

namespace dtypes_suite {
using Backends =
    ::testing::Types<ep::eigen<std::int8_t>, ep::eigen<std::int16_t>, ep::eigen<std::uint8_t>,
                     ep::eigen<std::uint16_t>, ep::eigen<std::uint32_t>, ep::eigen<std::uint64_t>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Eigen, Dtypes, Backends);
}  // namespace dtypes_suite

TEST(DtypePromotion, Eigen) { dtypes_suite::check_promotion<ep::eigen>(); }
