/* split_dynamic.c - allocas of dynamic size that live across a suspension,
 * for every ABI of --coro-split (route B).
 *
 * LLVM's CoroSplit aborts on them outside retcon ("Coroutines cannot handle
 * non static allocas yet"). Here each one becomes memory from the heap
 * that the frame owns:
 *
 *   %head = llvm.alloca 1 x ptr              (entry block; kept in the frame)
 *   ... llvm.coro.begin ...
 *   llvm.store null, %head
 *   ...
 *   %blk = llvm.call @alloc(count * size + 16)     (for each such alloca)
 *   llvm.store (llvm.load %head), %blk             (a list, newest first)
 *   llvm.store %blk, %head
 *   %p = %blk + 16                                 (16-byte aligned)
 *
 * An alloca aligned to more than 16 bytes (A) asks for A - 1 more and
 * takes the first multiple of A from %blk + 16 on.
 *   ...
 *   llvm.call @__coro_free_allocas(llvm.load %head)  (before every
 *   llvm.store null, %head                      llvm.coro.free)
 *
 * A switched-resume coroutine frees its frame at llvm.coro.free, on the
 * path every destroy takes (after the final suspension too), and ends
 * after it: the blocks go just before the frame. A coroutine without
 * llvm.coro.free (retcon, async: the frame is the caller's buffer, the
 * id's allocation freed at the end, or the task's context) frees them
 * before every llvm.coro.end[.async] instead: every path out of it passes
 * one (the end, an abnormal retcon resume, an async task destroyed). An alloca
 * run again (in a loop) gets a new block each time, as the stack would give new
 * memory, and the list frees them all. The rewrite runs before the analyses,
 * which then see only the list's head and the blocks' addresses, ordinary
 * values. */
#include "transforms/CoroSplit/split_internal.h"

#include "ir/fold.h"
#include "ir/func.h"
#include "ir/support.h"
#include "ir/symbols.h"
#include "ir/types.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/LLVM.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

enum { HEADER = 16 }; /* the list's link, padded to malloc's alignment */

static const char free_all_name[] = "__coro_free_allocas";

/* The llvm.func `name` of the module, declared with `type` when missing;
 * null after an error at `at` when the name is taken by something else. */
static MlirOperation declared(struct split *sp, MlirSymbolTable table,
                              const char *name, MlirType result, intptr_t nargs,
                              const MlirType *args, MlirOperation at) {
  MlirOperation fn =
      ir_symbol_table_lookup(table, mlirStringRefCreateFromCString(name));
  if (mlirOperationIsNull(fn)) {
    struct ir_func_spec spec = {
        .name = name, .result = result, .nargs = nargs, .args = args};
    fn = ir_llvm_func(sp->module, &spec, true, sp->loc);
    ir_symbol_table_insert(table, fn);
    return fn;
  }
  MlirType t =
      coro_op_named(fn, "llvm.func") ? ir_func_type(fn) : (MlirType){NULL};
  bool ok = !mlirTypeIsNull(t) && mlirLLVMFunctionTypeGetNumInputs(t) == nargs;
  for (intptr_t i = 0; ok && i < nargs; ++i)
    ok = mlirTypeEqual(mlirLLVMFunctionTypeGetInput(t, i), args[i]);
  if (ok) {
    MlirType rt = mlirLLVMFunctionTypeGetReturnType(t);
    ok = mlirTypeIsNull(result) ? ir_type_is_void(rt)
                                : mlirTypeEqual(rt, result);
  }
  if (!ok) {
    char buf[200];
    snprintf(buf, sizeof buf,
             "'%s' is a symbol of the module of another type: --coro-split "
             "calls it for the dynamic allocas this coroutine keeps",
             name);
    ir_emit_error(at, buf);
    return (MlirOperation){NULL};
  }
  return fn;
}

/*   llvm.func internal @__coro_free_allocas(%p: !llvm.ptr) {
 *     llvm.br ^loop(%p)
 *   ^loop(%x):
 *     llvm.cond_br (%x == null), ^done, ^next
 *   ^next:
 *     %n = llvm.load %x : !llvm.ptr -> !llvm.ptr
 *     llvm.call @free(%x)
 *     llvm.br ^loop(%n)
 *   ^done:
 *     llvm.return
 *   } */
