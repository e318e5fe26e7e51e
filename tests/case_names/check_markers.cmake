# cmake -DCTEST=<ctest> -DDIR=<this folder's build directory> -DEXE=<case_names> -DMARKERS=<file>
#       -P check_markers.cmake
# Runs the CTest tests registered for EXE's test cases (`case_names:<name>`, through the
# CTestTestfile the build wrote), each of which appends its case's name to MARKERS. Passes when
# they all passed, and MARKERS then holds as many lines as EXE has test cases and no line twice:
# each registered CTest test ran its own case, and none ran another's.
cmake_minimum_required(VERSION 3.24)
file(REMOVE "${MARKERS}")
execute_process(COMMAND "${CMAKE_COMMAND}" -E env "STEPWISE_CASE_MARKERS=${MARKERS}"
                        "${CTEST}" --test-dir "${DIR}" -R "^case_names:" --output-on-failure
                RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "the CTest tests of ${EXE}'s cases failed:\n${output}")
endif()
execute_process(COMMAND "${EXE}" --count --no-version=true OUTPUT_VARIABLE listing RESULT_VARIABLE result)
if(NOT result EQUAL 0 OR NOT listing MATCHES "passing the current filters: ([0-9]+)")
  message(FATAL_ERROR "${EXE} --count: exit code ${result}\n${listing}")
endif()
set(cases ${CMAKE_MATCH_1})
if(NOT EXISTS "${MARKERS}")
  message(FATAL_ERROR "no test case of ${EXE} ran:\n${output}")
endif()
file(READ "${MARKERS}" rest)
# Line by line without CMake's list splitting, which would cut the names at `;` and `[`.
set(seen "\n")
set(lines 0)
while(NOT rest STREQUAL "")
  string(FIND "${rest}" "\n" end)
  string(SUBSTRING "${rest}" 0 ${end} name)
  math(EXPR end "${end} + 1")
  string(SUBSTRING "${rest}" ${end} -1 rest)
  string(FIND "${seen}" "\n${name}\n" twice)
  if(NOT twice EQUAL -1)
    message(FATAL_ERROR "the test case '${name}' ran twice:\n${output}")
  endif()
  string(APPEND seen "${name}\n")
  math(EXPR lines "${lines} + 1")
endwhile()
if(NOT lines EQUAL cases)
  message(FATAL_ERROR "${lines} of the ${cases} test cases of ${EXE} ran; these did:${seen}\n${output}")
endif()
message("each of the ${cases} test cases of ${EXE} ran once, from its own CTest test:${seen}")
