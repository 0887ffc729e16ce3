// Exceptions in the ramp: an eager task throws before its first suspension
// (stored, rethrown by get()); a parameter whose copy constructor throws
// while the frame is being set up (the frame is freed, the exception
// reaches the caller); get_return_object runs before either.
#include <coroutine>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>

static int frames = 0;

// Every handle escapes through a volatile store and every coroutine is
// noinline, so no optimizer may elide a frame's allocation (LLVM's
// CoroElide, coro's --coro-elide): the counts are the same at every -O
// level and under both routes.
static void *volatile escaped;

struct Eager {
  struct promise_type {
    int value = 0;
    std::exception_ptr error;
    static void *operator new(std::size_t n) {
      ++frames;
      return std::malloc(n);
    }
    static void operator delete(void *p) {
      --frames;
      std::free(p);
    }
    Eager get_return_object() {
      std::printf("get_return_object\n");
      auto h = std::coroutine_handle<promise_type>::from_promise(*this);
      escaped = h.address();
      return Eager{h};
    }
    std::suspend_never initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_value(int v) noexcept { value = v; }
    void unhandled_exception() { error = std::current_exception(); }
  };
  std::coroutine_handle<promise_type> h;
  int get() {
    if (h.promise().error)
      std::rethrow_exception(h.promise().error);
    return h.promise().value;
  }
  ~Eager() {
    if (h)
      h.destroy();
  }
};

struct Touchy {
  int v;
  explicit Touchy(int v) : v(v) {}
  Touchy(const Touchy &o) : v(o.v) {
    if (v < 0)
      throw std::invalid_argument("negative Touchy copied");
  }
  Touchy(Touchy &&o) : Touchy(static_cast<const Touchy &>(o)) {}
  ~Touchy() { std::printf("~Touchy %d\n", v); }
};

[[gnu::noinline]] Eager compute(int x) {
  if (x > 10)
    throw std::domain_error("x > 10");
  co_return x * 3;
}

[[gnu::noinline]] Eager with_param(Touchy t) {
  std::printf("body sees %d\n", t.v);
  co_return t.v + 1;
}

int main() {
  for (int x : {4, 11}) {
    try {
      Eager e = compute(x);
      std::printf("compute(%d) = %d\n", x, e.get());
    } catch (const std::exception &ex) {
      std::printf("compute(%d) threw %s\n", x, ex.what());
    }
  }
  for (int v : {5, -5}) {
    try {
      Eager e = with_param(Touchy(v));
      std::printf("with_param(%d) = %d\n", v, e.get());
    } catch (const std::exception &ex) {
      std::printf("with_param(%d) threw %s\n", v, ex.what());
    }
  }
  std::printf("frames alive: %d\n", frames);
  return 0;
}
