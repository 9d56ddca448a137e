(define (average-age [f : string]) : int
  (let ((s (csv-open (path f))) (total 0) (n 0) (more true) (header true))
    (while more
      (match-option (stream-next s)
        (some row (if header (set! header false)
                      (begin (set! total (+ total (match-option (string-to-int (unwrap (list-get row 1))) (some a a) (none 0))))
                             (set! n (+ n 1)))))
        (none (set! more false))))
    (stream-close s)
    (/ total n)))
(say (int-to-string (average-age "people.csv")))
