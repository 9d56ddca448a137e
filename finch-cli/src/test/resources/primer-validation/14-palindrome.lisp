(define (palindrome? [s : string]) : bool
  (let ((t (string-downcase s))) (= t (string-join (list-reverse (string-chars t)) ""))))
(say (if (palindrome? "Level") "yes" "no"))
(say (if (palindrome? "Finch") " yes" " no"))
