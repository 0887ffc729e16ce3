/* coro-opt - mlir-opt with the coro dialect and passes.
 *
 *   coro-opt [FILE|-] [-o OUT] [--pass-pipeline=PIPELINE | --PASS[=OPTS]...]
 *            [--split-input-file] [--verify-diagnostics]
 *            [--mlir-print-ir-after-all] [--mlir-print-ir-before-all]
 *            [--mlir-timing] [--mlir-print-op-generic]
 *            [--mlir-print-debuginfo] [--emit-bytecode]
 *            [--allow-unregistered-dialect]
 *
 * Every upstream dialect and pass is available next to ours. Each input
 * module is verified with --coro-verify when it is loaded, before the
 * requested passes run. Errors are printed as `file:line:col: error: ...`
 * and make the exit status 1; nothing the input contains aborts the tool
 * (LLVM's fatal errors are turned into ordinary errors as a last resort). */
#include "coro-c/Coro.h"
#include "tools/common/driver.h"

#include "mlir-c/Pass.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *tool = "coro-opt";

struct options {
  const char *input;
  const char *output;
  const char *pipeline; /* --pass-pipeline */
  char *pass_flags;     /* comma-separated elements from --PASS flags */
  size_t pass_flags_len;
  bool split;
  bool verify_diagnostics;
  bool print_after_all, print_before_all;
  bool timing;
  bool generic, debuginfo;
  bool emit_bytecode;
  bool allow_unregistered;
};

static void print_pass(MlirStringRef arg, MlirStringRef desc, void *user) {
  fprintf(stdout, "  --%-34.*s %.*s\n", (int)arg.length, arg.data,
          (int)desc.length, desc.data);
}

static void usage(void) {
  printf(
      "OVERVIEW: coro-opt - the coro dialect's optimizer driver\n\n"
      "USAGE: coro-opt [options] [input file, '-' or none for stdin]\n\n"
      "OPTIONS:\n"
      "  -o <file>                            Output file (default stdout)\n"
      "  --pass-pipeline=<pipeline>           Textual pass pipeline, e.g.\n"
      "                                       "
      "'builtin.module(coro-verify,cse)'\n"
      "  --<pass>[=<options>]                 Run a registered pass (any\n"
      "                                       upstream MLIR pass or ours)\n"
      "  --split-input-file                   Process each '// -----' chunk\n"
      "                                       on its own\n"
      "  --verify-diagnostics                 Check expected-error/warning/\n"
      "                                       note/remark annotations\n"
      "  --mlir-print-ir-after-all            Print IR after each pass\n"
      "  --mlir-print-ir-before-all           Print IR before each pass\n"
      "  --mlir-timing                        Report pass timing\n"
      "  --mlir-print-op-generic              Print ops in generic form\n"
      "  --mlir-print-debuginfo               Print locations\n"
      "  --emit-bytecode                      Write MLIR bytecode\n"
      "  --allow-unregistered-dialect         Accept ops of unknown dialects\n"
      "  --help                               This text\n\n"
      "coro passes and pipelines:\n");
  coroForEachPass(print_pass, NULL);
}

