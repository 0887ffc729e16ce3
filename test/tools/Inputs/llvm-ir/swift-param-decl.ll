declare swifttailcc void @callee(ptr swiftasync, i64)

define swifttailcc void @caller(ptr %ctx, i64 %n) {
  musttail call swifttailcc void @callee(ptr %ctx, i64 %n)
  ret void
}
