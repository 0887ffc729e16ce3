/* convert_coro_to_nvvm.c - the GPU path: coroutines in kernels with no
 * device malloc and no indirect call.
 *
 * The device lowering is route B (coro's own split, which knows every
 * frame size) with three differences, which this pass makes sure of on the
 * coro dialect, after coro-elide:
 *
 *   - frames (and retcon control blocks) live in their callers: every
 *     call of a coroutine must be elided (coro-elide proved its handle
 *     local), or the coroutine takes
 *     its frames from the thread's arena (coro.alloc = "arena", arena.c:
 *     escaping handles, recursion); a frame that would need device malloc
 *     is a located error at the op that lets the handle escape, with
 *     coro-elide's reason;
 *   - dispatch is direct: coro-split calls NAME.resume / NAME.cleanup for a
 *     handle straight from the call that made it, and for a handle of
 *     unknown origin (a parameter, a value from memory) compares the
 *     header's function pointer with the module's parts and calls the one
 *     it is (split_consumers.c): no indirect call in the PTX;
 *   - no musttail (NVPTX has none): in a module marked coro.device the
 *     split's parts return the handle to run next (an awaited coroutine,
 *     an awaiter to continue) to a resume loop instead of tail-calling it,
 *     so an await chain of any depth runs in O(1) stack
 *     (CORO_DEVICE_RUN, coro_split.h).
 *
 * switch, retcon and retcon.once coroutines run on the device (a retcon
 * handle is its control block, which lives where a switch frame would, and
 * holds the frame in its buffer); async needs an executor the device has
 * not.
 *
 * gpu.thread_id, gpu.block_id, gpu.block_dim and gpu.grid_dim become the
 * NVVM special registers (as indices), so kernels and coroutines may use
 * them as they may use nvvm.read.ptx.sreg.* directly.
 *
 * Kernels: a func.func with the unit attribute gpu.kernel (not a coroutine
 * itself) becomes an llvm.func marked nvvm.kernel (coro-check-device marks
 * it, once it is one). Every other function with a body becomes
 * private: a device module is a closed world, and symbol-dce then drops
 * what no kernel reaches (the heap ramp NAME of an elided coroutine). The
 * module gets coro.device, which coro-split and coro-check-device read. */
#include "conversion/CoroToNVVM/convert_coro_to_nvvm.h"
#include "conversion/CoroToNVVM/arena.h"
#include "dialect/contract.h"
#include "dialect/dialect.h"
#include "dialect/handle_escape.h"
#include "dialect/handle_origin.h"
#include "ir/blocks.h"
#include "ir/builder.h"
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
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct device {
  MlirOperation module;
  struct handle_escape_cache cache;
  bool ok;
  bool have_arena; /* the arena's functions are in the module */
};

static void error_at(struct device *d, MlirOperation op, const char *a,
                     MlirStringRef name, const char *b, const char *c) {
  struct coro_str msg = {0};
  coro_str_appendz(&msg, a);
  coro_str_append(&msg, name.data, name.length);
  coro_str_appendz(&msg, b);
  if (c)
    coro_str_appendz(&msg, c);
  mlirEmitError(mlirOperationGetLocation(op), coro_str_cstr(&msg));
  coro_str_free(&msg);
  d->ok = false;
}

static bool has_attr(MlirOperation op, const char *name) {
  return !mlirAttributeIsNull(mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString(name)));
}

/* Whether `fn` takes its frames from the arena (coro.alloc = "arena",
 * rewritten to the arena's allocator pair by the time calls are seen). */
static bool arena_coroutine(MlirOperation fn) {
  MlirAttribute a = mlirOperationGetAttributeByName(
      fn, mlirStringRefCreateFromCString(CORO_ALLOC_FN_ATTR));
  return !mlirAttributeIsNull(a) && mlirAttributeIsAFlatSymbolRef(a) &&
         coro_ref_eq(mlirFlatSymbolRefAttrGetValue(a), CORO_ARENA_ALLOC);
}

