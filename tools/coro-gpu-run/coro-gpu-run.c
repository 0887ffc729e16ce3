/* coro-gpu-run.c - run a kernel from a PTX file on an NVIDIA GPU.
 *
 *   coro-gpu-run FILE.ptx --kernel=NAME [--grid=G] [--block=B] [--out=K]
 *                [--arena=BYTES] [--stack=BYTES] [--time=R]
 *   coro-gpu-run --probe
 *
 * The PTX text is loaded with the CUDA driver's JIT (cuModuleLoadDataEx),
 * the kernel NAME is launched on G blocks of B threads (grid (G,1,1), block
 * (B,1,1), no shared memory, the default stream), the context is
 * synchronized and the output buffer is printed on stdout, one signed
 * decimal per line, in buffer order. This is how the GPU tests check what
 * the NVVM lowering of a coro program computes on a real device.
 *
 * The kernel ABI is one parameter, a pointer to G*B*K int64 values that
 * are zeroed before the launch:
 *
 *   void NAME(int64_t *out)
 *
 * and thread t = blockIdx.x * B + threadIdx.x owns out[t*K .. t*K+K-1].
 *
 * The driver is opened at run time with dlopen("libcuda.so.1") and the
 * handful of entry points are looked up with dlsym (the `_v2` names where
 * cuda.h maps to them), with the types declared here: the tool has no
 * build-time CUDA dependency, is built in every build, and runs on machines
 * without a GPU, where it says so and skips.
 *
 * Exit status: 0 on success; 77 (the test-skip convention) when there is no
 * usable GPU: libcuda.so.1 does not open, lacks an entry point, cuInit
 * fails, there is no device or its context cannot be made current (one
 * line on stderr says why and that the run is skipped); 1 on any other
 * failure, with `FILE: error: ...` (reading, loading the PTX, with ptxas's
 * log, finding the kernel) or `coro-gpu-run: error: ...` (arguments,
 * memory, launch, a trap reported at synchronization) on stderr, carrying
 * the driver's error name and string. `--probe` does only the GPU check:
 * exit 0 (printing nothing) or 77. */
#define _POSIX_C_SOURCE 200809L /* dlopen */
#include "tools/common/alloc.h"

#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *tool = "coro-gpu-run";

/* Under AddressSanitizer the driver needs the shadow gap mapped, or cuInit
 * fails with CUDA_ERROR_OUT_OF_MEMORY and every GPU run would be skipped
 * (ASAN_OPTIONS still overrides this default). */
#if defined(__SANITIZE_ADDRESS__)
#define GPU_RUN_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GPU_RUN_ASAN 1
#endif
#endif
#ifdef GPU_RUN_ASAN
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "protect_shadow_gap=0"; }
#endif

enum { EXIT_SKIP = 77 };

/* The CUDA driver API types this tool uses, as cuda.h defines them. */
typedef int CUresult;
typedef int CUdevice;
typedef int CUjit_option;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef unsigned long long CUdeviceptr;

enum {
  CUDA_SUCCESS = 0,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
};

/* The driver's entry points, looked up once by open_driver. */
static struct driver {
  void *lib;
  CUresult (*Init)(unsigned flags);
  CUresult (*DeviceGetCount)(int *count);
  CUresult (*DeviceGet)(CUdevice *dev, int ordinal);
  CUresult (*DevicePrimaryCtxRetain)(CUcontext *ctx, CUdevice dev);
  CUresult (*CtxSetCurrent)(CUcontext ctx);
  CUresult (*DevicePrimaryCtxRelease)(CUdevice dev);
  CUresult (*ModuleLoadDataEx)(CUmodule *mod, const void *image,
                               unsigned num_options, CUjit_option *options,
                               void **option_values);
  CUresult (*ModuleGetFunction)(CUfunction *fn, CUmodule mod, const char *name);
  CUresult (*MemAlloc)(CUdeviceptr *dptr, size_t bytes);
  CUresult (*MemsetD8)(CUdeviceptr dptr, unsigned char value, size_t n);
  CUresult (*MemcpyDtoH)(void *dst, CUdeviceptr src, size_t bytes);
  CUresult (*MemcpyHtoD)(CUdeviceptr dst, const void *src, size_t bytes);
  CUresult (*ModuleGetGlobal)(CUdeviceptr *dptr, size_t *bytes, CUmodule mod,
                              const char *name);
  CUresult (*MemFree)(CUdeviceptr dptr);
  CUresult (*LaunchKernel)(CUfunction fn, unsigned grid_x, unsigned grid_y,
                           unsigned grid_z, unsigned block_x, unsigned block_y,
                           unsigned block_z, unsigned shared_bytes,
                           CUstream stream, void **params, void **extra);
  CUresult (*CtxSynchronize)(void);
  CUresult (*CtxSetLimit)(int limit, size_t value);
  CUresult (*ModuleUnload)(CUmodule mod);
  CUresult (*GetErrorString)(CUresult err, const char **str);
  CUresult (*GetErrorName)(CUresult err, const char **str);
} cu;

