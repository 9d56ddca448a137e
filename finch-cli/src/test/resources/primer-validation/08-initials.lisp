(define (initial [w : string]) : string (string-upcase (string-slice w 0 1)))
(say (string-join (list-map (string-split "ada lovelace" " ") initial) ""))