/* coro.alloc = "arena" -> coro.alloc_fn/coro.free_fn of the arena (made
 * once, arena.c). */
static void use_arena(struct device *d, MlirOperation fn) {
  MlirAttribute a = mlirOperationGetAttributeByName(
      fn, mlirStringRefCreateFromCString(CORO_ALLOC_ATTR));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAString(a) ||
      !coro_ref_eq(mlirStringAttrGetValue(a), "arena"))
    return;
  if (!d->have_arena) {
    if (!coro_nvvm_make_arena(d->module, mlirOperationGetLocation(fn))) {
      d->ok = false;
      return;
    }
    d->have_arena = true;
  }
  MlirContext ctx = mlirOperationGetContext(fn);
  mlirOperationRemoveAttributeByName(
      fn, mlirStringRefCreateFromCString(CORO_ALLOC_ATTR));
  mlirOperationSetAttributeByName(
      fn, mlirStringRefCreateFromCString(CORO_ALLOC_FN_ATTR),
      mlirFlatSymbolRefAttrGet(
          ctx, mlirStringRefCreateFromCString(CORO_ARENA_ALLOC)));
  mlirOperationSetAttributeByName(
      fn, mlirStringRefCreateFromCString(CORO_FREE_FN_ATTR),
      mlirFlatSymbolRefAttrGet(
          ctx, mlirStringRefCreateFromCString(CORO_ARENA_FREE)));
}

/* Whether `fn` is a coroutine whose frame the device path can place: a
 * switch, retcon or retcon.once coroutine that does not ask for the heap
 * (check_coroutine reports the others at the coroutine, so their calls add
 * no error of their own). */
static bool device_frame(MlirOperation fn) {
  MlirStringRef abi = coro_coroutine_abi(fn);
  if (!coro_ref_eq(abi, "switch") && !coro_ref_eq(abi, "retcon") &&
      !coro_ref_eq(abi, "retcon.once"))
    return false;
  MlirAttribute a = mlirOperationGetAttributeByName(
      fn, mlirStringRefCreateFromCString(CORO_ALLOC_ATTR));
  return mlirAttributeIsNull(a) || !mlirAttributeIsAString(a) ||
         !coro_ref_eq(mlirStringAttrGetValue(a), "heap");
}

/* A call of a coroutine: its frame must live in its caller. */
static void check_call(struct device *d, MlirOperation call,
                       MlirOperation callee) {
  if (arena_coroutine(callee))
    return; /* its frame comes from the thread's arena */
  if (!device_frame(callee))
    return; /* check_coroutine reports the coroutine itself */
  MlirAttribute mark = mlirOperationGetAttributeByName(
      call, mlirStringRefCreateFromCString(CORO_ELIDED_ATTR));
  if (!mlirAttributeIsNull(mark) && mlirAttributeIsABool(mark) &&
      mlirBoolAttrGetValue(mark))
    return;
  const char *tail = " (the GPU path puts every frame in its caller, or in "
                     "the thread's arena with coro.alloc = \"arena\", and "
                     "never calls device malloc)";
  if (mlirAttributeIsNull(mark)) {
    error_at(d, call, "the frame of '", ir_sym_name(callee),
             "' would need device malloc: coro-elide has not decided this "
             "call (the pipeline coro-lower-nvvm runs it)",
             tail);
    return;
  }
  struct handle_escape why = {0};
  if (!handle_escape_call(&d->cache, call, callee, &why)) {
    struct coro_str msg = {0};
    coro_str_appendz(&msg, "' would need device malloc: ");
    coro_str_append(&msg, why.why.data, why.why.len);
    error_at(d, why.at, "the frame of '", ir_sym_name(callee),
             coro_str_cstr(&msg), tail);
    coro_str_free(&msg);
  } else {
    /* what is left of coro-elide's reasons: a cycle of nested frames */
    error_at(d, call, "the frame of '", ir_sym_name(callee),
             "' would need device malloc: the frames of recursive "
             "coroutines would nest in themselves",
             tail);
  }
  handle_escape_clear(&why);
}

