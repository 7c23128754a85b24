// eagerpp - deflated members of .npz archives (numpy.savez_compressed) through zlib: ep::zlib
// SPDX-License-Identifier: MIT
#pragma once

#include <climits>      // UINT_MAX
#include <cstddef>      // std::size_t
#include <string>       // std::string
#include <string_view>  // std::string_view

#include <fmt/format.h>
#include <zlib.h>

#include "eagerpp/npz.hpp"

namespace ep {

/// The inflater of `ep::load_npz(path, like, ep::zlib)`: raw deflate streams (ZIP method 8) by
/// zlib's `inflate`. Throws ep::io_error naming the archive and the member for a corrupt stream.
inline constexpr struct zlib_t {
  std::string operator()(std::string_view archive, const std::string& member,
                         std::string_view compressed, std::size_t size) const {
    if (compressed.size() > UINT_MAX || size > UINT_MAX)
      detail::npz_fail(archive, fmt::format("member '{}' is over 4 GiB; expected less", member));
    std::string out(size, '\0');
    z_stream s{};
    if (inflateInit2(&s, -MAX_WBITS) != Z_OK)
      detail::npz_fail(archive, fmt::format("member '{}': zlib failed to start", member));
    // zlib's next_in is not const (Z_CONST is not defined by Debian's zlib): it is only read.
    s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
    s.avail_in = static_cast<uInt>(compressed.size());
    s.next_out = reinterpret_cast<Bytef*>(out.data());
    s.avail_out = static_cast<uInt>(size);
    const int rc = inflate(&s, Z_FINISH);
    const std::size_t produced = s.total_out;
    inflateEnd(&s);
    if (rc != Z_STREAM_END)
      detail::npz_fail(archive, fmt::format("member '{}' is corrupt: the deflate stream does not "
                                            "inflate to the {} bytes its directory entry gives "
                                            "(zlib: {})",
                                            member, size, rc));
    out.resize(produced);
    return out;
  }
} zlib;

}  // namespace ep
