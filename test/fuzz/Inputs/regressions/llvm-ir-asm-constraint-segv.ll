define void @f() {
  callbr void asm "", "!^"() to label %a [label %b]
a:
  ret void
b:
  ret void
}
