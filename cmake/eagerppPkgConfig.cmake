# eagerpp - eagerpp_install_pkg_config(): installs one pkg-config file per installed target, for users
# who compile without CMake: eagerpp.pc (the core: C++20, fmt), eagerpp-eigen.pc, eagerpp-xtensor.pc
# and eagerpp-omp.pc (each Requires: eagerpp and its backend's libraries), into
# <datadir>/pkgconfig (the headers are architecture-independent). The prefix is found relative to the
# file (${pcfiledir}), so an installed tree can be moved.
# SPDX-License-Identifier: MIT
function(eagerpp_write_pc name target description requires cflags libs)
  set(PC_NAME ${name})
  set(PC_TARGET ${target})
  set(PC_DESCRIPTION ${description})
  set(PC_REQUIRES ${requires})
  set(PC_CFLAGS ${cflags})
  set(PC_LIBS ${libs})
  configure_file(${PROJECT_SOURCE_DIR}/cmake/eagerpp.pc.in ${PROJECT_BINARY_DIR}/pkgconfig/${name}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/${name}.pc DESTINATION ${CMAKE_INSTALL_DATADIR}/pkgconfig)
endfunction()

function(eagerpp_install_pkg_config)
  set(_fmt_define "")
  if(EAGERPP_FMT_HEADER_ONLY)
    set(_fmt_define " -DFMT_HEADER_ONLY")
  endif()
  eagerpp_write_pc(eagerpp eagerpp::core "eagerpp's core: the facade ep::Tensor<B>, standard library and fmt"
                   "fmt >= 9" "-std=c++20 -I\${includedir}${_fmt_define}" "")
  set(_no_dir /usr/include)  # the compiler's own: not repeated as -I
  foreach(b IN LISTS EAGERPP_BACKENDS)
    if(b STREQUAL "eigen")
      set(_req "eagerpp eigen3 >= 3.4")
      set(_cflags "")
      if(EAGERPP_EIGEN_USE_BLAS)
        set(_req "${_req} openblas")
        set(_cflags "-DEIGEN_USE_BLAS")
      endif()
      eagerpp_write_pc(eagerpp-eigen eagerpp::eigen "eagerpp's Eigen backend, ep::eigen<T>" "${_req}" "${_cflags}" "")
    elseif(b STREQUAL "xtensor")
      eagerpp_write_pc(eagerpp-xtensor eagerpp::xtensor "eagerpp's xtensor backend, ep::xtensor<T>"
                       "eagerpp xtl xsimd openblas" "-DXTENSOR_USE_XSIMD" "")
    elseif(b STREQUAL "omp")
      set(_thrust "")
      if(NOT EAGERPP_THRUST_INCLUDE_DIR STREQUAL _no_dir)
        set(_thrust " -isystem ${EAGERPP_THRUST_INCLUDE_DIR}")
      endif()
      eagerpp_write_pc(eagerpp-omp eagerpp::omp "eagerpp's OpenMP backend, ep::omp<T> (Thrust on CPU threads)"
                       "eagerpp openblas"
                       "-fopenmp -DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_OMP -DEAGERPP_OMP_LINKED${_thrust}"
                       "-fopenmp")
    endif()
  endforeach()
endfunction()
