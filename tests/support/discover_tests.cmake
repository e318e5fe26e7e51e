# cmake -DTEST_EXECUTABLE=<exe> -DTEST_PREFIX=<prefix> -DTEST_LABEL=cpu|gpu -DTEST_WORKING_DIR=<dir>
#       -DCTEST_FILE=<out.cmake> -P discover_tests.cmake
# Run after each build of a doctest executable (stepwise_add_tests): lists its test cases and writes
# one CTest test per name, `<exe> --stepwise-case=<name>`, which case_guard.cpp runs as exactly that
# case (or fails). Names are read line by line without CMake's list splitting, so `;`, `[`, `]` and
# `\` in a name stay as they are; a name the listing cannot carry (an empty one, or one with a line
# break) fails the build with a message, as do two names that differ only in case.
cmake_minimum_required(VERSION 3.24)

execute_process(COMMAND "${TEST_EXECUTABLE}" --list-test-cases --no-version=true
                OUTPUT_VARIABLE output RESULT_VARIABLE result ERROR_VARIABLE errors)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${TEST_EXECUTABLE} --list-test-cases: exit code ${result}\n${output}${errors}")
endif()

# `text` as a CMake bracket argument: [=[text]=] with enough `=` that the text cannot close it.
function(bracket text out)
  set(equals "=")
  while(text MATCHES "]${equals}]")
    string(APPEND equals "=")
  endwhile()
  set(${out} "[${equals}[${text}]${equals}]" PARENT_SCOPE)
endfunction()

set(separator "===============================================================================")
set(header "[doctest] listing all test case names")
set(footer_prefix "[doctest] unskipped test cases passing the current filters: ")
string(FIND "${output}" "${header}\n${separator}\n" start)
if(start EQUAL -1)
  message(FATAL_ERROR "${TEST_EXECUTABLE} --list-test-cases: no listing in its output:\n${output}")
endif()
string(LENGTH "${header}\n${separator}\n" skip)
math(EXPR start "${start} + ${skip}")
string(SUBSTRING "${output}" ${start} -1 rest)

# A GPU test exits with 77 without a GPU: skipped. A CPU test never skips.
set(extra_properties "")
if(TEST_LABEL STREQUAL "gpu")
  set(extra_properties " SKIP_RETURN_CODE 77")
endif()

set(script "")
set(seen "\n")
set(listed 0)
while(TRUE)
  string(FIND "${rest}" "\n" end)
  if(end EQUAL -1)
    message(FATAL_ERROR "${TEST_EXECUTABLE} --list-test-cases: the listing does not end:\n${output}")
  endif()
  string(SUBSTRING "${rest}" 0 ${end} name)
  math(EXPR end "${end} + 1")
  string(SUBSTRING "${rest}" ${end} -1 rest)
  if(name STREQUAL separator)
    break()
  endif()
  math(EXPR listed "${listed} + 1")
  if(name STREQUAL "")
    message(FATAL_ERROR "${TEST_EXECUTABLE}: a test case has an empty name: give it one")
  endif()
  # doctest's filter ignores case: names that differ only there would run each other.
  string(TOLOWER "${name}" lower)
  string(FIND "${seen}" "\n${lower}\n" duplicate)
  if(NOT duplicate EQUAL -1)
    message(FATAL_ERROR "${TEST_EXECUTABLE}: two test cases are named '${name}' (ignoring case): rename one")
  endif()
  string(APPEND seen "${lower}\n")
  bracket("${TEST_PREFIX}${name}" test_name)
  bracket("--stepwise-case=${name}" case_argument)
  bracket("${TEST_EXECUTABLE}" executable)
  bracket("${TEST_WORKING_DIR}" working_dir)
  string(APPEND script "add_test(${test_name} ${executable} ${case_argument})\n"
                       "set_tests_properties(${test_name} PROPERTIES WORKING_DIRECTORY ${working_dir} "
                       "LABELS ${TEST_LABEL} TIMEOUT 600${extra_properties})\n")
endwhile()

# doctest's own count: a name with a line break would have been read as two.
string(FIND "${rest}" "${footer_prefix}" footer)
if(footer EQUAL -1)
  message(FATAL_ERROR "${TEST_EXECUTABLE} --list-test-cases: no count after the listing:\n${output}")
endif()
string(LENGTH "${footer_prefix}" skip)
math(EXPR footer "${footer} + ${skip}")
string(SUBSTRING "${rest}" ${footer} -1 count)
string(REGEX MATCH "^[0-9]+" count "${count}")
if(NOT count EQUAL listed)
  message(FATAL_ERROR "${TEST_EXECUTABLE}: doctest lists ${count} test cases, ${listed} names were read: "
                      "is there a line break in a test case's name?")
endif()
file(WRITE "${CTEST_FILE}" "${script}")
