// Unwinding through a coroutine: locals with destructors live across
// suspensions in nested scopes; a throw deep inside destroys exactly the
// live ones, in reverse order, before unhandled_exception() stores it. A
// second frame throws from a function called in a loop and catches it in
// the same body, so the loop's locals are destroyed each round.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>

struct Trace {
  std::string name;
  explicit Trace(std::string n) : name(std::move(n)) {
    std::printf("  ctor %s\n", name.c_str());
  }
  ~Trace() { std::printf("  dtor %s\n", name.c_str()); }
};

struct Co {
  struct promise_type {
    std::exception_ptr error;
    Co get_return_object() {
      return Co{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() {
      error = std::current_exception();
      std::printf("  unhandled_exception stored it\n");
    }
  };
  std::coroutine_handle<promise_type> h;
};

[[gnu::noinline]] void maybe_throw(int i, int at) {
  if (i == at)
    throw std::runtime_error("thrown at " + std::to_string(i));
}

Co deep(int at) {
  Trace outer("outer");
  for (int i = 0; i < 4; ++i) {
    Trace loop("loop" + std::to_string(i));
    co_await std::suspend_always{};
    {
      Trace inner("inner" + std::to_string(i));
      co_await std::suspend_always{};
      maybe_throw(i, at);
    }
  }
}

Co recovering() {
  for (int i = 0; i < 3; ++i) {
    try {
      Trace t("try" + std::to_string(i));
      co_await std::suspend_always{};
      maybe_throw(i, 1);
    } catch (const std::exception &e) {
      std::printf("  caught %s\n", e.what());
    }
  }
}

void drive(Co c, const char *name) {
  std::printf("%s:\n", name);
  int steps = 0;
  while (!c.h.done()) {
    c.h.resume();
    ++steps;
  }
  std::printf("%s took %d resumes\n", name, steps);
  if (c.h.promise().error) {
    try {
      std::rethrow_exception(c.h.promise().error);
    } catch (const std::exception &e) {
      std::printf("%s failed: %s\n", name, e.what());
    }
  }
  c.h.destroy();
}

int main() {
  drive(deep(2), "deep");
  drive(recovering(), "recovering");
  return 0;
}
