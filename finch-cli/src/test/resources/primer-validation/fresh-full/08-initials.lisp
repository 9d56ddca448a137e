(define (initials [name : string]) : string
  (string-upcase (string-join (list-map (string-split name " ") (lambda ([w : string]) (string-slice w 0 1))) "")))
(say (initials "ada lovelace"))
