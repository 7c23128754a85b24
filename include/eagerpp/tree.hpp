// eagerpp - parameter trees (JAX: pytrees): nested containers and structs of tensors, mapped,
// flattened and rebuilt
// SPDX-License-Identifier: MIT
#pragma once

#include <array>        // std::array
#include <cstddef>      // std::size_t
#include <map>          // std::map
#include <optional>     // std::optional
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <tuple>        // std::tuple, std::get, std::tuple_size
#include <type_traits>  // std::decay_t, std::is_same_v
#include <utility>      // std::pair, std::declval, std::index_sequence
#include <vector>       // std::vector

#include <fmt/format.h>

#include "eagerpp/astensor.hpp"
#include "eagerpp/error.hpp"

/// Makes the struct `Type` a tree whose children are the members listed, in that order (JAX:
/// `register_dataclass`): `EAGERPP_TREE(Params, w1, b1, w2, b2)`. Write it at namespace scope
/// after the struct, in the struct's namespace (it declares a function found by argument-dependent
/// lookup). Members not listed are copied from the first tree by `tree_map`.
#define EAGERPP_TREE(Type, ...)                                                     \
  [[maybe_unused]] inline auto eagerpp_tree_fields(::ep::detail::tree_tag<Type>) {  \
    using eagerpp_tree_self = Type;                                                 \
    return ::ep::detail::make_tree_fields<Type>(                                    \
        #Type, std::tuple{EAGERPP_TREE_FOR_EACH(EAGERPP_TREE_FIELD, __VA_ARGS__)}); \
  }

// The preprocessor loop behind EAGERPP_TREE: up to 64 members (C++20 __VA_OPT__ recursion).
#define EAGERPP_TREE_FIELD(m) ::ep::detail::tree_field{#m, &eagerpp_tree_self::m},
#define EAGERPP_TREE_PARENS ()
#define EAGERPP_TREE_EXPAND(...) EAGERPP_TREE_EXPAND3(EAGERPP_TREE_EXPAND3(__VA_ARGS__))
#define EAGERPP_TREE_EXPAND3(...) EAGERPP_TREE_EXPAND2(EAGERPP_TREE_EXPAND2(__VA_ARGS__))
#define EAGERPP_TREE_EXPAND2(...) EAGERPP_TREE_EXPAND1(EAGERPP_TREE_EXPAND1(__VA_ARGS__))
#define EAGERPP_TREE_EXPAND1(...) EAGERPP_TREE_EXPAND0(EAGERPP_TREE_EXPAND0(__VA_ARGS__))
#define EAGERPP_TREE_EXPAND0(...) __VA_ARGS__
#define EAGERPP_TREE_FOR_EACH(macro, ...) \
  __VA_OPT__(EAGERPP_TREE_EXPAND(EAGERPP_TREE_FOR_EACH_STEP(macro, __VA_ARGS__)))
#define EAGERPP_TREE_FOR_EACH_STEP(macro, first, ...) \
  macro(first) __VA_OPT__(EAGERPP_TREE_FOR_EACH_AGAIN EAGERPP_TREE_PARENS(macro, __VA_ARGS__))
#define EAGERPP_TREE_FOR_EACH_AGAIN() EAGERPP_TREE_FOR_EACH_STEP

namespace ep {

/// Where a leaf or a subtree sits in a tree: a chain of steps from the root (an index, a map key,
/// a struct member), printed as JAX's `keystr` does: `[0]['w'].b`. Built on the stack while a tree
/// is walked, so a path costs nothing until it is printed.
struct tree_path {
  enum class step_kind : unsigned char { root, index, key, field };
  const tree_path* parent = nullptr;
  step_kind kind = step_kind::root;
  std::size_t index = 0;
  std::string_view name;

  /// JAX's `keystr`: `[0]`, `['key']`, `.member`, joined; empty at the root.
  [[nodiscard]] std::string str() const {
    std::string s = parent != nullptr ? parent->str() : std::string();
    switch (kind) {
      case step_kind::root:
        break;
      case step_kind::index:
        s += fmt::format("[{}]", index);
        break;
      case step_kind::key:
        s += fmt::format("['{}']", name);
        break;
      case step_kind::field:
        s += fmt::format(".{}", name);
        break;
    }
    return s;
  }
  /// The steps joined by `/` (`0/w/b`), as `.npz` member names: empty at the root.
  [[nodiscard]] std::string name_str() const {
    std::string s = parent != nullptr ? parent->name_str() : std::string();
    if (kind == step_kind::root) return s;
    if (!s.empty()) s += '/';
    s += kind == step_kind::index ? fmt::format("{}", index) : std::string(name);
    return s;
  }
};

namespace detail {

template <class T>
struct tree_tag {};

/// One member of an EAGERPP_TREE struct: its name and a pointer to it.
template <class S, class M>
struct tree_field {
  using member_type = M;
  const char* name;
  M S::*ptr;
};
template <class S, class M>
tree_field(const char*, M S::*) -> tree_field<S, M>;

/// What EAGERPP_TREE declares for a struct: its name and its members.
template <class S, class Fields>
struct tree_fields_of {
  const char* name;
  Fields fields;
};
template <class S, class Fields>
tree_fields_of<S, Fields> make_tree_fields(const char* name, Fields fields) {
  return {name, fields};
}

template <class T>
concept tree_struct = requires {
  eagerpp_tree_fields(tree_tag<T>{});
};

template <class T>
inline constexpr bool is_tuple_like = false;
template <class... Ts>
inline constexpr bool is_tuple_like<std::tuple<Ts...>> = true;
template <class A, class B>
inline constexpr bool is_tuple_like<std::pair<A, B>> = true;
template <class T, std::size_t N>
inline constexpr bool is_tuple_like<std::array<T, N>> = true;

template <class T>
inline constexpr bool is_std_array_v = false;
template <class T, std::size_t N>
inline constexpr bool is_std_array_v<std::array<T, N>> = true;

/// `T`, named through a pack so that an expression using it stays dependent on that pack.
template <class T, auto...>
struct dependent {
  using type = T;
};
template <class T, auto... K>
using dependent_t = typename dependent<T, K...>::type;

template <class T>
inline constexpr bool is_vector = false;
template <class T, class A>
inline constexpr bool is_vector<std::vector<T, A>> = true;

template <class T>
inline constexpr bool is_string_map = false;
template <class T, class C, class A>
inline constexpr bool is_string_map<std::map<std::string, T, C, A>> = true;

template <class T>
inline constexpr bool is_optional = false;
template <class T>
inline constexpr bool is_optional<std::optional<T>> = true;

/// The kinds of tree node; anything else (a tensor, a number) is a leaf.
enum class node_kind { leaf, tuple, vector, map, optional, structure };
template <class T>
constexpr node_kind kind_of() {
  if constexpr (tree_struct<T>)
    return node_kind::structure;
  else if constexpr (is_tuple_like<T>)
    return node_kind::tuple;
  else if constexpr (is_vector<T>)
    return node_kind::vector;
  else if constexpr (is_string_map<T>)
    return node_kind::map;
  else if constexpr (is_optional<T>)
    return node_kind::optional;
  else
    return node_kind::leaf;
}

/// How the errors of one tree operation name it and its trees: `op` and one name per tree.
struct tree_names {
  std::string_view op;
  const std::string_view* trees;  // names[0] names the first tree, ...
  [[nodiscard]] std::string at(std::size_t i, const tree_path& p) const {
    return std::string(trees[i]) + p.str();
  }
};

[[noreturn]] inline void tree_mismatch(const tree_names& n, std::size_t i, const tree_path& p,
                                       const std::string& problem_i, const std::string& fact_0) {
  throw value_error(fmt::format("{}: {} {}, but {} {}; expected trees of one structure", n.op,
                                n.at(i, p), problem_i, n.at(0, p), fact_0));
}

template <class T>
constexpr const char* element_word() {
  return kind_of<T>() == node_kind::leaf ? (istensor<T> ? "tensors" : "leaves") : "subtrees";
}

/// Throws unless every tree `bs` has the node of `a` at `p` (sizes, keys, engagement): the checks
/// of one node, shared by the mapping and the visiting walk.
template <class T, class... Ts>
void check_node(const tree_names& n, const tree_path& p, const T& a, const Ts&... bs) {
  static_assert(((kind_of<T>() == kind_of<Ts>()) && ...),
                "ep::tree_map: the trees must be of one structure: each node a container of the "
                "same kind (tuple, vector, map, optional or EAGERPP_TREE struct) or a leaf");
  std::size_t i = 0;
  if constexpr (kind_of<T>() == node_kind::vector) {
    (((++i, bs.size() != a.size())
          ? tree_mismatch(
                n, i, p,
                fmt::format("holds {} {}", bs.size(), element_word<typename T::value_type>()),
                fmt::format("holds {}", a.size()))
          : void()),
     ...);
  } else if constexpr (kind_of<T>() == node_kind::map) {
    auto check = [&](const auto& b) {
      ++i;
      for (const auto& [key, value] : a)
        if (!b.contains(key))
          tree_mismatch(n, i, p, fmt::format("lacks the key '{}'", key), "holds it");
      for (const auto& [key, value] : b)
        if (!a.contains(key))
          tree_mismatch(n, i, p, fmt::format("holds the key '{}'", key), "lacks it");
    };
    (check(bs), ...);
  } else if constexpr (kind_of<T>() == node_kind::optional) {
    (((++i, bs.has_value() != a.has_value())
          ? tree_mismatch(n, i, p, bs.has_value() ? "holds a value" : "is empty (std::nullopt)",
                          a.has_value() ? "holds a value" : "is empty")
          : void()),
     ...);
  }
}

template <class T>
struct struct_argument;
template <class R>
struct backend_of;
/// The backend of the first of R... that is a tensor or a struct over one, or void.
template <class... R>
struct first_backend {
  using type = void;
};
template <class R, class... Rest>
struct first_backend<R, Rest...> {
  using type =
      std::conditional_t<!std::is_void_v<typename backend_of<R>::type>,
                         typename backend_of<R>::type, typename first_backend<Rest...>::type>;
};
template <class... R>
using first_backend_t = typename first_backend<R...>::type;

/// What a struct `S<X>` of a one-type template is over (its backend), and the same struct over
/// another type; the backend of a tensor, or of a struct over one.
template <class T>
struct struct_argument {
  using type = void;
};
template <template <class> class S, class X>
struct struct_argument<S<X>> {
  using type = X;
  template <class Y>
  using rebind = S<Y>;
};
template <class R>
struct backend_of {  // containers: none of their own
  using type = void;
};
template <tree_struct R>
struct backend_of<R> {
  using type = typename struct_argument<R>::type;
};
template <class R>
requires requires { typename R::backend_type; }
struct backend_of<R> {
  using type = typename R::backend_type;
};

/// The members that `map_tree` computed for the struct `a` (fields `fields`, results `r`), as a
/// struct: `a` with the members replaced where they keep their types; where they changed (a
/// tensor of another backend, such as ep::vmap's batched one), the struct template over the new
/// backend, `S<B2>{members...}` in EAGERPP_TREE's order.
template <class T, class... Field, class... R>
auto rebuild_struct(const T& a, const std::tuple<Field...>& fields, std::tuple<R...>&& r) {
  // A member is kept where f returned its own type, or a value (no tensor) it can hold: a tensor
  // of another backend never converts into it (ep::vmap's batched tensors would, by lifting).
  if constexpr (((std::is_same_v<std::decay_t<R>, typename Field::member_type> ||
                  (std::is_void_v<typename backend_of<std::decay_t<R>>::type> &&
                   std::is_assignable_v<typename Field::member_type&, R>)) &&
                 ...)) {
    T out = a;
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      ((out.*std::get<K>(fields).ptr = std::move(std::get<K>(r))), ...);
    }
    (std::index_sequence_for<R...>{});
    return out;
  } else {
    using B2 = first_backend_t<R...>;
    static_assert(!std::is_void_v<B2> && !std::is_void_v<typename struct_argument<T>::type>,
                  "ep::tree_map: f changed the types of an EAGERPP_TREE struct's members; the "
                  "struct can then only be rebuilt if it is a template of one type, S<B>, and the "
                  "new members are tensors of another backend B2");
    using U = typename struct_argument<T>::template rebind<B2>;
    static_assert(
        requires { U{std::declval<R>()...}; },
        "ep::tree_map: f changed the backend of an EAGERPP_TREE struct's members: the "
        "struct is rebuilt as S<B2>{members...} in EAGERPP_TREE's order; list its "
        "members there in declaration order, before any member that is not listed");
    return std::apply([](auto&&... m) { return U{std::move(m)...}; }, std::move(r));
  }
}

/// The tree of `f(path, leaf_a, leaf_bs...)` over trees of one structure, in the structure of `a`
/// (for a struct: a copy of `a` with its listed members replaced, or, where f changed their
/// backend or dtype, rebuild_struct's `S<B2>`). Leaves are visited in order
/// (depth first, members and elements in order, map keys sorted).
template <class F, class T, class... Ts>
auto map_tree(F& f, const tree_names& n, const tree_path& p, const T& a, const Ts&... bs) {
  check_node(n, p, a, bs...);
  constexpr node_kind kind = kind_of<T>();
  if constexpr (kind == node_kind::leaf) {
    return f(p, a, bs...);
  } else if constexpr (kind == node_kind::structure) {
    const auto def = eagerpp_tree_fields(tree_tag<T>{});
    return std::apply(
        [&](const auto&... field) {
          auto one = [&](const auto& fd) {
            const tree_path q{&p, tree_path::step_kind::field, 0, fd.name};
            return map_tree(f, n, q, a.*fd.ptr, bs.*fd.ptr...);
          };
          // braces: the members in order
          return rebuild_struct(a, def.fields, std::tuple<decltype(one(field))...>{one(field)...});
        },
        def.fields);
  } else if constexpr (kind == node_kind::tuple) {
    return [&]<std::size_t... K>(std::index_sequence<K...>) {
      auto at = [&]<std::size_t J>(std::integral_constant<std::size_t, J>) {
        const tree_path q{&p, tree_path::step_kind::index, J, {}};
        return map_tree(f, n, q, std::get<J>(a), std::get<J>(bs)...);
      };
      using R = std::tuple<decltype(at(std::integral_constant<std::size_t, K>{}))...>;
      if constexpr (requires { typename T::first_type; }) {  // std::pair
        return std::pair<std::tuple_element_t<0, R>, std::tuple_element_t<1, R>>{
            at(std::integral_constant<std::size_t, 0>{}),
            at(std::integral_constant<std::size_t, 1>{})};
      } else if constexpr (is_std_array_v<T>) {
        // Named through K so that the branch stays a template until the lambda is called (nvcc
        // otherwise reads T::value_type of a tuple in the discarded branch).
        using E = decltype(map_tree(
            f, n, p, std::declval<const typename dependent_t<T, K...>::value_type&>(),
            std::declval<const typename dependent_t<Ts, K...>::value_type&>()...));
        return std::array<E, sizeof...(K)>{at(std::integral_constant<std::size_t, K>{})...};
      } else {
        return R{at(std::integral_constant<std::size_t, K>{})...};  // braces: in order
      }
    }
    (std::make_index_sequence<std::tuple_size_v<T>>{});
  } else if constexpr (kind == node_kind::vector) {
    using E = decltype(map_tree(f, n, p, std::declval<const typename T::value_type&>(),
                                std::declval<const typename Ts::value_type&>()...));
    std::vector<E> out;
    out.reserve(a.size());
    for (std::size_t k = 0; k < a.size(); ++k) {
      const tree_path q{&p, tree_path::step_kind::index, k, {}};
      out.push_back(map_tree(f, n, q, a[k], bs[k]...));
    }
    return out;
  } else if constexpr (kind == node_kind::map) {
    using E = decltype(map_tree(f, n, p, std::declval<const typename T::mapped_type&>(),
                                std::declval<const typename Ts::mapped_type&>()...));
    std::map<std::string, E> out;
    for (const auto& [key, value] : a) {
      const tree_path q{&p, tree_path::step_kind::key, 0, key};
      out.emplace(key, map_tree(f, n, q, value, bs.at(key)...));
    }
    return out;
  } else {  // optional: no step of its own in the path
    using E = decltype(map_tree(f, n, p, std::declval<const typename T::value_type&>(),
                                std::declval<const typename Ts::value_type&>()...));
    if (!a.has_value()) return std::optional<E>();
    return std::optional<E>(map_tree(f, n, p, *a, *bs...));
  }
}

/// Calls `f(path, leaf_a, leaf_bs...)` for every leaf, in the order of map_tree.
template <class F, class T, class... Ts>
void visit_tree(F& f, const tree_names& n, const tree_path& p, const T& a, const Ts&... bs) {
  check_node(n, p, a, bs...);
  constexpr node_kind kind = kind_of<T>();
  if constexpr (kind == node_kind::leaf) {
    f(p, a, bs...);
  } else if constexpr (kind == node_kind::structure) {
    const auto def = eagerpp_tree_fields(tree_tag<T>{});
    auto one = [&](const auto& fd) {
      visit_tree(f, n, tree_path{&p, tree_path::step_kind::field, 0, fd.name}, a.*fd.ptr,
                 bs.*fd.ptr...);
    };
    std::apply([&](const auto&... fd) { (one(fd), ...); }, def.fields);
  } else if constexpr (kind == node_kind::tuple) {
    auto one = [&]<std::size_t J>(std::integral_constant<std::size_t, J>) {
      visit_tree(f, n, tree_path{&p, tree_path::step_kind::index, J, {}}, std::get<J>(a),
                 std::get<J>(bs)...);
    };
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      (one(std::integral_constant<std::size_t, K>{}), ...);
    }
    (std::make_index_sequence<std::tuple_size_v<T>>{});
  } else if constexpr (kind == node_kind::vector) {
    for (std::size_t k = 0; k < a.size(); ++k)
      visit_tree(f, n, tree_path{&p, tree_path::step_kind::index, k, {}}, a[k], bs[k]...);
  } else if constexpr (kind == node_kind::map) {
    for (const auto& [key, value] : a)
      visit_tree(f, n, tree_path{&p, tree_path::step_kind::key, 0, key}, value, bs.at(key)...);
  } else {
    if (a.has_value()) visit_tree(f, n, p, *a, *bs...);
  }
}

/// The leaf type shared by every leaf of a tree: `no_leaves` where it has none (std::tuple<>),
/// `mixed_leaves` where two differ.
struct no_leaves {};
struct mixed_leaves {};
template <class A, class B>
using leaf_join = std::conditional_t<
    std::is_same_v<A, no_leaves>, B,
    std::conditional_t<std::is_same_v<B, no_leaves> || std::is_same_v<A, B>, A, mixed_leaves>>;
template <class... Ls>
struct leaf_fold {
  using type = no_leaves;
};
template <class L, class... Ls>
struct leaf_fold<L, Ls...> {
  using type = leaf_join<L, typename leaf_fold<Ls...>::type>;
};

template <class T>
auto leaf_type_probe() {
  constexpr node_kind kind = kind_of<T>();
  if constexpr (kind == node_kind::leaf) {
    return std::type_identity<T>{};
  } else if constexpr (kind == node_kind::structure) {
    using Fields = decltype(eagerpp_tree_fields(tree_tag<T>{}).fields);
    return []<class... Fs>(std::type_identity<std::tuple<Fs...>>) {
      return std::type_identity<typename leaf_fold<
          typename decltype(leaf_type_probe<typename Fs::member_type>())::type...>::type>{};
    }(std::type_identity<Fields>{});
  } else if constexpr (kind == node_kind::tuple) {
    return []<std::size_t... K>(std::index_sequence<K...>) {
      return std::type_identity<typename leaf_fold<
          typename decltype(leaf_type_probe<std::tuple_element_t<K, T>>())::type...>::type>{};
    }
    (std::make_index_sequence<std::tuple_size_v<T>>{});
  } else if constexpr (kind == node_kind::map) {
    return leaf_type_probe<typename T::mapped_type>();
  } else {
    return leaf_type_probe<typename T::value_type>();
  }
}

}  // namespace detail