/* The GPU the kernel runs on, once check_gpu has made its primary context
 * current. */
struct gpu {
  CUdevice dev;
  CUcontext ctx;
};

struct options {
  const char *input;
  const char *kernel;
  unsigned long long grid, block, out;
  unsigned long long arena; /* --arena: bytes per thread, 0 for none */
  unsigned long long stack; /* --stack: bytes per thread, 0: the driver's */
  unsigned long long time;  /* --time: timed launches after the first */
  bool probe;
};

static const char usage_lines[] =
    "USAGE: coro-gpu-run FILE.ptx --kernel=NAME [--grid=G] [--block=B] "
    "[--out=K]\n"
    "                    [--arena=BYTES] [--stack=BYTES] [--time=R]\n"
    "       coro-gpu-run --probe\n";

static void usage(void) {
  printf("OVERVIEW: coro-gpu-run - run a PTX kernel on an NVIDIA GPU\n\n"
         "%s\n"
         "  --kernel=NAME  the kernel, `void NAME(int64_t *out)`\n"
         "  --grid=G       G blocks (default 1)\n"
         "  --block=B      B threads per block (default 1)\n"
         "  --out=K        K int64 values per thread (default 1); thread\n"
         "                 t = blockIdx.x*B + threadIdx.x owns\n"
         "                 out[t*K .. t*K+K-1]\n"
         "  --arena=BYTES  a zeroed arena of BYTES per thread for frames\n"
         "                 of coro.alloc = \"arena\" coroutines (sets the\n"
         "                 module's __coro_arena, __coro_arena_size)\n"
         "  --stack=BYTES  each thread's stack (the driver's default is\n"
         "                 1 KiB; recursion, e.g. eager awaits nesting\n"
         "                 ramps, needs more)\n"
         "  --time=R       R more launches after the first; the best time of\n"
         "                 one goes to stderr\n"
         "  --probe        only check for a usable GPU\n\n"
         "The G*B*K values, zeroed before the launch, are printed one per\n"
         "line. Exit status: 0 on success, 77 when there is no usable GPU\n"
         "(the run is skipped), 1 on any other error.\n",
         usage_lines);
}

/* Parses a positive decimal count no larger than max into *value. */
static bool parse_count(const char *flag, const char *text,
                        unsigned long long max, unsigned long long *value) {
  bool ok = *text >= '0' && *text <= '9';
  unsigned long long v = 0;
  for (const char *p = text; ok && *p; ++p) {
    if (*p < '0' || *p > '9' || v > (max - (unsigned)(*p - '0')) / 10)
      ok = false;
    else
      v = v * 10 + (unsigned)(*p - '0');
  }
  if (!ok || v == 0) {
    fprintf(stderr,
            "%s: error: %s needs a positive integer no larger than %llu, "
            "not '%s'\n",
            tool, flag, max, text);
    return false;
  }
  *value = v;
  return true;
}

