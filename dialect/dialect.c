/* dialect.c - loading the coro dialect and the !coro.handle<T> type.
 *
 * The dialect is data: dialect/coro.irdl.mlir is embedded into the library
 * (generated coro_irdl.c) and loaded with mlirLoadIRDLDialects. Loading the
 * same IRDL dialect twice into one context aborts inside MLIR, so
 * coro_dialect_load first asks the context whether "coro" is already there;
 * the context is the only state. Alongside it, every upstream dialect is
 * registered and the few coroutines are written with (func, arith, cf, scf,
 * llvm) are loaded, since ops created from C do not load their dialect. IRDL
 * gives no C accessors for type parameters, so the handle's element type goes
 * through its printed form. */
#include "dialect/dialect.h"
#include "ir/op_cache.h"
#include "ir/support.h"

#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/IRDL.h"
#include "mlir-c/RegisterEverything.h"

#include <string.h>

extern const char coro_irdl_source[];
extern const unsigned long coro_irdl_source_size;

static const char handle_prefix[] = "!coro.handle<";

/* Upstream dialects coroutines are written with, loaded with ours. */
static const char *const used_with[] = {"func", "arith", "cf", "scf", "llvm"};

MlirStringRef coro_dialect_namespace(void) {
  return mlirStringRefCreateFromCString("coro");
}

MlirStringRef coro_dialect_irdl_source(void) {
  return mlirStringRefCreate(coro_irdl_source, coro_irdl_source_size);
}

bool coro_dialect_is_loaded(MlirContext ctx) {
  return !mlirDialectIsNull(
      mlirContextGetOrLoadDialect(ctx, coro_dialect_namespace()));
}

MlirLogicalResult coro_dialect_load(MlirContext ctx) {
  if (coro_dialect_is_loaded(ctx))
    return mlirLogicalResultSuccess();

  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__irdl__(), ctx);
  /* Ops built through the C API (not parsed) do not load their dialect:
   * load those coroutines are written with, so that a frontend's func.func
   * and friends are registered ops. The parser loads the others on use. */
  for (size_t i = 0; i < sizeof(used_with) / sizeof(used_with[0]); ++i)
    mlirContextGetOrLoadDialect(ctx,
                                mlirStringRefCreateFromCString(used_with[i]));

  MlirModule defs = mlirModuleCreateParse(ctx, coro_dialect_irdl_source());
  if (mlirModuleIsNull(defs))
    return mlirLogicalResultFailure();
  MlirLogicalResult loaded = mlirLoadIRDLDialects(defs);
  mlirModuleDestroy(defs);
  return loaded;
}

bool coro_type_is_none(MlirType type) {
  return !mlirTypeIsNull(type) && mlirTypeIsANone(type);
}

MlirType coro_handle_type_get(MlirType elem) {
  if (mlirTypeIsNull(elem))
    return (MlirType){NULL};
  MlirContext ctx = mlirTypeGetContext(elem);
  if (!coro_dialect_is_loaded(ctx))
    return (MlirType){NULL};
  struct coro_str text = {0};
  coro_str_appendz(&text, handle_prefix);
  mlirTypePrint(elem, coro_str_callback, &text);
  coro_str_appendz(&text, ">");
  MlirType handle = mlirTypeParseGet(
      ctx, mlirStringRefCreate(coro_str_cstr(&text), text.len));
  coro_str_free(&text);
  return handle;
}

bool coro_type_is_handle(MlirType type) {
  if (mlirTypeIsNull(type))
    return false;
  /* The dialect defines exactly one type. */
  MlirDialect dialect = mlirTypeGetDialect(type);
  return !mlirDialectIsNull(dialect) &&
         coro_ref_eq(mlirDialectGetNamespace(dialect), "coro");
}

MlirType coro_handle_elem_type(MlirType type) {
  if (!coro_type_is_handle(type))
    return (MlirType){NULL};
  /* the C API gives no parameter of an IRDL type: the element type is read
   * back from the handle's text, once per pass (the cache's memo) */
  struct ir_op_cache_memo *m =
      ir_op_cache_memo(mlirTypeGetContext(type), IR_MEMO_HANDLE_ELEM,
                       (uint64_t)(uintptr_t)type.ptr, 0);
  if (m && m->ptr)
    return (MlirType){m->ptr};
  struct coro_str text = coro_type_str(type);
  size_t prefix = sizeof(handle_prefix) - 1;
  MlirType elem = {NULL};
  if (text.len > prefix + 1 && memcmp(text.data, handle_prefix, prefix) == 0 &&
      text.data[text.len - 1] == '>')
    elem = mlirTypeParseGet(
        mlirTypeGetContext(type),
        mlirStringRefCreate(text.data + prefix, text.len - prefix - 1));
  coro_str_free(&text);
  if (m)
    m->ptr = elem.ptr;
  return elem;
}
