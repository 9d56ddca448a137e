(say (json-stringify (json-of-map (map "n" (json-of-int 3) "s" (json-of-string "x")))))