/* 0: run; 1: bad arguments (reported); 2: --help. */
static int parse_args(int argc, char **argv, struct options *o) {
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      return 2;
    } else if (!strcmp(a, "--probe")) {
      o->probe = true;
    } else if (!strncmp(a, "--kernel=", 9)) {
      o->kernel = a + 9;
      if (!*o->kernel) {
        fprintf(stderr, "%s: error: --kernel needs a name\n", tool);
        return 1;
      }
    } else if (!strncmp(a, "--grid=", 7)) {
      if (!parse_count("--grid", a + 7, UINT_MAX, &o->grid))
        return 1;
    } else if (!strncmp(a, "--block=", 8)) {
      if (!parse_count("--block", a + 8, UINT_MAX, &o->block))
        return 1;
    } else if (!strncmp(a, "--time=", 7)) {
      if (!parse_count("--time", a + 7, 1000000, &o->time))
        return 1;
    } else if (!strncmp(a, "--stack=", 8)) {
      if (!parse_count("--stack", a + 8, ULLONG_MAX, &o->stack))
        return 1;
    } else if (!strncmp(a, "--arena=", 8)) {
      if (!parse_count("--arena", a + 8, ULLONG_MAX, &o->arena))
        return 1;
    } else if (!strncmp(a, "--out=", 6)) {
      if (!parse_count("--out", a + 6, ULLONG_MAX, &o->out))
        return 1;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "%s: error: unknown option '%s'\n", tool, a);
      return 1;
    } else if (o->input) {
      fprintf(stderr, "%s: error: more than one input file\n", tool);
      return 1;
    } else {
      o->input = a;
    }
  }
  if (o->probe) {
    if (o->input || o->kernel) {
      fprintf(stderr, "%s: error: --probe takes no other argument\n", tool);
      return 1;
    }
    return 0;
  }
  if (!o->input) {
    fprintf(stderr, "%s: error: no input file\n", tool);
    return 1;
  }
  if (!o->kernel) {
    fprintf(stderr, "%s: error: --kernel=NAME is required\n", tool);
    return 1;
  }
  return 0;
}

/* "CUDA_ERROR_X (text)" for a driver error, into buf. */
static const char *describe(CUresult err, char *buf, size_t size) {
  const char *name = NULL, *text = NULL;
  if (cu.GetErrorName && cu.GetErrorName(err, &name) != CUDA_SUCCESS)
    name = NULL;
  if (cu.GetErrorString && cu.GetErrorString(err, &text) != CUDA_SUCCESS)
    text = NULL;
  if (name && text)
    snprintf(buf, size, "%s (%s)", name, text);
  else
    snprintf(buf, size, "CUDA error %d", err);
  return buf;
}

/* A failure that is not the GPU's absence: `coro-gpu-run: error: what:
 * CUDA_ERROR_X (text)`. */
static void cu_error(const char *what, CUresult err) {
  char buf[256];
  fprintf(stderr, "%s: error: %s: %s\n", tool, what,
          describe(err, buf, sizeof buf));
}

/* No usable GPU: one line on stderr, and the run is skipped. */
static int skip(const char *why, CUresult err) {
  char buf[256];
  if (err == CUDA_SUCCESS)
    fprintf(stderr, "%s: %s: skipped\n", tool, why);
  else
    fprintf(stderr, "%s: %s: %s: skipped\n", tool, why,
            describe(err, buf, sizeof buf));
  return EXIT_SKIP;
}

/* The entry point name, else (when given) the older one. */
static void *lookup(const char *name, const char *fallback) {
  void *sym = dlsym(cu.lib, name);
  if (!sym && fallback)
    sym = dlsym(cu.lib, fallback);
  if (!sym)
    fprintf(stderr, "%s: the CUDA driver lacks %s: skipped\n", tool, name);
  return sym;
}

/* Opens libcuda.so.1 and fills `cu`; false (reported) when it cannot. The
 * library stays loaded until exit: the driver runs threads of its own. */
static bool open_driver(void) {
  cu.lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!cu.lib) {
    fprintf(stderr, "%s: no CUDA driver (libcuda.so.1): skipped\n", tool);
    return false;
  }
  /* The error texts first, so that later failures can use them. */