static MlirWalkResult check_op(MlirOperation op, void *user) {
  struct device *d = user;
  if (coro_op_named(op, "func.call")) {
    MlirOperation callee =
        mlirOperationGetNumResults(op) == 1
            ? coro_handle_origin(d->module, mlirOperationGetResult(op, 0))
            : (MlirOperation){NULL};
    if (!mlirOperationIsNull(callee))
      check_call(d, op, callee);
  } else if (coro_op_named(op, "func.call_indirect")) {
    error_at(d, op, "'", coro_op_name(op),
             "' is not supported on the device (the GPU path emits no "
             "indirect call)",
             NULL);
  }
  return MlirWalkResultAdvance;
}

static void check_coroutine(struct device *d, MlirOperation fn) {
  MlirStringRef abi = coro_coroutine_abi(fn);
  if (coro_ref_eq(abi, "async")) {
    error_at(d, fn, "coro.abi = \"", abi,
             "\" cannot run on the device: its tasks need an executor, "
             "which the GPU path has none of",
             NULL);
    return;
  }
  MlirAttribute a = mlirOperationGetAttributeByName(
      fn, mlirStringRefCreateFromCString(CORO_ALLOC_ATTR));
  if (!mlirAttributeIsNull(a) && mlirAttributeIsAString(a)) {
    MlirStringRef kind = mlirStringAttrGetValue(a);
    if (coro_ref_eq(kind, "heap"))
      error_at(d, fn, "coro.alloc = \"", kind,
               "\" asks for device malloc, which the GPU path never calls",
               NULL);
  }
}

/* gpu.thread_id, gpu.block_id, gpu.block_dim and gpu.grid_dim in a
 * func.func (MLIR's convert-gpu-to-nvvm lowers them only in a gpu.module):
 * the NVVM special register, as an index. */
static const struct {
  const char *op, *sreg;
} gpu_ids[] = {{"gpu.thread_id", "tid"},
               {"gpu.block_id", "ctaid"},
               {"gpu.block_dim", "ntid"},
               {"gpu.grid_dim", "nctaid"}};

static MlirWalkResult collect_gpu_ids(MlirOperation op, void *user) {
  for (size_t i = 0; i < sizeof gpu_ids / sizeof gpu_ids[0]; ++i)
    if (coro_op_named(op, gpu_ids[i].op))
      ir_opvec_push(user, op);
  return MlirWalkResultAdvance;
}

static void lower_gpu_ids(MlirOperation module) {
  struct ir_opvec ops = {0};
  mlirOperationWalk(module, collect_gpu_ids, &ops, MlirWalkPreOrder);
  for (size_t k = 0; k < ops.n; ++k) {
    MlirOperation op = ops.v[k];
    const char *sreg = NULL;
    for (size_t i = 0; i < sizeof gpu_ids / sizeof gpu_ids[0]; ++i)
      if (coro_op_named(op, gpu_ids[i].op))
        sreg = gpu_ids[i].sreg;
    /* the dimension attribute prints as #gpu<dim x> */
    struct coro_str dim = {0};
    mlirAttributePrint(mlirOperationGetAttributeByName(
                           op, mlirStringRefCreateFromCString("dimension")),
                       coro_str_callback, &dim);
    char axis = dim.len >= 2 ? dim.data[dim.len - 2] : 'x';
    coro_str_free(&dim);
    char name[48];
    snprintf(name, sizeof name, "nvvm.read.ptx.sreg.%s.%c", sreg, axis);
    struct ir_builder b = ir_before(op);
    MlirValue r = ir_val(&b, name, 0, NULL, ir_int_type(b.ctx, 32));
    MlirValue i = ir_val(&b, "arith.index_castui", 1, &r,
                         mlirValueGetType(mlirOperationGetResult(op, 0)));
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), i);
    mlirOperationDestroy(op);
  }
  free(ops.v);
}

