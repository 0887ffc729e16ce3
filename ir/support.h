/* support.h - small helpers shared by the library's C files.
 *
 * A growable string (`struct coro_str`) that doubles as an MlirStringCallback
 * sink, so types, attributes and ops can be printed to memory, plus string
 * comparisons on MlirStringRef. Memory is owned by the struct; release it with
 * coro_str_free. */
#ifndef CORO_IR_SUPPORT_H
#define CORO_IR_SUPPORT_H

#include "mlir-c/IR.h"
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

struct coro_str {
  char *data; /* always NUL-terminated once non-empty */
  size_t len;
  size_t cap;
};

void coro_str_append(struct coro_str *s, const char *data, size_t len);
void coro_str_appendz(struct coro_str *s, const char *z);
/* MlirStringCallback: `user` is a struct coro_str *. */
void coro_str_callback(MlirStringRef ref, void *user);
void coro_str_free(struct coro_str *s);
/* A NUL-terminated view; "" when empty. Borrowed from `s`. */
const char *coro_str_cstr(const struct coro_str *s);

/* Prints `type` into a fresh string the caller frees with coro_str_free. */
struct coro_str coro_type_str(MlirType type);

/* Inline, so that the length of a literal `z` is a constant: most
 * mismatches end at the length. */
static inline bool coro_ref_eq(MlirStringRef ref, const char *z) {
  size_t n = strlen(z);
  return ref.length == n && memcmp(ref.data, z, n) == 0;
}
bool coro_ref_starts_with(MlirStringRef ref, const char *prefix);

/* The op's name, e.g. "coro.yield" (borrowed from the context). */
static inline MlirStringRef coro_op_name(MlirOperation op) {
  return mlirIdentifierStr(mlirOperationGetName(op));
}
static inline bool coro_op_named(MlirOperation op, const char *name) {
  return coro_ref_eq(coro_op_name(op), name);
}

/* The op named `name` in the symbol table of `table` (usually the module),
 * or null when there is none or `table` is not a symbol table. O(1) while
 * a scope of ir/symbols.h is installed for `table`; else a scan of it. */
MlirOperation coro_lookup_symbol(MlirOperation table, MlirStringRef name);

/* The file, line and column of `loc` (borrowed; the file name is borrowed
 * from the context): the first FileLineCol found in it, looking through
 * name, call-site and fused locations; false when it has none. */
bool coro_location_file_line_col(MlirLocation loc, MlirStringRef *file,
                                 unsigned *line, unsigned *col);

/* Where an error about `op` is reported: its location, or where that has
 * no line (LLVM's line 0) the location of the innermost op around it that
 * has one. */
MlirLocation ir_error_loc(MlirOperation op);
/* Emits the error `msg` (borrowed) at ir_error_loc(op). */
void ir_emit_error(MlirOperation op, const char *msg);
/* Emits the error `msg` (borrowed) about `v`: at its defining op's
 * ir_error_loc, or an argument's location (its function's without a
 * line). */
void ir_emit_error_at_value(MlirValue v, const char *msg);

/* Memory for the library, with one policy on failure, MLIR's own: report
 * and stop. ir_out_of_memory calls LLVM's allocation failure handler
 * (llvm::report_bad_alloc_error: an installed handler, else "LLVM ERROR:
 * out of memory" and abort), as MLIR's own allocations do; it never
 * returns. So these never return NULL, and no caller checks: an assert
 * would vanish in release builds. Sizes of 0 allocate 1 byte. */
void *ir_xmalloc(size_t size);
void *ir_xcalloc(size_t n, size_t size);
void *ir_xrealloc(void *p, size_t size);
_Noreturn void ir_out_of_memory(void);

#endif /* CORO_IR_SUPPORT_H */
