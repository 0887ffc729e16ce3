/* coro-translate - lower a coro program to LLVM IR or an object file
 * (by default route B: coro's own --coro-split splits the coroutines in
 * MLIR; --route=llvm, route A: LLVM's coroutine passes split them).
 *
 *   coro-translate FILE --emit=llvm|split-llvm|obj|ptx [-O0..-O3] [-o OUT]
 *
 *   llvm        the translated module before any LLVM pass: by route A,
 *               coroutines are still `presplitcoroutine` functions with
 *               coro intrinsics; by route B, split already
 *   split-llvm  after LLVM's `default<ON>` pipeline (which contains
 *               CoroEarly, CoroSplit, CoroElide/CoroAnnotationElide and
 *               CoroCleanup, which split route A's coroutines): ramp,
 *               .resume, .destroy and .cleanup functions
 *   obj         the same, compiled for the host to an object file
 *   ptx         a device module (kernels marked gpu.kernel) through the
 *               pipeline coro-lower-nvvm and LLVM's NVPTX backend
 *               (--mcpu=sm_NN, default sm_90); --emit=llvm on a device
 *               module shows its LLVM IR
 *
 * The lowering to the LLVM dialect is the library's, as for coro-run
 * (coroLowerToLLVMDialectWithRoute); translation and code generation are the
 * library's (coro-c/Translate.h). Errors are `file:line:col: error: ...` or
 * `coro-translate: error: ...` on stderr, exit status 1. */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include "coro-c/Coro.h"
#include "tools/common/driver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *tool = "coro-translate";

enum emit { EMIT_NONE, EMIT_LLVM, EMIT_SPLIT_LLVM, EMIT_OBJ, EMIT_PTX };

struct options {
  const char *input, *output;
  enum emit emit;
  int opt_level;
  CoroRoute route;
  bool checked;
  bool debug_info;
  bool no_elide;
  const char *mcpu;           /* --mcpu, for the device (default sm_90) */
  const char *remarks_filter; /* --remarks-filter, as coro-opt's */
};

static void usage(void) {
  printf("OVERVIEW: coro-translate - lower a coro program to LLVM IR or an "
         "object\n\n"
         "USAGE: coro-translate FILE --emit=llvm|split-llvm|obj|ptx [-O0..-O3] "
         "[--route=llvm|mlir-split] [--checked] [--no-elide] [-g]\n"
         "       [--remarks-filter=REGEX] [-o OUT]\n\n"
         "  --emit=llvm        LLVM IR before LLVM's coroutine passes\n"
         "  --emit=split-llvm  LLVM IR after default<ON> (coroutines split)\n"
         "  --emit=obj         host object file after default<ON>\n"
         "  --emit=ptx         PTX for a device module (kernels marked\n"
         "                     gpu.kernel), through coro-lower-nvvm and\n"
         "                     LLVM's NVPTX backend; --emit=llvm shows its\n"
         "                     LLVM IR\n"
         "  --mcpu=sm_NN       the GPU for --emit=ptx (default sm_90)\n"
         "  -O0 .. -O3         LLVM optimization level (default -O0)\n"
         "  --route=llvm       through LLVM's coroutine passes\n"
         "  --route=mlir-split through coro's own coro-split (default)\n"
         "  --checked          trap with a message on misuse (resuming a\n"
         "                     coroutine that has ended, yielding again "
         "after\n"
         "                     coro.destroy)\n"
         "  --no-elide         keep every frame on the heap unless its\n"
         "                     coroutine says coro.alloc = \"elide\"\n"
         "  -g                 line tables for the .mlir file (for gdb)\n"
         "  --remarks-filter=<regex>\n"
         "                     coro's remarks of the categories the regex\n"
         "                     matches (coro-split, coro-elide, coro-frame)\n"
         "  -o <file>          output (default stdout)\n");
}

