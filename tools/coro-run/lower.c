/* lower.c - the lowering of coro-run and coro-translate: the route choice
 * is the tools'; the lowering itself is the library's
 * coroLowerToLLVMDialect (capi/lowering.c), which embedders call too. */
#include "tools/coro-run/lower.h"
#include "coro-c/Coro.h"

#include <string.h>

bool coro_route_parse(const char *name, enum coro_route *out) {
  if (!strcmp(name, "llvm"))
    *out = CORO_ROUTE_LLVM;
  else if (!strcmp(name, "mlir-split"))
    *out = CORO_ROUTE_MLIR_SPLIT;
  else
    return false;
  return true;
}

bool coro_lower_module(MlirModule module, enum coro_route route,
                       const char **why) {
  *why = NULL;
  if (route == CORO_ROUTE_MLIR_SPLIT) {
    *why = "--route=mlir-split needs the --coro-split pass, which does not "
           "exist yet; use --route=llvm";
    return false;
  }
  return mlirLogicalResultIsSuccess(coroLowerToLLVMDialect(module));
}
