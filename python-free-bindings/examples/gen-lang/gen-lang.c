/* gen-lang.c - a frontend for a tiny generator language, embedding coro.
 *
 *   gen-lang FILE [--abi=switch|retcon|...] [--print-coro] [-O0..-O3]
 *
 * A program is a few lines, each defining a generator over a counter `i`:
 *
 *   gen squares from 1 to 6 yield i * i + 1
 *   gen countdown from 5 to 0 step -1 yield 100 - i * 2
 *
 * `i` runs from the first bound towards the second (excluded) by `step`
 * (default 1); the generator yields the expression (integers, `i`, + - *,
 * parentheses) for each value. Lines starting with `#` are comments.
 *
 * The frontend builds, with the coro C API and MLIR's generic op builder,
 * one coroutine per generator (`coro.abi` as chosen, switch by default) and
 * a function `@drain_<name>() -> i64` that runs it to its end, passing each
 * value to the host's `gen_emit(int64_t)` and returning their sum. Then it
 * verifies the module (coroVerify), lowers it (coroLowerToLLVMDialect),
 * JIT-compiles it (coroJITCreate), gives the JIT the host function and calls
 * every drain function, printing `name: v1 v2 ... -> sum S`. The JIT also
 * loads coro's runtime library, which async coroutines call. `--print-coro`
 * prints the built module instead of running it. Syntax errors and every
 * diagnostic are printed as `FILE:LINE:COL: error: ...`; exit status 1.
 *
 * Ownership: the context owns types, attributes and locations; ops built
 * here are appended to blocks at once (the block takes them), blocks to
 * regions, and the module is destroyed before the context. */
#include "coro-c/Coro.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*===-- IR building ------------------------------------------------------===*/

struct ir {
  MlirContext ctx;
  MlirType i64, i1, handle;
  MlirModule module;
};

static MlirNamedAttribute named(MlirContext ctx, const char *name,
                                MlirAttribute attr) {
  return mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)), attr);
}

/* Creates the generic op `name` and appends it to `block` (which owns it). */
static MlirOperation add(MlirBlock block, MlirLocation loc, const char *name,
                         intptr_t nOperands, const MlirValue *operands,
                         intptr_t nResults, const MlirType *results,
                         intptr_t nAttrs, const MlirNamedAttribute *attrs,
                         intptr_t nSuccessors, MlirBlock *successors) {
  MlirOperationState s =
      mlirOperationStateGet(mlirStringRefCreateFromCString(name), loc);
  mlirOperationStateAddOperands(&s, nOperands, operands);
  mlirOperationStateAddResults(&s, nResults, results);
  mlirOperationStateAddAttributes(&s, nAttrs, attrs);
  mlirOperationStateAddSuccessors(&s, nSuccessors, successors);
  MlirOperation op = mlirOperationCreate(&s);
  mlirBlockAppendOwnedOperation(block, op);
  return op;
}

/* Appends a coro builder's op (owned until appended) and returns result 0. */
static MlirValue put(MlirBlock block, MlirOperation op) {
  mlirBlockAppendOwnedOperation(block, op);
  return mlirOperationGetNumResults(op) ? mlirOperationGetResult(op, 0)
                                        : (MlirValue){NULL};
}

static MlirValue constant(struct ir *ir, MlirBlock b, MlirLocation loc,
                          int64_t v) {
  MlirNamedAttribute value =
      named(ir->ctx, "value", mlirIntegerAttrGet(ir->i64, v));
  return mlirOperationGetResult(
      add(b, loc, "arith.constant", 0, NULL, 1, &ir->i64, 1, &value, 0, NULL),
      0);
}

static MlirValue binary(struct ir *ir, MlirBlock b, MlirLocation loc,
                        const char *name, MlirValue l, MlirValue r) {
  MlirValue operands[] = {l, r};
  return mlirOperationGetResult(
      add(b, loc, name, 2, operands, 1, &ir->i64, 0, NULL, 0, NULL), 0);
}

/* arith.cmpi with the predicate `slt` (2) or `sgt` (4). */
static MlirValue compare(struct ir *ir, MlirBlock b, MlirLocation loc,
                         int64_t predicate, MlirValue l, MlirValue r) {
  MlirValue operands[] = {l, r};
  MlirNamedAttribute pred =
      named(ir->ctx, "predicate", mlirIntegerAttrGet(ir->i64, predicate));
  return mlirOperationGetResult(
      add(b, loc, "arith.cmpi", 2, operands, 1, &ir->i1, 1, &pred, 0, NULL), 0);
}

