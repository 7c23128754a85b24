# eagerpp - warnings (and, with EAGERPP_SANITIZE, AddressSanitizer + UBSan) for eagerpp's own tests,
# examples and benchmarks; never for consumers.
# eagerpp_warnings(<target> [NO_SANITIZE]): NO_SANITIZE for the examples, which run library code the
# sanitized typed suites already run, so they are not compiled a second time with the sanitizers,
# which roughly double a translation unit's compile time.
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
  # UBSan without the checks that instrument every access through a pointer or a reference and every
  # member call of the template-heavy test code, where ASan checks the same accesses: `alignment`
  # (misaligned scalar loads are harmless on the x86-64 and ARM64 CPUs eagerpp runs on), `vptr` (the
  # polymorphic types are the tape's nodes, the expressions and the errors), `null` (a null pointer
  # read or written is ASan's SEGV report, with its stack; Thrust's host algorithms bind a null
  # pointer to a reference on purpose, thrust/detail/reference.h), `object-size` (at -O0 GCC rarely
  # knows an object's size; ASan's redzones check every heap, stack and global access) and
  # `pointer-overflow` (an address that wraps around). Every arithmetic, shift, conversion, bounds,
  # bool, enum, return and unreachable check stays. Leaving out these five takes back much of what
  # the sanitizers add to the test suites' compile time.
  # Clang's `undefined` also holds `float-cast-overflow`, which GCC's does not: it reports xsimd's
  # own scalar conversions of NaN and of out-of-range values to integers inside its SSE2 expm1 and
  # round, which give the x86 result (the smallest integer) that the vector conversion gives;
  # left out so that the suite checks the same set with either compiler.
  # The .npy libFuzzer target keeps all of UBSan (tests/fuzz).
  # ASan checks each access by a call into its runtime (asan-instrumentation-with-call-threshold=0)
  # rather than by inline shadow-memory code: the same checks, in smaller code that GCC generates
  # 10-20% faster at -O0, which is what the test suites' build time is made of.
  if(EAGERPP_SANITIZE AND NOT _cuda AND NOT _opt_NO_SANITIZE)
    set(_san -fsanitize=address,undefined -fno-sanitize=alignment,vptr,null,object-size,pointer-overflow
             -fno-omit-frame-pointer -fno-sanitize-recover=all)
    target_compile_options(${target} PRIVATE ${_san}
      "$<$<CXX_COMPILER_ID:Clang>:-fno-sanitize=float-cast-overflow>"
      "$<$<CXX_COMPILER_ID:GNU>:--param=asan-instrumentation-with-call-threshold=0>"
      "$<$<CXX_COMPILER_ID:Clang>:SHELL:-mllvm -asan-instrumentation-with-call-threshold=0>")
    target_link_options(${target} PRIVATE ${_san})
  endif()
endfunction()

# Tests of Thrust on the host (eagerpp::omp) run `test` on two OpenMP threads: the parallel paths of
# ep::omp run, on the 2-core CI machine too, and their results are checked. Appends to the test's
# environment, so it combines with eagerpp_add_mpi_test's.
function(eagerpp_omp_test test)
  set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT OMP_NUM_THREADS=2)
endfunction()
