# cmake -DDOXYGEN=doxygen -DDOXYFILE=build/Doxyfile.docs -DSOURCE=repository -DOUTPUT=folder -P check_docs.cmake
# Runs Doxygen with the docs target's configuration from the repository's root, as the target does, quiet and into
# OUTPUT, and fails on any warning or error it writes (all of them printed, each with its file and line).
foreach(variable DOXYGEN DOXYFILE SOURCE OUTPUT)
  if(NOT DEFINED ${variable})
    message(FATAL_ERROR "check_docs.cmake needs -D${variable}=...")
  endif()
endforeach()
file(MAKE_DIRECTORY ${OUTPUT})
set(config ${OUTPUT}/Doxyfile)
file(WRITE ${config} "@INCLUDE = ${DOXYFILE}\nOUTPUT_DIRECTORY = ${OUTPUT}\nQUIET = YES\nWARNINGS = YES\n"
                     "WARN_LOGFILE =\nWARN_AS_ERROR = NO\nGENERATE_TAGFILE =\n")
string(TIMESTAMP start "%s")
execute_process(COMMAND ${DOXYGEN} ${config} WORKING_DIRECTORY ${SOURCE} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(TIMESTAMP end "%s")
math(EXPR seconds "${end} - ${start}")
set(all "${out}\n${err}")
string(REGEX MATCHALL "[^\n]*(warning|error): [^\n]*" problems "${all}")
list(LENGTH problems count)
if(NOT status EQUAL 0 OR count GREATER 0)
  message(FATAL_ERROR "Doxygen (exit ${status}) wrote ${count} warnings or errors, in ${seconds} s:\n${err}\n${out}")
endif()
message(STATUS "the docs build without warnings (Doxygen, ${seconds} s): ${OUTPUT}/html/index.html")
