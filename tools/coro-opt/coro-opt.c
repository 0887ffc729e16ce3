/* coro-opt - mlir-opt with the coro dialect and passes.
 *
 *   coro-opt [FILE|-] [-o OUT] [--pass-pipeline=PIPELINE | --PASS[=OPTS]...]
 *            [--split-input-file] [--verify-diagnostics]
 *            [--remarks-filter=REGEX] [--mlir-timing] [--mlir-...] ...
 *
 * Every upstream dialect and pass is available next to ours; the options
 * are mlir-opt's common ones (`coro-opt --help` lists them, from the table
 * below). Each input module is verified with --coro-verify when it is
 * loaded, before the requested passes run (by their own coro-verify when
 * they start with it, as the coro-lower pipelines do). As in mlir-opt, passes
 * run on several threads unless --mlir-disable-threading, while parsing is
 * single-threaded. Errors are printed as `file:line:col: error: ...` with
 * the source line and a caret, and make the exit status 1; an option that
 * is neither ours nor a registered pass is a usage error. Nothing the input
 * contains aborts the tool (LLVM's fatal errors are turned into ordinary
 * errors as a last resort). */
#include "coro-c/Coro.h"
#include "tools/common/alloc.h"
#include "tools/common/driver.h"
#include "tools/common/print_pieces.h"

#include "mlir-c/Pass.h"
#include "llvm-c/Core.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CORO_VERSION_STRING
#define CORO_VERSION_STRING "unknown"
#endif

static const char *tool = "coro-opt";

struct options {
  const char *input;
  const char *output;
  const char *pipeline; /* --pass-pipeline */
  char *pass_flags;     /* comma-separated elements from --PASS flags */
  size_t pass_flags_len;
  const char *remarks_filter;
  MlirPassDisplayMode statistics_display;
  bool split;
  bool verify_diagnostics;
  bool print_after_all, print_before_all, print_after_failure;
  bool print_after_change, print_module_scope;
  bool timing, statistics, dump_pipeline;
  bool generic, debuginfo, pretty_debuginfo, local_scope, assume_verified;
  bool emit_bytecode;
  bool allow_unregistered;
  bool no_threading, no_implicit_module;
  bool print_op_on_diagnostic, verify_each; /* default true */
  bool show_dialects, version, help;
};

/* The boolean options, as mlir-opt spells them. Each takes an optional
 * `=true|false` (also 1/0), as LLVM's command line does. */
struct bool_option {
  const char *name;
  size_t field; /* offsetof(struct options, ...) */
  const char *help;
};

#define OPT(field) offsetof(struct options, field)
static const struct bool_option bool_options[] = {
    {"split-input-file", OPT(split),
     "Process each '// -----' chunk on its own"},
    {"verify-diagnostics", OPT(verify_diagnostics),
     "Check expected-error/warning/note/remark annotations"},
    {"allow-unregistered-dialect", OPT(allow_unregistered),
     "Accept ops of unknown dialects"},
    {"no-implicit-module", OPT(no_implicit_module),
     "Take the input's one top-level op as is, without wrapping it in a "
     "module (coro-opt's pipeline runs on a builtin.module)"},
    {"emit-bytecode", OPT(emit_bytecode), "Write MLIR bytecode"},
    {"dump-pass-pipeline", OPT(dump_pipeline),
     "Print the pipeline that will run, to stderr"},
    {"verify-each", OPT(verify_each),
     "Verify the IR after each pass (default true)"},
    {"show-dialects", OPT(show_dialects), "List the available dialects"},
    {"mlir-disable-threading", OPT(no_threading), "Run passes on one thread"},
    {"mlir-print-ir-after-all", OPT(print_after_all),
     "Print IR after each pass"},
    {"mlir-print-ir-before-all", OPT(print_before_all),
     "Print IR before each pass"},
    {"mlir-print-ir-after-failure", OPT(print_after_failure),
     "Print IR after a pass that failed"},
    {"mlir-print-ir-after-change", OPT(print_after_change),
     "With --mlir-print-ir-after-all, only when the pass changed it"},
    {"mlir-print-ir-module-scope", OPT(print_module_scope),
     "Print the whole module in IR dumps (needs --mlir-disable-threading)"},
    {"mlir-timing", OPT(timing),
     "Report the time spent parsing, in each pass and printing"},
    {"mlir-pass-statistics", OPT(statistics), "Report pass statistics"},
    {"mlir-print-op-on-diagnostic", OPT(print_op_on_diagnostic),
     "Note the op a diagnostic is about (default true; never counted by "
     "--verify-diagnostics)"},
    {"mlir-print-op-generic", OPT(generic), "Print ops in generic form"},
    {"mlir-print-debuginfo", OPT(debuginfo), "Print locations"},
    {"mlir-pretty-debuginfo", OPT(pretty_debuginfo),
     "Print locations inline (with --mlir-print-debuginfo)"},
    {"mlir-print-local-scope", OPT(local_scope),
     "Print types and attributes inline, without aliases"},
    {"mlir-print-assume-verified", OPT(assume_verified),
     "Print the output without verifying it first (implied by "
     "--verify-each, which has verified it)"},
};
#undef OPT
enum { num_bool_options = sizeof(bool_options) / sizeof(bool_options[0]) };

