// try/catch around co_await inside loops: every iteration enters a try
// block holding a non-trivial local, suspends, and then throws or not
// depending on the iteration (thrown by the awaiter's await_resume, by
// the body after resumption, or by a nested call); handlers count, keep
// values computed before the suspension, and continue or break the loop;
// a catch(...) that rethrows to an outer try in the same coroutine
// around the whole loop; a generator whose consumer loop catches and
// resumes a fresh generator; and a destroy of a frame suspended inside a
// try block (no exception: destructors only).
#include <coroutine>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>

static int live = 0;
struct Guard {
  int id;
  explicit Guard(int i) : id(i) { ++live; }
  ~Guard() { --live; }
};

struct Task {
  struct promise_type {
    std::string failure;
    Task get_return_object() {
      return Task{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() {
      try {
        throw;
      } catch (const std::exception &e) {
        failure = e.what();
      }
    }
  };
  std::coroutine_handle<promise_type> h;
  explicit Task(std::coroutine_handle<promise_type> h) : h(h) {}
  Task(Task &&o) noexcept : h(std::exchange(o.h, nullptr)) {}
  ~Task() {
    if (h)
      h.destroy();
  }
  int finish() {
    int n = 0;
    while (!h.done()) {
      h.resume();
      ++n;
    }
    return n;
  }
};

struct MaybeThrow {
  int i;
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<>) noexcept {}
  int await_resume() const {
    if (i % 5 == 1)
      throw std::runtime_error("awaiter " + std::to_string(i));
    return i * 2;
  }
};

[[gnu::noinline]] void deep(int i) {
  if (i % 7 == 3)
    throw i; // not a std::exception: reaches catch (...)
}

Task worker(int n) {
  long sum = 0;
  int caught = 0;
  bool outer_caught = false;
  try {
    for (int i = 0; i < n; ++i) {
      long before = sum + i;
      try {
        Guard g(i);
        int v = co_await MaybeThrow{i};
        if (i % 6 == 4)
          throw std::logic_error("body " + std::to_string(i));
        deep(i);
        co_await std::suspend_always{};
        sum += v;
      } catch (const std::runtime_error &e) {
        ++caught;
        std::printf("  caught %s before %ld live %d\n", e.what(), before, live);
        continue;
      } catch (const std::logic_error &e) {
        ++caught;
        std::printf("  caught logic %s live %d\n", e.what(), live);
        if (i > 20)
          break;
      } catch (...) {
        std::printf("  rethrowing at %d live %d\n", i, live);
        if (i > 15)
          throw;
        ++caught;
      }
      co_await std::suspend_always{};
    }
  } catch (int e) {
    std::printf("  outer caught int %d live %d\n", e, live);
    outer_caught = true; // co_await is not allowed in a handler
  }
  if (outer_caught) {
    co_await std::suspend_always{};
    throw std::runtime_error("escaped after outer catch");
  }
  std::printf("  worker sum %ld caught %d\n", sum, caught);
}

struct Gen {
  struct promise_type {
    int value = 0;
    std::exception_ptr e;
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
    void unhandled_exception() { e = std::current_exception(); }
  };
  std::coroutine_handle<promise_type> h;
  explicit Gen(std::coroutine_handle<promise_type> h) : h(h) {}
  Gen(Gen &&o) noexcept : h(std::exchange(o.h, nullptr)) {}
  Gen &operator=(Gen &&o) noexcept {
    if (h)
      h.destroy();
    h = std::exchange(o.h, nullptr);
    return *this;
  }
  ~Gen() {
    if (h)
      h.destroy();
  }
  bool next() {
    h.resume();
    if (h.promise().e)
      std::rethrow_exception(std::exchange(h.promise().e, nullptr));
    return !h.done();
  }
};

Gen flaky(int start) {
  Guard g(start);
  for (int i = start;; ++i) {
    try {
      Guard inner(i);
      co_yield i;
      if (i % 4 == 3)
        throw std::runtime_error("flaky " + std::to_string(i));
    } catch (const std::logic_error &) {
      // never: runtime_error passes through to unhandled_exception
    }
  }
}

Task parked_in_try() {
  try {
    Guard g(99);
    co_await std::suspend_always{};
    co_await std::suspend_always{};
  } catch (...) {
    std::printf("  never\n");
  }
}

int main() {
  for (int n : {12, 30}) {
    Task t = worker(n);
    int resumes = t.finish();
    std::printf("worker(%d) resumes %d failure '%s' live %d\n", n, resumes,
                t.h.promise().failure.c_str(), live);
  }
  int total = 0, restarts = 0;
  Gen g = flaky(0);
  for (int k = 0; k < 12; ++k) {
    try {
      if (!g.next())
        break;
      total += g.h.promise().value;
    } catch (const std::exception &e) {
      std::printf("gen threw %s live %d\n", e.what(), live);
      g = flaky(total % 10);
      ++restarts;
    }
  }
  std::printf("gen total %d restarts %d\n", total, restarts);
  {
    Task p = parked_in_try();
    p.h.resume();
    std::printf("parked live %d\n", live);
  }
  std::printf("end live %d\n", live);
  return 0;
}
