// eagerpp - the compile-time probe's functions linked with eagerpp::eigen_compiled: every op they
// use (and the gradient rules value_and_grad runs) comes from the library; the values are checked
// against the functions' definitions computed by hand
// SPDX-License-Identifier: MIT
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>

using B = ep::eigen<float>;
using T = ep::Tensor<B>;
T l2(const T& x);
T chain(const T& x);
T chain_steps(const T& x);
T row_sums(const T& a);
T bias_add(const T& a, const T& b);
T matmul(const T& a, const T& b);

namespace {
int failures = 0;
void expect(const T& t, const std::vector<float>& want, const char* what) {
  const auto got = t.to_vector();
  bool ok = got.size() == want.size();
  for (std::size_t i = 0; ok && i < got.size(); ++i) ok = std::abs(got[i] - want[i]) <= 1e-5F;
  if (!ok) {
    std::printf("compiled_link_check: %s differs\n", what);
    ++failures;
  }
}
}  // namespace

int main() {
  const T x = ep::from_vector<B>({3, 4});
  const T a = ep::from_vector<B>({1, 2, 3, 4, 5, 6}, {2, 3});
  const T b = ep::from_vector<B>({10, 20, 30});
  const T c = ep::from_vector<B>({1, 0, 0, 1, 1, 1}, {3, 2});
  expect(l2(x), {5}, "l2");
  const float c3 = std::exp(-9.0F) * std::sin(3.0F) + 1, c4 = std::exp(-16.0F) * std::sin(4.0F) + 1;
  expect(chain(x), {c3, c4}, "chain");
  expect(chain_steps(x), {c3, c4}, "chain_steps");
  expect(row_sums(a), {6, 15}, "row_sums");
  expect(bias_add(a, b), {11, 22, 33, 14, 25, 36}, "bias_add");
  expect(matmul(a, c), {4, 5, 10, 11}, "matmul");
  const auto [value, grad] = ep::value_and_grad([](const T& t) { return l2(t); }, x);
  expect(value, {5}, "value_and_grad's value");
  expect(grad, {0.6F, 0.8F}, "value_and_grad's gradient");
  std::printf("compiled_link_check: %s\n",
              failures ? "FAILED" : "the six probe functions and a gradient agree");
  return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