#define LOOKUP(field, name, fallback)                                          \
  if (!(cu.field = (__typeof__(cu.field))lookup(name, fallback)))              \
    return false;
  LOOKUP(GetErrorName, "cuGetErrorName", NULL)
  LOOKUP(GetErrorString, "cuGetErrorString", NULL)
  LOOKUP(Init, "cuInit", NULL)
  LOOKUP(DeviceGetCount, "cuDeviceGetCount", NULL)
  LOOKUP(DeviceGet, "cuDeviceGet", NULL)
  LOOKUP(DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", NULL)
  LOOKUP(CtxSetCurrent, "cuCtxSetCurrent", NULL)
  LOOKUP(DevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2",
         "cuDevicePrimaryCtxRelease")
  LOOKUP(ModuleLoadDataEx, "cuModuleLoadDataEx", NULL)
  LOOKUP(ModuleGetFunction, "cuModuleGetFunction", NULL)
  LOOKUP(MemAlloc, "cuMemAlloc_v2", NULL)
  LOOKUP(MemsetD8, "cuMemsetD8_v2", NULL)
  LOOKUP(MemcpyDtoH, "cuMemcpyDtoH_v2", NULL)
  LOOKUP(MemcpyHtoD, "cuMemcpyHtoD_v2", NULL)
  LOOKUP(ModuleGetGlobal, "cuModuleGetGlobal_v2", NULL)
  LOOKUP(MemFree, "cuMemFree_v2", NULL)
  LOOKUP(LaunchKernel, "cuLaunchKernel", NULL)
  LOOKUP(CtxSynchronize, "cuCtxSynchronize", NULL)
  LOOKUP(CtxSetLimit, "cuCtxSetLimit", NULL)
  LOOKUP(ModuleUnload, "cuModuleUnload", NULL)
#undef LOOKUP
  return true;
}

/* Opens the driver and makes device 0's primary context current: 0, or
 * EXIT_SKIP (reported) when there is no usable GPU. */
static int check_gpu(struct gpu *g) {
  if (!open_driver())
    return EXIT_SKIP;
  CUresult err = cu.Init(0);
  if (err != CUDA_SUCCESS)
    return skip("cuInit failed", err);
  int count = 0;
  err = cu.DeviceGetCount(&count);
  if (err != CUDA_SUCCESS)
    return skip("cuDeviceGetCount failed", err);
  if (count < 1)
    return skip("no CUDA device", CUDA_SUCCESS);
  err = cu.DeviceGet(&g->dev, 0);
  if (err != CUDA_SUCCESS)
    return skip("cuDeviceGet failed", err);
  err = cu.DevicePrimaryCtxRetain(&g->ctx, g->dev);
  if (err != CUDA_SUCCESS)
    return skip("no context on device 0", err);
  err = cu.CtxSetCurrent(g->ctx);
  if (err != CUDA_SUCCESS) {
    cu.DevicePrimaryCtxRelease(g->dev);
    return skip("cannot make device 0's context current", err);
  }
  return 0;
}

static void release_gpu(struct gpu *g) {
  cu.CtxSetCurrent(NULL);
  cu.DevicePrimaryCtxRelease(g->dev);
}

/* The whole file, NUL-terminated (the driver takes PTX as a C string);
 * NULL (reported) when it cannot be read. */
static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "%s: error: cannot open: %s\n", path, strerror(errno));
    return NULL;
  }
  size_t size = 0, cap = 1 << 16;
  char *text = drv_xmalloc(cap);
  for (;;) {
    if (cap - size < 2) {
      if (cap > SIZE_MAX / 2)
        drv_out_of_memory();
      text = drv_xrealloc(text, cap *= 2);
    }
    size_t n = fread(text + size, 1, cap - size - 1, f);
    size += n;
    if (n == 0)
      break;
  }
  bool ok = !ferror(f);
  if (!ok)
    fprintf(stderr, "%s: error: cannot read: %s\n", path, strerror(errno));
  fclose(f);
  if (!ok) {
    free(text);
    return NULL;
  }
  text[size] = '\0';
  if (strlen(text) != size) {
    fprintf(stderr, "%s: error: not a PTX text (it contains a NUL byte)\n",
            path);
    free(text);
    return NULL;
  }
  return text;
}

