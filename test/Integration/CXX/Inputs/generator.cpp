// A C++20 generator (a promise of its own, co_yield in a loop, a value
// with a destructor across the suspensions), summed by main.
#include <coroutine>
#include <cstdio>

struct noisy {
  int n;
  ~noisy() { std::printf("noisy %d gone\n", n); }
};

struct gen {
  struct promise_type {
    int value = 0;
    gen get_return_object() {
      return gen{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(int v) noexcept {
      value = v;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() noexcept {}
  };
  std::coroutine_handle<promise_type> h;
};

gen count(int n) {
  noisy guard{n};
  for (int i = 0; i < n; ++i)
    co_yield i * guard.n;
}

int main() {
  gen g = count(10);
  int sum = 0;
  for (g.h.resume(); !g.h.done(); g.h.resume())
    sum += g.h.promise().value;
  g.h.destroy();
  std::printf("sum %d\n", sum);
  return 0;
}
