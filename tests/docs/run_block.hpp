// eagerpp - docs test: what a page's generated translation unit (extract_docs.cpp) needs to
// register its blocks with the runner (docs_main.cpp)
// SPDX-License-Identifier: MIT
#pragma once

#include <initializer_list>  // std::initializer_list
#include <type_traits>       // std::is_void_v
#include <vector>            // std::vector

namespace ep::docs_test {

struct block {
  const char* where;  // file:line of the fence
  int (*run)();       // the block's main() or its fragment
  bool check_output;  // compare stdout with `expected`
  const char* expected;
};

struct page;

/// Every page of the docs, registered by its translation unit's static `page` object.
inline std::vector<const page*>& pages() {
  static std::vector<const page*> all;
  return all;
}

/// The blocks of one Markdown page, and its excerpts (```cpp ignore) counted but not compiled.
struct page {
  const char* file;
  std::vector<block> blocks;
  std::vector<const char*> ignored;
  page(const char* f, std::initializer_list<block> b, std::initializer_list<const char*> i)
      : file(f), blocks(b), ignored(i) {
    pages().push_back(this);
  }
  page(const page&) = delete;
  page& operator=(const page&) = delete;
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

}  // namespace ep::docs_test
