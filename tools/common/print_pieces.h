/* print_pieces.h - a large module printed a top-level op at a time, on
 * several threads, with the text MLIR's printer gives for the whole module
 * (print_pieces.c says why the text is the same). */
#ifndef CORO_TOOLS_PRINT_PIECES_H
#define CORO_TOOLS_PRINT_PIECES_H

#include "mlir-c/IR.h"

#include <stdbool.h>

/* Fewer top-level ops are printed whole. */
#define DRV_PRINT_PIECES_MIN_OPS 256

/* Prints `module` (a builtin.module of DRV_PRINT_PIECES_MIN_OPS top-level
 * ops or more) through `write` on `threads` threads (0: as many as the
 * machine has processors, at most 16), with printing flags
 * from make_flags(flags_user) (each a new object, destroyed here; not the
 * generic form nor locations), and returns true; or, having written
 * nothing, false when the module must be printed whole: it is no such
 * module, it fails the verifier (unless `verified`: as MLIR's printer,
 * which then prints the generic form; the verifier's errors are not
 * reported), or its text could hold what the whole printing shares across
 * the module (aliases, distinct attributes, resources). The IR is only
 * read, and the context must allow threads. */
bool drv_print_module_in_pieces(MlirOperation module, unsigned threads,
                                bool verified,
                                MlirOpPrintingFlags (*make_flags)(void *),
                                void *flags_user,
                                void (*write)(MlirStringRef, void *),
                                void *user);

#endif
