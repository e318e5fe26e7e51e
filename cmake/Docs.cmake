# `cmake --build build --target docs` runs Doxygen over common/ and chapters/ when it is installed.
find_package(Doxygen QUIET)
if(DOXYGEN_FOUND)
  set(DOXYGEN_PROJECT_NAME stepwise)
  set(DOXYGEN_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/docs)
  set(DOXYGEN_EXTRACT_ALL NO)
  set(DOXYGEN_WARN_IF_UNDOCUMENTED NO)
  set(DOXYGEN_FILE_PATTERNS *.hpp *.cuh *.cu *.cpp *.md)
  set(DOXYGEN_EXTENSION_MAPPING "cu=C++;cuh=C++")
  set(DOXYGEN_USE_MDFILE_AS_MAINPAGE ${CMAKE_SOURCE_DIR}/README.md)
  doxygen_add_docs(docs ${CMAKE_SOURCE_DIR}/README.md ${CMAKE_SOURCE_DIR}/CONTRIBUTING.md ${CMAKE_SOURCE_DIR}/docs
    ${CMAKE_SOURCE_DIR}/common ${CMAKE_SOURCE_DIR}/chapters
    COMMENT "Doxygen: build/docs/html/index.html")
endif()