static MlirOperation free_all(struct split *sp, MlirSymbolTable table,
                              MlirOperation freefn, MlirOperation at) {
  /* one per deallocator: __coro_free_allocas for free, else
   * __coro_free_allocas.NAME */
  struct coro_str name = {0};
  coro_str_appendz(&name, free_all_name);
  MlirStringRef fname = ir_sym_name(freefn);
  if (!coro_ref_eq(fname, "free")) {
    coro_str_appendz(&name, ".");
    coro_str_append(&name, fname.data, fname.length);
  }
  MlirOperation fn =
      ir_symbol_table_lookup(table, mlirStringRefCreate(name.data, name.len));
  if (!mlirOperationIsNull(fn)) {
    fn = declared(sp, table, coro_str_cstr(&name), (MlirType){NULL}, 1,
                  &sp->ptr, at);
    coro_str_free(&name);
    return fn;
  }
  struct ir_func_spec spec = {.name = coro_str_cstr(&name),
                              .nargs = 1,
                              .args = &sp->ptr,
                              .linkage = MlirLLVMLinkageInternal};
  MlirLocation loc = ir_generated_loc(sp->loc, free_all_name);
  fn = ir_llvm_func(sp->module, &spec, false, loc);
  ir_symbol_table_insert(table, fn);
  MlirBlock entry = ir_func_entry(fn);
  MlirBlock loop = ir_block_after(entry, 1, &sp->ptr, loc);
  MlirBlock next = ir_block_after(loop, 0, NULL, loc);
  MlirBlock done = ir_block_after(next, 0, NULL, loc);
  struct ir_builder b = ir_at_end(entry, loc);
  MlirValue p = mlirBlockGetArgument(entry, 0);
  ir_br(&b, loop, 1, &p);
  b = ir_at_end(loop, loc);
  MlirValue x = mlirBlockGetArgument(loop, 0);
  ir_cond_br(&b, ir_icmp(&b, IR_EQ, x, ir_null(&b)), done, next);
  b = ir_at_end(next, loc);
  MlirValue n = ir_load(&b, x, sp->ptr, 8);
  ir_call(&b, mlirFlatSymbolRefAttrGet(sp->ctx, ir_sym_name(freefn)), false, 1,
          &x, (MlirType){NULL});
  ir_br(&b, loop, 1, &n);
  b = ir_at_end(done, loc);
  ir_return(&b, (MlirValue){NULL});
  coro_str_free(&name);
  return fn;
}

/* Whether `fn` (an llvm.func, or null) takes one integer and returns a
 * ptr (an allocator), or takes one ptr and returns nothing (a
 * deallocator). */
static bool is_allocator(MlirOperation fn) {
  if (mlirOperationIsNull(fn))
    return false;
  MlirType t = ir_func_type(fn);
  return mlirLLVMFunctionTypeGetNumInputs(t) == 1 &&
         mlirTypeIsAInteger(mlirLLVMFunctionTypeGetInput(t, 0)) &&
         mlirTypeIsALLVMPointerType(mlirLLVMFunctionTypeGetReturnType(t));
}

static bool is_deallocator(MlirOperation fn) {
  if (mlirOperationIsNull(fn))
    return false;
  MlirType t = ir_func_type(fn);
  return mlirLLVMFunctionTypeGetNumInputs(t) == 1 &&
         mlirTypeIsALLVMPointerType(mlirLLVMFunctionTypeGetInput(t, 0)) &&
         ir_type_is_void(mlirLLVMFunctionTypeGetReturnType(t));
}

/* The llvm.func a direct llvm.call `op` calls, or null. */
static MlirOperation callee_of(MlirSymbolTable table, MlirOperation op) {
  if (mlirOperationIsNull(op) || !coro_op_named(op, "llvm.call"))
    return (MlirOperation){NULL};
  return ir_llvm_func_named(table, ir_callee_attr(op));
}

/* The call making `v`: `v` itself, or, for an argument of coro.begin's
 * block, the first call result some branch passes to it. */
