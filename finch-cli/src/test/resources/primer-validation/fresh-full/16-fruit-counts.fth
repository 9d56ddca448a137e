map{ "apple" 3 "banana" 5 "cherry" 7 }map
"date" 2 map-set
map-size int-to-string say
