/* RUN: %capi_bin/lower-module 2>&1 | FileCheck %s
 *
 * The one lowering entry point, coroLowerModule: a zeroed config (and
 * NULL) is the default route at -O0; each route and level; what does not
 * exist is a located error that leaves the module as it was; and
 * coroPassManagerCreate, anchored on builtin.module, against the trap of
 * mlirPassManagerCreate (anchored on `any`: a builtin.module(...) pipeline
 * added to it lowers nothing, and succeeds). */
#include "coro-c/Coro.h"
#include "mlir-c/BuiltinAttributes.h"

#include <stdio.h>
#include <string.h>

static const char *const generator =
    "func.func @gen(%n: i64) -> !coro.handle<i64> attributes "
    "{coro.abi = \"switch\"} {\n"
    "  %h = \"coro.begin\"() : () -> !coro.handle<i64>\n"
    "  \"coro.yield\"(%n) : (i64) -> i1\n"
    "  \"coro.end\"(%h) : (!coro.handle<i64>) -> ()\n"
    "  return %h : !coro.handle<i64>\n"
    "}\n";

static void print(MlirStringRef s, void *user) {
  fwrite(s.data, 1, s.length, (FILE *)user);
}

static MlirLogicalResult report(MlirDiagnostic diag, void *user) {
  (void)user;
  MlirStringRef file = {NULL, 0};
  unsigned line = 0, col = 0;
  coroLocationGetFileLineCol(mlirDiagnosticGetLocation(diag), &file, &line,
                             &col);
  fprintf(stderr, "diagnostic at %u:%u: ", line, col);
  mlirDiagnosticPrint(diag, print, stderr);
  fprintf(stderr, "\n");
  return mlirLogicalResultSuccess();
}

static MlirContext context(void) {
  MlirContext ctx = mlirContextCreate();
  coroDialectLoad(ctx);
  mlirContextAttachDiagnosticHandler(ctx, report, NULL, NULL);
  return ctx;
}

/* What a lowered module holds: whether a coroutine intrinsic is left
 * (route A), whether a split part exists (route B), whether the coro
 * dialect is gone. */
struct seen {
  int intrinsic, resume_fn, coro_op;
};

static MlirWalkResult look(MlirOperation op, void *user) {
  struct seen *s = user;
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  if (n.length > 15 && !memcmp(n.data, "llvm.intr.coro.", 15))
    s->intrinsic = 1;
  if (n.length > 5 && !memcmp(n.data, "coro.", 5))
    s->coro_op = 1;
  MlirAttribute name = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("sym_name"));
  if (!mlirAttributeIsNull(name) && mlirAttributeIsAString(name)) {
    MlirStringRef v = mlirStringAttrGetValue(name);
    if (v.length == 10 && !memcmp(v.data, "gen.resume", 10))
      s->resume_fn = 1;
  }
  return MlirWalkResultAdvance;
}

static void lower(const char *what, const CoroLowerConfig *config) {
  MlirContext ctx = context();
  MlirModule m =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(generator));
  int ok = mlirLogicalResultIsSuccess(coroLowerModule(m, config));
  struct seen s = {0};
  mlirOperationWalk(mlirModuleGetOperation(m), look, &s, MlirWalkPreOrder);
  fprintf(stderr, "%s: ok %d, intrinsics %d, split %d, coro ops %d\n", what, ok,
          s.intrinsic, s.resume_fn, s.coro_op);
  mlirModuleDestroy(m);
  mlirContextDestroy(ctx);
}

