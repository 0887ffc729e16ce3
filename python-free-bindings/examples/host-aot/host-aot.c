/* host-aot.c - ahead-of-time compile a coro program into an executable.
 *
 *   host-aot FILE.mlir --abi=ABI [-o EXE] [--entry=main] [-O0..-O3]
 *            [--cc=COMPILER] [--no-run]
 *
 * A host program embedding coro through pkg-config. It loads FILE.mlir,
 * gives every coroutine in it the chosen ABI (`coro.abi = "ABI"`, ABI
 * spelled as coro.abi spells it: switch, retcon, retcon.once, async; one
 * that coroABIIsSupported does not know is an error listing those it
 * knows, discovered from the pass table with coroForEachPass, so a new
 * conversion needs no change here), renames the entry function (no
 * arguments, one i32 or i64 result) to `coro_aot_entry`, lowers the module
 * with the named pipeline `coro-lower-<abi>` ('.' spelled '-', by name,
 * through coroRunPassPipeline), emits EXE.o (coroEmitObjectFile, LLVM's
 * coroutine passes included), writes EXE-main.c, a C `main` that prints the
 * entry's result, links both with the system C compiler (and coro's runtime
 * library, which async coroutines call) into EXE and runs it; EXE's output
 * and exit status become host-aot's. Diagnostics are printed as
 * `FILE:LINE:COL: error: ...`, other failures as `host-aot: error: ...`;
 * exit status 1.
 *
 * CORO_LIBDIR (the installed coro's library directory, from
 * `pkg-config --variable=libdir coro`) and CORO_SANITIZE (the -fsanitize=
 * flags of `pkg-config --libs coro`, empty unless coro is built with
 * sanitizers: its runtime library then needs them) come from the Makefile.
 * Ownership: the context owns everything parsed; the module is destroyed
 * before the context; strings built here are freed before returning. */
#include "coro-c/Coro.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef CORO_LIBDIR
#error "build with -DCORO_LIBDIR=\"$(pkg-config --variable=libdir coro)\""
#endif
#ifndef CORO_SANITIZE
#define CORO_SANITIZE "" /* -fsanitize=... when coro is built with them */
#endif

static const char *tool = "host-aot";
static const char prefix[] = "convert-coro-to-llvm-";

struct options {
  const char *input, *output, *abi, *entry, *cc;
  int opt_level;
  bool run;
};

/*===-- ABIs from the pass table -----------------------------------------===*/

/* An ABI is named as coro.abi spells it ("retcon.once"); its conversion
 * and pipeline spell '.' as '-' (convert-coro-to-llvm-retcon-once,
 * coro-lower-retcon-once). */
static void dashed(char *out, size_t n, const char *abi) {
  snprintf(out, n, "%s", abi);
  for (char *c = out; *c; ++c)
    if (*c == '.')
      *c = '-';
}

/* The ABI a conversion `convert-coro-to-llvm-<suffix>` lowers, written to
 * `abi`: the suffix itself, or with its '-'s spelled '.', whichever
 * coroABIIsSupported knows; false when neither is. */
static bool abi_of_suffix(const char *suffix, size_t n, char abi[64]) {
  if (n >= 64)
    return false;
  memcpy(abi, suffix, n);
  abi[n] = 0;
  if (coroABIIsSupported(mlirStringRefCreate(abi, n)))
    return true;
  for (char *c = abi; *c; ++c)
    if (*c == '-')
      *c = '.';
  return coroABIIsSupported(mlirStringRefCreate(abi, n));
}

/* Lists every ABI with a registered conversion, discovered from the pass
 * table, so a new conversion needs no change here. */
static void list_abi(MlirStringRef arg, MlirStringRef desc, void *user) {
  size_t n = sizeof prefix - 1;
  char abi[64];
  if (arg.length > n && !strncmp(arg.data, prefix, n) &&
      abi_of_suffix(arg.data + n, arg.length - n, abi))
    fprintf(stderr, " %s", abi);
}

/* Whether `abi`, spelled as coro.abi spells it, can be lowered; otherwise
 * says so, with the ABIs that can (and "retcon.once" for "retcon-once"). */
static bool abi_available(const char *abi) {
  if (coroABIIsSupported(mlirStringRefCreateFromCString(abi)))
    return true;
  fprintf(stderr, "%s: error: no conversion for coro.abi = \"%s\"", tool, abi);
  char dotted[64];
  if (strchr(abi, '-') && abi_of_suffix(abi, strlen(abi), dotted))
    fprintf(stderr, " (did you mean \"%s\"?)", dotted);
  fprintf(stderr, "; the ABIs are:");
  coroForEachPass(list_abi, NULL);
  fprintf(stderr, "\n");
  return false;
}