static void branch(MlirBlock b, MlirLocation loc, MlirBlock dest,
                   intptr_t nArgs, const MlirValue *args) {
  add(b, loc, "cf.br", nArgs, args, 0, NULL, 0, NULL, 1, &dest);
}

/* cf.cond_br %cond, ^t, ^f(%fArg?) */
static void cond_branch(struct ir *ir, MlirBlock b, MlirLocation loc,
                        MlirValue cond, MlirBlock t, MlirBlock f,
                        MlirValue fArg) {
  bool hasArg = !mlirValueIsNull(fArg);
  MlirValue operands[] = {cond, fArg};
  int32_t sizes[] = {1, 0, hasArg};
  MlirNamedAttribute seg = named(ir->ctx, "operandSegmentSizes",
                                 mlirDenseI32ArrayGet(ir->ctx, 3, sizes));
  MlirBlock succ[] = {t, f};
  add(b, loc, "cf.cond_br", 1 + hasArg, operands, 0, NULL, 1, &seg, 2, succ);
}

static MlirBlock new_block(MlirRegion region, intptr_t nArgs,
                           const MlirType *types, MlirLocation loc) {
  MlirLocation locs[1] = {loc};
  MlirBlock b = mlirBlockCreate(nArgs, types, locs);
  mlirRegionAppendOwnedBlock(region, b);
  return b;
}

/* A func.func with one entry block (none for a declaration), appended to
 * the module; returns its region. */
static MlirRegion add_func(struct ir *ir, MlirLocation loc, const char *name,
                           MlirType type, bool declaration) {
  MlirOperationState s =
      mlirOperationStateGet(mlirStringRefCreateFromCString("func.func"), loc);
  MlirNamedAttribute attrs[] = {
      named(ir->ctx, "sym_name",
            mlirStringAttrGet(ir->ctx, mlirStringRefCreateFromCString(name))),
      named(ir->ctx, "function_type", mlirTypeAttrGet(type)),
      named(ir->ctx, "sym_visibility",
            mlirStringAttrGet(ir->ctx,
                              mlirStringRefCreateFromCString("private")))};
  mlirOperationStateAddAttributes(&s, declaration ? 3 : 2, attrs);
  MlirRegion region = mlirRegionCreate();
  mlirOperationStateAddOwnedRegions(&s, 1, &region);
  MlirOperation f = mlirOperationCreate(&s);
  mlirBlockAppendOwnedOperation(mlirModuleGetBody(ir->module), f);
  return mlirOperationGetRegion(f, 0);
}

/* @drain_<name>: calls the generator, passes each value to @gen_emit until
 * the generator is done, destroys it and returns the sum. */
static void build_drain(struct ir *ir, MlirLocation loc, const char *name) {
  char fn[160];
  snprintf(fn, sizeof fn, "drain_%s", name);
  MlirType type = mlirFunctionTypeGet(ir->ctx, 0, NULL, 1, &ir->i64);
  MlirRegion r = add_func(ir, loc, fn, type, false);
  MlirBlock entry = new_block(r, 0, NULL, loc);
  MlirBlock head = new_block(r, 1, &ir->i64, loc);
  MlirBlock body = new_block(r, 0, NULL, loc);
  MlirBlock exit = new_block(r, 0, NULL, loc);

  MlirNamedAttribute callee = named(
      ir->ctx, "callee",
      mlirFlatSymbolRefAttrGet(ir->ctx, mlirStringRefCreateFromCString(name)));
  MlirValue g = mlirOperationGetResult(add(entry, loc, "func.call", 0, NULL, 1,
                                           &ir->handle, 1, &callee, 0, NULL),
                                       0);
  MlirValue zero = constant(ir, entry, loc, 0);
  branch(entry, loc, head, 1, &zero);

  MlirValue acc = mlirBlockGetArgument(head, 0);
  MlirValue done = put(head, coroDoneOpCreate(loc, g));
  cond_branch(ir, head, loc, done, exit, body, (MlirValue){NULL});

  MlirValue v = put(body, coroPromiseOpCreate(loc, g));
  MlirNamedAttribute emit =
      named(ir->ctx, "callee",
            mlirFlatSymbolRefAttrGet(
                ir->ctx, mlirStringRefCreateFromCString("gen_emit")));
  add(body, loc, "func.call", 1, &v, 0, NULL, 1, &emit, 0, NULL);
  MlirValue next = binary(ir, body, loc, "arith.addi", acc, v);
  put(body, coroResumeOpCreate(loc, g, (MlirValue){NULL}));
  branch(body, loc, head, 1, &next);

  put(exit, coroDestroyOpCreate(loc, g));
  add(exit, loc, "func.return", 1, &acc, 0, NULL, 0, NULL, 0, NULL);
}

