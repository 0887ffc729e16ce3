// gpu_generator.cu - the CUDA C++20 peer of test/GPU/generator-kernel.mlir
// (bench/gpu.sh compiles it with clang; nvcc rejects device coroutines).
//
// kernel: thread t = blockIdx.x * blockDim.x + threadIdx.x runs the
// generator range(t), which yields 0, 1, ..., t-1 and ends with final
// result t; sum(t) pulls every value (reads the promise, resumes until
// done) and out[t] = 10 * (sum of yielded values + final result) + number
// of values pulled. Like coro's, the generator is eager up to its first
// suspension (suspend_never initial suspend) and stays suspended at its
// end (suspend_always final suspend) so that sum reads the final result
// and destroys it. Its frame does not come from device malloc: the
// promise's operator new hands out the calling thread's slice of a
// __device__ buffer, and operator delete does nothing.
//
// sm_kernel: the same values from a hand-written state machine (i, n,
// value, done), the frame a plain struct in the thread's registers.
#include <cstddef>
#include <cstdint>

// libstdc++'s <coroutine> is host code (coroutine_handle::resume is not
// constexpr); make it __host__ __device__ as a whole.
#pragma clang force_cuda_host_device begin
#include <coroutine>
#pragma clang force_cuda_host_device end

// Each thread's frame: FRAME_BYTES in a global buffer for up to
// FRAME_THREADS threads (a frame that would not fit traps).
#define FRAME_BYTES 128
#define FRAME_THREADS 65536
__device__ alignas(16) unsigned char coro_frames[FRAME_THREADS * FRAME_BYTES];

namespace {
__device__ inline unsigned thread_id() {
  return blockIdx.x * blockDim.x + threadIdx.x;
}

struct generator {
  struct promise_type {
    int64_t value = 0;

    __device__ static void *operator new(std::size_t n) {
      unsigned t = thread_id();
      if (n > FRAME_BYTES || t >= FRAME_THREADS)
        __trap();
      return &coro_frames[std::size_t(t) * FRAME_BYTES];
    }
    __device__ static void operator delete(void *) noexcept {}

    __device__ generator get_return_object() {
      return generator{
          std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    __device__ std::suspend_never initial_suspend() noexcept { return {}; }
    __device__ std::suspend_always final_suspend() noexcept { return {}; }
    __device__ std::suspend_always yield_value(int64_t v) noexcept {
      value = v;
      return {};
    }
    __device__ void return_value(int64_t v) noexcept { value = v; }
    __device__ void unhandled_exception() noexcept { __trap(); }
  };
  std::coroutine_handle<promise_type> h;
};

__device__ generator range(int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    co_yield i;
  co_return n;
}

__device__ int64_t sum(int64_t n) {
  std::coroutine_handle<generator::promise_type> g = range(n).h;
  int64_t acc = 0, k = 0;
  while (!g.done()) {
    acc += g.promise().value;
    k += 1;
    g.resume();
  }
  int64_t final_ = g.promise().value;
  g.destroy();
  return 10 * (acc + final_) + k;
}

// The hand-written state machine: range(n) as a struct and a step.
struct range_sm {
  int64_t i, n, value;
  bool done;
};

__device__ inline void range_sm_next(range_sm &s) {
  if (s.i < s.n) {
    s.value = s.i++;
  } else {
    s.value = s.n;
    s.done = true;
  }
}

__device__ int64_t sum_sm(int64_t n) {
  range_sm g{0, n, 0, false};
  range_sm_next(g); // eager up to the first value, as range(n)
  int64_t acc = 0, k = 0;
  while (!g.done) {
    acc += g.value;
    k += 1;
    range_sm_next(g);
  }
  return 10 * (acc + g.value) + k;
}
} // namespace

extern "C" __global__ void kernel(long long *out) {
  unsigned t = thread_id();
  out[t] = sum(int64_t(t));
}

extern "C" __global__ void sm_kernel(long long *out) {
  unsigned t = thread_id();
  out[t] = sum_sm(int64_t(t));
}

// bench/gpu.sh's run-time rows: each thread t folds the n = 4096 + out[t]
// values of a generator (out[] is zeroed by the runner: n is 4096, known
// only at run time) with acc = acc * 31 + v (no closed form), as
// bench/gpu-generator.mlir does, and stores acc + t.
namespace {
__device__ int64_t fold_coro(int64_t n) {
  std::coroutine_handle<generator::promise_type> g = range(n).h;
  int64_t acc = 0;
  while (!g.done()) {
    acc = acc * 31 + g.promise().value;
    g.resume();
  }
  g.destroy();
  return acc;
}

__device__ int64_t fold_sm(int64_t n) {
  range_sm g{0, n, 0, false};
  range_sm_next(g);
  int64_t acc = 0;
  while (!g.done) {
    acc = acc * 31 + g.value;
    range_sm_next(g);
  }
  return acc;
}
} // namespace

extern "C" __global__ void bench_coro_kernel(long long *out) {
  unsigned t = thread_id();
  out[t] = fold_coro(4096 + out[t]) + t;
}

extern "C" __global__ void bench_sm_kernel(long long *out) {
  unsigned t = thread_id();
  out[t] = fold_sm(4096 + out[t]) + t;
}
