/* consumer.c - a program built out of tree against the installed coro
 * package (by CMake and by pkg-config, test/Embedding/). It includes only
 * coro-c/Coro.h (and mlir-c/BuiltinTypes.h for an i64) and calls into every
 * public header: Dialect.h, Passes.h, Diagnostics.h, Lowering.h, Translate.h
 * and JIT.h. Every object it creates is destroyed before it returns (the
 * sanitizer build checks for leaks).
 *
 *   consumer OBJECT-PATH      (where the object-file test writes) */
#include "coro-c/Coro.h"
#include "mlir-c/BuiltinTypes.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static void print(MlirStringRef s, void *u) {
  (void)u;
  fwrite(s.data, 1, s.length, stdout);
}

/* Prints every diagnostic as `severity: line:col: message`. */
static MlirLogicalResult onDiagnostic(MlirDiagnostic d, void *u) {
  (void)u;
  MlirStringRef file = {NULL, 0};
  unsigned line = 0, col = 0;
  coroLocationGetFileLineCol(mlirDiagnosticGetLocation(d), &file, &line, &col);
  printf("%s: %u:%u: ",
         coroDiagnosticSeverityName(mlirDiagnosticGetSeverity(d)), line, col);
  mlirDiagnosticPrint(d, print, NULL);
  printf("\n");
  return mlirLogicalResultSuccess();
}

static MlirContext makeContext(void) {
  MlirContext ctx = mlirContextCreate();
  mlirContextAttachDiagnosticHandler(ctx, onDiagnostic, NULL, NULL);
  if (mlirLogicalResultIsFailure(coroDialectLoad(ctx)))
    printf("coroDialectLoad failed\n");
  return ctx;
}

static MlirModule parse(MlirContext ctx, const char *text) {
  return mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
}

static const char *generator =
    "func.func @gen(%n: i64) -> !coro.handle<i64> "
    "attributes {coro.abi = \"switch\"} {\n"
    "  %h = \"coro.begin\"() : () -> !coro.handle<i64>\n"
    "  %c0 = arith.constant 0 : i64\n"
    "  %c1 = arith.constant 1 : i64\n"
    "  cf.br ^loop(%c0 : i64)\n"
    "^loop(%i: i64):\n"
    "  %more = arith.cmpi slt, %i, %n : i64\n"
    "  cf.cond_br %more, ^body, ^done\n"
    "^body:\n"
    "  %d = \"coro.yield\"(%i) : (i64) -> i1\n"
    "  %next = arith.addi %i, %c1 : i64\n"
    "  cf.cond_br %d, ^done, ^loop(%next : i64)\n"
    "^done:\n"
    "  \"coro.end\"(%h) : (!coro.handle<i64>) -> ()\n"
    "  return %h : !coro.handle<i64>\n"
    "}\n"
    "func.func @sum(%n: i64) -> i64 {\n"
    "  %zero = arith.constant 0 : i64\n"
    "  %true = arith.constant true\n"
    "  %g = call @gen(%n) : (i64) -> !coro.handle<i64>\n"
    "  %s = scf.while (%acc = %zero) : (i64) -> i64 {\n"
    "    %done = \"coro.done\"(%g) : (!coro.handle<i64>) -> i1\n"
    "    %go = arith.xori %done, %true : i1\n"
    "    scf.condition(%go) %acc : i64\n"
    "  } do {\n"
    "  ^bb0(%acc: i64):\n"
    "    %v = \"coro.promise\"(%g) : (!coro.handle<i64>) -> i64\n"
    "    %a = arith.addi %acc, %v : i64\n"
    "    \"coro.resume\"(%g) : (!coro.handle<i64>) -> ()\n"
    "    scf.yield %a : i64\n"
    "  }\n"
    "  \"coro.destroy\"(%g) : (!coro.handle<i64>) -> ()\n"
    "  return %s : i64\n"
    "}\n";

/* Dialect.h and Passes.h: the dialect loads once per context, our passes
 * and named pipelines parse with mlirParsePassPipeline. */