static MlirOperation call_making(const struct split *sp, MlirValue v) {
  if (mlirValueIsAOpResult(v))
    return mlirOpResultGetOwner(v);
  MlirBlock dest = mlirBlockArgumentGetOwner(v);
  intptr_t pos = mlirBlockArgumentGetArgNumber(v);
  for (size_t i = 0; i < sp->cfg.n; ++i) {
    MlirOperation term = mlirBlockGetTerminator(sp->cfg.block[i]);
    for (intptr_t k = 0;
         !mlirOperationIsNull(term) && k < mlirOperationGetNumSuccessors(term);
         ++k) {
      intptr_t first, count;
      if (!mlirBlockEqual(mlirOperationGetSuccessor(term, k), dest) ||
          !ir_successor_operands(term, k, &first, &count) || pos >= count)
        continue;
      MlirValue in = mlirOperationGetOperand(term, first + pos);
      if (mlirValueIsAOpResult(in) &&
          coro_op_named(mlirOpResultGetOwner(in), "llvm.call"))
        return mlirOpResultGetOwner(in);
    }
  }
  return (MlirOperation){NULL};
}

/* The coroutine's own allocator and deallocator, when it has them: a
 * returned-continuation id's, or the functions a switched-resume
 * coroutine allocates its frame with (the call whose result coro.begin
 * takes) and frees it with (the call taking coro.free's result). */
static void own_allocator(const struct split *sp, MlirSymbolTable table,
                          MlirOperation *alloc, MlirOperation *dealloc) {
  *alloc = *dealloc = (MlirOperation){NULL};
  if (sp->shape.abi == CORO_SHAPE_RETCON || sp->shape.abi == CORO_SHAPE_ONCE) {
    *alloc = ir_llvm_func_of(table, mlirOperationGetOperand(sp->shape.id, 4));
    *dealloc = ir_llvm_func_of(table, mlirOperationGetOperand(sp->shape.id, 5));
  } else if (sp->shape.abi == CORO_SHAPE_SWITCH) {
    *alloc = callee_of(
        table, call_making(sp, mlirOperationGetOperand(sp->shape.begin, 1)));
    for (size_t i = 0; i < sp->shape.nintr && mlirOperationIsNull(*dealloc);
         ++i) {
      if (sp->shape.intr[i].kind != CI_FREE)
        continue;
      MlirValue f = mlirOperationGetResult(sp->shape.intr[i].op, 0);
      for (MlirOpOperand u = mlirValueGetFirstUse(f); !mlirOpOperandIsNull(u);
           u = mlirOpOperandGetNextUse(u)) {
        MlirOperation fn = callee_of(table, mlirOpOperandGetOwner(u));
        if (is_deallocator(fn)) {
          *dealloc = fn;
          break;
        }
      }
    }
  }
  if (!is_allocator(*alloc) || !is_deallocator(*dealloc))
    *alloc = *dealloc = (MlirOperation){NULL};
}

/* The checks: off the device, after coro.begin, a known element size
 * (`size`) and a power-of-two alignment (`align`). */
static bool check_alloca(const struct split *sp, const bool *before,
                         MlirOperation a, uint64_t *size, uint64_t *align) {
  char buf[240];
  if (sp->device) {
    ir_emit_error(
        a, "an llvm.alloca of dynamic size is live across a suspension: "
           "on the device --coro-split would need malloc for it (give it "
           "a static size)");
    return false;
  }
  if (split_runs_before_begin(sp, before, a)) {
    ir_emit_error(
        a, "an llvm.alloca of dynamic size live across a suspension runs "
           "before llvm.coro.begin, when the frame that owns its memory "
           "does not exist yet");
    return false;
  }
  MlirAttribute et = mlirOperationGetAttributeByName(
      a, mlirStringRefCreateFromCString("elem_type"));
  *align = 0;
  if (mlirAttributeIsNull(et) ||
      !ir_type_layout(mlirTypeAttrGetValue(et), size, align)) {
    ir_emit_error(a,
                  "an llvm.alloca of dynamic size is live across a suspension "
                  "but its element's size is unknown");
    return false;
  }
  MlirAttribute aa = mlirOperationGetAttributeByName(
      a, mlirStringRefCreateFromCString("alignment"));
  if (!mlirAttributeIsNull(aa) && mlirAttributeIsAInteger(aa) &&
      (uint64_t)mlirIntegerAttrGetValueInt(aa) > *align)
    *align = (uint64_t)mlirIntegerAttrGetValueInt(aa);
  if (*align & (*align - 1)) {
    snprintf(buf, sizeof buf,
             "an llvm.alloca of dynamic size live across a suspension is "
             "aligned to %llu, not a power of two",
             (unsigned long long)*align);
    ir_emit_error(a, buf);
    return false;
  }
  return true;
}

