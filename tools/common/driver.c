/* driver.c - setting a coro tool up around its input: a stack with room
 * for deep recursion, LLVM's fatal errors as ordinary errors, remarks, and
 * the whole input of coro-run and coro-translate opened in one call.
 *
 * The rest of driver.h is implemented by source.c (reading, splitting,
 * carets), diagnostics.c (the handler and printing), parse.c (parsing with
 * its guards) and verify_diagnostics.c (--verify-diagnostics). A drv_input
 * owns its source, context, diagnostics, chunks and module; drv_input_close
 * releases them all. See driver.h for the contract. */
#define _POSIX_C_SOURCE 200809L /* pthread attributes */
#include "tools/common/driver.h"
#include "tools/common/alloc.h"

#include "coro-c/Diagnostics.h"
#include "coro-c/Dialect.h"

#include "llvm-c/ErrorHandling.h"

#include <pthread.h>
#include <stdio.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdlib.h>
#include <string.h>

/*===-- Running with room for deep recursion -----------------------------===*/

struct big_stack_call {
  int (*fn)(void *);
  void *arg;
  int result;
};

static void *big_stack_entry(void *data) {
  struct big_stack_call *call = data;
  call->result = call->fn(call->arg);
  return NULL;
}

/* glibc gives each thread but the first an arena of its own: heaps of at
 * most 64 MiB that it makes writable a page at a time as they grow, one
 * mprotect per 4 KiB, unless a heap is made with its top pad, which the
 * default (128 KiB) is not. Every mprotect takes the process's memory map
 * lock for writing and stops the other threads' page faults: at 10,000
 * small coroutines the pipeline made 143,000 of them, and the work on
 * MLIR's threads (and the big stack's own thread) waited on it. With a
 * top pad of a whole heap's size each heap is writable from the start
 * (about 40 mprotects in all); untouched pages stay free, so the peak
 * resident memory does not grow (coro-opt and coro-translate allocate
 * with jemalloc where it is installed, tools/CMakeLists.txt: this is for
 * the other tools and a build without it). Tools only: the library leaves the
 * allocator of the process it is loaded into alone (docs/embedding.md
 * says what an embedder may set). Does nothing without glibc. */
static void tune_allocator(void) {
#ifdef __GLIBC__
  mallopt(M_TOP_PAD, 64 << 20);
#endif
}

int drv_run_with_big_stack(int (*fn)(void *), void *arg) {
  tune_allocator();
  struct big_stack_call call = {fn, arg, 0};
  pthread_attr_t attr;
  pthread_t thread;
  if (pthread_attr_init(&attr) == 0) {
    bool started = pthread_attr_setstacksize(&attr, DRV_STACK_SIZE) == 0 &&
                   pthread_create(&thread, &attr, big_stack_entry, &call) == 0;
    pthread_attr_destroy(&attr);
    if (started && pthread_join(thread, NULL) == 0)
      return call.result;
    if (started)
      return 1;
  }
  return fn(arg); /* no thread: run with the stack we have */
}

/*===-- Tool set-up -------------------------------------------------------===*/

/* The tool's name is alloc.c's process state, which the out-of-memory
 * message shares. */
static void on_fatal_error(const char *reason) {
  fprintf(stderr, "%s: error: %s\n", drv_tool_name(), reason);
  fflush(stderr);
  fflush(stdout);
  _Exit(1);
}

void drv_install_fatal_error_handler(const char *tool) {
  drv_set_tool_name(tool);
  LLVMInstallFatalErrorHandler(on_fatal_error);
}

bool drv_input_open(const char *tool, const char *path, struct drv_input *in) {
  memset(in, 0, sizeof(*in));
  if (!drv_read_source(tool, path, &in->src))
    return false;
  in->ctx = mlirContextCreateWithThreading(false);
  in->diags.file_name = in->src.name;
  if (!drv_is_binary(in->src.data, in->src.len)) {
    in->diags.source = in->src.data;
    in->diags.source_len = in->src.len;
  }
  in->handler = drv_diags_attach(in->ctx, &in->diags);
  drv_split(&in->src, NULL, &in->chunks);
  if (mlirLogicalResultIsSuccess(coroDialectLoad(in->ctx)))
    in->module = drv_parse(in->ctx, in->src.name, &in->chunks[0], &in->diags);
  /* Parsed on one thread (mlir-opt's choice: no locking costs); the
   * lowering's passes that work on pieces of a module at once (the split,
   * the stages, coro-check-lowered) run on the context's threads. */
  mlirContextEnableMultithreading(in->ctx, true);
  return true;
}

/* What drv_keep_until_exit keeps (volatile: a store nothing reads would
 * otherwise go). */
static const void *volatile kept_until_exit;

void drv_keep_until_exit(const void *ptr) { kept_until_exit = ptr; }

void drv_input_close_at_exit(struct drv_input *in) {
  drv_keep_until_exit(in->module.ptr);
  in->module = (MlirModule){NULL};
  drv_input_close(in);
}

void drv_input_close(struct drv_input *in) {
  drv_diags_print(&in->diags);
  if (!mlirModuleIsNull(in->module))
    mlirModuleDestroy(in->module);
  mlirContextDetachDiagnosticHandler(in->ctx, in->handler);
  mlirContextDestroy(in->ctx);
  free(in->chunks);
  free(in->diags.items);
  drv_source_free(&in->src);
}

bool drv_enable_remarks(const char *tool, MlirContext ctx, const char *filter,
                        struct drv_diags *diags) {
  if (mlirLogicalResultIsSuccess(coroContextEnableRemarks(
          ctx, mlirStringRefCreateFromCString(filter))))
    return true;
  const char *why = diags->count ? diags->items[diags->count - 1].message
                                 : "invalid regular expression";
  fprintf(stderr, "%s: error: --remarks-filter: %s\n", tool, why);
  drv_diags_clear(diags);
  return false;
}

CoroLowerConfig drv_lower_config(CoroRoute route, int opt_level, bool no_elide,
                                 bool checked, bool debug_info) {
  return (CoroLowerConfig){.route = route == CoroRouteMLIRSplit
                                        ? CoroLowerRouteMLIRSplit
                                        : CoroLowerRouteLLVM,
                           .opt_level = opt_level,
                           .no_elide = no_elide,
                           .checked = checked,
                           .debug_info = debug_info};
}