int main(void) {
  CoroRoute dflt = (CoroRoute)-1;
  CoroLowerConfig zero = {0};
  // CHECK: default route resolves: 1, is the default: 1
  fprintf(stderr, "default route resolves: %d, is the default: %d\n",
          coroLowerConfigRoute(&zero, &dflt), dflt == coroDefaultRoute());

  /* The default route is route B: split by coro, no intrinsic left. */
  // CHECK: default is route B: 1
  fprintf(stderr, "default is route B: %d\n",
          coroDefaultRoute() == CoroRouteMLIRSplit);
  // CHECK: zeroed: ok 1, intrinsics 0, split 1, coro ops 0
  lower("zeroed", &zero);
  // CHECK: null: ok 1, intrinsics 0, split 1, coro ops 0
  lower("null", NULL);
  CoroLowerConfig a = {.route = CoroLowerRouteLLVM, .opt_level = 2};
  // CHECK: route A -O2: ok 1, intrinsics 1, split 0, coro ops 0
  lower("route A -O2", &a);
  CoroLowerConfig b = {.route = CoroLowerRouteMLIRSplit};
  // CHECK: route B -O0: ok 1, intrinsics 0, split 1, coro ops 0
  lower("route B -O0", &b);
  b.opt_level = 2;
  // CHECK: route B -O2: ok 1, intrinsics 0, split 1, coro ops 0
  lower("route B -O2", &b);
  b.opt_level = 0;
  b.checked = true;
  // CHECK: route B checked: ok 1, intrinsics 0, split 1, coro ops 0
  lower("route B checked", &b);

  /* What does not exist: an error at the module, the module untouched
   * (its coro ops still there). */
  CoroLowerConfig bad = {.route = (CoroLowerRoute)7};
  // CHECK: diagnostic at {{[0-9]+:[0-9]+}}: unknown lowering route
  // CHECK-NEXT: bad route: ok 0, intrinsics 0, split 0, coro ops 1
  lower("bad route", &bad);
  CoroLowerConfig level = {.opt_level = 4};
  // CHECK: diagnostic at {{[0-9]+:[0-9]+}}: the optimisation level of a
  // lowering is 0 to 3 CHECK-NEXT: level 4: ok 0, intrinsics 0, split 0, coro
  // ops 1
  lower("level 4", &level);
  CoroLowerConfig dev_a = {.route = CoroLowerRouteLLVM, .device = true};
  // CHECK: diagnostic at {{.*}}: a device module lowers by route B only
  // CHECK-NEXT: device route A: ok 0, intrinsics 0, split 0, coro ops 1
  lower("device route A", &dev_a);
  CoroLowerConfig dev_g = {.device = true, .debug_info = true};
  // CHECK: diagnostic at {{.*}}: debug info is not available for a device
  // CHECK-NEXT: device -g: ok 0, intrinsics 0, split 0, coro ops 1
  lower("device -g", &dev_g);

  /* The pipeline helpers take a pipeline with or without its anchor; the
   * trap they avoid: a builtin.module(...) pipeline added with
   * mlirOpPassManagerAddPipeline (to mlirPassManagerCreate's manager,
   * anchored on `any`) nests one level down, on modules inside the module,
   * and lowers nothing, with success. */
  const char *const pipelines[] = {
      "builtin.module(coro-lower-switch,coro-split)",
      "coro-lower-switch,coro-split"};
  for (int way = 0; way < 3; ++way) {
    MlirContext ctx = context();
    coroRegisterPasses();
    MlirModule m =
        mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(generator));
    MlirPassManager pm =
        way < 2 ? coroPassManagerCreate(ctx) : mlirPassManagerCreate(ctx);
    MlirStringRef text =
        mlirStringRefCreateFromCString(pipelines[way == 1 ? 1 : 0]);
    MlirLogicalResult added =
        way < 2
            ? coroPassManagerAddPipeline(pm, text, print, stderr)
            : mlirOpPassManagerAddPipeline(
                  mlirPassManagerGetAsOpPassManager(pm), text, print, stderr);
    int ran = mlirLogicalResultIsSuccess(added) &&
              mlirLogicalResultIsSuccess(
                  mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(m)));
    struct seen s = {0};
    mlirOperationWalk(mlirModuleGetOperation(m), look, &s, MlirWalkPreOrder);
    // CHECK: helper, anchored: ran 1, split 1, coro ops 0
    // CHECK: helper, not anchored: ran 1, split 1, coro ops 0
    // CHECK: the trap: ran 1, split 0, coro ops 1
    fprintf(stderr, "%s: ran %d, split %d, coro ops %d\n",
            way == 0   ? "helper, anchored"
            : way == 1 ? "helper, not anchored"
                       : "the trap",
            ran, s.resume_fn, s.coro_op);
    mlirPassManagerDestroy(pm);
    mlirModuleDestroy(m);
    mlirContextDestroy(ctx);
  }
  return 0;
}
