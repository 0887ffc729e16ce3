declare swiftcc void @g(ptr)

define void @h(ptr %p) {
  call swiftcc void @g(ptr swiftself %p)
  ret void
}
