( a comment at the start ) 10 :> n
n n * :> sq
[: ( int -- int ) sq + ;] :> addsq
5 addsq execute int-to-string say
['] int-to-string :> show 42 show execute say
100 constant limit limit n - drop
3 constant<int> three
: uses-word ( -- int ) n ; \ here n is not a local: it calls the word n
