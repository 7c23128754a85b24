# eagerpp - eagerpp_add_target(<name> [LINK <target>...]): the header-only target eagerpp::<name>
# (eagerpp_<name>, installed and exported as <name>), whose headers are the calling folder's include/
# (installed into the one include/eagerpp tree), linking the given targets. The core, each backend,
# eagerpp::mpi and each interop are one such target.
# SPDX-License-Identifier: MIT
function(eagerpp_add_target name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "LINK")
  add_library(eagerpp_${name} INTERFACE)
  add_library(eagerpp::${name} ALIAS eagerpp_${name})
  set_target_properties(eagerpp_${name} PROPERTIES EXPORT_NAME ${name})
  target_include_directories(eagerpp_${name} INTERFACE
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_link_libraries(eagerpp_${name} INTERFACE ${arg_LINK})
endfunction()

# eagerpp_add_compiled(<backend>): eagerpp::<backend>_compiled
# (eagerpp_<backend>_compiled, installed and exported as <backend>_compiled), a static library of the
# calling folder's src/compiled.cpp: the explicit instantiations of ep::Tensor<ep::<backend><T>> for
# float and double (include/eagerpp/detail/instantiate.hpp). Linking it instead of eagerpp::<backend>
# defines EAGERPP_<BACKEND>_COMPILED, which makes the backend's header declare those instantiations
# extern: the same code, compiled once (fmt's compiled-or-header-only model; docs/backends.md).
# Built only with EAGERPP_BUILD_COMPILED; with EAGERPP_SANITIZE, instrumented as the tests that link it.
function(eagerpp_add_compiled name)
  if(NOT EAGERPP_BUILD_COMPILED)
    return()
  endif()
  add_library(eagerpp_${name}_compiled STATIC ${CMAKE_CURRENT_SOURCE_DIR}/src/compiled.cpp)
  add_library(eagerpp::${name}_compiled ALIAS eagerpp_${name}_compiled)
  set_target_properties(eagerpp_${name}_compiled PROPERTIES EXPORT_NAME ${name}_compiled)
  target_link_libraries(eagerpp_${name}_compiled PUBLIC eagerpp::${name})
  string(TOUPPER ${name} upper)
  target_compile_definitions(eagerpp_${name}_compiled INTERFACE EAGERPP_${upper}_COMPILED)
  eagerpp_warnings(eagerpp_${name}_compiled)
  set_property(GLOBAL APPEND PROPERTY EAGERPP_COMPILED ${name})  # for install and the tests
endfunction()
