# cmake -DROOT=<source dir> -DWORK=<scratch dir> -P cmake/check_layers_selftest.cmake
cmake_minimum_required(VERSION 3.20)
# Proves the layer check fails: a copy of the tree where the model includes the TUI.
file(REMOVE_RECURSE ${WORK})
file(COPY ${ROOT}/src ${ROOT}/include ${ROOT}/cmake DESTINATION ${WORK})
file(APPEND ${WORK}/src/model/history.cpp "#include \"musatop/tui/layout.hpp\"\n")
execute_process(COMMAND ${CMAKE_COMMAND} -DROOT=${WORK} -P ${WORK}/cmake/check_layers.cmake
                RESULT_VARIABLE status ERROR_VARIABLE output OUTPUT_VARIABLE output)
file(REMOVE_RECURSE ${WORK})
if(status EQUAL 0)
  message(FATAL_ERROR "the layer check passed a tree in which src/model/history.cpp includes a TUI header")
endif()
if(NOT output MATCHES "src/model/history.cpp includes musatop/tui/layout.hpp")
  message(FATAL_ERROR "the layer check failed, but without naming the upward include:\n${output}")
endif()
message(STATUS "layers self-test: the upward include was caught")