/*===-- Parsing (and building while parsing expressions) -----------------===*/

struct parser {
  const char *file;
  unsigned line;
  const char *text, *p; /* the line and the position in it */
  struct ir *ir;
  MlirBlock block; /* where expressions are built */
  MlirValue i;     /* the counter */
  bool failed;
};

static MlirLocation here(struct parser *ps) {
  return mlirLocationFileLineColGet(ps->ir->ctx,
                                    mlirStringRefCreateFromCString(ps->file),
                                    ps->line, (unsigned)(ps->p - ps->text) + 1);
}

/* Reports a syntax error at the current column (once per line). */
static void syntax_error(struct parser *ps, const char *what) {
  if (ps->failed)
    return;
  ps->failed = true;
  fprintf(stderr, "%s:%u:%u: error: %s\n", ps->file, ps->line,
          (unsigned)(ps->p - ps->text) + 1, what);
}

static void skip_blanks(struct parser *ps) {
  while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\r')
    ++ps->p;
}

/* Consumes the word `w` if it is next. */
static bool accept_word(struct parser *ps, const char *w) {
  skip_blanks(ps);
  size_t n = strlen(w);
  if (strncmp(ps->p, w, n) || isalnum((unsigned char)ps->p[n]) ||
      ps->p[n] == '_')
    return false;
  ps->p += n;
  return true;
}

static bool expect_word(struct parser *ps, const char *w) {
  if (accept_word(ps, w))
    return true;
  char msg[64];
  snprintf(msg, sizeof msg, "expected '%s'", w);
  syntax_error(ps, msg);
  return false;
}

static bool parse_int(struct parser *ps, int64_t *out) {
  skip_blanks(ps);
  const char *start = ps->p;
  bool neg = *ps->p == '-';
  if (neg)
    ++ps->p;
  if (!isdigit((unsigned char)*ps->p)) {
    ps->p = start;
    syntax_error(ps, "expected an integer");
    return false;
  }
  int64_t v = 0;
  while (isdigit((unsigned char)*ps->p)) {
    if (v > (INT64_MAX - 9) / 10) {
      ps->p = start;
      syntax_error(ps, "integer too large");
      return false;
    }
    v = v * 10 + (*ps->p++ - '0');
  }
  *out = neg ? -v : v;
  return true;
}

static MlirValue parse_expr(struct parser *ps);

/* factor := INT | 'i' | '(' expr ')' | '-' factor */
static MlirValue parse_factor(struct parser *ps) {
  skip_blanks(ps);
  MlirLocation loc = here(ps);
  if (*ps->p == '(') {
    ++ps->p;
    MlirValue v = parse_expr(ps);
    skip_blanks(ps);
    if (*ps->p != ')') {
      syntax_error(ps, "expected ')'");
      return (MlirValue){NULL};
    }
    ++ps->p;
    return v;
  }
  if (*ps->p == '-') {
    ++ps->p;
    MlirValue v = parse_factor(ps);
    if (mlirValueIsNull(v))
      return v;
    return binary(ps->ir, ps->block, loc, "arith.subi",
                  constant(ps->ir, ps->block, loc, 0), v);
  }
  if (accept_word(ps, "i"))
    return ps->i;
  int64_t n;
  if (!parse_int(ps, &n))
    return (MlirValue){NULL};
  return constant(ps->ir, ps->block, loc, n);
}

/* term := factor ('*' factor)* */
static MlirValue parse_term(struct parser *ps) {
  MlirValue v = parse_factor(ps);
  for (skip_blanks(ps); !mlirValueIsNull(v) && *ps->p == '*'; skip_blanks(ps)) {
    MlirLocation loc = here(ps);
    ++ps->p;
    MlirValue r = parse_factor(ps);
    v = mlirValueIsNull(r) ? r
                           : binary(ps->ir, ps->block, loc, "arith.muli", v, r);
  }
  return v;
}

