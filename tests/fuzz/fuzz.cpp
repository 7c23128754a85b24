// eagerpp - the differential fuzzer: random programs on every CPU backend must agree
// SPDX-License-Identifier: MIT
//
// Usage: eagerpp_fuzz [--programs N] [--seed S] [--seconds T] [--grad-every K] [--size-scale K]
//                     [--quiet]
//   Generates N random programs (or as many as fit in T seconds) and runs each on every backend
//   linked in (backend_<name>.cpp: Eigen, xtensor, and ep::omp where it is built), twice each: as
//   it runs by default and fused (interpret.hpp's run_fused: every element-wise result lazy, in
//   blocks of 64 to 256 elements, values read after the last instruction). Every K-th
//   program (default 4) is a gradient program, checked across backends and against central
//   differences in double. --size-scale K lets the first input hold K times as many elements (48,
//   12 for a gradient program) with extents up to 3 + K, so that fused runs span many blocks. On a
//   disagreement it prints the program as C++ and exits with 1.
//
// What "agree" means (the comparer below):
//   - the same values up to the same instruction, and there the same ep::error type;
//   - integer and bool values exactly; floating values exactly (NaN = NaN, -0 = +0) where they come
//     from correctly rounded operations on exact inputs, else within kUlps units in the last place
//     of the larger of |a|, |b| and the magnitude of the terms whose rounding reaches them;
//   - in gradient mode, the loss and gradient within 1e-9 (relative; for a gradient element also
//     1e-10 of the largest one, absolutely) across backends, and the
//     gradient within 1e-5 (relative, plus 1e-6 absolute) of central differences with h = 1e-6, or
//     where the loss is too curved for that, with h = 1e-7, or where the values' rounding swamps
//     that, with h = 1e-5.
#include <algorithm>  // std::max, std::min
#include <chrono>     // std::chrono::steady_clock
#include <cmath>      // std::abs, std::isnan, std::isinf
#include <cstdio>     // std::printf
#include <cstdlib>    // std::strtoull
#include <limits>     // std::numeric_limits
#include <optional>   // std::optional
#include <string>     // std::string
#include <vector>     // std::vector

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "fuzz/generate.hpp"

