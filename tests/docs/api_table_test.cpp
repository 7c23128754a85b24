// eagerpp - docs/api.md describes every op of the unary and binary function tables: a table op missing from the reference
// fails here, naming it
// SPDX-License-Identifier: MIT
#include <fstream>   // std::ifstream
#include <iostream>  // std::cout, std::cerr
#include <iterator>  // std::istreambuf_iterator
#include <string>    // std::string

#include "eagerpp/ops/binary_list.hpp"
#include "eagerpp/ops/unary_list.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: eagerpp_api_table_test <docs/api.md>\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::cerr << "cannot read " << argv[1] << "\n";
    return 2;
  }
  const std::string api((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  int rows = 0;
  std::string missing;
  // A unary op is documented where its method appears, `t.name()`.
#define EAGERPP_DOCUMENTED_UNARY(name, dtypes, grad, scalar) \
  ++rows;                                                    \
  if (api.find("`t." #name "()`") == std::string::npos) missing += " " #name;
  EAGERPP_UNARY_OPS(EAGERPP_DOCUMENTED_UNARY)
#undef EAGERPP_DOCUMENTED_UNARY
  // A binary function is documented where its free function appears, `ep::name(a, b)`.
#define EAGERPP_DOCUMENTED_FUNCTION(name, dtypes, value, grad) \
  ++rows;                                                      \
  if (api.find("`ep::" #name "(a, b)`") == std::string::npos) missing += " " #name;
  EAGERPP_BINARY_FUNCTIONS(EAGERPP_DOCUMENTED_FUNCTION)
#undef EAGERPP_DOCUMENTED_FUNCTION
  if (!missing.empty()) {
    std::cerr << "ops of ops/unary_list.hpp and ops/binary_list.hpp missing from " << argv[1]
              << " (as `t.name()`, `ep::name(a, b)`):" << missing << "\n";
    return 1;
  }
  std::cout << rows << " unary ops and binary functions, each in " << argv[1] << "\n";
  return 0;
}
