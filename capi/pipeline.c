/* pipeline.c - the lowering order of every route, in one place.
 *
 * Route A (CoroRouteLLVM), straight down:
 *   coro-verify                   the dialect's rules, before anything else
 *   [coro-misuse-checks]          the checked mode, when asked for
 *   coro-regions-to-cf            suspensions must sit in a CFG to be
 *                                 split: lower-affine, convert-scf-to-cf
 *                                 (affine.for/if and scf regions)
 *   coro-elide                    which calls' frames live in their
 *                                 caller (unless no_elide); route B acts on
 *                                 it, route A leaves it to LLVM
 *   coro-lower-vectors-and-strides  convert-vector-to-llvm (it merges
 *                                 blocks: before the next, on func.func
 *                                 only), expand-strided-metadata and
 *                                 lower-affine: strided memref layouts
 *                                 (memref.subview) to offset arithmetic
 *   coro-abis-to-llvm             convert-coro-to-llvm-<abi>, one
 *                                 conversion per ABI (coro_abi_rows) whose
 *                                 coroutines the module has (every one in
 *                                 a module without coroutines; coro-lower-
 *                                 <abi> names its conversion instead):
 *                                 coroutines get LLVM's coroutine intrinsics
 *   coro-rest-to-llvm             everything else to the LLVM dialect:
 *                                 convert-complex-to-standard,
 *                                 convert-math-to-llvm,
 *                                 convert-complex-to-llvm (complex numbers,
 *                                 a struct of two parts),
 *                                 finalize-memref-to-llvm,
 *                                 convert-index-to-llvm,
 *                                 convert-to-llvm{filter-dialects=arith,cf}
 *                                 (convert-arith-to-llvm and
 *                                 convert-cf-to-llvm in one walk),
 *                                 convert-func-to-llvm,
 *                                 reconcile-unrealized-casts
 *   coro-check-lowered            a coroutine of an ABI left out is an error
 * The four stages (coro-regions-to-cf, coro-lower-vectors-and-strides,
 * coro-abis-to-llvm, coro-rest-to-llvm) are passes that look at the module
 * when they run and run, nested in them, only those of the passes above
 * that the module needs (upstream's, by the dialects it has ops of:
 * stage_row; coro's, by its coroutines' ABIs): each of those walks the
 * whole module, with nothing to convert in a module without them (at
 * 10,000 small coroutines, upstream's took 3.8 of the pipeline's 16
 * seconds, and each coroutine conversion after the switch one 1% of it).
 * then, outside MLIR, LLVM's CoroEarly/CoroSplit/CoroElide/CoroCleanup
 * (coroTranslateToLLVMIR, the JIT).
 *
 * Route B (CoroRouteMLIRSplit) is route A followed by coro's own
 *   coro-split                    ramp/resume/destroy/cleanup and an
 *                                 explicit frame, in MLIR (transforms/)
 * so LLVM's coroutine passes find nothing left to do.
 * Options (CoroLowerOptions): coro-misuse-checks after coro-verify (the
 * checked mode); coro-debug-info before any split (-g).
 * Adding an ABI is one row of coro_abi_rows (and its pass row in
 * passes.c). */
#include "capi/pipeline.h"

#include "capi/registry.h"
#include "dialect/dialect.h"
#include "dialect/handle_origin.h"
#include "ir/func.h"
#include "ir/parallel.h"
#include "ir/support.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

const struct coro_abi_row coro_abi_rows[] = {
    {"switch", "convert-coro-to-llvm-switch", "coro-lower-switch"},
    {"retcon", "convert-coro-to-llvm-retcon", "coro-lower-retcon"},
    {"retcon.once", "convert-coro-to-llvm-retcon-once",
     "coro-lower-retcon-once"},
    {"async", "convert-coro-to-llvm-async", "coro-lower-async"},
    {NULL, NULL, NULL}};

const struct coro_abi_row *coro_abi_row_find(MlirStringRef abi) {
  for (const struct coro_abi_row *r = coro_abi_rows; r->abi; ++r)
    if (coro_ref_eq(abi, r->abi))
      return r;
  return NULL;
}

