[1, 2, 3, 4, 5, 6]
[: ( int -- bool ) 2 mod 0 = ;] list-filter
[: ( int -- int ) dup * ;] list-map
0 [: ( int int -- int ) + ;] list-fold
int-to-string say
