// eagerpp - the MPI collectives on Eigen, xtensor and omp, run by ctest under `mpirun -np 2`
// SPDX-License-Identifier: MIT
//
// Every rank runs every test; each test calls its collectives unconditionally on every rank before
// it asserts anything, so that a failure on one rank cannot leave another waiting in MPI. The
// expected values are closed forms of the rank-dependent inputs (sums of arithmetic series and the
// like) and, for array_split, NumPy's literals for 2 ranks.
#include <gtest/gtest.h>

#include <cstdint>  // std::int64_t
#include <map>      // std::map
#include <string>   // std::string
#include <tuple>    // std::tuple
#include <vector>   // std::vector

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/mpi.hpp>
#include <eagerpp/xtensor.hpp>
#if defined(EAGERPP_TEST_OMP)  // tests/mpi/CMakeLists.txt: where eagerpp::omp is built
#include <eagerpp/omp.hpp>
#endif

namespace {

template <class B>
class Collectives : public ::testing::Test {
 protected:
  using T = typename B::value_type;
  ep::mpi::communicator comm;
  [[nodiscard]] int rank() const { return comm.rank(); }
  [[nodiscard]] int size() const { return comm.size(); }
  [[nodiscard]] T r() const { return static_cast<T>(comm.rank()); }
  [[nodiscard]] T p() const { return static_cast<T>(comm.size()); }
};

using Backends =
    ::testing::Types<ep::eigen<float>, ep::eigen<double>, ep::xtensor<float>, ep::xtensor<double>
#if defined(EAGERPP_TEST_OMP)
                     ,
                     ep::omp<float>, ep::omp<double>
#endif
                     >;
TYPED_TEST_SUITE(Collectives, Backends);

/// Rank r holds x[i] = (r + 1) * (i + 1) * (-1)^i, i < 6, shape (2, 3).
template <class B>
ep::Tensor<B> signed_ramp(int rank) {
  using T = typename B::value_type;
  std::vector<T> v(6);
  for (int i = 0; i < 6; ++i)
    v[static_cast<std::size_t>(i)] = static_cast<T>((rank + 1) * (i + 1) * (i % 2 == 0 ? 1 : -1));
  return ep::from_vector<B>(v, {2, 3});
}

TYPED_TEST(Collectives, AllReduceSumMeanMinMax) {
  using T = typename TestFixture::T;
  const auto x = signed_ramp<TypeParam>(this->rank());
  const auto sum = this->comm.all_reduce(x, ep::mpi::op::sum);
  const auto mean = this->comm.all_reduce(x, ep::mpi::op::mean);
  const auto min = this->comm.all_reduce(x, ep::mpi::op::min);
  const auto max = this->comm.all_reduce(x, ep::mpi::op::max);
  const auto s = sum.to_vector(), m = mean.to_vector(), lo = min.to_vector(), hi = max.to_vector();
  const T p = this->p();
  for (int i = 0; i < 6; ++i) {
    const auto k = static_cast<std::size_t>(i);
    const T sign = i % 2 == 0 ? T(1) : T(-1), a = static_cast<T>(i + 1);
    // sum over r of (r + 1) = p (p + 1) / 2; the mean divides it by p.
    EXPECT_EQ(s[k], sign * a * p * (p + 1) / 2) << "element " << i;
    EXPECT_NEAR(m[k], sign * a * (p + 1) / 2, 1e-6 * static_cast<double>(a * p)) << "element " << i;
    // Positive entries are smallest on rank 0 and largest on the last rank; negative ones the
    // reverse.
    EXPECT_EQ(lo[k], sign > 0 ? a : -a * p) << "element " << i;
    EXPECT_EQ(hi[k], sign > 0 ? a * p : -a) << "element " << i;
  }
  EXPECT_EQ(sum.shape(), (ep::Shape{2, 3}));
  EXPECT_EQ(x.to_vector(),
            signed_ramp<TypeParam>(this->rank()).to_vector());  // the input is unchanged
}

TYPED_TEST(Collectives, AllReduceOfScalarAndEmptyTensors) {
  using T = typename TestFixture::T;
  const auto scalar = ep::full<TypeParam>({}, this->r() + 1);
  const auto empty = ep::zeros<TypeParam>({0, 4});
  const auto s = this->comm.all_reduce(scalar);
  const auto e = this->comm.all_reduce(empty, ep::mpi::op::max);
  EXPECT_EQ(s.shape(), ep::Shape{});
  EXPECT_EQ(s.item(), this->p() * (this->p() + 1) / 2);
  EXPECT_EQ(e.shape(), (ep::Shape{0, 4}));
  static_cast<void>(T{});
}

TYPED_TEST(Collectives, BroadcastFromLastRank) {
  using T = typename TestFixture::T;
  const int root = this->size() - 1;
  // Only the root's elements count: the others hold zeros of the same shape.
  const auto x = this->rank() == root
                     ? ep::arange<TypeParam>(T(6)).reshape({3, 2}) * T(10) + this->r()
                     : ep::zeros<TypeParam>({3, 2});
  const auto y = this->comm.broadcast(x, root);
  const auto v = y.to_vector();
  ASSERT_EQ(v.size(), 6U);
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(v[static_cast<std::size_t>(i)], T(10) * T(i) + static_cast<T>(root));
  EXPECT_EQ(y.shape(), (ep::Shape{3, 2}));
  if (this->rank() == root) {
    EXPECT_EQ(y.raw().data(), x.raw().data());  // the root keeps its own tensor
  }
}

TYPED_TEST(Collectives, AllGatherStacksAlongANewAxis) {
  using T = typename TestFixture::T;
  const auto x = ep::from_vector<TypeParam>({this->r(), T(10) * this->r()}, {2});
  const auto y = this->comm.all_gather(x);
  ASSERT_EQ(y.shape(), (ep::Shape{this->size(), 2}));
  const auto v = y.to_vector();
  for (int q = 0; q < this->size(); ++q) {
    EXPECT_EQ(v[static_cast<std::size_t>(2 * q)], static_cast<T>(q));
    EXPECT_EQ(v[static_cast<std::size_t>(2 * q + 1)], static_cast<T>(10 * q));
  }
}

TYPED_TEST(Collectives, AllGatherConcatenatesUnevenFirstAxes) {
  using T = typename TestFixture::T;
  // Rank r holds r + 1 rows of two columns, every element 100 r + its index.
  const auto x = ep::arange<TypeParam>(T(2 * (this->rank() + 1))).reshape({this->rank() + 1, 2}) +
                 T(100) * this->r();
  const auto y = this->comm.all_gather(x, ep::mpi::gather::concatenate);
  const int p = this->size();
  ASSERT_EQ(y.shape(), (ep::Shape{p * (p + 1) / 2, 2}));
  const auto v = y.to_vector();
  std::size_t at = 0;
  for (int q = 0; q < p; ++q)
    for (int k = 0; k < 2 * (q + 1); ++k, ++at)
      EXPECT_EQ(v[at], static_cast<T>(100 * q + k)) << "rank " << q << " element " << k;
}

TYPED_TEST(Collectives, ScatterSplitsLikeArraySplit) {
  using T = typename TestFixture::T;
  if (this->size() != 2) GTEST_SKIP() << "the literals below are NumPy's array_split for 2 ranks";
  // np.array_split(np.arange(14).reshape(7, 2), 2) -> rows [0, 4) and [4, 7); only root 0's data
  // counts.
  const auto whole =
      this->rank() == 0 ? ep::arange<TypeParam>(T(14)).reshape({7, 2}) : ep::zeros<TypeParam>({0});
  const auto part = this->comm.scatter(whole, 0);
  // np.array_split(np.arange(3), 2) -> [0, 1], [2]: from root 1 this time.
  const auto whole3 = this->rank() == 1 ? ep::arange<TypeParam>(T(3)) : ep::zeros<TypeParam>({5});
  const auto part3 = this->comm.scatter(whole3, 1);
  // One row over two ranks: np.array_split(np.ones((1, 3)), 2) -> shapes (1, 3) and (0, 3).
  const auto one = this->comm.scatter(ep::ones<TypeParam>({1, 3}), 0);
  if (this->rank() == 0) {
    EXPECT_EQ(part.shape(), (ep::Shape{4, 2}));
    EXPECT_EQ(part.to_vector(), (std::vector<T>{0, 1, 2, 3, 4, 5, 6, 7}));
    EXPECT_EQ(part3.to_vector(), (std::vector<T>{0, 1}));
    EXPECT_EQ(one.shape(), (ep::Shape{1, 3}));
  } else {
    EXPECT_EQ(part.shape(), (ep::Shape{3, 2}));
    EXPECT_EQ(part.to_vector(), (std::vector<T>{8, 9, 10, 11, 12, 13}));
    EXPECT_EQ(part3.to_vector(), (std::vector<T>{2}));
    EXPECT_EQ(one.shape(), (ep::Shape{0, 3}));
  }
}

TYPED_TEST(Collectives, ScatterThenConcatenateGivesTheRootsTensor) {
  using T = typename TestFixture::T;
  const auto whole = ep::arange<TypeParam>(T(33)).reshape({11, 3}) * T(0.5);
  const auto back =
      this->comm.all_gather(this->comm.scatter(whole, 0), ep::mpi::gather::concatenate);
  EXPECT_EQ(back.shape(), (ep::Shape{11, 3}));
  EXPECT_EQ(back.to_vector(), whole.to_vector());
}

/// Catches what `f` throws as an ep::value_error and returns its message ("" if nothing was
/// thrown).
template <class F>
std::string value_error_of(F&& f) {
  try {
    static_cast<void>(f());
  } catch (const ep::value_error& e) {
    return e.what();
  }
  return "";
}

TYPED_TEST(Collectives, DifferentShapesThrowOnEveryRank) {
  // Rank r holds (r + 1, 3): every rank must throw (none may wait in MPI for the others).
  const auto x = ep::ones<TypeParam>({this->rank() + 1, 3});
  const std::string reduce = value_error_of([&] { return this->comm.all_reduce(x); });
  const std::string bcast = value_error_of([&] { return this->comm.broadcast(x, 0); });
  const std::string stack = value_error_of([&] { return this->comm.all_gather(x); });
  const auto y = ep::ones<TypeParam>({2, this->rank() + 1});
  const std::string concat =
      value_error_of([&] { return this->comm.all_gather(y, ep::mpi::gather::concatenate); });
  const std::string scalar =
      value_error_of([&] { return this->comm.scatter(ep::ones<TypeParam>({}), 0); });
  // After the errors the ranks are still in step: a collective works.
  const auto sum = this->comm.all_reduce(ep::ones<TypeParam>({2}));
  if (this->size() < 2) GTEST_SKIP() << "needs two ranks";
  EXPECT_NE(
      reduce.find("all_reduce: the ranks hold different shapes (rank 0: (1, 3), rank 1: (2, 3))"),
      std::string::npos)
      << reduce;
  EXPECT_NE(bcast.find("broadcast: the ranks hold different shapes"), std::string::npos) << bcast;
  EXPECT_NE(stack.find("all_gather: the ranks hold different shapes"), std::string::npos) << stack;
  EXPECT_NE(concat.find("all_gather: cannot concatenate the ranks' tensors along the first axis "
                        "(rank 0: (2, 1), rank 1: (2, 2))"),
            std::string::npos)
      << concat;
  EXPECT_NE(scalar.find("scatter: the root (rank 0) holds a 0-d tensor"), std::string::npos)
      << scalar;
  EXPECT_EQ(sum.to_vector(), (std::vector<typename TestFixture::T>(2, this->p())));
}

TYPED_TEST(Collectives, AllReduceAndBroadcastOfATree) {
  using B = TypeParam;
  using T = typename TestFixture::T;
  using Tn = ep::Tensor<B>;
  // A struct-free tree of three leaves of different shapes, an empty one and a scalar among them.
  using Tree = std::tuple<Tn, std::vector<Tn>, std::map<std::string, Tn>>;
  const Tree t{signed_ramp<B>(this->rank()),
               {ep::zeros<B>({0, 2}), ep::full<B>({}, this->r() + 1)},
               {{"b", ep::arange<B>(T(3)) + this->r()}}};
  const Tree sum = this->comm.all_reduce(t);
  const auto direct = this->comm.all_reduce(std::get<0>(t)).to_vector();
  EXPECT_EQ(std::get<0>(sum).to_vector(), direct);  // as the tensor overload, leaf by leaf
  EXPECT_EQ(std::get<0>(sum).shape(), (ep::Shape{2, 3}));
  EXPECT_EQ(std::get<1>(sum)[0].shape(), (ep::Shape{0, 2}));
  const T p = this->p(), total = p * (p - 1) / 2;  // sum over r of r
  EXPECT_EQ(std::get<1>(sum)[1].shape(), ep::Shape{});
  EXPECT_EQ(std::get<1>(sum)[1].item(), total + p);
  EXPECT_EQ(std::get<2>(sum).at("b").to_vector(),
            (std::vector<T>{total, p + total, 2 * p + total}));
  const Tree from_root = this->comm.broadcast(t, 0);
  EXPECT_EQ(std::get<2>(from_root).at("b").to_vector(), (std::vector<T>{0, 1, 2}));
  EXPECT_EQ(std::get<0>(from_root).to_vector(), signed_ramp<B>(0).to_vector());
  // Trees that differ between ranks throw on every rank, which then stay in step.
  const std::vector<Tn> ragged(static_cast<std::size_t>(this->rank() + 1), ep::ones<B>({2}));
  const std::string err = value_error_of([&] { return this->comm.all_reduce(ragged); });
  const auto after = this->comm.all_reduce(std::vector<Tn>{ep::ones<B>({2})});
  EXPECT_EQ(after[0].to_vector(), (std::vector<T>(2, p)));
  if (this->size() < 2) GTEST_SKIP() << "needs two ranks";
  EXPECT_NE(err.find("all_reduce of a tree: the ranks' trees differ in structure or leaf shapes"),
            std::string::npos)
      << err;
}

TYPED_TEST(Collectives, DifferentDtypesThrowOnEveryRank) {
  using T = typename TestFixture::T;
  using Other = typename TypeParam::template rebind<std::int32_t>;
  // Rank 0 passes T, the others int32: each calls a different instantiation, and each must throw.
  const std::string reduce =
      this->rank() == 0
          ? value_error_of([&] { return this->comm.all_reduce(ep::ones<TypeParam>({3})); })
          : value_error_of([&] { return this->comm.all_reduce(ep::ones<Other>({3})); });
  const std::string scatter =
      this->rank() == 0
          ? value_error_of([&] { return this->comm.scatter(ep::ones<TypeParam>({3}), 0); })
          : value_error_of([&] { return this->comm.scatter(ep::ones<Other>({3}), 0); });
  if (this->size() < 2) GTEST_SKIP() << "needs two ranks";
  const std::string expected = fmt::format(
      "the ranks hold different dtypes (rank 0: {}, rank 1: int32)", ep::dtype_name<T>());
  EXPECT_NE(reduce.find("all_reduce: " + expected), std::string::npos) << reduce;
  EXPECT_NE(scatter.find("scatter: " + expected), std::string::npos) << scatter;
}

TYPED_TEST(Collectives, BadRootThrows) {
  const auto x = ep::ones<TypeParam>({2});
  EXPECT_THROW(static_cast<void>(this->comm.broadcast(x, this->size())), ep::value_error);
  EXPECT_THROW(static_cast<void>(this->comm.scatter(x, -1)), ep::value_error);
}

// --- integer and bool dtypes: one backend is enough (the dtype logic is the backend-independent
// part)

TEST(CollectivesDtypes, Int64SumIsExactAndMeanThrows) {
  ep::mpi::communicator comm;
  const std::int64_t big = std::int64_t{1} << 40;
  const auto x = ep::from_vector<ep::eigen<std::int64_t>>({big * (comm.rank() + 1), -1}, {2});
  const auto s = comm.all_reduce(x);
  const std::string mean = value_error_of([&] { return comm.all_reduce(x, ep::mpi::op::mean); });
  const std::int64_t p = comm.size();
  EXPECT_EQ(s.to_vector(), (std::vector<std::int64_t>{big * p * (p + 1) / 2, -p}));
  EXPECT_NE(
      mean.find("all_reduce: mean of an int64 tensor of shape (2,); expected float32 or float64"),
      std::string::npos)
      << mean;
}

TEST(CollectivesDtypes, BoolMinIsAndMaxIsOr) {
  ep::mpi::communicator comm;
  const auto x = ep::from_vector<ep::xtensor<bool>>({true, comm.rank() == 0, false}, {3});
  const auto all = comm.all_reduce(x, ep::mpi::op::min);
  const auto any = comm.all_reduce(x, ep::mpi::op::max);
  const std::string sum = value_error_of([&] { return comm.all_reduce(x); });
  EXPECT_EQ(all.to_vector(), (std::vector<bool>{true, comm.size() == 1, false}));
  EXPECT_EQ(any.to_vector(), (std::vector<bool>{true, true, false}));
  EXPECT_NE(sum.find("all_reduce: sum of a bool tensor"), std::string::npos) << sum;
}

TEST(CollectivesErrors, MpiFailuresBecomeExceptions) {
  const ep::mpi::communicator
      world;  // sets MPI_ERRORS_RETURN on MPI_COMM_WORLD, where MPI reports this one
  try {
    const ep::mpi::communicator null(MPI_COMM_NULL);
    ADD_FAILURE() << "a communicator over MPI_COMM_NULL did not throw";
  } catch (const ep::mpi::mpi_error& e) {
    const std::string expected =
        fmt::format("communicator: MPI_Comm_set_errhandler failed on rank {} of {} (", world.rank(),
                    world.size());
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
  }
}

}  // namespace

int main(int argc, char** argv) {
  const ep::mpi::environment env(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
