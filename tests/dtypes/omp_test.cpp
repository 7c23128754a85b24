// eagerpp - the Dtypes suite on ep::omp for the six integer dtypes, and promotion between dtypes
// SPDX-License-Identifier: MIT
#include <eagerpp/omp.hpp>

#include "dtypes/dtypes_suite.hpp"

namespace dtypes_suite {
using Backends =
    ::testing::Types<ep::omp<std::int8_t>, ep::omp<std::int16_t>, ep::omp<std::uint8_t>,
                     ep::omp<std::uint16_t>, ep::omp<std::uint32_t>, ep::omp<std::uint64_t>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Omp, Dtypes, Backends);
}  // namespace dtypes_suite

TEST(DtypePromotion, Omp) { dtypes_suite::check_promotion<ep::omp>(); }
