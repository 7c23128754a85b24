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
