# eagerpp - ctest driver of the consumer tests: cmake -D STEP=<step> -D WORK_DIR=... [...] -P run_consumer.cmake
#
#   STEP=install           installs eagerpp into WORK_DIR/prefix: from INSTALL_FROM (an eagerpp build
#                          tree) when given, else from a fresh configure of SOURCE_DIR in WORK_DIR/build
#   STEP=find_package      configures, builds and runs CONSUMER_DIR against WORK_DIR/prefix
#   STEP=add_subdirectory  configures, builds and runs CONSUMER_DIR with -DEAGERPP_SOURCE_DIR=SOURCE_DIR
#   STEP=pkg_config        compiles and runs each PROGRAMS entry (<package>=<source>, separated by |) with plain compiler
#                          commands, its flags from pkg-config and WORK_DIR/prefix's .pc files
#
# Optional: GENERATOR, CXX_COMPILER, LAUNCHER (e.g. ccache), BUILD_TYPE (default Debug), THRUST_ONLY_FROM
# (the consumer's eagerpp takes Thrust from that directory alone: no CUDA toolkit, no CUDA backend).
foreach(v STEP WORK_DIR)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "run_consumer.cmake: -D ${v}=... is required")
  endif()
endforeach()
if(NOT BUILD_TYPE)
  set(BUILD_TYPE Debug)
endif()

set(_common -DCMAKE_BUILD_TYPE=${BUILD_TYPE})
if(GENERATOR)
  list(APPEND _common -G ${GENERATOR})
endif()
if(CXX_COMPILER)
  list(APPEND _common -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
endif()
if(LAUNCHER)
  list(APPEND _common -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()

function(run)
  string(REPLACE ";" " " _shown "${ARGN}")
  message(STATUS "consumer: ${_shown}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "consumer: failed (${_rc}): ${_shown}")
  endif()
endfunction()

set(_prefix ${WORK_DIR}/prefix)
set(_thrust "")
if(THRUST_ONLY_FROM)
  set(_thrust -DEAGERPP_THRUST_INCLUDE_DIR=${THRUST_ONLY_FROM} -DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON
              -DEAGERPP_ENABLE_CUDA=OFF)
endif()

if(STEP STREQUAL "install")
  file(REMOVE_RECURSE ${_prefix})
  if(INSTALL_FROM)
    run(${CMAKE_COMMAND} --install ${INSTALL_FROM} --prefix ${_prefix} --config ${BUILD_TYPE})
  else()
    file(REMOVE_RECURSE ${WORK_DIR}/build)
    run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build ${_common} -DEAGERPP_INSTALL=ON
        -DEAGERPP_BUILD_TESTS=OFF -DEAGERPP_BUILD_EXAMPLES=OFF -DEAGERPP_BUILD_BENCHMARKS=OFF)
    run(${CMAKE_COMMAND} --install ${WORK_DIR}/build --prefix ${_prefix} --config ${BUILD_TYPE})
  endif()
  if(NOT EXISTS ${_prefix}/include/eagerpp/eagerpp.hpp OR NOT EXISTS ${_prefix}/include/eagerpp/eigen.hpp)
    message(FATAL_ERROR "consumer: the install into ${_prefix} lacks eagerpp.hpp or eigen.hpp")
  endif()
elseif(STEP STREQUAL "find_package" OR STEP STREQUAL "add_subdirectory")
  get_filename_component(_name ${CONSUMER_DIR} NAME)
  set(_build ${WORK_DIR}/${_name})  # one folder per consumer: they may run at the same time
  if(STEP STREQUAL "find_package")
    set(_eagerpp -DCMAKE_PREFIX_PATH=${_prefix})
  else()
    set(_eagerpp -DEAGERPP_SOURCE_DIR=${SOURCE_DIR})
  endif()
  file(REMOVE_RECURSE ${_build})
  run(${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${_build} ${_common} ${_eagerpp} ${_thrust})
  run(${CMAKE_COMMAND} --build ${_build} --config ${BUILD_TYPE})
  find_program(_exe consumer PATHS ${_build} ${_build}/${BUILD_TYPE} NO_DEFAULT_PATH REQUIRED)
  run(${_exe})
elseif(STEP STREQUAL "pkg_config")
  # A plain compiler command per program: `c++ $(pkg-config --cflags P) main.cpp $(pkg-config --libs P)`
  # with PKG_CONFIG_PATH at the installed prefix. PROGRAMS: <package>=<source file>, separated by |.
  find_program(_pkg_config pkg-config REQUIRED)
  set(ENV{PKG_CONFIG_PATH} ${_prefix}/share/pkgconfig)
  set(_build ${WORK_DIR}/pkg_config)
  file(MAKE_DIRECTORY ${_build})
  string(REPLACE "|" ";" _programs "${PROGRAMS}")
  foreach(_program IN LISTS _programs)
    string(REPLACE "=" ";" _program ${_program})
    list(GET _program 0 _package)
    list(GET _program 1 _source)
    foreach(_what cflags libs)
      execute_process(COMMAND ${_pkg_config} --${_what} ${_package} OUTPUT_VARIABLE _${_what}
                      OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _rc)
      if(NOT _rc EQUAL 0)
        message(FATAL_ERROR "consumer: pkg-config --${_what} ${_package} failed (${_rc})")
      endif()
      separate_arguments(_${_what} UNIX_COMMAND "${_${_what}}")
    endforeach()
    run(${LAUNCHER} ${CXX_COMPILER} ${_cflags} ${_source} ${_libs} -o ${_build}/${_package})
    run(${_build}/${_package})
  endforeach()
else()
  message(FATAL_ERROR "run_consumer.cmake: unknown STEP=${STEP}")
endif()
