/* parse.c - parsing a chunk of the input with mlir-opt's rules, behind two
 * guards for input MLIR cannot take safely.
 *
 * Nesting: MLIR's parser, printer, verifier and walkers recurse per level,
 * so a pre-scan of the text rejects nesting deeper than DRV_MAX_NESTING
 * before MLIR sees it (the tools run on drv_run_with_big_stack's stack, on
 * which that depth fits; bytecode's modules are held to the same depth).
 * Bytecode: MLIR's reader can corrupt memory on malformed bytecode, so it
 * is read in a forked child that writes it back as bytecode of MLIR's own
 * writer (text would round f80 and f128 constants); only that is read in
 * the tool's process.
 *
 * Diagnostics go to the context's handler (drv_diags_attach); a chunk is
 * parsed from an owned copy padded so that its lines keep their numbers in
 * the file, and the returned module or op is owned by the caller. See
 * driver.h for the contract. LLVM IR (text or bitcode) is imported into
 * the LLVM dialect by coroImportLLVMIR instead. */
#define _POSIX_C_SOURCE 200809L
#include "tools/common/alloc.h"
#include "tools/common/driver_internal.h"

#include "coro-c/Diagnostics.h"
#include "coro-c/Dialect.h"
#include "coro-c/Translate.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/*===-- The nesting pre-scan ----------------------------------------------===*/

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
  unsigned depth;          /* deepest nesting its definition reaches */
  unsigned long long text; /* bytes it stands for, uses expanded
                              (saturating) */
};

struct scan {
  unsigned depth;                          /* open brackets */
  unsigned extra;                          /* operators in open levels */
  unsigned level_ops[DRV_MAX_NESTING + 2]; /* operators per open level */
  struct alias *aliases;                   /* open-addressing table */
  size_t alias_cap, alias_count;
  struct alias *defining; /* alias whose definition is being scanned */
  const char *def_start;  /* where that definition's text starts */
  bool too_long;          /* stopped at a use of an alias past
                             DRV_MAX_ALIAS_TEXT */
};

/* The definition being scanned ends at `p`: its own bytes count. */
static void end_definition(struct scan *s, const char *p) {
  if (s->defining && p > s->def_start) {
    unsigned long long n = (unsigned long long)(p - s->def_start);
    s->defining->text = s->defining->text + n < s->defining->text
                            ? ~0ull
                            : s->defining->text + n;
  }
  s->defining = NULL;
}

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

/* Returns the entry for alias `name`, creating it when `create`; NULL when
 * absent and not created. */
static struct alias *alias_get(struct scan *s, const char *name, size_t len,
                               bool create) {
  if (create && (s->alias_count + 1) * 2 > s->alias_cap) {
    size_t cap = s->alias_cap ? s->alias_cap * 2 : 64;
    struct alias *old = s->aliases;
    size_t old_cap = s->alias_cap;
    s->aliases = drv_xcalloc(cap, sizeof(*s->aliases));
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
  *a = (struct alias){name, len, 0, 0};
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
    s->def_start = r + 1;
    return q;
  }
  struct alias *a = alias_get(s, name, len, false);
  if (a && !charge(s, a->depth))
    *ok = false;
  if (a && a->text > DRV_MAX_ALIAS_TEXT) {
    s->too_long = true;
    *ok = false;
  } else if (a && s->defining) {
    /* the use stands for the used alias's text, less its own name */
    unsigned long long t = s->defining->text + a->text;
    s->defining->text = t < a->text ? ~0ull : t;
  }
  return q - 1;
}

/* Finds the first point nested deeper than DRV_MAX_NESTING. Returns false
 * and sets line/col if there is one. */
