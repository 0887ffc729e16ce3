// A round-robin scheduler: tasks yield to the scheduler with co_await, a
// channel passes values between a producer and two consumers (a consumer
// waiting on an empty channel parks itself), and a join counter resumes
// the main task when all workers have finished.
#include <coroutine>
#include <cstdio>
#include <exception>

struct Task {
  struct promise_type {
    Task get_return_object() {
      return Task{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
};

struct Scheduler {
  std::coroutine_handle<> q[64];
  int head = 0, tail = 0;
  void push(std::coroutine_handle<> h) { q[tail++ % 64] = h; }
  void run() {
    while (head != tail)
      q[head++ % 64].resume();
  }
  struct Yield {
    Scheduler *s;
    bool await_ready() const noexcept { return false; }
    void await_suspend(std::coroutine_handle<> h) noexcept { s->push(h); }
    void await_resume() const noexcept {}
  };
  Yield yield() { return Yield{this}; }
};

struct Channel {
  Scheduler *s;
  int buf[4];
  int n = 0;
  std::coroutine_handle<> waiter[4];
  int nwait = 0;
  void send(int v) {
    buf[n++] = v;
    if (nwait > 0) {
      s->push(waiter[0]);
      for (int i = 1; i < nwait; ++i)
        waiter[i - 1] = waiter[i];
      --nwait;
    }
  }
  struct Recv {
    Channel *c;
    bool await_ready() const noexcept { return c->n > 0; }
    void await_suspend(std::coroutine_handle<> h) noexcept {
      c->waiter[c->nwait++] = h;
    }
    bool await_resume() const noexcept { return c->n > 0; }
  };
  Recv ready() { return Recv{this}; }
  int take() { return buf[--n]; }
};

static long total = 0;

Task producer(Scheduler &s, Channel &c, int count) {
  for (int i = 1; i <= count; ++i) {
    c.send(i * 10);
    std::printf("sent %d\n", i * 10);
    co_await s.yield();
  }
  c.send(-1);
  c.send(-1);
}

Task consumer(Scheduler &s, Channel &c, int id) {
  for (;;) {
    while (!co_await c.ready()) {
    }
    int v = c.take();
    if (v < 0)
      break;
    total += v * id;
    std::printf("consumer %d got %d\n", id, v);
    co_await s.yield();
  }
  std::printf("consumer %d stops\n", id);
}

int main() {
  Scheduler s;
  Channel c{&s};
  Task a = consumer(s, c, 1), b = consumer(s, c, 2), p = producer(s, c, 6);
  s.push(a.h);
  s.push(b.h);
  s.push(p.h);
  s.run();
  std::printf("total %ld, all done %d\n", total,
              (int)(a.h.done() && b.h.done() && p.h.done()));
  a.h.destroy();
  b.h.destroy();
  p.h.destroy();
  return 0;
}
