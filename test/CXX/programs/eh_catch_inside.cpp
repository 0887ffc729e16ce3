// Exceptions thrown and caught inside a coroutine body: a try block around
// suspensions, a throw after a resume, a value the handler computes kept
// across the next suspension (a handler itself may not suspend), and a
// rethrow into an outer try in the same body.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>

struct Gen {
  struct promise_type {
    int value = 0;
    Gen get_return_object() {
      return Gen{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(int v) noexcept {
      value = v;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  ~Gen() { h.destroy(); }
};

[[gnu::noinline]] int check(int i) {
  if (i % 3 == 2)
    throw std::runtime_error("bad " + std::to_string(i));
  if (i == 7)
    throw i;
  return i * 10;
}

Gen body(int n) {
  for (int i = 0; i < n; ++i) {
    std::string msg;
    try {
      co_yield 1000 + i;
      int v = check(i);
      co_yield v;
    } catch (const std::runtime_error &e) {
      msg = e.what();
    } catch (int x) {
      std::printf("caught int %d\n", x);
    }
    if (!msg.empty()) {
      co_yield -static_cast<int>(msg.size());
      std::printf("caught '%s' before a yield\n", msg.c_str());
    }
  }
  int last = 0;
  try {
    try {
      co_yield 5;
      throw std::logic_error("inner");
    } catch (const std::logic_error &e) {
      std::printf("inner catch %s, rethrowing\n", e.what());
      throw;
    }
  } catch (const std::exception &e) {
    std::printf("outer catch %s\n", e.what());
    last = 6;
  }
  co_yield last;
}

int main() {
  Gen g = body(9);
  for (g.h.resume(); !g.h.done(); g.h.resume())
    std::printf("got %d\n", g.h.promise().value);
  std::printf("end\n");
  return 0;
}
