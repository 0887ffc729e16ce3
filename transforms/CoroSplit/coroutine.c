/* coroutine.c - --coro-split on one coroutine (split_one).
 *
 * Collects the coroutine's shape, computes what each suspension keeps
 * (suspend_crossing.h; allocas of dynamic size get heap memory first,
 * split_dynamic.c, and cheap chains are sunk, split_sink.c), decides what
 * is recomputed (remat.h) and lays out the frame (frame_layout.h). Then it
 * checks what the layout assumes (allocas of the frame are not used
 * before coro.begin; values are computed before their suspension's save),
 * and lets the coroutine's ABI (split_abi) make the parts; the ramp is
 * rewritten last. Remarks (`coro-split`, `coro-frame`) say what was done.
 * Also the names of the parts and the checks that they are free. */
#include "dialect/contract.h"
#include "ir/fold.h"
#include "ir/func.h"
#include "ir/remark.h"
#include "ir/support.h"
#include "ir/symbols.h"
#include "ir/types.h"
#include "transforms/CoroSplit/coro_split.h"
#include "transforms/CoroSplit/frame_debug.h"
#include "transforms/CoroSplit/split_internal.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/LLVM.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

void split_mark_before_begin(const struct split *sp, bool *before) {
  ir_cfg_reach_avoiding(
      &sp->cfg, ir_cfg_index(&sp->cfg, mlirOperationGetBlock(sp->shape.begin)),
      before);
}

bool split_runs_before_begin(const struct split *sp, const bool *before,
                             MlirOperation op) {
  return ir_cfg_runs_before(&sp->cfg, before, sp->shape.begin, op);
}

/* Allocas moved into the frame exist from coro.begin on: no use before. */
static bool check_frame_allocas(const struct split *sp) {
  bool *before = ir_xcalloc(sp->cfg.n + 1, sizeof *before);
  split_mark_before_begin(sp, before);
  bool ok = true;
  for (size_t i = 0; i <= sp->crossing.nitem; ++i) {
    MlirValue a =
        i < sp->crossing.nitem ? sp->crossing.item[i].value : sp->shape.promise;
    if (mlirValueIsNull(a) ||
        (i < sp->crossing.nitem && !sp->crossing.item[i].alloca))
      continue;
    for (MlirOpOperand u = mlirValueGetFirstUse(a); !mlirOpOperandIsNull(u);
         u = mlirOpOperandGetNextUse(u)) {
      MlirOperation user = mlirOpOperandGetOwner(u);
      if (mlirOperationEqual(user, sp->shape.id))
        continue;
      if (split_runs_before_begin(sp, before, user)) {
        ir_emit_error(user, "this use of an alloca the coroutine keeps in its "
                            "frame runs before llvm.coro.begin, when the frame "
                            "does not exist yet");
        ok = false;
      }
    }
  }
  free(before);
  return ok;
}

/* What a suspension keeps is stored at its llvm.coro.save: each value must
 * exist there already. Read from the items' blocks and the results of the
 * few ops after each save, not from the values themselves (a chain's
 * suspensions keep a million). */
