// get_return_object_on_allocation_failure: the promise's operator new is
// noexcept and returns nullptr when the test says so; the ramp then skips
// the body and returns the failure object. Successful frames are freed
// through the promise's operator delete.
#include <coroutine>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>

static bool fail_next = false;
static int allocs = 0, frees = 0, body_runs = 0;

// Every handle escapes through a volatile store and every coroutine is
// noinline, so no optimizer may elide a frame's allocation (LLVM's
// CoroElide, coro's --coro-elide): the counts are the same at every -O
// level and under both routes.
static void *volatile escaped;

struct Job {
  struct promise_type {
    int result = 0;
    static void *operator new(std::size_t n) noexcept {
      if (fail_next) {
        fail_next = false;
        return nullptr;
      }
      ++allocs;
      return std::malloc(n);
    }
    static void operator delete(void *p) noexcept {
      ++frees;
      std::free(p);
    }
    static Job get_return_object_on_allocation_failure() noexcept {
      return Job{nullptr};
    }
    Job get_return_object() noexcept {
      auto h = std::coroutine_handle<promise_type>::from_promise(*this);
      escaped = h.address();
      return Job{h};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_value(int v) noexcept { result = v; }
    void unhandled_exception() noexcept { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  explicit operator bool() const { return static_cast<bool>(h); }
  int finish() {
    while (!h.done())
      h.resume();
    int r = h.promise().result;
    h.destroy();
    return r;
  }
};

[[gnu::noinline]] Job work(int x) {
  ++body_runs;
  co_await std::suspend_always{};
  co_return x *x + 1;
}

int main() {
  for (int i = 0; i < 6; ++i) {
    fail_next = (i % 3 == 1);
    Job j = work(i);
    if (!j) {
      std::printf("job %d: allocation failed\n", i);
      continue;
    }
    std::printf("job %d: %d\n", i, j.finish());
  }
  std::printf("allocs %d frees %d body runs %d\n", allocs, frees, body_runs);
  return 0;
}
