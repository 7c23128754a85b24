// eagerpp - ep::save_npz and ep::load_npz of parameter trees: round trips, the archives NumPy wrote
// (tests/data/tree_*.npz, from make_fixtures.py), and the errors of corrupt or mismatched archives
// SPDX-License-Identifier: MIT
#include <cstdint>     // std::int64_t
#include <filesystem>  // std::filesystem
#include <fstream>     // std::ifstream, std::ofstream
#include <iterator>    // std::istreambuf_iterator
#include <map>         // std::map
#include <string>      // std::string
#include <vector>      // std::vector

#include <gtest/gtest.h>

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/npz.hpp>
#include <eagerpp/xtensor.hpp>
#ifdef EAGERPP_TEST_OMP
#include <eagerpp/omp.hpp>
#endif
#ifdef EAGERPP_TEST_ZLIB
#include <eagerpp/npz_zlib.hpp>
#endif

#include "support/support.hpp"

namespace npz_test {

template <class B>
struct Layer {
  ep::Tensor<B> b;
};
template <class B>
EAGERPP_TREE(Layer<B>, b)

template <class B>
struct Model {
  ep::Tensor<B> w;
  std::vector<Layer<B>> layers;
};
template <class B>
EAGERPP_TREE(Model<B>, w, layers)

}  // namespace npz_test

namespace npz_suite {

using npz_test::Layer;
using npz_test::Model;

template <class B>
class Npz : public ::testing::Test {};

#ifdef EAGERPP_TEST_OMP
using Backends = ::testing::Types<ep::eigen<double>, ep::xtensor<double>, ep::omp<double>>;
#else
using Backends = ::testing::Types<ep::eigen<double>, ep::xtensor<double>>;
#endif
TYPED_TEST_SUITE(Npz, Backends);

const std::filesystem::path data_dir = EAGERPP_TEST_DATA_DIR;

// The tree make_fixtures.py saves: w = arange(6).reshape(2, 3) / 4 - 0.5, layers/0/b.
template <class B>
Model<B> fixture_like() {
  return {ep::zeros<B>({2, 3}), {Layer<B>{ep::zeros<B>({3})}}};
}
void expect_fixture(const auto& m) {
  EXPECT_EQ(m.w.to_vector(), (std::vector<double>{-0.5, -0.25, 0, 0.25, 0.5, 0.75}));
  EXPECT_EQ(m.layers[0].b.to_vector(), (std::vector<double>{1.5, -2.0, 3.25}));
}

std::filesystem::path temp_file(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         (name + "_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
          ::testing::UnitTest::GetInstance()->current_test_info()->type_param() + ".npz");
}

TYPED_TEST(Npz, RoundTripsATree) {
  using B = TypeParam;
  using T = ep::Tensor<B>;
  const Model<B> m{ep::test::random_tensor<B>({4, 2}, -1, 1, 3),
                   {Layer<B>{ep::test::random_tensor<B>({2}, -1, 1, 4)},
                    Layer<B>{ep::test::random_tensor<B>({0}, -1, 1, 5)}}};
  const auto path = temp_file("eagerpp_npz_roundtrip");
  ep::save_npz(path, m);
  const Model<B> like{ep::zeros<B>({4, 2}),
                      {Layer<B>{ep::zeros<B>({2})}, Layer<B>{ep::zeros<B>({0})}}};
  const Model<B> back = ep::load_npz(path, like);
  EXPECT_EQ(back.w.to_vector(), m.w.to_vector());
  EXPECT_EQ(back.layers[0].b.to_vector(), m.layers[0].b.to_vector());
  EXPECT_EQ(back.layers[1].b.shape(), (ep::Shape{0}));
  // The members by name, as numpy.load lists them.
  const auto all = ep::load_npz<B>(path);
  ASSERT_EQ(all.size(), 3U);
  EXPECT_TRUE(all.contains("w") && all.contains("layers/0/b") && all.contains("layers/1/b"));
  // A lone tensor is arr_0, as numpy.savez names it.
  const T t = ep::test::random_tensor<B>({3}, -1, 1, 6);
  ep::save_npz(path, t);
  EXPECT_EQ(ep::load_npz(path, t.zeros_like()).to_vector(), t.to_vector());
  EXPECT_TRUE(ep::load_npz<B>(path).contains("arr_0"));
  std::filesystem::remove(path);
}

TYPED_TEST(Npz, ReadsWhatNumpyWrote) {
  using B = TypeParam;
  expect_fixture(ep::load_npz(data_dir / "tree_stored.npz", fixture_like<B>()));
#ifdef EAGERPP_TEST_ZLIB
  expect_fixture(ep::load_npz(data_dir / "tree_deflated.npz", fixture_like<B>(), ep::zlib));
#endif
  ep::test::expect_throws_with<ep::io_error>(
      [&] { (void)ep::load_npz(data_dir / "tree_deflated.npz", fixture_like<B>()); },
      {"load_npz", "tree_deflated.npz", "member 'w.npy' is deflated", "ep::zlib"});
}

TYPED_TEST(Npz, CorruptOrMismatchedArchivesNameTheMember) {
  using B = TypeParam;
  using ep::test::expect_throws_with;
  const auto stored = data_dir / "tree_stored.npz";
  // Another shape, another dtype, a missing member, an extra member.
  Model<B> wrong = fixture_like<B>();
  wrong.w = ep::zeros<B>({3, 2});
  expect_throws_with<ep::io_error>(
      [&] { (void)ep::load_npz(stored, wrong); },
      {"load_npz", "member 'w.npy' has shape (2, 3); expected (3, 2)", ".w"});
  const ep::Tensor<ep::eigen<float>> f32 = ep::zeros<ep::eigen<float>>({2, 3});
  expect_throws_with<ep::io_error>(
      [&] {
        (void)ep::load_npz(stored, std::map<std::string, ep::Tensor<ep::eigen<float>>>{{"w", f32}});
      },
      {"load_npz", "member w.npy", "dtype mismatch"});
  Model<B> more = fixture_like<B>();
  more.layers.push_back(Layer<B>{ep::zeros<B>({3})});
  expect_throws_with<ep::io_error>([&] { (void)ep::load_npz(stored, more); },
                                   {"no member 'layers/1/b.npy'", ".layers[1].b"});
  Model<B> fewer = fixture_like<B>();
  fewer.layers.clear();
  expect_throws_with<ep::io_error>([&] { (void)ep::load_npz(stored, fewer); },
                                   {"the member 'layers/0/b.npy' matches no leaf"});
  // Truncated and corrupted copies.
  std::ifstream in(stored, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto path = temp_file("eagerpp_npz_corrupt");
  auto write = [&](const std::string& b) { std::ofstream(path, std::ios::binary) << b; };
  write(bytes.substr(0, 100));
  expect_throws_with<ep::io_error>([&] { (void)ep::load_npz(path, fixture_like<B>()); },
                                   {"load_npz", "not a .npz (ZIP) archive"});
  std::string flipped = bytes;
  flipped[200] = static_cast<char>(flipped[200] ^ 0x5a);  // inside the first member's data
  write(flipped);
  expect_throws_with<ep::io_error>([&] { (void)ep::load_npz(path, fixture_like<B>()); },
                                   {"load_npz", "is corrupt", "CRC-32"});
  std::filesystem::remove(path);
  expect_throws_with<ep::io_error>([&] { (void)ep::load_npz(path, fixture_like<B>()); },
                                   {"load_npz", "cannot open"});
}

}  // namespace npz_suite
