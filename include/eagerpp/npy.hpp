// eagerpp - NumPy's .npy files: ep::save_npy and ep::load_npy, so data moves between eagerpp and
// NumPy
// SPDX-License-Identifier: MIT
#pragma once

#include <bit>          // std::endian
#include <complex>      // std::complex
#include <cstdint>      // std::uint8_t, std::uint32_t
#include <cstring>      // std::memcpy
#include <filesystem>   // std::filesystem::path
#include <fstream>      // std::ifstream, std::ofstream
#include <iterator>     // std::istreambuf_iterator
#include <string>       // std::string
#include <type_traits>  // std::is_signed_v
#include <utility>      // std::pair, std::move
#include <vector>       // std::vector

#include <fmt/format.h>

#include "eagerpp/functions.hpp"
#include "eagerpp/tensor.hpp"

namespace ep {

namespace detail {

static_assert(std::endian::native == std::endian::little,
              "eagerpp's .npy support assumes a little-endian machine");

/// NumPy's `descr` of T on a little-endian machine: "<f4", "<c8", "<i8", "|u1", "|b1", ...
template <class T>
constexpr std::string_view npy_descr() {
  if constexpr (std::same_as<T, bool>)
    return "|b1";
  else if constexpr (std::same_as<T, float>)
    return "<f4";
  else if constexpr (std::same_as<T, double>)
    return "<f8";
  else if constexpr (std::same_as<T, std::complex<float>>)
    return "<c8";
  else if constexpr (std::same_as<T, std::complex<double>>)
    return "<c16";
  else if constexpr (std::is_signed_v<T>)
    return sizeof(T) == 1 ? "|i1" : sizeof(T) == 2 ? "<i2" : sizeof(T) == 4 ? "<i4" : "<i8";
  else
    return sizeof(T) == 1 ? "|u1" : sizeof(T) == 2 ? "<u2" : sizeof(T) == 4 ? "<u4" : "<u8";
}

struct npy_header {
  std::string descr;
  bool fortran_order = false;
  Shape shape;
  std::size_t data_offset = 0;
};

[[noreturn]] inline void npy_fail(const std::filesystem::path& path, const std::string& problem) {
  throw io_error(fmt::format("load_npy: {}: {}", path.string(), problem));
}

/// The value following `'key':` in NumPy's header dict, up to the next top-level ',' or '}'.
inline std::string npy_field(const std::filesystem::path& path, const std::string& dict,
                             const std::string& key) {
  const auto k = dict.find("'" + key + "'");
  if (k == std::string::npos) npy_fail(path, fmt::format("the header lacks '{}' ({})", key, dict));
  auto colon = dict.find(':', k);
  if (colon == std::string::npos) npy_fail(path, fmt::format("malformed header ({})", dict));
  std::size_t i = colon + 1;
  while (i < dict.size() && dict[i] == ' ') ++i;
  std::size_t j = i;
  if (j < dict.size() && dict[j] == '(') {
    j = dict.find(')', j);
    if (j == std::string::npos) npy_fail(path, fmt::format("malformed shape in header ({})", dict));
    return dict.substr(i, j - i + 1);
  }
  while (j < dict.size() && dict[j] != ',' && dict[j] != '}') ++j;
  std::string v = dict.substr(i, j - i);
  while (!v.empty() && v.back() == ' ') v.pop_back();
  return v;
}

inline npy_header parse_npy_header(const std::filesystem::path& path, const std::string& bytes) {
  static constexpr char magic[] = "\x93NUMPY";
  if (bytes.size() < 10 || bytes.compare(0, 6, magic, 6) != 0)
    npy_fail(path, "not a .npy file (no \\x93NUMPY magic)");
  const auto major = static_cast<unsigned char>(bytes[6]);
  std::size_t header_len = 0, offset = 0;
  if (major == 1) {
    header_len = static_cast<unsigned char>(bytes[8]) |
                 (std::size_t{static_cast<unsigned char>(bytes[9])} << 8);
    offset = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) npy_fail(path, "truncated header");
    std::uint32_t len = 0;
    std::memcpy(&len, bytes.data() + 8, 4);
    header_len = len;
    offset = 12;
  } else {
    npy_fail(path, fmt::format("unsupported .npy format version {}; expected 1, 2 or 3", major));
  }
  if (bytes.size() < offset + header_len)
    npy_fail(path, fmt::format("truncated header: {} bytes, expected {}", bytes.size(),
                               offset + header_len));
  const std::string dict = bytes.substr(offset, header_len);
  npy_header h;
  h.data_offset = offset + header_len;
  h.descr = npy_field(path, dict, "descr");
  if (h.descr.size() >= 2 && (h.descr.front() == '\'' || h.descr.front() == '"'))
    h.descr = h.descr.substr(1, h.descr.size() - 2);
  const std::string fo = npy_field(path, dict, "fortran_order");
  if (fo != "True" && fo != "False") npy_fail(path, fmt::format("bad fortran_order '{}'", fo));
  h.fortran_order = fo == "True";
  const std::string shape = npy_field(path, dict, "shape");
  if (shape.empty() || shape.front() != '(' || shape.back() != ')')
    npy_fail(path, fmt::format("bad shape '{}'", shape));
  std::size_t i = 1;
  while (i + 1 < shape.size()) {
    while (i + 1 < shape.size() && (shape[i] == ' ' || shape[i] == ',')) ++i;
    if (i + 1 >= shape.size()) break;
    std::size_t j = i;
    std::int64_t d = 0;
    while (j < shape.size() && shape[j] >= '0' && shape[j] <= '9') {
      if (d > (std::int64_t{1} << 48))
        npy_fail(path, fmt::format("extent too large in shape '{}'", shape));
      d = d * 10 + (shape[j] - '0');
      ++j;
    }
    if (j == i) npy_fail(path, fmt::format("bad shape '{}'", shape));
    if (h.shape.size() == max_rank)
      npy_fail(path, fmt::format("rank of shape '{}' exceeds {}", shape, max_rank));
    h.shape.push_back(d);
    i = j;
  }
  return h;
}

}  // namespace detail

