// Promise constructors that take the coroutine's parameters: a free
// coroutine whose promise_type(int, const std::string&) sees the
// arguments before the body runs; a member coroutine whose promise
// constructor receives *this (an lvalue reference to the object) first;
// a promise with a fallback default constructor. Also operator co_await
// (a member one and a free one) and an await_transform returning a
// reference to a long-lived awaiter that counts its uses.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>

struct Task {
  struct promise_type {
    std::string tag;
    long result = 0;
    promise_type() : tag("default") {}
    promise_type(int n, const std::string &s)
        : tag("free(" + std::to_string(n) + "," + s + ")") {}
    template <typename Obj>
    promise_type(Obj &self, int k) : tag("member(" + self.name + "," +
                                         std::to_string(k) + ")") {
      ++self.coroutines;
    }
    Task get_return_object() {
      return Task{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_value(long v) { result = v; }
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  explicit Task(std::coroutine_handle<promise_type> h) : h(h) {}
  Task(Task &&o) noexcept : h(std::exchange(o.h, nullptr)) {}
  ~Task() {
    if (h)
      h.destroy();
  }
  long run() {
    std::printf("  promise tag %s\n", h.promise().tag.c_str());
    while (!h.done())
      h.resume();
    return h.promise().result;
  }
};

// An awaitable through a member operator co_await.
struct Delay {
  int v;
  struct Awaiter {
    int v;
    bool await_ready() const noexcept { return false; }
    void await_suspend(std::coroutine_handle<>) const noexcept {}
    int await_resume() const noexcept { return v * 2; }
  };
  Awaiter operator co_await() const { return Awaiter{v}; }
};

// An awaitable through a free operator co_await.
struct Ticket {
  std::string s;
};
struct TicketAwaiter {
  std::string s;
  bool await_ready() const noexcept { return s.empty(); }
  void await_suspend(std::coroutine_handle<>) const noexcept {}
  std::size_t await_resume() const noexcept { return s.size(); }
};
TicketAwaiter operator co_await(Ticket t) { return {std::move(t.s)}; }

Task free_coro(int n, const std::string &s) {
  long acc = n;
  acc += co_await Delay{n};
  acc += (long)co_await Ticket{s};
  acc += (long)co_await Ticket{""}; // ready: no suspension
  co_return acc * 10 + (long)s.size();
}

Task no_match(double d) {
  co_await Delay{3};
  co_return (long)(d * 4);
}

// A long-lived awaiter, returned by reference from await_transform.
struct Counter {
  int uses = 0;
  int suspends = 0;
  bool await_ready() noexcept { return ++uses % 3 == 0; }
  void await_suspend(std::coroutine_handle<>) noexcept { ++suspends; }
  int await_resume() noexcept { return uses; }
};
static Counter counter;

struct Shared {
  struct promise_type {
    long result = 0;
    Shared get_return_object() {
      return Shared{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_value(long v) { result = v; }
    void unhandled_exception() { std::terminate(); }
    Counter &await_transform(int) noexcept { return counter; }
    Delay::Awaiter await_transform(Delay d) noexcept { return {d.v + 1}; }
  };
  std::coroutine_handle<promise_type> h;
  ~Shared() { h.destroy(); }
};

Shared shared_user(int n) {
  long s = 0;
  for (int i = 0; i < n; ++i)
    s = s * 3 + co_await i;
  s += co_await Delay{100};
  co_return s;
}

struct Widget {
  std::string name;
  int coroutines = 0;
  Task work(int k) {
    int base = k + (int)name.size();
    co_await Delay{base};
    co_return base * 1000 + coroutines;
  }
};

int main() {
  std::string word = "hello";
  {
    Task t = free_coro(7, word);
    std::printf("free_coro %ld\n", t.run());
  }
  {
    Task t = no_match(2.75);
    std::printf("no_match %ld\n", t.run());
  }
  {
    Widget w{"gizmo"};
    Task a = w.work(1);
    Task b = w.work(2);
    std::printf("widget coroutines %d\n", w.coroutines);
    std::printf("work a %ld\n", a.run());
    std::printf("work b %ld\n", b.run());
  }
  {
    Shared s = shared_user(7);
    int resumes = 0;
    while (!s.h.done()) {
      s.h.resume();
      ++resumes;
    }
    std::printf("shared %ld resumes %d uses %d suspends %d\n",
                s.h.promise().result, resumes, counter.uses,
                counter.suspends);
  }
  return 0;
}
