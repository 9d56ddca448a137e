(define (avg [f : string]) : int
  (let ((s (csv-open (path f))) (sum 0) (n 0) (more true))
    (while more
      (match-option (stream-next s)
        (some r (let ((v (match-option (list-get r 1) (some a (string-to-int (string-trim a))) (none (none)))))
                  (when (is-some v) (set! sum (+ sum (unwrap v))) (set! n (+ n 1)))))
        (none (set! more false))))
    (stream-close s)
    (/ sum n)))
(say (int-to-string (avg "people.csv")))