/// The one type of every leaf of the tree type `Tree` (a tensor type, most often);
/// `detail::no_leaves` or `detail::mixed_leaves` where there is not one.
template <class Tree>
using tree_leaf_t = typename decltype(detail::leaf_type_probe<Tree>())::type;

/// Whether `T` is a tree node (a container or an EAGERPP_TREE struct) rather than a leaf.
template <class T>
inline constexpr bool is_tree_node = detail::kind_of<T>() != detail::node_kind::leaf;

/// The tree of `f(leaf, leaves...)` over one or several trees of one structure (JAX:
/// `tree_util.tree_map`), in the structure of the first. Throws ep::value_error naming the path
/// where the trees differ (a vector's size, a map's keys, an optional's engagement); trees of
/// different C++ types are a compile-time error.
template <class F, class Tree, class... Rest>
auto tree_map(F&& f, const Tree& tree, const Rest&... rest) {
  static constexpr std::string_view names[] = {"trees[0]", "trees[1]", "trees[2]", "trees[3]",
                                               "trees[4]", "trees[5]", "trees[6]", "trees[7]"};
  static_assert(sizeof...(Rest) < 8, "ep::tree_map: at most 8 trees");
  auto g = [&](const tree_path&, const auto&... leaves) { return f(leaves...); };
  return detail::map_tree(g, detail::tree_names{"tree_map", names}, tree_path{}, tree, rest...);
}

