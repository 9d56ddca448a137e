map{ "apple" 1 "pear" 2 "fig" 3 }map "kiwi" 4 map-set map-size int-to-string say
