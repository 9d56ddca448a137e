(define obj (json-of-map (map-set (map-set (empty-map string json) "n" (json-of-int 3)) "s" (json-of-string "x"))))
(say (json-stringify obj))
