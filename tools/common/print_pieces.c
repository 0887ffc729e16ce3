/* print_pieces.c - a module printed a top-level op at a time, on threads
 * (see print_pieces.h).
 *
 * MLIR's printer numbers every value of the module in one AsmState before
 * it prints a character: at 10,000 small coroutines its lookups in those
 * tables are a growing share of the printing (a 110 MB result grew 1.22 to
 * 1.26 times faster than the module). Each top-level op of a module is
 * isolated from above, so its values and blocks are numbered from zero
 * whether it is printed alone (with a local scope) or in its module: the
 * text is the same once indented by the module's two spaces, and pieces
 * of the module may be printed at once. What the whole printing adds
 * around the ops is the module's own line (printed here with its regions
 * elided) and what it shares across the module: aliases, distinct
 * attributes' numbers, resources, which an op printed alone has inline or
 * of its own. When the text of an op or of the module's line could hold
 * any of them (same_in_module), the module is printed whole. */
#define _POSIX_C_SOURCE 200809L /* pthread attributes */
#include "tools/common/print_pieces.h"
#include "tools/common/alloc.h"
#include "tools/common/driver.h"

#include "mlir-c/Diagnostics.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Text gathered from the printer. */
struct text {
  char *data;
  size_t len, cap;
};

static void text_append(MlirStringRef s, void *user) {
  struct text *t = user;
  if (t->len + s.length > t->cap) {
    t->cap = (t->len + s.length) * 2 + 4096;
    t->data = drv_xrealloc(t->data, t->cap);
  }
  memcpy(t->data + t->len, s.data, s.length);
  t->len += s.length;
}

/* What one thread prints: ops[begin, end) of the module, each op's text
 * indented by two spaces after a newline, as the module's printer puts
 * it. */
struct piece {
  MlirOperation *ops;
  size_t begin, end;
  MlirOpPrintingFlags flags;
  struct text out;
  bool ok; /* no op's text holds an alias definition or resources */
};

/* Whether the text at p (up to end) starts with `s`. */
static bool at(const char *p, const char *end, const char *s) {
  size_t n = strlen(s);
  return (size_t)(end - p) >= n && memcmp(p, s, n) == 0;
}

/* Whether the text of an op printed alone is its text in the module's
 * printing: nothing in it could have an alias there. The module's printer
 * gives an alias (a definition before the module, the alias at each use)
 * to what a dialect names so, and numbers distinct attributes and
 * resources across the module, where an op printed alone has them inline
 * and numbered on its own. Those are all written with a '#' (dialect
 * attributes, `distinct[`, `{-#`), as affine maps and integer sets of the
 * builtin dialect, or as a dense resource; and types with an alias would
 * be another dialect's than those of the LLVM dialect and coro, which
 * name none. Text with any of them (a string holding a '#' too) is printed
 * with the whole module. */
static bool same_in_module(const struct text *t) {
  const char *end = t->data + t->len;
  for (const char *p = t->data; p < end; ++p) {
    if (*p == '#')
      return false;
    if (*p == '!' && !at(p + 1, end, "llvm.") && !at(p + 1, end, "coro."))
      return false;
    if (*p == 'a' && (at(p, end, "affine_map<") || at(p, end, "affine_set<")))
      return false;
    if (*p == 'd' && at(p, end, "dense_resource<"))
      return false;
  }
  return true;
}

static void *print_piece(void *data) {
  struct piece *p = data;
  struct text op = {NULL, 0, 0};
  p->ok = true;
  for (size_t i = p->begin; i < p->end && p->ok; ++i) {
    op.len = 0;
    mlirOperationPrintWithFlags(p->ops[i], p->flags, text_append, &op);
    p->ok = same_in_module(&op);
    /* "\n  " and the op, each newline in it followed by two spaces */
    text_append(mlirStringRefCreate("\n  ", 3), &p->out);
    size_t from = 0;
    for (size_t k = 0; k < op.len; ++k)
      if (op.data[k] == '\n') {
        text_append(mlirStringRefCreate(op.data + from, k + 1 - from), &p->out);
        text_append(mlirStringRefCreate("  ", 2), &p->out);
        from = k + 1;
      }
    text_append(mlirStringRefCreate(op.data + from, op.len - from), &p->out);
  }
  free(op.data);
  return NULL;
}

/* Swallows the diagnostics of a verification whose result alone counts. */
static MlirLogicalResult swallow(MlirDiagnostic d, void *user) {
  (void)d;
  (void)user;
  return mlirLogicalResultSuccess();
}