namespace detail {

/// The bytes of `t` in NumPy's .npy format (version 1.0, C order): what save_npy writes, and each
/// member of save_npz's archive.
template <backend B>
std::string npy_bytes(const Tensor<B>& t) {
  using T = typename B::value_type;
  const Shape s = t.shape();
  std::string shape = "(";
  for (int i = 0; i < s.size(); ++i) shape += fmt::format("{}, ", s[i]);
  if (s.size() > 1) shape.resize(shape.size() - 2);
  if (s.size() == 1) shape.resize(shape.size() - 1);
  shape += ")";
  std::string header = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}",
                                   npy_descr<T>(), shape);
  const std::size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  const auto len = static_cast<std::uint16_t>(header.size());
  out += static_cast<char>(len & 0xff);
  out += static_cast<char>(len >> 8);
  out += header;
  const auto values = t.to_vector();
  if constexpr (std::same_as<T, bool>) {
    for (bool v : values) out += v ? '\1' : '\0';
  } else {
    out.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
  }
  return out;
}

}  // namespace detail

/// Writes `t` to `path` in NumPy's .npy format (version 1.0, C order); throws ep::io_error on
/// failure.
template <backend B>
void save_npy(const std::filesystem::path& path, const Tensor<B>& t) {
  const std::string bytes = detail::npy_bytes(t);
  std::ofstream out(path, std::ios::binary);
  if (!out) throw io_error(fmt::format("save_npy: {}: cannot open for writing", path.string()));
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw io_error(fmt::format("save_npy: {}: write failed", path.string()));
}

