# check_layers.cmake: fails when a file of the layer LAYER (a folder of ROOT)
# includes a header of the project from a folder not in ALLOW (a comma
# separated list: the layer itself and the layers below it). Headers of
# MLIR, LLVM and the C library (mlir-c/, mlir/, llvm-c/, llvm/, <...>) are
# always allowed; so is the runtime's header-only HandleLayout.h. Run by
# the build (cmake/CoroLayers.cmake) with cmake -P; touches STAMP on
# success.
string(REPLACE "," ";" allow "${ALLOW}")
file(GLOB_RECURSE files "${ROOT}/${LAYER}/*.c" "${ROOT}/${LAYER}/*.h"
     "${ROOT}/${LAYER}/*.cpp")
set(bad "")
foreach(f ${files})
  file(STRINGS "${f}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  foreach(line ${lines})
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]*)\".*" "\\1"
           inc "${line}")
    string(REGEX MATCH "^[^/]*" top "${inc}")
    if(inc STREQUAL top OR top MATCHES "^(mlir-c|mlir|llvm-c|llvm)$" OR
       inc STREQUAL "coro-runtime/HandleLayout.h")
      continue()
    endif()
    list(FIND allow "${top}" at)
    if(at EQUAL -1)
      file(RELATIVE_PATH rel "${ROOT}" "${f}")
      string(APPEND bad "  ${rel}: #include \"${inc}\" (${top}/ is not below ${LAYER}/)\n")
    endif()
  endforeach()
endforeach()
if(bad)
  message(FATAL_ERROR "an include goes up or sideways between the layers "
                      "(docs/architecture.md):\n${bad}")
endif()
file(TOUCH "${STAMP}")
