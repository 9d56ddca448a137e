(define (count-errors [f : string]) : int
  (let ((s (file-lines-open (path f))) (n 0) (more true))
    (while more
      (match-option (stream-next s)
        (some line (when (string-contains line "ERROR") (set! n (+ n 1))))
        (none (set! more false))))
    (stream-close s)
    n))
(say (int-to-string (count-errors "app.log")))