static void add(struct coro_str *out, const char *pass) {
  if (out->len)
    coro_str_appendz(out, ",");
  coro_str_appendz(out, pass);
}

/*===-- Stages: upstream's conversions of the dialects a module has ------===*/

/* The dialects whose ops decide which of upstream's passes a stage runs. */
enum {
  D_AFFINE = 1 << 0,
  D_SCF = 1 << 1,
  D_VECTOR = 1 << 2,
  D_MEMREF = 1 << 3,
  D_COMPLEX = 1 << 4,
  D_MATH = 1 << 5,
  D_INDEX = 1 << 6,
  D_ALL = (1 << 7) - 1
};

static const struct {
  const char *ns;
  unsigned bit;
} stage_dialects[] = {
    {"affine", D_AFFINE}, {"scf", D_SCF},         {"vector", D_VECTOR},
    {"memref", D_MEMREF}, {"complex", D_COMPLEX}, {"math", D_MATH},
    {"index", D_INDEX},
};

/* The bit of the dialect of an op named `name` (0 for the others). */
static unsigned dialect_bit(MlirStringRef name) {
  const char *dot = memchr(name.data, '.', name.length);
  size_t len = dot ? (size_t)(dot - name.data) : name.length;
  for (size_t i = 0; i < sizeof stage_dialects / sizeof *stage_dialects; ++i)
    if (strlen(stage_dialects[i].ns) == len &&
        memcmp(stage_dialects[i].ns, name.data, len) == 0)
      return stage_dialects[i].bit;
  return 0;
}

struct dialect_scan {
  unsigned used;
  const void *last; /* the op name seen last (ops of one name share it) */
  const void *module_name; /* builtin.module's, once seen */
  unsigned modules;        /* builtin.module and gpu.module ops, the root too */
  bool adds_symbols; /* an op whose lowering adds to the module (cf.assert) */
  const void *func_name; /* func.func's, once seen */
  bool bare_ptr; /* a func.func with llvm.bareptr, which its callers look up */
};

static MlirWalkResult scan_op(MlirOperation op, void *userData) {
  struct dialect_scan *scan = userData;
  MlirIdentifier name = mlirOperationGetName(op);
  if (name.ptr == scan->module_name) /* each builtin.module, not one */
    ++scan->modules;
  if (!scan->func_name && coro_ref_eq(mlirIdentifierStr(name), "func.func"))
    scan->func_name = name.ptr;
  if (name.ptr == scan->func_name) /* each func.func, the first too */
    scan->bare_ptr |= !mlirAttributeIsNull(mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("llvm.bareptr")));
  if (name.ptr == scan->last)
    return MlirWalkResultAdvance;
  scan->last = name.ptr;
  MlirStringRef str = mlirIdentifierStr(name);
  scan->used |= dialect_bit(str);
  if (!scan->module_name && coro_ref_eq(str, "builtin.module")) {
    scan->module_name = name.ptr;
    ++scan->modules;
  }
  if (coro_ref_eq(str, "gpu.module"))
    ++scan->modules;
  scan->adds_symbols |= coro_ref_eq(str, "cf.assert");
  return scan->used == D_ALL ? MlirWalkResultInterrupt : MlirWalkResultAdvance;
}

/* The scan of a module's top-level ops in pieces on MLIR's threads (it
 * only reads), each piece with its own. */
struct scan_pieces {
  struct ir_pieces pieces;
  struct dialect_scan *scan; /* per piece */
};

static void scan_piece(size_t k, void *user) {
  struct scan_pieces *s = user;
  size_t begin, end;
  ir_piece(&s->pieces, k, &begin, &end);
  for (size_t i = begin; i < end && s->scan[k].used != D_ALL; ++i)
    mlirOperationWalk(s->pieces.op[i], scan_op, &s->scan[k], MlirWalkPreOrder);
}

/* What of stage_dialects has an op in `module` (all of them for a null
 * module: a stage then lists every pass it may run). */