static void testDialectAndRegistry(void) {
  printf("@testDialectAndRegistry\n");
  MlirContext ctx = makeContext();
  // CHECK-LABEL: @testDialectAndRegistry
  // CHECK: loaded: 1 again: 1
  printf("loaded: %d again: %d\n", coroDialectIsLoaded(ctx),
         mlirLogicalResultIsSuccess(coroDialectLoad(ctx)));
  coroRegisterPasses();
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString(
          "builtin.module(coro-verify,coro-lower-switch)"),
      print, NULL);
  // CHECK: parsed: 1
  printf("parsed: %d\n", mlirLogicalResultIsSuccess(parsed));
  // CHECK: handle: !coro.handle<i64>
  printf("handle: ");
  mlirTypePrint(coroHandleTypeGet(mlirIntegerTypeGet(ctx, 64)), print, NULL);
  printf("\n");
  // CHECK: switch supported: 1, nope supported: 0
  printf("switch supported: %d, nope supported: %d\n",
         coroABIIsSupported(mlirStringRefCreateFromCString("switch")),
         coroABIIsSupported(mlirStringRefCreateFromCString("nope")));
  mlirPassManagerDestroy(pm);
  mlirContextDestroy(ctx);
}

/* Lowering.h and JIT.h: lower the whole module, compile it in memory and
 * call @sum through a C function pointer. */
static void testLowerAndJIT(void) {
  printf("@testLowerAndJIT\n");
  MlirContext ctx = makeContext();
  MlirModule module = parse(ctx, generator);
  // CHECK-LABEL: @testLowerAndJIT
  // CHECK: lowered: 1
  printf("lowered: %d\n",
         mlirLogicalResultIsSuccess(coroLowerToLLVMDialect(module)));
  MlirExecutionEngine jit = coroJITCreate(module, 0, 0, NULL);
  mlirModuleDestroy(module); /* the engine keeps its own code */
  int64_t (*sum)(int64_t) = (int64_t(*)(int64_t))coroJITLookup(jit, "sum");
  // CHECK: sum(10) = 45, sum(4) = 6
  if (sum)
    printf("sum(10) = %lld, sum(4) = %lld\n", (long long)sum(10),
           (long long)sum(4));
  // CHECK: missing: 1
  printf("missing: %d\n", coroJITLookup(jit, "no_such_function") == NULL);
  mlirExecutionEngineDestroy(jit);
  mlirContextDestroy(ctx);
}

/* Lowering.h: a pipeline by name and one made of pass objects. */
static void testPipelines(void) {
  printf("@testPipelines\n");
  MlirContext ctx = makeContext();
  MlirModule byName = parse(ctx, generator);
  // CHECK-LABEL: @testPipelines
  // CHECK: by name: 1
  printf("by name: %d\n",
         mlirLogicalResultIsSuccess(coroRunPassPipeline(
             byName, mlirStringRefCreateFromCString("coro-lower-switch"))));
  // CHECK: llvm.func @gen(%{{.*}}: i64) -> !llvm.ptr
  // CHECK-SAME: presplitcoroutine
  mlirOperationPrint(mlirModuleGetOperation(byName), print, NULL);
  printf("\n");

  MlirModule byPasses = parse(ctx, generator);
  MlirPass passes[] = {coroCreateVerifyPass(),
                       coroCreateConvertCoroToLLVMSwitchPass()};
  // CHECK: by passes: 1
  printf("by passes: %d\n", mlirLogicalResultIsSuccess(coroRunPasses(
                                byPasses, 2, passes))); /* passes moved */
  // CHECK: func.func @gen(%{{.*}}: i64) -> !llvm.ptr
  // CHECK: llvm.intr.coro.begin
  mlirOperationPrint(mlirModuleGetOperation(byPasses), print, NULL);
  printf("\n");
  mlirModuleDestroy(byPasses);
  mlirModuleDestroy(byName);
  mlirContextDestroy(ctx);
}

/* Translate.h: LLVM IR before and after LLVM's coroutine passes, and an
 * object file. */
