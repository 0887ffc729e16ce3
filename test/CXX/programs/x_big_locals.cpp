// Big locals across suspensions: a 64 KB array of longs, a 16 KB struct
// holding an array of structs, a 3-D array, a local array of
// non-trivial objects (constructors and destructors counted), and a big
// array whose address escapes to an awaiter that fills it while the
// coroutine is suspended.
#include <coroutine>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

struct Lazy {
  struct promise_type {
    long result = 0;
    Lazy get_return_object() {
      return Lazy{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_value(long v) { result = v; }
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  Lazy(Lazy &&o) noexcept : h(o.h) { o.h = nullptr; }
  explicit Lazy(std::coroutine_handle<promise_type> h) : h(h) {}
  ~Lazy() {
    if (h)
      h.destroy();
  }
};

static int alive = 0;
struct Obj {
  std::string s;
  Obj() : s(30, 'o') { ++alive; }
  ~Obj() { --alive; }
};

struct Cell {
  double d;
  int i;
  char tag[4];
};
struct Sheet {
  Cell cells[1000];
  int rows;
};

static long *pending_buf = nullptr;
static int pending_n = 0;

struct FillLater {
  long *buf;
  int n;
  bool await_ready() noexcept { return false; }
  void await_suspend(std::coroutine_handle<>) noexcept {
    pending_buf = buf;
    pending_n = n;
  }
  void await_resume() noexcept {}
};

Lazy big(int seed) {
  long a[8192]; // 64 KB
  for (int i = 0; i < 8192; ++i)
    a[i] = (long)i * seed;
  Sheet sh;
  sh.rows = seed;
  for (int i = 0; i < 1000; ++i)
    sh.cells[i] = Cell{i * 0.5, i + seed, {'a', 'b', char('0' + i % 10), 0}};
  co_await std::suspend_always{};
  int cube[16][16][16];
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j)
      for (int k = 0; k < 16; ++k)
        cube[i][j][k] = i * 256 + j * 16 + k + seed;
  Obj objs[20];
  std::printf("alive %d\n", alive);
  long fill[1000];
  std::memset(fill, 0, sizeof fill);
  co_await FillLater{fill, 1000};
  long s = 0;
  for (long x : a)
    s += x;
  for (const Cell &c : sh.cells)
    s += (long)(c.d * 2) + c.i + c.tag[2];
  s += cube[15][15][15] + cube[3][2][1];
  for (long x : fill)
    s += x;
  for (const Obj &o : objs)
    s += (long)o.s.size();
  co_return s + sh.rows;
}

int main() {
  Lazy l1 = big(3), l2 = big(5);
  l1.h.resume();
  l2.h.resume();
  l1.h.resume();
  for (int i = 0; i < pending_n; ++i)
    pending_buf[i] = i % 7;
  l1.h.resume();
  std::printf("l1 %ld done %d alive %d\n", l1.h.promise().result,
              (int)l1.h.done(), alive);
  l2.h.resume(); // l2 destroyed while suspended with 20 live Objs
  std::printf("alive before destroy %d\n", alive);
  l2.h.destroy();
  l2.h = nullptr;
  std::printf("alive after destroy %d\n", alive);
  return 0;
}
