/* RUN: %capi_bin/jit 2>&1 | FileCheck %s
 *
 * JIT.h: a module that needs a symbol nothing defines fails on lookup with
 * an error diagnostic at the declaration, on the module's context, and
 * prints nothing of its own (ORC's "JIT session error" never shows). A
 * symbol registered after coroJITCreate counts; a retcon coroutine's
 * prototype needs no definition; an async module JIT-compiled without
 * coro's runtime names the runtime. This program does not link
 * libCoroRuntime. */
#include "coro-c/Coro.h"

#include <stdint.h>
#include <stdio.h>

static void printToStderr(MlirStringRef s, void *user) {
  fprintf(stderr, "%.*s", (int)s.length, s.data);
}

static MlirLogicalResult onDiagnostic(MlirDiagnostic d, void *user) {
  MlirStringRef file = {NULL, 0};
  unsigned line = 0, col = 0;
  fprintf(stderr,
          "%s: ", coroDiagnosticSeverityName(mlirDiagnosticGetSeverity(d)));
  if (coroLocationGetFileLineCol(mlirDiagnosticGetLocation(d), &file, &line,
                                 &col))
    fprintf(stderr, "%u:%u: ", line, col);
  mlirDiagnosticPrint(d, printToStderr, NULL);
  fprintf(stderr, "\n");
  return mlirLogicalResultSuccess();
}

static MlirContext makeContext(void) {
  MlirContext ctx = mlirContextCreate();
  mlirContextAttachDiagnosticHandler(ctx, onDiagnostic, NULL, NULL);
  coroDialectLoad(ctx);
  return ctx;
}

static MlirModule parse(MlirContext ctx, const char *text) {
  return mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
}

static const char *needsHost =
    "llvm.func @host_twice(i64) -> i64\n"
    "llvm.func @f(%x: i64) -> i64 {\n"
    "  %r = llvm.call @host_twice(%x) : (i64) -> i64\n"
    "  llvm.return %r : i64\n"
    "}\n"
    "llvm.func @g(%x: i64) -> i64 {\n"
    "  llvm.return %x : i64\n"
    "}\n";

static int64_t hostTwice(int64_t x) { return 2 * x; }

static void testUnresolved(void) {
  fprintf(stderr, "@testUnresolved\n");
  MlirContext ctx = makeContext();
  MlirModule module = parse(ctx, needsHost);
  MlirExecutionEngine jit = coroJITCreate(module, 0, 0, NULL);
  mlirModuleDestroy(module);
  // CHECK-LABEL: @testUnresolved
  // CHECK-NEXT: created: 1
  fprintf(stderr, "created: %d\n", !mlirExecutionEngineIsNull(jit));
  // Any symbol of the module: ORC would link all of it.
  // CHECK-NEXT: error: 1:1: symbol 'host_twice' is declared but defined
  // nowhere: not in the module, not in the shared libraries given to the JIT,
  // not in the process, and not registered with
  // mlirExecutionEngineRegisterSymbol CHECK-NEXT: g: 0
  fprintf(stderr, "g: %d\n", coroJITLookup(jit, "g") != NULL);
  // CHECK-NEXT: error: 1:1: symbol 'host_twice' is declared
  // CHECK-NEXT: f: 0
  fprintf(stderr, "f: %d\n", coroJITLookup(jit, "f") != NULL);
  // CHECK-NOT: JIT session error
  mlirExecutionEngineDestroy(jit);
  mlirContextDestroy(ctx);
}