static struct dialect_scan dialects_used(MlirOperation module) {
  struct dialect_scan scan = {0, NULL, NULL, 0, false, NULL, false};
  if (mlirOperationIsNull(module)) {
    scan.used = D_ALL;
    return scan;
  }
  /* the module itself, then its ops */
  scan_op(module, &scan);
  struct scan_pieces s = {0};
  ir_top_pieces_init(&s.pieces, module);
  s.scan = ir_xcalloc(s.pieces.n + 1, sizeof *s.scan);
  ir_parallel_for(mlirOperationGetContext(module), s.pieces.n, scan_piece, &s);
  for (size_t k = 0; k < s.pieces.n; ++k) {
    scan.used |= s.scan[k].used;
    scan.modules += s.scan[k].modules;
    scan.adds_symbols |= s.scan[k].adds_symbols;
    scan.bare_ptr |= s.scan[k].bare_ptr;
  }
  free(s.scan);
  free(s.pieces.op);
  return scan;
}

/* One of upstream's passes in a stage, and the dialects that make it run:
 * those whose ops it lowers, and those an earlier pass of the stage lowers
 * into them. 0: it always runs. */
struct stage_row {
  const char *pass;
  unsigned when;
};

/* The passes of `rows` that `module` needs, as a malloc'd textual
 * pipeline (coro_stage_info's choose); `*scan` what `module` has. */
static char *choose_rows(const struct stage_row *rows, MlirOperation module,
                         struct dialect_scan *scan) {
  *scan = dialects_used(module);
  struct coro_str out = {0};
  for (const struct stage_row *r = rows; r->pass; ++r)
    if (!r->when || (r->when & scan->used))
      add(&out, r->pass);
  return out.data ? out.data : ir_xcalloc(1, 1);
}

/* A suspension may sit in affine.for/if (coro-verify allows it): affine
 * to scf, then scf to cf, so that it sits in a CFG (where coro-elide, run
 * next on the coro dialect, sees every path as a CFG edge). */
static const struct stage_row regions_rows[] = {
    {"lower-affine", D_AFFINE},
    {"convert-scf-to-cf", D_SCF | D_AFFINE},
    {NULL, 0}};

/* Before the coroutine conversions. convert-vector-to-llvm first: its
 * greedy driver merges identical blocks, and two resume blocks that differ
 * only in a memref they use would become one block with a memref argument
 * on the llvm.switch the conversions emit, which no later conversion
 * retypes. Both it and expand-strided-metadata run greedy rewrites, whose
 * region simplification merges blocks that differ only in their operands:
 * on func.func only, so that an llvm.func (LLVM IR input, a hand-written
 * LLVM-dialect coroutine) keeps its blocks as written (merged landing pads
 * would end the lifetime of a block argument, which LLVM rejects: markers
 * go on allocas only). Strided layouts (memref.subview, live across a
 * suspension or not) become explicit offset arithmetic while memrefs are
 * still memrefs (before the conversions give coroutines LLVM's
 * intrinsics); that makes affine.apply, which lower-affine lowers. */
static const struct stage_row strides_rows[] = {
    {"func.func(convert-vector-to-llvm)", D_VECTOR},
    {"func.func(expand-strided-metadata)", D_MEMREF},
    {"lower-affine", D_AFFINE | D_MEMREF},
    {NULL, 0}};

/* arith and cf in one conversion: MLIR's convert-to-llvm with the patterns
 * of those two dialects alone, the patterns convert-arith-to-llvm and
 * convert-cf-to-llvm run (the same output), in one walk of the module
 * instead of two (at 10,000 small coroutines 1.2 s instead of 1.9 s on
 * one thread). func stays apart: convert-to-llvm gives its call lowering
 * no symbol table, so each call looks its callee up by a scan of the
 * module. A context whose arith or cf dialect lacks the interface
 * convert-to-llvm asks for (registered by MLIR's extensions, which
 * coroDialectLoad registers) gets the two passes (choose_rest). */
#define ARITH_CF_TO_LLVM "convert-to-llvm{filter-dialects=arith,cf}"
static const char *const arith_cf_apart = "convert-arith-to-llvm,"
                                          "convert-cf-to-llvm";

