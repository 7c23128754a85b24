// eagerpp - docs test generator: the C++ blocks of one Markdown page become one translation unit,
// so that the docs cannot show code that does not compile.
// SPDX-License-Identifier: MIT
//
// Usage: extract_docs <output.cpp> <root> <page.md>
//
// Every fenced block whose language is cpp (also c++ or cxx; the fence may be indented, as in a
// list) is C++. In page order:
// - `#include` lines are moved to the top of the output (every header has `#pragma once`); the
//   output also includes <eagerpp/eagerpp.hpp> and <eagerpp/eigen.hpp> (and a few standard
//   headers), so a fragment need not show them;
// - a block with `int main(` is a program: its code goes into `namespace docs_block_<n>` (inside an
//   unnamed namespace, so that the pages' translation units do not clash) as it is (but for
//   `auto main(`, so that a main without `return` still compiles there); the test runs it and
//   compares what it prints with the ```text block that follows it (blank lines between them only),
//   when there is one;
// - any other block is a fragment: its code becomes the body of `docs_block_<n>::run()`, after the
//   code of an HTML comment `<!-- prelude: ... -->` on the lines just above the fence (declarations
//   that the fragment uses but the page does not show, e.g. `auto x =
//   ep::arange<ep::eigen<double>>(3);`); the test runs it.
// - A block fenced ```cpp ignore is an excerpt that cannot compile alone (it needs MPI or libtorch,
//   or elides code with `...`): it is skipped, the text around it says why and where the code is
//   compiled, and the test prints the number and places of these excerpts (keep them few).
// The output is rewritten only when its text changes, so editing one page recompiles that page
// only.
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Block {
  int line = 0;
  std::string prelude, code, expected;
  bool program = false, has_expected = false, ignored = false;
};

std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("extract_docs: cannot read " + path);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

/// A C++ string literal holding `s`.
std::string literal(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n\"\n    \"";
        break;
      default:
        out += c;
    }
  }
  return out + "\"";
}

/// The indentation of a fence line ("```..." after spaces), or npos if the line is no fence.
std::size_t fence_indent(const std::string& line) {
  const auto at = line.find_first_not_of(' ');
  return at != std::string::npos && line.compare(at, 3, "```") == 0 ? at : std::string::npos;
}

std::vector<Block> parse(const std::string& root, const std::string& file) {
  std::vector<Block> blocks;
  const auto lines = read_lines(root + "/" + file);
  const std::regex prelude_re(R"(^\s*<!--\s*prelude:\s*(.*?)\s*-->\s*$)");
  const std::regex cpp_fence_re(R"(^```(cpp|c\+\+|cxx|C\+\+)(\s+(\S+))?\s*$)");
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto indent = fence_indent(lines[i]);
    if (indent == std::string::npos) continue;
    const std::string fence = lines[i].substr(indent);
    std::smatch m;
    const bool cpp = std::regex_match(fence, m, cpp_fence_re);
    const std::string where = file + ":" + std::to_string(i + 1);
    if (cpp && m[3].matched && m[3] != "ignore") {
      throw std::runtime_error(where + ": unknown fence attribute `" + m[3].str() +
                               "`; expected ```cpp or ```cpp ignore");
    }
    Block b;
    b.line = static_cast<int>(i + 1);
    b.ignored = cpp && m[3].matched;
    // A prelude comment on the lines just above (blank lines allowed).
    for (std::size_t k = i; cpp && k-- > 0 && (k + 4 > i);) {
      std::smatch p;
      if (std::regex_match(lines[k], p, prelude_re)) {
        b.prelude = p[1];
        break;
      }
      if (!lines[k].empty()) break;
    }
    std::size_t j = i + 1;
    for (; j < lines.size() && fence_indent(lines[j]) == std::string::npos; ++j) {
      b.code += (lines[j].size() >= indent ? lines[j].substr(indent) : std::string()) + "\n";
    }
    if (j == lines.size()) throw std::runtime_error(where + ": unterminated ``` block");
    i = j;  // the closing fence
    if (!cpp) continue;
    b.program = b.code.find("int main(") != std::string::npos;
    if (b.program && !b.ignored) {  // the output that follows, if any
      std::size_t k = j + 1;
      while (k < lines.size() && lines[k].empty()) ++k;
      if (k < lines.size() && fence_indent(lines[k]) != std::string::npos &&
          lines[k].substr(fence_indent(lines[k])) == "```text") {
        const auto text_indent = fence_indent(lines[k]);
        b.has_expected = true;
        for (++k; k < lines.size() && fence_indent(lines[k]) == std::string::npos; ++k) {
          b.expected +=
              (lines[k].size() >= text_indent ? lines[k].substr(text_indent) : std::string()) +
              "\n";
        }
      }
    }
    blocks.push_back(b);
  }
  return blocks;
}

}  // namespace