static void testRegisteredLater(void) {
  fprintf(stderr, "@testRegisteredLater\n");
  MlirContext ctx = makeContext();
  MlirModule module = parse(ctx, needsHost);
  MlirExecutionEngine jit = coroJITCreate(module, 0, 0, NULL);
  mlirModuleDestroy(module);
  mlirExecutionEngineRegisterSymbol(
      jit, mlirStringRefCreateFromCString("host_twice"), (void *)hostTwice);
  int64_t (*f)(int64_t) = (int64_t(*)(int64_t))coroJITLookup(jit, "f");
  // CHECK-LABEL: @testRegisteredLater
  // CHECK-NEXT: f(21) = 42
  if (f)
    fprintf(stderr, "f(21) = %lld\n", (long long)f(21));
  // CHECK-NEXT: missing: 1
  fprintf(stderr, "missing: %d\n", coroJITLookup(jit, "nothing") == NULL);
  mlirExecutionEngineDestroy(jit);
  mlirContextDestroy(ctx);
}

static const char *generator =
    "func.func @gen(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "
    "\"ABI\"} {\n"
    "  %h = \"coro.begin\"() : () -> !coro.handle<i64>\n"
    "  %d = \"coro.yield\"(%n) : (i64) -> i1\n"
    "  \"coro.end\"(%h) : (!coro.handle<i64>) -> ()\n"
    "  return %h : !coro.handle<i64>\n"
    "}\n"
    "func.func @first(%n: i64) -> i64 {\n"
    "  %h = call @gen(%n) : (i64) -> !coro.handle<i64>\n"
    "  %v = \"coro.promise\"(%h) : (!coro.handle<i64>) -> i64\n"
    "  \"coro.destroy\"(%h) : (!coro.handle<i64>) -> ()\n"
    "  return %v : i64\n"
    "}\n";

/* `generator` with its ABI. */
static MlirModule lowered(MlirContext ctx, const char *abi) {
  char text[1024];
  const char *at = generator;
  size_t n = 0;
  for (; *at && n + 16 < sizeof(text); ++at) {
    if (at[0] == 'A' && at[1] == 'B' && at[2] == 'I') {
      n += (size_t)snprintf(text + n, sizeof(text) - n, "%s", abi);
      at += 2;
    } else {
      text[n++] = *at;
    }
  }
  text[n] = '\0';
  MlirModule module = parse(ctx, text);
  if (!mlirModuleIsNull(module))
    coroLowerToLLVMDialect(module);
  return module;
}

static void testRetconPrototype(void) {
  fprintf(stderr, "@testRetconPrototype\n");
  MlirContext ctx = makeContext();
  MlirModule module = lowered(ctx, "retcon");
  MlirExecutionEngine jit = coroJITCreate(module, 0, 0, NULL);
  mlirModuleDestroy(module);
  int64_t (*first)(int64_t) = (int64_t(*)(int64_t))coroJITLookup(jit, "first");
  // CHECK-LABEL: @testRetconPrototype
  // CHECK-NOT: error
  // CHECK: first(7) = 7
  if (first)
    fprintf(stderr, "first(7) = %lld\n", (long long)first(7));
  mlirExecutionEngineDestroy(jit);
  mlirContextDestroy(ctx);
}

static void testAsyncWithoutRuntime(void) {
  fprintf(stderr, "@testAsyncWithoutRuntime\n");
  MlirContext ctx = makeContext();
  MlirModule module = lowered(ctx, "async");
  MlirExecutionEngine jit = coroJITCreate(module, 0, 0, NULL);
  mlirModuleDestroy(module);
  // CHECK-LABEL: @testAsyncWithoutRuntime
  // CHECK: error: {{.*}}symbol 'coro_rt_{{.*}}' is declared but defined
  // nowhere{{.*}} (it is coro's runtime: pass the path of libCoroRuntime.so to
  // coroJITCreate) CHECK: first: 0
  fprintf(stderr, "first: %d\n", coroJITLookup(jit, "first") != NULL);
  // CHECK-NOT: JIT session error
  mlirExecutionEngineDestroy(jit);
  mlirContextDestroy(ctx);
}

int main(void) {
  testUnresolved();
  testRegisteredLater();
  testRetconPrototype();
  testAsyncWithoutRuntime();
  fprintf(stderr, "@done\n");
  // CHECK-LABEL: @done
  return 0;
}