/* expr := term (('+'|'-') term)* */
static MlirValue parse_expr(struct parser *ps) {
  MlirValue v = parse_term(ps);
  for (skip_blanks(ps); !mlirValueIsNull(v) && (*ps->p == '+' || *ps->p == '-');
       skip_blanks(ps)) {
    MlirLocation loc = here(ps);
    const char *op = *ps->p == '+' ? "arith.addi" : "arith.subi";
    ++ps->p;
    MlirValue r = parse_term(ps);
    v = mlirValueIsNull(r) ? r : binary(ps->ir, ps->block, loc, op, v, r);
  }
  return v;
}

struct names {
  char **items;
  size_t count;
};

static bool parse_name(struct parser *ps, struct names *names, char *out,
                       size_t cap) {
  skip_blanks(ps);
  size_t n = 0;
  while (islower((unsigned char)ps->p[n]) || ps->p[n] == '_' ||
         (n && isdigit((unsigned char)ps->p[n])))
    ++n;
  if (!n || n >= cap || isalnum((unsigned char)ps->p[n])) {
    syntax_error(ps, "expected a generator name ([a-z_][a-z0-9_]*, at most "
                     "63 characters)");
    return false;
  }
  memcpy(out, ps->p, n);
  out[n] = '\0';
  for (size_t k = 0; k < names->count; ++k)
    if (!strcmp(names->items[k], out)) {
      syntax_error(ps, "a generator with this name is already defined");
      return false;
    }
  if (!strcmp(out, "gen_emit") || !strncmp(out, "drain_", 6)) {
    syntax_error(ps, "this name is reserved");
    return false;
  }
  ps->p += n;
  return true;
}

/* gen NAME from INT to INT [step INT] yield EXPR: builds the coroutine
 *
 *   entry:   %h = coro.begin; br ^loop(from)
 *   ^loop(%i): %more = cmpi slt|sgt %i, to; cond_br %more, ^body, ^done
 *   ^body:   %v = EXPR; %destroyed = coro.yield %v; %n = %i + step
 *            cond_br %destroyed, ^done, ^loop(%n)
 *   ^done:   coro.end %h; return %h
 *
 * and its drain function. */
static bool parse_gen(struct parser *ps, struct names *names, const char *abi) {
  struct ir *ir = ps->ir;
  skip_blanks(ps);
  MlirLocation loc = here(ps);
  char name[64];
  int64_t from, to, step = 1;
  if (!expect_word(ps, "gen") || !parse_name(ps, names, name, sizeof name) ||
      !expect_word(ps, "from") || !parse_int(ps, &from) ||
      !expect_word(ps, "to") || !parse_int(ps, &to))
    return false;
  if (accept_word(ps, "step")) {
    if (!parse_int(ps, &step))
      return false;
    if (step == 0) {
      syntax_error(ps, "step must not be 0");
      return false;
    }
  }
  skip_blanks(ps);
  MlirLocation yieldLoc = here(ps);
  if (!expect_word(ps, "yield"))
    return false;

  MlirOperation fn = coroCoroutineCreate(
      loc, mlirStringRefCreateFromCString(name),
      mlirStringRefCreateFromCString(abi), 0, NULL, ir->handle);
  mlirBlockAppendOwnedOperation(mlirModuleGetBody(ir->module), fn);
  MlirRegion r = mlirOperationGetRegion(fn, 0);
  MlirBlock entry = mlirRegionGetFirstBlock(r);
  MlirBlock loop = new_block(r, 1, &ir->i64, loc);
  MlirBlock body = new_block(r, 0, NULL, loc);
  MlirBlock done = new_block(r, 0, NULL, loc);

  MlirValue h = put(entry, coroBeginOpCreate(loc, ir->handle));
  MlirValue first = constant(ir, entry, loc, from);
  branch(entry, loc, loop, 1, &first);

  MlirValue i = mlirBlockGetArgument(loop, 0);
  MlirValue bound = constant(ir, loop, loc, to);
  MlirValue more = compare(ir, loop, loc, step > 0 ? 2 : 4, i, bound);
  cond_branch(ir, loop, loc, more, body, done, (MlirValue){NULL});

  ps->block = body;
  ps->i = i;
  MlirValue v = parse_expr(ps);
  skip_blanks(ps);
  if (!mlirValueIsNull(v) && *ps->p && *ps->p != '\n' && *ps->p != '#')
    syntax_error(ps, "unexpected text after the expression");
  if (ps->failed)
    return false;
  MlirValue destroyed =
      put(body, coroYieldOpCreate(yieldLoc, v, (MlirType){NULL}));
  MlirValue next =
      binary(ir, body, loc, "arith.addi", i, constant(ir, body, loc, step));
  cond_branch(ir, body, loc, destroyed, done, loop, next);

  put(done, coroEndOpCreate(loc, h, (MlirValue){NULL}));
  add(done, loc, "func.return", 1, &h, 0, NULL, 0, NULL, 0, NULL);

  build_drain(ir, loc, name);
  char **grown = realloc(names->items, (names->count + 1) * sizeof(char *));
  char *copy = malloc(strlen(name) + 1);
  if (!grown || !copy) {
    free(copy);
    if (grown)
      names->items = grown;
    syntax_error(ps, "out of memory");
    return false;
  }
  names->items = grown;
  names->items[names->count++] = strcpy(copy, name);
  return true;
}

