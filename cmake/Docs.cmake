# `cmake --build build --target docs` runs Doxygen over the READMEs, docs/, common/, chapters/, tests/ and tools/,
# with a source page for every file (the kernels are read there), when Doxygen is installed. The CPU test
# docs_without_warnings (tests/docs) runs the same configuration and fails on any warning.
find_package(Doxygen QUIET)
find_package(Python3 QUIET COMPONENTS Interpreter)
if(DOXYGEN_FOUND AND Python3_Interpreter_FOUND)
  set(DOXYGEN_PROJECT_NAME stepwise)
  set(DOXYGEN_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/docs)
  set(DOXYGEN_EXTRACT_ALL NO)
  set(DOXYGEN_WARN_IF_UNDOCUMENTED NO)
  set(DOXYGEN_SOURCE_BROWSER YES)
  set(DOXYGEN_STRIP_CODE_COMMENTS NO)
  set(DOXYGEN_HAVE_DOT NO)
  set(DOXYGEN_FILE_PATTERNS *.hpp *.cuh *.cu *.cpp *.md *.py)
  set(DOXYGEN_EXTENSION_MAPPING "cu=C++;cuh=C++")
  # `__global__ void __launch_bounds__(NT) kernel(...)` reads to Doxygen as a function named __launch_bounds__;
  # expanding that one macro to nothing (and no other) keeps the kernels' bodies parsable.
  set(DOXYGEN_MACRO_EXPANSION YES)
  set(DOXYGEN_EXPAND_ONLY_PREDEF YES)
  set(DOXYGEN_PREDEFINED "__launch_bounds__(...)=")
  set(DOXYGEN_FILTER_PATTERNS "*.md=${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tools/doxygen_markdown_filter.py")
  set(DOXYGEN_USE_MDFILE_AS_MAINPAGE ${CMAKE_SOURCE_DIR}/README.md)
  set(DOXYGEN_IMAGE_PATH ${CMAKE_SOURCE_DIR}/chapters)
  doxygen_add_docs(docs ${CMAKE_SOURCE_DIR}/README.md ${CMAKE_SOURCE_DIR}/CONTRIBUTING.md ${CMAKE_SOURCE_DIR}/docs
    ${CMAKE_SOURCE_DIR}/common ${CMAKE_SOURCE_DIR}/chapters ${CMAKE_SOURCE_DIR}/tests ${CMAKE_SOURCE_DIR}/tools
    COMMENT "Doxygen: build/docs/html/index.html")
  set(STEPWISE_DOXYFILE ${CMAKE_CURRENT_BINARY_DIR}/Doxyfile.docs)
else()
  message(STATUS "stepwise: the 'docs' target needs Doxygen and Python 3 (Debian/Ubuntu: apt-get install doxygen)")
  add_custom_target(docs
    COMMAND ${CMAKE_COMMAND} -E echo "The docs target needs Doxygen and Python 3: install them (Debian/Ubuntu: apt-get install doxygen), then configure again."
    COMMAND ${CMAKE_COMMAND} -E false)
endif()