MlirLogicalResult coro_convert_to_nvvm_run(MlirOperation module) {
  MlirContext ctx = mlirOperationGetContext(module);
  struct device d = {.module = module, .cache = {.module = module}, .ok = true};
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  /* MLIR's GPU form reaches the pipeline only through coroLowerForDevice
   * (coro-translate --emit=ptx), which makes the gpu.module the module */
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (coro_op_named(op, "gpu.module"))
      error_at(&d, op, "", mlirStringRefCreate("", 0),
               "a gpu.module: the device pipeline lowers a device module "
               "(kernels marked gpu.kernel at its top level); "
               "coro-translate --emit=ptx lowers a module's gpu.module",
               NULL);
  if (!d.ok)
    return mlirLogicalResultFailure();
  for (MlirOperation fn = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(fn); fn = mlirOperationGetNextInBlock(fn))
    if (coro_op_named(fn, "func.func") && coro_op_is_coroutine(fn))
      use_arena(&d, fn);
  for (MlirOperation fn = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(fn); fn = mlirOperationGetNextInBlock(fn)) {
    if (!coro_op_named(fn, "func.func"))
      continue;
    bool kernel = has_attr(fn, "gpu.kernel");
    MlirAttribute fty = mlirOperationGetAttributeByName(
        fn, mlirStringRefCreateFromCString("function_type"));
    if (kernel && coro_op_is_coroutine(fn))
      error_at(&d, fn, "the kernel '", ir_sym_name(fn),
               "' cannot be a coroutine itself: call coroutines from it", NULL);
    else if (kernel && !mlirAttributeIsNull(fty) &&
             mlirFunctionTypeGetNumResults(mlirTypeAttrGetValue(fty)) > 0)
      error_at(&d, fn, "the kernel '", ir_sym_name(fn),
               "' returns a value, which a kernel cannot (the launch has "
               "nowhere to put it): store its results through a pointer "
               "argument",
               NULL);
    else if (coro_op_is_coroutine(fn))
      check_coroutine(&d, fn);
    mlirOperationWalk(fn, check_op, &d, MlirWalkPreOrder);
    if (!kernel && !mlirBlockIsNull(mlirRegionGetFirstBlock(
                       mlirOperationGetRegion(fn, 0)))) {
      mlirOperationSetAttributeByName(
          fn, mlirStringRefCreateFromCString("sym_visibility"),
          mlirStringAttrGet(ctx, mlirStringRefCreateFromCString("private")));
    }
  }
  handle_escape_cache_free(&d.cache);
  lower_gpu_ids(module);
  mlirOperationSetAttributeByName(
      module, mlirStringRefCreateFromCString(CORO_DEVICE_ATTR),
      mlirUnitAttrGet(ctx));
  return d.ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

static bool allocator(MlirStringRef callee) {
  static const char *const names[] = {"malloc", "free", "calloc", "realloc",
                                      "aligned_alloc"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
    if (coro_ref_eq(callee, names[i]))
      return true;
  return false;
}

/* The closed world of a device module: the symbols the kernels reach. */
struct reach {
  MlirOperation module;
  struct ir_ptrmap seen; /* symbol op -> 1 */
  struct ir_opvec work;
};

static void reach_symbol(struct reach *r, MlirAttribute a) {
  if (!mlirAttributeIsAFlatSymbolRef(a))
    return;
  MlirOperation op =
      coro_lookup_symbol(r->module, mlirFlatSymbolRefAttrGetValue(a));
  if (mlirOperationIsNull(op) || ir_ptrmap_find(&r->seen, op.ptr))
    return;
  ir_ptrmap_put(&r->seen, op.ptr, (void *)1);
  ir_opvec_push(&r->work, op);
}

static MlirWalkResult reach_refs(MlirOperation op, void *user) {
  struct reach *r = user;
  for (intptr_t i = 0; i < mlirOperationGetNumAttributes(op); ++i)
    reach_symbol(r, mlirOperationGetAttribute(op, i).attribute);
  return MlirWalkResultAdvance;
}

/* Whether `op` is for the host, kept though no kernel reaches it: a frame
 * size (NAME_frame_size) or the arena's globals. */
static bool host_facing(MlirOperation op) {
  if (!coro_op_named(op, "llvm.mlir.global"))
    return false;
  MlirStringRef n = ir_sym_name(op);
  size_t k = strlen(CORO_FRAME_SIZE_SUFFIX);
  return (n.length > k &&
          !memcmp(n.data + n.length - k, CORO_FRAME_SIZE_SUFFIX, k)) ||
         coro_ref_eq(n, CORO_ARENA_GLOBAL) ||
         coro_ref_eq(n, CORO_ARENA_SIZE_GLOBAL);
}

/* Erases every llvm.func and llvm.mlir.global no kernel reaches (the heap
 * ramps of elided coroutines, their destroy functions, the allocators'
 * declarations), but the frame sizes and the arena's globals, which are
 * the host's. */
static void drop_unreached(MlirOperation module) {
  struct reach r = {.module = module};
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation fn = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(fn); fn = mlirOperationGetNextInBlock(fn))
    if (coro_op_named(fn, "llvm.func") && has_attr(fn, "nvvm.kernel")) {
      ir_ptrmap_put(&r.seen, fn.ptr, (void *)1);
      ir_opvec_push(&r.work, fn);
    }
  while (r.work.n) {
    MlirOperation op = r.work.v[--r.work.n];
    mlirOperationWalk(op, reach_refs, &r, MlirWalkPreOrder);
  }
  for (MlirOperation fn = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(fn);) {
    MlirOperation next = mlirOperationGetNextInBlock(fn);
    if ((coro_op_named(fn, "llvm.func") ||
         coro_op_named(fn, "llvm.mlir.global")) &&
        !ir_ptrmap_find(&r.seen, fn.ptr) && !host_facing(fn))
      ir_symbol_erase(fn);
    fn = next;
  }
  free(r.work.v);
  ir_ptrmap_free(&r.seen);
}

static void check_call_op(struct device *d, MlirOperation op) {
  MlirAttribute sym = ir_callee_attr(op);
  if (mlirAttributeIsNull(sym))
    error_at(d, op, "an indirect call is left in the device code",
             mlirStringRefCreate("", 0),
             " (the GPU path calls every coroutine part directly)", NULL);
  else if (allocator(mlirFlatSymbolRefAttrGetValue(sym)))
    error_at(d, op, "a call of '", mlirFlatSymbolRefAttrGetValue(sym),
             "' is left in the device code (the GPU path never uses device "
             "malloc)",
             NULL);
}

/* The width of `t` when it is a float the NVPTX backend cannot compute
 * with (f80, f128: LLVM lowers their arithmetic to library calls the GPU
 * has none of), else 0. */
static unsigned wide_float(MlirType t) {
  if (!mlirTypeIsAFloat(t))
    return 0;
  unsigned w = mlirFloatTypeGetWidth(t);
  return w == 80 || w == 128 ? w : 0;
}

/* Arithmetic, comparisons and conversions on f80 or f128 (what LLVM's
 * NVPTX backend stops at with "unsupported library call operation"). */
static void check_float_op(struct device *d, MlirOperation op) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  if (coro_op_named(op, "llvm.load") || coro_op_named(op, "llvm.store") ||
      !(coro_ref_starts_with(n, "llvm.f") ||
        coro_ref_starts_with(n, "llvm.sitofp") ||
        coro_ref_starts_with(n, "llvm.uitofp") ||
        coro_ref_starts_with(n, "llvm.intr.")))
    return;
  unsigned w = 0;
  for (intptr_t i = 0; !w && i < mlirOperationGetNumResults(op); ++i)
    w = wide_float(mlirValueGetType(mlirOperationGetResult(op, i)));
  for (intptr_t i = 0; !w && i < mlirOperationGetNumOperands(op); ++i)
    w = wide_float(mlirValueGetType(mlirOperationGetOperand(op, i)));
  if (w)
    error_at(d, op, "'", n,
             w == 80 ? "' computes with f80, which the NVPTX backend cannot "
                       "lower (the GPU has no 80-bit floating point): use f64"
                     : "' computes with f128, which the NVPTX backend cannot "
                       "lower (no library for it on the GPU): use f64",
             NULL);
}

