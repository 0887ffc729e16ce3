/* names.c - the names and marks of what a lowering generates (see
 * names.h). */
#include "conversion/common/names.h"
#include "dialect/contract.h"
#include "ir/func.h"
#include "ir/support.h"
#include "ir/types.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/LLVM.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Appends printf-style text to `s`. */
__attribute__((format(printf, 2, 3))) static void
appendf(struct coro_str *s, const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *tmp = ir_xmalloc((size_t)n + 1);
  vsnprintf(tmp, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  coro_str_append(s, tmp, (size_t)n);
  free(tmp);
}

/* Appends LLVM's mangled name of `t` (Intrinsic::getName's suffix). */
bool coro_mangle_type(MlirType t, struct coro_str *out) {
  if (mlirTypeIsAInteger(t)) {
    appendf(out, "i%u", mlirIntegerTypeGetWidth(t));
  } else if (mlirTypeIsABF16(t)) {
    coro_str_appendz(out, "bf16");
  } else if (mlirTypeIsAF16(t) || mlirTypeIsAF32(t) || mlirTypeIsAF64(t)) {
    appendf(out, "f%u", mlirFloatTypeGetWidth(t));
  } else if (mlirTypeIsALLVMPointerType(t)) {
    appendf(out, "p%u", mlirLLVMPointerTypeGetAddressSpace(t));
  } else if (mlirTypeIsAVector(t) && mlirShapedTypeGetRank(t) == 1) {
    appendf(out, "v%lld", (long long)mlirShapedTypeGetDimSize(t, 0));
    return coro_mangle_type(mlirShapedTypeGetElementType(t), out);
  } else if (mlirTypeIsALLVMStructType(t) && mlirLLVMStructTypeIsLiteral(t)) {
    coro_str_appendz(out, "sl_");
    for (intptr_t i = 0; i < mlirLLVMStructTypeGetNumElementTypes(t); ++i)
      if (!coro_mangle_type(mlirLLVMStructTypeGetElementType(t, i), out))
        return false;
    coro_str_appendz(out, "s");
  } else {
    /* The C API has no isa for arrays: read the count off the printed
     * type, `!llvm.array<N x T>`. */
    struct coro_str text = coro_type_str(t);
    static const char prefix[] = "!llvm.array<";
    bool array = text.len > sizeof prefix &&
                 !strncmp(text.data, prefix, sizeof prefix - 1);
    unsigned long long count =
        array ? strtoull(text.data + sizeof prefix - 1, NULL, 10) : 0;
    coro_str_free(&text);
    if (!array)
      return false;
    appendf(out, "a%llu", count);
    return coro_mangle_type(mlirLLVMArrayTypeGetElementType(t), out);
  }
  return true;
}

MlirLogicalResult coro_names_unused(MlirOperation module,
                                    const struct coro_str *base,
                                    const char *abi,
                                    const char *const *suffixes) {
  for (size_t i = 0; suffixes[i]; ++i) {
    struct coro_str n = {0};
    coro_str_append(&n, base->data, base->len);
    coro_str_appendz(&n, suffixes[i]);
    MlirOperation other =
        coro_lookup_symbol(module, mlirStringRefCreate(n.data, n.len));
    if (!mlirOperationIsNull(other)) {
      struct coro_str msg = {0};
      appendf(&msg,
              "the %s lowering of this coroutine needs the symbol "
              "'%s', which is already taken",
              abi, coro_str_cstr(&n));
      mlirEmitError(mlirOperationGetLocation(other), coro_str_cstr(&msg));
      coro_str_free(&msg);
      coro_str_free(&n);
      return mlirLogicalResultFailure();
    }
    coro_str_free(&n);
  }
  return mlirLogicalResultSuccess();
}

struct coro_str coro_rename_private(MlirOperation func,
                                    const struct coro_str *name,
                                    const char *suffix) {
  MlirContext ctx = mlirOperationGetContext(func);
  MlirStringRef viskey = mlirStringRefCreateFromCString("sym_visibility");
  MlirAttribute vis = mlirOperationGetAttributeByName(func, viskey);
  struct coro_str visibility = {0};
  if (!mlirAttributeIsNull(vis) && mlirAttributeIsAString(vis)) {
    MlirStringRef v = mlirStringAttrGetValue(vis);
    coro_str_append(&visibility, v.data, v.length);
  }
  struct coro_str renamed = {0};
  coro_str_append(&renamed, name->data, name->len);
  coro_str_appendz(&renamed, suffix);
  mlirOperationSetAttributeByName(
      func, mlirStringRefCreateFromCString("sym_name"),
      mlirStringAttrGet(ctx, mlirStringRefCreate(renamed.data, renamed.len)));
  coro_str_free(&renamed);
  mlirOperationSetAttributeByName(
      func, viskey,
      mlirStringAttrGet(ctx, mlirStringRefCreateFromCString("private")));
  return visibility;
}

void coro_mark_lowered_body(MlirOperation func) {
  bool noinline = ir_passthrough_has(func, "noinline") ||
                  !mlirAttributeIsNull(mlirOperationGetAttributeByName(
                      func, mlirStringRefCreateFromCString("no_inline"))) ||
                  !mlirAttributeIsNull(mlirOperationGetAttributeByName(
                      func, mlirStringRefCreateFromCString("llvm.noinline")));
  if (!noinline)
    mlirOperationSetAttributeByName(
        func, mlirStringRefCreateFromCString(CORO_NOINLINE_UNTIL_SPLIT_ATTR),
        mlirUnitAttrGet(mlirOperationGetContext(func)));
  static const char *const presplit[] = {"presplitcoroutine", "noinline", NULL};
  ir_add_passthrough(func, presplit);
  static const char *const dropped[] = {CORO_ABI_ATTR, CORO_BUFFER_ATTR,
                                        CORO_ALLOC_ATTR, CORO_ALLOC_FN_ATTR,
                                        CORO_FREE_FN_ATTR};
  for (size_t i = 0; i < sizeof dropped / sizeof *dropped; ++i)
    mlirOperationRemoveAttributeByName(
        func, mlirStringRefCreateFromCString(dropped[i]));
}

bool coro_alloc_is_heap(MlirOperation func) {
  MlirAttribute alloc = mlirOperationGetAttributeByName(
      func, mlirStringRefCreateFromCString(CORO_ALLOC_ATTR));
  return mlirAttributeIsNull(alloc) ||
         (mlirAttributeIsAString(alloc) &&
          coro_ref_eq(mlirStringAttrGetValue(alloc), "heap"));
}