/* The alloca's count as an i64. */
static MlirValue count_i64(struct ir_builder *b, MlirValue count) {
  MlirType t = mlirValueGetType(count);
  unsigned w = mlirIntegerTypeGetWidth(t);
  MlirType i64 = ir_int_type(b->ctx, 64);
  if (w == 64)
    return count;
  return ir_val(b, w < 64 ? "llvm.zext" : "llvm.trunc", 1, &count, i64);
}

bool split_heap_allocas(struct split *sp, MlirSymbolTable table,
                        const struct ir_opvec *allocas) {
  bool *before = ir_xcalloc(sp->cfg.n + 1, sizeof *before);
  split_mark_before_begin(sp, before);
  bool ok = true;
  uint64_t *sizes = ir_xcalloc(2 * allocas->n + 1, sizeof *sizes);
  uint64_t *aligns = sizes + allocas->n;
  for (size_t i = 0; i < allocas->n; ++i)
    ok &= check_alloca(sp, before, allocas->v[i], &sizes[i], &aligns[i]);
  free(before);
  MlirType i64 = ir_int_type(sp->ctx, 64);
  MlirOperation at = allocas->v[0];
  MlirOperation mallocfn, freefn;
  own_allocator(sp, table, &mallocfn, &freefn);
  if (ok && mlirOperationIsNull(mallocfn)) {
    mallocfn = declared(sp, table, "malloc", sp->ptr, 1, &i64, at);
    freefn =
        mlirOperationIsNull(mallocfn)
            ? mallocfn
            : declared(sp, table, "free", (MlirType){NULL}, 1, &sp->ptr, at);
  } else if (!ok) {
    mallocfn = freefn = (MlirOperation){NULL};
  }
  MlirType size_ty =
      mlirOperationIsNull(mallocfn)
          ? i64
          : mlirLLVMFunctionTypeGetInput(ir_func_type(mallocfn), 0);
  MlirOperation freeall =
      mlirOperationIsNull(freefn) ? freefn : free_all(sp, table, freefn, at);
  if (mlirOperationIsNull(freeall)) {
    free(sizes);
    return false;
  }
  /* the list's head, kept in the frame, empty from coro.begin on */
  MlirBlock entry = ir_func_entry(sp->func);
  struct ir_builder e = ir_before(mlirBlockGetFirstOperation(entry));
  e.loc = sp->loc;
  MlirValue head = ir_alloca(&e, ir_const_int(&e, 64, 1), sp->ptr, 8);
  struct ir_builder b = ir_before(mlirOperationGetNextInBlock(sp->shape.begin));
  ir_store(&b, ir_null(&b), head, 8);
  MlirAttribute msym = mlirFlatSymbolRefAttrGet(sp->ctx, ir_sym_name(mallocfn));
  for (size_t i = 0; i < allocas->n; ++i) {
    MlirOperation a = allocas->v[i];
    b = ir_before(a);
    MlirValue n = count_i64(&b, mlirOperationGetOperand(a, 0));
    MlirValue bytes =
        ir_binop(&b, "mul", n, ir_const_int(&b, 64, (long long)sizes[i]));
    uint64_t extra = aligns[i] > HEADER ? aligns[i] - 1 : 0;
    MlirValue total = ir_binop(
        &b, "add", bytes, ir_const_int(&b, 64, (long long)(HEADER + extra)));
    unsigned w = mlirIntegerTypeGetWidth(size_ty);
    if (w < 64)
      total = ir_val(&b, "llvm.trunc", 1, &total, size_ty);
    MlirValue blk = ir_call(&b, msym, false, 1, &total, sp->ptr);
    ir_store(&b, ir_load(&b, head, sp->ptr, 8), blk, 8);
    ir_store(&b, blk, head, 8);
    MlirValue p = ir_gep_bytes(&b, blk, HEADER);
    ir_erase_lifetime_markers(mlirOperationGetResult(a, 0));
    split_replace_result(a, extra ? split_aligned(&b, p, aligns[i]) : p);
    split_erase(a);
  }
  free(sizes);
  /* released where the frame is (llvm.coro.free: the frame goes right
   * after), or, in a coroutine that never frees it there, at its ends */
  bool frees = false;
  for (size_t i = 0; i < sp->shape.nintr; ++i)
    frees |= sp->shape.intr[i].kind == CI_FREE;
  MlirAttribute fsym = mlirFlatSymbolRefAttrGet(sp->ctx, ir_sym_name(freeall));
  for (size_t i = 0; i < sp->shape.nintr; ++i) {
    enum coro_intr k = sp->shape.intr[i].kind;
    if (frees ? k != CI_FREE : k != CI_END && k != CI_END_ASYNC)
      continue;
    b = ir_before(sp->shape.intr[i].op);
    MlirValue list = ir_load(&b, head, sp->ptr, 8);
    ir_call(&b, fsym, false, 1, &list, (MlirType){NULL});
    ir_store(&b, ir_null(&b), head, 8);
  }
  return true;
}

