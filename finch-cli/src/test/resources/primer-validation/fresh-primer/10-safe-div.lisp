(define (safe-div [a : int] [b : int]) : result<int,string>
  (if (= b 0) (err "division by zero") (ok (/ a b))))
(define (chain [a : int] [b : int] [c : int]) : result<int,string>
  (safe-div (try (safe-div a b)) c))
(define (show [r : result<int,string>]) : string
  (match-result r (ok v (int-to-string v)) (err e e)))
(say (string-append (show (chain 100 5 2)) " " (show (chain 100 0 2))))