/* Builds the whole program into ir->module. */
static bool compile(struct ir *ir, const char *file, char *text,
                    struct names *names, const char *abi) {
  MlirLocation loc = mlirLocationFileLineColGet(
      ir->ctx, mlirStringRefCreateFromCString(file), 1, 1);
  MlirType emitType = mlirFunctionTypeGet(ir->ctx, 1, &ir->i64, 0, NULL);
  add_func(ir, loc, "gen_emit", emitType, true);
  bool ok = true;
  unsigned line = 0;
  for (char *p = text; p && *p;) {
    char *nl = strchr(p, '\n');
    if (nl)
      *nl = '\0';
    struct parser ps = {file, ++line, p, p, ir, {NULL}, {NULL}, false};
    skip_blanks(&ps);
    if (*ps.p && *ps.p != '#')
      ok &= parse_gen(&ps, names, abi);
    p = nl ? nl + 1 : NULL;
  }
  return ok;
}

/*===-- The host ---------------------------------------------------------===*/

/* Called by the JIT-compiled drain functions for each value. */
static void gen_emit(int64_t v) { printf(" %lld", (long long)v); }

/* Prints each diagnostic as FILE:LINE:COL: SEVERITY: MESSAGE. */
static void print_to(MlirStringRef s, void *f) {
  fwrite(s.data, 1, s.length, f);
}

static MlirLogicalResult on_diagnostic(MlirDiagnostic d, void *user) {
  MlirStringRef file = {NULL, 0};
  unsigned line = 0, col = 0;
  if (coroLocationGetFileLineCol(mlirDiagnosticGetLocation(d), &file, &line,
                                 &col))
    fprintf(stderr, "%.*s:%u:%u: ", (int)file.length, file.data, line, col);
  else
    fprintf(stderr, "%s: ", (const char *)user);
  fprintf(stderr,
          "%s: ", coroDiagnosticSeverityName(mlirDiagnosticGetSeverity(d)));
  mlirDiagnosticPrint(d, print_to, stderr);
  fprintf(stderr, "\n");
  return mlirLogicalResultSuccess();
}

static void list_conversion(MlirStringRef arg, MlirStringRef desc, void *user) {
  static const char prefix[] = "convert-coro-to-llvm-";
  if (arg.length > sizeof prefix - 1 &&
      !strncmp(arg.data, prefix, sizeof prefix - 1))
    fprintf(stderr, " %.*s", (int)(arg.length - (sizeof prefix - 1)),
            arg.data + sizeof prefix - 1);
}

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 4096, len = 0, n;
  char *buf = malloc(cap);
  while (buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
    len += n;
    if (len + 1 == cap) {
      char *grown = realloc(buf, cap *= 2);
      if (!grown)
        free(buf);
      buf = grown;
    }
  }
  fclose(f);
  if (buf)
    buf[len] = '\0';
  return buf;
}

