/* lower.h - the lowering every executing coro tool runs before LLVM.
 *
 * coro-run and coro-translate share it. For route A it is the library's
 * coroLowerToLLVMDialect (coro-c/Lowering.h): verify, put scf in CFG form,
 * run every registered `convert-coro-to-llvm-<abi>` conversion (so a module
 * may mix ABIs, and a new ABI needs only its pass row), then MLIR's
 * conversions of everything else to the LLVM dialect. Diagnostics go to the
 * context. */
#ifndef CORO_TOOLS_LOWER_H
#define CORO_TOOLS_LOWER_H

#include "mlir-c/IR.h"

#include <stdbool.h>

/* The routes from the LLVM dialect to code. Only route A exists so far. */
enum coro_route { CORO_ROUTE_LLVM, CORO_ROUTE_MLIR_SPLIT };

/* Parses "--route=" values; false for an unknown name. */
bool coro_route_parse(const char *name, enum coro_route *out);

/* Lowers `module` (borrowed) in place to the LLVM dialect for `route`.
 * Returns false with diagnostics emitted (or, for a route that does not
 * exist yet, a message in *why). */
bool coro_lower_module(MlirModule module, enum coro_route route,
                       const char **why);

#endif /* CORO_TOOLS_LOWER_H */
