(define (reverse-word [w : string]) : string (string-join (list-reverse (string-chars w)) ""))
(say (string-join (list-map (string-split "hello finch world" " ") reverse-word) " "))
