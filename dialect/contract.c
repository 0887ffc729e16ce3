/* contract.c - the predicates of contract.h: which route and target a
 * module is lowered for, and the frame size global of the device. */
#include "dialect/contract.h"
#include "ir/builder.h"
#include "ir/func.h"
#include "ir/support.h"
#include "ir/types.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/LLVM.h"

bool coro_module_is_device(MlirOperation module) {
  return !mlirAttributeIsNull(mlirOperationGetAttributeByName(
      module, mlirStringRefCreateFromCString(CORO_DEVICE_ATTR)));
}

bool coro_route_b(MlirOperation op) {
  MlirStringRef key = mlirStringRefCreateFromCString(CORO_ROUTE_ATTR);
  for (; !mlirOperationIsNull(op); op = mlirOperationGetParentOperation(op)) {
    MlirAttribute a = mlirOperationGetAttributeByName(op, key);
    if (!mlirAttributeIsNull(a) && mlirAttributeIsAString(a) &&
        coro_ref_eq(mlirStringAttrGetValue(a), CORO_ROUTE_B))
      return true;
  }
  return false;
}

bool coro_frame_size_global(MlirOperation module, MlirSymbolTable table,
                            MlirStringRef coro, uint64_t size,
                            MlirLocation loc) {
  struct coro_str n = {0};
  coro_str_append(&n, coro.data, coro.length);
  coro_str_appendz(&n, CORO_FRAME_SIZE_SUFFIX);
  MlirStringRef name = mlirStringRefCreate(n.data, n.len);
  bool free_name = mlirOperationIsNull(
      mlirSymbolTableIsNull(table) ? coro_lookup_symbol(module, name)
                                   : mlirSymbolTableLookup(table, name));
  if (free_name) {
    MlirType i64 = ir_int_type(mlirLocationGetContext(loc), 64);
    struct ir_global_spec spec = {.name = name,
                                  .type = i64,
                                  .linkage = MlirLLVMLinkageExternal,
                                  .constant = true,
                                  .value =
                                      mlirIntegerAttrGet(i64, (int64_t)size),
                                  .align = 8};
    MlirOperation g = ir_llvm_global(module, &spec, loc);
    if (!mlirSymbolTableIsNull(table))
      mlirSymbolTableInsert(table, g);
  } else {
    struct coro_str msg = {0};
    coro_str_appendz(&msg, "'");
    coro_str_append(&msg, n.data, n.len);
    coro_str_appendz(&msg, "' is already a symbol of the module: on the "
                           "device that name is the coroutine's frame size");
    mlirEmitError(loc, coro_str_cstr(&msg));
    coro_str_free(&msg);
  }
  coro_str_free(&n);
  return free_name;
}
