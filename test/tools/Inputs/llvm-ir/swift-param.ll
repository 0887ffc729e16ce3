define swiftcc void @f(ptr swiftasync %ctx) {
  ret void
}
