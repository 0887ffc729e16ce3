// unhandled_exception() rethrows: the exception leaves resume() (or the
// ramp, for an eager coroutine) and is caught by main. The coroutine is then
// at its final suspend point: done() is true, and destroy() frees it. No
// local with a destructor is in scope at the last suspension before the
// throw: clang leaves the suspend index of that suspension in the frame
// (llvm-project issue 61900), so destroy() would run those destructors
// again at -O2.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <stdexcept>

struct Local {
  const char *name;
  explicit Local(const char *n) : name(n) { std::printf("+%s\n", name); }
  ~Local() { std::printf("-%s\n", name); }
};

template <bool Eager> struct Co {
  struct promise_type {
    Co get_return_object() {
      return Co{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    auto initial_suspend() noexcept {
      if constexpr (Eager)
        return std::suspend_never{};
      else
        return std::suspend_always{};
    }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() {
      std::printf("unhandled_exception rethrows\n");
      throw;
    }
  };
  std::coroutine_handle<promise_type> h;
};

Co<false> lazy(int when) {
  for (int i = 0; i < when; ++i) {
    std::printf("lazy step %d\n", i);
    co_await std::suspend_always{};
  }
  Local a("lazy.a");
  for (int i = 0;; ++i) {
    Local b("lazy.b");
    if (i == when)
      throw std::runtime_error("lazy threw");
  }
}

Co<true> eager() {
  Local a("eager.a");
  throw 42;
  co_return;
}

int main() {
  Co<false> c = lazy(2);
  try {
    for (int i = 0; i < 5; ++i) {
      std::printf("resume %d\n", i);
      c.h.resume();
    }
  } catch (const std::exception &e) {
    std::printf("main caught %s, done=%d\n", e.what(), (int)c.h.done());
  }
  c.h.destroy();
  try {
    Co<true> e = eager();
    std::printf("not reached %p\n", e.h.address());
  } catch (int x) {
    std::printf("main caught %d from the ramp\n", x);
  }
  return 0;
}
