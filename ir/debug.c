/* debug.c - debug-info attributes (see debug.h). */
#include "ir/debug.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Dialect/LLVM.h"

#include <assert.h>

MlirAttribute ir_distinct_id(MlirContext ctx) {
  /* DistinctAttr has no C getter; "distinct[0]<>" parses to a fresh one
   * each time (the index only relates references within one parse). */
  MlirAttribute id = mlirAttributeParseGet(
      ctx, mlirStringRefCreateFromCString("distinct[0]<>"));
  assert(!mlirAttributeIsNull(id) && "distinct attribute");
  return id;
}

MlirAttribute ir_di_file(MlirContext ctx, MlirStringRef file) {
  size_t slash = file.length;
  while (slash > 0 && file.data[slash - 1] != '/')
    --slash;
  MlirStringRef name =
      mlirStringRefCreate(file.data + slash, file.length - slash);
  MlirStringRef dir =
      mlirStringRefCreate(file.data, slash > 1 ? slash - 1 : slash);
  return mlirLLVMDIFileAttrGet(ctx, mlirStringAttrGet(ctx, name),
                               mlirStringAttrGet(ctx, dir));
}

void ir_give_subprogram(MlirOperation fn, MlirAttribute unit,
                        MlirAttribute file, unsigned line, MlirAttribute type) {
  MlirContext ctx = mlirOperationGetContext(fn);
  MlirAttribute name = mlirOperationGetAttributeByName(
      fn, mlirStringRefCreateFromCString("sym_name"));
  MlirAttribute sp = mlirLLVMDISubprogramAttrGet(
      ctx, (MlirAttribute){NULL}, false, ir_distinct_id(ctx), unit, file, name,
      name, file, line, line, IR_DI_SP_DEFINITION, type, 0, NULL, 0, NULL);
  MlirLocation loc = mlirOperationGetLocation(fn);
  mlirOperationSetLocation(fn, mlirLocationFusedGet(ctx, 1, &loc, sp));
}