/// `tree_map` whose `f` is called as `f(path, leaf, leaves...)` (JAX: `tree_map_with_path`).
template <class F, class Tree, class... Rest>
auto tree_map_with_path(F&& f, const Tree& tree, const Rest&... rest) {
  static constexpr std::string_view names[] = {"trees[0]", "trees[1]", "trees[2]", "trees[3]",
                                               "trees[4]", "trees[5]", "trees[6]", "trees[7]"};
  static_assert(sizeof...(Rest) < 8, "ep::tree_map_with_path: at most 8 trees");
  return detail::map_tree(f, detail::tree_names{"tree_map", names}, tree_path{}, tree, rest...);
}

/// Calls `f(path, leaf, leaves...)` for every leaf of trees of one structure, in order.
template <class F, class Tree, class... Rest>
void tree_for_each_with_path(F&& f, const Tree& tree, const Rest&... rest) {
  static constexpr std::string_view names[] = {"trees[0]", "trees[1]", "trees[2]", "trees[3]",
                                               "trees[4]", "trees[5]", "trees[6]", "trees[7]"};
  static_assert(sizeof...(Rest) < 8, "ep::tree_for_each_with_path: at most 8 trees");
  detail::visit_tree(f, detail::tree_names{"tree_for_each", names}, tree_path{}, tree, rest...);
}

