// Addresses of frame locals that escape: a pointer to a local published
// in a global and written through by main while the coroutine is
// suspended; a self-referential struct (a pointer to its own member); a
// std::string_view into a local short string (its SSO buffer lives in
// the frame); an intrusive linked list whose nodes are locals of several
// suspended coroutines; and a local whose address is compared before and
// after every suspension (a frame never moves).
#include <coroutine>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>

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
  void resume() { h.resume(); }
};

static int *published = nullptr;

struct Node {
  int value;
  Node *next;
};
static Node *list_head = nullptr;

struct SelfRef {
  int data[4];
  int *cursor; // points into data
  SelfRef() : data{1, 2, 3, 4}, cursor(data) {}
  SelfRef(const SelfRef &) = delete;
  int take() { return *cursor++; }
};

struct Stable {
  bool moved = false;
};

Task publisher() {
  int box = 5;
  published = &box;
  co_await std::suspend_always{};
  std::printf("box after main wrote: %d\n", box);
  box += 1;
  co_await std::suspend_always{};
  std::printf("box after second write: %d\n", box);
  published = nullptr;
}

Task selfref() {
  SelfRef s;
  int got = s.take();
  co_await std::suspend_always{};
  got = got * 10 + s.take();
  co_await std::suspend_always{};
  got = got * 10 + s.take();
  std::printf("selfref %d cursor offset %td\n", got, s.cursor - s.data);
}

Task views() {
  std::string shortstr = "short"; // fits the SSO buffer: bytes in the frame
  std::string_view v = shortstr;
  const char *before = shortstr.data();
  co_await std::suspend_always{};
  shortstr[0] = 'S';
  std::printf("view %.*s same buffer %d\n", static_cast<int>(v.size()),
              v.data(), before == shortstr.data());
  std::string_view tail = v.substr(2);
  co_await std::suspend_always{};
  std::printf("tail %.*s\n", static_cast<int>(tail.size()), tail.data());
}

Task linker(int v) {
  Node n{v, list_head};
  list_head = &n;
  co_await std::suspend_always{};
  // unlink ourselves (we may not be the head any more)
  Node **pp = &list_head;
  while (*pp != &n)
    pp = &(*pp)->next;
  *pp = n.next;
  std::printf("unlinked %d\n", n.value);
}

Task stable() {
  Stable s;
  std::uintptr_t addr = reinterpret_cast<std::uintptr_t>(&s);
  int same = 0;
  for (int i = 0; i < 5; ++i) {
    co_await std::suspend_always{};
    same += reinterpret_cast<std::uintptr_t>(&s) == addr;
  }
  std::printf("address stable %d/5\n", same);
}

int main() {
  Task p = publisher();
  p.resume();
  *published = 40;
  p.resume();
  *published *= 2;
  p.resume();
  std::printf("published cleared %d\n", published == nullptr);

  Task s = selfref();
  s.resume();
  s.resume();
  s.resume();

  Task v = views();
  v.resume();
  v.resume();
  v.resume();

  Task a = linker(1), b = linker(2), c = linker(3);
  a.resume();
  b.resume();
  c.resume();
  int sum = 0, len = 0;
  for (Node *n = list_head; n; n = n->next) {
    sum = sum * 10 + n->value;
    ++len;
  }
  std::printf("list %d len %d\n", sum, len);
  b.resume();
  for (Node *n = list_head; n; n = n->next)
    std::printf("still %d\n", n->value);
  a.resume();
  c.resume();
  std::printf("empty %d\n", list_head == nullptr);

  Task st = stable();
  for (int i = 0; i < 6; ++i)
    st.resume();
  return 0;
}