static bool check_saves(struct split *sp) {
  bool ok = true;
  ir_cfg_dominators(&sp->cfg);
  struct ir_ptrmap after = {0}; /* results of the ops after the save */
  for (size_t i = 0; i < sp->shape.nsusp && ok; ++i) {
    const struct coro_suspend *s = &sp->shape.susp[i];
    if (mlirOperationIsNull(s->save))
      continue;
    MlirBlock sb = mlirOperationGetBlock(s->save);
    bool same = mlirBlockEqual(sb, mlirOperationGetBlock(s->suspend));
    size_t sbi = ir_cfg_index(&sp->cfg, sb);
    ir_ptrmap_free(&after);
    for (MlirOperation op = mlirOperationGetNextInBlock(s->save);
         !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
      for (intptr_t r = 0; r < mlirOperationGetNumResults(op); ++r)
        ir_ptrmap_put(&after, mlirOperationGetResult(op, r).ptr, (void *)1);
    for (size_t q = sp->crossing.start[i]; q < sp->crossing.start[i + 1] && ok;
         ++q) {
      const struct sc_item *it = &sp->crossing.item[sp->crossing.list[q]];
      if (sp->remat.remat[q] || it->alloca)
        continue; /* rebuilt after the suspension / not stored */
      bool there;
      if (it->block == sbi)
        there = !ir_ptrmap_find(&after, it->value.ptr) &&
                !mlirValueEqual(it->value, mlirOperationGetResult(s->save, 0));
      else if (same)
        there = true; /* its block dominates the suspend's, the save's */
      else
        there = sbi != IR_CFG_NONE && it->block != IR_CFG_NONE &&
                ir_cfg_dominates(&sp->cfg, it->block, sbi);
      if (!there) {
        ir_emit_error_at_value(
            it->value, "this value lives across a suspension but is computed "
                       "after its llvm.coro.save, where the suspension's "
                       "state is stored");
        ok = false;
      }
    }
  }
  ir_ptrmap_free(&after);
  return ok;
}

static void remark_split(const struct split *sp) {
  char buf[64];
  struct coro_str msg = {0};
  coro_str_appendz(&msg, "Split '");
  coro_str_append(&msg, sp->name.data, sp->name.len);
  snprintf(buf, sizeof buf, "' (frame_size=%llu, align=%llu)",
           (unsigned long long)sp->layout.size,
           (unsigned long long)sp->layout.align);
  coro_str_appendz(&msg, buf);
  coro_emit_remark(sp->loc, CORO_REMARK_PASSED, "coro-split", "CoroSplit",
                   coro_str_cstr(&msg));
  coro_str_free(&msg);
}

/* Appends ", kept across suspensions 0, 2" (the pairs whose recompute flag
 * is `recomputed`, worded for that). */
static void list_suspensions(struct coro_str *msg, const struct split *sp,
                             size_t it, bool recomputed) {
  char buf[32];
  bool first = true;
  for (size_t q = sp->crossing.istart[it]; q < sp->crossing.istart[it + 1];
       ++q) {
    if (sp->remat.iremat[q] != recomputed)
      continue;
    if (first)
      coro_str_appendz(msg, recomputed ? ", recomputed after suspensions"
                                       : ", kept across suspensions");
    snprintf(buf, sizeof buf, "%s %zu", first ? "" : ",",
             sp->crossing.ilist[q]);
    coro_str_appendz(msg, buf);
    first = false;
  }
}

/* One coro-frame remark per value the frame keeps or the split recomputes,
 * at the value. */
static void remark_frame(const struct split *sp) {
  if (!coro_remark_category_enabled(sp->ctx, "coro-frame"))
    return;
  char buf[160];
  for (size_t i = 0; i < sp->crossing.nitem; ++i) {
    const struct frame_field *f = &sp->layout.field[i];
    bool alloca = sp->crossing.item[i].alloca;
    struct coro_str msg = {0};
    if (alloca || f->size)
      snprintf(buf, sizeof buf,
               "frame field of '%.*s' at offset %llu (size %llu, align "
               "%llu): ",
               (int)sp->name.len, sp->name.data, (unsigned long long)f->offset,
               (unsigned long long)f->size, (unsigned long long)f->align);
    else
      snprintf(buf, sizeof buf, "no frame field in '%.*s': ", (int)sp->name.len,
               sp->name.data);
    coro_str_appendz(&msg, buf);
    coro_str_appendz(&msg, alloca ? "alloca of " : "value of ");
    mlirTypePrint(f->type, coro_str_callback, &msg);
    if (alloca) {
      coro_str_appendz(&msg, ", in the frame across suspensions");
      for (size_t q = sp->crossing.istart[i]; q < sp->crossing.istart[i + 1];
           ++q) {
        snprintf(buf, sizeof buf, "%s %zu",
                 q == sp->crossing.istart[i] ? "" : ",", sp->crossing.ilist[q]);
        coro_str_appendz(&msg, buf);
      }
    } else {
      list_suspensions(&msg, sp, i, false);
      list_suspensions(&msg, sp, i, true);
    }
    coro_emit_remark(mlirValueGetLocation(sp->crossing.item[i].value),
                     CORO_REMARK_ANALYSIS, "coro-frame", "CoroFrame",
                     coro_str_cstr(&msg));
    coro_str_free(&msg);
  }
}

struct coro_str split_part_name(const struct split *sp, const char *sfx) {
  struct coro_str n = {0};
  coro_str_append(&n, sp->name.data, sp->name.len);
  coro_str_appendz(&n, sfx);
  return n;
}

/* The function attributes a part takes from its coroutine, as LLVM's
 * CoroSplit clones keep them: how its code is compiled and unwinds (a
 * landing pad copied into a part needs the personality). Not taken: what
 * describes the coroutine's own signature, linkage, inlining (but for
 * optnone, which needs noinline) or memory effects, which differ for a
 * part. */
static const char *const inherited[] = {"personality",
                                        "garbageCollector",
                                        "frame_pointer",
                                        "target_cpu",
                                        "tune_cpu",
                                        "target_features",
                                        "reciprocal_estimates",
                                        "prefer_vector_width",
                                        "no_infs_fp_math",
                                        "no_nans_fp_math",
                                        "no_signed_zeros_fp_math",
                                        "denormal_fp_math",
                                        "denormal_fp_math_f32",
                                        "fp_contract",
                                        "instrument_function_entry",
                                        "instrument_function_exit",
                                        "no_unwind",
                                        "uwtable_kind",
                                        "vscale_range",
                                        "convergent"};

void split_inherit_attributes(const struct split *sp, MlirOperation part) {
  for (size_t i = 0; i < sizeof inherited / sizeof *inherited; ++i) {
    MlirStringRef key = mlirStringRefCreateFromCString(inherited[i]);
    MlirAttribute a = mlirOperationGetAttributeByName(sp->func, key);
    if (!mlirAttributeIsNull(a))
      mlirOperationSetAttributeByName(part, key, a);
  }
  MlirStringRef optnone = mlirStringRefCreateFromCString("optimize_none");
  MlirAttribute a = mlirOperationGetAttributeByName(sp->func, optnone);
  if (!mlirAttributeIsNull(a)) {
    mlirOperationSetAttributeByName(part, optnone, a);
    mlirOperationSetAttributeByName(
        part, mlirStringRefCreateFromCString("no_inline"), a);
  }
  /* the passthrough attributes but the coroutine's own marks */
  MlirStringRef key = mlirStringRefCreateFromCString("passthrough");
  MlirAttribute p = mlirOperationGetAttributeByName(sp->func, key);
  if (mlirAttributeIsNull(p) || !mlirAttributeIsAArray(p))
    return;
  intptr_t n = mlirArrayAttrGetNumElements(p), k = 0;
  MlirAttribute *keep = ir_xmalloc((size_t)(n + 1) * sizeof *keep);
  bool no_opt = ir_passthrough_has(sp->func, "optnone");
  for (intptr_t i = 0; i < n; ++i) {
    MlirAttribute e = mlirArrayAttrGetElement(p, i);
    MlirStringRef v = mlirAttributeIsAString(e) ? mlirStringAttrGetValue(e)
                                                : mlirStringRefCreate("", 0);
    bool inlining = coro_ref_eq(v, "noinline") ||
                    coro_ref_eq(v, "alwaysinline") ||
                    coro_ref_eq(v, "inlinehint");
    if (!coro_ref_eq(v, "presplitcoroutine") &&
        !coro_ref_starts_with(v, "coro_") && (!inlining || no_opt))
      keep[k++] = e;
  }
  if (k)
    mlirOperationSetAttributeByName(part, key,
                                    mlirArrayAttrGet(sp->ctx, k, keep));
  free(keep);
}

struct coro_str split_part_name_of(MlirStringRef coro, enum variant v) {
  struct coro_str n = {0};
  coro_str_append(&n, coro.data, coro.length);
  coro_str_appendz(&n, split_suffix[v]);
  return n;
}

bool split_name_free(const struct split *sp, MlirSymbolTable table,
                     struct coro_str *name) {
  bool taken = !mlirOperationIsNull(
      ir_symbol_table_lookup(table, mlirStringRefCreate(name->data, name->len)));
  if (taken) {
    struct coro_str msg = {0};
    coro_str_appendz(&msg, "'");
    coro_str_append(&msg, name->data, name->len);
    coro_str_appendz(&msg, "' is already a symbol of the module: --coro-split "
                           "gives that name to a part of this coroutine");
    mlirEmitError(sp->loc, coro_str_cstr(&msg));
    coro_str_free(&msg);
  }
  coro_str_free(name);
  return !taken;
}

/* A switch suspend's result used outside its block (LLVM's tests read it
 * after later suspensions: coro-spill-suspend, coro-materialize) becomes
 * a one-byte slot: each edge of the llvm.switch on it stores the value
 * that edge stands for (-1 for the default), and each use outside the
 * block loads it. The slot is an alloca like any other, kept in the frame
 * when a use follows another suspension, as LLVM keeps the value. A
 * suspend whose block ends otherwise is left to the shape's check. */
static void suspend_results_to_slots(MlirOperation func) {
  MlirRegion body = mlirOperationGetRegion(func, 0);
  struct ir_opvec suspends = {0};
  for (struct ir_op_walk w = ir_op_walk_start(body); ir_op_walk_next(&w);)
    if (coro_intr_classify(w.op) == CI_SUSPEND &&
        mlirOperationGetNumResults(w.op) == 1)
      ir_opvec_push(&suspends, w.op);
  for (size_t i = 0; i < suspends.n; ++i) {
    MlirOperation susp = suspends.v[i];
    MlirValue r = mlirOperationGetResult(susp, 0);
    MlirBlock home = mlirOperationGetBlock(susp);
    MlirOperation term = mlirBlockGetTerminator(home);
    bool outside = false;
    for (MlirOpOperand u = mlirValueGetFirstUse(r); !mlirOpOperandIsNull(u);
         u = mlirOpOperandGetNextUse(u))
      outside |= !mlirBlockEqual(
          mlirOperationGetBlock(mlirOpOperandGetOwner(u)), home);
    if (!outside || mlirOperationIsNull(term) ||
        !coro_op_named(term, "llvm.switch") ||
        !mlirValueEqual(mlirOperationGetOperand(term, 0), r))
      continue;
    MlirLocation loc = mlirOperationGetLocation(susp);
    MlirContext ctx = mlirOperationGetContext(func);
    MlirType i8 = ir_int_type(ctx, 8);
    struct ir_builder e =
        ir_before(mlirBlockGetFirstOperation(mlirRegionGetFirstBlock(body)));
    e.loc = loc;
    MlirValue slot = ir_alloca(&e, ir_const_int(&e, 64, 1), i8, 1);
    /* the uses first: the edges' stores are uses in other blocks too */
    for (MlirOpOperand u = mlirValueGetFirstUse(r); !mlirOpOperandIsNull(u);) {
      MlirOperation user = mlirOpOperandGetOwner(u);
      intptr_t at = (intptr_t)mlirOpOperandGetOperandNumber(u);
      u = mlirOpOperandGetNextUse(u);
      if (mlirBlockEqual(mlirOperationGetBlock(user), home))
        continue;
      struct ir_builder b = ir_before(user);
      mlirOperationSetOperand(user, at, ir_load(&b, slot, i8, 1));
    }
    for (intptr_t k = 0; k < mlirOperationGetNumSuccessors(term); ++k) {
      MlirBlock to = mlirOperationGetSuccessor(term, k);
      intptr_t nargs = mlirBlockGetNumArguments(to);
      MlirType *types = ir_xmalloc((size_t)(nargs + 1) * sizeof *types);
      for (intptr_t a = 0; a < nargs; ++a)
        types[a] = mlirValueGetType(mlirBlockGetArgument(to, a));
      MlirBlock edge = ir_block_after(home, nargs, types, loc);
      free(types);
      struct ir_builder b = ir_at_end(edge, loc);
      int64_t c = k == 0 ? -1 : ir_switch_case(term, k - 1);
      ir_store(&b, ir_const_int(&b, 8, c), slot, 1);
      MlirValue *args = ir_xmalloc((size_t)(nargs + 1) * sizeof *args);
      for (intptr_t a = 0; a < nargs; ++a)
        args[a] = mlirBlockGetArgument(edge, a);
      ir_br(&b, to, nargs, args);
      free(args);
      mlirOperationSetSuccessor(term, k, edge);
    }
  }
  free(suspends.v);
}

/* A coroutine id whose promise is an llvm.bitcast of an alloca (what the
 * importer makes of typed-pointer IR's casts, which LLVM strips) takes the
 * alloca itself. */
static void promise_through_casts(MlirOperation func) {
  for (struct ir_op_walk w = ir_op_walk_start(mlirOperationGetRegion(func, 0));
       ir_op_walk_next(&w);) {
    if (coro_intr_classify(w.op) != CI_ID ||
        mlirOperationGetNumOperands(w.op) != 4)
      continue;
    MlirValue cast = mlirOperationGetOperand(w.op, 1);
    MlirValue p = cast;
    while (mlirValueIsAOpResult(p) &&
           coro_op_named(mlirOpResultGetOwner(p), "llvm.bitcast"))
      p = mlirOperationGetOperand(mlirOpResultGetOwner(p), 0);
    if (mlirValueEqual(p, cast) || !mlirValueIsAOpResult(p) ||
        !coro_op_named(mlirOpResultGetOwner(p), "llvm.alloca"))
      continue;
    mlirOperationSetOperand(w.op, 1, p);
    /* the casts nothing else uses go: a use of the promise before
     * llvm.coro.begin is one of an alloca the frame keeps */
    while (!mlirValueEqual(cast, p) &&
           mlirOpOperandIsNull(mlirValueGetFirstUse(cast))) {
      MlirOperation def = mlirOpResultGetOwner(cast);
      cast = mlirOperationGetOperand(def, 0);
      mlirOperationDestroy(def);
    }
  }
}

/* Ops with no effect but their result, which may run earlier in their
 * block (none traps: no division). */
static bool hoistable(MlirOperation op) {
  static const char *const pure[] = {"llvm.getelementptr", "llvm.bitcast",
                                     "llvm.addrspacecast", "llvm.ptrtoint",
                                     "llvm.inttoptr",      "llvm.add",
                                     "llvm.sub",           "llvm.mul",
                                     "llvm.and",           "llvm.or",
                                     "llvm.xor",           "llvm.shl",
                                     "llvm.lshr",          "llvm.ashr",
                                     "llvm.icmp",          "llvm.sext",
                                     "llvm.zext",          "llvm.trunc",
                                     "llvm.select",        "llvm.extractvalue",
                                     "llvm.insertvalue"};
  if (mlirOperationGetNumRegions(op) || mlirOperationGetNumResults(op) != 1)
    return false;
  if (ir_op_is_constant(op))
    return true;
  for (size_t k = 0; k < sizeof pure / sizeof *pure; ++k)
    if (coro_op_named(op, pure[k]))
      return true;
  return false;
}

/* A suspension stores what it keeps at its llvm.coro.save (check_saves):
 * pure ops between a save and its suspend whose operands exist at the
 * save move above it (LLVM's pre-split passes and clang put address
 * arithmetic there: a GEP to the awaited coroutine's handle, used again
 * after the suspension), so that what they compute exists there too. */
static void hoist_above_saves(MlirOperation func) {
  struct ir_opvec saves = {0};
  for (struct ir_op_walk w = ir_op_walk_start(mlirOperationGetRegion(func, 0));
       ir_op_walk_next(&w);)
    if (coro_intr_classify(w.op) == CI_SAVE)
      ir_opvec_push(&saves, w.op);
  struct ir_ptrmap after = {0}; /* results computed after the save */
  for (size_t i = 0; i < saves.n; ++i) {
    MlirOperation save = saves.v[i];
    ir_ptrmap_clear(&after);
    ir_ptrmap_put(&after, mlirOperationGetResult(save, 0).ptr, (void *)1);
    for (MlirOperation op = mlirOperationGetNextInBlock(save);
         !mlirOperationIsNull(op);) {
      MlirOperation next = mlirOperationGetNextInBlock(op);
      enum coro_intr k = coro_intr_classify(op);
      if (k == CI_SUSPEND || k == CI_SAVE)
        break;
      bool ready = hoistable(op);
      for (intptr_t o = 0; ready && o < mlirOperationGetNumOperands(op); ++o)
        ready = !ir_ptrmap_find(&after, mlirOperationGetOperand(op, o).ptr);
      if (ready) {
        mlirOperationMoveBefore(op, save);
      } else {
        for (intptr_t r = 0; r < mlirOperationGetNumResults(op); ++r)
          ir_ptrmap_put(&after, mlirOperationGetResult(op, r).ptr, (void *)1);
      }
      op = next;
    }
  }
  ir_ptrmap_free(&after);
  free(saves.v);
}

/* Moves every llvm.extractvalue of an aggregate used only by such ops to
 * right after the aggregate's definition (equal ones merged): then the
 * fields taken out live
 * across suspensions rather than the aggregate (a memref descriptor of
 * five fields of which a resumed path reads the pointer keeps 8 bytes, not
 * 40). Pure ops, moved to where their operand is defined: every use stays
 * dominated. */
static void hoist_extracts(MlirOperation func) {
  struct ir_opvec moves = {0};
  for (struct ir_op_walk w = ir_op_walk_start(mlirOperationGetRegion(func, 0));
       ir_op_walk_next(&w);) {
    MlirOperation op = w.op;
    if (!coro_op_named(op, "llvm.extractvalue"))
      continue;
    MlirValue agg = mlirOperationGetOperand(op, 0);
    bool only = true;
    for (MlirOpOperand u = mlirValueGetFirstUse(agg);
         only && !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
      only = coro_op_named(mlirOpOperandGetOwner(u), "llvm.extractvalue");
    MlirOperation def = mlirValueIsAOpResult(agg) ? mlirOpResultGetOwner(agg)
                                                  : (MlirOperation){NULL};
    if (only &&
        (mlirOperationIsNull(def) || !mlirOperationGetNumSuccessors(def)))
      ir_opvec_push(&moves, op);
  }
  MlirStringRef position = mlirStringRefCreateFromCString("position");
  struct ir_ptrmap first_of = {0}; /* aggregate -> 1 + its latest move */
  size_t *next = ir_xcalloc(moves.n + 1, sizeof *next);
  /* in block order, so an extract from an extract follows the one it
   * reads, which has moved already; one of two equal extracts serves the
   * uses of both (they would be kept twice) */
  for (size_t i = 0; i < moves.n; ++i) {
    MlirOperation op = moves.v[i];
    MlirValue agg = mlirOperationGetOperand(op, 0);
    /* the kept extracts of `agg` so far: a list through `next` */
    MlirAttribute pos = mlirOperationGetAttributeByName(op, position);
    size_t k = (size_t)(uintptr_t)ir_ptrmap_find(&first_of, agg.ptr);
    while (k &&
           !mlirAttributeEqual(
               mlirOperationGetAttributeByName(moves.v[k - 1], position), pos))
      k = next[k - 1];
    if (k) {
      split_replace_result(op, mlirOperationGetResult(moves.v[k - 1], 0));
      split_erase(op);
      continue;
    }
    next[i] = (size_t)(uintptr_t)ir_ptrmap_find(&first_of, agg.ptr);
    ir_ptrmap_put(&first_of, agg.ptr, (void *)(uintptr_t)(i + 1));
    mlirOperationRemoveFromParent(op);
    if (mlirValueIsAOpResult(agg)) {
      MlirOperation def = mlirOpResultGetOwner(agg);
      mlirBlockInsertOwnedOperationAfter(mlirOperationGetBlock(def), def, op);
    } else {
      MlirBlock b = mlirBlockArgumentGetOwner(agg);
      mlirBlockInsertOwnedOperation(b, 0, op);
    }
  }
  free(moves.v);
  free(next);
  ir_ptrmap_free(&first_of);
}

/* The ABI entry for the presplit coroutine `func`, by its coro.id (the
 * switch entry when it has none of another ABI: coro_shape_collect then
 * reports what is wrong, an unknown llvm.coro.id.X included). Another ABI's
 * intrinsics in a coroutine are errors of coro_shape_collect. */
static const struct split_abi *abi_of(MlirOperation func) {
  for (struct ir_op_walk w = ir_op_walk_start(mlirOperationGetRegion(func, 0));
       ir_op_walk_next(&w);) {
    /* the first id decides (the shape finds a second one wrong) */
    enum coro_intr k = coro_intr_classify(w.op);
    if (k == CI_ID_RETCON || k == CI_ID_RETCON_ONCE)
      return &split_abi_retcon;
    if (k == CI_ID_ASYNC)
      return &split_abi_async;
    if (k == CI_ID)
      return &split_abi_switch;
  }
  return &split_abi_switch;
}

/* The shape, graph and crossing sets of `sp`'s coroutine again, after a
 * rewrite of its body. */
/* The alignment the frame's memory is known to have, 0 for any the layout
 * asks: the async context's; for a switch coroutine, what its llvm.coro.id
 * says the allocator guarantees (clang's __STDCPP_DEFAULT_NEW_ALIGNMENT__,
 * as LLVM's CoroFrame reads it; 0 from coro's own conversions, whose
 * frames are allocated as aligned as they ask). Fields aligned to more are
 * aligned at run time (frame_layout.h). */
static uint64_t frame_align_bound(const struct split *sp) {
  if (sp->shape.abi == CORO_SHAPE_ASYNC)
    return (uint64_t)sp->shape.buffer_align;
  int64_t align = 0;
  if (sp->shape.abi == CORO_SHAPE_SWITCH &&
      !mlirOperationIsNull(sp->shape.id) &&
      mlirOperationGetNumOperands(sp->shape.id) > 0 &&
      ir_const_int_value(mlirOperationGetOperand(sp->shape.id, 0), &align) &&
      align > 0)
    return (uint64_t)align;
  return 0;
}

/* The shape and the graph of the coroutine again, after a rewrite. */
static bool reshape(struct split *sp) {
  ir_cfg_free(&sp->cfg);
  sp->cfg = (struct ir_cfg){0};
  coro_shape_free(&sp->shape);
  if (!coro_shape_collect(&sp->shape, sp->func))
    return false;
  ir_cfg_build(&sp->cfg, mlirOperationGetRegion(sp->func, 0));
  return true;
}

/* The same, and the crossing sets. */
static bool recompute(struct split *sp) {
  suspend_crossing_free(&sp->crossing);
  return reshape(sp) && suspend_crossing_compute(&sp->crossing, &sp->shape,
                                                 &sp->cfg, sp->table, NULL);
}

/* Marks the way to the coroutine's end unlikely: a conditional branch
 * whose one side can still reach a suspension that is not final and whose
 * other side cannot (it goes on only to the end: the final suspension,
 * coro.end, a return) gets branch weights 2000:1 for the first side, as
 * __builtin_expect gives. A coroutine suspends many times and ends once;
 * without this, LLVM may place the suspending side out of line, and a
 * generator's resume then jumps on every value where a hand-written state
 * machine falls through (bench/run.sh, docs/route-b.md). Weights already
 * on a branch are left as they are. Every part copies the marks. */
static void weigh_end_paths(const struct split *sp) {
  const struct ir_cfg *g = &sp->cfg;
  bool *warm = ir_xcalloc(g->n + 1, sizeof *warm);
  size_t *work = ir_xmalloc((g->n + 1) * sizeof *work);
  size_t n = 0;
  for (size_t i = 0; i < sp->shape.nsusp; ++i) {
    if (sp->shape.susp[i].final)
      continue;
    size_t b =
        ir_cfg_index(g, mlirOperationGetBlock(sp->shape.susp[i].suspend));
    if (b != IR_CFG_NONE && !warm[b]) {
      warm[b] = true;
      work[n++] = b;
    }
  }
  while (n) {
    size_t b = work[--n];
    for (size_t q = g->pred_start[b]; q < g->pred_start[b + 1]; ++q)
      if (!warm[g->pred[q]]) {
        warm[g->pred[q]] = true;
        work[n++] = g->pred[q];
      }
  }
  MlirStringRef key = mlirStringRefCreateFromCString("branch_weights");
  for (size_t b = 0; b < g->n; ++b) {
    MlirOperation t = mlirBlockGetTerminator(g->block[b]);
    if (!warm[b] || mlirOperationIsNull(t) ||
        !coro_op_named(t, "llvm.cond_br") ||
        !mlirAttributeIsNull(mlirOperationGetAttributeByName(t, key)))
      continue;
    size_t s0 = ir_cfg_index(g, mlirOperationGetSuccessor(t, 0));
    size_t s1 = ir_cfg_index(g, mlirOperationGetSuccessor(t, 1));
    bool w0 = s0 != IR_CFG_NONE && warm[s0];
    bool w1 = s1 != IR_CFG_NONE && warm[s1];
    if (w0 == w1)
      continue;
    int32_t weights[2] = {w0 ? 2000 : 1, w1 ? 2000 : 1};
    mlirOperationSetAttributeByName(t, key,
                                    mlirDenseI32ArrayGet(sp->ctx, 2, weights));
  }
  free(warm);
  free(work);
}

bool split_coroutine(MlirOperation func, MlirSymbolTable table, bool elide,
                     uint64_t *size, uint64_t *align,
                     const struct split_abi **abi) {
  struct split sp = {.ctx = mlirOperationGetContext(func),
                     .module = mlirOperationGetParentOperation(func),
                     .table = table,
                     .func = func,
                     .loc = mlirOperationGetLocation(func)};
  /* with debug info (-g): ops the split makes sit at the coroutine's
   * position, never in its subprogram's scope (each clone gets its own:
   * frame_debug_attach) */
  sp.subprogram = frame_debug_subprogram(func);
  if (!mlirAttributeIsNull(sp.subprogram) &&
      mlirLocationFusedGetNumLocations(sp.loc) == 1)
    mlirLocationFusedGetLocations(sp.loc, &sp.loc);
  sp.ptr = ir_ptr_type(sp.ctx);
  sp.device = coro_module_is_device(sp.module);
  sp.i1 = ir_int_type(sp.ctx, 1);
  sp.i8 = ir_int_type(sp.ctx, 8);
  MlirStringRef nm = ir_sym_name(func);
  coro_str_append(&sp.name, nm.data, nm.length);
  sp.abi = *abi = abi_of(func);
  hoist_extracts(func);
  hoist_above_saves(func);
  promise_through_casts(func);
  if (sp.abi == &split_abi_switch)
    suspend_results_to_slots(func);
  if (!sp.abi->names_before_shape)
    coro_shape_normalize(func);
  /* the switch parts' names are known before the shape; the
   * continuations' need the number of suspensions */
  bool ok =
      (!sp.abi->names_before_shape || sp.abi->check_names(&sp, table, elide)) &&
      coro_shape_collect(&sp.shape, func) &&
      (sp.abi->names_before_shape || sp.abi->check_names(&sp, table, elide));
  if (ok) {
    ir_cfg_build(&sp.cfg, mlirOperationGetRegion(func, 0));
    /* llvm.coro.alloca.* become allocas or the allocator's calls */
    bool lowered = false;
    ok = split_coro_allocas(&sp, table, &lowered) && (!lowered || reshape(&sp));
    /* allocas of dynamic size across suspensions get heap memory the
     * frame owns; then everything is computed again */
    struct ir_opvec dynamic = {0};
    ok = ok && suspend_crossing_compute(&sp.crossing, &sp.shape, &sp.cfg,
                                        sp.table, &dynamic);
    if (ok && dynamic.n)
      ok = split_heap_allocas(&sp, table, &dynamic) && recompute(&sp);
    free(dynamic.v);
    /* what the ramp puts in memory before llvm.coro.begin (a by-value
     * parameter) is copied into the frame after it */
    bool copied = false;
    if (ok)
      ok = split_copy_in(&sp, &copied) && (!copied || recompute(&sp));
    /* large values made of smaller ones: their inputs are kept instead */
    if (ok && split_sink_chains(&sp))
      ok = recompute(&sp);
    ok = ok &&
         (remat_compute(&sp.remat, &sp.crossing, &sp.shape),
          frame_layout_compute(&sp.layout, &sp.crossing, sp.remat.iremat,
                               sp.shape.promise, sp.abi->frame_header,
                               frame_align_bound(&sp))) &&
         check_frame_allocas(&sp) && check_saves(&sp) &&
         (!sp.abi->prepare || sp.abi->prepare(&sp, table));
  }
  if (ok) {
    sp.idx = ir_int_type(sp.ctx, sp.layout.index_width);
    /* with debug info: the frame as gdb will show it */
    if (!mlirAttributeIsNull(sp.subprogram) && sp.abi->frame_debug_type)
      sp.frame_ty = frame_debug_type(
          sp.ctx, mlirStringRefCreate(sp.name.data, sp.name.len), &sp.layout,
          &sp.crossing, sp.shape.promise);
    weigh_end_paths(&sp);
    split_collect_keep(&sp);
    split_note_item_uses(&sp);
    ok = sp.abi->make_parts(&sp, table);
    if (ok && elide && sp.abi->elided_ramp)
      ok = split_make_elided(&sp, table);
    if (ok) {
      remark_frame(&sp);
      if (sp.abi->resume_in_place) {
        ok = split_resume_in_place(&sp);
      } else {
        struct variant_state ramp = {.sp = &sp, .v = V_RAMP, .fn = func};
        ok = split_rewrite_variant(&ramp);
      }
      coro_unmark_presplit(func);
      remark_split(&sp);
      /* a retcon frame lives in its control block's buffer: the retcon
       * conversion gives the control block's size */
      if (sp.device && sp.abi->device_frame_size)
        ok = coro_frame_size_global(
            sp.module, table, mlirStringRefCreate(sp.name.data, sp.name.len),
            sp.layout.size, sp.loc);
    }
  }
  *size = sp.layout.size;
  *align = sp.layout.align;
  frame_layout_free(&sp.layout);
  remat_free(&sp.remat);
  suspend_crossing_free(&sp.crossing);
  ir_cfg_free(&sp.cfg);
  coro_shape_free(&sp.shape);
  ir_ptrmap_free(&sp.keep);
  free(sp.pick_start);
  free(sp.pick.v);
  free(sp.use_start);
  free(sp.use_block);
  free(sp.use_flags);
  free(sp.flags.v);
  free(sp.consts.v);
  coro_str_free(&sp.name);
  return ok;
}
