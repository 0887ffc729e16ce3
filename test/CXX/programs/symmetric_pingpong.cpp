// Symmetric transfer between peers: two coroutines hand control to each
// other with await_suspend returning the other's handle, 1000 times, then
// the last one returns std::noop_coroutine() to get back to main.
#include <coroutine>
#include <cstdio>
#include <exception>

struct Player {
  struct promise_type {
    std::coroutine_handle<> peer;
    Player get_return_object() {
      return Player{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
};

struct PassTo {
  std::coroutine_handle<> target;
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<>) noexcept {
    return target ? target : std::noop_coroutine();
  }
  void await_resume() const noexcept {}
};

static long trace = 0;

Player play(const char *name, int rounds, std::coroutine_handle<> *peer) {
  for (int i = 0; i < rounds; ++i) {
    trace = trace * 31 + name[0] + i;
    trace %= 1000000007;
    if (i % 250 == 0)
      std::printf("%s round %d\n", name, i);
    co_await PassTo{*peer};
  }
  std::printf("%s finished\n", name);
  co_await PassTo{nullptr};
}

int main() {
  std::coroutine_handle<> to_pong, to_ping;
  Player ping = play("ping", 1000, &to_pong);
  Player pong = play("pong", 1000, &to_ping);
  to_pong = pong.h;
  to_ping = ping.h;
  ping.h.resume();
  std::printf("back in main, trace %ld, pong done %d\n", trace,
              (int)pong.h.done());
  pong.h.resume();
  std::printf("ping done %d pong done %d\n", (int)ping.h.done(),
              (int)pong.h.done());
  ping.h.destroy();
  pong.h.destroy();
  return 0;
}
