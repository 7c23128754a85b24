// eagerpp - NumPy's .npz archives of parameter trees: ep::save_npz and ep::load_npz
// SPDX-License-Identifier: MIT
#pragma once

#include <array>        // std::array
#include <cstddef>      // std::size_t
#include <cstdint>      // std::uint16_t, std::uint32_t, std::uint64_t
#include <filesystem>   // std::filesystem::path
#include <fstream>      // std::ifstream, std::ofstream
#include <iterator>     // std::istreambuf_iterator
#include <map>          // std::map
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <vector>       // std::vector

#include <fmt/format.h>

#include "eagerpp/error.hpp"
#include "eagerpp/npy.hpp"
#include "eagerpp/tree.hpp"

namespace ep {

namespace detail {

/// CRC-32 (ISO 3309, the ZIP format's checksum), by the usual 256-entry table.
inline std::uint32_t crc32(std::string_view bytes) {
  static const auto table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
      std::uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1U) != 0 ? 0xEDB88320U ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  std::uint32_t c = 0xFFFFFFFFU;
  for (const char ch : bytes) c = table[(c ^ static_cast<unsigned char>(ch)) & 0xFFU] ^ (c >> 8);
  return c ^ 0xFFFFFFFFU;
}

inline void put_le(std::string& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out += static_cast<char>((v >> (8 * i)) & 0xFFU);
}

/// One member of a ZIP archive as its central directory describes it.
struct zip_member {
  std::string name;
  std::uint16_t method = 0;  // 0 stored, 8 deflated
  std::uint32_t crc = 0;
  std::uint64_t compressed = 0, size = 0, offset = 0;
};

[[noreturn]] inline void npz_fail(std::string_view archive, const std::string& problem) {
  throw io_error(fmt::format("load_npz: {}: {}", archive, problem));
}

/// Reads little-endian integers from `bytes`, throwing "truncated" past the end.
struct le_reader {
  std::string_view bytes;
  std::string_view archive;
  [[nodiscard]] std::uint64_t at(std::size_t pos, int n) const {
    if (pos > bytes.size() || bytes.size() - pos < static_cast<std::size_t>(n))
      npz_fail(archive, fmt::format("truncated archive: {} bytes, a field at offset {} needs {}",
                                    bytes.size(), pos, pos + static_cast<std::size_t>(n)));
    std::uint64_t v = 0;
    for (int i = 0; i < n; ++i)
      v |= std::uint64_t{static_cast<unsigned char>(bytes[pos + static_cast<std::size_t>(i)])}
           << (8 * i);
    return v;
  }
};

/// The members of the ZIP archive `bytes`, from its central directory (ZIP64 fields included, as
/// NumPy writes them). Throws ep::io_error, naming `archive`, for anything that is not a ZIP
/// archive or is truncated; never reads out of bounds.
inline std::vector<zip_member> zip_directory(std::string_view archive, std::string_view bytes) {
  const le_reader r{bytes, archive};
  if (bytes.size() < 22) npz_fail(archive, "not a .npz (ZIP) archive: too short");
  std::size_t eocd = std::string_view::npos;
  const std::size_t lowest = bytes.size() > 22 + 65535 ? bytes.size() - 22 - 65535 : 0;
  for (std::size_t p = bytes.size() - 22 + 1; p-- > lowest;)
    if (r.at(p, 4) == 0x06054b50U) {
      eocd = p;
      break;
    }
  if (eocd == std::string_view::npos)
    npz_fail(archive, "not a .npz (ZIP) archive: no end of central directory record");
  std::uint64_t entries = r.at(eocd + 10, 2), cd_offset = r.at(eocd + 16, 4);
  if ((entries == 0xFFFF || cd_offset == 0xFFFFFFFFU) && eocd >= 20 &&
      r.at(eocd - 20, 4) == 0x07064b50U) {  // ZIP64: the locator points at the ZIP64 record
    const std::uint64_t z = r.at(eocd - 20 + 8, 8);
    if (z > bytes.size() || r.at(static_cast<std::size_t>(z), 4) != 0x06064b50U)
      npz_fail(archive, "corrupt ZIP64 end of central directory");
    entries = r.at(static_cast<std::size_t>(z) + 32, 8);
    cd_offset = r.at(static_cast<std::size_t>(z) + 48, 8);
  }
  std::vector<zip_member> members;
  std::size_t p = cd_offset <= bytes.size() ? static_cast<std::size_t>(cd_offset) : bytes.size();
  for (std::uint64_t k = 0; k < entries; ++k) {
    if (r.at(p, 4) != 0x02014b50U)
      npz_fail(archive, fmt::format("corrupt central directory: entry {} has no signature", k));
    zip_member m;
    m.method = static_cast<std::uint16_t>(r.at(p + 10, 2));
    m.crc = static_cast<std::uint32_t>(r.at(p + 16, 4));
    m.compressed = r.at(p + 20, 4);
    m.size = r.at(p + 24, 4);
    const std::size_t name_len = r.at(p + 28, 2), extra_len = r.at(p + 30, 2),
                      comment_len = r.at(p + 32, 2);
    m.offset = r.at(p + 42, 4);
    if (bytes.size() - (p + 46) < name_len + extra_len)
      npz_fail(archive, fmt::format("truncated central directory at entry {}", k));
    m.name = std::string(bytes.substr(p + 46, name_len));
    // The ZIP64 extra field (id 1): the 8-byte sizes and offset whose 4-byte fields are all ones.
    for (std::size_t e = p + 46 + name_len; e + 4 <= p + 46 + name_len + extra_len;) {
      const std::uint64_t id = r.at(e, 2), len = r.at(e + 2, 2);
      if (id == 1) {
        std::size_t q = e + 4;
        if (m.size == 0xFFFFFFFFU) m.size = r.at(q, 8), q += 8;
        if (m.compressed == 0xFFFFFFFFU) m.compressed = r.at(q, 8), q += 8;
        if (m.offset == 0xFFFFFFFFU) m.offset = r.at(q, 8);
      }
      e += 4 + static_cast<std::size_t>(len);
    }
    members.push_back(std::move(m));
    p += 46 + name_len + extra_len + comment_len;
  }
  return members;
}

/// The uncompressed bytes of member `m`: stored members directly, deflated ones through
/// `inflate(compressed, size)`. Checks the bounds and the CRC-32.
template <class Inflate>
std::string zip_member_bytes(std::string_view archive, std::string_view bytes, const zip_member& m,
                             const Inflate& inflate) {
  const le_reader r{bytes, archive};
  if (m.offset > bytes.size() || r.at(static_cast<std::size_t>(m.offset), 4) != 0x04034b50U)
    npz_fail(archive, fmt::format("member '{}': no local header at offset {}", m.name, m.offset));
  const auto off = static_cast<std::size_t>(m.offset);
  const std::size_t start = off + 30 + r.at(off + 26, 2) + r.at(off + 28, 2);
  if (start > bytes.size() || bytes.size() - start < m.compressed)
    npz_fail(archive, fmt::format("member '{}' is truncated: {} bytes expected at offset {}, the "
                                  "archive has {}",
                                  m.name, m.compressed, start, bytes.size()));
  const std::string_view data = bytes.substr(start, static_cast<std::size_t>(m.compressed));
  std::string out;
  if (m.method == 0) {
    out = std::string(data);
  } else if (m.method == 8) {
    out = inflate(archive, m.name, data, static_cast<std::size_t>(m.size));
  } else {
    npz_fail(archive, fmt::format("member '{}' uses ZIP compression method {}; expected 0 "
                                  "(stored) or 8 (deflated)",
                                  m.name, m.method));
  }
  if (out.size() != m.size || crc32(out) != m.crc)
    npz_fail(archive, fmt::format("member '{}' is corrupt: its CRC-32 or size does not match the "
                                  "directory's ({} bytes expected, {} read)",
                                  m.name, m.size, out.size()));
  return out;
}

/// The inflater of the core: none. Deflated members (numpy.savez_compressed) need zlib, in the
/// eagerpp::npz target (<eagerpp/npz_zlib.hpp>, ep::zlib).
struct stored_only {
  std::string operator()(std::string_view archive, const std::string& member, std::string_view,
                         std::size_t) const {
    npz_fail(archive, fmt::format("member '{}' is deflated (numpy.savez_compressed); expected a "
                                  "stored member, or pass ep::zlib from <eagerpp/npz_zlib.hpp> "
                                  "(target eagerpp::npz) to load_npz",
                                  member));
  }
};

/// The member name of the leaf at `p`: its path joined by '/', "arr_0" for a lone tensor.
inline std::string npz_member_name(const tree_path& p) {
  std::string n = p.name_str();
  return (n.empty() ? std::string("arr_0") : n) + ".npy";
}

/// Every member of the archive `bytes` by name, uncompressed (the fuzz target's entry point).
template <class Inflate = stored_only>
std::map<std::string, std::string> read_npz(std::string_view archive, std::string_view bytes,
                                            const Inflate& inflate = {}) {
  std::map<std::string, std::string> out;
  for (const auto& m : zip_directory(archive, bytes))
    out[m.name] = zip_member_bytes(archive, bytes, m, inflate);
  return out;
}

inline std::string read_file_bytes(std::string_view op, const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw io_error(fmt::format("{}: {}: cannot open the file", op, path.string()));
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace detail

/// Writes the tensor leaves of `tree` to `path` as NumPy's .npz archive (numpy.savez's format:
/// a ZIP archive of stored .npy members), one member per leaf named by its path: an EAGERPP_TREE
/// struct's member names, a map's keys and a vector's indices joined by '/' (`layers/0/w.npy`),
/// `arr_0.npy` for a lone tensor. `numpy.load` reads it. Throws ep::io_error on failure.
template <class Tree>
void save_npz(const std::filesystem::path& path, const Tree& tree) {
  std::string archive, directory;
  std::size_t count = 0;
  tree_for_each_with_path(
      [&](const tree_path& p, const auto& leaf) {
        static_assert(istensor<decltype(leaf)>, "ep::save_npz: every leaf must be a tensor");
        const std::string name = detail::npz_member_name(p);
        const std::string data = detail::npy_bytes(leaf);
        const std::uint32_t crc = detail::crc32(data);
        const std::uint64_t offset = archive.size();
        if (offset > 0xFFFFFFFEU || data.size() > 0xFFFFFFFEU)
          throw io_error(
              fmt::format("save_npz: {}: member '{}' lies past 4 GiB; expected smaller "
                          "archives (ZIP64 is not written)",
                          path.string(), name));
        auto header = [&](std::string& out, bool central) {
          using detail::put_le;
          put_le(out, central ? 0x02014b50U : 0x04034b50U, 4);
          if (central) put_le(out, 20, 2);  // version made by
          put_le(out, 20, 2);               // version needed: 2.0
          put_le(out, 0, 2);                // flags
          put_le(out, 0, 2);                // method: stored
          put_le(out, 0, 2);                // time
          put_le(out, 0x21, 2);             // date: 1980-01-01
          put_le(out, crc, 4);
          put_le(out, data.size(), 4);
          put_le(out, data.size(), 4);
          put_le(out, name.size(), 2);
          put_le(out, 0, 2);  // extra
          if (central) {
            put_le(out, 0, 2);  // comment
            put_le(out, 0, 2);  // disk
            put_le(out, 0, 2);  // internal attributes
            put_le(out, 0, 4);  // external attributes
            put_le(out, offset, 4);
          }
          out += name;
        };
        header(archive, false);
        archive += data;
        header(directory, true);
        ++count;
      },
      tree);
  const std::uint64_t cd_offset = archive.size();
  archive += directory;
  detail::put_le(archive, 0x06054b50U, 4);
  detail::put_le(archive, 0, 4);
  detail::put_le(archive, count, 2);
  detail::put_le(archive, count, 2);
  detail::put_le(archive, directory.size(), 4);
  detail::put_le(archive, cd_offset, 4);
  detail::put_le(archive, 0, 2);
  std::ofstream out(path, std::ios::binary);
  if (!out) throw io_error(fmt::format("save_npz: {}: cannot open for writing", path.string()));
  out.write(archive.data(), static_cast<std::streamsize>(archive.size()));
  if (!out) throw io_error(fmt::format("save_npz: {}: write failed", path.string()));
}

/// Reads the archive at `path` (written by save_npz or numpy.savez) into a new tree of the
/// structure of `like`: each tensor leaf from the member its path names, which must exist and hold
/// the leaf's dtype and shape. Returns the new tree, so a failure leaves nothing half-loaded.
/// Throws ep::io_error naming the archive, the member and what was expected: a missing file, a
/// corrupt or truncated archive, a missing or extra member, another dtype or shape. Deflated
/// members (numpy.savez_compressed) need `inflate`: ep::zlib from <eagerpp/npz_zlib.hpp>.
template <class Tree, class Inflate = detail::stored_only>
Tree load_npz(const std::filesystem::path& path, const Tree& like, const Inflate& inflate = {}) {
  const std::string bytes = detail::read_file_bytes("load_npz", path);
  const std::string archive = path.string();
  auto members = detail::read_npz(archive, bytes, inflate);
  std::size_t used = 0;
  Tree out = tree_map_with_path(
      [&](const tree_path& p, const auto& leaf) {
        using L = std::decay_t<decltype(leaf)>;
        static_assert(istensor<L>, "ep::load_npz: every leaf must be a tensor");
        using B = typename L::backend_type;
        const std::string name = detail::npz_member_name(p);
        auto it = members.find(name);
        if (it == members.end()) {
          std::string held;
          for (const auto& [n, b] : members) held += (held.empty() ? "" : ", ") + n;
          detail::npz_fail(archive, fmt::format("no member '{}'; expected one for the leaf {} of "
                                                "the tree (the archive holds: {})",
                                                name, p.str(), held));
        }
        ++used;
        try {
          auto [values, shape] = detail::read_npy<typename B::value_type>(name, it->second);
          if (!(shape == leaf.shape()))
            detail::npz_fail(archive, fmt::format("member '{}' has shape {}; expected {}, the "
                                                  "shape of the leaf {} of the tree",
                                                  name, shape.str(), leaf.shape().str(), p.str()));
          return from_vector<B>(values, shape);
        } catch (const io_error& e) {
          const std::string msg = e.what();
          if (msg.rfind("load_npz", 0) == 0) throw;
          detail::npz_fail(archive, fmt::format("member {}", msg.substr(msg.find(": ") + 2)));
        }
      },
      like);
  if (used != members.size()) {
    for (const auto& member : members) {
      const std::string& n = member.first;  // not a structured binding: clang 14 cannot capture one
      bool known = false;
      tree_for_each_with_path(
          [&](const tree_path& p, const auto&) {
            known = known || detail::npz_member_name(p) == n;
          },
          like);
      if (!known)
        detail::npz_fail(archive, fmt::format("the member '{}' matches no leaf of the tree; "
                                              "expected the members {}",
                                              n, tree_structure(like).str()));
    }
  }
  return out;
}

/// Every member of the archive at `path` as a tensor of backend B, by member name without
/// `.npy` (NumPy: `dict(numpy.load(path))`). Throws ep::io_error as load_npz does, and if a member
/// is not of B's dtype.
template <backend B, class Inflate = detail::stored_only>
std::map<std::string, Tensor<B>> load_npz(const std::filesystem::path& path,
                                          const Inflate& inflate = {}) {
  const std::string bytes = detail::read_file_bytes("load_npz", path);
  const std::string archive = path.string();
  std::map<std::string, Tensor<B>> out;
  for (const auto& [name, data] : detail::read_npz(archive, bytes, inflate)) {
    try {
      auto [values, shape] = detail::read_npy<typename B::value_type>(name, data);
      const std::string key =
          name.size() > 4 && name.ends_with(".npy") ? name.substr(0, name.size() - 4) : name;
      out.emplace(key, from_vector<B>(values, shape));
    } catch (const io_error& e) {
      const std::string msg = e.what();
      detail::npz_fail(archive, fmt::format("member {}", msg.substr(msg.find(": ") + 2)));
    }
  }
  return out;
}

}  // namespace ep
