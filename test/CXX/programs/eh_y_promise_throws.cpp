// Exceptions thrown by the promise machinery rather than the body:
// get_return_object, initial_suspend's await_ready (while the ramp runs),
// return_value (inside co_return, rethrown by unhandled_exception), and an
// await_resume that throws after the coroutine was resumed by a
// scheduler. Each is caught in main; a by-value parameter that prints and
// a promise operator new/delete that count show that every frame and
// parameter copy is destroyed exactly once.
#include <coroutine>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>

static int frames = 0;
static int params_alive = 0;
static std::deque<std::coroutine_handle<>> queue;

struct Param {
  int id;
  explicit Param(int i) : id(i) { ++params_alive; }
  Param(const Param &o) : id(o.id) { ++params_alive; }
  Param(Param &&o) noexcept : id(o.id) { ++params_alive; }
  ~Param() { --params_alive; }
};

enum Fail { NONE, GRO, INIT_READY, RETURN_VALUE, AWAIT_RESUME };
static Fail fail = NONE;

struct Task {
  struct promise_type {
    int result = 0;
    promise_type() {}
    static void *operator new(std::size_t n) {
      ++frames;
      return std::malloc(n);
    }
    static void operator delete(void *p) noexcept {
      --frames;
      std::free(p);
    }
    Task get_return_object() {
      if (fail == GRO)
        throw std::runtime_error("get_return_object");
      return Task{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    struct Init {
      bool await_ready() {
        if (fail == INIT_READY)
          throw std::logic_error("initial await_ready");
        return false;
      }
      void await_suspend(std::coroutine_handle<>) noexcept {}
      void await_resume() noexcept {}
    };
    Init initial_suspend() { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_value(int v) {
      if (fail == RETURN_VALUE)
        throw std::out_of_range("return_value " + std::to_string(v));
      result = v;
    }
    void unhandled_exception() { throw; }
  };
  // A plain handle: main destroys the frame (an owning destructor could
  // destroy a frame that the failing ramp already freed).
  std::coroutine_handle<promise_type> h;
};

struct Later {
  int v;
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) { queue.push_back(h); }
  int await_resume() const {
    if (fail == AWAIT_RESUME && v == 2)
      throw std::string("await_resume after scheduling");
    return v * 10;
  }
};

[[gnu::noinline]] Task work(Param p, int n) {
  std::string local = "local" + std::to_string(p.id);
  int acc = 0;
  for (int i = 0; i < n; ++i)
    acc += co_await Later{i};
  co_return acc + (int)local.size() + p.id;
}

static void run_queue() {
  while (!queue.empty()) {
    auto h = queue.front();
    queue.pop_front();
    h.resume();
  }
}

static const char *names[] = {"none", "get_return_object",
                              "initial await_ready", "return_value",
                              "await_resume"};

static void attempt(Fail f) {
  fail = f;
  std::printf("case %s\n", names[f]);
  Task t{};
  try {
    t = work(Param(f), 4);
    std::printf("  ramp returned, frames %d\n", frames);
    queue.push_back(t.h);
    run_queue();
    std::printf("  result %d done %d\n", t.h.promise().result,
                (int)t.h.done());
  } catch (const std::exception &e) {
    std::printf("  caught std::exception: %s\n", e.what());
  } catch (const std::string &s) {
    std::printf("  caught string: %s\n", s.c_str());
  }
  queue.clear();
  if (t.h) {
    std::printf("  destroying frame, done %d\n", (int)t.h.done());
    t.h.destroy();
  }
  std::printf("  frames %d params %d\n", frames, params_alive);
}

int main() {
  for (Fail f : {NONE, GRO, INIT_READY, RETURN_VALUE, AWAIT_RESUME, NONE})
    attempt(f);
  return 0;
}
