(define (avg-age [f : string]) : int
  (let ((s (csv-open (path f))) (total 0) (count 0) (first true) (more true))
    (while more
      (match-option (stream-next s)
        (some row
          (if first
              (set! first false)
              (begin
                (set! total (+ total (match-option (list-get row 1)
                                       (some a (match-option (string-to-int a) (some n n) (none 0)))
                                       (none 0))))
                (set! count (+ count 1)))))
        (none (set! more false))))
    (stream-close s)
    (if (= count 0) 0 (/ total count))))
(say (int-to-string (avg-age "people.csv")))
