# eagerpp - decides whether to build the CUDA backend and enables the CUDA language.
#
# Included by the top-level CMakeLists.txt, not from backends/cuda: CMake requires enable_language in
# the highest directory common to all targets that compile that language (the tests live in tests/).
# EAGERPP_ENABLE_CUDA: AUTO (default) builds the backend when CMake finds a CUDA compiler, ON requires
# one, OFF skips it. No GPU is needed to build; without one the CUDA tests skip.
set(EAGERPP_ENABLE_CUDA AUTO CACHE STRING "Build the CUDA backend: AUTO, ON or OFF")
set_property(CACHE EAGERPP_ENABLE_CUDA PROPERTY STRINGS AUTO ON OFF)
set(EAGERPP_CUDA_ENABLED OFF)
if(NOT EAGERPP_ENABLE_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    # One architecture keeps nvcc's compile time down; 90 is the H100. Override on the command line.
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 90 CACHE STRING "CUDA architectures to compile for")
    endif()
    enable_language(CUDA)
    set(EAGERPP_CUDA_ENABLED ON)
  elseif(EAGERPP_ENABLE_CUDA STREQUAL "ON")
    message(FATAL_ERROR "eagerpp: EAGERPP_ENABLE_CUDA is ON but no CUDA compiler was found (set CMAKE_CUDA_COMPILER)")
  else()
    message(STATUS "eagerpp: no CUDA compiler found; eagerpp::cuda is not built")
  endif()
endif()
