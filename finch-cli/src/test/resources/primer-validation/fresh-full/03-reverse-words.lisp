(define (rev [w : string]) : string (string-join (list-reverse (string-chars w)) ""))
(say (string-join (list-map (string-split "hello finch world" " ") (lambda ([w : string]) (rev w))) " "))
