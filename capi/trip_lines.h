/* trip_lines.h - the ops' source lines through route B's pre-split trip
 * (capi/presplit.c): LLVM IR carries a location only as debug info, so
 * the trip carries them as line tables and takes them back off after it
 * (trip_lines.c). */
#ifndef CORO_CAPI_TRIP_LINES_H
#define CORO_CAPI_TRIP_LINES_H

#include "mlir-c/IR.h"

#include <stdbool.h>

/* Gives each function defined in `module` whose located ops name one
 * file a subprogram of that file (its location becomes
 * fused<subprogram>[its own]). Returns whether `module` already had an
 * llvm.module_flags op (the translation adds one for debug info). */
bool coro_trip_lines_add(MlirOperation module);

/* After the trip: `fn` is located at `loc` (the function's location
 * before the trip) and its entry block's `nargs` arguments at `args` (when
 * it still has that many), each op and other block argument in it at the
 * source location the trip carried for it, or at `loc` where it carried
 * none; one the trip did not touch keeps its own. No subprogram is left. */
void coro_trip_lines_restore(MlirOperation fn, MlirLocation loc, intptr_t nargs,
                             const MlirLocation *args);

/* Erases the llvm.module_flags op of `module` (the one the translation
 * made for the trip's debug info, when it had none before). */
void coro_trip_lines_drop_flags(MlirOperation module);

#endif /* CORO_CAPI_TRIP_LINES_H */
