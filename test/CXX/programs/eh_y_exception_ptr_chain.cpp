// An exception stored as a std::exception_ptr by unhandled_exception and
// rethrown by the awaiter's await_resume, through a chain of three tasks
// (leaf throws, middle awaits it, top awaits middle). The middle task
// catches some exceptions: a handler may not co_await, so it records what
// it caught and the task co_awaits a recovery task after the handler; the
// rest propagate to top and to main. Destructors of locals in every frame
// print, and a frame counter shows nothing leaks.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>

static int frames = 0;

struct Local {
  std::string name;
  explicit Local(std::string n) : name(std::move(n)) {}
  ~Local() { std::printf("    ~%s\n", name.c_str()); }
};

template <typename T> struct Task {
  struct promise_type {
    T value{};
    std::exception_ptr error;
    std::coroutine_handle<> cont;
    promise_type() { ++frames; }
    ~promise_type() { --frames; }
    Task get_return_object() {
      return Task{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct Final {
      bool await_ready() noexcept { return false; }
      std::coroutine_handle<>
      await_suspend(std::coroutine_handle<promise_type> h) noexcept {
        auto c = h.promise().cont;
        return c ? c : std::noop_coroutine();
      }
      void await_resume() noexcept {}
    };
    Final final_suspend() noexcept { return {}; }
    void return_value(T v) { value = std::move(v); }
    void unhandled_exception() { error = std::current_exception(); }
  };
  std::coroutine_handle<promise_type> h;
  explicit Task(std::coroutine_handle<promise_type> h) : h(h) {}
  Task(Task &&o) noexcept : h(std::exchange(o.h, nullptr)) {}
  ~Task() {
    if (h)
      h.destroy();
  }
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> c) noexcept {
    h.promise().cont = c;
    return h;
  }
  T await_resume() {
    if (h.promise().error)
      std::rethrow_exception(h.promise().error);
    return std::move(h.promise().value);
  }
};

struct Hop {
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> h) noexcept {
    return h; // suspend and resume at once
  }
  void await_resume() const noexcept {}
};

struct Custom {
  int code;
};

Task<int> leaf(int kind) {
  Local l("leaf" + std::to_string(kind));
  co_await Hop{};
  switch (kind) {
  case 1:
    throw std::runtime_error("runtime in leaf");
  case 2:
    throw std::invalid_argument("invalid in leaf");
  case 3:
    throw Custom{42};
  case 4:
    throw 7;
  }
  co_await Hop{};
  co_return kind * 11;
}

Task<int> recovery(int v) {
  co_await Hop{};
  co_return v + 500;
}

Task<std::string> middle(int kind) {
  Local l("middle" + std::to_string(kind));
  std::string caught;
  int v = 0;
  try {
    v = co_await leaf(kind);
  } catch (const std::invalid_argument &e) {
    caught = std::string("invalid_argument: ") + e.what();
  } catch (const Custom &c) {
    caught = "Custom " + std::to_string(c.code);
    v = c.code;
  }
  if (!caught.empty()) {
    std::printf("    middle caught %s\n", caught.c_str());
    v = co_await recovery(v); // after the handler, not inside it
  }
  co_return "m" + std::to_string(v);
}

Task<std::string> top(int kind) {
  Local l("top" + std::to_string(kind));
  std::string s = co_await middle(kind);
  co_await Hop{};
  co_return s + "/top";
}

int main() {
  for (int kind = 0; kind <= 4; ++kind) {
    std::printf("kind %d\n", kind);
    try {
      Task<std::string> t = top(kind);
      t.h.resume();
      std::printf("  done %d\n", (int)t.h.done());
      std::string r = t.await_resume();
      std::printf("  result %s\n", r.c_str());
    } catch (const std::runtime_error &e) {
      std::printf("  main caught runtime_error: %s\n", e.what());
    } catch (int i) {
      std::printf("  main caught int %d\n", i);
    }
    std::printf("  frames %d\n", frames);
  }
  return 0;
}
