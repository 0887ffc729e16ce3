// Awaiters that act on other coroutines from await_suspend: one destroys
// a finished coroutine and transfers to a third (symmetric transfer
// through the returned handle); one resumes another coroutine directly
// (a nested resume, on the awaiting coroutine's stack, before returning
// true to suspend); one destroys a coroutine that is still suspended and
// then returns false to continue at once. Every frame's locals print when
// destroyed.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>

static int frames = 0;

struct Note {
  std::string s;
  explicit Note(std::string v) : s(std::move(v)) {}
  ~Note() { std::printf("    ~%s\n", s.c_str()); }
};

struct Co {
  struct promise_type {
    std::string name;
    int step = 0;
    template <typename... A>
    promise_type(const char *n, A &&...) : name(n) { ++frames; }
    ~promise_type() { --frames; }
    Co get_return_object() {
      return Co{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  using handle = std::coroutine_handle<promise_type>;
  handle h;
};

// Destroys `victim` (finished) and transfers to `next`.
struct DestroyAndTransfer {
  Co::handle victim, next;
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(Co::handle self) noexcept {
    std::printf("  %s: destroying %s (done %d), transferring to %s\n",
                self.promise().name.c_str(), victim.promise().name.c_str(),
                (int)victim.done(), next.promise().name.c_str());
    victim.destroy();
    return next;
  }
  void await_resume() const noexcept {}
};

// Resumes `other` on this stack, then suspends (or not).
struct NestedResume {
  Co::handle other;
  bool suspend;
  bool await_ready() const noexcept { return false; }
  bool await_suspend(Co::handle self) noexcept {
    std::printf("  %s: nested resume of %s\n", self.promise().name.c_str(),
                other.promise().name.c_str());
    other.resume();
    std::printf("  %s: back from %s (done %d)\n", self.promise().name.c_str(),
                other.promise().name.c_str(), (int)other.done());
    return suspend;
  }
  void await_resume() const noexcept {}
};

// Destroys a suspended coroutine and continues without suspending.
struct DestroySuspended {
  Co::handle victim;
  bool await_ready() const noexcept { return false; }
  bool await_suspend(Co::handle self) noexcept {
    std::printf("  %s: destroying suspended %s at step %d\n",
                self.promise().name.c_str(), victim.promise().name.c_str(),
                victim.promise().step);
    victim.destroy();
    return false;
  }
  void await_resume() const noexcept {}
};

struct Step {
  bool await_ready() const noexcept { return false; }
  void await_suspend(Co::handle h) noexcept { ++h.promise().step; }
  void await_resume() const noexcept {}
};

Co simple(const char *name, int steps) {
  Note n(std::string(name) + ".note");
  for (int i = 0; i < steps; ++i) {
    std::printf("  %s step %d\n", name, i);
    co_await Step{};
  }
  std::printf("  %s finishing\n", name);
}

Co destroyer(const char *name, Co::handle *victim, Co::handle *next) {
  Note n(std::string(name) + ".note");
  std::printf("  %s started\n", name);
  co_await DestroyAndTransfer{*victim, *next};
  std::printf("  %s resumed after transfer\n", name);
}

Co nester(const char *name, Co::handle *other, Co::handle *victim) {
  Note n(std::string(name) + ".note");
  co_await NestedResume{*other, true};
  std::printf("  %s resumed by main\n", name);
  co_await NestedResume{*other, false};
  std::printf("  %s continued without suspending\n", name);
  co_await DestroySuspended{*victim};
  std::printf("  %s after destroying\n", name);
}

int main() {
  std::printf("destroy and transfer:\n");
  Co::handle a = simple("A", 0).h;
  a.resume(); // A runs to its final suspend
  Co::handle c = simple("C", 2).h;
  Co::handle b = destroyer("B", &a, &c).h;
  b.resume(); // B destroys A and runs C up to its first step
  std::printf("  main: C step %d, frames %d\n", c.promise().step, frames);
  b.resume();
  std::printf("  main: B done %d\n", (int)b.done());
  b.destroy();
  while (!c.done())
    c.resume();
  c.destroy();
  std::printf("  frames %d\n", frames);

  std::printf("nested resume:\n");
  Co::handle o = simple("O", 3).h;
  Co::handle v = simple("V", 5).h;
  v.resume();
  v.resume();
  Co::handle n = nester("N", &o, &v).h;
  n.resume();
  std::printf("  main: frames %d\n", frames);
  n.resume();
  std::printf("  main: N done %d O step %d\n", (int)n.done(),
              o.promise().step);
  n.destroy();
  o.destroy();
  std::printf("  frames %d\n", frames);
  return 0;
}
