// eagerpp - ::cuda::std (libcu++), or the standard library where Thrust comes without libcu++
// SPDX-License-Identifier: MIT
#pragma once

// The Thrust code calls ::cuda::std's math and tuple, which are CUDA's in device code and the C++
// library's on the host. The CUDA toolkit's Thrust (CCCL) ships libcu++; Debian's libthrust-dev
// (Thrust 1.17, for ep::omp on a machine without the toolkit) does not, and there only host code is
// compiled, so ::cuda::std names the standard library itself.
#if __has_include(<cuda/std/cmath>)
#include <cuda/std/cmath>   // ::cuda::std::isnan, ::cuda::std::isinf, ::cuda::std::signbit, ...
#include <cuda/std/limits>  // ::cuda::std::numeric_limits
#include <cuda/std/tuple>   // ::cuda::std::tuple
#else
#if defined(__CUDACC__)
#error "eagerpp: ep::cuda needs libcu++ (<cuda/std/cmath>), which the CUDA toolkit's CCCL ships"
#endif
#include <cmath>   // std::exp, std::isnan, ...
#include <limits>  // std::numeric_limits
#include <tuple>   // std::tuple, std::get

namespace cuda::std {
using namespace ::std;  // NOLINT(google-build-using-namespace): these names are std's on the host
}  // namespace cuda::std
#endif
