# eagerpp - eagerpp_add_backend(<name>), called by backends/<name>/CMakeLists.txt once its dependencies
# are found: the INTERFACE target eagerpp_<name>, exported as eagerpp::<name>, whose headers are the
# include/ folder beside the caller, added to EAGERPP_BACKENDS (installed and exported with the others).
# A macro, so that EAGERPP_BACKENDS reaches the top-level scope from the backend's folder.
macro(eagerpp_add_backend name)
  add_library(eagerpp_${name} INTERFACE)
  add_library(eagerpp::${name} ALIAS eagerpp_${name})
  set_target_properties(eagerpp_${name} PROPERTIES EXPORT_NAME ${name})
  target_include_directories(eagerpp_${name} INTERFACE
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  set(EAGERPP_BACKENDS ${EAGERPP_BACKENDS} ${name} PARENT_SCOPE)
endmacro()
