// A generator with a local whose destructor prints, and a by-value
// parameter whose destructor prints: both run on the path of an exception
// that leaves the body (cold), where the destructor inlines only once
// printf is known not to unwind.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <stdexcept>

struct Gen {
  struct promise_type {
    long value = 0;
    std::exception_ptr error;
    Gen get_return_object() {
      return Gen(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(long v) noexcept {
      value = v;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() { error = std::current_exception(); }
  };
  explicit Gen(std::coroutine_handle<promise_type> h) : h(h) {}
  Gen(const Gen &) = delete;
  ~Gen() { h.destroy(); }
  bool next() {
    h.resume();
    if (h.promise().error)
      std::rethrow_exception(h.promise().error);
    return !h.done();
  }
  std::coroutine_handle<promise_type> h;
};

struct Guard {
  int id;
  ~Guard() { std::printf("guard %d released\n", id); }
};

struct Touchy {
  int id;
  ~Touchy() { std::printf("touchy %d gone\n", id); }
};

Gen squares(int limit, Touchy t) {
  Guard g{1};
  for (long i = 1;; ++i) {
    if (i * i > limit)
      throw std::overflow_error("over");
    co_yield i * i + t.id;
  }
}

int main() {
  long sum = 0;
  try {
    Gen g = squares(50, Touchy{3});
    while (g.next())
      sum += g.h.promise().value;
  } catch (const std::overflow_error &e) {
    std::printf("caught %s, sum %ld\n", e.what(), sum);
  }
  return 0;
}
