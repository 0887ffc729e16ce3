// Exceptions through chains of lazy tasks: a throw three levels down
// after each level has suspended (stored by unhandled_exception as an
// exception_ptr, rethrown by await_resume in the awaiter, unwinding each
// level's live locals), caught by base-class reference two levels up;
// std::throw_with_nested / std::rethrow_if_nested across a suspension;
// a handler that does co_return; an exception_ptr kept in a local across
// later suspensions and rethrown at the end; and throws from
// return_value and from yield_value.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>

struct Noisy {
  std::string n;
  explicit Noisy(std::string s) : n(std::move(s)) { std::printf("  + %s\n", n.c_str()); }
  ~Noisy() { std::printf("  - %s\n", n.c_str()); }
};

struct Base : std::exception {
  int code;
  explicit Base(int c) : code(c) {}
  const char *what() const noexcept override { return "base"; }
};
struct Derived : Base {
  std::string detail;
  Derived(int c, std::string d) : Base(c), detail(std::move(d)) {}
  const char *what() const noexcept override { return detail.c_str(); }
};

struct Picky {
  int v;
};

template <typename T> class Task {
public:
  struct promise_type {
    T result{};
    std::exception_ptr error;
    std::coroutine_handle<> continuation = std::noop_coroutine();
    Task get_return_object() {
      return Task(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct Final {
      bool await_ready() noexcept { return false; }
      std::coroutine_handle<>
      await_suspend(std::coroutine_handle<promise_type> h) noexcept {
        return h.promise().continuation;
      }
      void await_resume() noexcept {}
    };
    Final final_suspend() noexcept { return {}; }
    void return_value(T v) { result = std::move(v); }
    void return_value(Picky p) { // throws for odd values
      if (p.v % 2)
        throw std::runtime_error("odd picky " + std::to_string(p.v));
      result = T(p.v);
    }
    void unhandled_exception() { error = std::current_exception(); }
  };
  explicit Task(std::coroutine_handle<promise_type> h) : h(h) {}
  Task(Task &&o) noexcept : h(std::exchange(o.h, nullptr)) {}
  ~Task() {
    if (h)
      h.destroy();
  }
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> a) {
    h.promise().continuation = a;
    return h;
  }
  T await_resume() {
    if (h.promise().error)
      std::rethrow_exception(h.promise().error);
    return std::move(h.promise().result);
  }
  T run() {
    h.resume();
    return await_resume();
  }

private:
  std::coroutine_handle<promise_type> h;
};

struct Gen {
  struct promise_type {
    int value = 0;
    std::exception_ptr error;
    Gen get_return_object() {
      return Gen{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(int v) {
      if (v < 0)
        throw std::out_of_range("negative yield " + std::to_string(v));
      value = v;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() { error = std::current_exception(); }
  };
  std::coroutine_handle<promise_type> h;
  explicit Gen(std::coroutine_handle<promise_type> h) : h(h) {}
  Gen(Gen &&o) noexcept : h(std::exchange(o.h, nullptr)) {}
  ~Gen() {
    if (h)
      h.destroy();
  }
  bool next() {
    h.resume();
    if (h.promise().error)
      std::rethrow_exception(h.promise().error);
    return !h.done();
  }
};

struct Bounce {
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> h) noexcept { return h; }
  void await_resume() const noexcept {}
};

Task<int> level3(int x) {
  Noisy n("level3 " + std::to_string(x));
  co_await Bounce{};
  if (x > 2)
    throw Derived(x, "level3 failed on " + std::to_string(x));
  co_return x * 3;
}

Task<int> level2(int x) {
  Noisy n("level2 " + std::to_string(x));
  co_await Bounce{};
  int r = co_await level3(x);
  co_return r + 1;
}

Task<int> level1(int x) {
  Noisy n("level1 " + std::to_string(x));
  try {
    Noisy inner("level1 try " + std::to_string(x));
    int r = co_await level2(x);
    co_return r * 10;
  } catch (const Base &b) {
    std::printf("  level1 caught %s code %d\n", b.what(), b.code);
    co_return -b.code; // co_return in a handler
  }
}

Task<int> nested(int x) {
  try {
    try {
      co_await level2(x);
    } catch (...) {
      std::throw_with_nested(std::logic_error("wrapped by nested"));
    }
  } catch (const std::logic_error &e) {
    std::printf("  nested caught %s\n", e.what());
    try {
      std::rethrow_if_nested(e);
    } catch (const Derived &d) {
      std::printf("  inner was %s\n", d.what());
      co_return d.code * 100;
    }
  }
  co_return 0;
}

Task<int> keeper() {
  std::exception_ptr kept;
  try {
    co_await level3(9);
  } catch (...) {
    kept = std::current_exception();
  }
  Noisy n("keeper after catch");
  co_await Bounce{};
  int fine = co_await level3(1);
  std::printf("  keeper fine %d\n", fine);
  co_await Bounce{};
  if (kept)
    std::rethrow_exception(kept);
  co_return 0;
}

Task<int> picky(int v) {
  Noisy n("picky " + std::to_string(v));
  co_await Bounce{};
  co_return Picky{v};
}

Gen yields() {
  Noisy n("gen");
  co_yield 1;
  co_yield 2;
  co_yield -3;
  co_yield 4;
}

int main() {
  for (int x : {1, 3}) {
    Task<int> t = level1(x);
    std::printf("level1(%d) = %d\n", x, t.run());
  }
  {
    Task<int> t = nested(5);
    std::printf("nested = %d\n", t.run());
  }
  try {
    Task<int> t = keeper();
    t.run();
  } catch (const Derived &d) {
    std::printf("keeper rethrew %s\n", d.what());
  }
  for (int v : {4, 7}) {
    try {
      Task<int> t = picky(v);
      std::printf("picky %d -> %d\n", v, t.run());
    } catch (const std::runtime_error &e) {
      std::printf("picky threw %s\n", e.what());
    }
  }
  try {
    Gen g = yields();
    while (g.next())
      std::printf("yielded %d\n", g.h.promise().value);
  } catch (const std::out_of_range &e) {
    std::printf("gen threw %s\n", e.what());
  }
  return 0;
}
