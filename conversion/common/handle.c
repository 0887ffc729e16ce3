/* handle.c - values in handles: their storage types, the promise every
 * handle has (coro-runtime/HandleLayout.h), and the consumer ops lowered
 * through it (see abi.h). */
#include "conversion/common/abi.h"
#include "dialect/contract.h"
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

MlirValue coro_to_storage(struct ir_builder *b, MlirValue v) {
  MlirType t = mlirValueGetType(v);
  MlirType s = coro_storage_type(t);
  if (mlirTypeEqual(s, t))
    return v;
  if (mlirTypeIsAIndex(t))
    return ir_val(b, "arith.index_cast", 1, &v, s);
  return ir_cast(b, v, s);
}

MlirValue coro_from_storage(struct ir_builder *b, MlirValue v, MlirType type) {
  if (mlirTypeEqual(mlirValueGetType(v), type))
    return v;
  if (mlirTypeIsAIndex(type))
    return ir_val(b, "arith.index_cast", 1, &v, type);
  return ir_cast(b, v, type);
}

unsigned coro_storage_align(MlirType t) {
  uint64_t size, align;
  return ir_type_layout(t, &size, &align) ? (unsigned)align : 8;
}

MlirType coro_promise_type(MlirContext ctx, MlirType value_storage) {
  MlirType fields[2] = {ir_ptr_type(ctx), value_storage};
  return mlirLLVMStructTypeLiteralGet(ctx, 2, fields, false);
}

MlirType coro_value_storage(MlirOperation func, MlirType t, const char *abi) {
  MlirContext ctx = mlirOperationGetContext(func);
  MlirType s =
      coro_type_is_none(t) ? ir_int_type(ctx, 8) : coro_storage_type(t);
  if (mlirTypeIsNull(s)) {
    struct coro_str ts = coro_type_str(t), msg = {0};
    coro_str_appendz(&msg, "values of type ");
    coro_str_appendz(&msg, coro_str_cstr(&ts));
    coro_str_appendz(&msg, strchr("aeiou", abi[0])
                               ? " cannot be published by an "
                               : " cannot be published by a ");
    coro_str_appendz(&msg, abi);
    coro_str_appendz(&msg, " coroutine");
    mlirEmitError(mlirOperationGetLocation(func), coro_str_cstr(&msg));
    coro_str_free(&msg);
    coro_str_free(&ts);
  }
  return s;
}

unsigned coro_value_align(MlirType storage) {
  unsigned a = coro_storage_align(storage);
  return a > CORO_HANDLE_PROMISE_MAX_ALIGN ? CORO_HANDLE_PROMISE_MAX_ALIGN : a;
}

/* The promise of the handle `h` whose value is stored as `storage`. */
static MlirValue promise_of(struct ir_builder *b, MlirValue h) {
  MlirValue ops[3] = {h, ir_const_int(b, 32, CORO_PROMISE_OFFSET),
                      ir_const_int(b, 1, 0)};
  return ir_val(b, "llvm.intr.coro.promise", 3, ops, ir_ptr_type(b->ctx));
}

MlirType coro_control_prefix_type(MlirContext ctx, MlirType value_storage,
                                  MlirType resume_storage) {
  MlirType ptr = ir_ptr_type(ctx);
  MlirType fields[5] = {ptr, ptr, coro_promise_type(ctx, value_storage), ptr,
                        resume_storage};
  return mlirLLVMStructTypeLiteralGet(ctx, 5, fields, false);
}

/* The runtime's task and group functions the consumer ops call
 * (coro-runtime/Runtime.h), with their C types. */
static const struct {
  const char *op, *fn;
  int nargs;  /* !llvm.ptr each */
  int result; /* 1: !llvm.ptr, else that integer width */
} task_calls[] = {
    {"coro.failed", "coro_rt_task_failed", 1, 32},
    {"coro.group_create", "coro_rt_group_create", 0, 1},
    {"coro.group_add", "coro_rt_group_add", 2, 32},
    {"coro.group_await", "coro_rt_group_wait", 1, 64},
    {"coro.group_destroy", "coro_rt_group_destroy", 1, 32},
};

/* coro.failed and the group ops outside a coroutine's suspensions: calls
 * of the runtime (declared in the module when absent). */
static MlirLogicalResult lower_task_op(struct ir_builder *b, MlirOperation op,
                                       size_t k, MlirOperation module) {
  MlirContext ctx = b->ctx;
  MlirType ptr = ir_ptr_type(ctx);
  MlirType rt = task_calls[k].result == 1
                    ? ptr
                    : ir_int_type(ctx, (unsigned)task_calls[k].result);
  MlirType args[2] = {ptr, ptr};
  MlirAttribute sym = ir_sym_ref(ctx, task_calls[k].fn);
  if (!coro_declare_llvm_func(module, sym, rt, task_calls[k].nargs, args,
                              b->loc))
    return mlirLogicalResultFailure();
  MlirValue ops[2];
  /* coro.group_add(%task, %group) is coro_rt_group_add(group, task) */
  bool swap = coro_op_named(op, "coro.group_add");
  for (int i = 0; i < task_calls[k].nargs; ++i) {
    ops[i] = mlirOperationGetOperand(op, swap ? 1 - i : i);
    if (!mlirTypeEqual(mlirValueGetType(ops[i]), ptr))
      ops[i] = ir_cast(b, ops[i], ptr);
  }
  MlirValue r = ir_call(b, sym, false, task_calls[k].nargs, ops, rt);
  if (coro_op_named(op, "coro.failed"))
    r = ir_icmp(b, IR_EQ, r, ir_const_int(b, 32, 1));
  if (mlirOperationGetNumResults(op))
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), r);
  mlirOperationDestroy(op);
  return mlirLogicalResultSuccess();
}

