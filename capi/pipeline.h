/* pipeline.h - the lowering order of every route, in one place (private to
 * the library). The named pipelines (passes.c), coroLowerToLLVMDialect and
 * the tools all take their pass lists from here. */
#ifndef CORO_CAPI_PIPELINE_H
#define CORO_CAPI_PIPELINE_H

#include "coro-c/Lowering.h"
#include "ir/support.h"

#include <stdbool.h>

/* One coroutine ABI and the conversion that lowers it. */
struct coro_abi_row {
  const char *abi;        /* the value of coro.abi */
  const char *conversion; /* its pass, convert-coro-to-llvm-<abi> */
  const char *pipeline;   /* its named pipeline, coro-lower-<abi> */
};

/* The lowering's stages whose passes depend on the module (upstream's
 * conversions of the dialects it has): affine and scf to cf; vectors and
 * strided memrefs before the coroutine conversions; the conversions of the
 * ABIs the module's coroutines use; every other dialect to the LLVM dialect
 * after them. passes.c registers them. */
struct coro_stage_info;
extern const struct coro_stage_info coro_stage_regions, coro_stage_strides,
    coro_stage_abis, coro_stage_rest;

/* Every ABI, in the order their conversions run; ends with a null row. */
extern const struct coro_abi_row coro_abi_rows[];

/* The row of `abi` (null when no conversion lowers it). */
const struct coro_abi_row *coro_abi_row_find(MlirStringRef abi);

/* Appends the textual pipeline of `opts->route` to `out`: every ABI's
 * conversion when `only` is null, else only that ABI's; with
 * `opts->checked`, the checked mode's coro-misuse-checks after coro-verify;
 * with `opts->debug_info`, line-table debug info last. False (nothing
 * appended) for a route that does not exist yet. */
bool coro_pipeline_route(struct coro_str *out, const CoroLowerOptions *opts,
                         const struct coro_abi_row *only);

/* Appends the device pipeline (coro-lower-nvvm) to `out`. */
void coro_pipeline_nvvm(struct coro_str *out);

/* The same in two halves: up to the split (the conversions), then the
 * split and the device's checks (coroLowerForDeviceAtLevel runs LLVM's
 * pre-split simplification between the two). */
void coro_pipeline_nvvm_presplit(struct coro_str *out);
void coro_pipeline_nvvm_split(struct coro_str *out);

#endif /* CORO_CAPI_PIPELINE_H */
