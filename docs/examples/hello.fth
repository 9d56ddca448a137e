\ Hello in Co-Forth: `say` appends text to the response, exactly as given.
: greet ( string -- ) "hello, " say say "!\n" say ;
"world" greet
40 2 + int-to-string "the answer is " say say "\n" say
