/* pipeline.c - the lowering order of every route, in one place.
 *
 * Route A (CoroRouteLLVM), straight down:
 *   coro-verify                   the dialect's rules, before anything else
 *   [coro-misuse-checks]          the checked mode, when asked for
 *   lower-affine, convert-scf-to-cf  suspensions must sit in a CFG to be
 *                                 split (affine.for/if and scf regions)
 *   coro-elide                    which calls' frames live in their
 *                                 caller (unless no_elide); route B acts on
 *                                 it, route A leaves it to LLVM
 *   convert-vector-to-llvm        before the next: it merges blocks (of
 *                                 func.func only, as does the next)
 *   expand-strided-metadata, lower-affine  strided memref layouts
 *                                 (memref.subview) to offset arithmetic
 *   convert-coro-to-llvm-<abi>    one conversion per ABI (coro_abi_rows):
 *                                 coroutines get LLVM's coroutine intrinsics
 *   convert-complex-to-standard, convert-math-to-llvm,
 *   convert-complex-to-llvm       complex numbers (a struct of two parts)
 *   finalize-memref-to-llvm, convert-index-to-llvm,
 *   convert-arith-to-llvm, convert-cf-to-llvm, convert-func-to-llvm,
 *   reconcile-unrealized-casts    everything else to the LLVM dialect
 *   coro-check-lowered            a coroutine of an ABI left out is an error
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

#include <stddef.h>

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

/* A suspension may sit in affine.for/if (coro-verify allows it): affine
 * to scf, then scf to cf, so that it sits in a CFG (where coro-elide, run
 * next on the coro dialect, sees every path as a CFG edge). */
static void add_to_cf(struct coro_str *out) {
  add(out, "lower-affine");
  add(out, "convert-scf-to-cf");
}

/* The conversions of `only`'s ABI (every ABI when null), after `device`
 * (the device's rules, when not null), and of everything else to the LLVM
 * dialect, ending with the check that no coroutine is left. */
static void add_conversions(struct coro_str *out,
                            const struct coro_abi_row *only,
                            const char *device) {
  if (device)
    add(out, device);
  /* Before the coroutine conversions: its greedy driver merges identical
   * blocks, and two resume blocks that differ only in a memref they use
   * would become one block with a memref argument on the llvm.switch the
   * conversions emit, which no later conversion retypes. */
  /* Both run greedy rewrites, whose region simplification merges blocks
   * that differ only in their operands: on func.func only, so that an
   * llvm.func (LLVM IR input, a hand-written LLVM-dialect coroutine) keeps
   * its blocks as written (merged landing pads would end the lifetime of a
   * block argument, which LLVM rejects: markers go on allocas only). */
  add(out, "func.func(convert-vector-to-llvm)");
  /* strided layouts (memref.subview, live across a suspension or not)
   * become explicit offset arithmetic while memrefs are still memrefs
   * (before the conversions give coroutines LLVM's intrinsics); it makes
   * affine.apply */
  add(out, "func.func(expand-strided-metadata)");
  add(out, "lower-affine");
  for (const struct coro_abi_row *r = coro_abi_rows; r->abi; ++r)
    if (!only || only == r)
      add(out, r->conversion);
  /* complex numbers: their arithmetic to arith and math on the parts,
   * the parts to an LLVM struct (what the split keeps in a frame) */
  add(out, "convert-complex-to-standard");
  add(out, "convert-math-to-llvm");
  add(out, "convert-complex-to-llvm");
  add(out, "finalize-memref-to-llvm");
  add(out, "convert-index-to-llvm");
  add(out, "convert-arith-to-llvm");
  add(out, "convert-cf-to-llvm");
  add(out, "convert-func-to-llvm");
  add(out, "reconcile-unrealized-casts");
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
  add_to_cf(out);
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
  add_to_cf(out);
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