/*===-- llvm.coro.alloca.* (retcon, retcon.once) --------------------------===*/

/* Whether a suspension can run after `alloc` before one of its frees
 * (`is_free`, by op): along every path from it, the first of a free and a
 * suspension. A path that comes back to the allocation's block stops at
 * the allocation (the next run of it is another allocation), as LLVM's
 * isLocalAlloca stops there. */
static bool suspends_before_free(const struct split *sp, MlirOperation alloc,
                                 const struct ir_ptrmap *is_free) {
  const struct ir_cfg *g = &sp->cfg;
  size_t home = ir_cfg_index(g, mlirOperationGetBlock(alloc));
  if (home == IR_CFG_NONE)
    return false;
  bool *seen = ir_xcalloc(g->n + 1, sizeof *seen);
  size_t *work = ir_xmalloc((g->n + 1) * sizeof *work);
  size_t n = 0;
  bool found = false;
  /* the allocation's own block, from the op after it */
  MlirOperation op = mlirOperationGetNextInBlock(alloc);
  size_t b = home;
  for (;;) {
    bool stop = false;
    for (; !mlirOperationIsNull(op) && !stop;
         op = mlirOperationGetNextInBlock(op)) {
      if (ir_ptrmap_find(is_free, op.ptr) || mlirOperationEqual(op, alloc))
        stop = true;
      else if (coro_intr_classify(op) == CI_SUSPEND_RETCON)
        found = stop = true;
    }
    if (found)
      break;
    if (!stop)
      for (size_t q = g->succ_start[b]; q < g->succ_start[b + 1]; ++q)
        if (!seen[g->succ[q]]) {
          seen[g->succ[q]] = true;
          work[n++] = g->succ[q];
        }
    if (!n)
      break;
    b = work[--n];
    op = mlirBlockGetFirstOperation(g->block[b]);
  }
  free(seen);
  free(work);
  return found;
}

/* The allocation `a`: each user is llvm.coro.alloca.get or .free of it
 * (collected in `gets` and `frees`), the size an integer and the
 * alignment a constant power of two. */
static bool check_coro_alloca(MlirOperation a, struct ir_opvec *gets,
                              struct ir_opvec *frees, int64_t *align) {
  if (mlirOperationGetNumOperands(a) != 2 ||
      mlirOperationGetNumResults(a) != 1 ||
      !mlirTypeIsAInteger(mlirValueGetType(mlirOperationGetOperand(a, 0))) ||
      !ir_const_int_value(mlirOperationGetOperand(a, 1), align) ||
      *align <= 0 || (*align & (*align - 1))) {
    ir_emit_error(a, "llvm.coro.alloca.alloc takes an integer size and a "
                     "constant power-of-two alignment");
    return false;
  }
  MlirValue tok = mlirOperationGetResult(a, 0);
  for (MlirOpOperand u = mlirValueGetFirstUse(tok); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    enum coro_intr k = coro_intr_classify(user);
    if ((k == CI_ALLOCA_GET || k == CI_ALLOCA_FREE) &&
        mlirOperationGetNumOperands(user) == 1 &&
        mlirOpOperandGetOperandNumber(u) == 0) {
      ir_opvec_push(k == CI_ALLOCA_GET ? gets : frees, user);
      continue;
    }
    ir_emit_error(user, "the token of an llvm.coro.alloca.alloc is used "
                        "other than by llvm.coro.alloca.get or "
                        "llvm.coro.alloca.free of it");
    return false;
  }
  return true;
}

/* The size `v` as the allocator's parameter type `t` (unsigned). */
static MlirValue size_as(struct ir_builder *b, MlirValue v, MlirType t) {
  unsigned from = mlirIntegerTypeGetWidth(mlirValueGetType(v));
  unsigned to = mlirIntegerTypeGetWidth(t);
  if (from == to)
    return v;
  return ir_val(b, from < to ? "llvm.zext" : "llvm.trunc", 1, &v, t);
}