static int parse_args(int argc, char **argv, struct options *o) {
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (!strcmp(a, "-o")) {
      if (++i == argc) {
        fprintf(stderr, "%s: error: -o needs a file name\n", tool);
        return 1;
      }
      o->output = argv[i];
    } else if (a[0] != '-' || !strcmp(a, "-")) {
      if (o->input) {
        fprintf(stderr, "%s: error: more than one input file\n", tool);
        return 1;
      }
      o->input = a;
    } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      return 2;
    } else if (!strcmp(a, "--emit=llvm")) {
      o->emit = EMIT_LLVM;
    } else if (!strcmp(a, "--emit=split-llvm")) {
      o->emit = EMIT_SPLIT_LLVM;
    } else if (!strcmp(a, "--emit=obj")) {
      o->emit = EMIT_OBJ;
    } else if (!strcmp(a, "--emit=ptx")) {
      o->emit = EMIT_PTX;
    } else if (!strncmp(a, "--mcpu=", 7) && a[7]) {
      o->mcpu = a + 7;
    } else if (!strncmp(a, "--emit=", 7)) {
      fprintf(stderr,
              "%s: error: unsupported --emit value '%s' (expected llvm, "
              "split-llvm, obj or ptx)\n",
              tool, a + 7);
      return 1;
    } else if (a[1] == 'O' && a[2] >= '0' && a[2] <= '3' && !a[3]) {
      o->opt_level = a[2] - '0';
    } else if (!strcmp(a, "--checked")) {
      o->checked = true;
    } else if (!strcmp(a, "--no-elide")) {
      o->no_elide = true;
    } else if (!strcmp(a, "-g")) {
      o->debug_info = true;
    } else if (!strncmp(a, "--remarks-filter=", 17)) {
      o->remarks_filter = a + 17;
    } else if (!strncmp(a, "--route=", 8)) {
      if (!coroRouteParse(mlirStringRefCreateFromCString(a + 8), &o->route)) {
        fprintf(stderr, "%s: error: unknown route '%s'\n", tool, a + 8);
        return 1;
      }
    } else {
      fprintf(stderr, "%s: error: unknown option '%s'\n", tool, a);
      return 1;
    }
  }
  if (o->emit == EMIT_NONE) {
    fprintf(stderr, "%s: error: --emit=llvm|split-llvm|obj|ptx is required\n",
            tool);
    return 1;
  }
  if (o->mcpu) {
    if (!coroGPUArchIsValid(o->mcpu)) {
      fprintf(stderr,
              "%s: error: unknown GPU architecture '%s' (expected sm_NN, "
              "e.g. sm_90)\n",
              tool, o->mcpu);
      return 1;
    }
  }
  if (!o->input)
    o->input = "-";
  return 0;
}

/* Where the translated text goes: stdout or the -o file, opened at the
 * first piece, so that a translation that fails (LLVM's backend may end
 * the process on what it cannot lower) leaves no file behind. */
struct sink {
  const char *path; /* NULL or "-": stdout */
  FILE *f;
  bool ok;
  bool regular; /* the path is a regular file, or was none: removable */
};

static bool to_stdout(const char *path) { return !path || !strcmp(path, "-"); }

static bool open_output(struct sink *out) {
  if (out->f)
    return true;
  struct stat st;
  out->regular = !to_stdout(out->path) &&
                 (stat(out->path, &st) != 0 || S_ISREG(st.st_mode));
  out->f = to_stdout(out->path) ? stdout : fopen(out->path, "wb");
  if (!out->f) {
    fprintf(stderr, "%s: error: could not open '%s'\n", tool, out->path);
    out->ok = false;
  }
  return out->f != NULL;
}

static void write_piece(MlirStringRef piece, void *user) {
  struct sink *out = user;
  if (out->ok && open_output(out))
    out->ok &= fwrite(piece.data, 1, piece.length, out->f) == piece.length;
}

/* Closes the output after a translation that ended `ok`: on failure the
 * file goes (what was written is not a whole translation). */
static bool close_output(struct sink *out, bool ok) {
  if (ok && out->ok && !out->f)
    open_output(out); /* nothing written: an empty file (or its error) */
  if (!out->f)
    return false; /* the translation failed, or the file did not open */
  bool written = out->ok;
  written &= fflush(out->f) == 0;
  if (out->f != stdout)
    written &= fclose(out->f) == 0;
  if (ok && !written)
    fprintf(stderr, "%s: error: could not write '%s'\n", tool,
            out->path ? out->path : "-");
  if ((!ok || !written) && out->regular) /* never /dev/null or a pipe */
    unlink(out->path);
  return ok && written;
}