namespace {

using namespace ep::fuzz;

constexpr double kUlps = 16;

double epsilon(dtype t) {
  return t == dtype::float32 ? std::numeric_limits<float>::epsilon()
                             : std::numeric_limits<double>::epsilon();
}

std::string describe(const value& v) {
  std::vector<std::string> shown;
  for (std::size_t i = 0; i < v.f.size() && i < 24; ++i)
    shown.push_back(fmt::format("{:.9g}", v.f[i]));
  return fmt::format("{} {} [{}{}]", dtype_name(v.type), v.shape.str(), fmt::join(shown, ", "),
                     v.f.size() > 24 ? ", ..." : "");
}

/// Why `b` disagrees with `a` on value k, or nothing.
std::optional<std::string> compare_value(const value& a, const value& b, const value_info& info) {
  if (a.type != b.type || !(a.shape == b.shape))
    return fmt::format("dtype/shape {} {} vs {} {}", dtype_name(a.type), a.shape.str(),
                       dtype_name(b.type), b.shape.str());
  if (info.tag == 2) return std::nullopt;
  if (!is_floating(a.type)) {
    if (a.i != b.i) return fmt::format("values {} vs {}", describe(a), describe(b));
    return std::nullopt;
  }
  for (std::size_t i = 0; i < a.f.size(); ++i) {
    const double x = a.f[i], y = b.f[i];
    if (std::isnan(x) || std::isnan(y)) {
      if (std::isnan(x) && std::isnan(y)) continue;
      if (info.tag == 1 && (std::isinf(x) || std::isinf(y) || info.has_nan))
        continue;  // inf - inf in some order
      return fmt::format("element {}: {} vs {} (NaN on one side)\n  {}\n  {}", i, x, y, describe(a),
                         describe(b));
    }
    if (x == y) continue;
    if (info.tag == 0)
      return fmt::format("element {}: {:.17g} vs {:.17g} (exact)\n  {}\n  {}", i, x, y, describe(a),
                         describe(b));
    const double bound =
        kUlps * epsilon(a.type) * (std::max(std::abs(x), std::abs(y)) + info.scale);
    if (!(std::abs(x - y) <= bound))
      return fmt::format("element {}: {:.17g} vs {:.17g}, off by {:.3g} > {:.3g}\n  {}\n  {}", i, x,
                         y, std::abs(x - y), bound, describe(a), describe(b));
  }
  return std::nullopt;
}

std::optional<std::string> compare(const outcome& a, const outcome& b,
                                   const std::vector<value_info>& info) {
  if (a.failed_at != b.failed_at || a.error_type != b.error_type)
    return fmt::format("errors differ: instruction {} '{}' ({}) vs instruction {} '{}' ({})",
                       a.failed_at, a.error_type, a.error_message, b.failed_at, b.error_type,
                       b.error_message);
  if (a.values.size() != b.values.size()) return std::string("value counts differ");
  for (std::size_t k = 0; k < a.values.size() && k < info.size(); ++k)
    if (auto why = compare_value(a.values[k], b.values[k], info[k]))
      return fmt::format("value v{}: {}", k, *why);
  return std::nullopt;
}

bool close(double x, double y, double rel, double abs) {
  if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
  return x == y || std::abs(x - y) <= abs + rel * std::max(std::abs(x), std::abs(y));
}

/// The gradient of `p` against central differences of its forward program on `ref`.
std::optional<std::string> check_gradient(const program& p, const outcome& g,
                                          const interpreter& ref) {
  program fwd = p;
  fwd.grad = false;
  const auto& x = p.inputs[0].values;
  if (g.grad.size() != x.size())
    return fmt::format("gradient has {} elements, x has {}", g.grad.size(), x.size());
  // The loss is the sum of the last value's elements; its central difference is summed element by
  // element, sum_k (v_k(x + h) - v_k(x - h)) / 2h, not as the difference of two sums: a sum's
  // rounding does not cancel between the two, and divided by 2h it swamps the quotient (the sum of
  // a cumsum of 13720 elements, 9.4e7: quotients -3223.42 at h = 1e-6 and -3300.53 at h = 1e-7
  // for a gradient of -3230.9536; element by element, -3230.9514 and -3230.9693).
  auto central = [&](std::size_t i, double h) {
    program plus = fwd, minus = fwd;
    plus.inputs[0].values[i] += h;
    minus.inputs[0].values[i] -= h;
    const outcome a = ref.run(plus), b = ref.run(minus);
    const auto& va = a.values.back().f;
    const auto& vb = b.values.back().f;
    double d = 0;
    for (std::size_t k = 0; k < va.size() && k < vb.size(); ++k) d += va[k] - vb[k];
    return d / (2 * h);
  };
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double tolerance = 1e-6 * (1 + std::abs(g.loss) * 1e-3);
    if (!std::isfinite(g.grad[i])) return fmt::format("gradient element {}: {}", i, g.grad[i]);
    const double fd = central(i, 1e-6);
    if (close(g.grad[i], fd, 1e-5, tolerance)) continue;
    // The truncation error h^2 f'''(x) / 6 of a strongly curved loss (sin of a product of six
    // values: 0.12 at h = 1e-6 where the gradient is 4406.364) shrinks 100 times at h = 1e-7; the
    // error of a wrong gradient does not.
    const double fd2 = central(i, 1e-7);
    if (close(g.grad[i], fd2, 1e-5, tolerance)) continue;
    // The rounding error of the values, divided by 2h, grows tenfold at h = 1e-7 instead: a loss
    // of 45159 (exp of a cross-entropy of cumulative sums up to 30) gives -4.0018e-4 at h = 1e-6
    // and -8.0036e-4 at h = 1e-7 for a gradient of -3.516964e-4 (exact, in 60 digits). At
    // h = 1e-5 that error is ten times smaller, and a wrong gradient's error is not.
    const double fd3 = central(i, 1e-5);
    if (!close(g.grad[i], fd3, 1e-5, tolerance))
      return fmt::format(
          "gradient element {}: {:.12g}, central difference {:.12g} (h = 1e-6), {:.12g} "
          "(h = 1e-7), {:.12g} (h = 1e-5)",
          i, g.grad[i], fd, fd2, fd3);
  }
  return std::nullopt;
}

struct options {
  unsigned long long programs = 1000, seed = 1, grad_every = 4, size_scale = 1;
  double seconds = 0;
  bool quiet = false;
};

/// The command line's options, or nothing (after the usage line) when one is unknown.
std::optional<options> parse(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&] { return i + 1 < argc ? std::strtoull(argv[++i], nullptr, 10) : 0ULL; };
    if (a == "--programs")
      o.programs = next();
    else if (a == "--seed")
      o.seed = next();
    else if (a == "--seconds")
      o.seconds = static_cast<double>(next());
    else if (a == "--grad-every")
      o.grad_every = next();
    else if (a == "--size-scale")
      o.size_scale = next();
    else if (a == "--quiet")
      o.quiet = true;
    else {
      std::fprintf(stderr,
                   "usage: eagerpp_fuzz [--programs N] [--seed S] [--seconds T] [--grad-every K] "
                   "[--size-scale K] [--quiet]\n");
      return std::nullopt;
    }
  }
  return o;
}

