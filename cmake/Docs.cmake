# `cmake --build build --target docs` runs Doxygen over the READMEs, docs/, common/ and chapters/,
# with a source page for every file (the kernels are read there), when Doxygen is installed.
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
  set(DOXYGEN_FILE_PATTERNS *.hpp *.cuh *.cu *.cpp *.md)
  set(DOXYGEN_EXTENSION_MAPPING "cu=C++;cuh=C++")
  set(DOXYGEN_FILTER_PATTERNS "*.md=${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tools/doxygen_markdown_filter.py")
  set(DOXYGEN_USE_MDFILE_AS_MAINPAGE ${CMAKE_SOURCE_DIR}/README.md)
  set(DOXYGEN_IMAGE_PATH ${CMAKE_SOURCE_DIR}/chapters)
  doxygen_add_docs(docs ${CMAKE_SOURCE_DIR}/README.md ${CMAKE_SOURCE_DIR}/CONTRIBUTING.md ${CMAKE_SOURCE_DIR}/docs
    ${CMAKE_SOURCE_DIR}/common ${CMAKE_SOURCE_DIR}/chapters
    COMMENT "Doxygen: build/docs/html/index.html")
else()
  message(STATUS "stepwise: the 'docs' target needs Doxygen and Python 3 (Debian/Ubuntu: apt-get install doxygen)")
  add_custom_target(docs
    COMMAND ${CMAKE_COMMAND} -E echo "The docs target needs Doxygen and Python 3: install them (Debian/Ubuntu: apt-get install doxygen), then configure again."
    COMMAND ${CMAKE_COMMAND} -E false)
endif()
