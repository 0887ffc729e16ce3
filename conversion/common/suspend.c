/* suspend.c - the pieces of a suspension every ABI shares: the await
 * split and its result, the continuation after a yield, the return after
 * coro.end, published values and located errors (see abi.h). */
#include "conversion/common/abi.h"
#include "dialect/dialect.h"
#include "dialect/handle_origin.h"
#include "dialect/value_types.h"
#include "ir/func.h"
#include "ir/support.h"
#include "ir/types.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/LLVM.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

MlirLogicalResult coro_error_at(MlirOperation op, const char *msg) {
  mlirEmitError(mlirOperationGetLocation(op), msg);
  return mlirLogicalResultFailure();
}

MlirOperation coro_end_return(MlirOperation op) {
  MlirOperation ret = mlirOperationGetNextInBlock(op);
  if (mlirOperationIsNull(ret) || !coro_op_named(ret, "func.return")) {
    coro_error_at(op, "coro.end must be followed by func.return");
    return (MlirOperation){NULL};
  }
  return ret;
}

void coro_publish_awaiter(struct ir_builder *b, bool device, MlirValue aw,
                          MlirValue self, MlirBlock go, MlirBlock ended) {
  MlirType ptr = ir_ptr_type(b->ctx);
  MlirValue cont = ir_gep_bytes(b, aw, CORO_HANDLE_PROMISE_OFFSET);
  if (device) {
    ir_store(b, self, cont, 8);
    ir_br(b, go, 0, NULL);
    return;
  }
  MlirValue r = ir_cmpxchg(b, cont, ir_null(b), self);
  MlirBlock taken = ir_block_after(b->block, 0, NULL, b->loc);
  MlirBlock over = ir_block_after(taken, 0, NULL, b->loc);
  ir_cond_br(b, ir_extractvalue(b, r, 1, ir_int_type(b->ctx, 1)), go, taken);
  *b = ir_at_end(taken, b->loc);
  /* the end's mark, or an awaiter the end handed to its entry (tagged):
   * either way the task has ended (handles are 16-aligned) */
  MlirValue old = ir_ptrtoint(b, ir_extractvalue(b, r, 0, ptr), 64);
  MlirValue tags = ir_binop(b, "and", old,
                            ir_const_int(b, 64, CORO_HANDLE_CONTINUATION_TAGS));
  ir_cond_br(b, ir_icmp(b, IR_NE, tags, ir_const_int(b, 64, 0)), ended, over);
  *b = ir_at_end(over, b->loc);
  ir_store(b, self, cont, 8);
  ir_br(b, go, 0, NULL);
}

MlirBlock coro_await_split(struct ir_builder *b, MlirOperation op, MlirValue aw,
                           MlirBlock *next, MlirBlock *check) {
  *next = ir_split_after(op);
  *check = ir_block_after(mlirOperationGetBlock(op), 0, NULL, b->loc);
  MlirBlock susp = ir_block_after(*check, 0, NULL, b->loc);
  ir_br(b, *check, 0, NULL);
  struct ir_builder c = ir_at_end(*check, b->loc);
  MlirValue done =
      ir_intrinsic(&c, "llvm.coro.done", 1, &aw, ir_int_type(c.ctx, 1));
  ir_cond_br(&c, done, *next, susp);
  return susp;
}

MlirLogicalResult coro_await_result(MlirOperation op, MlirValue aw,
                                    MlirBlock next) {
  if (mlirOperationGetNumResults(op) == 0)
    return mlirLogicalResultSuccess();
  MlirValue res = mlirOperationGetResult(op, 0);
  MlirType t = mlirValueGetType(res);
  if (mlirTypeIsNull(coro_storage_type(t)))
    return coro_error_at(op, "awaited result type cannot be stored");
  struct ir_builder c = ir_before(mlirBlockGetFirstOperation(next));
  mlirValueReplaceAllUsesOfWith(res, coro_load_promise_value(&c, aw, t));
  return mlirLogicalResultSuccess();
}

MlirBlock coro_yield_continue(struct ir_builder *b, MlirOperation op,
                              MlirValue flag, MlirBlock end,
                              MlirValue end_arg) {
  MlirValue result = mlirOperationGetResult(op, 0);
  MlirBlock next = ir_split_after(op);
  if (mlirOpOperandIsNull(mlirValueGetFirstUse(result))) {
    bool arg = !mlirValueIsNull(end_arg);
    ir_cond_br_args(b, flag, end, arg ? 1 : 0, &end_arg, next, 0, NULL);
  } else {
    mlirValueReplaceAllUsesOfWith(result, flag);
    ir_br(b, next, 0, NULL);
  }
  mlirOperationDestroy(op);
  return next;
}
