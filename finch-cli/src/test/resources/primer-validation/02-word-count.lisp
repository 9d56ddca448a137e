(define (count-words [text : string]) : map<string,int>
  (list-fold (string-split text " ") (empty-map string int)
    (lambda ([m : map<string,int>] [w : string])
      (map-set m w (+ 1 (match-option (map-get m w) (some n n) (none 0)))))))
(define counts (count-words "the cat and the hat"))
(say (string-append "the=" (int-to-string (unwrap (map-get counts "the")))))
