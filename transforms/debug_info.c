/* debug_info.c - --coro-debug-info: debug info for the lowered module (the
 * tools' -g).
 *
 * Every llvm.func definition whose location has a file, line and column
 * gets a subprogram (its location becomes fused<#llvm.di_subprogram>), so
 * that translation turns the ops' locations into line tables of the .mlir
 * file. A switch coroutine's compile unit says C++ with full debug info:
 * that is what LLVM's CoroSplit needs to describe a coroutine's frame to
 * the debugger (the artificial variable `__coro_frame` of type
 * `NAME.coro_frame_ty` in the ramp and its clones), as it does for clang's
 * coroutines. Every other function is in a C unit with line tables only
 * (LLVM 22's CoroSplit crashes describing a retcon or async frame). A
 * function that already has a subprogram keeps it.
 *
 * Runs after the conversions and before --coro-split under route B, which
 * derives its clones' subprograms and describes its frame as LLVM's
 * CoroSplit does under route A (transforms/frame_debug.h). */
#include "transforms/debug_info.h"
#include "ir/debug.h"
#include "ir/func.h"
#include "ir/support.h"
#include "transforms/CoroSplit/coro_split.h"
#include "transforms/CoroSplit/intrinsics.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Dialect/LLVM.h"

struct debug_info {
  MlirContext ctx;
  MlirAttribute unit[2]; /* [is a switch coroutine]; null until needed */
  MlirAttribute type;    /* void () */
};

static MlirWalkResult find_switch_id(MlirOperation op, void *user) {
  if (coro_intr_classify(op) != CI_ID)
    return MlirWalkResultAdvance;
  *(bool *)user = true;
  return MlirWalkResultInterrupt;
}

/* Whether `fn` is a presplit coroutine of the switched-resume ABI
 * (llvm.coro.id, not .id.retcon/.id.async). */
static bool switch_coroutine(MlirOperation fn) {
  bool found = false;
  if (ir_passthrough_has(fn, "presplitcoroutine"))
    mlirOperationWalk(fn, find_switch_id, &found, MlirWalkPreOrder);
  return found;
}

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
  /* A switch coroutine's unit says C++ with full debug info: LLVM's
   * CoroSplit describes the frame (__coro_frame) only there. Its frame
   * description crashes on retcon and async coroutines (LLVM 22), so
   * everything else is in a C unit with line tables only. */
  bool sw = switch_coroutine(op);
  if (mlirAttributeIsNull(d->unit[sw]))
    d->unit[sw] = mlirLLVMDICompileUnitAttrGet(
        ctx, ir_distinct_id(ctx), sw ? IR_DW_LANG_CXX14 : IR_DW_LANG_C11,
        difile, mlirStringAttrGet(ctx, mlirStringRefCreateFromCString("coro")),
        false,
        sw ? MlirLLVMDIEmissionKindFull : MlirLLVMDIEmissionKindLineTablesOnly,
        MlirLLVMDINameTableKindDefault,
        mlirStringAttrGet(ctx, mlirStringRefCreateFromCString("")));
  ir_give_subprogram(op, d->unit[sw], difile, line, d->type);
  return MlirWalkResultSkip;
}

MlirLogicalResult coro_debug_info_run(MlirOperation module) {
  MlirContext ctx = mlirOperationGetContext(module);
  struct debug_info d = {
      ctx,
      {{NULL}, {NULL}},
      mlirLLVMDISubroutineTypeAttrGet(ctx, IR_DW_CC_NORMAL, 0, NULL)};
  mlirOperationWalk(module, add_subprogram, &d, MlirWalkPreOrder);
  return mlirLogicalResultSuccess();
}