static bool nesting_ok(const struct drv_chunk *chunk, unsigned *line,
                       unsigned *col, bool *too_long) {
  struct scan *s = drv_xcalloc(1, sizeof(*s));
  const char *p = chunk->text, *end = p + chunk->len;
  unsigned ln = chunk->first_line, cl = 1;
  bool ok = true;
  for (; p < end; ++p, ++cl) {
    char c = *p;
    if (c == '\n') {
      ++ln;
      cl = 0;
      if (s->depth == 0)
        end_definition(s, p); /* a top-level alias definition ends here */
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
        end_definition(s, p + 1);
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
  *too_long = s->too_long;
  free(s->aliases);
  free(s);
  return ok;
}

/* Present when a sanitizer is linked in (coro-fuzz, sanitizer builds). */
extern void __sanitizer_set_death_callback(void (*callback)(void))
    __attribute__((weak));

/*===-- The bytecode guard ------------------------------------------------===*/

/* Writes `s` to the pipe *fd, in the child: a failed write ends it. */
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

/* Runs `work(fd, arg)` in a forked child, which writes to the pipe `fd`
 * and ends with _exit; returns what it wrote (owned, NUL-terminated, *len
 * bytes before the NUL) and sets *status to its wait status, or returns
 * NULL when no child could be started. */
static char *run_child(void (*work)(int fd, void *arg), void *arg, size_t *len,
                       int *status) {
  int fds[2];
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
    /* what a crashing reader prints (an abort's message, a sanitizer's
     * report) is not the tool's to show: the error says what happened */
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0)
      dup2(null, 2);
    /* and a crash ends the child, whatever handlers the tool installed
     * (coro-fuzz's libFuzzer would report it as a crash of the fuzzer and
     * save the input, although the tool reports it as an error) */
    static const int fatal[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
    for (size_t i = 0; i < sizeof fatal / sizeof *fatal; ++i)
      signal(fatal[i], SIG_DFL);
    /* the same for a sanitizer's report of a reader's bad access, which
     * ends the child through the death callback libFuzzer installs */
    if (__sanitizer_set_death_callback)
      __sanitizer_set_death_callback(NULL);
    work(fds[1], arg);
    _exit(0); /* nothing of the child's context is trusted or destroyed */
  }
  close(fds[1]);
  size_t cap = 1 << 16, n = 0;
  char *data = drv_xmalloc(cap);
  for (;;) {
    if (n + 1 >= cap)
      data = drv_xrealloc(data, cap *= 2);
    ssize_t got = read(fds[0], data + n, cap - n - 1);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      break;
    n += (size_t)got;
  }
  close(fds[0]);
  *status = 0;
  while (waitpid(pid, status, 0) < 0 && errno == EINTR)
    ;
  data[n] = '\0';
  *len = n;
  return data;
}

struct bytecode_child {
  MlirContext ctx;
  MlirStringRef source;
  const char *name;
  struct drv_diags *diags;
};

/* Whether `op` nests regions more than `limit` levels deep. */
static bool nested_deeper(MlirOperation op, int limit) {
  if (limit < 0)
    return true;
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); ++r)
    for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
         !mlirBlockIsNull(b); b = mlirBlockGetNextInRegion(b))
      for (MlirOperation o = mlirBlockGetFirstOperation(b);
           !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o))
        if (nested_deeper(o, limit - 1))
          return true;
  return false;
}

static void read_bytecode(int fd, void *arg) {
  const struct bytecode_child *c = arg;
  size_t before = c->diags->count;
  MlirOperation op = mlirOperationCreateParse(
      c->ctx, c->source, mlirStringRefCreateFromCString(c->name));
  if (mlirOperationIsNull(op)) {
    const char *msg = c->diags->count > before ? c->diags->items[before].message
                                               : "could not read MLIR bytecode";
    append_pipe(mlirStringRefCreateFromCString("E"), &fd);
    append_pipe(mlirStringRefCreateFromCString(msg), &fd);
    return;
  }
  /* the limit the text's pre-scan sets, on the module's regions */
  if (nested_deeper(op, DRV_MAX_NESTING)) {
    char msg[80];
    snprintf(msg, sizeof msg, "nesting deeper than %d levels is not supported",
             DRV_MAX_NESTING);
    append_pipe(mlirStringRefCreateFromCString("E"), &fd);
    append_pipe(mlirStringRefCreateFromCString(msg), &fd);
    return;
  }
  /* bytecode again, not text: MLIR's parser reads a decimal float literal
   * through a double, so an f80 or f128 constant printed as text would
   * come back rounded; bytecode keeps every bit (and the locations) */
  append_pipe(mlirStringRefCreateFromCString("B"), &fd);
  mlirOperationWriteBytecode(op, append_pipe, &fd);
}

