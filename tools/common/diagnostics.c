/* diagnostics.c - the tools' diagnostic handler, and printing what it
 * collected as mlir-opt does: `file:line:col: severity: message`, then the
 * source line and a caret under the column when the location is in the
 * input.
 *
 * The handler copies each diagnostic and its notes (file name and message,
 * owned by the drv_diags) in emission order, a note right after what it
 * belongs to, and lets no diagnostic through to MLIR's default handler.
 * drv_diags_print and drv_diags_clear free the copies; the items array
 * stays for reuse, freed by whoever owns the drv_diags. See driver.h. */
#include "tools/common/alloc.h"
#include "tools/common/driver_internal.h"

#include "coro-c/Diagnostics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*===-- Collecting --------------------------------------------------------===*/

void drv_text_append(MlirStringRef ref, void *user) {
  struct drv_text *s = user;
  s->data = drv_xrealloc(s->data, s->len + ref.length + 1);
  memcpy(s->data + s->len, ref.data, ref.length);
  s->len += ref.length;
  s->data[s->len] = '\0';
}

static bool starts_with(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The op name an op note ("see current operation: %0 = \"coro.begin\"()
 * ...", generic form, or a custom form's leading name) shows, into
 * `name` (at most `cap` bytes with its NUL); false when none is found. */
static bool op_note_name(const char *note, char *name, size_t cap) {
  const char *p = note + strlen("see current operation: ");
  if (*p == '%') { /* results: "%0 = ", "%a, %b = ", "%x:2 = " */
    const char *eq = strstr(p, " = ");
    if (!eq)
      return false;
    p = eq + 3;
  }
  bool quoted = *p == '"';
  p += quoted;
  size_t n = strcspn(p, quoted ? "\"" : " (<{:\n");
  if (n == 0 || n >= cap || !memchr(p, '.', n))
    return false;
  memcpy(name, p, n);
  name[n] = '\0';
  return true;
}

/* An error "op ..." (what IRDL's constraints report) names its op,
 * "'coro.yield' op ...", as MLIR's own verifiers' errors do, taking the
 * name from the op note that follows it. */
static void name_the_op(struct drv_diag *d, const char *note) {
  char name[256];
  if (!starts_with(d->message, "op ") || !op_note_name(note, name, sizeof name))
    return;
  size_t len = strlen(name) + strlen(d->message) + 4;
  char *m = drv_xmalloc(len);
  snprintf(m, len, "'%s' %s", name, d->message);
  free(d->message);
  d->message = m;
}

/* A new, zeroed entry at the end of `diags`. */
static struct drv_diag *grow(struct drv_diags *diags) {
  if (diags->count == diags->cap) {
    diags->cap = diags->cap ? diags->cap * 2 : 16;
    diags->items =
        drv_xrealloc(diags->items, diags->cap * sizeof(*diags->items));
  }
  struct drv_diag *d = &diags->items[diags->count++];
  memset(d, 0, sizeof(*d));
  return d;
}

void drv_diags_push(struct drv_diags *diags, const struct drv_diag *from) {
  struct drv_diag *d = grow(diags);
  *d = *from;
  d->file = from->file ? drv_xdup_n(from->file, strlen(from->file)) : NULL;
  d->message = drv_xdup_n(from->message, strlen(from->message));
}

/* The call site `loc` is (through names and fused locations), or null. An
 * op inlined by LLVM during route B's pre-split trip, or by MLIR's
 * inliner, is at callsite(its own line at its caller's). */
static MlirLocation call_site(MlirLocation loc) {
  if (mlirLocationIsNull(loc))
    return loc;
  if (mlirLocationIsACallSite(loc))
    return loc;
  if (mlirLocationIsAName(loc))
    return call_site(mlirLocationNameGetChildLoc(loc));
  if (!mlirLocationIsAFused(loc) || mlirLocationFusedGetNumLocations(loc) < 1)
    return (MlirLocation){NULL};
  MlirLocation *parts =
      drv_xmalloc(mlirLocationFusedGetNumLocations(loc) * sizeof *parts);
  mlirLocationFusedGetLocations(loc, parts);
  MlirLocation first = call_site(parts[0]);
  free(parts);
  return first;
}

/* A note "called from" at each caller of the call sites `loc` nests, as
 * mlir-opt prints them. */
static void record_callers(struct drv_diags *diags, MlirLocation loc,
                           long index) {
  for (MlirLocation site = call_site(loc); !mlirLocationIsNull(site);
       site = call_site(mlirLocationCallSiteGetCaller(site))) {
    struct drv_diag *d = grow(diags);
    d->parent = index;
    d->severity = MlirDiagnosticNote;
    MlirStringRef file;
    if (coroLocationGetFileLineCol(mlirLocationCallSiteGetCaller(site), &file,
                                   &d->line, &d->col))
      d->file = drv_xdup_n(file.data, file.length);
    d->message = drv_xdup_n("called from", strlen("called from"));
    d->call_note = true;
  }
}

static void record(struct drv_diags *diags, MlirDiagnostic diag, long parent) {
  struct drv_diag *d = grow(diags);
  long index = (long)(d - diags->items);
  d->parent = parent;
  d->severity = mlirDiagnosticGetSeverity(diag);
  MlirStringRef file;
  if (coroLocationGetFileLineCol(mlirDiagnosticGetLocation(diag), &file,
                                 &d->line, &d->col))
    d->file = drv_xdup_n(file.data, file.length);
  struct drv_text msg = {NULL, 0};
  mlirDiagnosticPrint(diag, drv_text_append, &msg);
  d->message = msg.data ? msg.data : drv_xdup_n("", 0);
  d->op_note = parent != DRV_NO_PARENT &&
               starts_with(d->message, "see current operation");
  if (d->op_note) {
    name_the_op(&diags->items[parent], d->message);
    if (diags->drop_op_notes) {
      free(d->file);
      free(d->message);
      --diags->count;
      return;
    }
  }
  record_callers(diags, mlirDiagnosticGetLocation(diag), index);
  intptr_t notes = mlirDiagnosticGetNumNotes(diag);
  for (intptr_t i = 0; i < notes; ++i)
    record(diags, mlirDiagnosticGetNote(diag, i), index);
}

static MlirLogicalResult handle(MlirDiagnostic diag, void *user) {
  record(user, diag, DRV_NO_PARENT);
  return mlirLogicalResultSuccess();
}

MlirDiagnosticHandlerID drv_diags_attach(MlirContext ctx,
                                         struct drv_diags *diags) {
  return mlirContextAttachDiagnosticHandler(ctx, handle, diags, NULL);
}

/*===-- Printing ----------------------------------------------------------===*/

const char *drv_input_file(const char *file, const char *input) {
  return file && file[0] && strcmp(file, "-") != 0 ? file : input;
}

static const char *file_of(const struct drv_diags *diags,
                           const struct drv_diag *d) {
  return drv_input_file(d->file, diags->file_name);
}

void drv_diags_print_source_line(const struct drv_diags *diags,
                                 const char *file, unsigned line,
                                 unsigned col) {
  if (diags->source && strcmp(file, diags->file_name) == 0)
    drv_print_caret_line(diags->source, diags->source_len, line, col);
}

void drv_diags_print(struct drv_diags *diags) {
  for (size_t i = 0; i < diags->count; ++i) {
    const struct drv_diag *d = &diags->items[i];
    const char *sev = coroDiagnosticSeverityName(d->severity);
    if (d->file) {
      fprintf(stderr, "%s:%u:%u: %s: %s\n", file_of(diags, d), d->line, d->col,
              sev, d->message);
      drv_diags_print_source_line(diags, file_of(diags, d), d->line, d->col);
    } else {
      fprintf(stderr, "%s: %s: %s\n", diags->file_name, sev, d->message);
    }
  }
  fflush(stderr);
  drv_diags_clear(diags);
}

void drv_diags_clear(struct drv_diags *diags) {
  for (size_t i = 0; i < diags->count; ++i) {
    free(diags->items[i].file);
    free(diags->items[i].message);
  }
  diags->count = 0;
}

bool drv_diags_has_errors(const struct drv_diags *diags) {
  for (size_t i = 0; i < diags->count; ++i)
    if (diags->items[i].severity == MlirDiagnosticError)
      return true;
  return false;
}
