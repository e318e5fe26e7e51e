# The graded exercises (docs/exercises.md). Each exercise NN-K has, in chapters/NN_name/exercises/:
#   FILE             the student file: the lesson, the signature, and a TODO that throws stepwise::NotDoneYet
#                    (common/host/exercise.hpp)
#   solutions/FILE   the solution, with the same signature
# and a grader in tests/NN_name/exercises/. Two kinds:
#   predict exercises (stepwise_add_exercise): the student writes a small host function or table; a doctest
#        program checks it against the chapter's own model, on the CPU;
#   build exercises (stepwise_add_build_exercise): the student writes stage N's kernel from stage N - 1; a doctest
#        GPU program runs the chapter's GPU checks on the student's stage, then times it beside the chapter's
#        stage N, which is the solution (tests/support/build_exercise.hpp).
#
# STEPWISE_EXERCISES (top-level option, OFF by default) picks which of the two a grader compiles:
#   OFF: the solution. `exercise-NN-K` is labelled exercise and exercise-NN, and cpu (predict) or gpu (build),
#        so that the default build proves that every grader passes on its solution (CI, without a GPU, skips the
#        build exercises); beside it, `exercise-NN-K-untouched` (cpu) builds the grader with the student file as
#        handed out and requires it to fail with the NotDoneYet message, without a GPU.
#   ON, or a tree without solutions (tools/handout makes one for students):
#        the student file. `exercise-NN-K` is labelled exercise and exercise-NN only (a student's unfinished
#        exercise is not a failure of the repository's cpu tests): `ctest -L exercise-NN` grades chapter NN.

# stepwise_add_exercise(<NN-K> FILE <file.cpp> GRADER <grader.cpp> [LIBRARIES ...])
# in tests/NN_name/CMakeLists.txt: the executable exercise_NN_K (the grader, the doctest main of the cpu
# tests, and the student file or the solution) and its CTest test exercise-NN-K.
function(stepwise_add_exercise id)
  cmake_parse_arguments(ARG "" "FILE;GRADER" "LIBRARIES" ${ARGN})
  _stepwise_exercise_files(stepwise_add_exercise ${id} "${ARG_FILE}" "${ARG_GRADER}")

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
  _stepwise_untouched_test(${id} ${target}_untouched ${exercises} ${ARG_FILE})
endfunction()

# stepwise_add_build_exercise(<NN-K> FILE <build_K_slug.cu> GRADER <grader.cpp> [LIBRARIES ...])
# in tests/NN_name/CMakeLists.txt: the executable exercise_NN_K (the grader, build_exercise_main.cpp, and the
# student file or the solution; tests/NN_name on its include path, for the chapter's GPU checks) and its CTest
# test exercise-NN-K, which needs a GPU (skipped, exit 77, without one). The student file defines the stage's
# factory, whose first line throws NotDoneYet until the student deletes it; the solution returns the chapter's
# own stage. The untouched file's grader fails (exit 1, the NotDoneYet line) before it looks for a GPU, so that
# `exercise-NN-K-untouched` is a cpu test.
function(stepwise_add_build_exercise id)
  cmake_parse_arguments(ARG "" "FILE;GRADER" "LIBRARIES" ${ARGN})
  _stepwise_exercise_files(stepwise_add_build_exercise ${id} "${ARG_FILE}" "${ARG_GRADER}")
  if(NOT ARG_FILE MATCHES "^build_[0-9]+_[a-z0-9_]+\\.cu$")
    message(FATAL_ERROR "stepwise_add_build_exercise(${id}): FILE is build_K_slug.cu, not ${ARG_FILE}")
  endif()

  if(STEPWISE_EXERCISES OR handout)
    _stepwise_build_exercise_program(${target} ${student} "${ARG_GRADER}" "${ARG_LIBRARIES}" ${exercises})
    add_test(NAME exercise-${id} COMMAND ${target})
    set_tests_properties(exercise-${id} PROPERTIES LABELS "exercise;exercise-${chapter}" TIMEOUT 300
                                                   SKIP_RETURN_CODE 77)
    return()
  endif()
  _stepwise_build_exercise_program(${target} ${solution} "${ARG_GRADER}" "${ARG_LIBRARIES}" ${exercises})
  add_test(NAME exercise-${id} COMMAND ${target})
  set_tests_properties(exercise-${id} PROPERTIES LABELS "gpu;exercise;exercise-${chapter}" TIMEOUT 300
                                                 SKIP_RETURN_CODE 77)
  _stepwise_build_exercise_program(${target}_untouched ${student} "${ARG_GRADER}" "${ARG_LIBRARIES}" ${exercises})
  _stepwise_untouched_test(${id} ${target}_untouched ${exercises} ${ARG_FILE})