/* Loads the PTX; on failure reports the driver's error and ptxas's log. */
static bool load_module(const char *path, const char *ptx, CUmodule *mod) {
  static char log[1 << 16];
  log[0] = '\0';
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {log, (void *)(uintptr_t)sizeof log};
  CUresult err = cu.ModuleLoadDataEx(mod, ptx, 2, options, values);
  if (err == CUDA_SUCCESS)
    return true;
  char buf[256];
  fprintf(stderr, "%s: error: the PTX does not load: %s\n", path,
          describe(err, buf, sizeof buf));
  log[sizeof log - 1] = '\0';
  size_t n = strlen(log);
  while (n && (log[n - 1] == '\n' || log[n - 1] == '\r'))
    log[--n] = '\0';
  if (n)
    fprintf(stderr, "%s\n", log);
  return false;
}

/* Sets the device global `name` (8 bytes) of `mod` to `value`; false
 * (reported) when the module has no such global or the copy fails. */
static bool set_global(CUmodule mod, const char *name, uint64_t value) {
  CUdeviceptr at;
  size_t size;
  CUresult err = cu.ModuleGetGlobal(&at, &size, mod, name);
  if (err != CUDA_SUCCESS || size != sizeof value) {
    fprintf(stderr,
            "%s: error: --arena: the kernel's module has no 8-byte global "
            "'%s' (no coroutine with coro.alloc = \"arena\")\n",
            tool, name);
    return false;
  }
  if ((err = cu.MemcpyHtoD(at, &value, sizeof value)) != CUDA_SUCCESS) {
    cu_error("cuMemcpyHtoD of the arena's globals", err);
    return false;
  }
  return true;
}

/* --arena=BYTES: a zeroed buffer of BYTES per thread, its address and
 * BYTES given to the module's __coro_arena and __coro_arena_size (the
 * GPU path's arena for coro.alloc = "arena", docs/gpu.md). */