/// The number of leaves of `tree`.
template <class Tree>
std::size_t tree_size(const Tree& tree) {
  std::size_t n = 0;
  tree_for_each_with_path([&](const tree_path&, const auto&) { ++n; }, tree);
  return n;
}

/// The leaves of `tree` in order (JAX: `tree_leaves`), all of one type: a tree mixing leaf types
/// (float and double tensors) is a compile-time error.
template <class Tree>
auto tree_leaves(const Tree& tree) {
  using L = tree_leaf_t<Tree>;
  static_assert(!std::is_same_v<L, detail::mixed_leaves>,
                "ep::tree_leaves: the leaves of this tree are of several types; use ep::tree_map, "
                "or convert them to one type first");
  static_assert(!std::is_same_v<L, detail::no_leaves>,
                "ep::tree_leaves: this tree type holds no leaves (std::tuple<>)");
  std::vector<L> out;
  tree_for_each_with_path([&](const tree_path&, const L& leaf) { out.push_back(leaf); }, tree);
  return out;
}

/// The structure of a tree (JAX: `PyTreeDef`): a copy of the tree whose tensor leaves are empty,
/// so it holds no data, and from which `unflatten` rebuilds a tree of new leaves. Compares equal
/// to the structure of a tree of the same shape (sizes, keys, engagement); `str()` prints it.
template <class Tree>
class tree_def {
 public:
  explicit tree_def(const Tree& tree)
      : skeleton_(tree_map(
            [](const auto& leaf) {
              if constexpr (istensor<decltype(leaf)>) {
                return leaf.zeros(Shape{0});
              } else {
                return leaf;
              }
            },
            tree)),
        leaves_(tree_size(tree)) {}

