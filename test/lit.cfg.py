# lit configuration of the coro test suite.
import os
import shutil
import subprocess
import sys

import lit.formats

config.name = "coro"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".c", ".test", ".ll"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.coro_obj_root, "test")

config.environment["FILECHECK_OPTS"] = (
    "-enable-var-scope --allow-unused-prefixes=false"
)
for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "HOME", "TMPDIR"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
config.environment["PATH"] = os.pathsep.join(
    [config.coro_tools_dir, config.llvm_tools_dir, config.environment["PATH"]]
)

config.substitutions.append(("%coro_src", config.coro_src_root))
config.substitutions.append(("%llvm_lib", config.llvm_lib_dir))
config.substitutions.append(("%python", '"' + sys.executable + '"'))
config.substitutions.append(("%coro_bin", config.coro_obj_root))
config.substitutions.append(("%capi_bin", os.path.join(config.coro_obj_root, "test", "CAPI")))
# test/Plugin: upstream mlir-opt and mlir-translate of the MLIR this build
# uses (mlir-22-tools, first on PATH) load lib/CoroPlugin.so.
config.substitutions.append(
    ("%coro_plugin", os.path.join(config.coro_obj_root, "lib", "CoroPlugin.so")))
if all(os.path.exists(os.path.join(config.llvm_tools_dir, tool))
       for tool in ("mlir-opt", "mlir-translate")):
    config.available_features.add("mlir-opt")
else:
    lit_config.note("mlir-opt or mlir-translate is not installed "
                    "(mlir-22-tools): test/Plugin is skipped")

if config.sanitizers:
    config.available_features.add("sanitizers")

# Passes that work on pieces at once (the coro-lower stages on large
# modules, coro-split) do so only where MLIR's thread pool has two threads.
if (os.cpu_count() or 1) > 1:
    config.available_features.add("threads")

# test/Transforms/CoroSplit/valgrind.test: memcheck (the set-up installs
# valgrind) on copies without debug info, stripped by llvm-strip.
if shutil.which("valgrind") and os.path.exists(
        os.path.join(config.llvm_tools_dir, "llvm-strip")):
    config.available_features.add("valgrind")
else:
    lit_config.note("valgrind or llvm-strip is not installed: "
                    "test/Transforms/CoroSplit/valgrind.test is skipped")

# test/tools/allocator.test counts a tool's system calls with strace (the
# set-up installs it), where this machine lets strace trace a process.
if shutil.which("strace") and subprocess.run(
        ["strace", "-f", "-qq", "-o", os.devnull, "true"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
    config.available_features.add("strace")
else:
    lit_config.note("strace is missing or cannot trace here: "
                    "test/tools/allocator.test is skipped")

# The fuzz smoke test needs the libFuzzer harness (tools/coro-fuzz), built
# when CORO_ENABLE_FUZZER is on and the compiler links -fsanitize=fuzzer.
if os.path.exists(os.path.join(config.coro_tools_dir, "coro-fuzz")):
    config.available_features.add("coro-fuzz")
else:
    lit_config.note(
        "coro-fuzz is not built (CORO_ENABLE_FUZZER=OFF, or the compiler "
        "cannot link -fsanitize=fuzzer): test/fuzz/fuzz.test is skipped"
    )

# test/Embedding builds programs out of tree against the installed package
# with the compiler of this build (a sanitized library needs the same ASan
# runtime in the program), and with pkg-config when it is installed.
config.substitutions.append(("%cc", config.cc))
# C++ programs (test/Integration/CXX, test/CXX): clang++ beside the C
# compiler, which the set-up installs with clang-22.
cxx = os.path.join(os.path.dirname(config.cc), "clang++")
if os.path.exists(cxx):
    config.available_features.add("clang-cxx")
    config.substitutions.append(("%cxx", cxx))
# test/GPU runs device LLVM IR on the host (Inputs/emulate.sh): the C
# compiler must read LLVM 22's IR, which clang does
if "clang" in os.path.basename(config.cc):
    config.available_features.add("clang-cc")
if shutil.which("pkg-config"):
    config.available_features.add("pkg-config")

# test/Integration/Translate/gdb.test breaks in a resumed coroutine on a
# line of its .mlir file: only where gdb is installed and may trace (a
# container may forbid ptrace).
def gdb_works():
    import subprocess
    if not shutil.which("gdb"):
        return False
    try:
        r = subprocess.run(["gdb", "-q", "-batch", "-ex", "run", "--args", "true"],
                           capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return False
    return r.returncode == 0 and "exited normally" in r.stdout

if gdb_works():
    config.available_features.add("gdb")
else:
    lit_config.note("gdb is missing or cannot trace here: "
                    "test/Integration/Translate/gdb.test is skipped")

# test/GPU: PTX is validated by CUDA's ptxas where CUDA is installed, and
# kernels run where coro-gpu-run finds a GPU and its driver (it exits 77
# otherwise).
ptxas = shutil.which("ptxas") or (
    "/usr/local/cuda/bin/ptxas"
    if os.path.exists("/usr/local/cuda/bin/ptxas") else None)
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
else:
    lit_config.note("ptxas (CUDA) is not installed: the PTX of test/GPU is "
                    "not validated")

def gpu_works():
    import subprocess
    runner = os.path.join(config.coro_tools_dir, "coro-gpu-run")
    try:
        return subprocess.run([runner, "--probe"], capture_output=True,
                              timeout=120).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False

if gpu_works():
    config.available_features.add("cuda-gpu")
else:
    lit_config.note("no GPU or CUDA driver here: the kernel runs of "
                    "test/GPU are skipped")