int main(int argc, char** argv) try {
  if (argc != 4) {
    std::cerr << "usage: extract_docs <output.cpp> <root> <page.md>\n";
    return 2;
  }
  const std::string file = argv[3];
  const auto blocks = parse(argv[2], file);

  std::ostringstream includes, bodies, table, ignored;
  includes << "// Generated by tests/docs/extract_docs.cpp from " << file << ": do not edit.\n"
           << "#include <cstdint>      // std::int64_t\n"
              "#include <stdexcept>    // std::logic_error\n"
              "#include <type_traits>  // std::remove_cvref_t\n"
              "#include <utility>      // std::pair\n"
              "#include <vector>       // std::vector\n\n"
              "#include <eagerpp/eagerpp.hpp>\n"
              "#include <eagerpp/eigen.hpp>\n\n"
              "#include \"run_block.hpp\"\n";
  int compiled = 0;
  for (std::size_t n = 0; n < blocks.size(); ++n) {
    const auto& b = blocks[n];
    const std::string where = file + ":" + std::to_string(b.line);
    if (b.ignored) {
      ignored << "    " << literal(where) << ",\n";
      continue;
    }
    ++compiled;
    std::istringstream code(b.code);
    std::string rest;
    for (std::string l; std::getline(code, l);) {
      // An #include moves to the top; its line stays, empty, so that #line keeps the page's
      // numbers.
      if (l.rfind("#include", 0) == 0) {
        includes << l << "\n";
        rest += "\n";
      } else {
        rest += l + "\n";
      }
    }
    bodies << "// " << where << "\nnamespace docs_block_" << n << " {\n";
    if (b.program) {
      // `auto main(`: a main without `return` (allowed for ::main only) then deduces void.
      const auto at = rest.find("int main(");
      rest.replace(at, 3, "auto");
      bodies << "#line " << b.line + 1 << " \"" << file << "\"\n"
             << rest << "}  // namespace docs_block_" << n << "\n\n";
    } else {
      bodies << "void run() {\n"
             << b.prelude << "\n#line " << b.line + 1 << " \"" << file << "\"\n"
             << rest << "}\n}  // namespace docs_block_" << n << "\n\n";
    }
    table << "    {" << literal(where) << ", "
          << (b.program
                  ? "[] { return ep::docs_test::call(docs_block_" + std::to_string(n) + "::main); }"
                  : "[] { docs_block_" + std::to_string(n) + "::run(); return 0; }")
          << ", " << (b.has_expected ? "true" : "false") << ", " << literal(b.expected) << "},\n";
  }
  std::ostringstream out;
  out << includes.str() << "\nnamespace {\n\n"
      << bodies.str()
      << "// This page's blocks and its excerpts, registered with the runner (docs_main.cpp).\n"
         "const ep::docs_test::page page_"
      << "{" << literal(file) << ",\n  {\n"
      << table.str() << "  },\n  {\n"
      << ignored.str() << "  }};\n\n"
      << "}  // namespace\n";
  if (compiled == 0) {
    // A page without C++ code: nothing to compile against the library.
    out.str("");
    out << "// Generated by tests/docs/extract_docs.cpp from " << file << ": do not edit.\n"
        << "#include \"run_block.hpp\"\n\nnamespace {\nconst ep::docs_test::page page_{"
        << literal(file) << ", {}, {\n"
        << ignored.str() << "  }};\n}  // namespace\n";
  }
  // Rewrite only on change: an unchanged page keeps its object file.
  const std::string text = out.str();
  {
    std::ifstream old(argv[1]);
    std::stringstream have;
    have << old.rdbuf();
    if (old && have.str() == text) return 0;
  }
  std::ofstream o(argv[1]);
  o << text;
  return o ? 0 : 1;
} catch (const std::exception& e) {
  std::cerr << e.what() << "\n";
  return 1;
}
