: classify ( int -- string ) case 0 of "zero" endof 1 of "one" endof -16 of "minus sixteen" endof otherwise drop "many" endcase ;
: countdown ( int -- ) begin dup 0 > while dup int-to-string say 1 - repeat drop ;
: twice ( int -- int ) begin 2 * dup 100 > until ;
: parse ( string -- result<int,string> ) string-to-int if-some ok else "not a number" err then ;
: add ( string string -- result<int,string> ) parse ? :> b parse ? b + ok ;
3 countdown 5 twice 0 > if "big" else "small" then say "12" "30" add
if-ok int-to-string say else say then
