(match-result (json-parse "[{\"price\":5},{\"price\":10}]")
  (ok j (say (int-to-string
    (match-option (json-array j)
      (some items (list-fold items 0
        (lambda ([acc : int] [it : json])
          (+ acc (match-option (json-get it "price")
                   (some p (match-option (json-as-int p) (some n n) (none 0)))
                   (none 0))))))
      (none 0)))))
  (err e (say e)))