static void print_pass(MlirStringRef arg, MlirStringRef desc, void *user) {
  printf("  --%-34.*s %.*s\n", (int)arg.length, arg.data, (int)desc.length,
         desc.data);
}

static void usage(void) {
  printf(
      "OVERVIEW: coro-opt - the coro dialect's optimizer driver\n\n"
      "USAGE: coro-opt [options] [input file, '-' or none for stdin]\n\n"
      "OPTIONS:\n"
      "  -o <file>                            Output file (default "
      "stdout)\n"
      "  --pass-pipeline=<pipeline>           Textual pass pipeline, e.g.\n"
      "                                       "
      "'builtin.module(coro-verify,cse)'\n"
      "  --<pass>[=<options>]                 Run a registered pass (any\n"
      "                                       upstream MLIR pass or ours)\n"
      "  --remarks-filter=<regex>             Show optimisation remarks of "
      "the\n"
      "                                       categories matching <regex>\n"
      "                                       (coro-split, coro-elide,\n"
      "                                       coro-frame)\n"
      "  --mlir-pass-statistics-display=<mode> list or pipeline (default)\n");
  for (size_t i = 0; i < num_bool_options; ++i)
    printf("  --%-34s %s\n", bool_options[i].name, bool_options[i].help);
  printf("  --version                            Print the versions\n"
         "  --help                               This text\n\n"
         "coro passes and pipelines:\n");
  coroForEachPass(print_pass, NULL);
  printf("\nEvery registered pass (MLIR's and coro's):\n");
  coroPrintRegisteredPasses();
}

static void version(void) {
  unsigned major, minor, patch;
  LLVMGetVersion(&major, &minor, &patch);
  printf("coro-opt (coro) %s\n  MLIR/LLVM %u.%u.%u\n", CORO_VERSION_STRING,
         major, minor, patch);
}

/* Appends "--name=opts" to the pipeline as the element "name{opts}". */
static void add_pass_flag(struct options *o, const char *flag) {
  const char *eq = strchr(flag, '=');
  size_t name_len = eq ? (size_t)(eq - flag) : strlen(flag);
  size_t need = o->pass_flags_len + name_len + (eq ? strlen(eq) + 2 : 0) + 2;
  o->pass_flags = drv_xrealloc(o->pass_flags, need);
  char *w = o->pass_flags + o->pass_flags_len;
  if (o->pass_flags_len)
    *w++ = ',';
  memcpy(w, flag, name_len);
  w += name_len;
  if (eq)
    w += sprintf(w, "{%s}", eq + 1);
  *w = '\0';
  o->pass_flags_len = (size_t)(w - o->pass_flags);
}