/* Checks the calls in the blocks of `fn` that can run: from the entry,
 * along the branches whose conditions are not constants (the split leaves
 * some decided, e.g. a frame free behind the destroy flag it reads as
 * false; LLVM's simplifycfg drops them). */
static void check_function(struct device *d, MlirOperation fn) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0));
  if (mlirBlockIsNull(entry))
    return;
  struct ir_ptrmap seen = {0};
  struct ir_blockvec work = {0};
  ir_blockvec_push(&work, entry);
  ir_ptrmap_put(&seen, entry.ptr, (void *)1);
  while (work.n) {
    MlirBlock b = work.v[--work.n];
    for (MlirOperation op = mlirBlockGetFirstOperation(b);
         !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
      if (coro_op_named(op, "llvm.call"))
        check_call_op(d, op);
      else
        check_float_op(d, op);
    MlirOperation term = mlirBlockGetTerminator(b);
    if (mlirOperationIsNull(term))
      continue;
    intptr_t taken = mlirOperationGetNumSuccessors(term) > 1
                         ? ir_branch_target(mlirBlockGetFirstOperation(b))
                         : -1;
    for (intptr_t i = 0; i < mlirOperationGetNumSuccessors(term); ++i) {
      MlirBlock s = mlirOperationGetSuccessor(term, i);
      if ((taken >= 0 && i != taken) || ir_ptrmap_find(&seen, s.ptr))
        continue;
      ir_ptrmap_put(&seen, s.ptr, (void *)1);
      ir_blockvec_push(&work, s);
    }
  }
  free(work.v);
  ir_ptrmap_free(&seen);
}

