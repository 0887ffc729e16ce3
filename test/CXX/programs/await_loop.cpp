// co_await inside loops: for, while, do-while, nested loops with break and
// continue, and a range-for over an array, each awaiting a value source.
#include <coroutine>
#include <cstdio>
#include <exception>

struct Co {
  struct promise_type {
    long result = 0;
    Co get_return_object() {
      return Co{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_value(long v) noexcept { result = v; }
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
};

static int feed = 0;
static int suspends = 0;

struct Next {
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<>) noexcept { ++suspends; }
  int await_resume() const noexcept { return feed; }
};

Co loops() {
  long acc = 0;
  for (int i = 0; i < 4; ++i)
    acc += co_await Next{} * i;
  int w = 0;
  while (co_await Next{} % 7 != 0)
    ++w;
  acc += 100 * w;
  int d = 0;
  do {
    d += co_await Next{};
  } while (d < 50);
  acc += d;
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      int v = co_await Next{};
      if (v % 5 == 0)
        continue;
      if (j > i)
        break;
      acc += v;
    }
  }
  int arr[] = {3, 1, 4, 1, 5};
  for (int x : arr)
    acc = acc * 3 + x * (co_await Next{} % 4);
  co_return acc % 1000000007;
}

int main() {
  Co c = loops();
  int rounds = 0;
  while (!c.h.done()) {
    feed = rounds * 3 + 1;
    c.h.resume();
    ++rounds;
  }
  std::printf("result %ld rounds %d suspends %d\n", c.h.promise().result,
              rounds, suspends);
  c.h.destroy();
  return 0;
}
