(define (rev [w : string]) : string
  (list-fold (list-range 0 (string-length w)) ""
    (lambda ([acc : string] [i : int]) (string-append (string-slice w i (+ i 1)) acc))))
(define (palindrome [s : string]) : string
  (let ((d (string-downcase s))) (if (= d (rev d)) "yes" "no")))
(say (string-append (palindrome "Racecar") " " (palindrome "Finch")))