MlirLogicalResult coro_check_device_run(MlirOperation module) {
  if (!coro_module_is_device(module))
    return mlirLogicalResultSuccess();
  struct device d = {.module = module, .ok = true};
  MlirContext ctx = mlirOperationGetContext(module);
  /* the kernels, now llvm.funcs: NVVM's mark (only an llvm.func takes it) */
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation fn = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(fn); fn = mlirOperationGetNextInBlock(fn))
    if (coro_op_named(fn, "llvm.func") && has_attr(fn, "gpu.kernel")) {
      mlirOperationRemoveAttributeByName(
          fn, mlirStringRefCreateFromCString("gpu.kernel"));
      mlirOperationSetAttributeByName(
          fn, mlirStringRefCreateFromCString("nvvm.kernel"),
          mlirUnitAttrGet(ctx));
    }
  drop_unreached(module);
  for (MlirOperation fn = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(fn); fn = mlirOperationGetNextInBlock(fn)) {
    if (!coro_op_named(fn, "llvm.func"))
      continue;
    check_function(&d, fn);
    /* a closed world: every function with a body but the kernels is
     * internal, which also lets NVPTX rename the dots of the coroutines'
     * parts (PTX names hold none) */
    if (!has_attr(fn, "nvvm.kernel") && !mlirBlockIsNull(ir_func_entry(fn))) {
      mlirOperationSetAttributeByName(
          fn, mlirStringRefCreateFromCString("linkage"),
          mlirLLVMLinkageAttrGet(ctx, MlirLLVMLinkageInternal));
      mlirOperationRemoveAttributeByName(
          fn, mlirStringRefCreateFromCString("sym_visibility"));
    }
  }
  mlirOperationSetAttributeByName(
      module, mlirStringRefCreateFromCString("llvm.target_triple"),
      mlirStringAttrGet(ctx,
                        mlirStringRefCreateFromCString("nvptx64-nvidia-cuda")));
  return d.ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}
