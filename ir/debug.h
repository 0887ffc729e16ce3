/* debug.h - debug-info attributes: what a function needs for gdb.
 *
 * Built with the C API's DI attribute getters; the one piece it has no
 * getter for, a distinct id (`distinct[N]<>`), is parsed here (DESIGN.md
 * allows that for attributes without a C getter; each parse makes a new
 * distinct attribute). */
#ifndef CORO_IR_DEBUG_H
#define CORO_IR_DEBUG_H

#include "mlir-c/IR.h"

/* A new distinct id for a compile unit or subprogram. */
MlirAttribute ir_distinct_id(MlirContext ctx);

/* #llvm.di_file<"name" in "directory"> for the path `file` (split at its
 * last '/'; directory "" when it has none). */
MlirAttribute ir_di_file(MlirContext ctx, MlirStringRef file);

#endif /* CORO_IR_DEBUG_H */
