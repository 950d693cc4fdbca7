# Reads cmake/layers.txt into MUSATOP_LAYERS (in order) and MUSATOP_LAYER_DEPS_<layer>.
function(musatop_read_layers file)
  file(STRINGS "${file}" lines REGEX "^[a-z]+:")
  set(layers "")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE ":.*" "" layer "${line}")
    string(REGEX REPLACE "^[a-z]+:[ ]*" "" deps "${line}")
    string(REGEX REPLACE "[ ]+" ";" deps "${deps}")
    list(APPEND layers ${layer})
    set(MUSATOP_LAYER_DEPS_${layer} "${deps}" PARENT_SCOPE)
  endforeach()
  set(MUSATOP_LAYERS "${layers}" PARENT_SCOPE)
endfunction()

# musatop_warnings(TARGET): the project's warning set; -Werror with MUSATOP_WERROR.
function(musatop_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wshadow=local -Wnon-virtual-dtor)
  if(MUSATOP_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    # GCC 12 at -O3 reports std::string concatenation as overlapping memcpy (GCC bug
    # 105329, a false positive fixed in GCC 13).
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
endfunction()

# musatop_layer(NAME SOURCES... [PRIVATE_LIBS libs...]): one static library per
# layer, linking the layers below it as the table allows, third-party PRIVATE.
function(musatop_layer name)
  cmake_parse_arguments(ARG "" "" "SOURCES;PRIVATE_LIBS" ${ARGN})
  add_library(musatop_${name} STATIC ${ARG_SOURCES})
  target_include_directories(musatop_${name} PUBLIC ${PROJECT_SOURCE_DIR}/include ${PROJECT_BINARY_DIR}/generated)
  target_compile_definitions(musatop_${name} PUBLIC _GNU_SOURCE)
  foreach(dep IN LISTS MUSATOP_LAYER_DEPS_${name})
    target_link_libraries(musatop_${name} PUBLIC musatop_${dep})
  endforeach()
  if(ARG_PRIVATE_LIBS)
    target_link_libraries(musatop_${name} PRIVATE ${ARG_PRIVATE_LIBS})
  endif()
  musatop_warnings(musatop_${name})
endfunction()
