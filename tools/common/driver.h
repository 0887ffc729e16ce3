/* driver.h - what every coro tool does with its input before its own work.
 *
 * Reading a file or stdin, splitting it on `// -----`, parsing each piece
 * into a module with mlir-opt's rules (a lone top-level op that is not a
 * module, or several ops, get an implicit module named after the file;
 * lines keep their numbers in the whole file), collecting diagnostics and
 * printing them as mlir-opt does (`file:line:col: error: message`, then the
 * source line and a caret under the column), and mlir-opt's
 * `--verify-diagnostics` (expected-error/warning/note/remark annotations).
 * Tools own the exit status; nothing here exits, except when memory runs
 * out (alloc.h's policy) or LLVM reports a fatal error.
 *
 * Implemented by source.c (reading, splitting, carets), diagnostics.c
 * (collecting and printing diagnostics), parse.c (parsing, with the nesting
 * and bytecode guards), verify_diagnostics.c (--verify-diagnostics) and
 * driver.c (the big stack, fatal errors, remarks, drv_input), which share
 * driver_internal.h. Their memory comes from alloc.h, the tools' one
 * allocator (libc only: coro-progen and coro-gpu-run use it too). */
#ifndef CORO_TOOLS_DRIVER_H
#define CORO_TOOLS_DRIVER_H

#include "coro-c/Lowering.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"

#include <stdbool.h>
#include <stddef.h>

/* Nesting deeper than this is rejected before parsing (drv_parse): MLIR's
 * parser, printer, verifier and walkers recurse once per level of brackets,
 * per operator of an affine expression and per alias used inside another
 * alias, and would overflow the stack. Each level costs at most a few KiB
 * of stack in MLIR (and more in our code under ASan): run the work through
 * drv_run_with_big_stack so that DRV_MAX_NESTING levels always fit. */
enum { DRV_MAX_NESTING = 2048 };
/* The most bytes of text an attribute or type alias may stand for, its
 * uses of other aliases expanded: MLIR's parser reads an alias used inside
 * a dialect's type or attribute again from its text at every use, so an
 * alias that uses another twice, and so on, costs time exponential in the
 * number of aliases (parse.c's pre-scan). */
#define DRV_MAX_ALIAS_TEXT ((unsigned long long)1 << 24)
#define DRV_STACK_SIZE ((size_t)256 << 20)

/* Calls fn(arg) on a thread with a DRV_STACK_SIZE stack (the stack is only
 * reserved; untouched pages cost nothing) and returns its result. Falls back
 * to a direct call when no thread can be started. First, under glibc, sets
 * the allocator's top pad to a whole heap (driver.c's tune_allocator). */
int drv_run_with_big_stack(int (*fn)(void *), void *arg);

/* The coroLowerModule config of the flags coro-run and coro-translate
 * share: --route (`route`, already resolved: the tools start from
 * coroDefaultRoute()), -O, --no-elide, --checked and -g. */
CoroLowerConfig drv_lower_config(CoroRoute route, int opt_level, bool no_elide,
                                 bool checked, bool debug_info);

/* Text collected from an MlirStringCallback: drv_text_append is the
 * callback, `user` a struct drv_text (owned data, NUL-terminated; NULL
 * while empty; the caller frees `data`). */
struct drv_text {
  char *data;
  size_t len;
};
void drv_text_append(MlirStringRef ref, void *user);

struct drv_source {
  const char *name; /* as given, "<stdin>" for stdin; borrowed */
  char *data;       /* owned, NUL-terminated */
  size_t len;
};

/* One piece of a split input: text and the line of the file it starts on. */
struct drv_chunk {
  const char *text; /* borrowed from the source */
  size_t len;
  unsigned first_line;
};

enum { DRV_NO_PARENT = -1 };

struct drv_diag {
  MlirDiagnosticSeverity severity;
  char *file; /* owned; NULL when the location has none */
  unsigned line, col;
  char *message; /* owned */
  long parent;   /* index of the diagnostic a note belongs to, or
                    DRV_NO_PARENT */
  bool op_note;  /* MLIR's "see current operation: ..." note */
  bool call_note; /* a "called from" note (the call site of an inlined op) */
};

/* Diagnostics captured from a context, in emission order (notes follow the
 * diagnostic they belong to, as entries of their own). */
struct drv_diags {
  struct drv_diag *items;
  size_t count, cap;
  const char *file_name; /* name printed for locations in the input */
  /* The input's text (borrowed; NULL for none, e.g. bytecode): a diagnostic
   * located in it is followed by its source line and a caret. */
  const char *source;
  size_t source_len;
  /* Whether MLIR's "see current operation" notes are dropped once they
   * named the op of an error that did not (what IRDL's constraints
   * report: "op expects ..."; coro-opt without
   * --mlir-print-op-on-diagnostic). */
  bool drop_op_notes;
};

/* Reads `path` ("-" for stdin) into `out`. On failure prints
 * "<tool>: error: ..." to stderr and returns false. */