/// Why gradient outcome `o` disagrees with the reference's `r`, or nothing.
std::optional<std::string> compare_gradients(const outcome& r, const outcome& o) {
  if (r.failed_at != o.failed_at || r.error_type != o.error_type)
    return fmt::format("errors differ: '{}' ({}) vs '{}' ({})", r.error_type, r.error_message,
                       o.error_type, o.error_message);
  if (!close(r.loss, o.loss, 1e-9, 1e-12))
    return fmt::format("loss {:.17g} vs {:.17g}", r.loss, o.loss);
  // Elementwise 1e-9 relative, and absolutely 1e-10 of the largest gradient element: a component
  // that cancels to about 0 differs by the rounding of its terms (9.1e-13 vs -2.0e-12 where the
  // others are of order 1, summed in another order).
  double scale = std::abs(r.loss);
  for (double v : r.grad) scale = std::max(scale, std::abs(v));
  for (std::size_t i = 0; i < r.grad.size(); ++i)
    if (!close(r.grad[i], o.grad[i], 1e-9, 1e-12 + 1e-10 * scale))
      return fmt::format("gradient element {}: {:.17g} vs {:.17g}", i, r.grad[i], o.grad[i]);
  return std::nullopt;
}

/// Runs one program on every backend against the first; `who` names the two that disagree.
std::optional<std::string> check_program(const program& p, const std::vector<value_info>& info,
                                         const outcome& r, std::string& who) {
  const auto& backends = interpreters();
  const interpreter& ref = backends[0];
  for (std::size_t b = 1; b < backends.size(); ++b) {
    const outcome o = backends[b].run(p);
    auto why = p.grad ? compare_gradients(r, o) : compare(r, o, info);
    if (!why) continue;
    who = fmt::format("{} vs {}", ref.label(), backends[b].label());
    if (backends[b].fused)
      *why += fmt::format(
          "\n(the fused run: the program inside ep::fusion_scope({{.min_size = 0, "
          ".block_bytes = {}}}), its values read after the last instruction, the last first)",
          p.fused_block_bytes());
    return why;
  }
  if (!p.grad) return std::nullopt;
  who = ref.label();
  if (r.failed_at >= 0)
    return fmt::format("gradient program failed: {} ({})", r.error_type, r.error_message);
  who = ref.label() + " vs central differences";
  return check_gradient(p, r, ref);
}

/// What the programs that agreed held.
struct tally {
  unsigned long long done = 0, grads = 0, invalid = 0, values = 0, exact = 0, inexact = 0;
  void add(const program& p, const outcome& r, const std::vector<value_info>& info) {
    ++done;
    grads += p.grad;
    invalid += !p.grad && r.failed_at >= 0;
    if (p.grad) return;
    for (std::size_t k = p.inputs.size(); k < info.size(); ++k) {
      ++values;
      exact += info[k].tag == 0;
      inexact += info[k].tag == 1;
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  const auto opt = parse(argc, argv);
  if (!opt) return 2;
  auto& backends = interpreters();
  if (backends.size() < 2) {
    std::fprintf(stderr, "eagerpp_fuzz: %zu backend(s) linked in; need two to compare\n",
                 backends.size());
    return 2;
  }
  std::vector<std::string> names;
  for (const auto& b : backends) names.push_back(b.label());
  const interpreter& ref = backends[0];
  generator gen(ref, opt->seed, static_cast<int>(std::min(opt->size_scale, 64ULL)));
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  tally t;
  for (unsigned long long n = 0; n < opt->programs; ++n) {
    if (opt->seconds > 0 && elapsed() > opt->seconds) break;
    const bool grad_mode = opt->grad_every > 0 && n % opt->grad_every == opt->grad_every - 1;
    const program p = gen.next(grad_mode);
    const outcome r = ref.run(p);
    std::string who;
    if (const auto why = check_program(p, gen.info(), r, who)) {
      std::printf("eagerpp_fuzz: DISAGREEMENT (seed %llu, program %llu, %s): %s\n%s", opt->seed, n,
                  who.c_str(), why->c_str(), to_cpp(p, "ep::" + ref.name).c_str());
      return 1;
    }
    t.add(p, r, gen.info());
    if (!opt->quiet && t.done % 10000 == 0)
      std::printf("eagerpp_fuzz: %llu programs...\n", t.done), std::fflush(stdout);
  }
  std::printf(
      "eagerpp_fuzz: %llu programs (seed %llu; %llu gradient, %llu ending in an ep::error; %llu op "
      "results: %llu compared exactly, %llu within %g ulp, the rest by dtype and shape) agree on "
      "%s in %.1f s\n",
      t.done, opt->seed, t.grads, t.invalid, t.values, t.exact, t.inexact, kUlps,
      fmt::format("{}", fmt::join(names, ", ")).c_str(), elapsed());
  return 0;
}
