// Odd-shaped locals and parameters across suspensions: bit-fields (a
// struct of 3-, 5-, 1- and 23-bit fields, signed and unsigned, updated
// between suspensions), a union whose active member changes, an enum
// class with an 8-bit underlying type, bool and char arrays, pointers to
// data members and to member functions (virtual and not: two-word
// values), and a function pointer, taken as parameters and as locals.
#include <coroutine>
#include <cstdint>
#include <cstdio>
#include <cstring>
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
  explicit Task(std::coroutine_handle<promise_type> h) : h(h) {}
  Task(Task &&o) noexcept : h(o.h) { o.h = nullptr; }
  ~Task() {
    if (h)
      h.destroy();
  }
  void finish() {
    while (!h.done())
      h.resume();
  }
};

struct Bits {
  unsigned a : 3;
  int b : 5;
  bool c : 1;
  unsigned d : 23;
  std::uint8_t e;
};

union Num {
  std::int64_t i;
  double d;
  char bytes[8];
};

enum class Color : std::uint8_t { Red = 1, Green = 2, Blue = 200 };

struct Shape {
  int w = 3, h = 4;
  virtual ~Shape() = default;
  int area() const { return w * h; }
  virtual int perimeter() const { return 2 * (w + h); }
};
struct Square : Shape {
  Square() { w = h = 5; }
  int perimeter() const override { return 4 * w + 1000; }
};

static int twice(int x) { return 2 * x; }
static int square(int x) { return x * x; }

Task odd(Bits bits, Color col, int Shape::*field, int (Shape::*method)() const,
         int (*fn)(int)) {
  Num n;
  n.i = 0x4045000000000000; // bit pattern of 42.0
  bool flags[5] = {true, false, true, true, false};
  char word[6] = "coro";
  int (Shape::*area)() const = &Shape::area;
  co_await std::suspend_always{};
  std::printf("bits a=%u b=%d c=%d d=%u e=%u\n", bits.a, bits.b, bits.c,
              bits.d, bits.e);
  bits.a = bits.a + 5; // wraps at 3 bits
  bits.b = -16;
  bits.c = !bits.c;
  bits.d = bits.d * 3;
  co_await std::suspend_always{};
  std::printf("bits a=%u b=%d c=%d d=%u e=%u\n", bits.a, bits.b, bits.c,
              bits.d, bits.e);
  double as_double;
  std::memcpy(&as_double, &n.i, sizeof as_double);
  n.d = as_double + 0.5; // change the active member
  co_await std::suspend_always{};
  unsigned char top;
  std::memcpy(&top, reinterpret_cast<const unsigned char *>(&n) + 7, 1);
  std::printf("union d=%.2f byte7=%d\n", n.d, top);
  std::strcpy(n.bytes, "union"); // and again
  co_await std::suspend_always{};
  std::printf("union bytes %s\n", n.bytes);
  std::printf("color %d %s\n", static_cast<int>(col),
              col == Color::Blue ? "blue" : "other");
  word[0] = 'C';
  int nflags = 0;
  for (bool f : flags)
    nflags += f;
  co_await std::suspend_always{};
  std::printf("word %s flags %d\n", word, nflags);
  Shape s;
  Square q;
  const Shape &qs = q;
  std::printf("fields %d %d\n", s.*field, q.*field);
  co_await std::suspend_always{};
  std::printf("methods %d %d area %d %d\n", (s.*method)(), (qs.*method)(),
              (s.*area)(), (qs.*area)());
  fn = fn == twice ? square : twice;
  co_await std::suspend_always{};
  std::printf("fn(7) %d\n", fn(7));
}

int main() {
  Bits b{};
  b.a = 6;
  b.b = 11;
  b.c = true;
  b.d = 1234567;
  b.e = 250;
  Task t1 = odd(b, Color::Blue, &Shape::w, &Shape::perimeter, twice);
  t1.finish();
  b.a = 1;
  b.b = -3;
  b.c = false;
  b.d = 8388607;
  b.e = 7;
  Task t2 = odd(b, Color::Green, &Shape::h, &Shape::area, square);
  t2.finish();
  return 0;
}
