# eagerpp - ctest driver of one compile-fail case: cmake -D BUILD_DIR=... -D TARGET=... -D SOURCE=...
#   [-D CONFIG=...] -P run_compile_fail.cmake
# Passes only if building TARGET fails and the first error line of the output matches the regex on
# SOURCE's first line,
# `// expect: <regex>`, and, where the second line is `// errors: <n> <regex>`, the output has exactly n
# errors, each matching that regex.
foreach(v BUILD_DIR TARGET SOURCE)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "run_compile_fail.cmake: -D ${v}=... is required")
  endif()
endforeach()

file(STRINGS ${SOURCE} _first LIMIT_COUNT 1 REGEX "^// expect: ")
string(REGEX REPLACE "^// expect: *" "" _regex "${_first}")
string(STRIP "${_regex}" _regex)
if(_regex STREQUAL "")
  message(FATAL_ERROR "${SOURCE}: no `// expect: <regex>` on the first line")
endif()

# Plain ASCII quotes in compiler messages, whatever the locale.
set(ENV{LC_ALL} C)
set(_config "")
if(CONFIG)
  set(_config --config ${CONFIG})
endif()
execute_process(
  COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR} --target ${TARGET} ${_config}
  RESULT_VARIABLE _rc
  OUTPUT_VARIABLE _out
  ERROR_VARIABLE _out)

if(_rc EQUAL 0)
  message(FATAL_ERROR "compile-fail: ${SOURCE} compiled, but it must not (expected an error matching `${_regex}`)")
endif()
# The sentence must be the FIRST error the user reads, not one buried under others.
string(REGEX MATCH "[^\n]*error:[^\n]*" _first_error "${_out}")
if(NOT _first_error MATCHES "${_regex}")
  message(FATAL_ERROR "compile-fail: ${SOURCE} failed to compile, but its first error does not match `${_regex}`:\n"
                      "first error: ${_first_error}\n\nwhole output:\n${_out}")
endif()
# Optionally, on the second line, `// errors: <n> <regex>`: exactly n errors, each matching the regex
# (a case that checks several uses in one translation unit, e.g. every operator, with nothing else).
file(STRINGS ${SOURCE} _count_line LIMIT_COUNT 1 REGEX "^// errors: ")
if(_count_line)
  string(REGEX REPLACE "^// errors: *([0-9]+) +(.*)$" "\\1" _want "${_count_line}")
  string(REGEX REPLACE "^// errors: *([0-9]+) +(.*)$" "\\2" _each "${_count_line}")
  string(STRIP "${_each}" _each)
  string(REPLACE ";" "," _plain "${_out}")  # a CMake list splits at ';', which the sentences contain
  string(REGEX MATCHALL "[^\n]*error:[^\n]*" _errors "${_plain}")
  list(LENGTH _errors _got)
  foreach(_e IN LISTS _errors)
    if(NOT _e MATCHES "${_each}")
      message(FATAL_ERROR "compile-fail: ${SOURCE}: an error does not match `${_each}`:\n${_e}\n\nwhole output:\n${_out}")
    endif()
  endforeach()
  if(NOT _got EQUAL _want)
    message(FATAL_ERROR "compile-fail: ${SOURCE}: ${_got} errors, expected ${_want} (each matching `${_each}`):\n${_out}")
  endif()
endif()
message(STATUS "compile-fail: ${SOURCE} failed as expected (matched `${_regex}`)")