/* `arg` is the option as written, up to its '=' (`arg_len` bytes). */
static bool parse_bool(const char *arg, int arg_len, const char *value,
                       bool *out) {
  static const char *const yes[] = {"true", "TRUE", "True", "1"};
  static const char *const no[] = {"false", "FALSE", "False", "0"};
  for (size_t i = 0; i < 4; ++i) {
    if (!strcmp(value, yes[i]) || !strcmp(value, no[i])) {
      *out = !strcmp(value, yes[i]);
      return true;
    }
  }
  fprintf(stderr,
          "%s: error: invalid value '%s' for option '%.*s' (want true or "
          "false)\n",
          tool, value, arg_len, arg);
  return false;
}

/* The value of an option written `--name=value` or `--name value`; NULL
 * (after an error) when it has none. */
static const char *option_value(int argc, char **argv, int *i, const char *eq) {
  if (eq)
    return eq + 1;
  if (*i + 1 < argc)
    return argv[++*i];
  fprintf(stderr, "%s: error: option '%s' needs a value\n", tool, argv[*i]);
  return NULL;
}

/* Parses one option `a` (argv[*i], starting with '-'). Returns false after
 * printing a usage error. */
static bool parse_option(int argc, char **argv, int *i, struct options *o) {
  const char *a = argv[*i];
  const char *f = a + (a[1] == '-' ? 2 : 1);
  const char *eq = strchr(f, '=');
  size_t len = eq ? (size_t)(eq - f) : strlen(f);
  int arg_len = (int)(f - a + (ptrdiff_t)len); /* `a` without "=value" */
#define IS(name) (len == strlen(name) && !strncmp(f, name, len))
  if (IS("o")) {
    if (!eq && *i + 1 == argc) {
      fprintf(stderr, "%s: error: -o needs a file name\n", tool);
      return false;
    }
    o->output = eq ? eq + 1 : argv[++*i];
    return true;
  }
  if (!eq && (IS("help") || IS("h")))
    return o->help = true;
  if (!eq && IS("version"))
    return o->version = true;
  if (IS("pass-pipeline"))
    return (o->pipeline = option_value(argc, argv, i, eq)) != NULL;
  if (IS("remarks-filter"))
    return (o->remarks_filter = option_value(argc, argv, i, eq)) != NULL;
  if (IS("mlir-pass-statistics-display")) {
    const char *v = option_value(argc, argv, i, eq);
    if (v && (!strcmp(v, "list") || !strcmp(v, "pipeline"))) {
      o->statistics_display = !strcmp(v, "list")
                                  ? MLIR_PASS_DISPLAY_MODE_LIST
                                  : MLIR_PASS_DISPLAY_MODE_PIPELINE;
      return true;
    }
    if (v)
      fprintf(stderr,
              "%s: error: invalid value '%s' for option '%.*s' (want list or "
              "pipeline)\n",
              tool, v, arg_len, a);
    return false;
  }
  for (size_t k = 0; k < num_bool_options; ++k) {
    if (!IS(bool_options[k].name))
      continue;
    bool *field = (bool *)((char *)o + bool_options[k].field);
    *field = true;
    return !eq || parse_bool(a, arg_len, eq + 1, field);
  }
#undef IS
  if (len && coroIsRegisteredPass(mlirStringRefCreate(f, len))) {
    add_pass_flag(o, f);
    return true;
  }
  fprintf(stderr, "%s: error: unknown option '%s'\n", tool, a);
  return false;
}

/* Returns whether the command line is usable (after printing why not). */
static bool parse_args(int argc, char **argv, struct options *o) {
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (a[0] == '-' && strcmp(a, "-") != 0) {
      if (!parse_option(argc, argv, &i, o))
        return false;
      continue;
    }
    if (o->input) {
      fprintf(stderr, "%s: error: more than one input file: '%s' and '%s'\n",
              tool, o->input, a);
      return false;
    }
    o->input = a;
  }
  if (o->pipeline && o->pass_flags) {
    fprintf(stderr,
            "%s: error: --pass-pipeline cannot be combined with individual "
            "pass flags\n",
            tool);
    return false;
  }
  if (o->print_module_scope && !o->no_threading) {
    fprintf(stderr,
            "%s: error: --mlir-print-ir-module-scope needs "
            "--mlir-disable-threading\n",
            tool);
    return false;
  }
  if (!o->input)
    o->input = "-";
  return true;
}