  /// The number of leaves.
  [[nodiscard]] std::size_t num_leaves() const { return leaves_; }

  /// The structure written out, `*` for a leaf: `Params{w1: *, b1: *}`, `(*, [*, *])`,
  /// `{'a': *}`, `None` for an empty optional.
  [[nodiscard]] std::string str() const { return print(skeleton_); }

  friend bool operator==(const tree_def& a, const tree_def& b) { return a.str() == b.str(); }

  /// The tree of this structure whose leaves are `leaves`, in order (JAX: `tree_unflatten`).
  /// Throws ep::value_error unless there are num_leaves() of them.
  template <class L>
  Tree unflatten(const std::vector<L>& leaves) const {
    if (leaves.size() != leaves_)
      throw value_error(
          fmt::format("tree_unflatten: {} leaves for the structure {} of {} leaves; expected {}",
                      leaves.size(), str(), leaves_, leaves_));
    std::size_t k = 0;
    return tree_map(
        [&](const auto& leaf) {
          using Leaf = std::decay_t<decltype(leaf)>;
          static_assert(std::is_convertible_v<const L&, Leaf>,
                        "ep::tree_unflatten: the leaves given are not of the tree's leaf type");
          return Leaf(leaves[k++]);
        },
        skeleton_);
  }

 private:
  template <class T>
  static std::string print(const T& t) {
    constexpr auto kind = detail::kind_of<T>();
    std::string s;
    auto join = [&](const char* open, const char* close, auto&& each) {
      s += open;
      bool first = true;
      each([&](const std::string& item) {
        if (!first) s += ", ";
        first = false;
        s += item;
      });
      s += close;
    };
    if constexpr (kind == detail::node_kind::leaf) {
      return "*";
    } else if constexpr (kind == detail::node_kind::structure) {
      const auto def = eagerpp_tree_fields(detail::tree_tag<T>{});
      join((std::string(def.name) + "{").c_str(), "}", [&](auto&& add) {
        std::apply(
            [&](const auto&... fd) {
              (add(fmt::format("{}: {}", fd.name, print(t.*fd.ptr))), ...);
            },
            def.fields);
      });
    } else if constexpr (kind == detail::node_kind::tuple) {
      join("(", ")",
           [&](auto&& add) { std::apply([&](const auto&... e) { (add(print(e)), ...); }, t); });
    } else if constexpr (kind == detail::node_kind::vector) {
      join("[", "]", [&](auto&& add) {
        for (const auto& e : t) add(print(e));
      });
    } else if constexpr (kind == detail::node_kind::map) {
      join("{", "}", [&](auto&& add) {
        for (const auto& [key, e] : t) add(fmt::format("'{}': {}", key, print(e)));
      });
    } else {
      return t.has_value() ? print(*t) : std::string("None");
    }
    return s;
  }

  Tree skeleton_;
  std::size_t leaves_;
};

/// The structure of `tree` (JAX: `tree_structure`).
template <class Tree>
tree_def<Tree> tree_structure(const Tree& tree) {
  return tree_def<Tree>(tree);
}

/// `{tree_leaves(tree), tree_structure(tree)}` (JAX: `tree_flatten`).
template <class Tree>
auto tree_flatten(const Tree& tree) {
  return std::pair{tree_leaves(tree), tree_structure(tree)};
}

/// The tree of structure `def` with the leaves `leaves` (JAX: `tree_unflatten`); throws
/// ep::value_error unless there are as many leaves as the structure has.
template <class Tree, class L>
Tree tree_unflatten(const tree_def<Tree>& def, const std::vector<L>& leaves) {
  return def.unflatten(leaves);
}

}  // namespace ep
