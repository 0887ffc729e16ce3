/* text.c - generated functions as text: see text.h. */
#include "conversion/common/text.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/LLVM.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Appends printf-style text to `s`. */
void coro_str_appendf(struct coro_str *s, const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *tmp = malloc((size_t)n + 1);
  vsnprintf(tmp, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  coro_str_append(s, tmp, (size_t)n);
  free(tmp);
}

/* A quoted symbol reference @"<name><suffix>". */
struct coro_str coro_sym_text(const struct coro_str *name, const char *suffix) {
  struct coro_str s = {0};
  coro_str_appendz(&s, "@\"");
  for (size_t i = 0; i < name->len; ++i) {
    char c = name->data[i];
    if (c == '"' || c == '\\' || (unsigned char)c < 0x20 || c == 0x7f) {
      char esc[4];
      snprintf(esc, sizeof esc, "\\%02X", (unsigned char)c);
      coro_str_appendz(&s, esc);
    } else {
      coro_str_append(&s, &c, 1);
    }
  }
  coro_str_appendz(&s, suffix);
  coro_str_appendz(&s, "\"");
  return s;
}

struct coro_str coro_attr_str(MlirAttribute a) {
  struct coro_str s = {0};
  mlirAttributePrint(a, coro_str_callback, &s);
  return s;
}

/* Queues one generated function's text; `flush_funcs` parses the queue. */
void coro_queue_func(struct coro_str *queue, const struct coro_str *text) {
  coro_str_append(queue, text->data, text->len);
  coro_str_appendz(queue, "\n");
}

/* Parses the queued functions as one module, with `decls` declaring the
 * symbols they use from the module, and moves every function that is not
 * a declaration of `decls` into `module`. (Parsing verifies, and a symbol
 * use verifies only when the symbol is in the same module.) */
void coro_flush_funcs(MlirOperation module, const struct coro_str *decls,
                      const struct coro_str *queue, size_t ndecls) {
  struct coro_str text = {0};
  coro_str_appendz(&text, "module {\n");
  coro_str_append(&text, decls->data, decls->len);
  coro_str_append(&text, queue->data, queue->len);
  coro_str_appendz(&text, "}\n");
  MlirModule parsed =
      mlirModuleCreateParse(mlirOperationGetContext(module),
                            mlirStringRefCreate(text.data, text.len));
  if (mlirModuleIsNull(parsed)) {
    fprintf(stderr, "coro lowering: cannot parse generated functions:\n%s\n",
            coro_str_cstr(&text));
    abort(); /* a bug in this file, never a property of the input */
  }
  coro_str_free(&text);
  MlirBlock from = mlirModuleGetBody(parsed);
  MlirBlock to = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  MlirOperation op = mlirBlockGetFirstOperation(from);
  for (size_t i = 0; i < ndecls && !mlirOperationIsNull(op); ++i)
    op = mlirOperationGetNextInBlock(op);
  while (!mlirOperationIsNull(op)) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    mlirOperationRemoveFromParent(op);
    mlirBlockAppendOwnedOperation(to, op);
    op = next;
  }
  mlirModuleDestroy(parsed);
}

/*===--- LLVM's intrinsic name mangling -----------------------------------===*/

/* Appends LLVM's mangled name of `t` (Intrinsic::getName's suffix). */
bool coro_mangle_type(MlirType t, struct coro_str *out) {
  if (mlirTypeIsAInteger(t)) {
    coro_str_appendf(out, "i%u", mlirIntegerTypeGetWidth(t));
  } else if (mlirTypeIsABF16(t)) {
    coro_str_appendz(out, "bf16");
  } else if (mlirTypeIsAF16(t) || mlirTypeIsAF32(t) || mlirTypeIsAF64(t)) {
    coro_str_appendf(out, "f%u", mlirFloatTypeGetWidth(t));
  } else if (mlirTypeIsALLVMPointerType(t)) {
    coro_str_appendf(out, "p%u", mlirLLVMPointerTypeGetAddressSpace(t));
  } else if (mlirTypeIsAVector(t) && mlirShapedTypeGetRank(t) == 1) {
    coro_str_appendf(out, "v%lld", (long long)mlirShapedTypeGetDimSize(t, 0));
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
    coro_str_appendf(out, "a%llu", count);
    return coro_mangle_type(mlirLLVMArrayTypeGetElementType(t), out);
  }
  return true;
}