/* After the coroutine conversions, everything else to the LLVM dialect.
 * Complex numbers: their arithmetic to arith and math on the parts, the
 * parts to an LLVM struct (what the split keeps in a frame). arith, cf and
 * func always (every module has them, and the conversions before make
 * them); the type converter of each retypes memref, complex and index
 * values in the ops it converts, with or without their dialect's ops. */
static const struct stage_row rest_rows[] = {
    {"convert-complex-to-standard", D_COMPLEX},
    {"convert-math-to-llvm", D_MATH | D_COMPLEX},
    {"convert-complex-to-llvm", D_COMPLEX},
    {"finalize-memref-to-llvm", D_MEMREF},
    {"convert-index-to-llvm", D_INDEX},
    {ARITH_CF_TO_LLVM, 0},
    {"convert-func-to-llvm", 0},
    {"reconcile-unrealized-casts", 0},
    {NULL, 0}};

static char *choose_regions(MlirOperation module, bool *in_pieces) {
  struct dialect_scan scan;
  return choose_rows(regions_rows, module, &scan);
}
static char *choose_strides(MlirOperation module, bool *in_pieces) {
  struct dialect_scan scan;
  return choose_rows(strides_rows, module, &scan);
}
/* arith, cf and func alone convert each function's ops without looking at
 * another function and add nothing to the module, so a module of them
 * alone, without nested modules, may be converted in pieces; but not with
 * a cf.assert (its lowering adds a declaration and its message's global)
 * or a func.func marked llvm.bareptr (a call's lowering looks its callee
 * up for that mark, which another piece would not find). */
static char *choose_rest(MlirOperation module, bool *in_pieces) {
  struct dialect_scan scan;
  char *chosen = choose_rows(rest_rows, module, &scan);
  *in_pieces = !mlirOperationIsNull(module) && !scan.used &&
               scan.modules == 1 && !scan.adds_symbols && !scan.bare_ptr;
  MlirContext ctx = mlirOperationIsNull(module)
                        ? (MlirContext){NULL}
                        : mlirOperationGetContext(module);
  if (ctx.ptr && coro_dialect_converts_to_llvm(ctx, "arith") &&
      coro_dialect_converts_to_llvm(ctx, "cf"))
    return chosen;
  /* the two passes in place of convert-to-llvm (a null module: every pass
   * the stage may run, both ways) */
  struct coro_str out = {0};
  const char *at = strstr(chosen, ARITH_CF_TO_LLVM);
  coro_str_append(&out, chosen, (size_t)(at - chosen));
  if (mlirOperationIsNull(module))
    coro_str_appendz(&out, ARITH_CF_TO_LLVM ",");
  coro_str_appendz(&out, arith_cf_apart);
  coro_str_appendz(&out, at + strlen(ARITH_CF_TO_LLVM));
  free(chosen);
  return out.data;
}

const struct coro_stage_info coro_stage_regions = {
    "coro-regions-to-cf", "CoroRegionsToCF",
    "Affine and scf regions to cf, as the module needs: lower-affine and "
    "convert-scf-to-cf when it has affine or scf ops (a stage of the "
    "coro-lower pipelines)",
    choose_regions};
const struct coro_stage_info coro_stage_strides = {
    "coro-lower-vectors-and-strides", "CoroLowerVectorsAndStrides",
    "Before the coroutine conversions, as the module needs: "
    "convert-vector-to-llvm on func.func when it has vector ops, "
    "expand-strided-metadata on func.func and lower-affine when it has "
    "memref or affine ops (a stage of the coro-lower pipelines)",
    choose_strides};
const struct coro_stage_info coro_stage_rest = {
    "coro-rest-to-llvm", "CoroRestToLLVM",
    "After the coroutine conversions, every other dialect to the LLVM "
    "dialect: upstream's complex, math, memref and index conversions when "
    "the module has ops of theirs, then arith, cf and func, and "
    "reconcile-unrealized-casts (a stage of the coro-lower pipelines)",
    choose_rest};

/*===-- Stage: the coroutine conversions of the ABIs a module uses --------===*/

struct abi_scan {
  unsigned used; /* bit i: coro_abi_rows[i] has a coroutine */
  bool unknown;  /* a coroutine of an ABI no row names */
};

