# eagerpp - the one shape of eagerpp's header-only targets: the core, each backend, each extra.
#
# eagerpp_interface_target(<name> [<dependency>...]): the INTERFACE library eagerpp_<name>, alias
# eagerpp::<name>, exported (installed) as eagerpp::<name>, whose headers are the calling folder's
# include/ (include/ of the install tree, where every folder's headers are merged), linking each
# <dependency> through its imported target (so that its headers are system headers to users).
function(eagerpp_interface_target name)
  add_library(eagerpp_${name} INTERFACE)
  add_library(eagerpp::${name} ALIAS eagerpp_${name})
  set_target_properties(eagerpp_${name} PROPERTIES EXPORT_NAME ${name})
  target_include_directories(eagerpp_${name} INTERFACE
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  if(ARGN)
    target_link_libraries(eagerpp_${name} INTERFACE ${ARGN})
  endif()
endfunction()