/* Lowers, compiles and runs every generator's drain function. */
static bool run(struct ir *ir, const struct names *names, int optLevel) {
  CoroLowerConfig config = {.opt_level = optLevel};
  if (mlirLogicalResultIsFailure(coroLowerModule(ir->module, &config)))
    return false;
  /* The runtime (libCoroRuntime.so) serves coroutines of the async ABI. */
  MlirStringRef runtime = mlirStringRefCreateFromCString(CORO_RUNTIME_LIBRARY);
  MlirExecutionEngine jit = coroJITCreate(ir->module, optLevel, 1, &runtime);
  if (mlirExecutionEngineIsNull(jit))
    return false;
  mlirExecutionEngineRegisterSymbol(
      jit, mlirStringRefCreateFromCString("gen_emit"), (void *)gen_emit);
  bool ok = true;
  for (size_t k = 0; ok && k < names->count; ++k) {
    char fn[160];
    snprintf(fn, sizeof fn, "drain_%s", names->items[k]);
    int64_t (*drain)(void) = (int64_t (*)(void))coroJITLookup(jit, fn);
    if (!drain) {
      fprintf(stderr, "gen-lang: error: '%s' not found after compilation\n",
              fn);
      ok = false;
      break;
    }
    printf("%s:", names->items[k]);
    int64_t sum = drain();
    printf(" -> sum %lld\n", (long long)sum);
  }
  mlirExecutionEngineDestroy(jit);
  return ok;
}

int main(int argc, char **argv) {
  const char *path = NULL, *abi = "switch";
  bool printCoro = false;
  int optLevel = 0;
  for (int k = 1; k < argc; ++k) {
    const char *a = argv[k];
    if (!strncmp(a, "--abi=", 6) && a[6])
      abi = a + 6;
    else if (!strcmp(a, "--print-coro"))
      printCoro = true;
    else if (a[0] == '-' && a[1] == 'O' && a[2] >= '0' && a[2] <= '3' && !a[3])
      optLevel = a[2] - '0';
    else if (a[0] != '-' && !path)
      path = a;
    else {
      fprintf(stderr, "usage: gen-lang FILE [--abi=ABI] [--print-coro] "
                      "[-O0..-O3]\n");
      return 1;
    }
  }
  if (!path) {
    fprintf(stderr, "gen-lang: error: no input file\n");
    return 1;
  }
  char *text = read_file(path);
  if (!text) {
    fprintf(stderr, "gen-lang: error: could not read '%s'\n", path);
    return 1;
  }

  struct ir ir;
  ir.ctx = mlirContextCreate();
  mlirContextAttachDiagnosticHandler(ir.ctx, on_diagnostic, "gen-lang", NULL);
  int status = 1;
  struct names names = {NULL, 0};
  if (mlirLogicalResultIsFailure(coroDialectLoad(ir.ctx))) {
    mlirContextDestroy(ir.ctx);
    free(text);
    return 1;
  }
  if (!coroABIIsSupported(mlirStringRefCreateFromCString(abi))) {
    fprintf(stderr,
            "gen-lang: error: no conversion for coro.abi = \"%s\"; "
            "registered:",
            abi);
    coroForEachPass(list_conversion, NULL);
    fprintf(stderr, "\n");
    mlirContextDestroy(ir.ctx);
    free(text);
    return 1;
  }
  ir.i64 = mlirIntegerTypeGet(ir.ctx, 64);
  ir.i1 = mlirIntegerTypeGet(ir.ctx, 1);
  ir.handle = coroHandleTypeGet(ir.i64);
  ir.module = mlirModuleCreateEmpty(mlirLocationFileLineColGet(
      ir.ctx, mlirStringRefCreateFromCString(path), 1, 1));

  if (compile(&ir, path, text, &names, abi) &&
      mlirOperationVerify(mlirModuleGetOperation(ir.module)) &&
      mlirLogicalResultIsSuccess(
          coroVerify(mlirModuleGetOperation(ir.module)))) {
    if (printCoro) {
      mlirOperationPrint(mlirModuleGetOperation(ir.module), print_to, stdout);
      printf("\n");
      status = 0;
    } else if (run(&ir, &names, optLevel)) {
      status = 0;
    }
  }
  fflush(stdout);
  mlirModuleDestroy(ir.module);
  mlirContextDestroy(ir.ctx);
  for (size_t k = 0; k < names.count; ++k)
    free(names.items[k]);
  free(names.items);
  free(text);
  return status;
}
