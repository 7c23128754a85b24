// eagerpp - the Dtypes suite on ep::xtensor for the six integer dtypes, and promotion between dtypes
// SPDX-License-Identifier: MIT
#include <eagerpp/xtensor.hpp>

#include "dtypes/dtypes_suite.hpp"

namespace dtypes_suite {
using Backends = ::testing::Types<ep::xtensor<std::int8_t>, ep::xtensor<std::int16_t>,
                                  ep::xtensor<std::uint8_t>, ep::xtensor<std::uint16_t>,
                                  ep::xtensor<std::uint32_t>, ep::xtensor<std::uint64_t>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Xtensor, Dtypes, Backends);
}  // namespace dtypes_suite

TEST(DtypePromotion, Xtensor) { dtypes_suite::check_promotion<ep::xtensor>(); }
