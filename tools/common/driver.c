/* driver.c - input, splitting, parsing and diagnostics for the coro tools.
 * See driver.h for the contract. */
#define _POSIX_C_SOURCE 200809L
#include "tools/common/driver.h"

#include "coro-c/Diagnostics.h"
#include "coro-c/Dialect.h"

#include "llvm-c/ErrorHandling.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* realloc for the tools: running out of memory ends the tool with an
 * error (exit 1) instead of crashing on a null pointer. */
static void *xrealloc(void *p, size_t size) {
  void *q = realloc(p, size ? size : 1);
  if (!q) {
    fputs("coro: error: out of memory\n", stderr);
    exit(1);
  }
  return q;
}

static char *dup_n(const char *data, size_t len) {
  char *s = malloc(len + 1);
  if (!s)
    return NULL;
  memcpy(s, data, len);
  s[len] = '\0';
  return s;
}

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

int drv_run_with_big_stack(int (*fn)(void *), void *arg) {
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

/*===-- Reading and splitting ---------------------------------------------===*/

bool drv_read_source(const char *tool, const char *path,
                     struct drv_source *out) {
  bool is_stdin = strcmp(path, "-") == 0;
  FILE *f = is_stdin ? stdin : fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "%s: error: could not open input file '%s': %s\n", tool,
            path, strerror(errno));
    return false;
  }
  size_t cap = 1 << 16, len = 0;
  char *data = malloc(cap);
  while (data) {
    if (len + 1 >= cap) {
      char *grown = realloc(data, cap * 2);
      if (!grown) {
        free(data);
        data = NULL;
        break;
      }
      data = grown;
      cap *= 2;
    }
    size_t got = fread(data + len, 1, cap - len - 1, f);
    len += got;
    if (got == 0)
      break;
  }
  bool failed = !data || ferror(f);
  if (!is_stdin)
    fclose(f);
  if (failed) {
    fprintf(stderr, "%s: error: could not read input file '%s'\n", tool, path);
    free(data);
    return false;
  }
  data[len] = '\0';
  out->name = is_stdin ? "<stdin>" : path;
  out->data = data;
  out->len = len;
  return true;
}

void drv_source_free(struct drv_source *src) {
  free(src->data);
  src->data = NULL;
}

size_t drv_split(const struct drv_source *src, const char *marker,
                 struct drv_chunk **out) {
  size_t cap = 8, n = 0;
  struct drv_chunk *chunks = xrealloc(NULL, cap * sizeof(*chunks));
  const char *p = src->data, *end = src->data + src->len, *start = p;
  unsigned line = 1, start_line = 1;
  size_t mlen = marker ? strlen(marker) : 0;
  while (marker && p < end) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    const char *next = eol ? eol + 1 : end;
    if ((size_t)(end - p) >= mlen && memcmp(p, marker, mlen) == 0) {
      if (n == cap)
        chunks = xrealloc(chunks, (cap *= 2) * sizeof(*chunks));
      chunks[n++] = (struct drv_chunk){start, (size_t)(p - start), start_line};
      start = next;
      start_line = line + 1;
    }
    p = next;
    ++line;
  }
  if (n == cap)
    chunks = xrealloc(chunks, (cap + 1) * sizeof(*chunks));
  chunks[n++] = (struct drv_chunk){start, (size_t)(end - start), start_line};
  *out = chunks;
  return n;
}

/*===-- Diagnostics -------------------------------------------------------===*/

static void collect(MlirStringRef ref, void *user) {
  struct {
    char *data;
    size_t len;
  } *s = user;
  char *grown = realloc(s->data, s->len + ref.length + 1);
  if (!grown)
    return;
  s->data = grown;
  memcpy(s->data + s->len, ref.data, ref.length);
  s->len += ref.length;
  s->data[s->len] = '\0';
}

