(define (rev [w : string]) : string
  (list-fold (list-range 0 (string-length w)) ""
    (lambda ([acc : string] [i : int]) (string-append (string-slice w i (+ i 1)) acc))))
(say (string-join (list-map (string-split "hello finch world" " ") (lambda ([w : string]) (rev w))) " "))