static void testTranslate(const char *objectPath) {
  printf("@testTranslate\n");
  MlirContext ctx = makeContext();
  MlirModule module = parse(ctx, generator);
  coroLowerToLLVMDialect(module);
  // CHECK-LABEL: @testTranslate
  // CHECK: define ptr @gen(i64 %{{.*}}) #[[ATTR:[0-9]+]]
  // CHECK: call ptr @llvm.coro.begin
  // CHECK: attributes #[[ATTR]] = { {{.*}}presplitcoroutine
  // CHECK: translated: 1
  printf("translated: %d\n", mlirLogicalResultIsSuccess(coroTranslateToLLVMIR(
                                 module, 0, false, print, NULL)));
  // CHECK: define internal {{.*}}void @gen.resume(ptr
  // CHECK: split: 1
  printf("split: %d\n", mlirLogicalResultIsSuccess(coroTranslateToLLVMIR(
                            module, 2, true, print, NULL)));
  // CHECK: object: 1
  printf("object: %d\n",
         mlirLogicalResultIsSuccess(coroEmitObjectFile(module, 2, objectPath)));
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
}

/* Failures are located diagnostics and failed results, never exits. */
static void testErrors(void) {
  printf("@testErrors\n");
  MlirContext ctx = makeContext();
  MlirModule module = parse(ctx, generator);
  // CHECK-LABEL: @testErrors
  // CHECK: error: 0:0: invalid pass pipeline 'coro-no-such-pass':
  // CHECK-SAME: 'coro-no-such-pass' does not refer to a registered pass
  // CHECK: bad pipeline: 0
  printf("bad pipeline: %d\n",
         mlirLogicalResultIsSuccess(coroRunPassPipeline(
             module, mlirStringRefCreateFromCString("coro-no-such-pass"))));
  // CHECK: error: {{.*}}could not translate or JIT-compile the module
  // CHECK: jit of unlowered: 1
  MlirExecutionEngine jit = coroJITCreate(module, 0, 0, NULL);
  printf("jit of unlowered: %d\n", mlirExecutionEngineIsNull(jit));
  // CHECK: error: {{.*}}translation to LLVM IR failed
  // CHECK: translate unlowered: 0
  printf("translate unlowered: %d\n",
         mlirLogicalResultIsSuccess(
             coroTranslateToLLVMIR(module, 0, false, print, NULL)));
  coroLowerToLLVMDialect(module);
  // CHECK: error: {{.*}}could not open the object file: /nonexistent/dir/x.o
  // CHECK: object in missing dir: 0
  printf("object in missing dir: %d\n",
         mlirLogicalResultIsSuccess(
             coroEmitObjectFile(module, 0, "/nonexistent/dir/x.o")));
  // CHECK: error: {{.*}}optimization level must be 0, 1, 2 or 3
  // CHECK: level 7: 0
  printf("level 7: %d\n", mlirLogicalResultIsSuccess(coroTranslateToLLVMIR(
                              module, 7, true, print, NULL)));
  mlirModuleDestroy(module);

  MlirModule unknownAbi =
      parse(ctx, "func.func @f() -> !coro.handle<none> "
                 "attributes {coro.abi = \"nope\"} {\n"
                 "  %h = \"coro.begin\"() : () -> !coro.handle<none>\n"
                 "  \"coro.end\"(%h) : (!coro.handle<none>) -> ()\n"
                 "  return %h : !coro.handle<none>\n"
                 "}\n");
  // CHECK: error: 1:1: coroutines with coro.abi = "nope" cannot be lowered
  // CHECK-SAME: yet: no convert-coro-to-llvm-nope pass is registered
  // CHECK: unknown abi lowered: 0
  printf("unknown abi lowered: %d\n",
         mlirLogicalResultIsSuccess(coroLowerToLLVMDialect(unknownAbi)));
  mlirModuleDestroy(unknownAbi);
  mlirContextDestroy(ctx);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: consumer OBJECT-PATH\n");
    return 2;
  }
  testDialectAndRegistry();
  testLowerAndJIT();
  testPipelines();
  testTranslate(argv[1]);
  testErrors();
  return 0;
}