static void print_to_stderr(MlirStringRef s, void *user) {
  fprintf(stderr, "%.*s", (int)s.length, s.data);
}

/* The printing flags of the output and of IR dumps. Owned by the caller. */
static MlirOpPrintingFlags printing_flags(const struct options *o) {
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  if (o->generic)
    mlirOpPrintingFlagsPrintGenericOpForm(flags);
  if (o->debuginfo)
    mlirOpPrintingFlagsEnableDebugInfo(flags, true, o->pretty_debuginfo);
  if (o->local_scope)
    mlirOpPrintingFlagsUseLocalScope(flags);
  return flags;
}

/*===-- --dump-pass-pipeline --------------------------------------------===*/

static void indent(int depth) { fprintf(stderr, "%*s", 2 * depth, ""); }

/* Prints the pipeline as mlir-opt's --dump-pass-pipeline does: a header with
 * the number of passes at the top level, then one element a line, nested
 * pass managers indented. */
static void dump_pipeline(MlirPassManager pm) {
  struct drv_text t = {NULL, 0};
  mlirPrintPassPipeline(mlirPassManagerGetAsOpPassManager(pm), drv_text_append,
                        &t);
  if (!t.data)
    return;
  /* Top-level elements: commas at parenthesis depth 1, outside options. */
  int depth = 0, braces = 0, count = 0;
  for (const char *p = t.data; *p; ++p) {
    braces += *p == '{' ? 1 : *p == '}' ? -1 : 0;
    if (braces == 0 && *p == '(' && ++depth == 1)
      count = p[1] != ')';
    else if (braces == 0 && *p == ')')
      --depth;
    else if (braces == 0 && depth == 1 && *p == ',')
      ++count;
  }
  fprintf(stderr, "Pass Manager with %d passes:\n", count);
  depth = braces = 0;
  for (const char *p = t.data; *p; ++p) {
    braces += *p == '{' ? 1 : *p == '}' ? -1 : 0;
    if (braces == 0 && *p == '(') {
      fputs("(\n", stderr);
      indent(++depth);
    } else if (braces == 0 && *p == ')') {
      fputc('\n', stderr);
      indent(--depth);
      fputc(')', stderr);
    } else if (braces == 0 && *p == ',') {
      fputs(",\n", stderr);
      indent(depth);
    } else {
      fputc(*p, stderr);
    }
  }
  fputs("\n\n", stderr);
  free(t.data);
}

/*===-- Running ---------------------------------------------------------===*/

static void discard(MlirStringRef s, void *user) {
  (void)s;
  (void)user;
}

/* Adds what was asked for to `opm`, giving `why` the reason it cannot on
 * a bad pipeline. */
static MlirLogicalResult add_requested(MlirOpPassManager opm,
                                       const struct options *o,
                                       MlirStringCallback why) {
  MlirLogicalResult ok = mlirLogicalResultSuccess();
  if (o->pipeline) {
    /* Accept both "builtin.module(a,b)" and a bare "a,b". */
    const char *text = o->pipeline;
    size_t len = strlen(text);
    static const char anchor[] = "builtin.module(";
    if (strncmp(text, anchor, sizeof(anchor) - 1) == 0 && len > 0 &&
        text[len - 1] == ')') {
      text += sizeof(anchor) - 1;
      len -= sizeof(anchor);
    }
    ok = mlirOpPassManagerAddPipeline(opm, mlirStringRefCreate(text, len), why,
                                      NULL);
  } else if (o->pass_flags) {
    ok = mlirOpPassManagerAddPipeline(
        opm, mlirStringRefCreateFromCString(o->pass_flags), why, NULL);
  }
  return ok;
}

/* Whether what was asked for begins with coro-verify (the coro-lower
 * pipelines do): the input's verification is then its first pass. */
