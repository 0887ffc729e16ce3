/* registry.h - MLIR's global pass registry for the pass tables of capi/
 * (passes.c, test_passes.c): the entry points capi/registry.cpp gives them.
 * Private to the library: not installed, not for tools. */
#ifndef CORO_CAPI_REGISTRY_H
#define CORO_CAPI_REGISTRY_H

#include "mlir-c/Pass.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Whether a pass or pipeline is registered under `argument` (borrowed,
 * NUL-terminated). */
bool coro_registry_has(const char *argument);

/* Registers the pass that `create` makes (each call a new, owned pass). */
void coro_registry_add_pass(MlirPass (*create)(void));

/* Registers a named pipeline that expands to the textual pass pipeline
 * `elements` (borrowed, copied), e.g. "coro-verify,canonicalize". */
void coro_registry_add_pipeline(const char *argument, const char *description,
                                const char *elements);

#ifdef __cplusplus
}
#endif

#endif /* CORO_CAPI_REGISTRY_H */
