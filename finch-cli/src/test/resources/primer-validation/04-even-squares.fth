: even? ( int -- bool ) 2 mod 0 = ;
: square ( int -- int ) dup * ;
[1, 2, 3, 4, 5, 6] ['] even? list-filter ['] square list-map 0 [: ( int int -- int ) + ;] list-fold int-to-string say
