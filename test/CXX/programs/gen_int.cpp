// An int generator: the first 20 Fibonacci numbers, a range with a step,
// and a generator abandoned half-way (its frame destroyed while suspended).
#include <coroutine>
#include <cstdio>
#include <exception>

class IntGen {
public:
  struct promise_type {
    int current = 0;
    IntGen get_return_object() {
      return IntGen(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(int v) noexcept {
      current = v;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  explicit IntGen(std::coroutine_handle<promise_type> h) : h_(h) {}
  IntGen(IntGen &&o) noexcept : h_(o.h_) { o.h_ = nullptr; }
  IntGen(const IntGen &) = delete;
  ~IntGen() {
    if (h_)
      h_.destroy();
  }
  bool next() {
    h_.resume();
    return !h_.done();
  }
  int value() const { return h_.promise().current; }

private:
  std::coroutine_handle<promise_type> h_;
};

IntGen fibonacci(int n) {
  int a = 0, b = 1;
  for (int i = 0; i < n; ++i) {
    co_yield a;
    int t = a + b;
    a = b;
    b = t;
  }
}

IntGen range(int from, int to, int step) {
  for (int i = from; i < to; i += step)
    co_yield i;
}

int main() {
  IntGen fib = fibonacci(20);
  while (fib.next())
    std::printf("%d ", fib.value());
  std::printf("\n");

  long sum = 0;
  IntGen r = range(3, 1000, 7);
  while (r.next())
    sum += r.value();
  std::printf("range sum %ld\n", sum);

  IntGen half = range(0, 100, 1);
  int taken = 0;
  while (taken < 5 && half.next())
    taken += 1 + 0 * half.value();
  std::printf("took %d, last %d\n", taken, half.value());
  return 0;
}
