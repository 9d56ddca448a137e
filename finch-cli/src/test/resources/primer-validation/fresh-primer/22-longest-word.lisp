(define words (string-split "the quick brownish fox" " "))
(say (list-fold words ""
  (lambda ([best : string] [w : string]) (if (> (string-length w) (string-length best)) w best))))
