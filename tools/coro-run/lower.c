/* lower.c - the lowering pipeline of coro-run and coro-translate; it reads
 * straight down in `coro_lower_module`. */
#include "tools/coro-run/lower.h"
#include "coro-c/Coro.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Pass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool coro_route_parse(const char *name, enum coro_route *out) {
  if (!strcmp(name, "llvm"))
    *out = CORO_ROUTE_LLVM;
  else if (!strcmp(name, "mlir-split"))
    *out = CORO_ROUTE_MLIR_SPLIT;
  else
    return false;
  return true;
}

struct text {
  char buf[2048];
  size_t len;
  bool overflow; /* something did not fit: the pipeline is incomplete */
};

static void append(struct text *t, const char *s, size_t n) {
  if (t->len + n + 2 >= sizeof t->buf) {
    t->overflow = true;
    return;
  }
  if (t->len)
    t->buf[t->len++] = ',';
  memcpy(t->buf + t->len, s, n);
  t->len += n;
  t->buf[t->len] = '\0';
}

/* Collects every ABI conversion `convert-coro-to-llvm-<abi>`. */
static void add_abi_conversion(MlirStringRef arg, MlirStringRef desc,
                               void *user) {
  static const char prefix[] = "convert-coro-to-llvm-";
  if (arg.length > sizeof prefix - 1 &&
      !memcmp(arg.data, prefix, sizeof prefix - 1))
    append(user, arg.data, arg.length);
}

static void ignore(MlirStringRef s, void *user) {}

/* Emits an error at every coroutine whose ABI has no registered conversion
 * (`coro.abi = "retcon.once"` needs `convert-coro-to-llvm-retcon-once`).
 * `conversions` is the comma-separated list of registered ones. */
static bool abis_supported(MlirModule module, const char *conversions) {
  bool ok = true;
  MlirBlock body = mlirModuleGetBody(module);
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!coroOpIsCoroutine(op))
      continue;
    MlirAttribute abi = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("coro.abi"));
    if (!mlirAttributeIsAString(abi))
      continue; /* the verifier reports it */
    MlirStringRef v = mlirStringAttrGetValue(abi);
    char pass[96];
    int n = snprintf(pass, sizeof pass, "convert-coro-to-llvm-%.*s",
                     (int)(v.length < 64 ? v.length : 64), v.data);
    for (char *c = pass; *c; ++c)
      if (*c == '.')
        *c = '-';
    const char *hit = strstr(conversions, pass);
    if (hit && (hit[n] == ',' || hit[n] == '\0'))
      continue;
    char msg[256];
    snprintf(msg, sizeof msg,
             "coroutines with coro.abi = \"%.*s\" cannot be lowered yet: "
             "no %s pass is registered",
             (int)(v.length < 64 ? v.length : 64), v.data, pass);
    mlirEmitError(mlirOperationGetLocation(op), msg);
    ok = false;
  }
  return ok;
}

bool coro_lower_module(MlirModule module, enum coro_route route,
                       const char **why) {
  *why = NULL;
  if (route == CORO_ROUTE_MLIR_SPLIT) {
    *why = "--route=mlir-split needs the --coro-split pass, which does not "
           "exist yet; use --route=llvm";
    return false;
  }
  coroRegisterPasses();
  struct text p = {{0}, 0, false};
  const char *head = "coro-verify,convert-scf-to-cf";
  append(&p, head, strlen(head));
  size_t before = p.len;
  coroForEachPass(add_abi_conversion, &p);
  if (!abis_supported(module, p.buf + before))
    return false;
  const char *tail =
      "convert-vector-to-llvm,finalize-memref-to-llvm,convert-index-to-llvm,"
      "convert-arith-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,"
      "reconcile-unrealized-casts";
  append(&p, tail, strlen(tail));
  if (p.overflow) {
    *why = "internal error: the lowering pipeline is too long";
    return false;
  }

  MlirContext ctx = mlirModuleGetContext(module);
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      ctx, mlirStringRefCreateFromCString("builtin.module"));
  coroPassManagerEnableImplicitNesting(pm);
  MlirLogicalResult ok = mlirOpPassManagerAddPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString(p.buf), ignore, NULL);
  if (mlirLogicalResultIsSuccess(ok))
    ok = mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  else
    *why = "internal error: the lowering pipeline does not parse";
  mlirPassManagerDestroy(pm);
  return mlirLogicalResultIsSuccess(ok);
}
