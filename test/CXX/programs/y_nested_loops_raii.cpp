// co_return from inside nested loops (for in while in do-while) with break,
// continue and switch fall-through between suspensions, and RAII guards
// in every scope that print when they are left: by co_return (inner
// guards first), by break, by continue, and by destroying the frame while
// it is suspended deep inside the loops.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

struct Guard {
  const char *what;
  int i;
  Guard(const char *w, int i) : what(w), i(i) {}
  ~Guard() { std::printf("    ~%s(%d)\n", what, i); }
};

struct Task {
  struct promise_type {
    int result = -1;
    int yielded = 0;
    Task get_return_object() {
      return Task{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(int v) noexcept {
      yielded = v;
      return {};
    }
    void return_value(int v) {
      std::printf("    return_value(%d)\n", v);
      result = v;
    }
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  explicit Task(std::coroutine_handle<promise_type> h) : h(h) {}
  Task(Task &&o) noexcept : h(std::exchange(o.h, nullptr)) {}
  ~Task() {
    if (h)
      h.destroy();
  }
};

Task search(int target, int limit) {
  Guard outer("outer", target);
  int round = 0;
  do {
    Guard r("round", round);
    int i = 0;
    while (i < 4) {
      Guard w("while", i);
      ++i;
      if (i == 2) {
        co_yield -i;
        continue;
      }
      for (int j = 0; j < 5; ++j) {
        Guard f("for", j);
        switch ((i + j + round) % 4) {
        case 0:
          co_yield 100 * i + j;
          [[fallthrough]];
        case 1:
          if (i * 10 + j + round * 100 == target)
            co_return i * 10 + j + round * 100;
          break;
        case 2:
          co_yield 1000 + j;
          continue;
        default:
          if (j >= 3)
            break;
          continue;
        }
        if (j == 3)
          break;
      }
    }
    ++round;
  } while (round < limit);
  co_yield 9999;
  co_return -7;
}

static void drive(int target, int limit, int stop_after) {
  std::printf("search(%d, %d)%s\n", target, limit,
              stop_after ? " (destroyed early)" : "");
  Task t = search(target, limit);
  int n = 0;
  for (t.h.resume(); !t.h.done(); t.h.resume()) {
    std::printf("  yielded %d\n", t.h.promise().yielded);
    if (stop_after && ++n == stop_after) {
      std::printf("  destroying\n");
      return;
    }
  }
  std::printf("  result %d\n", t.h.promise().result);
}

int main() {
  drive(13, 3, 0);
  drive(131, 3, 0);
  drive(-1, 2, 0);
  drive(0, 3, 4);
  return 0;
}
