// expect: ep::crossentropy: the labels must be an integer tensor
// eagerpp - compile-fail: crossentropy with float labels names crossentropy, not onehot_like (an op
// the user never called)
// SPDX-License-Identifier: MIT
#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>

int main() {
  const auto logits = ep::ones<ep::eigen<float>>({2, 3});
  const auto labels = ep::from_vector<ep::eigen<float>>({0, 2});
  auto loss = logits.crossentropy(labels);
  (void)loss;
  return 0;
}
