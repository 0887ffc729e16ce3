// when_all over N lazy tasks kept in a std::vector<Task>: a parent task
// starts every child, each child yields to a hand-written FIFO scheduler
// (std::deque<std::coroutine_handle<>>) a different number of times, the
// last child to finish resumes the parent (a countdown in the parent's
// frame), and the results are summed. The order of events is printed.
#include <coroutine>
#include <cstdio>
#include <deque>
#include <exception>
#include <utility>
#include <vector>

static std::deque<std::coroutine_handle<>> ready;

struct Reschedule {
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) const { ready.push_back(h); }
  void await_resume() const noexcept {}
};

struct Task {
  struct promise_type {
    long value = 0;
    std::coroutine_handle<> cont;
    Task get_return_object() {
      return Task{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct Final {
      bool await_ready() noexcept { return false; }
      void await_suspend(std::coroutine_handle<promise_type> h) noexcept {
        if (auto c = h.promise().cont)
          ready.push_back(c);
      }
      void await_resume() noexcept {}
    };
    Final final_suspend() noexcept { return {}; }
    void return_value(long v) { value = v; }
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  explicit Task(std::coroutine_handle<promise_type> h) : h(h) {}
  Task(Task &&o) noexcept : h(std::exchange(o.h, nullptr)) {}
  Task &operator=(Task &&o) noexcept {
    if (h)
      h.destroy();
    h = std::exchange(o.h, nullptr);
    return *this;
  }
  ~Task() {
    if (h)
      h.destroy();
  }
  // Awaiting a task starts it and resumes the awaiter when it ends.
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> c) noexcept {
    h.promise().cont = c;
    return h;
  }
  long await_resume() const noexcept { return h.promise().value; }
};

// One child of when_all: wraps a task, counts down, wakes the parent.
struct Joiner {
  struct promise_type {
    int *remaining;
    std::coroutine_handle<> parent;
    Joiner get_return_object() {
      return Joiner{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct Final {
      bool await_ready() noexcept { return false; }
      void await_suspend(std::coroutine_handle<promise_type> h) noexcept {
        auto &p = h.promise();
        if (--*p.remaining == 0)
          ready.push_back(p.parent);
      }
      void await_resume() noexcept {}
    };
    Final final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  explicit Joiner(std::coroutine_handle<promise_type> h) : h(h) {}
  Joiner(Joiner &&o) noexcept : h(std::exchange(o.h, nullptr)) {}
  ~Joiner() {
    if (h)
      h.destroy();
  }
};

Joiner join_one(Task &t, long &out) {
  out = co_await t;
}

struct WhenAll {
  std::vector<Joiner> &joiners;
  int &remaining;
  bool await_ready() const noexcept { return joiners.empty(); }
  void await_suspend(std::coroutine_handle<> parent) {
    for (auto &j : joiners) {
      j.h.promise().remaining = &remaining;
      j.h.promise().parent = parent;
      ready.push_back(j.h);
    }
  }
  void await_resume() const noexcept {}
};

Task child(int id, int hops) {
  long acc = id;
  for (int i = 0; i < hops; ++i) {
    std::printf("  child %d hop %d\n", id, i);
    co_await Reschedule{};
    acc = acc * 2 + i;
  }
  std::printf("  child %d done %ld\n", id, acc);
  co_return acc;
}

Task when_all_sum(int n) {
  std::vector<Task> tasks;
  for (int i = 0; i < n; ++i)
    tasks.push_back(child(i + 1, (i * 7) % 4));
  std::vector<long> results(n);
  std::vector<Joiner> joiners;
  for (int i = 0; i < n; ++i)
    joiners.push_back(join_one(tasks[i], results[i]));
  int remaining = n;
  co_await WhenAll{joiners, remaining};
  long sum = 0;
  for (int i = 0; i < n; ++i) {
    std::printf("  result[%d] = %ld\n", i, results[i]);
    sum += results[i];
  }
  // A second round, awaited one after another.
  for (int i = 0; i < 3; ++i)
    sum += co_await child(100 + i, i);
  co_return sum;
}

int main() {
  for (int n : {0, 1, 5}) {
    std::printf("when_all of %d\n", n);
    Task t = when_all_sum(n);
    ready.push_back(t.h);
    int steps = 0;
    while (!ready.empty()) {
      auto h = ready.front();
      ready.pop_front();
      h.resume();
      ++steps;
    }
    std::printf("sum %ld after %d scheduler steps, done %d\n",
                t.h.promise().value, steps, (int)t.h.done());
  }
  return 0;
}
