/* debug_info.c - --coro-debug-info: debug info for the lowered module (the
 * tools' -g).
 *
 * Every llvm.func definition whose location has a file, line and column
 * gets a subprogram (its location becomes fused<#llvm.di_subprogram>), all
 * in one compile unit, so that translation turns the ops' locations into
 * line tables of the .mlir file. The compile unit says C++ and full debug
 * info: that is what LLVM's CoroSplit needs to describe a coroutine's
 * frame to the debugger (the artificial variable `__coro_frame` of type
 * `NAME.coro_frame_ty` in the ramp and its clones), as it does for clang's
 * coroutines. A function that already has a subprogram keeps it.
 *
 * Runs after the conversions and before --coro-split under route B, which
 * derives its clones' subprograms and describes its frame as LLVM's
 * CoroSplit does under route A (transforms/frame_debug.h). */
#include "transforms/debug_info.h"
#include "dialect/support.h"
#include "ir/debug.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Dialect/LLVM.h"

enum { DW_LANG_C_plus_plus_14 = 0x21, DW_CC_normal = 1, SP_DEFINITION = 8 };

struct debug_info {
  MlirContext ctx;
  MlirAttribute unit; /* null until the first function */
  MlirAttribute type; /* void () */
};

static MlirWalkResult add_subprogram(MlirOperation op, void *user) {
  struct debug_info *d = user;
  if (!coro_op_named(op, "llvm.func"))
    return MlirWalkResultAdvance;
  MlirRegion body = mlirOperationGetRegion(op, 0);
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirStringRef file;
  unsigned line, col;
  if (mlirBlockIsNull(mlirRegionGetFirstBlock(body)) ||
      !coro_location_file_line_col(loc, &file, &line, &col))
    return MlirWalkResultSkip;
  if (mlirLocationIsAFused(loc) &&
      !mlirAttributeIsNull(mlirLocationFusedGetMetadata(loc)))
    return MlirWalkResultSkip; /* a subprogram (or other metadata) already */
  MlirContext ctx = d->ctx;
  MlirAttribute difile = ir_di_file(ctx, file);
  if (mlirAttributeIsNull(d->unit))
    d->unit = mlirLLVMDICompileUnitAttrGet(
        ctx, ir_distinct_id(ctx), DW_LANG_C_plus_plus_14, difile,
        mlirStringAttrGet(ctx, mlirStringRefCreateFromCString("coro")), false,
        MlirLLVMDIEmissionKindFull, MlirLLVMDINameTableKindDefault,
        mlirStringAttrGet(ctx, mlirStringRefCreateFromCString("")));
  MlirAttribute name = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("sym_name"));
  MlirAttribute sp = mlirLLVMDISubprogramAttrGet(
      ctx, (MlirAttribute){NULL}, false, ir_distinct_id(ctx), d->unit, difile,
      name, name, difile, line, line, SP_DEFINITION, d->type, 0, NULL, 0, NULL);
  mlirOperationSetLocation(op, mlirLocationFusedGet(ctx, 1, &loc, sp));
  return MlirWalkResultSkip;
}

MlirLogicalResult coro_debug_info_run(MlirOperation module) {
  MlirContext ctx = mlirOperationGetContext(module);
  struct debug_info d = {
      ctx, {NULL}, mlirLLVMDISubroutineTypeAttrGet(ctx, DW_CC_normal, 0, NULL)};
  mlirOperationWalk(module, add_subprogram, &d, MlirWalkPreOrder);
  return mlirLogicalResultSuccess();
}
