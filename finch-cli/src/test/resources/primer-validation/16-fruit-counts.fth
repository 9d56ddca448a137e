map{ "apple" 2 "pear" 1 }map "plum" 4 map-set "plum" map-get if-some int-to-string say else "none" say then
