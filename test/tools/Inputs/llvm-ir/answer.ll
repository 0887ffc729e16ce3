define i32 @main() {
  %a = add i32 40, 2
  ret i32 %a
}