static void add_pass_flag(struct options *o, const char *flag) {
  /* "--name=opts" becomes the pipeline element "name{opts}". */
  const char *eq = strchr(flag, '=');
  size_t name_len = eq ? (size_t)(eq - flag) : strlen(flag);
  size_t need = o->pass_flags_len + name_len + (eq ? strlen(eq) + 2 : 0) + 2;
  o->pass_flags = realloc(o->pass_flags, need);
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

/* Returns 0 to go on, 1 for a usage error, 2 for --help. */
static int parse_args(int argc, char **argv, struct options *o) {
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (strcmp(a, "-o") == 0) {
      if (++i == argc) {
        fprintf(stderr, "%s: error: -o needs a file name\n", tool);
        return 1;
      }
      o->output = argv[i];
      continue;
    }
    if (strncmp(a, "-o=", 3) == 0) {
      o->output = a + 3;
      continue;
    }
    if (a[0] != '-' || strcmp(a, "-") == 0) {
      if (o->input) {
        fprintf(stderr, "%s: error: more than one input file: '%s' and '%s'\n",
                tool, o->input, a);
        return 1;
      }
      o->input = a;
      continue;
    }
    const char *f = a + (a[1] == '-' ? 2 : 1);
    if (!strcmp(f, "help") || !strcmp(f, "h"))
      return 2;
    if (!strncmp(f, "pass-pipeline=", 14))
      o->pipeline = f + 14;
    else if (!strcmp(f, "split-input-file"))
      o->split = true;
    else if (!strcmp(f, "verify-diagnostics"))
      o->verify_diagnostics = true;
    else if (!strcmp(f, "mlir-print-ir-after-all"))
      o->print_after_all = true;
    else if (!strcmp(f, "mlir-print-ir-before-all"))
      o->print_before_all = true;
    else if (!strcmp(f, "mlir-timing"))
      o->timing = true;
    else if (!strcmp(f, "mlir-print-op-generic"))
      o->generic = true;
    else if (!strcmp(f, "emit-bytecode"))
      o->emit_bytecode = true;
    else if (!strcmp(f, "mlir-print-debuginfo"))
      o->debuginfo = true;
    else if (!strcmp(f, "allow-unregistered-dialect"))
      o->allow_unregistered = true;
    else if (!*f || *f == '-' || *f == '=') {
      fprintf(stderr, "%s: error: unknown option '%s'\n", tool, a);
      return 1;
    } else
      add_pass_flag(o, f);
  }
  if (o->pipeline && o->pass_flags) {
    fprintf(stderr,
            "%s: error: --pass-pipeline cannot be combined with individual "
            "pass flags\n",
            tool);
    return 1;
  }
  if (!o->input)
    o->input = "-";
  return 0;
}

static void print_to_stderr(MlirStringRef s, void *user) {
  fprintf(stderr, "%.*s", (int)s.length, s.data);
}

/* Builds the pass manager: verification first, then what was asked for.
 * Returns a null pass manager (after printing why) on a bad pipeline. */
static MlirPassManager build_pipeline(MlirContext ctx,
                                      const struct options *o) {
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      ctx, mlirStringRefCreateFromCString("builtin.module"));
  coroPassManagerEnableImplicitNesting(pm);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  mlirPassManagerAddOwnedPass(pm, coroCreateVerifyPass());
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
    ok = mlirOpPassManagerAddPipeline(opm, mlirStringRefCreate(text, len),
                                      print_to_stderr, NULL);
  } else if (o->pass_flags) {
    ok = mlirOpPassManagerAddPipeline(
        opm, mlirStringRefCreateFromCString(o->pass_flags), print_to_stderr,
        NULL);
  }
  if (mlirLogicalResultIsFailure(ok)) {
    fprintf(stderr, "\n%s: error: invalid pass pipeline\n", tool);
    mlirPassManagerDestroy(pm);
    return (MlirPassManager){NULL};
  }
  if (o->timing)
    mlirPassManagerEnableTiming(pm);
  if (o->print_after_all || o->print_before_all) {
    MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
    mlirPassManagerEnableIRPrinting(pm, o->print_before_all, o->print_after_all,
                                    true, false, false, flags,
                                    mlirStringRefCreate(NULL, 0));
    mlirOpPrintingFlagsDestroy(flags);
  }
  return pm;
}

static void write_out(MlirStringRef s, void *user) {
  fwrite(s.data, 1, s.length, (FILE *)user);
}

/* Processes one chunk. Returns whether it succeeded (for
 * --verify-diagnostics: whether the diagnostics matched). */
