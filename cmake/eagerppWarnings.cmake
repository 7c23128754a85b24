# eagerpp - warnings (and, with EAGERPP_SANITIZE, AddressSanitizer + UBSan) for eagerpp's own tests,
# examples and benchmarks; never for consumers.
# eagerpp_warnings(<target> [NO_SANITIZE]): NO_SANITIZE for the examples, which run library code the
# sanitized typed suites cover; the sanitizers double a translation unit's compile time (measured:
# examples/logistic_regression.cpp, Debug, 83 s of CPU with them, 46 s without).
function(eagerpp_warnings target)
  cmake_parse_arguments(PARSE_ARGV 1 _opt "NO_SANITIZE" "" "")
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic>)
  if(EAGERPP_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
  endif()
  # Targets with CUDA sources are left uninstrumented: nvcc's host code and the CUDA runtime do not
  # mix with ASan's shadow memory.
  get_target_property(_sources ${target} SOURCES)
  set(_cuda FALSE)
  foreach(_s IN LISTS _sources)
    get_source_file_property(_lang ${_s} LANGUAGE)
    if(_lang STREQUAL "CUDA" OR _s MATCHES "\\.cu$")
      set(_cuda TRUE)
    endif()
  endforeach()
  # UBSan without its `alignment` and `vptr` checks: they instrument every access through a pointer or
  # a reference and every member call of the template-heavy test code, and cost a quarter of a
  # sanitized TU's compile time (g++ 12, -O0 -g1, header-only fmt, tests/dlpack/dlpack_test.cpp: 17.6 s uninstrumented,
  # 39.3 s with ASan + all of UBSan, 29.6 s without those two; `null` costs 1.3 s more and stays).
  # Misaligned scalar loads are harmless on the x86-64 and ARM64 CPUs eagerpp runs on, its polymorphic
  # types are the tape's nodes and the errors, and every out-of-bounds access is still ASan's. The .npy
  # libFuzzer target keeps all of UBSan (tests/fuzz).
  if(EAGERPP_SANITIZE AND NOT _cuda AND NOT _opt_NO_SANITIZE)
    set(_san -fsanitize=address,undefined -fno-sanitize=alignment,vptr -fno-omit-frame-pointer
             -fno-sanitize-recover=all)
    target_compile_options(${target} PRIVATE ${_san})
    target_link_options(${target} PRIVATE ${_san})
  endif()
endfunction()

# Tests of Thrust on the host (eagerpp::omp): Thrust's temporary buffers bind a null pointer to a
# reference to dispatch on the system type (thrust/detail/reference.h), which UBSan's `null` check
# reports. Makes that check recoverable for `target` and runs `test` with the suppression of
# tests/omp/ubsan.supp (only that file; any other report still fails: halt_on_error=1), on 2 threads.
# Appends to the test's environment, so it combines with eagerpp_add_mpi_test's.
function(eagerpp_thrust_host_sanitizer target test)
  set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT OMP_NUM_THREADS=2)
  if(EAGERPP_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize-recover=null)
    set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT
      "UBSAN_OPTIONS=suppressions=${PROJECT_SOURCE_DIR}/tests/omp/ubsan.supp:halt_on_error=1:print_stacktrace=1")
  endif()
endfunction()
