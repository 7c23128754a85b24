// eagerpp - docs test runner: runs each block extracted from the docs (extract_docs.cpp), capturing
// what it prints on stdout, and compares it with the output the docs show after it
// SPDX-License-Identifier: MIT
#pragma once

#include <unistd.h>  // dup, dup2, close, fileno

#include <cstdio>     // std::fflush, std::tmpfile, std::fseek, std::fread
#include <exception>  // std::exception
#include <iostream>   // std::cout, std::cerr
#include <span>       // std::span
#include <string>     // std::string
#include <type_traits>  // std::is_void_v

namespace ep::docs_test {

struct block {
  const char* where;    // file:line of the fence
  int (*run)();         // the block's main() or its fragment
  bool check_output;    // compare stdout with `expected`
  const char* expected;
};

/// Calls a block's main, whose return type is deduced: void when it has no `return`.
template <class F>
int call(F& main) {
  if constexpr (std::is_void_v<decltype(main())>) {
    main();
    return 0;
  } else {
    return main();
  }
}

/// Runs `b`, returning what it wrote on stdout (std::cout and C stdio, which fmt::print uses).
inline std::string capture(const block& b, int& rc) {
  std::cout.flush();
  std::fflush(stdout);
  std::FILE* tmp = std::tmpfile();
  const int saved = dup(fileno(stdout));
  dup2(fileno(tmp), fileno(stdout));
  try {
    rc = b.run();
  } catch (...) {
    std::cout.flush();
    std::fflush(stdout);
    dup2(saved, fileno(stdout));
    close(saved);
    std::fclose(tmp);
    throw;
  }
  std::cout.flush();
  std::fflush(stdout);
  dup2(saved, fileno(stdout));
  close(saved);
  std::string out;
  std::fseek(tmp, 0, SEEK_SET);
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, tmp)) > 0;) out.append(buf, n);
  std::fclose(tmp);
  return out;
}

/// Runs every block; prints one line per failure and "N passed, M failed"; 1 if any failed.
template <std::size_t N>
int run_all(const block (&blocks)[N]) {
  int passed = 0, failed = 0;
  for (const auto& b : std::span(blocks)) {
    try {
      int rc = 0;
      const std::string out = capture(b, rc);
      if (rc != 0) {
        std::cerr << b.where << ": the program returned " << rc << "\n";
        ++failed;
      } else if (b.check_output && out != b.expected) {
        std::cerr << b.where << ": the output differs from the docs.\n--- docs:\n" << b.expected << "--- got:\n" << out;
        ++failed;
      } else {
        ++passed;
      }
    } catch (const std::exception& e) {
      std::cerr << b.where << ": threw " << e.what() << "\n";
      ++failed;
    }
  }
  std::cout << "docs: " << passed << " passed, " << failed << " failed\n";
  return failed == 0 ? 0 : 1;
}

}  // namespace ep::docs_test