/* A call of the allocator or deallocator `sym` in generated text. */
void coro_call_text(struct coro_str *out, MlirAttribute sym, bool is_func,
                    const char *result, const char *arg, bool alloc) {
  struct coro_str s = coro_attr_str(sym);
  if (alloc)
    coro_str_appendf(out, "  %s = %s %s(%s) : (i64) -> !llvm.ptr\n", result,
                     is_func ? "func.call" : "llvm.call", coro_str_cstr(&s),
                     arg);
  else
    coro_str_appendf(out, "  %s %s(%s) : (!llvm.ptr) -> ()\n",
                     is_func ? "func.call" : "llvm.call", coro_str_cstr(&s),
                     arg);
  coro_str_free(&s);
}

MlirValue coro_addressof(struct cb *b, const struct coro_str *sym) {
  struct coro_str attrs = {0};
  coro_str_appendf(&attrs, "{global_name = %s}", coro_str_cstr(sym));
  MlirValue v = cb_val(b, "llvm.mlir.addressof", 0, NULL, cb_ptr(b->ctx),
                       coro_str_cstr(&attrs));
  coro_str_free(&attrs);
  return v;
}

MlirValue coro_zero(struct cb *b, MlirType t) {
  return cb_val(b, "llvm.mlir.zero", 0, NULL, t, NULL);
}

MlirLogicalResult coro_names_free(MlirOperation module,
                                  const struct coro_str *base, const char *abi,
                                  const char *const *suffixes) {
  for (size_t i = 0; suffixes[i]; ++i) {
    struct coro_str n = {0};
    coro_str_append(&n, base->data, base->len);
    coro_str_appendz(&n, suffixes[i]);
    MlirOperation other =
        coro_lookup_symbol(module, mlirStringRefCreate(n.data, n.len));
    if (!mlirOperationIsNull(other)) {
      struct coro_str msg = {0};
      coro_str_appendf(&msg,
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
  static const char *const presplit[] = {"presplitcoroutine", "noinline", NULL};
  coro_add_passthrough(func, presplit);
  static const char *const dropped[] = {"coro.abi", "coro.buffer", "coro.alloc",
                                        "coro.alloc_fn", "coro.free_fn"};
  for (size_t i = 0; i < sizeof dropped / sizeof *dropped; ++i)
    mlirOperationRemoveAttributeByName(
        func, mlirStringRefCreateFromCString(dropped[i]));
}

void coro_allocator_decls(struct coro_str *decls,
                          const struct coro_allocator *alloc) {
  struct coro_str a = coro_attr_str(alloc->alloc_fn);
  struct coro_str f = coro_attr_str(alloc->free_fn);
  coro_str_appendf(decls, "%s %s(i64) -> !llvm.ptr\n%s %s(!llvm.ptr)\n",
                   alloc->alloc_is_func ? "func.func private" : "llvm.func",
                   coro_str_cstr(&a),
                   alloc->free_is_func ? "func.func private" : "llvm.func",
                   coro_str_cstr(&f));
  coro_str_free(&a);
  coro_str_free(&f);
}

bool coro_alloc_is_heap(MlirOperation func) {
  MlirAttribute alloc = mlirOperationGetAttributeByName(
      func, mlirStringRefCreateFromCString("coro.alloc"));
  return mlirAttributeIsNull(alloc) ||
         (mlirAttributeIsAString(alloc) &&
          coro_ref_eq(mlirStringAttrGetValue(alloc), "heap"));
}