static bool requested_verifies_first(MlirContext ctx, const struct options *o) {
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      ctx, mlirStringRefCreateFromCString("builtin.module"));
  coroPassManagerEnableImplicitNesting(pm);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  struct drv_text t = {NULL, 0};
  if (mlirLogicalResultIsSuccess(add_requested(opm, o, discard)))
    mlirPrintPassPipeline(opm, drv_text_append, &t);
  static const char first[] = "builtin.module(coro-verify";
  bool yes =
      t.data && !strncmp(t.data, first, sizeof first - 1) &&
      (t.data[sizeof first - 1] == ',' || t.data[sizeof first - 1] == ')');
  free(t.data);
  mlirPassManagerDestroy(pm);
  return yes;
}

/* Builds the pass manager: verification first (coro-verify, unless what
 * was asked for starts with it), then what was asked for. Returns a null
 * pass manager (after printing why) on a bad pipeline. */
static MlirPassManager build_pipeline(MlirContext ctx, const struct options *o,
                                      CoroTimingReport timing) {
  bool verifies = requested_verifies_first(ctx, o);
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      ctx, mlirStringRefCreateFromCString("builtin.module"));
  coroPassManagerEnableImplicitNesting(pm);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  if (!verifies)
    mlirPassManagerAddOwnedPass(pm, coroCreateVerifyPass());
  MlirLogicalResult ok = add_requested(opm, o, print_to_stderr);
  if (mlirLogicalResultIsFailure(ok)) {
    fprintf(stderr, "\n%s: error: invalid pass pipeline\n", tool);
    mlirPassManagerDestroy(pm);
    return (MlirPassManager){NULL};
  }
  mlirPassManagerEnableVerifier(pm, o->verify_each);
  if (timing.ptr)
    coroPassManagerEnableTimingReport(pm, timing);
  if (o->statistics)
    mlirPassManagerEnableStatistics(pm, o->statistics_display);
  bool after = o->print_after_all || o->print_after_failure;
  if (after || o->print_before_all) {
    MlirOpPrintingFlags flags = printing_flags(o);
    mlirPassManagerEnableIRPrinting(
        pm, o->print_before_all, after, o->print_module_scope,
        o->print_after_change, o->print_after_failure && !o->print_after_all,
        flags, mlirStringRefCreate(NULL, 0));
    mlirOpPrintingFlagsDestroy(flags);
  }
  return pm;
}

/* The printer hands its output over a piece at a time (a keyword, a
 * name, a space: its stream to the callback is unbuffered), so the pieces
 * are gathered here and reach the file a block at a time. */
struct out_buffer {
  FILE *file;
  size_t len;
  char data[1 << 16];
};

static void out_flush(struct out_buffer *b) {
  fwrite(b->data, 1, b->len, b->file);
  b->len = 0;
}

static void write_out(MlirStringRef s, void *user) {
  struct out_buffer *b = user;
  if (b->len + s.length > sizeof b->data) {
    out_flush(b);
    if (s.length > sizeof b->data) {
      fwrite(s.data, 1, s.length, b->file);
      return;
    }
  }
  memcpy(b->data + b->len, s.data, s.length);
  b->len += s.length;
}

static MlirOpPrintingFlags make_printing_flags(void *o) {
  MlirOpPrintingFlags flags = printing_flags(o);
  if (((const struct options *)o)->verify_each ||
      ((const struct options *)o)->assume_verified)
    mlirOpPrintingFlagsAssumeVerified(flags);
  return flags;
}

