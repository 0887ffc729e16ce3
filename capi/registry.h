/* registry.h - MLIR's global pass registry for the pass tables of capi/
 * (passes.c, test_passes.c): the entry points capi/registry.cpp gives them.
 * Private to the library: not installed, not for tools. */
#ifndef CORO_CAPI_REGISTRY_H
#define CORO_CAPI_REGISTRY_H

#include "mlir-c/Pass.h"
#include "llvm-c/Types.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One of coro's passes: its flag, a description, the op it is anchored on
 * ("" for any op) and a run function that reports failure with located
 * diagnostics. Rows are static and immutable: a pass object's user data is
 * its row, so cloning a pass (the pass manager does, per thread) copies
 * nothing. */
struct coro_pass_info {
  const char *argument;    /* the flag, e.g. "coro-verify" */
  const char *name;        /* the pass's class-like name */
  const char *description; /* one line, for --help */
  const char *anchor;      /* op name the pass runs on; "" for any */
  MlirLogicalResult (*run)(MlirOperation op);
  /* the dialects whose ops the pass creates where the input may have none
   * (loaded before the pass runs), null-terminated; may be null */
  MlirDialectHandle (*const *dependent)(void);
};

/* A new pass (owned by the caller) running `info` (static). */
MlirPass coro_pass_create(const struct coro_pass_info *info);

/* A stage of the lowering whose passes depend on the module it runs on
 * (capi/pipeline.c: upstream's conversions of the dialects the module
 * has). When the stage runs on a builtin.module, `choose` returns the
 * textual pipeline to run on it; given a null module, every pass it may
 * choose (whose dialects are then loaded before any pass runs). The string
 * is malloc'd, NUL-terminated, freed by the caller; NULL when out of
 * memory. `*in_pieces` (false on entry) is set when the chosen passes may
 * run on pieces of the module at once (capi/stage_pieces.h). */
struct coro_stage_info {
  const char *argument;    /* the flag */
  const char *name;        /* the pass's class-like name */
  const char *description; /* one line, for --help */
  char *(*choose)(MlirOperation module, bool *in_pieces);
};

/* A new pass (owned by the caller) running the stage `info` (static): the
 * pipeline `info->choose` gives for the module, nested in this pass (one of
 * MLIR's dynamic pass pipelines, which the C API lacks). */
MlirPass coro_stage_pass_create(const struct coro_stage_info *info);

/* Whether the dialect `ns` (NUL-terminated) is loaded in `ctx` and gives
 * MLIR's convert-to-llvm its patterns (the ConvertToLLVMPatternInterface
 * that its extension attaches: without it convert-to-llvm skips the
 * dialect's ops silently). */
bool coro_dialect_converts_to_llvm(MlirContext ctx, const char *ns);

/* Whether a pass or pipeline is registered under `argument` (borrowed,
 * NUL-terminated). */
bool coro_registry_has(const char *argument);

/* Registers the pass that `create` makes (each call a new, owned pass). */
void coro_registry_add_pass(MlirPass (*create)(void));

/* Registers a named pipeline that expands to the textual pass pipeline
 * `elements` (borrowed, copied), e.g. "coro-verify,canonicalize". */
void coro_registry_add_pipeline(const char *argument, const char *description,
                                const char *elements);

/* The LLVM module `m` (taken: disposed of here, whatever the result) as a
 * builtin.module of the LLVM dialect in `ctx` (MLIR's LLVM IR importer, which
 * the MLIR C API lacks; capi/presplit.c uses it). Null after an error, which
 * is a diagnostic on `ctx`. The caller destroys the module. */
MlirOperation coro_import_llvm_module(LLVMModuleRef m, MlirContext ctx);

#ifdef __cplusplus
}
#endif

#endif /* CORO_CAPI_REGISTRY_H */