/* MLIR's bytecode reader can corrupt memory on some malformed inputs (it
 * reads uninitialised state; the crash comes at random, often when the
 * context is destroyed). So bytecode is read in a child process that
 * writes the module back as bytecode of MLIR's own writer, from a module
 * it read and verified, and only that is read here. Returns the top-level
 * op, in a module of its own when `implicit_module` and it is not one, or
 * null with *error (owned, null when the child ended otherwise) set. */
static MlirOperation bytecode_via_child(MlirContext ctx, MlirStringRef source,
                                        const char *name,
                                        struct drv_diags *diags,
                                        bool implicit_module, char **error) {
  *error = NULL;
  struct bytecode_child c = {ctx, source, name, diags};
  size_t len;
  int status;
  char *data = run_child(read_bytecode, &c, &len, &status);
  if (!data)
    return (MlirOperation){NULL};
  if (len == 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
      (data[0] != 'E' && data[0] != 'B')) {
    free(data);
    return (MlirOperation){NULL};
  }
  if (data[0] == 'E') {
    memmove(data, data + 1, len);
    *error = data;
    return (MlirOperation){NULL};
  }
  /* the reader gets a buffer of its own, aligned as malloc aligns */
  char *bytecode = drv_xmalloc(len);
  memcpy(bytecode, data + 1, len - 1);
  free(data);
  MlirOperation op =
      mlirOperationCreateParse(ctx, mlirStringRefCreate(bytecode, len - 1),
                               mlirStringRefCreateFromCString(name));
  free(bytecode);
  if (mlirOperationIsNull(op) || !implicit_module ||
      mlirStringRefEqual(mlirIdentifierStr(mlirOperationGetName(op)),
                         mlirStringRefCreateFromCString("builtin.module")))
    return op;
  MlirModule m = mlirModuleCreateEmpty(mlirOperationGetLocation(op));
  mlirBlockAppendOwnedOperation(mlirModuleGetBody(m), op);
  return mlirModuleGetOperation(m);
}

bool drv_is_bytecode(const char *text, size_t len) {
  return len >= 4 && memcmp(text, "ML\xefR", 4) == 0;
}

/*===-- LLVM IR -----------------------------------------------------------===*/

