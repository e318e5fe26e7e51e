# The graded exercises (docs/exercises.md). Each exercise NN-K has, in chapters/NN_name/exercises/:
#   FILE             the student file: the signature, the lesson, and a TODO body that throws
#                    stepwise::NotDoneYet (common/host/exercise.hpp)
#   solutions/FILE   the solution, with the same signature
# and a grader in tests/NN_name/, a doctest program that checks the answer against the chapter's own model.
#
# STEPWISE_EXERCISES (top-level option, OFF by default) picks which of the two a grader compiles:
#   OFF: the solution. `exercise-NN-K` is labelled cpu, exercise and exercise-NN, so that the default build
#        (and CI) proves that every grader passes on its solution; beside it, `exercise-NN-K-untouched` builds
#        the grader with the student file as handed out and requires it to fail with the NotDoneYet message.
#   ON, or a tree without solutions (tools/handout makes one for students):
#        the student file. `exercise-NN-K` is labelled exercise and exercise-NN only (a student's unfinished
#        exercise is not a failure of the repository's cpu tests): `ctest -L exercise-NN` grades chapter NN.

# stepwise_add_exercise(<NN-K> FILE <file.cpp> GRADER <grader.cpp> [LIBRARIES ...])
# in tests/NN_name/CMakeLists.txt: the executable exercise_NN_K (the grader, the doctest main of the cpu
# tests, and the student file or the solution) and its CTest test exercise-NN-K.
function(stepwise_add_exercise id)
  cmake_parse_arguments(ARG "" "FILE;GRADER" "LIBRARIES" ${ARGN})
  if(NOT id MATCHES "^([0-9][0-9])-([0-9]+)$")
    message(FATAL_ERROR "stepwise_add_exercise(${id}): the exercise's number is NN-K (chapter NN, exercise K)")
  endif()
  set(chapter ${CMAKE_MATCH_1})
  if(NOT ARG_FILE OR NOT ARG_GRADER)
    message(FATAL_ERROR "stepwise_add_exercise(${id}): FILE and GRADER are required")
  endif()
  file(GLOB folder LIST_DIRECTORIES true RELATIVE ${PROJECT_SOURCE_DIR}/chapters ${PROJECT_SOURCE_DIR}/chapters/${chapter}_*)
  list(LENGTH folder folders)
  if(NOT folders EQUAL 1)
    message(FATAL_ERROR "stepwise_add_exercise(${id}): no single folder chapters/${chapter}_*")
  endif()
  set(exercises chapters/${folder}/exercises)
  set(student ${PROJECT_SOURCE_DIR}/${exercises}/${ARG_FILE})
  set(solution ${PROJECT_SOURCE_DIR}/${exercises}/solutions/${ARG_FILE})
  if(NOT EXISTS ${student})
    message(FATAL_ERROR "stepwise_add_exercise(${id}): ${student} is missing")
  endif()
  # A handout tree (tools/handout) has no solutions folder: it grades the student files, as with the option on.
  set(handout FALSE)
  if(NOT EXISTS ${PROJECT_SOURCE_DIR}/${exercises}/solutions)
    set(handout TRUE)
  elseif(NOT EXISTS ${solution})
    message(FATAL_ERROR "stepwise_add_exercise(${id}): ${solution} is missing")
  endif()
  string(REPLACE "-" "_" target exercise_${id})

  if(STEPWISE_EXERCISES OR handout)
    _stepwise_exercise_program(${target} ${student} "${ARG_GRADER}" "${ARG_LIBRARIES}" ${exercises})
    add_test(NAME exercise-${id} COMMAND ${target})
    set_tests_properties(exercise-${id} PROPERTIES LABELS "exercise;exercise-${chapter}" TIMEOUT 120)
    return()
  endif()
  _stepwise_exercise_program(${target} ${solution} "${ARG_GRADER}" "${ARG_LIBRARIES}" ${exercises})
  add_test(NAME exercise-${id} COMMAND ${target})
  set_tests_properties(exercise-${id} PROPERTIES LABELS "cpu;exercise;exercise-${chapter}" TIMEOUT 120)
  # The student file as handed out: it compiles, and its grader fails (exit 1) with the message that says
  # what to do, in the student file's own words (NotDoneYet), never with a crash.
  _stepwise_exercise_program(${target}_untouched ${student} "${ARG_GRADER}" "${ARG_LIBRARIES}" ${exercises})
  string(REPLACE "." "\\." file_pattern "${exercises}/${ARG_FILE}")
  string(REPLACE "." "\\." readme_pattern "${exercises}/README.md")
  stepwise_add_exit_code_test(exercise-${id}-untouched EXPECT 1 LABEL cpu COMMAND ${target}_untouched
    STDOUT "exercise ${id}: fill in `[A-Za-z_0-9]+` in ${file_pattern}, see ${readme_pattern}")
  set_tests_properties(exercise-${id}-untouched PROPERTIES LABELS "cpu;exercise-untouched" TIMEOUT 120)
endfunction()

# One grader program: the grader, the cpu tests' doctest main (support/case_guard.hpp: a case that makes no
# assertion fails), and @p answer (the student file or the solution), with the exercises folder on the include path.
function(_stepwise_exercise_program target answer grader libraries exercises)
  add_executable(${target} ${grader} ${answer})
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/${exercises})
  target_link_libraries(${target} PRIVATE stepwise_test_main_cpu stepwise_host ${libraries})
  stepwise_target_warnings(${target})
endfunction()
