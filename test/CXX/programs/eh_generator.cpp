// A generator whose body throws: the exception is stored by
// unhandled_exception() and rethrown to the consumer by next(); the consumer
// catches it and stops. A second generator is abandoned in a catch block
// while suspended, and its locals are destroyed by the handle's destroy().
#include <coroutine>
#include <cstdio>
#include <exception>
#include <stdexcept>

class Gen {
public:
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
  long value() const { return h.promise().value; }

private:
  std::coroutine_handle<promise_type> h;
};

struct Guard {
  int id;
  ~Guard() { std::printf("guard %d released\n", id); }
};

Gen checked_squares(int limit) {
  Guard g{1};
  for (long i = 1;; ++i) {
    if (i * i > limit)
      throw std::overflow_error("square over limit");
    co_yield i *i;
  }
}

Gen endless() {
  Guard g{2};
  for (long i = 0;; ++i)
    co_yield i;
}

int main() {
  long sum = 0;
  try {
    Gen g = checked_squares(200);
    while (g.next())
      sum += g.value();
  } catch (const std::overflow_error &e) {
    std::printf("consumer caught: %s (sum %ld)\n", e.what(), sum);
  }
  try {
    Gen e = endless();
    for (int i = 0; i < 10 && e.next(); ++i)
      if (e.value() == 6)
        throw std::logic_error("stop at six");
  } catch (const std::logic_error &e) {
    std::printf("abandoned: %s\n", e.what());
  }
  return 0;
}