static bool starts_with(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void record(struct drv_diags *diags, MlirDiagnostic diag, long parent) {
  if (diags->count == diags->cap) {
    size_t cap = diags->cap ? diags->cap * 2 : 16;
    struct drv_diag *grown = realloc(diags->items, cap * sizeof(*grown));
    if (!grown)
      return;
    diags->items = grown;
    diags->cap = cap;
  }
  long index = (long)diags->count++;
  struct drv_diag *d = &diags->items[index];
  memset(d, 0, sizeof(*d));
  d->parent = parent;
  d->severity = mlirDiagnosticGetSeverity(diag);
  MlirStringRef file;
  if (coroLocationGetFileLineCol(mlirDiagnosticGetLocation(diag), &file,
                                 &d->line, &d->col))
    d->file = dup_n(file.data, file.length);
  struct {
    char *data;
    size_t len;
  } msg = {NULL, 0};
  mlirDiagnosticPrint(diag, collect, &msg);
  d->message = msg.data ? msg.data : dup_n("", 0);
  d->op_note = parent != DRV_NO_PARENT && d->message &&
               starts_with(d->message, "see current operation");
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

/* Locations parsed from a nameless buffer carry an empty file name, or "-"
 * from MLIR's implicit-module parser: they are the input's. */
static const char *input_file(const char *file, const char *input) {
  return file && file[0] && strcmp(file, "-") != 0 ? file : input;
}

static const char *file_of(const struct drv_diags *diags,
                           const struct drv_diag *d) {
  return input_file(d->file, diags->file_name);
}

/* Prints, as LLVM's SourceMgr does, line `line` of the input and a caret
 * under column `col` (both 1-based), when `file` names the input and the
 * line exists. Tabs expand to the next multiple of 8 in both lines; other
 * control bytes print as blanks. */
static void print_source_line(const struct drv_diags *diags, const char *file,
                              unsigned line, unsigned col) {
  if (!diags->source || !line || !col || strcmp(file, diags->file_name) != 0)
    return;
  const char *p = diags->source, *end = p + diags->source_len;
  for (unsigned l = 1; l < line && p < end; ++l) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    p = eol ? eol + 1 : end;
  }
  if (p >= end)
    return;
  const char *eol = memchr(p, '\n', (size_t)(end - p));
  size_t len = (size_t)((eol ? eol : end) - p);
  if (len && p[len - 1] == '\r')
    --len;
  unsigned width = 0, caret = 0;
  for (size_t i = 0; i < len; ++i) {
    if (i + 1 == col)
      caret = width;
    unsigned char c = (unsigned char)p[i];
    unsigned n = c == '\t' ? 8 - width % 8 : 1;
    for (unsigned k = 0; k < n; ++k)
      fputc(c == '\t' || c < 0x20 || c == 0x7f ? ' ' : c, stderr);
    width += n;
  }
  if (col > len)
    caret = width + (unsigned)(col - 1 - len);
  fputc('\n', stderr);
  fprintf(stderr, "%*s^\n", (int)caret, "");
}

void drv_diags_print(struct drv_diags *diags) {
  for (size_t i = 0; i < diags->count; ++i) {
    const struct drv_diag *d = &diags->items[i];
    const char *sev = coroDiagnosticSeverityName(d->severity);
    if (d->file) {
      fprintf(stderr, "%s:%u:%u: %s: %s\n", file_of(diags, d), d->line, d->col,
              sev, d->message);
      print_source_line(diags, file_of(diags, d), d->line, d->col);
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

/*===-- Parsing -----------------------------------------------------------===*/

/* The pre-scan. MLIR's parser, printer and walkers recurse once per level
 * of brackets, per operator of an affine expression (`d0 + d0 + ...` and
 * `- - d0` recurse per term), and per attribute or type alias expanded into
 * another (`#a1 = [#a0]`, `#a2 = [#a1]`, ... builds an arbitrarily deep
 * attribute with no brackets nested in the text). The scan charges each of
 * these as one level and rejects the input past DRV_MAX_NESTING, skipping
 * string literals and comments. */

struct alias {
  const char *name; /* borrowed from the chunk; NULL for an empty slot */
  size_t len;
  unsigned depth; /* deepest nesting its definition reaches */
};

struct scan {
  unsigned depth;                          /* open brackets */
  unsigned extra;                          /* operators in open levels */
  unsigned level_ops[DRV_MAX_NESTING + 2]; /* operators per open level */
  struct alias *aliases;                   /* open-addressing table */
  size_t alias_cap, alias_count;
  struct alias *defining; /* alias whose definition is being scanned */
};

static size_t hash_name(const char *name, size_t len) {
  size_t h = 1469598103934665603u;
  for (size_t i = 0; i < len; ++i)
    h = (h ^ (unsigned char)name[i]) * 1099511628211u;
  return h;
}

static struct alias *alias_slot(struct scan *s, const char *name, size_t len) {
  if (!s->alias_cap)
    return NULL;
  size_t i = hash_name(name, len) & (s->alias_cap - 1);
  while (s->aliases[i].name &&
         !(s->aliases[i].len == len && !memcmp(s->aliases[i].name, name, len)))
    i = (i + 1) & (s->alias_cap - 1);
  return &s->aliases[i];
}

/* Returns the entry for alias `name`, creating it when `create`. NULL when
 * absent (or out of memory). */
static struct alias *alias_get(struct scan *s, const char *name, size_t len,
                               bool create) {
  if (create && (s->alias_count + 1) * 2 > s->alias_cap) {
    size_t cap = s->alias_cap ? s->alias_cap * 2 : 64;
    struct alias *old = s->aliases, *grown = calloc(cap, sizeof(*grown));
    if (!grown)
      return NULL;
    size_t old_cap = s->alias_cap;
    s->aliases = grown;
    s->alias_cap = cap;
    for (size_t i = 0; i < old_cap; ++i)
      if (old[i].name)
        *alias_slot(s, old[i].name, old[i].len) = old[i];
    free(old);
  }
  struct alias *a = alias_slot(s, name, len);
  if (!a || a->name)
    return a && a->name ? a : NULL;
  if (!create)
    return NULL;
  *a = (struct alias){name, len, 0};
  ++s->alias_count;
  return a;
}

static bool is_ident(char c) {
  return isalnum((unsigned char)c) || c == '_' || c == '$' || c == '.';
}

/* Charges `levels` more at the current point; false when past the limit. */
static bool charge(struct scan *s, unsigned levels) {
  unsigned total = s->depth + s->extra + levels;
  if (s->defining && total > s->defining->depth)
    s->defining->depth = total;
  return total <= DRV_MAX_NESTING;
}

static void add_operator(struct scan *s) {
  ++s->extra;
  ++s->level_ops[s->depth];
}

static void end_expression(struct scan *s) {
  s->extra -= s->level_ops[s->depth];
  s->level_ops[s->depth] = 0;
}

/* Scans the `#name`/`!name` at p (p[0] is the sigil): an alias definition
 * at the top level, or a use. Returns the end of the name. */
static const char *scan_alias(struct scan *s, const char *p, const char *end,
                              bool *ok) {
  const char *name = p + 1, *q = name;
  while (q < end && is_ident(*q))
    ++q;
  size_t len = (size_t)(q - name);
  if (!len)
    return p;
  const char *r = q;
  while (r < end && (*r == ' ' || *r == '\t'))
    ++r;
  if (s->depth == 0 && r < end && *r == '=') {
    s->defining = alias_get(s, name, len, true);
    return q;
  }
  struct alias *a = alias_get(s, name, len, false);
  if (a && !charge(s, a->depth))
    *ok = false;
  return q - 1;
}

/* Finds the first point nested deeper than DRV_MAX_NESTING. Returns false
 * and sets line/col if there is one. */
static bool nesting_ok(const struct drv_chunk *chunk, unsigned *line,
                       unsigned *col) {
  struct scan *s = calloc(1, sizeof(*s));
  if (!s)
    return true;
  const char *p = chunk->text, *end = p + chunk->len;
  unsigned ln = chunk->first_line, cl = 1;
  bool ok = true;
  for (; p < end; ++p, ++cl) {
    char c = *p;
    if (c == '\n') {
      ++ln;
      cl = 0;
      if (s->depth == 0)
        s->defining = NULL; /* a top-level alias definition ends here */
    } else if (c == '/' && p + 1 < end && p[1] == '/') {
      while (p + 1 < end && p[1] != '\n')
        ++p;
    } else if (c == '"') {
      while (p + 1 < end && p[1] != '"' && p[1] != '\n') {
        if (p[1] == '\\' && p + 2 < end)
          ++p, ++cl;
        ++p, ++cl;
      }
      if (p + 1 < end && p[1] == '"')
        ++p, ++cl;
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      ++s->depth;
      ok = charge(s, 0);
      if (ok)
        s->level_ops[s->depth] = 0;
    } else if ((c == ')' || c == ']' || c == '}' ||
                (c == '>' && !(p > chunk->text && p[-1] == '-') &&
                 !(p + 1 < end && p[1] == '='))) &&
               s->depth > 0) {
      end_expression(s);
      --s->depth;
      if (s->depth == 0)
        s->defining = NULL;
    } else if (c == ',') {
      end_expression(s);
    } else if (c == '+' || c == '*' ||
               (c == '-' && !(p + 1 < end && p[1] == '>'))) {
      bool exponent = c != '*' && p > chunk->text && (p[-1] | 32) == 'e' &&
                      p - 1 > chunk->text && isdigit((unsigned char)p[-2]);
      if (!exponent) {
        add_operator(s);
        ok = charge(s, 0);
      }
    } else if ((c == '#' || c == '!') && p + 1 < end && is_ident(p[1])) {
      const char *q = scan_alias(s, p, end, &ok);
      cl += (unsigned)(q - p);
      p = q;
    } else if (is_ident(c) && !(p > chunk->text && is_ident(p[-1]))) {
      const char *q = p;
      while (q + 1 < end && is_ident(q[1]))
        ++q;
      size_t n = (size_t)(q - p) + 1;
      if ((n == 3 && !memcmp(p, "mod", 3)) ||
          (n == 8 && !memcmp(p, "floordiv", 8)) ||
          (n == 7 && !memcmp(p, "ceildiv", 7))) {
        add_operator(s);
        ok = charge(s, 0);
      }
      cl += (unsigned)(q - p);
      p = q;
    } else if (c == '=' || c == ':') {
      /* An op's results or a type follow: no expression spans these. */
      end_expression(s);
    }
    if (!ok) {
      *line = ln;
      *col = cl;
      break;
    }
  }
  free(s->aliases);
  free(s);
  return ok;
}

/* The chunk as its own buffer, preceded by newlines so that its lines keep
 * their numbers in the whole file. Owned by the caller. */
static char *padded_text(const struct drv_chunk *chunk, size_t *len) {
  size_t pad = chunk->first_line - 1;
  char *text = xrealloc(NULL, pad + chunk->len + 1);
  memset(text, '\n', pad);
  memcpy(text + pad, chunk->text, chunk->len);
  text[pad + chunk->len] = '\0';
  *len = pad + chunk->len;
  return text;
}

/* MLIR's bytecode reader can corrupt memory on some malformed inputs (it
 * reads uninitialised state; the crash comes at random, often when the
 * context is destroyed). So bytecode is read in a child process that prints
 * the module back as generic text with its locations, and only that text is
 * parsed here. Returns the text (owned) or NULL with *error (owned) set. */
static void append_pipe(MlirStringRef s, void *fd) {
  const char *p = s.data;
  size_t left = s.length;
  while (left) {
    ssize_t n = write(*(int *)fd, p, left);
    if (n <= 0 && errno != EINTR)
      _exit(1);
    if (n > 0)
      p += n, left -= (size_t)n;
  }
}

static char *bytecode_to_text(MlirContext ctx, MlirStringRef source,
                              const char *name, struct drv_diags *diags,
                              char **error) {
  int fds[2];
  *error = NULL;
  fflush(NULL);
  if (pipe(fds) != 0)
    return NULL;
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return NULL;
  }
  if (pid == 0) {
    close(fds[0]);
    size_t before = diags->count;
    MlirOperation op = mlirOperationCreateParse(
        ctx, source, mlirStringRefCreateFromCString(name));
    if (mlirOperationIsNull(op)) {
      const char *msg = diags->count > before ? diags->items[before].message
                                              : "could not read MLIR bytecode";
      append_pipe(mlirStringRefCreateFromCString("E"), &fds[1]);
      append_pipe(mlirStringRefCreateFromCString(msg), &fds[1]);
      _exit(0);
    }
    MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
    mlirOpPrintingFlagsPrintGenericOpForm(flags);
    mlirOpPrintingFlagsEnableDebugInfo(flags, true, false);
    append_pipe(mlirStringRefCreateFromCString("T"), &fds[1]);
    mlirOperationPrintWithFlags(op, flags, append_pipe, &fds[1]);
    _exit(0); /* nothing of the child's context is trusted or destroyed */
  }
  close(fds[1]);
  size_t cap = 1 << 16, len = 0;
  char *data = malloc(cap);
  for (;;) {
    if (data && len + 1 >= cap) {
      char *grown = realloc(data, cap *= 2);
      if (!grown)
        free(data);
      data = grown;
    }
    if (!data)
      break;
    ssize_t n = read(fds[0], data + len, cap - len - 1);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    len += (size_t)n;
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  if (!data || len == 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    free(data);
    return NULL;
  }
  data[len] = '\0';
  if (data[0] == 'E') {
    memmove(data, data + 1, len);
    *error = data;
    return NULL;
  }
  memmove(data, data + 1, len);
  return data;
}

bool drv_is_bytecode(const char *text, size_t len) {
  return len >= 4 && memcmp(text, "ML\xefR", 4) == 0;
}

MlirOperation drv_parse_op(MlirContext ctx, const char *name,
                           const struct drv_chunk *chunk,
                           struct drv_diags *diags, bool implicit_module) {
  MlirStringRef file = mlirStringRefCreateFromCString(name);
  unsigned line, col;
  if (!nesting_ok(chunk, &line, &col)) {
    MlirLocation loc = mlirLocationFileLineColGet(ctx, file, line, col);
    char msg[128];
    snprintf(msg, sizeof(msg), "nesting deeper than %d levels is not supported",
             DRV_MAX_NESTING);
    mlirEmitError(loc, msg);
    return (MlirOperation){NULL};
  }
  size_t len;
  char *text = padded_text(chunk, &len);
  MlirStringRef source = mlirStringRefCreate(text, len);
  if (drv_is_bytecode(text, len)) {
    char *error = NULL;
    char *printed = bytecode_to_text(ctx, source, name, diags, &error);
    free(text);
    if (!printed) {
      MlirLocation loc = mlirLocationFileLineColGet(ctx, file, 0, 0);
      size_t n =
          strlen("malformed MLIR bytecode: ") + (error ? strlen(error) : 0);
      char *msg = malloc(n + 1);
      if (msg)
        snprintf(msg, n + 1, "malformed MLIR bytecode%s%s", error ? ": " : "",
                 error ? error : "");
      mlirEmitError(loc, msg ? msg : "malformed MLIR bytecode");
      free(msg);
      free(error);
      return (MlirOperation){NULL};
    }
    struct drv_chunk whole = {printed, strlen(printed), 1};
    MlirOperation op = drv_parse_op(ctx, name, &whole, diags, implicit_module);
    free(printed);
    return op;
  }
  /* Locations carry the file's name, also those of an implicit module
   * (whose parser reports a silent failure itself). */
  MlirOperation op;
  if (implicit_module) {
    op = mlirModuleGetOperation(
        coroModuleCreateParseWithName(ctx, source, file));
  } else {
    bool had_errors = diags && drv_diags_has_errors(diags);
    op = mlirOperationCreateParse(ctx, source, file);
    if (mlirOperationIsNull(op) && diags && !had_errors &&
        !drv_diags_has_errors(diags))
      coroEmitSilentParseFailure(ctx, source, file);
  }
  free(text);
  return op;
}

MlirModule drv_parse(MlirContext ctx, const char *name,
                     const struct drv_chunk *chunk, struct drv_diags *diags) {
  MlirOperation op = drv_parse_op(ctx, name, chunk, diags, true);
  return mlirOperationIsNull(op) ? (MlirModule){NULL}
                                 : mlirModuleFromOperation(op);
}

/*===-- --verify-diagnostics ----------------------------------------------===*/

struct expectation {
  MlirDiagnosticSeverity severity;
  unsigned line;    /* 0 for @unknown */
  unsigned at_line; /* where the annotation is written */
  unsigned at_col;
  const char *text;
  size_t len;
  bool matched;
};

static bool parse_severity(const char **p, MlirDiagnosticSeverity *sev) {
  static const struct {
    const char *word;
    MlirDiagnosticSeverity sev;
  } kinds[] = {{"error", MlirDiagnosticError},
               {"warning", MlirDiagnosticWarning},
               {"note", MlirDiagnosticNote},
               {"remark", MlirDiagnosticRemark}};
  for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); ++i) {
    size_t n = strlen(kinds[i].word);
    if (strncmp(*p, kinds[i].word, n) == 0) {
      *p += n;
      *sev = kinds[i].sev;
      return true;
    }
  }
  return false;
}

/* Parses the annotation starting right after "expected-" on line `line`
 * (which ends at `eol`). Returns false if it is not well-formed. */
static bool parse_expectation(const char *p, const char *eol, unsigned line,
                              struct expectation *e) {
  if (!parse_severity(&p, &e->severity))
    return false;
  e->line = line;
  /* Like mlir-opt: blanks may stand between the severity and its '@'. */
  while (p < eol && (*p == ' ' || *p == '\t'))
    ++p;
  if (p < eol && *p == '@') {
    ++p;
    if (strncmp(p, "above", 5) == 0) {
      e->line = line - 1;
      p += 5;
    } else if (strncmp(p, "below", 5) == 0) {
      e->line = line + 1;
      p += 5;
    } else if (strncmp(p, "unknown", 7) == 0) {
      e->line = 0;
      p += 7;
    } else if (*p == '+' || *p == '-') {
      char sign = *p++;
      if (p >= eol || !isdigit((unsigned char)*p))
        return false;
      long off = strtol(p, (char **)&p, 10);
      e->line = sign == '+' ? line + (unsigned)off : line - (unsigned)off;
    } else {
      return false;
    }
  }
  while (p < eol && (*p == ' ' || *p == '\t'))
    ++p;
  if (eol - p < 4 || p[0] != '{' || p[1] != '{')
    return false;
  p += 2;
  const char *close = p;
  while (close + 1 < eol && !(close[0] == '}' && close[1] == '}'))
    ++close;
  if (close + 1 >= eol)
    return false;
  e->text = p;
  e->len = (size_t)(close - p);
  return true;
}

static bool contains(const char *hay, const char *needle, size_t len) {
  if (len == 0)
    return true;
  for (const char *p = hay; *p; ++p)
    if (strncmp(p, needle, len) == 0)
      return true;
  return false;
}

bool drv_verify_expected(const char *name, const struct drv_chunk *chunk,
                         const struct drv_diags *diags) {
  size_t cap = 16, n = 0;
  struct expectation *expected = xrealloc(NULL, cap * sizeof(*expected));
  bool ok = true;
  const char *p = chunk->text, *end = p + chunk->len;
  for (unsigned line = chunk->first_line; p < end; ++line) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol)
      eol = end;
    for (const char *q = p; q + 9 <= eol; ++q) {
      if (memcmp(q, "expected-", 9) != 0)
        continue;
      struct expectation e = {0};
      e.at_line = line;
      e.at_col = (unsigned)(q - p) + 1;
      if (!parse_expectation(q + 9, eol, line, &e)) {
        fprintf(stderr,
                "%s:%u:%u: error: malformed expected-* annotation (want "
                "'expected-error[@+N|@-N|@above|@below|@unknown] {{text}}')\n",
                name, line, e.at_col);
        print_source_line(diags, name, line, e.at_col);
        ok = false;
        break;
      }
      if (n == cap)
        expected = xrealloc(expected, (cap *= 2) * sizeof(*expected));
      expected[n++] = e;
      break;
    }
    p = eol + 1;
  }

  /* found[i]: whether diagnostic i matched an annotation. */
  bool *found = calloc(diags->count ? diags->count : 1, sizeof(*found));
  for (size_t i = 0; i < diags->count; ++i) {
    const struct drv_diag *d = &diags->items[i];
    unsigned want_line = d->file ? d->line : 0;
    bool hit = false;
    for (size_t j = 0; j < n && !hit; ++j) {
      struct expectation *e = &expected[j];
      if (!e->matched && e->severity == d->severity && e->line == want_line &&
          contains(d->message, e->text, e->len))
        hit = e->matched = true;
    }
    if (found)
      found[i] = hit;
    /* The op note of an expected diagnostic needs no annotation. */
    if (hit || (d->op_note && found && d->parent >= 0 && found[d->parent]))
      continue;
    ok = false;
    const char *sev = coroDiagnosticSeverityName(d->severity);
    if (d->file) {
      const char *file = input_file(d->file, name);
      fprintf(stderr, "%s:%u:%u: error: unexpected %s: %s\n", file, d->line,
              d->col, sev, d->message);
      print_source_line(diags, file, d->line, d->col);
    } else {
      fprintf(stderr, "%s: error: unexpected %s: %s\n", name, sev, d->message);
    }
  }
  free(found);
  for (size_t j = 0; j < n; ++j) {
    if (expected[j].matched)
      continue;
    ok = false;
    fprintf(stderr, "%s:%u:%u: error: expected %s \"%.*s\" was not produced\n",
            name, expected[j].at_line, expected[j].at_col,
            coroDiagnosticSeverityName(expected[j].severity),
            (int)expected[j].len, expected[j].text);
    print_source_line(diags, name, expected[j].at_line, expected[j].at_col);
  }
  free(expected);
  return ok;
}

