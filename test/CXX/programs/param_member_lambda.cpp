// Coroutines that are member functions (the object pointer is a parameter
// copied into the frame), a static member, a lambda coroutine without
// captures, and reference parameters that must alias the caller's objects.
#include <coroutine>
#include <cstdio>
#include <exception>

struct Gen {
  struct promise_type {
    int out = 0;
    Gen get_return_object() {
      return Gen{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(int v) noexcept {
      out = v;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  int drain() {
    int sum = 0;
    for (h.resume(); !h.done(); h.resume())
      sum = sum * 7 + h.promise().out;
    h.destroy();
    return sum % 1000003;
  }
};

class Counter {
public:
  explicit Counter(int base) : base_(base) {}
  Gen count(int n) {
    for (int i = 0; i < n; ++i) {
      co_yield base_ + i;
      ++calls_;
    }
  }
  Gen count_const(int n) const {
    for (int i = n; i > 0; --i)
      co_yield base_ *i;
  }
  static Gen twice(int v) {
    co_yield v;
    co_yield v * 2;
  }
  int calls() const { return calls_; }
  void rebase(int b) { base_ = b; }

private:
  int base_;
  int calls_ = 0;
};

Gen accumulate(int &total, const int &step, int n) {
  for (int i = 0; i < n; ++i) {
    total += step;
    co_yield total;
  }
}

int main() {
  Counter c(10);
  Gen g = c.count(5);
  g.h.resume();
  c.rebase(100);
  std::printf("member: %d, calls %d\n", g.drain(), c.calls());
  std::printf("const member: %d\n", c.count_const(4).drain());
  std::printf("static member: %d\n", Counter::twice(21).drain());
  auto lam = [](int from, int to) -> Gen {
    for (int i = from; i <= to; ++i)
      if (i % 2)
        co_yield i;
  };
  std::printf("lambda: %d\n", lam(1, 15).drain());
  int total = 0, step = 3;
  Gen a = accumulate(total, step, 4);
  a.h.resume();
  step = 10;
  int r = a.drain();
  std::printf("references: %d total %d\n", r, total);
  return 0;
}
