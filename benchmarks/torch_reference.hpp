// eagerpp - the autodiff benchmark's computations in libtorch, registered beside eagerpp's
// SPDX-License-Identifier: MIT
#pragma once

#include <vector>  // std::vector

namespace ep::bench {

/// Registers "<case>/torch/f" and "<case>/torch/value_and_grad" for l2_1e6, logistic_1024x256 and
/// ten_ops_n1 (float, CPU, one intra-op thread like eagerpp). Defined in torch_reference.cpp, which
/// is compiled only when CMake finds libtorch (find_package(Torch QUIET)).
void register_torch_benchmarks();

/// Registers "mlp_forward/torch", "mlp_step/torch" and "adam_step/torch" (mlp_bench's MLP; defined in mlp_torch.cpp,
/// compiled only when CMake finds libtorch).
void register_mlp_torch_benchmarks();

/// The parameters after `steps` steps of torch::optim::Adam (lr 1e-3, PyTorch's defaults;
/// `adam` true) or of torch::optim::SGD (lr 0.1, momentum 0.9) from `p0` with the gradient `g` at
/// every step: the reference mlp_bench checks ep::optim against (mlp_torch.cpp).
std::vector<float> torch_optimizer_steps(const std::vector<float>& p0, const std::vector<float>& g,
                                         int steps, bool adam);

}  // namespace ep::bench