/*===-- Tool set-up -------------------------------------------------------===*/

/* Tools are single programs: the name they report fatal errors under is
 * process state, set once before any work starts. */
static const char *fatal_tool = "coro";

static void on_fatal_error(const char *reason) {
  fprintf(stderr, "%s: error: %s\n", fatal_tool, reason);
  fflush(stderr);
  fflush(stdout);
  _Exit(1);
}

void drv_install_fatal_error_handler(const char *tool) {
  fatal_tool = tool;
  LLVMInstallFatalErrorHandler(on_fatal_error);
}

bool drv_input_open(const char *tool, const char *path, struct drv_input *in) {
  memset(in, 0, sizeof(*in));
  if (!drv_read_source(tool, path, &in->src))
    return false;
  in->ctx = mlirContextCreateWithThreading(false);
  in->diags.file_name = in->src.name;
  if (!drv_is_bytecode(in->src.data, in->src.len)) {
    in->diags.source = in->src.data;
    in->diags.source_len = in->src.len;
  }
  in->handler = drv_diags_attach(in->ctx, &in->diags);
  drv_split(&in->src, NULL, &in->chunks);
  if (mlirLogicalResultIsSuccess(coroDialectLoad(in->ctx)))
    in->module = drv_parse(in->ctx, in->src.name, &in->chunks[0], &in->diags);
  return true;
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
