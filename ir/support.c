/* support.c - growable strings and MlirStringRef comparisons. */
#include "ir/support.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

void coro_str_append(struct coro_str *s, const char *data, size_t len) {
  if (s->len + len + 1 > s->cap) {
    size_t cap = s->cap ? s->cap : 64;
    while (cap < s->len + len + 1)
      cap *= 2;
    char *grown = ir_xrealloc(s->data, cap);
    s->data = grown;
    s->cap = cap;
  }
  if (len)
    memcpy(s->data + s->len, data, len);
  s->len += len;
  s->data[s->len] = '\0';
}

void coro_str_appendz(struct coro_str *s, const char *z) {
  coro_str_append(s, z, strlen(z));
}

void coro_str_callback(MlirStringRef ref, void *user) {
  coro_str_append((struct coro_str *)user, ref.data, ref.length);
}

void coro_str_free(struct coro_str *s) {
  free(s->data);
  s->data = NULL;
  s->len = s->cap = 0;
}

const char *coro_str_cstr(const struct coro_str *s) {
  return s->data ? s->data : "";
}

struct coro_str coro_type_str(MlirType type) {
  struct coro_str s = {0};
  mlirTypePrint(type, coro_str_callback, &s);
  return s;
}

bool coro_ref_starts_with(MlirStringRef ref, const char *prefix) {
  size_t n = strlen(prefix);
  return ref.length >= n && memcmp(ref.data, prefix, n) == 0;
}

bool coro_location_file_line_col(MlirLocation loc, MlirStringRef *file,
                                 unsigned *line, unsigned *col) {
  if (mlirLocationIsNull(loc))
    return false;
  if (mlirLocationIsAFileLineColRange(loc)) {
    *file = mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(loc));
    *line = (unsigned)mlirLocationFileLineColRangeGetStartLine(loc);
    *col = (unsigned)mlirLocationFileLineColRangeGetStartColumn(loc);
    return true;
  }
  if (mlirLocationIsAName(loc))
    return coro_location_file_line_col(mlirLocationNameGetChildLoc(loc), file,
                                       line, col);
  if (mlirLocationIsACallSite(loc))
    return coro_location_file_line_col(mlirLocationCallSiteGetCallee(loc), file,
                                       line, col) ||
           coro_location_file_line_col(mlirLocationCallSiteGetCaller(loc), file,
                                       line, col);
  if (mlirLocationIsAFused(loc)) {
    /* On the heap: a fused location may have any number of parts. */
    intptr_t n = mlirLocationFusedGetNumLocations(loc);
    MlirLocation *parts = n > 0 ? ir_xmalloc((size_t)n * sizeof *parts) : NULL;
    if (!parts)
      return false;
    mlirLocationFusedGetLocations(loc, parts);
    bool found = false;
    for (intptr_t i = 0; i < n && !found; ++i)
      found = coro_location_file_line_col(parts[i], file, line, col);
    free(parts);
    return found;
  }
  return false;
}

static bool has_line(MlirLocation loc) {
  MlirStringRef file;
  unsigned line = 0, col;
  return coro_location_file_line_col(loc, &file, &line, &col) && line > 0;
}

MlirLocation ir_error_loc(MlirOperation op) {
  MlirLocation own = mlirOperationGetLocation(op);
  if (has_line(own))
    return own;
  /* LLVM's line 0 (no source line: clang's coroutine intrinsics carry it
   * in code with debug info): the innermost op around it that has one,
   * its function at the least */
  for (MlirOperation up = mlirOperationGetParentOperation(op);
       !mlirOperationIsNull(up); up = mlirOperationGetParentOperation(up))
    if (has_line(mlirOperationGetLocation(up)))
      return mlirOperationGetLocation(up);
  return own;
}

void ir_emit_error(MlirOperation op, const char *msg) {
  mlirEmitError(ir_error_loc(op), msg);
}

void ir_emit_error_at_value(MlirValue v, const char *msg) {
  if (mlirValueIsAOpResult(v)) {
    ir_emit_error(mlirOpResultGetOwner(v), msg);
    return;
  }
  MlirLocation loc = mlirValueGetLocation(v);
  MlirOperation fn = mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(v));
  if (!has_line(loc) && !mlirOperationIsNull(fn))
    loc = ir_error_loc(fn);
  mlirEmitError(loc, msg);
}

void *ir_xmalloc(size_t size) {
  void *p = malloc(size ? size : 1);
  if (!p)
    ir_out_of_memory();
  return p;
}

void *ir_xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p)
    ir_out_of_memory();
  return p;
}

void *ir_xrealloc(void *p, size_t size) {
  void *q = realloc(p, size ? size : 1);
  if (!q)
    ir_out_of_memory();
  return q;
}
