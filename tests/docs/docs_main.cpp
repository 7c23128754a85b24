// eagerpp - docs test runner: runs each block extracted from the docs (extract_docs.cpp), page by
// page, capturing what it prints on stdout, and compares it with the output the docs show after it
// SPDX-License-Identifier: MIT
#include <unistd.h>  // dup, dup2, close, fileno

#include <algorithm>  // std::sort
#include <cstdio>     // std::fflush, std::tmpfile, std::fseek, std::fread
#include <cstring>    // std::strcmp
#include <exception>  // std::exception
#include <iostream>   // std::cout, std::cerr
#include <string>     // std::string

#include "run_block.hpp"

namespace {

using ep::docs_test::block;

/// Runs `b`, returning what it wrote on stdout (std::cout and C stdio, which fmt::print uses).
std::string capture(const block& b, int& rc) {
  std::cout.flush();
  std::fflush(stdout);
  std::FILE* tmp = std::tmpfile();
  const int saved = dup(fileno(stdout));
  dup2(fileno(tmp), fileno(stdout));
  const auto restore = [&] {
    std::cout.flush();
    std::fflush(stdout);
    dup2(saved, fileno(stdout));
    close(saved);
  };
  try {
    rc = b.run();
  } catch (...) {
    restore();
    std::fclose(tmp);
    throw;
  }
  restore();
  std::string out;
  std::fseek(tmp, 0, SEEK_SET);
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, tmp)) > 0;) out.append(buf, n);
  std::fclose(tmp);
  return out;
}

}  // namespace

/// Runs every block of every page; prints one line per failure, then "N passed, M failed" and the
/// excerpts that are not compiled; exits 1 if any block failed.
int main() {
  auto pages = ep::docs_test::pages();
  std::sort(pages.begin(), pages.end(),
            [](const auto* a, const auto* b) { return std::strcmp(a->file, b->file) < 0; });
  int passed = 0, failed = 0;
  std::string ignored;
  std::size_t n_ignored = 0;
  for (const auto* p : pages) {
    for (const auto& b : p->blocks) {
      try {
        int rc = 0;
        const std::string out = capture(b, rc);
        if (rc != 0) {
          std::cerr << b.where << ": the program returned " << rc << "\n";
          ++failed;
        } else if (b.check_output && out != b.expected) {
          std::cerr << b.where << ": the output differs from the docs.\n--- docs:\n"
                    << b.expected << "--- got:\n"
                    << out;
          ++failed;
        } else {
          ++passed;
        }
      } catch (const std::exception& e) {
        std::cerr << b.where << ": threw " << e.what() << "\n";
        ++failed;
      }
    }
    for (const char* where : p->ignored) {
      ignored += std::string(n_ignored++ ? ", " : "") + where;
    }
  }
  std::cout << "docs: " << pages.size() << " pages, " << passed << " blocks passed, " << failed
            << " failed; " << n_ignored << " excerpts not compiled (```cpp ignore)"
            << (n_ignored ? ": " + ignored : "") << "\n";
  return failed == 0 ? 0 : 1;
}
