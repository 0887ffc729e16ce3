define void @f() {
  callbr void asm "", "!ifine void @f() {
 "() to label %a [label %b]
a:
  ret void
b:
  ret void
}
