// cxx_generator.cpp - the C++20 peer of bench/generator.mlir: the same
// generator as a clang coroutine, and the same two consumers (frame kept on
// the heap through bench_launder, and frame elided by clang/LLVM).
#include <coroutine>
#include <cstdint>

extern "C" void bench_sink(int64_t);
extern "C" void *bench_launder(void *);

namespace {
struct generator {
  struct promise_type {
    int64_t value = 0;
    generator get_return_object() {
      return generator{
          std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_never initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(int64_t v) noexcept {
      value = v;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() noexcept {}
  };
  std::coroutine_handle<promise_type> h;
};

generator gen(int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    co_yield i;
}

void drain(std::coroutine_handle<generator::promise_type> h) {
  while (!h.done()) {
    bench_sink(h.promise().value);
    h.resume();
  }
  h.destroy();
}
} // namespace

extern "C" void cxx_sum_heap(int64_t n) {
  auto h = gen(n).h;
  drain(std::coroutine_handle<generator::promise_type>::from_address(
      bench_launder(h.address())));
}

extern "C" void cxx_sum_elided(int64_t n) { drain(gen(n).h); }