static bool give_arena(const struct options *o, CUmodule mod,
                       CUdeviceptr *arena) {
  unsigned long long threads = o->grid * o->block;
  if (o->arena > SIZE_MAX / threads) {
    fprintf(stderr, "%s: error: --arena * threads is too large\n", tool);
    return false;
  }
  size_t bytes = (size_t)(o->arena * threads);
  CUresult err = cu.MemAlloc(arena, bytes);
  if (err != CUDA_SUCCESS) {
    *arena = 0;
    cu_error("cuMemAlloc of the arena", err);
    return false;
  }
  if ((err = cu.MemsetD8(*arena, 0, bytes)) != CUDA_SUCCESS) {
    cu_error("cuMemsetD8 of the arena", err);
    return false;
  }
  return set_global(mod, "__coro_arena", (uint64_t)*arena) &&
         set_global(mod, "__coro_arena_size", (uint64_t)o->arena);
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* --time=R: R more launches, each on a zeroed buffer and waited for; the
 * best wall time of one launch goes to stderr (stdout keeps the first
 * launch's values, copied out before). */
static bool time_launches(const struct options *o, CUfunction fn, void **params,
                          CUdeviceptr out, size_t bytes) {
  double best = 1e300;
  for (unsigned long long r = 0; r < o->time; ++r) {
    /* each launch on a zeroed buffer, as the first (not timed) */
    CUresult zero = cu.MemsetD8(out, 0, bytes);
    if (zero == CUDA_SUCCESS)
      zero = cu.CtxSynchronize();
    if (zero != CUDA_SUCCESS) {
      cu_error("cuMemsetD8 of the output buffer", zero);
      return false;
    }
    double t0 = now_ms();
    CUresult err =
        cu.LaunchKernel(fn, (unsigned)o->grid, 1, 1, (unsigned)o->block, 1, 1,
                        0, NULL, params, NULL);
    if (err == CUDA_SUCCESS)
      err = cu.CtxSynchronize();
    if (err != CUDA_SUCCESS) {
      cu_error("a timed launch failed", err);
      return false;
    }
    double t = now_ms() - t0;
    best = t < best ? t : best;
  }
  fprintf(stderr, "%s: kernel '%s': %.3f ms per launch (best of %llu)\n", tool,
          o->kernel, best, o->time);
  return true;
}

/* Launches the kernel on a zeroed buffer of `count` values and prints them.
 */
static int launch(const struct options *o, CUmodule mod, size_t count) {
  CUfunction fn;
  CUresult err = cu.ModuleGetFunction(&fn, mod, o->kernel);
  if (err != CUDA_SUCCESS) {
    char buf[256];
    fprintf(stderr, "%s: error: no kernel '%s': %s\n", o->input, o->kernel,
            describe(err, buf, sizeof buf));
    return 1;
  }
  size_t bytes = count * sizeof(int64_t);
  int64_t *host = drv_xmalloc(bytes);
  CUdeviceptr out = 0;
  err = cu.MemAlloc(&out, bytes);
  if (err != CUDA_SUCCESS) {
    cu_error("cuMemAlloc of the output buffer", err);
    free(host);
    return 1;
  }
  int status = 1;
  void *params[] = {&out};
  CUdeviceptr arena = 0;
  if ((err = cu.MemsetD8(out, 0, bytes)) != CUDA_SUCCESS)
    cu_error("cuMemsetD8 of the output buffer", err);
  else if (o->arena && !give_arena(o, mod, &arena))
    ;
  else if (o->stack && (err = cu.CtxSetLimit(0 /* CU_LIMIT_STACK_SIZE */,
                                             (size_t)o->stack)) != CUDA_SUCCESS)
    cu_error("cuCtxSetLimit of the stack size", err);
  else if ((err =
                cu.LaunchKernel(fn, (unsigned)o->grid, 1, 1, (unsigned)o->block,
                                1, 1, 0, NULL, params, NULL)) != CUDA_SUCCESS)
    cu_error("cuLaunchKernel", err);
  else if ((err = cu.CtxSynchronize()) != CUDA_SUCCESS)
    cu_error("the kernel failed (cuCtxSynchronize)", err);
  else if ((err = cu.MemcpyDtoH(host, out, bytes)) != CUDA_SUCCESS)
    cu_error("cuMemcpyDtoH of the output buffer", err);
  else if (o->time && !time_launches(o, fn, params, out, bytes))
    ;
  else
    status = 0;
  cu.MemFree(out);
  if (arena)
    cu.MemFree(arena);
  if (status == 0) {
    bool ok = true;
    for (size_t i = 0; ok && i < count; ++i)
      ok = printf("%" PRId64 "\n", host[i]) >= 0;
    if (fflush(stdout) != 0 || ferror(stdout) || !ok) {
      fprintf(stderr, "%s: error: could not write the output\n", tool);
      status = 1;
    }
  }
  free(host);
  return status;
}

static int run(const struct options *o) {
  unsigned long long max = SIZE_MAX / sizeof(int64_t);
  if (o->grid > max / o->block || o->grid * o->block > max / o->out) {
    fprintf(stderr,
            "%s: error: --grid * --block * --out (%llu * %llu * %llu) is "
            "too large\n",
            tool, o->grid, o->block, o->out);
    return 1;
  }
  size_t count = (size_t)(o->grid * o->block * o->out);
  struct gpu g;
  int status = check_gpu(&g);
  if (status != 0)
    return status;
  if (o->probe) {
    release_gpu(&g);
    return 0;
  }
  char *ptx = read_file(o->input);
  if (!ptx) {
    release_gpu(&g);
    return 1;
  }
  CUmodule mod;
  status = 1;
  if (load_module(o->input, ptx, &mod)) {
    status = launch(o, mod, count);
    cu.ModuleUnload(mod);
  }
  free(ptx);
  release_gpu(&g);
  return status;
}

int main(int argc, char **argv) {
  drv_set_tool_name(tool);
  struct options o = {.grid = 1, .block = 1, .out = 1};
  int args = parse_args(argc, argv, &o);
  if (args == 2) {
    usage();
    return 0;
  }
  if (args) {
    fputs(usage_lines, stderr);
    return 1;
  }
  return run(&o);
}
