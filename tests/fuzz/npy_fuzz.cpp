// eagerpp - fuzz target of the .npy and .npz readers: any input gives a tensor's elements or an
// ep::io_error
// SPDX-License-Identifier: MIT
//
// Built two ways from this one file (tests/fuzz/CMakeLists.txt):
//  - with clang's libFuzzer (-fsanitize=fuzzer,address,undefined, EAGERPP_LIBFUZZER defined):
//  coverage-
//    guided, seeded with npy_corpus/ (valid files of every dtype, order and rank);
//  - with the project's compiler, as a plain program that mutates the corpus at random (byte flips,
//    truncations, insertions, digits in the header) for `--runs N --seed S`, under ASan+UBSan in
//    CI.
// The reader is core-only (ep::detail::read_npy: no backend), so this translation unit is cheap.
#include <cstddef>    // std::size_t
#include <cstdint>    // std::uint8_t, std::int32_t, std::int64_t
#include <cstdio>     // std::printf, std::fprintf
#include <cstdlib>    // std::abort, std::strtoull
#include <exception>  // std::exception
#include <string>     // std::string
#include <vector>     // std::vector

#include <eagerpp/npy.hpp>
#include <eagerpp/npz.hpp>

namespace {

/// Reads `bytes` as each dtype; the only exception allowed is ep::io_error, and a tensor read must
/// have as many elements as its shape says. Returns how many dtypes read it.
template <class T>
int read_as(const std::string& bytes) {
  try {
    const auto [values, shape] = ep::detail::read_npy<T>("fuzz.npy", bytes);
    if (static_cast<std::int64_t>(values.size()) != shape.numel() || shape.size() > ep::max_rank) {
      std::fprintf(stderr, "npy_fuzz: %zu elements for shape %s\n", values.size(),
                   shape.str().c_str());
      std::abort();
    }
    return 1;
  } catch (const ep::io_error&) {
    return 0;
  }
}

/// Whether `a` and `b` read as T give the same elements and shape (both or neither readable).
template <class T>
bool same_read(const std::string& a, const std::string& b) {
  try {
    return ep::detail::read_npy<T>("a.npy", a) == ep::detail::read_npy<T>("b.npy", b);
  } catch (const ep::io_error&) {
    return true;
  }
}

int read_npy_all(const std::string& bytes) {
  return read_as<float>(bytes) + read_as<double>(bytes) + read_as<std::int32_t>(bytes) +
         read_as<std::int64_t>(bytes) + read_as<bool>(bytes);
}

/// Reads `bytes` as a .npy file, and as a .npz archive whose members are each read as .npy files:
/// the archive reader too may throw only ep::io_error.
int read_all(const std::string& bytes) {
  int n = read_npy_all(bytes);
  try {
    for (const auto& [name, member] : ep::detail::read_npz("fuzz.npz", bytes))
      n += read_npy_all(member);
  } catch (const ep::io_error&) {
  }
  return n;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  (void)read_all(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}

#ifndef EAGERPP_LIBFUZZER
#include <algorithm>   // std::sort
#include <filesystem>  // std::filesystem::directory_iterator
#include <fstream>     // std::ifstream
#include <iterator>    // std::istreambuf_iterator
#include <random>      // std::mt19937_64

namespace {

/// One random change of `s`, of the kinds that break a .npy file's framing and header.
void mutate(std::string& s, std::mt19937_64& rng) {
  auto pick = [&](std::size_t n) {
    return n == 0 ? std::size_t{0} : static_cast<std::size_t>(rng() % n);
  };
  switch (rng() % 8) {
    case 0:  // flip a bit
      if (!s.empty()) s[pick(s.size())] ^= static_cast<char>(1 << (rng() % 8));
      break;
    case 1:  // truncate
      s.resize(pick(s.size() + 1));
      break;
    case 2:  // insert a random byte
      s.insert(s.begin() + static_cast<std::ptrdiff_t>(pick(s.size() + 1)),
               static_cast<char>(rng()));
      break;
    case 3:  // erase a run
      if (!s.empty()) {
        const std::size_t at = pick(s.size());
        s.erase(at, 1 + pick(8));
      }
      break;
    case 4: {  // a digit of the header (the shape, the header length) becomes another, or many
      const std::size_t end = std::min<std::size_t>(s.size(), 128);
      std::vector<std::size_t> digits;
      for (std::size_t i = 0; i < end; ++i)
        if (s[i] >= '0' && s[i] <= '9') digits.push_back(i);
      if (!digits.empty()) {
        const std::size_t at = digits[pick(digits.size())];
        if (rng() % 2)
          s[at] = static_cast<char>('0' + rng() % 10);
        else
          s.insert(at, std::string(1 + pick(20), static_cast<char>('0' + rng() % 10)));
      }
      break;
    }
    case 5: {  // a header token replaced by another
      static const char* tokens[] = {"True",
                                     "False",
                                     "'<f4'",
                                     "'<f8'",
                                     "'<i4'",
                                     "'<i8'",
                                     "'|b1'",
                                     "()",
                                     "(0,)",
                                     "(",
                                     ")",
                                     ",",
                                     "'shape'",
                                     "'descr'",
                                     "'fortran_order'",
                                     ":",
                                     "}",
                                     "{",
                                     "(4294967296, 4294967296)",
                                     "(281474976710656, 281474976710656, 0)",
                                     "(1, 1, 1, 1, 1, 1, 1, 1, 1)",
                                     "-1",
                                     "\n"};
      const std::size_t at = pick(std::min<std::size_t>(s.size(), 128) + 1);
      const std::size_t len = pick(12);
      s.replace(at, std::min(len, s.size() - at), tokens[pick(sizeof(tokens) / sizeof(tokens[0]))]);
      break;
    }
    case 6:  // the length field or the version
      if (s.size() > 9) s[6 + pick(4)] = static_cast<char>(rng());
      break;
    default:  // append junk
      s.append(pick(16), static_cast<char>(rng()));
      break;
  }
}

}  // namespace

/// Usage: eagerpp_npy_fuzz <corpus dir> [--runs N] [--seed S]
int main(int argc, char** argv) {
  std::string corpus_dir;
  unsigned long long runs = 100000, seed = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc)
      runs = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--seed" && i + 1 < argc)
      seed = std::strtoull(argv[++i], nullptr, 10);
    else
      corpus_dir = a;
  }
  std::vector<std::string> corpus;
  std::vector<std::filesystem::path> paths;
  for (const auto& e : std::filesystem::directory_iterator(corpus_dir)) paths.push_back(e.path());
  std::sort(paths.begin(), paths.end());
  for (const auto& p : paths) {
    std::ifstream in(p, std::ios::binary);
    corpus.emplace_back((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  if (corpus.empty()) {
    std::fprintf(stderr, "npy_fuzz: no seed files in '%s'\n", corpus_dir.c_str());
    return 2;
  }
  // Every seed is a valid file: exactly one dtype reads a .npy seed, and some dtype each member of
  // a .npz seed.
  for (std::size_t i = 0; i < corpus.size(); ++i) {
    const int reads = read_all(corpus[i]);
    if (paths[i].extension() == ".npz" ? reads < 1 : reads != 1) {
      std::fprintf(stderr, "npy_fuzz: seed %s is not read as exactly one dtype\n",
                   paths[i].c_str());
      return 1;
    }
  }
  // A Fortran-order seed holds the elements of its C-order twin: both read the same.
  for (std::size_t i = 0; i < corpus.size(); ++i) {
    std::string twin = paths[i].filename().string();
    const auto f = twin.find("_F_");
    if (f == std::string::npos) continue;
    twin.replace(f, 3, "_C_");
    const auto j = static_cast<std::size_t>(
        std::find(paths.begin(), paths.end(), paths[i].parent_path() / twin) - paths.begin());
    if (j == paths.size() ||
        !(same_read<float>(corpus[i], corpus[j]) && same_read<double>(corpus[i], corpus[j]) &&
          same_read<std::int32_t>(corpus[i], corpus[j]) &&
          same_read<std::int64_t>(corpus[i], corpus[j]) && same_read<bool>(corpus[i], corpus[j]))) {
      std::fprintf(stderr, "npy_fuzz: seed %s does not read as its C-order twin\n",
                   paths[i].c_str());
      return 1;
    }
  }
  std::mt19937_64 rng(seed);
  unsigned long long accepted = 0;
  for (unsigned long long r = 0; r < runs; ++r) {
    std::string s = corpus[rng() % corpus.size()];
    const int changes = 1 + static_cast<int>(rng() % 4);
    for (int c = 0; c < changes; ++c) mutate(s, rng);
    accepted += static_cast<unsigned long long>(read_all(s) > 0);
  }
  std::printf(
      "npy_fuzz: %llu inputs (seed %llu, %zu seeds): %llu read as a tensor, %llu rejected with "
      "ep::io_error, "
      "no crash\n",
      runs, seed, corpus.size(), accepted, runs - accepted);
  return 0;
}
#endif
