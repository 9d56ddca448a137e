(define (is-palindrome [s : string]) : bool
  (let ((t (string-downcase s)))
    (= t (string-join (list-reverse (string-chars t)) ""))))
(define (yn [b : bool]) : string (if b "yes" "no"))
(say (string-append (yn (is-palindrome "Racecar")) " " (yn (is-palindrome "Finch"))))
