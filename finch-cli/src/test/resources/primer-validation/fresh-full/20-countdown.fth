3 begin
  dup int-to-string say
  1 -
  dup 0 > if " " say then
  dup 0 =
until drop
