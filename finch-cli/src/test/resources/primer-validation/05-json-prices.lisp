(define (price [item : json]) : int
  (match-option (json-get item "price") (some p (match-option (json-as-int p) (some n n) (none 0))) (none 0)))
(match-result (json-parse "[{\"name\":\"pen\",\"price\":3},{\"name\":\"ink\",\"price\":12}]")
  (ok j (say (int-to-string (list-fold (list-map (match-option (json-array j) (some xs xs) (none (empty-list json))) price) 0 (lambda ([a : int] [b : int]) (+ a b))))))
  (err e (say e)))
