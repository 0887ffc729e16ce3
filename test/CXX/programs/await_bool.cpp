// await_suspend returning bool, noexcept and not: false resumes the
// awaiting coroutine at once (no suspension), true suspends it. The
// decision depends on a counter, so both outcomes happen in one loop.
#include <coroutine>
#include <cstdio>
#include <exception>

struct Co {
  struct promise_type {
    int suspensions = 0;
    Co get_return_object() {
      return Co{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
};

struct MaybeSuspend {
  int i;
  bool await_ready() const noexcept { return false; }
  bool await_suspend(std::coroutine_handle<Co::promise_type> h) noexcept {
    bool s = i % 3 == 0;
    h.promise().suspensions += s;
    return s;
  }
  int await_resume() const noexcept { return i * i; }
};

struct MaybeSuspendThrowing {
  int i;
  bool await_ready() const { return i % 5 == 4; }
  bool await_suspend(std::coroutine_handle<Co::promise_type> h) {
    bool s = i % 2 == 0;
    h.promise().suspensions += s;
    return s;
  }
  long await_resume() const { return -static_cast<long>(i); }
};

Co body(int n, long *sum) {
  for (int i = 0; i < n; ++i) {
    *sum += co_await MaybeSuspend{i};
    *sum += co_await MaybeSuspendThrowing{i};
  }
}

int main() {
  long sum = 0;
  Co c = body(20, &sum);
  int resumes = 0;
  while (!c.h.done()) {
    c.h.resume();
    ++resumes;
  }
  std::printf("sum %ld resumes %d suspensions %d\n", sum, resumes,
              c.h.promise().suspensions);
  c.h.destroy();
  return 0;
}
