(define (longest [s : string]) : string
  (list-fold (string-split s " ") ""
    (lambda ([best : string] [w : string]) (if (> (string-length w) (string-length best)) w best))))
(say (longest "the quick brownish fox jumps"))
