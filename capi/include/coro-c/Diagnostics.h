/*===-- coro-c/Diagnostics.h - Locations and diagnostics helpers --*- C -*-===*\
|*                                                                            *|
|* Helpers a driver needs to print `file:line:col: error: message` the way    *|
|* mlir-opt does, from the MLIR C API's diagnostics, and the two diagnostic   *|
|* settings the MLIR C API lacks: optimisation remarks and the op note.       *|
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

/// Reports, as an error diagnostic on `ctx` (borrowed), why parsing
/// `source` (borrowed; its name `sourceName`, borrowed) failed when MLIR's
/// parser failed without a word: the coro dialect is defined in IRDL, so
/// its ops have only the generic form, and MLIR's parser rejects one in
/// custom form (`coro.yield %x : i64`) silently. The error is at the first
/// coro op in custom form, or at 1:1 when there is none.
/// coroModuleCreateParseWithName calls it; a host that parses otherwise
/// (mlirOperationCreateParse) calls it after a failure with no error.
void coroEmitSilentParseFailure(MlirContext ctx, MlirStringRef source,
                                MlirStringRef sourceName);

/// Turns on optimisation remarks for `ctx` (borrowed): from now on, a remark
/// a coro pass emits reaches the context's diagnostic handlers, as a remark
/// diagnostic at its location whose message is the pass's text, when its
/// category ("coro-split", "coro-elide", "coro-frame") matches
/// `categoryRegex` (borrowed; copied; LLVM regular expression syntax, as
/// mlir-opt's --remarks-filter). Without this call no remark is emitted.
/// A later call replaces the filter. Fails, with an error diagnostic on
/// `ctx`, when `categoryRegex` is not a valid regular expression.
MlirLogicalResult coroContextEnableRemarks(MlirContext ctx,
                                           MlirStringRef categoryRegex);

/// Sets whether an error, warning or remark emitted on an operation gets a
/// note "see current operation: <the op in generic form>" (MLIR's default:
/// yes; mlir-opt --mlir-print-op-on-diagnostic). `ctx` is borrowed.
void coroContextSetPrintOpOnDiagnostic(MlirContext ctx, bool enable);

#ifdef __cplusplus
}
#endif

#endif /* CORO_C_DIAGNOSTICS_H */