/*===-- Preparing the module ---------------------------------------------===*/

static MlirStringRef ref(const char *s) {
  return mlirStringRefCreateFromCString(s);
}

/* Gives every coroutine of `module` the ABI `abi` (its coro.abi value, as
 * "retcon.once"); returns how many there are. */
static int set_abi(MlirModule module, const char *abi) {
  MlirContext ctx = mlirModuleGetContext(module);
  MlirAttribute attr = mlirStringAttrGet(ctx, ref(abi));
  int n = 0;
  MlirBlock body = mlirModuleGetBody(module);
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (coroOpIsCoroutine(op)) {
      mlirOperationSetAttributeByName(op, ref("coro.abi"), attr);
      ++n;
    }
  return n;
}

/* Checks the entry (no arguments, one i32 or i64 result) and renames it
 * `coro_aot_entry`, uses included. Sets *bits to the result's width.
 * Emits a located error and returns false otherwise. */
static bool rename_entry(MlirModule module, const char *entry, int *bits) {
  MlirOperation m = mlirModuleGetOperation(module);
  MlirSymbolTable table = mlirSymbolTableCreate(m);
  MlirOperation f = mlirSymbolTableLookup(table, ref(entry));
  mlirSymbolTableDestroy(table);
  char msg[192];
  if (mlirOperationIsNull(f)) {
    snprintf(msg, sizeof msg, "no entry function '@%s' in the module", entry);
    mlirEmitError(mlirOperationGetLocation(m), msg);
    return false;
  }
  MlirAttribute ft = mlirOperationGetAttributeByName(f, ref("function_type"));
  MlirType t =
      mlirAttributeIsNull(ft) ? (MlirType){NULL} : mlirTypeAttrGetValue(ft);
  MlirType r = !mlirTypeIsNull(t) && mlirTypeIsAFunction(t) &&
                       mlirFunctionTypeGetNumInputs(t) == 0 &&
                       mlirFunctionTypeGetNumResults(t) == 1
                   ? mlirFunctionTypeGetResult(t, 0)
                   : (MlirType){NULL};
  *bits = !mlirTypeIsNull(r) && mlirTypeIsAInteger(r)
              ? (int)mlirIntegerTypeGetWidth(r)
              : 0;
  if (*bits != 32 && *bits != 64) {
    snprintf(msg, sizeof msg,
             "entry '@%s' must be a func.func with no arguments and one "
             "i32 or i64 result",
             entry);
    mlirEmitError(mlirOperationGetLocation(f), msg);
    return false;
  }
  if (mlirLogicalResultIsFailure(mlirSymbolTableReplaceAllSymbolUses(
          ref(entry), ref("coro_aot_entry"), m))) {
    mlirEmitError(mlirOperationGetLocation(f), "could not rename the entry");
    return false;
  }
  mlirOperationSetAttributeByName(
      f, ref("sym_name"),
      mlirStringAttrGet(mlirModuleGetContext(module), ref("coro_aot_entry")));
  return true;
}

/*===-- Building and running the executable ------------------------------===*/

/* Runs argv to completion; returns its exit status, or -1 if it could not
 * be started or did not exit normally. */