static void print_output(MlirOperation op, const struct options *o, FILE *out) {
  static struct out_buffer buffer;
  buffer.file = out;
  buffer.len = 0;
  if (o->emit_bytecode) {
    mlirOperationWriteBytecode(op, write_out, &buffer);
    out_flush(&buffer);
    return;
  }
  /* A large module, its top-level ops on the machine's threads (the same
   * text: tools/common/print_pieces.h), unless threads are off, the flags
   * print what that cannot (the generic form, locations, the local scope
   * of the whole) or the module fails the verifier the printer runs
   * first when nothing has verified it. */
  if (!o->no_threading && !o->generic && !o->debuginfo && !o->local_scope &&
      drv_print_module_in_pieces(op, 0, o->verify_each || o->assume_verified,
                                 make_printing_flags, (void *)o, write_out,
                                 &buffer)) {
    out_flush(&buffer);
    fputc('\n', out);
    return;
  }
  /* MLIR's printer verifies an op before printing it in custom form (and
   * falls back to the generic form when that fails); the pipeline always
   * ran a pass, and with --verify-each the verifier after it has verified
   * the output already: a second look at a module of 10,000 coroutines
   * costs a fifth of the printing (make_printing_flags) */
  MlirOpPrintingFlags flags = make_printing_flags((void *)o);
  mlirOperationPrintWithFlags(op, flags, write_out, &buffer);
  mlirOpPrintingFlagsDestroy(flags);
  out_flush(&buffer);
  fputc('\n', out);
}

/* What a run shares between chunks. */
struct run_state {
  const struct options *o;
  MlirContext ctx;
  const struct drv_source *src;
  struct drv_diags *diags;
  FILE *out;
  CoroTimingReport timing; /* null without --mlir-timing */
};

/* Starts the timer `name` of the run's report (a null timer without one). */
static CoroTimer start_timer(const struct run_state *r, const char *name) {
  if (!r->timing.ptr)
    return (CoroTimer){NULL};
  return coroTimingReportStartTimer(r->timing,
                                    mlirStringRefCreateFromCString(name));
}

/* Processes one chunk. Returns whether it succeeded (for
 * --verify-diagnostics: whether the diagnostics matched). */
static bool process(const struct run_state *r, const struct drv_chunk *chunk,
                    bool first, bool last) {
  const struct options *o = r->o;
  bool ok = false;
  /* Like mlir-opt, chunk outputs are separated even where one failed. */
  if (!first && !o->verify_diagnostics)
    fputs("// -----\n", r->out);
  /* Parsing is single-threaded (mlir-opt's choice: no locking costs). */
  CoroTimer timer = start_timer(r, "Parser");
  mlirContextEnableMultithreading(r->ctx, false);
  MlirOperation op = drv_parse_op(r->ctx, r->src->name, chunk, r->diags,
                                  !o->no_implicit_module);
  mlirContextEnableMultithreading(r->ctx, !o->no_threading);
  coroTimerStop(timer);
  if (!mlirOperationIsNull(op)) {
    MlirPassManager pm = build_pipeline(r->ctx, o, r->timing);
    if (!mlirPassManagerIsNull(pm)) {
      ok = mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, op));
      mlirPassManagerDestroy(pm);
    }
    if (ok && !o->verify_diagnostics) {
      timer = start_timer(r, "Output");
      print_output(op, o, r->out);
      coroTimerStop(timer);
    }
    /* the process ends after the last chunk (0.7 s at M=10,000) */
    if (last)
      drv_keep_until_exit(op.ptr);
    else
      mlirOperationDestroy(op);
  }
  if (o->verify_diagnostics) {
    ok = drv_verify_expected(r->src->name, chunk, r->diags);
    drv_diags_clear(r->diags);
  } else {
    drv_diags_print(r->diags);
  }
  return ok;
}

static void print_dialect(MlirStringRef name, void *user) {
  bool *first = user;
  printf("%s%.*s", *first ? "" : ",", (int)name.length, name.data);
  *first = false;
}

/* --show-dialects: mlir-opt's "Available Dialects: a,b,..." line. */
static int show_dialects(void) {
  MlirContext ctx = mlirContextCreateWithThreading(false);
  int status = 1;
  if (mlirLogicalResultIsSuccess(coroDialectLoad(ctx))) {
    bool first = true;
    printf("Available Dialects: ");
    coroContextForEachAvailableDialect(ctx, print_dialect, &first);
    printf("\n");
    status = 0;
  }
  mlirContextDestroy(ctx);
  return status;
}

/* Sets up the context from the options; false (after reporting) when an
 * option cannot be honoured. */
