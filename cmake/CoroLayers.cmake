# The library's layers (DESIGN.md section 2, docs/architecture.md), bottom
# up: ir, dialect, then conversion and transforms side by side, then capi.
# Each layer is an object library of its own that links only the layers
# below it; libCoroCAPI.so is all of them, the one installed library.
#
# coro_add_layer(<name> <dir> LINKS <layers below...> SOURCES <files...>)
# makes the object library Coro<Name> from <dir>'s files. Every C file of a
# layer is compiled with -Werror=implicit-function-declaration (a call of a
# function no included header declares does not build), and the layer
# depends on its include check (cmake/check_layers.cmake): an #include of a
# layer above or beside it fails the build with the file and line.
set(CORO_LAYER_FLAGS -Werror=implicit-function-declaration)

function(coro_add_layer name dir)
  cmake_parse_arguments(L "" "" "LINKS;SOURCES;ALLOW" ${ARGN})
  set(target Coro${name})
  add_library(${target} OBJECT ${L_SOURCES})
  target_include_directories(${target} PRIVATE
    ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/runtime/include
    ${CORO_LLVM_INCLUDE})
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:C>:${CORO_LAYER_FLAGS}>)
  foreach(below ${L_LINKS})
    target_link_libraries(${target} PUBLIC Coro${below})
  endforeach()
  coro_check_layer(${target} ${dir} ALLOW ${L_ALLOW})
endfunction()

# coro_check_layer(<target> <dir> ALLOW <folders...>): the include check of
# <dir> (see check_layers.cmake), made a dependency of <target>.
function(coro_check_layer target dir)
  cmake_parse_arguments(L "" "" "ALLOW" ${ARGN})
  file(GLOB_RECURSE files CONFIGURE_DEPENDS
    "${PROJECT_SOURCE_DIR}/${dir}/*.c" "${PROJECT_SOURCE_DIR}/${dir}/*.h"
    "${PROJECT_SOURCE_DIR}/${dir}/*.cpp")
  set(stamp "${CMAKE_CURRENT_BINARY_DIR}/${target}.layers.stamp")
  string(REPLACE ";" "," allow "${dir};${L_ALLOW}")
  add_custom_command(OUTPUT "${stamp}"
    COMMAND ${CMAKE_COMMAND} -DLAYER=${dir} "-DALLOW=${allow}"
            -DROOT=${PROJECT_SOURCE_DIR} -DSTAMP=${stamp}
            -P "${PROJECT_SOURCE_DIR}/cmake/check_layers.cmake"
    DEPENDS ${files} "${PROJECT_SOURCE_DIR}/cmake/check_layers.cmake"
    COMMENT "Checking the includes of ${dir}/ (${target})"
    VERBATIM)
  add_custom_target(${target}Includes DEPENDS "${stamp}")
  add_dependencies(${target} ${target}Includes)
endfunction()