static int spawn(char *const argv[]) {
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0)
    return -1;
  if (pid == 0) {
    execvp(argv[0], argv);
    fprintf(stderr, "%s: error: could not run '%s': %s\n", tool, argv[0],
            strerror(errno));
    _exit(127);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static bool write_main(const char *path, int bits) {
  FILE *f = fopen(path, "w");
  if (!f)
    return false;
  fprintf(f,
          "/* Generated by host-aot: calls the coro program's entry. */\n"
          "#include <stdint.h>\n#include <stdio.h>\n"
          "int%d_t coro_aot_entry(void);\n"
          "int main(void) {\n"
          "  printf(\"%%lld\\n\", (long long)coro_aot_entry());\n"
          "  return 0;\n}\n",
          bits);
  return fclose(f) == 0;
}

/* Links EXE from EXE.o and EXE-main.c, then runs it. */
static int link_and_run(const struct options *o, const char *object, int bits) {
  size_t n = strlen(o->output) + 16;
  char *main_c = malloc(n), *exe_path = malloc(n + 2);
  int status = 1;
  snprintf(main_c, n, "%s-main.c", o->output);
  snprintf(exe_path, n + 2, "%s%s", strchr(o->output, '/') ? "" : "./",
           o->output);
  if (!write_main(main_c, bits)) {
    fprintf(stderr, "%s: error: could not write '%s'\n", tool, main_c);
  } else {
    char *link[] = {(char *)o->cc,
                    main_c,
                    (char *)object,
                    "-o",
                    (char *)o->output,
                    "-L" CORO_LIBDIR,
                    "-Wl,-rpath," CORO_LIBDIR,
                    "-lCoroRuntime",
                    CORO_SANITIZE[0] ? CORO_SANITIZE : NULL,
                    NULL};
    if (spawn(link) != 0)
      fprintf(stderr, "%s: error: linking '%s' with '%s' failed\n", tool,
              o->output, o->cc);
    else if (!o->run)
      status = 0;
    else {
      char *run[] = {exe_path, NULL};
      status = spawn(run);
      if (status < 0) {
        fprintf(stderr, "%s: error: '%s' did not exit normally\n", tool,
                exe_path);
        status = 1;
      }
    }
  }
  free(main_c);
  free(exe_path);
  return status;
}

/*===-- Driver ------------------------------------------------------------===*/

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
    fprintf(stderr, "%s: ", tool);
  fprintf(stderr,
          "%s: ", coroDiagnosticSeverityName(mlirDiagnosticGetSeverity(d)));
  mlirDiagnosticPrint(d, print_to, stderr);
  fprintf(stderr, "\n");
  return mlirLogicalResultSuccess();
}

static bool parse_args(int argc, char **argv, struct options *o) {
  o->output = "a.out";
  o->entry = "main";
  o->cc = getenv("CC") && *getenv("CC") ? getenv("CC") : "cc";
  o->run = true;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (!strcmp(a, "-o") && i + 1 < argc)
      o->output = argv[++i];
    else if (!strncmp(a, "--abi=", 6) && a[6])
      o->abi = a + 6;
    else if (!strncmp(a, "--entry=", 8) && a[8])
      o->entry = a + 8;
    else if (!strncmp(a, "--cc=", 5) && a[5])
      o->cc = a + 5;
    else if (!strcmp(a, "--no-run"))
      o->run = false;
    else if (a[0] == '-' && a[1] == 'O' && a[2] >= '0' && a[2] <= '3' && !a[3])
      o->opt_level = a[2] - '0';
    else if (a[0] != '-' && !o->input)
      o->input = a;
    else {
      fprintf(stderr, "%s: error: unknown argument '%s'\n", tool, a);
      return false;
    }
  }
  if (!o->input || !o->abi) {
    fprintf(stderr, "usage: host-aot FILE.mlir --abi=ABI [-o EXE] "
                    "[--entry=main] [-O0..-O3] [--cc=CC] [--no-run]\n");
    return false;
  }
  return true;
}

/* Everything between parsing and the object file; false after reporting. */
static bool compile(MlirModule module, const struct options *o,
                    const char *object, int *bits) {
  int n = set_abi(module, o->abi);
  fprintf(stderr, "%s: %d coroutine%s set to coro.abi = \"%s\"\n", tool, n,
          n == 1 ? "" : "s", o->abi);
  if (!rename_entry(module, o->entry, bits))
    return false;
  char abi[64], pipeline[96];
  dashed(abi, sizeof abi, o->abi);
  snprintf(pipeline, sizeof pipeline, "coro-lower-%s", abi);
  if (mlirLogicalResultIsFailure(coroRunPassPipeline(module, ref(pipeline))))
    return false;
  return mlirLogicalResultIsSuccess(
      coroEmitObjectFile(module, o->opt_level, object));
}

int main(int argc, char **argv) {
  struct options o = {0};
  if (!parse_args(argc, argv, &o))
    return 1;
  if (!abi_available(o.abi))
    return 1;
  MlirContext ctx = mlirContextCreate();
  mlirContextAttachDiagnosticHandler(ctx, on_diagnostic, NULL, NULL);
  int status = 1;
  if (mlirLogicalResultIsSuccess(coroDialectLoad(ctx))) {
    MlirModule module = mlirModuleCreateParseFromFile(ctx, ref(o.input));
    size_t n = strlen(o.output) + 3;
    char *object = malloc(n);
    snprintf(object, n, "%s.o", o.output);
    int bits = 0;
    if (!mlirModuleIsNull(module) && compile(module, &o, object, &bits))
      status = link_and_run(&o, object, bits);
    else if (mlirModuleIsNull(module))
      fprintf(stderr, "%s: error: could not load '%s'\n", tool, o.input);
    free(object);
    if (!mlirModuleIsNull(module))
      mlirModuleDestroy(module);
  }
  mlirContextDestroy(ctx);
  return status;
}
