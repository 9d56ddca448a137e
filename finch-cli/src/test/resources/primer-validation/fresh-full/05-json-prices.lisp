(define (price-of [it : json]) : int
  (match-option (json-get it "price")
    (some p (match-option (json-as-int p) (some n n) (none 0)))
    (none 0)))
(define (sum-prices [text : string]) : int
  (match-result (json-parse text)
    (ok j (match-option (json-array j)
            (some items (list-fold items 0 (lambda ([acc : int] [it : json]) (+ acc (price-of it)))))
            (none 0)))
    (err e 0)))
(say (int-to-string (sum-prices "[{\"price\": 5}, {\"price\": 10}]")))