static bool configure(MlirContext ctx, const struct options *o,
                      struct drv_diags *diags) {
  if (mlirLogicalResultIsFailure(coroDialectLoad(ctx)))
    return false;
  mlirContextSetAllowUnregisteredDialects(ctx, o->allow_unregistered);
  /* always on: an op note names the op of an IRDL constraint's error; the
   * notes themselves are shown only with --mlir-print-op-on-diagnostic
   * (drv_diags.drop_op_notes) */
  coroContextSetPrintOpOnDiagnostic(ctx, true);
  if (o->remarks_filter &&
      !drv_enable_remarks(tool, ctx, o->remarks_filter, diags))
    return false;
  /* A bad pipeline is an error whatever the input holds. */
  MlirPassManager probe = build_pipeline(ctx, o, (CoroTimingReport){NULL});
  if (mlirPassManagerIsNull(probe))
    return false;
  if (o->dump_pipeline)
    dump_pipeline(probe);
  mlirPassManagerDestroy(probe);
  return true;
}

static int run(void *data) {
  const struct options *o = data;
  if (o->show_dialects)
    return show_dialects();
  struct drv_source src;
  if (!drv_read_source(tool, o->input, &src))
    return 1;
  FILE *out = stdout;
  if (o->output && strcmp(o->output, "-") != 0 &&
      !(out = fopen(o->output, "w"))) {
    fprintf(stderr, "%s: error: could not open output file '%s': %s\n", tool,
            o->output, strerror(errno));
    drv_source_free(&src);
    return 1;
  }

  MlirContext ctx = mlirContextCreateWithThreading(!o->no_threading);
  struct drv_diags diags = {.file_name = src.name,
                            .drop_op_notes = !o->print_op_on_diagnostic};
  if (!drv_is_binary(src.data, src.len)) {
    diags.source = src.data;
    diags.source_len = src.len;
  }
  MlirDiagnosticHandlerID handler = drv_diags_attach(ctx, &diags);
  bool configured = configure(ctx, o, &diags);
  struct run_state r = {o, ctx, &src, &diags, out, {NULL}};
  if (configured && o->timing)
    r.timing = coroTimingReportCreate();

  /* Every chunk is processed, even after one failed, as mlir-opt does. */
  bool ok = configured;
  struct drv_chunk *chunks = NULL;
  size_t n = drv_split(&src, o->split ? "// -----" : NULL, &chunks);
  for (size_t i = 0; configured && i < n; ++i)
    ok &= process(&r, &chunks[i], i == 0, i + 1 == n);
  drv_diags_print(&diags);
  /* One report for the whole run, after the last chunk. */
  coroTimingReportDestroy(r.timing);

  mlirContextDetachDiagnosticHandler(ctx, handler);
  mlirContextDestroy(ctx);
  free(chunks);
  free(diags.items);
  drv_source_free(&src);
  /* A full disk shows up here, not at fopen. */
  if ((fflush(out) != 0 || ferror(out) ||
       (out != stdout && fclose(out) != 0))) {
    fprintf(stderr, "%s: error: could not write output file '%s': %s\n", tool,
            o->output ? o->output : "-", strerror(errno));
    return 1;
  }
  return ok ? 0 : 1;
}

int main(int argc, char **argv) {
  struct options o = {.statistics_display = MLIR_PASS_DISPLAY_MODE_PIPELINE,
                      .print_op_on_diagnostic = true,
                      .verify_each = true};
  drv_set_tool_name(tool); /* parsing the options allocates */
  /* Options name passes: the registry must be complete before parsing. */
  coroRegisterPasses();
  coroRegisterTestPasses();
  bool usable = parse_args(argc, argv, &o);
  int status = usable ? 0 : 1;
  if (usable && o.help)
    usage();
  else if (usable && o.version)
    version();
  else if (usable) {
    drv_install_fatal_error_handler(tool);
    /* Parsing, passes and printing recurse per level of nesting. */
    status = drv_run_with_big_stack(run, &o);
  }
  free(o.pass_flags);
  return status;
}
