# cmake -DEXE=<program> -DARGS=<a|b|c> -DEXPECT=<code> -P expect_exit_code.cmake
# Passes when the program exits with EXPECT. An expected 2 (bad input) must also
# print exactly one line on stderr. An unexpected 77 (no GPU) prints the line that the
# test's SKIP_REGULAR_EXPRESSION turns into "skipped".
string(REPLACE "|" ";" arguments "${ARGS}")
execute_process(COMMAND ${EXE} ${arguments} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(code EQUAL 77 AND NOT EXPECT EQUAL 77)
  message(FATAL_ERROR "stepwise-skip: no GPU: ${err}")
endif()
if(NOT code EQUAL EXPECT)
  message(FATAL_ERROR "${EXE} ${ARGS}: exit code ${code}, want ${EXPECT}\nstdout: ${out}\nstderr: ${err}")
endif()
if(EXPECT EQUAL 2)
  string(STRIP "${err}" stripped)
  string(FIND "${stripped}" "\n" newline)
  if(stripped STREQUAL "" OR NOT newline EQUAL -1)
    message(FATAL_ERROR "${EXE} ${ARGS}: want one line on stderr, got:\n${err}")
  endif()
endif()
message("${EXE} ${ARGS}: exit code ${code} as expected; stderr: ${err}")