/* An object file on stdout: emitted to a temporary file, then copied. */
static bool object_to_stdout(MlirModule module, int opt_level) {
  char path[] = "/tmp/coro-translate-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) {
    fprintf(stderr, "%s: error: no temporary file for the object\n", tool);
    return false;
  }
  close(fd);
  bool ok =
      mlirLogicalResultIsSuccess(coroEmitObjectFile(module, opt_level, path));
  FILE *in = ok ? fopen(path, "rb") : NULL;
  if (in) {
    char buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
      ok &= fwrite(buf, 1, n, stdout) == n;
    fclose(in);
    struct sink out = {"-", stdout, true, false};
    ok = close_output(&out, ok);
  }
  unlink(path);
  return ok;
}

/* What makes the module one for the device: its first kernel (a
 * func.func with the unit attribute gpu.kernel) or gpu.module (MLIR's GPU
 * form); null when it has neither. */
static MlirOperation device_op(MlirModule module) {
  MlirBlock body = mlirModuleGetBody(module);
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (!mlirAttributeIsNull(mlirOperationGetAttributeByName(
            op, mlirStringRefCreateFromCString("gpu.kernel"))) ||
        !strncmp(mlirIdentifierStr(mlirOperationGetName(op)).data, "gpu.module",
                 10))
      return op;
  return (MlirOperation){NULL};
}

/* The device module's PTX or LLVM IR, to the output. */
static bool emit_device(MlirModule module, const struct options *o) {
  struct sink out = {o->output, NULL, true, false};
  bool ok = mlirLogicalResultIsSuccess(
      coroTranslateForDevice(module, o->opt_level, o->mcpu ? o->mcpu : "sm_90",
                             o->emit == EMIT_PTX, write_piece, &out));
  return close_output(&out, ok);
}

/* Translates the lowered module and writes what was asked for, through
 * coro-c/Translate.h (errors are diagnostics on the context). */
static bool emit(MlirModule module, const struct options *o) {
  if (o->emit == EMIT_OBJ) {
    if (!o->output || !strcmp(o->output, "-"))
      return object_to_stdout(module, o->opt_level);
    return mlirLogicalResultIsSuccess(
        coroEmitObjectFile(module, o->opt_level, o->output));
  }
  struct sink out = {o->output, NULL, true, false};
  bool ok = mlirLogicalResultIsSuccess(coroTranslateToLLVMIR(
      module, o->opt_level, o->emit == EMIT_SPLIT_LLVM, write_piece, &out));
  return close_output(&out, ok);
}

static int run(void *data) {
  const struct options *o = data;
  struct drv_input in;
  if (!drv_input_open(tool, o->input, &in))
    return 1;
  if (o->remarks_filter &&
      !drv_enable_remarks(tool, in.ctx, o->remarks_filter, &in.diags)) {
    drv_input_close(&in);
    return 1;
  }
  bool ok = false;
  MlirOperation dev = mlirModuleIsNull(in.module) ? (MlirOperation){NULL}
                                                  : device_op(in.module);
  bool device = !mlirModuleIsNull(in.module) &&
                (o->emit == EMIT_PTX || !mlirOperationIsNull(dev));
  CoroLowerConfig config = drv_lower_config(o->route, o->opt_level, o->no_elide,
                                            o->checked, o->debug_info);
  config.device = device;
  config.device_cpu = o->mcpu ? o->mcpu : "sm_90";
  if (device) {
    /* the device path is route B whatever --route says */
    config.route = CoroLowerRouteDefault;
    if (o->emit == EMIT_PTX || o->emit == EMIT_LLVM) {
      if (mlirLogicalResultIsSuccess(coroLowerModule(in.module, &config)))
        ok = emit_device(in.module, o);
    } else {
      /* at the kernel or gpu.module that makes it one */
      mlirEmitError(mlirOperationGetLocation(dev),
                    "a device module (with a gpu.kernel function or a "
                    "gpu.module) translates with --emit=ptx or --emit=llvm, "
                    "not --emit=obj or split-llvm");
    }
  } else if (!mlirModuleIsNull(in.module) &&
             mlirLogicalResultIsSuccess(coroLowerModule(in.module, &config)))
    ok = emit(in.module, o);
  drv_diags_print(&in.diags);
  drv_input_close_at_exit(&in);
  return ok ? 0 : 1;
}

int main(int argc, char **argv) {
  struct options o = {.route = coroDefaultRoute()};
  int args = parse_args(argc, argv, &o);
  if (args == 2) {
    usage();
    return 0;
  }
  if (args)
    return 1;
  drv_install_fatal_error_handler(tool);
  return drv_run_with_big_stack(run, &o);
}
