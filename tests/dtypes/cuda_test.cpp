// eagerpp - the Dtypes suite on ep::cuda for the six integer dtypes, and promotion between dtypes
// (part of eagerpp_cuda_tests: skipped without a device, only checked where scripts/test finds no
// GPU)
// SPDX-License-Identifier: MIT
#include <eagerpp/cuda.hpp>

#include "dtypes/dtypes_suite.hpp"

namespace dtypes_suite {
using Backends =
    ::testing::Types<ep::cuda<std::int8_t>, ep::cuda<std::int16_t>, ep::cuda<std::uint8_t>,
                     ep::cuda<std::uint16_t>, ep::cuda<std::uint32_t>, ep::cuda<std::uint64_t>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Cuda, Dtypes, Backends);
}  // namespace dtypes_suite

TEST(DtypePromotion, Cuda) { dtypes_suite::check_promotion<ep::cuda>(); }