static bool process(MlirContext ctx, const struct options *o,
                    const struct drv_source *src, const struct drv_chunk *chunk,
                    struct drv_diags *diags, FILE *out, bool first) {
  bool ok = false;
  /* Like mlir-opt, chunk outputs are separated even where one failed. */
  if (!first && !o->verify_diagnostics)
    fputs("// -----\n", out);
  MlirModule module = drv_parse(ctx, src->name, chunk, diags);
  if (!mlirModuleIsNull(module)) {
    MlirPassManager pm = build_pipeline(ctx, o);
    if (!mlirPassManagerIsNull(pm)) {
      ok = mlirLogicalResultIsSuccess(
          mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module)));
      mlirPassManagerDestroy(pm);
    }
    if (ok && !o->verify_diagnostics) {
      MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
      if (o->generic)
        mlirOpPrintingFlagsPrintGenericOpForm(flags);
      if (o->debuginfo)
        mlirOpPrintingFlagsEnableDebugInfo(flags, true, false);
      if (o->emit_bytecode)
        mlirOperationWriteBytecode(mlirModuleGetOperation(module), write_out,
                                   out);
      else
        mlirOperationPrintWithFlags(mlirModuleGetOperation(module), flags,
                                    write_out, out);
      mlirOpPrintingFlagsDestroy(flags);
      if (!o->emit_bytecode)
        fputc('\n', out);
    }
    mlirModuleDestroy(module);
  }
  if (o->verify_diagnostics) {
    ok = drv_verify_expected(src->name, chunk, diags);
    drv_diags_clear(diags);
  } else {
    drv_diags_print(diags);
  }
  return ok;
}

static int run(void *data) {
  const struct options *optsp = data;
  struct options o = *optsp;
  struct drv_source src;
  if (!drv_read_source(tool, o.input, &src))
    return 1;
  FILE *out = stdout;
  if (o.output && strcmp(o.output, "-") != 0 && !(out = fopen(o.output, "w"))) {
    fprintf(stderr, "%s: error: could not open output file '%s': %s\n", tool,
            o.output, strerror(errno));
    drv_source_free(&src);
    return 1;
  }

  MlirContext ctx = mlirContextCreateWithThreading(false);
  struct drv_diags diags = {.file_name = src.name};
  MlirDiagnosticHandlerID handler = drv_diags_attach(ctx, &diags);
  coroRegisterPasses();
  bool loaded = mlirLogicalResultIsSuccess(coroDialectLoad(ctx));
  /* A bad pipeline is an error whatever the input holds. */
  MlirPassManager probe = build_pipeline(ctx, &o);
  if (mlirPassManagerIsNull(probe))
    loaded = false;
  else
    mlirPassManagerDestroy(probe);
  mlirContextSetAllowUnregisteredDialects(ctx, o.allow_unregistered);

  /* Every chunk is processed, even after one failed, as mlir-opt does. */
  bool ok = loaded;
  struct drv_chunk *chunks = NULL;
  size_t n = drv_split(&src, o.split ? "// -----" : NULL, &chunks);
  for (size_t i = 0; loaded && i < n; ++i)
    ok &= process(ctx, &o, &src, &chunks[i], &diags, out, i == 0);
  drv_diags_print(&diags);

  mlirContextDetachDiagnosticHandler(ctx, handler);
  mlirContextDestroy(ctx);
  free(chunks);
  free(diags.items);
  drv_source_free(&src);
  /* A full disk shows up here, not at fopen. */
  if ((fflush(out) != 0 || ferror(out) ||
       (out != stdout && fclose(out) != 0))) {
    fprintf(stderr, "%s: error: could not write output file '%s': %s\n", tool,
            o.output ? o.output : "-", strerror(errno));
    return 1;
  }
  return ok ? 0 : 1;
}

int main(int argc, char **argv) {
  struct options o = {0};
  int args = parse_args(argc, argv, &o);
  if (args == 2) {
    usage();
    free(o.pass_flags);
    return 0;
  }
  if (args) {
    free(o.pass_flags);
    return 1;
  }
  drv_install_fatal_error_handler(tool);
  /* Parsing, passes and printing recurse per level of nesting. */
  int status = drv_run_with_big_stack(run, &o);
  free(o.pass_flags);
  return status;
}