endfunction()

# What both kinds check and name, set in the caller's scope: chapter (NN), exercises (chapters/NN_name/exercises),
# student and solution (the two files' paths), handout (TRUE in a tree without solutions), target (exercise_NN_K).
macro(_stepwise_exercise_files caller id file grader)
  if(NOT "${id}" MATCHES "^([0-9][0-9])-([0-9]+)$")
    message(FATAL_ERROR "${caller}(${id}): the exercise's number is NN-K (chapter NN, exercise K)")
  endif()
  set(chapter ${CMAKE_MATCH_1})
  if("${file}" STREQUAL "" OR "${grader}" STREQUAL "")
    message(FATAL_ERROR "${caller}(${id}): FILE and GRADER are required")
  endif()
  file(GLOB folder LIST_DIRECTORIES true RELATIVE ${PROJECT_SOURCE_DIR}/chapters ${PROJECT_SOURCE_DIR}/chapters/${chapter}_*)
  list(LENGTH folder folders)
  if(NOT folders EQUAL 1)
    message(FATAL_ERROR "${caller}(${id}): no single folder chapters/${chapter}_*")
  endif()
  set(exercises chapters/${folder}/exercises)
  set(student ${PROJECT_SOURCE_DIR}/${exercises}/${file})
  set(solution ${PROJECT_SOURCE_DIR}/${exercises}/solutions/${file})
  if(NOT EXISTS ${student})
    message(FATAL_ERROR "${caller}(${id}): ${student} is missing")
  endif()
  # A handout tree (tools/handout) has no solutions folder: it grades the student files, as with the option on.
  set(handout FALSE)
  if(NOT EXISTS ${PROJECT_SOURCE_DIR}/${exercises}/solutions)
    set(handout TRUE)
  elseif(NOT EXISTS ${solution})
    message(FATAL_ERROR "${caller}(${id}): ${solution} is missing")
  endif()
  string(REPLACE "-" "_" target exercise_${id})
endmacro()

# exercise-NN-K-untouched: @p program, the grader built with the student file as handed out, compiles and fails
# (exit 1) with the message that says what to do, in the student file's own words (NotDoneYet), never with a
# crash, on any machine.
function(_stepwise_untouched_test id program exercises file)
  string(REPLACE "." "\\." file_pattern "${exercises}/${file}")
  string(REPLACE "." "\\." readme_pattern "${exercises}/README.md")
  stepwise_add_exit_code_test(exercise-${id}-untouched EXPECT 1 LABEL cpu COMMAND ${program}
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

# One build exercise's grader program: the grader, build_exercise_main.cpp (the student's stage before the GPU,
# then the GPU tests' run) and @p answer (the student file or the solution), with the exercises folder and the
# chapter's tests folder (its GPU checks) on the include path.
function(_stepwise_build_exercise_program target answer grader libraries exercises)
  add_executable(${target} ${grader} ${answer})
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/${exercises} ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(${target} PRIVATE stepwise_test_main_build_exercise stepwise_common ${libraries})
  stepwise_target_warnings(${target})
endfunction()