bool split_coro_allocas(struct split *sp, MlirSymbolTable table,
                        bool *changed) {
  *changed = false;
  struct ir_opvec allocs = {0};
  for (size_t i = 0; i < sp->shape.nintr; ++i)
    if (sp->shape.intr[i].kind == CI_ALLOCA_ALLOC)
      ir_opvec_push(&allocs, sp->shape.intr[i].op);
    else if (sp->shape.intr[i].kind == CI_ALLOCA_GET ||
             sp->shape.intr[i].kind == CI_ALLOCA_FREE) {
      MlirValue t = mlirOperationGetNumOperands(sp->shape.intr[i].op) == 1
                        ? mlirOperationGetOperand(sp->shape.intr[i].op, 0)
                        : (MlirValue){NULL};
      if (mlirValueIsNull(t) || !mlirValueIsAOpResult(t) ||
          coro_intr_classify(mlirOpResultGetOwner(t)) != CI_ALLOCA_ALLOC) {
        ir_emit_error(sp->shape.intr[i].op,
                      "llvm.coro.alloca.get and llvm.coro.alloca.free take "
                      "the token of an llvm.coro.alloca.alloc");
        free(allocs.v);
        return false;
      }
    }
  if (!allocs.n)
    return true;
  MlirOperation allocfn =
      ir_llvm_func_of(table, mlirOperationGetOperand(sp->shape.id, 4));
  MlirOperation deallocfn =
      ir_llvm_func_of(table, mlirOperationGetOperand(sp->shape.id, 5));
  if (!is_allocator(allocfn) || !is_deallocator(deallocfn))
    allocfn = deallocfn = (MlirOperation){NULL};
  bool ok = true;
  for (size_t i = 0; i < allocs.n && ok; ++i) {
    MlirOperation a = allocs.v[i];
    struct ir_opvec gets = {0}, frees = {0};
    int64_t align;
    ok = check_coro_alloca(a, &gets, &frees, &align);
    struct ir_ptrmap is_free = {0};
    for (size_t k = 0; ok && k < frees.n; ++k)
      ir_ptrmap_put(&is_free, frees.v[k].ptr, (void *)1);
    bool local = ok && !suspends_before_free(sp, a, &is_free);
    ir_ptrmap_free(&is_free);
    if (ok && !local && mlirOperationIsNull(allocfn)) {
      ir_emit_error(a, "an llvm.coro.alloca.alloc live across a suspension "
                       "takes its memory from the coroutine's allocator, "
                       "but llvm.coro.id.retcon names no function of an "
                       "allocator's type");
      ok = false;
    }
    if (ok) {
      struct ir_builder b = ir_before(a);
      MlirValue size = mlirOperationGetOperand(a, 0);
      MlirValue p, save = {NULL};
      if (local) {
        save = ir_val(&b, "llvm.intr.stacksave", 0, NULL, sp->ptr);
        p = ir_alloca(&b, size, sp->i8, (unsigned)align);
        /* its lifetime ends at each free: a suspension after it keeps
         * nothing of it, though its address escapes */
        ir_op(&b, "llvm.intr.lifetime.start", 1, &p, 0, NULL, 0, NULL, 0, NULL);
      } else {
        MlirType st = mlirLLVMFunctionTypeGetInput(ir_func_type(allocfn), 0);
        MlirValue n = size_as(&b, size, st);
        p = ir_call(&b, mlirFlatSymbolRefAttrGet(sp->ctx, ir_sym_name(allocfn)),
                    false, 1, &n, sp->ptr);
      }
      for (size_t k = 0; k < gets.n; ++k) {
        split_replace_result(gets.v[k], p);
        split_erase(gets.v[k]);
      }
      for (size_t k = 0; k < frees.n; ++k) {
        b = ir_before(frees.v[k]);
        if (local) {
          ir_op(&b, "llvm.intr.lifetime.end", 1, &p, 0, NULL, 0, NULL, 0, NULL);
          ir_op(&b, "llvm.intr.stackrestore", 1, &save, 0, NULL, 0, NULL, 0,
                NULL);
        } else {
          ir_call(&b, mlirFlatSymbolRefAttrGet(sp->ctx, ir_sym_name(deallocfn)),
                  false, 1, &p, (MlirType){NULL});
        }
        split_erase(frees.v[k]);
      }
      split_erase(a);
      *changed = true;
    }
    free(gets.v);
    free(frees.v);
  }
  free(allocs.v);
  return ok;
}