MlirLogicalResult coro_lower_consumer(MlirOperation op, MlirStringRef origin,
                                      MlirOperation module) {
  for (size_t k = 0; k < sizeof task_calls / sizeof *task_calls; ++k)
    if (coro_op_named(op, task_calls[k].op)) {
      struct ir_builder tb = ir_before(op);
      return lower_task_op(&tb, op, k, module);
    }
  struct ir_builder b = ir_before(op);
  MlirContext ctx = b.ctx;
  MlirValue h = mlirOperationGetNumOperands(op) ? mlirOperationGetOperand(op, 0)
                                                : (MlirValue){NULL};
  MlirValue repl = {NULL};
  if (coro_op_named(op, "coro.resume")) {
    if (mlirOperationGetNumOperands(op) > 1) {
      /* The value goes where every coroutine that takes one (retcon,
       * retcon.once) reads it: the resume slot of the shared control
       * prefix; a handle of unknown origin may be one of those. */
      if (coro_ref_eq(origin, "switch") || coro_ref_eq(origin, "async")) {
        struct coro_str msg = {0};
        coro_str_appendz(&msg, "the ");
        coro_str_append(&msg, origin.data, origin.length);
        coro_str_appendz(&msg, " ABI passes no value on resume");
        mlirEmitError(b.loc, coro_str_cstr(&msg));
        coro_str_free(&msg);
        return mlirLogicalResultFailure();
      }
      MlirValue r = mlirOperationGetOperand(op, 1);
      MlirType rs = coro_storage_type(mlirValueGetType(r));
      MlirAttribute ht = mlirOperationGetAttributeByName(
          op, mlirStringRefCreateFromCString(CORO_HANDLE_TYPE_ATTR));
      MlirType t = coro_handle_elem_type(mlirTypeAttrGetValue(ht));
      MlirType vs =
          coro_type_is_none(t) ? ir_int_type(ctx, 8) : coro_storage_type(t);
      if (mlirTypeIsNull(rs) || mlirTypeIsNull(vs)) {
        mlirEmitError(b.loc, "coro.resume value type cannot be stored");
        return mlirLogicalResultFailure();
      }
      MlirValue slot =
          ir_gep_field(&b, h, coro_control_prefix_type(ctx, vs, rs), 4);
      ir_store(&b, coro_to_storage(&b, r), slot, coro_value_align(rs));
    }
    ir_val(&b, "llvm.intr.coro.resume", 1, &h, (MlirType){NULL});
  } else if (coro_op_named(op, "coro.destroy")) {
    ir_intrinsic(&b, "llvm.coro.destroy", 1, &h, (MlirType){NULL});
  } else if (coro_op_named(op, "coro.done")) {
    repl = ir_intrinsic(&b, "llvm.coro.done", 1, &h, ir_int_type(ctx, 1));
  } else if (coro_op_named(op, "coro.noop")) {
    repl = ir_intrinsic(&b, "llvm.coro.noop", 0, NULL, ir_ptr_type(ctx));
  } else if (coro_op_named(op, "coro.promise")) {
    MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
    MlirType storage = coro_storage_type(t);
    if (mlirTypeIsNull(storage)) {
      mlirEmitError(b.loc, "coro.promise result type cannot be stored");
      return mlirLogicalResultFailure();
    }
    repl = coro_load_promise_value(&b, h, t);
  }
  if (!mlirValueIsNull(repl))
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), repl);
  mlirOperationDestroy(op);
  return mlirLogicalResultSuccess();
}

MlirValue coro_promise_field(struct ir_builder *b, MlirValue h,
                             MlirType storage, int field) {
  MlirValue p = ir_gep_bytes(b, h, CORO_PROMISE_OFFSET);
  return ir_gep_field(b, p, coro_promise_type(b->ctx, storage), field);
}

MlirValue coro_load_promise_value(struct ir_builder *b, MlirValue h,
                                  MlirType t) {
  MlirType storage = coro_storage_type(t);
  MlirValue p = promise_of(b, h);
  MlirValue v =
      ir_load(b, ir_gep_field(b, p, coro_promise_type(b->ctx, storage), 1),
              storage, coro_value_align(storage));
  return coro_from_storage(b, v, t);
}

MlirValue coro_published(struct ir_builder *b, MlirOperation op, MlirValue v,
                         MlirType storage) {
  MlirType s = coro_storage_type(mlirValueGetType(v));
  if (mlirTypeIsNull(s) || !mlirTypeEqual(s, storage)) {
    coro_error_at(op, "published value does not match the coroutine's handle "
                      "type");
    return (MlirValue){NULL};
  }
  return coro_to_storage(b, v);
}

/* The func.func `name` : (inputs of `fty`) -> !llvm.ptr with visibility
 * `visibility` (none when empty), appended to the module at `loc`; returns
 * its entry block. */
