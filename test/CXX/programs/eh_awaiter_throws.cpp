// Awaiters that throw: from await_ready, from await_suspend (the coroutine
// is resumed and the exception rethrown at the await, [expr.await]/5.1),
// and from await_resume; each caught inside the coroutine, and one that
// leaves it through unhandled_exception, caught by main.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <type_traits>

struct Co {
  struct promise_type {
    std::exception_ptr error;
    Co get_return_object() {
      return Co{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() { error = std::current_exception(); }
  };
  std::coroutine_handle<promise_type> h;
};

enum Where { Ready, Suspend, SuspendBool, SuspendHandle, Resume, None };
static std::coroutine_handle<> parked;

template <typename R> struct Thrower {
  Where where;
  bool await_ready() {
    if (where == Ready)
      throw std::runtime_error("await_ready");
    return false;
  }
  R await_suspend(std::coroutine_handle<> h) {
    if (where == Suspend || where == SuspendBool || where == SuspendHandle)
      throw std::runtime_error("await_suspend");
    parked = h;
    if constexpr (std::is_same_v<R, bool>)
      return true;
    else if constexpr (!std::is_void_v<R>)
      return std::noop_coroutine();
  }
  int await_resume() {
    if (where == Resume)
      throw std::runtime_error("await_resume");
    return 7;
  }
};

Co body() {
  int caught = 0, got = 0;
  Where order[] = {Ready, Suspend, SuspendBool, SuspendHandle, Resume, None};
  for (Where w : order) {
    try {
      if (w == SuspendBool)
        got += co_await Thrower<bool>{w};
      else if (w == SuspendHandle)
        got += co_await Thrower<std::coroutine_handle<>>{w};
      else
        got += co_await Thrower<void>{w};
      std::printf("no throw at %d, got %d\n", (int)w, got);
    } catch (const std::exception &e) {
      ++caught;
      std::printf("caught from %s (case %d)\n", e.what(), (int)w);
    }
  }
  std::printf("caught %d got %d\n", caught, got);
  co_await Thrower<bool>{Resume};
  std::printf("not reached\n");
}

int main() {
  Co c = body();
  parked = c.h;
  while (!c.h.done()) {
    std::coroutine_handle<> next = parked;
    parked = nullptr;
    std::printf("main resumes\n");
    next.resume();
  }
  if (c.h.promise().error) {
    try {
      std::rethrow_exception(c.h.promise().error);
    } catch (const std::exception &e) {
      std::printf("main caught %s\n", e.what());
    }
  }
  c.h.destroy();
  return 0;
}