namespace detail {

/// The elements (in C order) and the shape of a .npy file's `bytes`, of dtype T: the whole reader
/// but the backend, so that a fuzzer can feed it every input (tests/fuzz/npy_fuzz.cpp). `name`
/// names the file in the errors. Throws ep::io_error, and nothing else but std::bad_alloc, for any
/// input; it never allocates more than the input's size calls for, whatever its header claims.
template <class T>
std::pair<std::vector<T>, Shape> read_npy(const std::filesystem::path& name,
                                          const std::string& bytes) {
  const auto h = parse_npy_header(name, bytes);
  if (h.descr != npy_descr<T>())
    npy_fail(name, fmt::format("dtype mismatch: the file holds '{}', expected '{}' ({})", h.descr,
                               npy_descr<T>(), dtype_name<T>()));
  // The element count, checked: a lying header may claim extents whose product overflows 64 bits
  // (NumPy: "array is too big"). Extents of 0 make an empty array, but the others must still make
  // a shape that a tensor can have.
  std::size_t n = 1, nonzero = 1;
  for (const auto d : h.shape) {
    const auto e = static_cast<std::size_t>(d);
    if (e != 0 && __builtin_mul_overflow(nonzero, e, &nonzero))
      npy_fail(name,
               fmt::format("shape {} is too large; expected at most 2^63 elements", h.shape.str()));
    n *= e;
  }
  std::size_t needed = 0;
  if (__builtin_mul_overflow(nonzero, sizeof(T), &needed) || needed > std::size_t{1} << 62)
    npy_fail(name, fmt::format("shape {} is too large: over 2^62 bytes", h.shape.str()));
  needed = n * sizeof(T);
  const std::size_t available = bytes.size() - h.data_offset;
  if (available < needed)
    npy_fail(name, fmt::format("truncated data: shape {} needs {} bytes, the file has {}",
                               h.shape.str(), needed, available));
  std::vector<T> values(n);
  if constexpr (std::same_as<T, bool>) {
    for (std::size_t i = 0; i < n; ++i) values[i] = bytes[h.data_offset + i] != 0;
  } else if (n > 0) {
    std::memcpy(values.data(), bytes.data() + h.data_offset, n * sizeof(T));
  }
  if (!h.fortran_order || h.shape.size() < 2 || n == 0) return {std::move(values), h.shape};
  // Fortran order: element (i0, ..., ik) is at i0 + d0 * (i1 + d1 * (...)). Walk the C-order
  // indices with a counter and the Fortran strides.
  const int rank = h.shape.size();
  Shape fstride = h.shape, index = h.shape;
  std::size_t acc = 1;
  for (int a = 0; a < rank; ++a) {
    fstride[a] = static_cast<std::int64_t>(acc);
    acc *= static_cast<std::size_t>(h.shape[a]);
    index[a] = 0;
  }
  std::vector<T> c_order(n);
  std::size_t from = 0;
  for (std::size_t i = 0; i < n; ++i) {
    c_order[i] = values[from];
    for (int a = rank - 1; a >= 0; --a) {  // next C-order index: the last axis runs fastest
      from += static_cast<std::size_t>(fstride[a]);
      if (++index[a] < h.shape[a]) break;
      from -= static_cast<std::size_t>(fstride[a] * h.shape[a]);
      index[a] = 0;
    }
  }
  return {std::move(c_order), h.shape};
}

}  // namespace detail

/// Reads a .npy file written by NumPy or `save_npy` into a tensor of backend B. Throws ep::io_error
/// naming the file and the problem when it is missing, corrupt, truncated, or of another dtype.
template <backend B>
Tensor<B> load_npy(const std::filesystem::path& path) {
  using T = typename B::value_type;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw io_error(fmt::format("load_npy: {}: cannot open the file", path.string()));
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto [values, shape] = detail::read_npy<T>(path, bytes);
  return from_vector<B>(values, shape);
}

}  // namespace ep