bool drv_is_llvm_bitcode(const char *text, size_t len) {
  return len >= 4 && (memcmp(text, "BC\xc0\xde", 4) == 0 ||
                      memcmp(text, "\xde\xc0\x17\x0b", 4) == 0);
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

bool drv_is_llvm_ir(const char *name, const char *text, size_t len) {
  return drv_is_llvm_bitcode(text, len) || ends_with(name, ".ll") ||
         ends_with(name, ".bc");
}

bool drv_is_binary(const char *text, size_t len) {
  return drv_is_bytecode(text, len) || drv_is_llvm_bitcode(text, len);
}

/* LLVM's IR readers and MLIR's importer are not made for hostile input
 * either (and a crash there is out of reach of any check of ours), so LLVM
 * IR is imported in a child process too. The child sends each diagnostic
 * the import made as a record
 *   D<severity> <line> <col> <parent> <op_note> <file length or -1>
 *   <message length>\n<file><message>
 * (parent: an index among these records, or -1), then, when the import
 * succeeded, B and the module as MLIR bytecode (which keeps the
 * locations, and every bit of a constant). */
struct llvm_ir_child {
  MlirContext ctx;
  MlirStringRef source;
  const char *name;
};

static void send_diag(int fd, const struct drv_diag *d, long parent) {
  char head[160];
  size_t file_len = d->file ? strlen(d->file) : 0;
  snprintf(head, sizeof head, "D%d %u %u %ld %d %ld %zu\n", (int)d->severity,
           d->line, d->col, parent, d->op_note ? 1 : 0,
           d->file ? (long)file_len : -1L, strlen(d->message));
  append_pipe(mlirStringRefCreateFromCString(head), &fd);
  if (d->file)
    append_pipe(mlirStringRefCreate(d->file, file_len), &fd);
  append_pipe(mlirStringRefCreateFromCString(d->message), &fd);
}

static void import_llvm_ir_child(int fd, void *arg) {
  const struct llvm_ir_child *c = arg;
  struct drv_diags diags = {.file_name = c->name};
  /* attached last, it is asked first: it keeps them all */
  drv_diags_attach(c->ctx, &diags);
  MlirModule m = coroImportLLVMIR(c->ctx, c->source,
                                  mlirStringRefCreateFromCString(c->name));
  for (size_t i = 0; i < diags.count; ++i)
    send_diag(fd, &diags.items[i], diags.items[i].parent);
  if (!mlirModuleIsNull(m)) {
    append_pipe(mlirStringRefCreateFromCString("B"), &fd);
    mlirOperationWriteBytecode(mlirModuleGetOperation(m), append_pipe, &fd);
  }
}

/* Reads the child's record at *p (up to `end`) into `diags`, where its
 * first record went at index `base` (without `diags`, an error is emitted
 * again, at `at` when it has no file); false on a malformed record. */
static bool take_diag(const char **p, const char *end, struct drv_diags *diags,
                      size_t base, MlirLocation at) {
  int severity, op_note, used = 0;
  unsigned line, col;
  long parent, file_len;
  size_t msg_len;
  if (sscanf(*p, "D%d %u %u %ld %d %ld %zu\n%n", &severity, &line, &col,
             &parent, &op_note, &file_len, &msg_len, &used) != 7 ||
      used == 0)
    return false;
  const char *q = *p + used;
  size_t need = (file_len > 0 ? (size_t)file_len : 0) + msg_len;
  if ((size_t)(end - q) < need)
    return false;
  struct drv_diag d = {.severity = (MlirDiagnosticSeverity)severity,
                       .line = line,
                       .col = col,
                       .parent =
                           parent < 0 ? DRV_NO_PARENT : (long)base + parent,
                       .op_note = op_note != 0};
  if (file_len >= 0)
    d.file = drv_xdup_n(q, (size_t)file_len);
  d.message = drv_xdup_n(q + (file_len > 0 ? file_len : 0), msg_len);
  if (diags) {
    drv_diags_push(diags, &d);
  } else if (d.severity == MlirDiagnosticError) { /* nobody collects them */
    MlirContext ctx = mlirLocationGetContext(at);
    mlirEmitError(
        d.file ? mlirLocationFileLineColGet(
                     ctx, mlirStringRefCreateFromCString(d.file), d.line, d.col)
               : at,
        d.message);
  }
  free(d.file);
  free(d.message);
  *p = q + need;
  return true;
}

/* The chunk (the whole input: LLVM IR is never split) imported into the
 * LLVM dialect in a child process; the importer's own located errors on
 * failure, and an error at the file when the child did not end well. */
static MlirOperation import_llvm_ir(MlirContext ctx, const char *name,
                                    const struct drv_chunk *chunk,
                                    struct drv_diags *diags) {
  struct llvm_ir_child c = {ctx, mlirStringRefCreate(chunk->text, chunk->len),
                            name};
  size_t len;
  int status;
  char *data = run_child(import_llvm_ir_child, &c, &len, &status);
  MlirLocation file = mlirLocationFileLineColGet(
      ctx, mlirStringRefCreateFromCString(name), 0, 0);
  if (!data) {
    mlirEmitError(file, "could not start a process to read the LLVM IR");
    return (MlirOperation){NULL};
  }
  const char *p = data, *end = data + len;
  size_t base = diags ? diags->count : 0;
  while (p < end && *p == 'D' && take_diag(&p, end, diags, base, file))
    ;
  MlirOperation op = {NULL};
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    char msg[160];
    if (WIFSIGNALED(status))
      snprintf(msg, sizeof msg,
               "could not read the LLVM IR: its reader crashed (signal %d)",
               WTERMSIG(status));
    else /* a sanitizer's report ends the child with a status */
      snprintf(msg, sizeof msg,
               "could not read the LLVM IR: its reader crashed (exit status "
               "%d)",
               WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    mlirEmitError(file, msg);
  } else if (p < end && *p == 'B') {
    /* bytecode, not text: MLIR's parser reads a decimal float literal
     * through a double, so an f80 or f128 constant printed as text would
     * come back rounded; bytecode keeps every bit (and the locations). Its
     * reader gets a buffer of its own, aligned as malloc aligns. */
    size_t n = (size_t)(end - p - 1);
    char *bytecode = drv_xmalloc(n + 1);
    memcpy(bytecode, p + 1, n);
    op = mlirOperationCreateParse(ctx, mlirStringRefCreate(bytecode, n),
                                  mlirStringRefCreateFromCString(name));
    free(bytecode);
  } else if (!diags || !drv_diags_has_errors(diags)) {
    mlirEmitError(file, "could not read the LLVM IR");
  }
  free(data);
  return op;
}

/*===-- Parsing -----------------------------------------------------------===*/

/* The chunk as its own buffer, preceded by newlines so that its lines keep
 * their numbers in the whole file. Owned by the caller. */
static char *padded_text(const struct drv_chunk *chunk, size_t *len) {
  size_t pad = chunk->first_line - 1;
  char *text = drv_xmalloc(pad + chunk->len + 1);
  memset(text, '\n', pad);
  memcpy(text + pad, chunk->text, chunk->len);
  text[pad + chunk->len] = '\0';
  *len = pad + chunk->len;
  return text;
}

MlirOperation drv_parse_op(MlirContext ctx, const char *name,
                           const struct drv_chunk *chunk,
                           struct drv_diags *diags, bool implicit_module) {
  MlirStringRef file = mlirStringRefCreateFromCString(name);
  if (drv_is_llvm_ir(name, chunk->text, chunk->len))
    return import_llvm_ir(ctx, name, chunk, diags);
  size_t len;
  char *text = padded_text(chunk, &len);
  MlirStringRef source = mlirStringRefCreate(text, len);
  /* bytecode first: its bytes are no text to scan (the child that reads
   * it checks how deep its regions nest) */
  if (drv_is_bytecode(text, len)) {
    char *error = NULL;
    MlirOperation op =
        bytecode_via_child(ctx, source, name, diags, implicit_module, &error);
    free(text);
    if (mlirOperationIsNull(op)) {
      MlirLocation loc = mlirLocationFileLineColGet(ctx, file, 0, 0);
      size_t n =
          strlen("malformed MLIR bytecode: ") + (error ? strlen(error) : 0);
      char *msg = drv_xmalloc(n + 1);
      snprintf(msg, n + 1, "malformed MLIR bytecode%s%s", error ? ": " : "",
               error ? error : "");
      mlirEmitError(loc, msg);
      free(msg);
      free(error);
      return (MlirOperation){NULL};
    }
    return op;
  }
  unsigned line, col;
  bool too_long;
  if (!nesting_ok(chunk, &line, &col, &too_long)) {
    MlirLocation loc = mlirLocationFileLineColGet(ctx, file, line, col);
    char msg[256];
    if (too_long)
      snprintf(msg, sizeof(msg),
               "this alias stands for more than %llu MiB of text once the "
               "aliases it uses are expanded, which MLIR's parser would read "
               "again at every use (time exponential in the aliases): "
               "not supported",
               DRV_MAX_ALIAS_TEXT >> 20);
    else
      snprintf(msg, sizeof(msg),
               "nesting deeper than %d levels is not supported",
               DRV_MAX_NESTING);
    mlirEmitError(loc, msg);
    free(text);
    return (MlirOperation){NULL};
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