bool drv_print_module_in_pieces(MlirOperation module, unsigned threads,
                                bool verified,
                                MlirOpPrintingFlags (*make_flags)(void *),
                                void *flags_user,
                                void (*write)(MlirStringRef, void *),
                                void *user) {
  if (threads == 0) {
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    threads = online > 1 ? (unsigned)(online < 16 ? online : 16) : 1;
  }
  MlirIdentifier id = mlirOperationGetName(module);
  MlirStringRef name = mlirIdentifierStr(id);
  if (threads < 2 || mlirOperationGetNumRegions(module) != 1 ||
      name.length != 14 || memcmp(name.data, "builtin.module", 14) != 0)
    return false;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  size_t n = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    ++n;
  if (n < DRV_PRINT_PIECES_MIN_OPS)
    return false;
  /* MLIR's printer verifies the whole module first and prints the generic
   * form when that fails: the same look, its errors unreported, and a
   * module that fails it printed whole */
  if (!verified) {
    MlirContext ctx = mlirOperationGetContext(module);
    MlirDiagnosticHandlerID id =
        mlirContextAttachDiagnosticHandler(ctx, swallow, NULL, NULL);
    verified = mlirOperationVerify(module);
    mlirContextDetachDiagnosticHandler(ctx, id);
    if (!verified)
      return false;
  }

  /* The module's line: "module ... {...}" with its region elided. */
  struct text head = {NULL, 0, 0};
  MlirOpPrintingFlags flags = make_flags(flags_user);
  mlirOpPrintingFlagsSkipRegions(flags);
  mlirOperationPrintWithFlags(module, flags, text_append, &head);
  mlirOpPrintingFlagsDestroy(flags);
  if (head.len && head.data[head.len - 1] == '\n') /* the printer ends it */
    --head.len;
  static const char elided[] = "{...}";
  size_t el = sizeof elided - 1;
  bool ok = head.len >= 7 + el && memcmp(head.data, "module ", 7) == 0 &&
            memcmp(head.data + head.len - el, elided, el) == 0 &&
            !memchr(head.data, '\n', head.len) && same_in_module(&head);

  MlirOperation *ops = ok ? drv_xmalloc(n * sizeof *ops) : NULL;
  struct piece *piece = ok ? drv_xcalloc(threads, sizeof *piece) : NULL;
  if (ok) {
    size_t i = 0;
    for (MlirOperation op = mlirBlockGetFirstOperation(body);
         !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
      ops[i++] = op;
    pthread_t *tid = drv_xcalloc(threads, sizeof *tid);
    bool *started = drv_xcalloc(threads, sizeof *started);
    pthread_attr_t attr;
    bool attr_ok = pthread_attr_init(&attr) == 0 &&
                   pthread_attr_setstacksize(&attr, DRV_STACK_SIZE) == 0;
    for (unsigned k = 0; k < threads; ++k) {
      piece[k] = (struct piece){.ops = ops,
                                .begin = n * k / threads,
                                .end = n * (k + 1) / threads,
                                .flags = make_flags(flags_user)};
      mlirOpPrintingFlagsUseLocalScope(piece[k].flags);
      mlirOpPrintingFlagsAssumeVerified(piece[k].flags);
      /* the last piece on this thread (already on a big stack) */
      started[k] = k + 1 < threads && attr_ok &&
                   pthread_create(&tid[k], &attr, print_piece, &piece[k]) == 0;
    }
    for (unsigned k = 0; k < threads; ++k)
      if (!started[k])
        print_piece(&piece[k]);
    for (unsigned k = 0; k < threads; ++k)
      if (started[k])
        pthread_join(tid[k], NULL);
    if (attr_ok)
      pthread_attr_destroy(&attr);
    free(tid);
    free(started);
    for (unsigned k = 0; k < threads; ++k) {
      ok &= piece[k].ok;
      mlirOpPrintingFlagsDestroy(piece[k].flags);
    }
  }
  if (ok) {
    write(mlirStringRefCreate(head.data, head.len - el), user);
    write(mlirStringRefCreate("{", 1), user);
    for (unsigned k = 0; k < threads; ++k)
      write(mlirStringRefCreate(piece[k].out.data, piece[k].out.len), user);
    write(mlirStringRefCreate("\n}\n", 3), user);
  }
  for (unsigned k = 0; piece && k < threads; ++k)
    free(piece[k].out.data);
  free(piece);
  free(ops);
  free(head.data);
  return ok;
}