/* Top-level functions only: a coroutine is a func.func, and its ABI is its
 * own attribute (nested modules are walked into). */
static void scan_abi(MlirStringRef abi, void *userData) {
  struct abi_scan *scan = userData;
  const struct coro_abi_row *r = coro_abi_row_find(abi);
  if (r)
    scan->used |= 1u << (r - coro_abi_rows);
  else
    scan->unknown = true;
}

/* The conversions of the ABIs whose coroutines `module` has, in
 * coro_abi_rows order. A module with none (consumers of handles made
 * elsewhere), or one with a coroutine of an ABI no row names, gets every
 * conversion, as the pipeline of the four passes would run them: each
 * conversion lowers the consumers of a module without coroutines, and
 * coro-check-lowered names what is left. In a module of switch coroutines
 * the other three would each walk every op to find nothing, since the
 * switch conversion has lowered the coroutines they would look for. */
static char *choose_abis(MlirOperation module, bool *in_pieces) {
  struct abi_scan scan = {0, false};
  if (!mlirOperationIsNull(module))
    coro_each_coroutine_abi(module, scan_abi, &scan);
  struct coro_str out = {0};
  for (const struct coro_abi_row *r = coro_abi_rows; r->abi; ++r)
    if (!scan.used || scan.unknown || (scan.used & 1u << (r - coro_abi_rows)))
      add(&out, r->conversion);
  return out.data ? out.data : ir_xcalloc(1, 1);
}

const struct coro_stage_info coro_stage_abis = {
    "coro-abis-to-llvm", "CoroABIsToLLVM",
    "The coroutine conversions of the ABIs the module's coroutines use, in "
    "the order convert-coro-to-llvm-switch, -retcon, -retcon-once, -async "
    "(all four in a module without coroutines) (a stage of the coro-lower "
    "and coro-lower-nvvm pipelines)",
    choose_abis};

/* The conversions of `only`'s ABI (every ABI when null), after `device`
 * (the device's rules, when not null), and of everything else to the LLVM
 * dialect, ending with the check that no coroutine is left. */
static void add_conversions(struct coro_str *out,
                            const struct coro_abi_row *only,
                            const char *device) {
  if (device)
    add(out, device);
  add(out, coro_stage_strides.argument);
  add(out, only ? only->conversion : coro_stage_abis.argument);
  add(out, coro_stage_rest.argument);
  add(out, "coro-check-lowered");
}

bool coro_pipeline_route(struct coro_str *out, const CoroLowerOptions *opts,
                         const struct coro_abi_row *only) {
  CoroRoute route = opts->route;
  if (route != CoroRouteLLVM && route != CoroRouteMLIRSplit)
    return false;
  add(out, "coro-verify");
  if (opts->checked)
    add(out, "coro-misuse-checks");
  add(out, coro_stage_regions.argument);
  if (!opts->no_elide)
    add(out, "coro-elide");
  add_conversions(out, only, NULL);
  /* before the split: coro-split derives its clones' subprograms and
   * describes the frame, as LLVM's CoroSplit does under route A */
  if (opts->debug_info)
    add(out, "coro-debug-info");
  if (route == CoroRouteMLIRSplit)
    add(out, "coro-split");
  return true;
}

void coro_pipeline_nvvm_presplit(struct coro_str *out) {
  add(out, "coro-verify");
  add(out, coro_stage_regions.argument);
  /* frames in their callers, checked for the device before lowering */
  add(out, "coro-elide");
  /* every ABI's conversion: convert-coro-to-nvvm has rejected async */
  add_conversions(out, NULL, "convert-coro-to-nvvm");
}

void coro_pipeline_nvvm_split(struct coro_str *out) {
  /* route B: the split knows every frame size and calls parts directly;
   * then what no kernel reaches goes and what is left is checked */
  add(out, "coro-split");
  add(out, "coro-check-device");
}

void coro_pipeline_nvvm(struct coro_str *out) {
  coro_pipeline_nvvm_presplit(out);
  coro_pipeline_nvvm_split(out);
}
