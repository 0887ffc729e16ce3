/*===-- coro-c/Diagnostics.h - Locations and diagnostics helpers --*- C -*-===*\
|*                                                                            *|
|* Helpers a driver needs to print `file:line:col: error: message` the way    *|
|* mlir-opt does, from the MLIR C API's diagnostics.                          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef CORO_C_DIAGNOSTICS_H
#define CORO_C_DIAGNOSTICS_H

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Finds the first file/line/column location inside `loc` (borrowed),
/// looking through name, call-site (callee first, then caller) and fused
/// locations (in order). Returns false if there is none (also for a null
/// location); the outputs are written only on success. `*file` is borrowed
/// from the context and is not NUL-terminated.
bool coroLocationGetFileLineCol(MlirLocation loc, MlirStringRef *file,
                                unsigned *line, unsigned *col);

/// The severity's name as mlir-opt prints it: "error", "warning", "note",
/// "remark". A static NUL-terminated string (borrowed, never freed).
const char *coroDiagnosticSeverityName(MlirDiagnosticSeverity severity);

#ifdef __cplusplus
}
#endif

#endif /* CORO_C_DIAGNOSTICS_H */
