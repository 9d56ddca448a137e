(define (longer [best : string] [w : string]) : string (if (> (string-length w) (string-length best)) w best))
(say (list-fold (string-split "a quick brownish fox" " ") "" longer))
