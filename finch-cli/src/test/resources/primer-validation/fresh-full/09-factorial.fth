: fact ( int -- int ) dup 1 <= if drop 1 else dup 1 - fact * then ;
10 fact int-to-string say
