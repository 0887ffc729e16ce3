/* test_passes.c - passes that exist only for coro's own tests.
 *
 * `--test-coro-remarks` emits, for each func.func, a passed remark in
 * category "coro-split" ("Split 'NAME' (test remark)") and a missed remark
 * in category "coro-elide" ("'NAME' not elided (test remark)") at the
 * function, so that --remarks-filter and expected-remark can be tested
 * before a real pass emits remarks. It changes nothing. coro-opt registers
 * these passes (coroRegisterTestPasses); coroRegisterPasses does not, so
 * embedders do not see them unless they ask. Like the pass table in passes.c,
 * the pass's user data is a static immutable row, so cloning copies nothing. */
#include "capi/registry.h"
#include "coro-c/Passes.h"
#include "ir/remark.h"
#include "ir/support.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_func(MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  return name.length == 9 && memcmp(name.data, "func.func", 9) == 0;
}

/* Emits `format` with the function's name in place of %.*s. */
static void remark_about(MlirOperation fn, enum coro_remark_kind kind,
                         const char *category, const char *format) {
  MlirAttribute sym = mlirOperationGetAttributeByName(
      fn, mlirStringRefCreateFromCString("sym_name"));
  MlirStringRef name = mlirAttributeIsAString(sym)
                           ? mlirStringAttrGetValue(sym)
                           : mlirStringRefCreateFromCString("?");
  size_t size = strlen(format) + name.length + 1;
  char *text = ir_xmalloc(size);
  if (!text)
    return;
  snprintf(text, size, format, (int)name.length, name.data);
  coro_emit_remark(mlirOperationGetLocation(fn), kind, category, "test", text);
  free(text);
}

static MlirWalkResult remark_on_func(MlirOperation op, void *userData) {
  if (is_func(op)) {
    remark_about(op, CORO_REMARK_PASSED, "coro-split",
                 "Split '%.*s' (test remark)");
    remark_about(op, CORO_REMARK_MISSED, "coro-elide",
                 "'%.*s' not elided (test remark)");
  }
  return MlirWalkResultAdvance;
}

static MlirLogicalResult run_test_remarks(MlirOperation op) {
  mlirOperationWalk(op, remark_on_func, NULL, MlirWalkPreOrder);
  return mlirLogicalResultSuccess();
}

static const struct coro_pass_info test_passes[] = {
    {"test-coro-remarks", "TestCoroRemarks",
     "Test only: emit a coro-split and a coro-elide remark per func.func", "",
     run_test_remarks, NULL},
};

static MlirPass create_test_remarks_pass(void) {
  return coro_pass_create(&test_passes[0]);
}

void coroRegisterTestPasses(void) {
  /* The registry is MLIR's (global); registering twice would be fatal. */
  if (!coro_registry_has(test_passes[0].argument))
    coro_registry_add_pass(create_test_remarks_pass);
}