bool drv_read_source(const char *tool, const char *path,
                     struct drv_source *out);
void drv_source_free(struct drv_source *src);

/* Splits `src` at lines that start with `marker` (the whole file when
 * `marker` is NULL). Returns the number of chunks; *out is malloc'ed. */
size_t drv_split(const struct drv_source *src, const char *marker,
                 struct drv_chunk **out);

/* Captures every diagnostic of `ctx` into `diags` until detached. */
MlirDiagnosticHandlerID drv_diags_attach(MlirContext ctx,
                                         struct drv_diags *diags);
/* Prints the captured diagnostics to stderr and forgets them. */
void drv_diags_print(struct drv_diags *diags);
void drv_diags_clear(struct drv_diags *diags);

/* Turns on coro's remarks whose category `filter` matches (the tools'
 * --remarks-filter) on `ctx`, whose diagnostics `diags` collects; after an
 * invalid expression, prints "TOOL: error: --remarks-filter: WHY" once
 * (dropping what `diags` collected of it) and returns false. */
bool drv_enable_remarks(const char *tool, MlirContext ctx, const char *filter,
                        struct drv_diags *diags);
bool drv_diags_has_errors(const struct drv_diags *diags);

/* Parses `chunk` of the file `name` into a module (null on failure, with the
 * diagnostics captured in `diags`). Rejects too deep nesting first. */
MlirModule drv_parse(MlirContext ctx, const char *name,
                     const struct drv_chunk *chunk, struct drv_diags *diags);

/* drv_parse with mlir-opt's --no-implicit-module when `implicit_module` is
 * false: the chunk must then hold exactly one top-level op, of any kind,
 * which is returned (owned; null on failure). */
MlirOperation drv_parse_op(MlirContext ctx, const char *name,
                           const struct drv_chunk *chunk,
                           struct drv_diags *diags, bool implicit_module);

/* Whether `text` is MLIR bytecode rather than text. */
bool drv_is_bytecode(const char *text, size_t len);
/* Whether `text` is LLVM bitcode (its magic, or a bitcode wrapper's). */
bool drv_is_llvm_bitcode(const char *text, size_t len);
/* Whether the input `name` holding `text` is LLVM IR: bitcode, or a name
 * ending in .ll or .bc. drv_parse imports it into the LLVM dialect
 * (coroImportLLVMIR) instead of parsing it as MLIR. */
bool drv_is_llvm_ir(const char *name, const char *text, size_t len);
/* Whether `text` is binary (MLIR bytecode, LLVM bitcode): no source lines
 * to show under a diagnostic. */
bool drv_is_binary(const char *text, size_t len);

/* mlir-opt's --verify-diagnostics for one chunk: matches the diagnostics in
 * `diags` against the chunk's expected-* annotations, prints every mismatch
 * to stderr as an error, and returns whether all matched. MLIR's "see
 * current operation" note never counts (mlir-opt turns it off under
 * --verify-diagnostics): it matches an expected-note if one names it, and
 * is otherwise shown only with a diagnostic that was not expected. */
bool drv_verify_expected(const char *name, const struct drv_chunk *chunk,
                         const struct drv_diags *diags);

/* Makes LLVM's fatal errors (a last resort: our own checks come first)
 * print "<tool>: error: <reason>" and exit with status 1 instead of
 * aborting. `tool` must outlive the process (a string literal); it also
 * names the tool in alloc.h's out-of-memory message (drv_set_tool_name). */
void drv_install_fatal_error_handler(const char *tool);

/* A whole input file (no splitting) in a fresh single-threaded context with
 * the coro dialect loaded: what coro-run and coro-translate start from. */
struct drv_input {
  struct drv_source src;
  MlirContext ctx;
  struct drv_diags diags; /* everything the context reports */
  MlirDiagnosticHandlerID handler;
  struct drv_chunk *chunks;
  MlirModule module; /* null when loading or parsing failed */
};

/* Reads `path` ("-" for stdin) and parses it, on one thread; the context
 * then runs passes on its threads. Returns false (after printing why) only
 * when the file cannot be read; otherwise `in` must be closed, and a null
 * `in->module` means the diagnostics explain the failure. */
bool drv_input_open(const char *tool, const char *path, struct drv_input *in);
/* Prints the diagnostics not printed yet and releases everything. */
void drv_input_close(struct drv_input *in);
/* Leaves the op or module `ptr` (its .ptr) for the process's exit to
 * reclaim rather than taking it apart op by op, which for a module of
 * 10,000 coroutines costs as much as a pass (clang's -disable-free): a
 * static keeps it reachable for leak checkers. For the last module a tool
 * handles. */
void drv_keep_until_exit(const void *ptr);
/* drv_input_close for a tool about to exit: the module is kept
 * (drv_keep_until_exit), the rest released. */
void drv_input_close_at_exit(struct drv_input *in);

#endif /* CORO_TOOLS_DRIVER_H */
