// co_await inside nested try/catch with rethrow: an awaited task throws
// after suspending; the inner handler logs, suspends (co_await is not
// allowed in a handler, so it records and awaits after the handler),
// rethrows with `throw;` to an outer handler in the same coroutine; a
// std::exception_ptr captured in a handler and rethrown after a
// suspension; a function-try-like nest three deep with different types;
// and an exception escaping to unhandled_exception that stores it.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>

template <typename T> struct Task {
  struct promise_type {
    T value{};
    std::exception_ptr error;
    std::coroutine_handle<> cont = std::noop_coroutine();
    Task get_return_object() {
      return Task{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct Final {
      bool await_ready() noexcept { return false; }
      std::coroutine_handle<>
      await_suspend(std::coroutine_handle<promise_type> h) noexcept {
        return h.promise().cont;
      }
      void await_resume() noexcept {}
    };
    Final final_suspend() noexcept { return {}; }
    void return_value(T v) { value = v; }
    void unhandled_exception() { error = std::current_exception(); }
  };
  std::coroutine_handle<promise_type> h;
  Task(Task &&o) noexcept : h(o.h) { o.h = nullptr; }
  explicit Task(std::coroutine_handle<promise_type> h) : h(h) {}
  ~Task() {
    if (h)
      h.destroy();
  }
  bool await_ready() noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> c) noexcept {
    h.promise().cont = c;
    return h;
  }
  T await_resume() {
    if (h.promise().error)
      std::rethrow_exception(h.promise().error);
    return h.promise().value;
  }
};

static std::coroutine_handle<> parked;
struct Park {
  bool await_ready() noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) noexcept { parked = h; }
  void await_resume() noexcept {}
};

struct Guard {
  const char *n;
  ~Guard() { std::printf("  ~%s\n", n); }
};

Task<int> thrower(int kind) {
  Guard g{"thrower"};
  co_await Park{};
  if (kind == 0)
    throw std::runtime_error("runtime");
  if (kind == 1)
    throw std::string("string");
  if (kind == 2)
    throw 42;
  co_return 7;
}

Task<int> middle(int kind) {
  int caught = 0;
  try {
    Guard g{"middle.outer"};
    try {
      Guard g2{"middle.inner"};
      int v = co_await thrower(kind);
      std::printf("  middle got %d\n", v);
      co_return v;
    } catch (const std::runtime_error &e) {
      std::printf("  inner caught runtime '%s', rethrowing\n", e.what());
      caught = 1;
      throw;
    } catch (int i) {
      std::printf("  inner caught int %d, swallowing\n", i);
      caught = 2;
    }
    co_await Park{};
    std::printf("  after inner try, caught %d\n", caught);
  } catch (const std::exception &e) {
    std::printf("  outer caught '%s' (caught %d)\n", e.what(), caught);
    caught += 10;
  }
  co_await Park{};
  co_return -caught;
}

Task<int> deferred(int kind) {
  std::exception_ptr saved;
  try {
    co_await thrower(kind);
  } catch (...) {
    saved = std::current_exception();
    std::printf("  deferred saved\n");
  }
  co_await Park{};
  try {
    if (saved)
      std::rethrow_exception(saved);
  } catch (const std::string &s) {
    std::printf("  deferred rethrown string '%s'\n", s.c_str());
    co_return 100;
  }
  co_return 200;
}

template <typename T> void drive(const char *name, Task<T> t) {
  std::printf("%s:\n", name);
  t.h.resume();
  while (!t.h.done())
    parked.resume();
  if (t.h.promise().error) {
    try {
      std::rethrow_exception(t.h.promise().error);
    } catch (const std::exception &e) {
      std::printf("%s escaped: %s\n", name, e.what());
    } catch (...) {
      std::printf("%s escaped: other\n", name);
    }
  } else {
    std::printf("%s = %d\n", name, (int)t.h.promise().value);
  }
}

int main() {
  for (int k = 0; k < 4; ++k) {
    std::string n = "middle" + std::to_string(k);
    drive(n.c_str(), middle(k));
  }
  drive("deferred1", deferred(1));
  drive("deferred3", deferred(3));
  drive("deferred0", deferred(0));
  return 0;
}
